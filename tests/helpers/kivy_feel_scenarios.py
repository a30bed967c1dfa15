"""Scenarios for the app's feel (run by ``test_kivy_feel.py``): dragging and forgiving touch on
a phone, the card's flight and the animations setting, and a board that rebuilds nothing while
nothing changes. Each runs in a process of its own, like ``kivy_scenarios.py``::

    python tests/helpers/kivy_feel_scenarios.py SCENARIO [SCREENSHOT_DIR]

Touches go through Kivy's own input path (``UnitTestTouch``: the window's dispatch, as a
finger's events would).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import kivy_scenarios as base
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp
from kivy_scenarios import UnitTestTouch, check, settled, shot, space_point, tap, tap_at

from cinco.core.engine.commands import Draw, Exchange, PlayCard
from cinco.core.engine.state import FREE
from cinco.frontends.kivy_app import motion, settings
from cinco.frontends.kivy_app.app import CincoApp
from cinco.frontends.kivy_app.board import REBUILDS
from cinco.frontends.kivy_app.motion import FlyingCard
from cinco.frontends.options import PlayOptions

Step = base.Step


def choose_card(app: CincoApp, least: int = 2) -> tuple[int, list[int]]:
    """Tap a card of the person to move with at least *least* lit spaces."""
    session = app.session
    assert session is not None
    card, spaces = max(session.legal().plays, key=lambda play: len(play[1]))
    check(len(spaces) >= least, f"a card with {least} spaces to go on")
    tap(app.game_screen.card_button(card))
    return card, list(spaces)


def drag(points: list[tuple[float, float]]) -> Step:
    """A finger put down on the first point, moved through the others, lifted on the last."""
    touch = UnitTestTouch(*points[0])
    touch.touch_down()
    yield 0.05
    for x, y in points[1:]:
        touch.touch_move(x, y)
        yield 0.03
    touch.touch_up()
    yield 0.05


def path(start: tuple[float, float], end: tuple[float, float], steps: int = 6) -> list[Any]:
    return [
        (start[0] + (end[0] - start[0]) * i / steps, start[1] + (end[1] - start[1]) * i / steps)
        for i in range(steps + 1)
    ]


def near_miss(app: CincoApp, spaces: list[int]) -> tuple[int, tuple[float, float]]:
    """A lit space and a point near it but over another, unlit space (where a fingertip
    lands that misses a small cell by a little)."""
    board = app.game_screen.ids.board
    size = board.cell_size
    free = [n for n in range(1, 91) if board.board[n] == FREE and n not in spaces]
    for space in spaces:
        x, y = board.space_centre(space)
        for other in free:
            ox, oy = board.space_centre(other)
            distance = math.hypot(ox - x, oy - y)
            if distance > size * 1.9:
                continue  # not a neighbour
            point = (x + (ox - x) * 0.56, y + (oy - y) * 0.56)  # over the unlit neighbour
            if board.space_at_point(*point) == other and board.target_at(*point) == space:
                return space, board.to_window(*point)
    raise base.Failed("no lit space with an unlit neighbour")


def forgiving_touch(app: CincoApp, folder: Path | None) -> Step:
    """A phone (720×1280 at density 2.625): cells too small for a fingertip are magnified
    under the finger; a drag shows the card's ghost on the nearest lit space and plays it there
    on release; a drag that leaves the board plays nothing; a tap that misses a lit space by a
    little, landing on its unlit neighbour, still chooses it."""
    yield settled(app)
    session = app.session
    assert session is not None
    board = app.game_screen.ids.board
    check(board.hex_width < dp(40), f"cells are small here ({board.hex_width / dp(1):.0f} dp)")
    seat = session.to_move
    team = session.config.team_of(seat)
    # 1. Drag from an unlit space to a lit one: the ghost follows, the lift plays it there.
    card, spaces = choose_card(app)
    yield 0.1
    target = spaces[0]
    start = next(
        n for n in range(90, 0, -1) if n not in spaces and session.public_view.board[n] == FREE
    )
    events = session.event_count
    touch = UnitTestTouch(*space_point(app, start))
    touch.touch_down()
    yield 0.05
    for point in path(space_point(app, start), space_point(app, target))[1:]:
        touch.touch_move(*point)
        yield 0.03
    check(board.ghost == target, f"the ghost shows on {target}, not {board.ghost}")
    check(board.finger and board.magnifies(), "the region under the finger is magnified")
    check(session.event_count == events, "nothing is played while the finger moves")
    yield 0.2
    shot(app, folder, "kivy-phone-drag.png")
    touch.touch_up()
    yield 0.05
    check(session.public_view.board[target] == team, f"the drag played {card} on {target}")
    check(board.ghost == 0 and not board.finger, "the ghost and magnifier go with the finger")
    yield settled(app)
    # 2. A drag that leaves the board plays nothing, wherever it passed.
    card, spaces = choose_card(app)
    yield 0.1
    events = session.event_count
    below = board.to_window(board.center_x, board.y - dp(30))
    yield from drag(path(space_point(app, spaces[0]), below))
    check(session.event_count == events, "a drag off the board plays nothing")
    check(app.pending is None and board.ghost == 0, "and shows nothing")
    # A drag that ends far from every lit space plays nothing either.
    far = next(
        n
        for n in range(1, 91)
        if session.public_view.board[n] == FREE
        and min(math.dist(space_point(app, n), space_point(app, s)) for s in spaces)
        > board.cell_size * 3
    )
    yield from drag(path(space_point(app, spaces[0]), space_point(app, far)))
    check(session.event_count == events, "a drag to no lit space plays nothing")
    # 3. A tap that misses a lit space by a little, over its unlit neighbour: that space.
    target, point = near_miss(app, spaces)
    tap_at(*point)
    yield 0.05
    check(app.pending == target, f"the near tap chose {target}, not {app.pending}")
    tap_at(*point)
    yield 0.05
    check(session.public_view.board[target] == team, f"and a second near tap played {target}")


def motion_and_setting(app: CincoApp, folder: Path | None) -> Step:
    """A played card flies from the hand to its space, but the table has the move at once;
    the bot's move that follows cancels the flight; with Animations off (the start screen's
    toggle, remembered) nothing flies or lands."""
    yield settled(app)
    session = app.session
    assert session is not None
    board = app.game_screen.ids.board
    check(motion.enabled(), "animations are on by default")
    team = session.config.team_of(session.to_move)
    card, spaces = choose_card(app, least=1)
    yield 0.1
    target = spaces[0]
    tap_at(*space_point(app, target))
    yield 0.05
    events = session.event_count
    tap_at(*space_point(app, target))
    # The same frame as the lift: the move is in, the card is on its way.
    check(session.public_view.board[target] == team, "the table has the move at once")
    check(session.event_count > events, "recorded at once")
    check(board.arriving == target, "its token waits for the card")
    flying = [w for w in Window.children if isinstance(w, FlyingCard)]
    check(len(flying) == 1 and flying[0].number == card, f"card {card} flies")
    yield lambda: not app.thinking
    # The bot answered (no delay): its move cancelled the flight, every token is there.
    check(not [w for w in Window.children if isinstance(w, FlyingCard)], "the flight ended")
    check(board.arriving == 0, "the token is drawn")
    yield settled(app)
    # Animations off, on the start screen; remembered.
    app.show_start()
    yield settled(app)
    toggle = app.start_screen.ids.motion_toggle
    check(toggle.state == "down", "the toggle shows animations on")
    tap(toggle)
    yield 0.1
    check(not motion.enabled(), "off")
    check(settings.read().get(motion.KEY) is False, "remembered in the app's settings")
    check(toggle.text == app.tr("Animations off"), f"the toggle says so: {toggle.text}")
    assert session.path is not None
    app.resume(session.path)
    yield settled(app)
    card, spaces = choose_card(app, least=1)
    yield 0.1
    tap_at(*space_point(app, spaces[0]))
    yield 0.05
    tap_at(*space_point(app, spaces[0]))
    check(board.arriving == 0 and board.landing == 1.0, "nothing flies or lands")
    check(not [w for w in Window.children if isinstance(w, FlyingCard)], "no card flies")
    motion.load()
    check(not motion.enabled(), "the next run reads it back")


def quiet_frames(app: CincoApp, folder: Path | None) -> Step:
    """While a bot thinks (the app's loop turning) the board's canvas is never built again;
    a tap's effect is built before the next frame is drawn."""
    yield settled(app)
    session = app.session
    assert session is not None
    board = app.game_screen.ids.board
    frames: list[dict[str, int]] = []

    def flipped(*_args: object) -> None:
        frames.append(dict(REBUILDS))

    # A tap: the lit spaces are built in time for the next frame.
    before = dict(REBUILDS)
    Window.bind(on_flip=flipped)
    _card, spaces = choose_card(app, least=1)
    yield lambda: len(frames) >= 1
    check(frames[0]["tokens"] > before["tokens"], "the tap's effect is in the next frame")
    check(sorted(board.legal) == sorted(spaces), "the lit spaces")
    # The move, then the bot thinks for 2 s: frames go on, the board stays as built.
    tap_at(*space_point(app, spaces[0]))
    yield 0.05
    tap_at(*space_point(app, spaces[0]))
    yield lambda: not board.moving  # the card has flown, the token landed
    # The landing's last step draws on the next frame (a trigger): let it, then count.
    settling: list[float] = []
    waiting = Clock.schedule_interval(settling.append, 0)
    yield lambda: len(settling) >= 3
    waiting.cancel()
    check(app.thinking, "the bot is thinking")
    Window.unbind(on_flip=flipped)
    ticks: list[float] = []
    ticking = Clock.schedule_interval(ticks.append, 0)  # every turn of the app's loop
    still = dict(REBUILDS)
    yield lambda: len(ticks) >= 10
    ticking.cancel()
    check(app.thinking, "still thinking")
    check(dict(REBUILDS) == still, f"no canvas built again: {still} -> {dict(REBUILDS)}")


def look(app: CincoApp, folder: Path | None) -> Step:
    """Screenshots for docs/kivy.md (animations off: the same picture every time): a game
    some moves in with a card chosen, and the same game won, its line drawn."""
    import random

    motion.set_enabled(False)
    kind = "phone" if Window.width < Window.height else "tablet"
    rng = random.Random(4)
    session = app.session
    assert session is not None
    for turn in range(200):
        yield settled(app)
        if session.is_over:
            break
        if turn == 9:
            choose_card(app, least=1)
            yield 0.5
            shot(app, folder, f"kivy-look-{kind}.png")
        legal = session.legal()
        plays = [(card, spaces) for card, spaces in legal.plays if spaces]
        if plays:
            card, spaces = rng.choice(plays)
            app.act(PlayCard(session.to_move, card, rng.choice(spaces)))
        elif legal.can_draw:
            app.act(Draw(session.to_move))
        else:
            app.act(Exchange(session.to_move))
    app.cancel_over()  # stay on the board with its winning line (the game over screen waits)
    app.manager.current = "game"
    yield settled(app)
    yield 0.3
    shot(app, folder, f"kivy-look-{kind}-won.png")


MINE: dict[str, tuple[Callable[[CincoApp, Path | None], Step], PlayOptions]] = {
    "forgiving_touch": (
        forgiving_touch,
        PlayOptions(players=2, bots={1: ("greedy", None)}, names={0: "Ann"}, seed=31, delay=0.0),
    ),
    "motion_and_setting": (
        motion_and_setting,
        PlayOptions(players=2, bots={1: ("greedy", None)}, seed=32, delay=0.0),
    ),
    "quiet_frames": (
        quiet_frames,
        # The bot's move stays "thinking" long enough to watch the loop turn. The seed makes
        # the person move first: were the bot first, the scenario's first wait would race its
        # 60 s against the step's own 60 s timeout (and lose on a busy machine).
        PlayOptions(players=2, bots={1: ("greedy", None)}, seed=34, delay=60.0),
    ),
    "look": (
        look,
        PlayOptions(players=2, bots={1: ("greedy", None)}, names={0: "Ann"}, seed=11, delay=0.0),
    ),
}
base.SCENARIOS.update(MINE)

if __name__ == "__main__":
    folder = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    sys.exit(base.run(sys.argv[1], folder))
