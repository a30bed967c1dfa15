"""The built-in bots: ``random``, ``greedy`` and ``ismcts``.

The bots' hot modules (:mod:`.kernel`, :mod:`.search`) may run compiled; :mod:`.builds`
chooses the build, and its import hook is installed here, before any of them is imported.
"""

from .builds import install as _install

_install()
