"""Turn timers, as on Board Game Arena: a reserve of time per player plus an increment per turn.

The server's clocks are the authority: :class:`Clocks` measures with a monotonic-time function
it is given (``time.monotonic`` by default, a fake in tests), so that time runs out without
anyone sleeping. One clock runs at a time: the person's whose turn it is; when their turn ends
it stops and gains the increment. A clock that reaches zero has run out: the server lets a bot
move for that player (:meth:`cinco.core.table.table.Table.play_for`) and tells everyone.

>>> now = [100.0]
>>> clocks = Clocks(TimeControl.parse("300+10"), 2, now=lambda: now[0])
>>> clocks.start(0)
>>> now[0] += 42.5
>>> clocks.remaining(0), clocks.running
(257.5, 0)
>>> clocks.start(1)  # seat 0 moved: its clock stops and gains the increment
>>> clocks.remaining(0), clocks.remaining(1)
(267.5, 300.0)
>>> now[0] += 301
>>> clocks.expired(), clocks.until_expiry()
(1, 0.0)
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cinco.core.engine.errors import CincoError
from cinco.core.words.i18n import _

#: The longest reserve or increment a table may set (a day): anything longer is a mistake.
LONGEST = 24 * 3600.0


def clock_text(seconds: float) -> str:
    """A clock's reading as a person reads it, ``m:ss``, rounded up: a clock shows ``0:00``
    only once it has run out.

    >>> clock_text(257.5), clock_text(0.2), clock_text(0), clock_text(-3)
    ('4:18', '0:01', '0:00', '0:00')
    """
    whole = math.ceil(seconds) if seconds > 0 else 0
    return f"{whole // 60}:{whole % 60:02d}"


_SPEC = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:\+\s*(\d+(?:\.\d+)?)\s*)?$")


@dataclass(frozen=True)
class TimeControl:
    """A reserve of seconds per player, and seconds added after each of their turns."""

    reserve: float
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``RESERVE[+INCREMENT]`` in seconds: ``300+10``, ``600``, ``0.5+0.1``.

        >>> TimeControl.parse("300+10")
        TimeControl(reserve=300.0, increment=10.0)
        >>> TimeControl.parse("5 minutes")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cinco.core.engine.errors.CincoError: A turn timer is RESERVE[+INCREMENT] in seconds ...
        """
        found = _SPEC.match(text) if isinstance(text, str) else None
        if found is None:
            raise CincoError(
                _("A turn timer is RESERVE[+INCREMENT] in seconds (300+10), not {text!r}.").format(
                    text=text
                )
            )
        return cls.of(float(found.group(1)), float(found.group(2) or 0))

    @classmethod
    def of(cls, reserve: object, increment: object = 0.0) -> TimeControl:
        """A checked time control (a reserve above zero, neither over a day)."""
        for value in (reserve, increment):
            if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
                raise CincoError(_("A turn timer's reserve and increment are seconds."))
        assert isinstance(reserve, int | float) and isinstance(increment, int | float)
        if not 0 < reserve <= LONGEST or not 0 <= increment <= LONGEST:
            raise CincoError(
                _(
                    "A turn timer's reserve must be above 0 and its increment at least 0, "
                    "both at most {most:g} seconds."
                ).format(most=LONGEST)
            )
        return cls(float(reserve), float(increment))

    def __str__(self) -> str:
        return f"{self.reserve:g}+{self.increment:g}"


class Clocks:
    """Every seat's clock at one table; at most one runs."""

    def __init__(
        self,
        control: TimeControl,
        seats: int,
        *,
        now: Callable[[], float] = time.monotonic,
        remaining: Sequence[float] | None = None,
    ) -> None:
        self.control = control
        self.now = now
        self.left = list(remaining) if remaining is not None else [control.reserve] * seats
        #: The seat whose clock runs, or ``None``.
        self.running: int | None = None
        self._since = now()

    def remaining(self, seat: int) -> float:
        """Seconds left on *seat*'s clock now (never below zero)."""
        left = self.left[seat]
        if seat == self.running:
            left -= self.now() - self._since
        return max(0.0, left)

    def snapshot(self) -> tuple[float, ...]:
        """Every seat's seconds left now, rounded to milliseconds."""
        return tuple(round(self.remaining(seat), 3) for seat in range(len(self.left)))

    def readings(self) -> dict[str, Any]:
        """What the store keeps so that the clocks outlive a restart of the server: every
        seat's seconds left now, and whose clock runs.

        >>> clocks = Clocks(TimeControl.of(60, 5), 2, now=lambda: 0.0)
        >>> clocks.start(1)
        >>> clocks.readings()
        {'left': [60.0, 60.0], 'running': 1}
        """
        return {"left": list(self.snapshot()), "running": self.running}

    def resume(self, readings: object, *, moved: bool = False) -> bool:
        """Set every seat's time left from *readings* (as :meth:`readings` made them), all
        clocks stopped; if the seat that was running has *moved* since (its turn ended before
        the server stopped), it gains the increment. ``False``, and nothing changed, if the
        readings do not fit these clocks (another number of seats, a value out of range).

        >>> clocks = Clocks(TimeControl.of(60, 5), 2, now=lambda: 0.0)
        >>> clocks.resume({"left": [12.5, 40.0], "running": 0}, moved=True), clocks.left
        (True, [17.5, 40.0])
        >>> clocks.resume({"left": [1e9, 40.0], "running": None}), clocks.left
        (False, [17.5, 40.0])
        """
        if not isinstance(readings, dict):
            return False
        left, running = readings.get("left"), readings.get("running")
        if not isinstance(left, list) or len(left) != len(self.left):
            return False
        if any(
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not 0 <= value <= LONGEST  # NaN fails this too
            for value in left
        ):
            return False
        if running is not None and (
            isinstance(running, bool)
            or not isinstance(running, int)
            or not 0 <= running < len(left)
        ):
            return False
        self.left = [float(value) for value in left]
        self.running = None
        if moved and running is not None:
            self.left[running] = min(LONGEST, self.left[running] + self.control.increment)
        return True

    def stop(self, *, moved: bool = True) -> None:
        """Stop the running clock; if its player *moved* (their turn ended), add the
        increment."""
        seat = self.running
        if seat is None:
            return
        self.left[seat] = self.remaining(seat)
        if moved:
            self.left[seat] = min(LONGEST, self.left[seat] + self.control.increment)
        self.running = None

    def start(self, seat: int | None) -> None:
        """The running clock's player moved: stop it (with the increment) and start *seat*'s
        (``None``: no clock runs: a bot is to move, or the game is over)."""
        self.stop()
        self.running = seat
        self._since = self.now()

    def expired(self) -> int | None:
        """The seat whose running clock has reached zero, if one has."""
        seat = self.running
        if seat is not None and self.remaining(seat) <= 0:
            return seat
        return None

    def until_expiry(self) -> float | None:
        """Seconds until the running clock reaches zero (``None``: no clock runs)."""
        seat = self.running
        return None if seat is None else self.remaining(seat)

    def run_out(self) -> None:
        """The running clock reached zero and a bot moved for its player: it stays at zero
        and gains the increment, so that the player has that long for their next turn."""
        seat = self.running
        if seat is not None:
            self.left[seat] = 0.0
            self._since = self.now()
        self.stop()
