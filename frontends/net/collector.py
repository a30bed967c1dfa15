"""Short pauses for a long-running server: the cyclic garbage collector kept off the objects
that have lived a while.

A server holds many long-lived objects (every table's events, states and connections). In
CPython a full collection walks all of them, and while it runs nothing else does: at 250
tables of four clients, ``benchmarks/server_load.py`` measured a p99 of 680 ms from a submit to
its confirmation with the collector as it comes, and 85 ms with it kept short. So every few
seconds the objects alive are moved into the collector's permanent generation
(:func:`gc.freeze`): collections then look only at what is new. Frozen objects are still
freed by reference counting when nothing holds them; what only a reference cycle keeps (a
closed table's threads and queues, say) is collected by a full collection once an hour, one
pause an hour rather than one every few seconds.
"""

from __future__ import annotations

import gc
import threading
import time

#: Seconds between freezes, and between the full collections that free frozen cycles.
FREEZE_EVERY = 5.0
COLLECT_EVERY = 3600.0


def keep_collections_short(
    freeze_every: float = FREEZE_EVERY,
    collect_every: float = COLLECT_EVERY,
    stop: threading.Event | None = None,
) -> threading.Thread:
    """Start the thread that freezes and, now and then, collects everything, until *stop*
    is set (a daemon: it ends with the process anyway)."""
    stopped = stop or threading.Event()

    def run() -> None:
        last_full = time.monotonic()
        while not stopped.wait(freeze_every):
            if time.monotonic() - last_full >= collect_every:
                gc.unfreeze()
                gc.collect()
                last_full = time.monotonic()
            gc.freeze()

    thread = threading.Thread(target=run, name="cinco-gc", daemon=True)
    thread.start()
    return thread
