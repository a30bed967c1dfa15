"""The pass screen's privacy sweep, in the real Kivy app (run by test_kivy_pass_privacy.py)::

    python tests/helpers/kivy_privacy_scenarios.py SCENARIO

Two people play by touch. After each move the one who just moved keeps touching where they
touched during their turn: taps, double taps, long presses and drags, starting from 0 to 3 s
after the move's last lift, in steps. Every frame drawn meanwhile is checked: the next hand
never shows. Then the next player holds the button with their name, and it does.

Touches go in where a real input provider's do (``EventLoop._dispatch_input``): through Kivy's
post-processing (its double-tap detector marks the second tap of a pair) and the window's
``on_touch_*`` dispatch, as a finger's would.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path
from typing import Any

from cinco.frontends.kivy_app import prepare_environment

prepare_environment()

from kivy.base import EventLoop  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.metrics import dp  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy_scenarios import SCENARIOS, Step, check, hold, run, settled  # noqa: E402

from cinco.frontends.kivy_app.app import CincoApp  # noqa: E402
from cinco.frontends.kivy_app.hold import HOLD  # noqa: E402
from cinco.frontends.options import PlayOptions  # noqa: E402

Point = tuple[float, float]

#: The sweep: how long after the move each kind of touch starts (s), from 0 to 3 in steps of
#: 0.25 to 0.4 (a long press lasts 1.5 s and a drag 0.4 s, so those are spread over several
#: moves); each entry is one move.
TAP_STEPS = [round(0.25 * k, 2) for k in range(13)]
DOUBLE_STEPS = [round(0.3 * k, 2) for k in range(11)]
LONG_PRESS = 1.5
LONG_STEPS = [[offset, round(offset + 1.6, 2)] for offset in (0.0, 0.4, 0.8, 1.2)]
DRAG = 0.4
DRAG_STEPS = [[offset + 0.5 * k for k in range(6)] for offset in (0.0, 0.25)]
SWEEP: list[tuple[str, list[float]]] = [
    ("tap", TAP_STEPS),
    ("double tap", DOUBLE_STEPS),
    *(("long press", steps) for steps in LONG_STEPS),
    *(("drag", steps) for steps in DRAG_STEPS),
]


class Finger(UnitTestTouch):  # type: ignore[misc]
    """A touch fed to Kivy as its input providers feed theirs: post-processed, then
    dispatched to the window on the next frame."""

    def touch_down(self, *_args: Any) -> None:
        EventLoop._dispatch_input("begin", self)

    def touch_move(self, x: float, y: float) -> None:
        window = EventLoop.window
        self.move({"x": x / (window.width - 1.0), "y": y / (window.height - 1.0)})
        EventLoop._dispatch_input("update", self)

    def touch_up(self, *_args: Any) -> None:
        EventLoop._dispatch_input("end", self)


class Watch:
    """Checks every frame the window draws: the next player's cards never shown, and no
    hand on screen once nobody's is."""

    def __init__(self, app: CincoApp, following: int) -> None:
        self.app = app
        self.following = following
        self.frames = 0
        self.leaks: list[str] = []
        Window.bind(on_flip=self.frame)

    def frame(self, *_args: Any) -> None:
        self.frames += 1
        self.look(f"frame {self.frames}")

    def look(self, when: str) -> None:
        app = self.app
        hand = app.game_screen.ids.hand.children
        if app.shown == self.following or (app.shown is None and hand):
            self.leaks.append(f"{when}: {app.manager.current}, shown={app.shown}")

    def stop(self) -> None:
        Window.unbind(on_flip=self.frame)


def point_of(widget: Any) -> Point:
    x, y = widget.to_window(*widget.center)
    return float(x), float(y)


def tap_finger(point: Point) -> Finger:
    finger = Finger(*point)
    finger.touch_down()
    return finger


def move_by_touch(app: CincoApp, points: list[Point]) -> Step:
    """The player to move plays a card by touch (card, space, the space again), or draws
    (when two cards are left, or none plays); the points they touched go to *points*. Ends
    at the move's last lift, not yet taken in (the sweep's first touches come in the same
    frame)."""
    session = app.session
    assert session is not None
    screen = app.game_screen
    board = screen.ids.board

    def touch(point: Point, last: bool = False) -> Step:
        finger = tap_finger(point)
        yield 0.06
        finger.touch_up()
        points.append(point)
        if not last:
            yield 0.12

    legal = session.legal()
    plays = [(card, spaces) for card, spaces in legal.plays if spaces]
    few = len(session.handle(session.to_move).view.hand(session.to_move)) <= 2
    if not plays or (few and legal.can_draw):
        yield from touch(point_of(screen.ids.draw_button), last=True)
        return
    card, spaces = plays[0]
    yield from touch(point_of(screen.card_button(card)))
    check(app.selected == card, f"card {card} chosen")
    space = spaces[len(spaces) // 2]
    at = board.to_window(*board.space_centre(space))
    yield from touch((float(at[0]), float(at[1])))
    check(app.pending == space, f"{space} previewed")
    yield 0.3  # apart enough not to be a double tap: the second tap plays
    yield from touch((float(at[0]), float(at[1])), last=True)


def one_touch(kind: str, point: Point, towards: Point) -> Step:
    """The mover's touch of *kind* at *point* (a drag heads for *towards*)."""
    if kind == "tap":
        finger = tap_finger(point)
        yield 0.05
        finger.touch_up()
    elif kind == "double tap":
        # Quick enough for Kivy's detector (250 ms from the first touch's start) on a slow
        # display: the first tap and the second's start come in one frame.
        first = tap_finger(point)
        first.touch_up()
        second = tap_finger(point)
        # Kivy's detector says so (a time-out if not); one soon after another is a triple.
        yield lambda: second.is_double_tap or second.is_triple_tap
        yield 0.04
        second.touch_up()
    elif kind == "long press":
        finger = tap_finger(point)
        yield LONG_PRESS
        finger.touch_up()
    else:  # a drag from where they touched to the reveal button itself
        finger = tap_finger(point)
        for step in range(1, 9):
            yield DRAG / 8
            share = step / 8
            finger.touch_move(
                point[0] + (towards[0] - point[0]) * share,
                point[1] + (towards[1] - point[1]) * share,
            )
        finger.touch_up()


def mover_sweep(
    app: CincoApp,
    kind: str,
    starts: list[float],
    moved_at: float,
    points: list[Point],
    watch: Watch,
) -> Step:
    """The mover's touches of *kind* at *starts* seconds after *moved_at*, at *points*
    (where they touched during their move), in turn."""
    button = app.privacy_screen.ids.hold_button
    for number, start in enumerate(starts):
        wait = moved_at + start - time.monotonic()
        if wait > 0:
            yield wait
        yield from one_touch(kind, points[number % len(points)], point_of(button))
        watch.look(f"after the {kind} at {start} s")  # drawn or not


def clearance(point: Point, widget: Any) -> float:
    x, y = widget.to_window(widget.x, widget.y)
    dx = max(x - point[0], 0.0, point[0] - (x + widget.width))
    dy = max(y - point[1], 0.0, point[1] - (y + widget.height))
    return math.hypot(dx, dy)


def say(words: str) -> None:
    """Progress, on standard output: a failure or a time-out shows how far the sweep got."""
    print(words, file=sys.__stdout__, flush=True)


def sweep(app: CincoApp, _folder: Path | None) -> Step:
    yield settled(app)
    session = app.session
    assert session is not None
    screen = app.privacy_screen
    # The first player: the button is wherever, and holding it reveals.
    yield lambda: screen.ready
    yield from hold(screen.ids.hold_button)
    yield settled(app)
    for kind, starts in SWEEP:
        mover = session.to_move
        following = (mover + 1) % session.config.players
        check(app.shown == mover, f"{kind}: the mover's cards show")
        say(f"{kind} at {starts} s after the move")
        points: list[Point] = []
        watch = Watch(app, following)
        yield from move_by_touch(app, points)
        say("  moved")
        moved_at = time.monotonic()
        yield from mover_sweep(app, kind, starts, moved_at, points, watch)
        say(f"  swept: {watch.frames} frames")
        yield 0.3  # the frames after the last touch
        watch.stop()
        check(session.to_move == following, "the turn passed")
        # The app draws only what changes: the pass screen coming is drawn, a touch that
        # changes nothing is not (the state was checked after each touch too).
        check(watch.frames >= 1, f"{kind}: the frames drawn were watched ({watch.frames})")
        check(not watch.leaks, f"{kind} at {starts} s: the next hand showed: {watch.leaks[:3]}")
        check(app.manager.current == "privacy", f"{kind}: the pass screen stays")
        button = screen.ids.hold_button
        near = min(clearance(point, button) for point in points)
        check(near >= dp(24), f"the button is away from the mover's touches ({near:.0f} px)")
        name = session.config.seats[following].name
        check(name in button.text, f"the button names {name}: {button.text!r}")
        # A press on the button shorter than the hold reveals nothing either.
        yield from hold(button, HOLD * 0.6)
        yield 0.2
        check(app.shown is None, "a press shorter than a second reveals nothing")
        # The next player's deliberate act: hold their button.
        say("  holding the button")
        yield from hold(button)
        yield settled(app)
        check(app.shown == following, f"{kind}: holding {name}'s button shows {name}'s cards")
        yield lambda: bool(app.game_screen.ids.hand.children)  # their hand comes on screen
        if session.is_over:
            break


SCENARIOS["pass_privacy"] = (
    sweep,
    PlayOptions(players=2, names={0: "Ann", 1: "Bob"}, seed=14, delay=0.0),
)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1], None))
