"""The pass screen's reveal: a button that must be held, and where to put it.

Pass-and-play privacy by construction (issue 22): the next hand shows only when a finger
goes down *on* the button, stays on it without sliding, and is held :data:`HOLD` seconds
(the button fills meanwhile). A tap, a double tap or a drag is too short or moves; a touch
that began elsewhere (a finger still on the glass from the move) never starts a hold; and the
button is placed where the one who just moved did not touch (:func:`farthest_slot`), so their
long press lands elsewhere.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, RoundedRectangle
from kivy.metrics import dp
from kivy.properties import NumericProperty
from kivy.uix.label import Label

from . import theme

#: Seconds the next player holds the button.
HOLD = 1.0
#: How far (dp) a held finger may wander before the hold is given up (a drag is not a hold).
SLOP = 18.0

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x, y, width, height

#: Where the button may go: (row, anchor_x), in the order preferred when several are as far
#: from the last player's touches (the bottom row is the easiest for a thumb).
SLOTS: tuple[tuple[str, str], ...] = (
    ("bottom", "center"),
    ("top", "center"),
    ("bottom", "left"),
    ("bottom", "right"),
    ("top", "left"),
    ("top", "right"),
)


def slot_box(slot: tuple[str, str], window: Point, button: Point, margin: float) -> Box:
    """The box the button takes in *slot*, in a window of size *window*."""
    (width, height), (w, h) = window, button
    row, anchor = slot
    x = {"left": margin, "center": (width - w) / 2, "right": width - margin - w}[anchor]
    y = margin if row == "bottom" else height - margin - h
    return x, y, w, h


def distance(point: Point, box: Box) -> float:
    """From *point* to the nearest point of *box* (0 inside it).

    >>> distance((5, 5), (0, 0, 10, 10)), distance((13, 14), (0, 0, 10, 10))
    (0.0, 5.0)
    """
    x, y, w, h = box
    dx = max(x - point[0], 0.0, point[0] - (x + w))
    dy = max(y - point[1], 0.0, point[1] - (y + h))
    return math.hypot(dx, dy)


def farthest_slot(
    touches: Iterable[Point], window: Point, button: Point, margin: float
) -> tuple[str, str]:
    """The slot whose box is farthest from every one of *touches* (the nearest one counts).

    >>> farthest_slot([(500, 100)], (1000, 800), (300, 60), 10)  # a touch low in the middle
    ('top', 'left')
    >>> farthest_slot([(100, 700), (900, 700)], (1000, 800), (300, 60), 10)
    ('bottom', 'center')
    >>> farthest_slot([], (1000, 800), (300, 60), 10)
    ('bottom', 'center')
    """
    points = list(touches)
    if not points:
        return SLOTS[0]

    def clearance(slot: tuple[str, str]) -> float:
        box = slot_box(slot, window, button, margin)
        return min(distance(point, box) for point in points)

    return max(SLOTS, key=clearance)  # max keeps the first of equals: SLOTS' order


class HoldButton(Label):  # type: ignore[misc]
    """A button that fires ``on_hold`` once a finger that went down on it has stayed there
    :data:`HOLD` seconds; the bar along its foot shows how long is left."""

    #: 0 to 1: how much of the hold is done.
    progress = NumericProperty(0.0)

    __events__ = ("on_hold",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._touch: Any = None
        self._origin: Point = (0.0, 0.0)
        self._began = 0.0
        self._tick: Any = None
        with self.canvas.before:
            Color(*theme.PANEL_LIGHT)
            self._back = RoundedRectangle(radius=[dp(14)])
            Color(*theme.ACCENT)
            self._edge = RoundedRectangle(radius=[dp(14)])
            Color(*theme.PANEL_LIGHT)
            self._inner = RoundedRectangle(radius=[dp(12)])
            Color(*theme.ACCENT)
            self._bar = RoundedRectangle(radius=[dp(4)])
        self.bind(pos=self._draw, size=self._draw, progress=self._draw)

    def _draw(self, *_args: Any) -> None:
        self._back.pos = self._edge.pos = self.pos
        self._back.size = self._edge.size = self.size
        self._inner.pos = (self.x + dp(2), self.y + dp(2))
        self._inner.size = (max(self.width - dp(4), 0), max(self.height - dp(4), 0))
        self._bar.pos = (self.x + dp(8), self.y + dp(6))
        self._bar.size = (max(self.width - dp(16), 0) * self.progress, dp(8))

    @property
    def holding(self) -> bool:
        return self._touch is not None

    def on_touch_down(self, touch: Any) -> bool:
        if self.disabled or not self.collide_point(*touch.pos):
            return False
        if str(getattr(touch, "button", None) or "").startswith("scroll"):  # a mouse wheel
            return False
        if self._touch is None:  # one finger holds; another one on it changes nothing
            self._touch = touch
            self._origin = (float(touch.x), float(touch.y))
            self._began = time.monotonic()
            touch.grab(self)
            self._tick = Clock.schedule_interval(self._advance, 0)
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return bool(self.collide_point(*touch.pos))
        if touch is self._touch:
            moved = math.hypot(touch.x - self._origin[0], touch.y - self._origin[1])
            if moved > dp(SLOP) or not self.collide_point(*touch.pos):
                self.cancel()  # a drag, not a hold
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return bool(self.collide_point(*touch.pos))
        touch.ungrab(self)
        if touch is self._touch:
            self.cancel()  # lifted before the time: nothing
        return True

    def _advance(self, _dt: float) -> bool:
        if self._touch is None:
            return False
        self.progress = min(1.0, (time.monotonic() - self._began) / HOLD)
        if self.progress < 1.0:
            return True
        self._tick = None
        self._touch = None
        self.progress = 0.0
        self.dispatch("on_hold")
        return False

    def cancel(self) -> None:
        """Give the hold up (the finger lifted or slid, or the screen is left)."""
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        self._touch = None
        self.progress = 0.0

    def on_hold(self) -> None:
        pass


def keep_touches(touches: Sequence[Point], point: Point, limit: int = 24) -> list[Point]:
    """*touches* with *point* added, the oldest dropped past *limit*.

    >>> keep_touches([(1.0, 1.0), (2.0, 2.0)], (3.0, 3.0), limit=2)
    [(2.0, 2.0), (3.0, 3.0)]
    """
    return [*touches, point][-limit:]
