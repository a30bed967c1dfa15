"""The built-in plugins. Each is an ordinary plugin using only the public hooks of
:mod:`cinco.core.hookspecs`; see :data:`cinco.core.registry.BUILTIN_PLUGINS`."""
