"""The built-in plugins. Each is an ordinary plugin using only the public hooks of
:mod:`cinco.core.host.hookspecs`; see :data:`cinco.core.host.registry.BUILTIN_PLUGINS`."""
