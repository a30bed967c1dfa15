"""How long a bot may think when someone waits on it: a deadline, and a flag that calls it off.

A hint (:meth:`cinco.core.table.handle.SeatHandle.hint`) runs a bot in the table's own thread, which
answers nobody else meanwhile. The table puts a :class:`Limit` around the bot's ``choose``
(:func:`limited`); a search bot reads it (:func:`current`) and stops at the deadline, or as soon
as the flag is set (the seat left, the table closes, the server stops), whatever budget it was
given. A bot that never looks is bounded by its own ``time_budget`` only.

>>> import threading
>>> with limited(0.0, threading.Event()) as limit:
...     current() is limit, limit.over()
(True, True)
>>> current() is None
True
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class Limit:
    """Think until ``deadline`` (:func:`time.perf_counter` seconds), or until ``stop`` is set."""

    deadline: float
    stop: threading.Event

    def over(self) -> bool:
        return self.stop.is_set() or time.perf_counter() >= self.deadline

    def remaining(self) -> float:
        """Seconds left (0 once called off)."""
        if self.stop.is_set():
            return 0.0
        return max(0.0, self.deadline - time.perf_counter())


_current: ContextVar[Limit | None] = ContextVar("cinco_thinking_limit", default=None)


def current() -> Limit | None:
    """The limit the caller of this bot set, if any."""
    return _current.get()


@contextlib.contextmanager
def limited(seconds: float, stop: threading.Event) -> Iterator[Limit]:
    """Within the block, bots may think *seconds* more at most (not finite or negative: none),
    and no longer once *stop* is set."""
    if not math.isfinite(seconds) or seconds < 0:
        seconds = 0.0
    limit = Limit(time.perf_counter() + seconds, stop)
    token = _current.set(limit)
    try:
        yield limit
    finally:
        _current.reset(token)
