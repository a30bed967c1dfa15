"""Which exceptions out of a plugin's code are the plugin's failure, and which stop the process.

A plugin's hook or bot may raise anything, ``BaseException`` included: ``SystemExit`` (a
``sys.exit()`` in a plugin), ``GeneratorExit``, a ``BaseException`` subclass of its own. Each is
the plugin's failure, contained like any ``Exception`` (the plugin is named and switched off, a
rule hook's command refused, a bot's move replaced): none may stop a table that others play at,
nor leave half a turn stored.

One is not: the user's Ctrl-C. Python raises it as ``KeyboardInterrupt`` in the main thread,
wherever that thread is, plugin code included, and it must stop the process — once the turn
being stored is whole (:meth:`cinco.core.game.game.Game.execute`). A ``KeyboardInterrupt`` in any
other thread (a server's tables, the terminal's table) cannot be a signal's: a plugin raised
it. In the main thread Python cannot tell the two apart, so there one a plugin raises stops the
process too, the same clean way.

>>> user_interrupt(KeyboardInterrupt()), user_interrupt(SystemExit(0))
(True, False)
"""

from __future__ import annotations

import threading


def user_interrupt(exc: BaseException) -> bool:
    """Whether *exc* is (or may be) the user interrupting the whole process: a
    ``KeyboardInterrupt`` in the main thread. Anything else a plugin raises is its failure."""
    return isinstance(exc, KeyboardInterrupt) and (
        threading.current_thread() is threading.main_thread()
    )


__all__ = ["user_interrupt"]
