"""The built-in plugins. Each is an ordinary plugin using only the public hooks of
:mod:`cinco.core.hooks.hookspecs`; see :data:`cinco.core.host.loader.BUILTIN_PLUGINS`."""
