"""The server keeps garbage collections short (frontends/net/collector.py): what has lived a
while is frozen out of the collector's view, and a full collection now and then still frees
cycles among frozen objects."""

from __future__ import annotations

import gc
import threading
import time
import weakref

from cinco.frontends.net.collector import keep_collections_short


class Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the cyclic collector frees it


def test_long_lived_objects_are_frozen_and_frozen_cycles_still_freed() -> None:
    stop = threading.Event()
    try:
        cycle = Node()
        ref = weakref.ref(cycle)
        thread = keep_collections_short(freeze_every=0.05, collect_every=0.5, stop=stop)
        deadline = time.monotonic() + 5
        while gc.get_freeze_count() == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert gc.get_freeze_count() > 0  # frozen: ordinary collections skip it
        del cycle
        gc.collect()
        assert ref() is not None  # the frozen cycle outlives an ordinary collection...
        while ref() is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ref() is None  # ...until the periodic full collection
    finally:
        stop.set()
        thread.join(5)
        gc.unfreeze()
    assert not thread.is_alive()
