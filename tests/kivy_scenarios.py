"""Scenarios that drive the real Kivy app with simulated touches (run by ``test_kivy_app.py``).

Each scenario runs in a process of its own (Kivy allows one window per process)::

    python tests/kivy_scenarios.py SCENARIO [SCREENSHOT_DIR]

It needs a display (the tests start Xvfb) and prints ``SCENARIO OK`` or exits non-zero with
the failed check. A scenario is a generator: it yields seconds to wait, or a predicate to wait
for (checked every frame), and between yields taps widgets through Kivy's own input path and
checks the engine's state.
"""

from __future__ import annotations

import os
import random
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from cinco.frontends.kivy_app import prepare_environment

prepare_environment()

from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402

from cinco.core.record import load_record  # noqa: E402
from cinco.core.state import fold  # noqa: E402
from cinco.frontends.kivy_app.app import CincoApp  # noqa: E402
from cinco.frontends.kivy_app.session import unfinished_games  # noqa: E402
from cinco.frontends.options import PlayOptions  # noqa: E402

Step = Iterator[float | Callable[[], bool]]
TIMEOUT = 60.0


class Failed(AssertionError):
    pass


def check(condition: object, message: str) -> None:
    if not condition:
        raise Failed(message)


def tap_at(x: float, y: float) -> None:
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def tap(widget: Any) -> None:
    """Tap the middle of *widget*, through the window like a finger."""
    tap_at(*widget.to_window(*widget.center))


def settled(app: CincoApp) -> Callable[[], bool]:
    """The app waits for a person: no bot thinking, no screen changing."""
    return lambda: not app.thinking and not app.manager.transition.is_active


def shot(app: CincoApp, folder: Path | None, name: str) -> None:
    if folder is not None:
        app.save_screenshot(folder / name, stop=False)


# -- helpers that play by touch ---------------------------------------------------------------


def hand_cards(app: CincoApp) -> list[int]:
    return sorted(int(b.number) for b in app.game_screen.ids.hand.children)


def human_turn(app: CincoApp, rng: random.Random, prefer_play: bool = True) -> Step:
    """Take one turn for the person to move by tapping: a card and a lit space, a card and
    Burn, or Draw / Exchange. Checks what is lit and disabled against the engine."""
    session = app.session
    assert session is not None
    screen = app.game_screen
    seat = session.to_move
    before = len(session.game.events)
    legal = session.legal()
    view = session.game.view(seat)
    check(app.manager.current == "game", f"the game screen is shown, not {app.manager.current}")
    check(hand_cards(app) == sorted(view.hand(seat)), "the hand shown is the mover's own hand")
    # Disabled buttons say why, in the engine's words (A3, A4, A5).
    check(screen.ids.draw_button.disabled == (not legal.can_draw), "Draw enabled iff legal")
    check(
        screen.ids.exchange_button.disabled == (not legal.can_exchange),
        "Exchange enabled iff legal",
    )
    for refusal in (session.draw_refusal(), session.exchange_refusal()):
        if refusal:
            check(refusal in screen.reason, f"the reason {refusal!r} is shown")
    plays = [(card, spaces) for card, spaces in legal.plays]
    choice = rng.random()
    if plays and (prefer_play or choice < 0.7):
        card, spaces = rng.choice(plays)
        tap(screen.card_button(card))
        yield 0.05
        check(app.selected == card, f"card {card} is selected")
        check(
            sorted(screen.ids.board.legal) == sorted(spaces),
            f"the lit spaces are the engine's legal spaces for {card}",
        )
        if spaces:
            space = rng.choice(spaces)
            board = screen.ids.board
            tap_at(*board.to_window(*board.space_centre(space)))
            yield 0.05
            state = session.game.state
            check(
                state.board[space] == session.config.team_of(seat),
                f"a token of seat {seat}'s team is on {space}",
            )
            check(card not in session.game.view(seat).hand(seat), "the card left the hand")
        else:
            check(screen.burn_text, "a card that burns offers Burn")
            tap(screen.ids.burn_button)
            yield 0.05
            last = session.game.state.last_play
            check(
                last is not None and last.card == card and last.space is None, f"{card} burned (A2)"
            )
    elif legal.can_draw:
        size = len(view.hand(seat))
        tap(screen.ids.draw_button)
        yield 0.05
        check(
            session.game.state.hand_size(seat) == size + 1 or session.is_over,
            "Draw took one card (A3)",
        )
    else:
        tap(screen.ids.exchange_button)
        yield 0.05
        check(session.game.state.hand_size(seat) == 4, "Exchange drew four (A4)")
    check(len(session.game.events) > before, "the engine recorded the turn")


def play_to_end(app: CincoApp, rng: random.Random, max_turns: int = 400) -> Step:
    session = app.session
    assert session is not None
    for _turn in range(max_turns):
        yield settled(app)
        session = app.session
        assert session is not None
        if session.is_over:
            return
        if app.manager.current == "privacy":
            tap(app.privacy_screen)
            yield settled(app)
        yield from human_turn(app, rng, prefer_play=False)
    raise Failed("the game did not end")


# -- scenarios --------------------------------------------------------------------------------


def full_game(app: CincoApp, folder: Path | None) -> Step:
    """One person against the greedy bot, every move by touch, to the end; then Rematch."""
    rng = random.Random(5)
    yield settled(app)
    session = app.session
    assert session is not None
    # A full hand: Draw is disabled with the engine's reason (A5).
    if session.to_move == 0:
        check(app.game_screen.ids.draw_button.disabled, "Draw is disabled with four cards")
        check("full" in app.game_screen.reason, "the reason for a disabled Draw is shown")
        events = len(session.game.events)
        tap(app.game_screen.ids.draw_button)
        yield 0.05
        check(len(session.game.events) == events, "tapping a disabled Draw changes nothing")
    yield from play_to_end(app, rng)
    yield lambda: app.manager.current == "over"
    yield settled(app)
    session = app.session
    assert session is not None
    check(session.is_over, "the engine says the game is over")
    check(app.over_screen.result == session.result(), "the result is shown")
    record = load_record(session.path)  # type: ignore[arg-type]
    check(
        fold(record.events).to_dict() == session.game.state.to_dict(),
        "the autosaved record replays to the same final state",
    )
    shot(app, folder, "kivy-game-over.png")
    old = session
    tap(app.over_screen.ids.rematch_button)
    yield settled(app)
    check(app.session is not old and not app.session.is_over, "Rematch starts a new game")  # type: ignore[union-attr]
    check(app.session.config.seats == old.config.seats, "Rematch keeps the table")  # type: ignore[union-attr]


def hot_seat(app: CincoApp, folder: Path | None) -> Step:
    """Two people: the privacy screen comes between them and no hand shows meanwhile."""
    rng = random.Random(2)
    for _turn in range(6):
        yield settled(app)
        session = app.session
        assert session is not None
        check(app.manager.current == "privacy", "the privacy screen comes first")
        name = session.config.seats[session.to_move].name
        check(name in app.privacy_screen.title, f"it names {name}")
        check(not app.game_screen.ids.hand.children, "no cards are on the game screen meanwhile")
        if _turn == 1:
            shot(app, folder, "kivy-privacy.png")
        tap(app.privacy_screen)
        yield settled(app)
        check(app.manager.current == "game", "a tap shows the game")
        seat = session.to_move
        check(
            hand_cards(app) == sorted(session.game.view(seat).hand(seat)),
            "the cards shown are the mover's",
        )
        yield from human_turn(app, rng)
        yield settled(app)
        if session.is_over:
            return


def undo(app: CincoApp, folder: Path | None) -> Step:
    """Against a bot: undo takes back the bot's reply and the person's move."""
    rng = random.Random(3)
    yield settled(app)
    session = app.session
    assert session is not None
    check(app.game_screen.ids.undo_button.disabled, "nothing to undo before the first move")
    count = len(session.game.events)
    hand = session.game.view(0).hand(0)
    # The bot thinks on a worker thread: frames keep coming and the spinner turns meanwhile.
    app.options.delay = 1.0
    frames = [0]
    ticker = Clock.schedule_interval(lambda _dt: frames.__setitem__(0, frames[0] + 1), 0)
    yield from human_turn(app, rng)
    check(app.thinking and app.game_screen.ids.thinking.running, "the thinking spinner shows")
    check("thinking" in app.game_screen.status, "the status says the bot is thinking")
    check(app.game_screen.ids.draw_button.disabled, "no buttons while the bot thinks")
    yield settled(app)
    ticker.cancel()
    check(frames[0] >= 10, f"the UI kept drawing while the bot thought ({frames[0]} frames)")
    app.options.delay = 0.0
    check(session.to_move == 0 and len(session.game.events) > count, "the bot replied")
    check(not app.game_screen.ids.undo_button.disabled, "Undo is enabled")
    tap(app.game_screen.ids.undo_button)
    yield settled(app)
    session = app.session
    assert session is not None
    check(len(session.game.events) == count, "undo went back to the person's previous turn")
    check(session.game.view(0).hand(0) == hand, "with the same cards")
    check(hand_cards(app) == sorted(hand), "shown again")
    record = load_record(session.path)  # type: ignore[arg-type]
    check(len(record.events) == count, "the autosave was rewritten to match")


def resume_start(app: CincoApp, folder: Path | None) -> Step:
    """Play two turns, then die without closing anything (like a killed process)."""
    rng = random.Random(4)
    for _ in range(2):
        yield settled(app)
        yield from human_turn(app, rng)
    yield settled(app)
    session = app.session
    assert session is not None
    (Path(os.environ["CINCO_DATA_DIR"]) / "expected.txt").write_text(str(len(session.game.events)))
    print("resume_start OK", file=sys.__stdout__, flush=True)
    os._exit(0)  # no clean shutdown: only what was flushed to disk survives


def resume_continue(app: CincoApp, folder: Path | None) -> Step:
    """The start screen offers Continue; it brings back the game where it stopped."""
    yield settled(app)
    check(app.manager.current == "start", "the app opens on the start screen")
    expected = int((Path(os.environ["CINCO_DATA_DIR"]) / "expected.txt").read_text())
    check(unfinished_games(), "an unfinished game was saved")
    button = app.start_screen.ids.continue_button
    check(not button.disabled, "Continue is enabled")
    tap(button)
    yield settled(app)
    session = app.session
    assert session is not None
    check(len(session.game.events) == expected, "every event before the kill is back")
    check(app.manager.current == "game", "the game is shown")
    yield from human_turn(app, random.Random(9))
    yield settled(app)
    record = load_record(session.path)  # type: ignore[arg-type]
    check(len(record.events) == len(session.game.events), "and it is saved as it goes on")


def start_screen(app: CincoApp, folder: Path | None) -> Step:
    """Set up a 6-player 3×2 Joker game by touch and start it."""
    yield settled(app)
    screen = app.start_screen
    six = next(b for b in screen.ids.players.children if b.text == "6")
    tap(six)
    yield 0.1
    check(len(screen.seat_rows) == 6, "six seat rows")
    tap(screen.layout_buttons["3x2"])
    yield 0.1
    joker = screen.ids.variants.children[0]
    tap(joker)
    yield 0.1
    for row in screen.seat_rows[1:]:
        row.ids.kind.text = row.kinds[1 + screen.bot_names.index("random")]
    screen.seat_rows[0].ids.name.text = "Zoe"
    yield 0.3
    shot(app, folder, "kivy-start.png")
    tap(screen.ids.start_button)
    yield settled(app)
    session = app.session
    assert session is not None
    config = session.config
    check(config.players == 6 and config.teams == 3 and config.layout == "3x2", "6 as 3×2")
    check(config.variants == ("joker",), "with Joker")
    check(config.seats[0].name == "Zoe" and not config.seats[0].is_bot, "Zoe plays seat 1")
    check(all(seat.bot == "random" for seat in config.seats[1:]), "bots elsewhere")


def replay(app: CincoApp, folder: Path | None) -> Step:
    """Finish a game, then step through it on the replay screen."""
    rng = random.Random(6)
    yield from play_to_end(app, rng)
    yield lambda: app.manager.current == "over"
    yield settled(app)
    session = app.session
    assert session is not None
    tap(app.over_screen.ids.replay_button)
    yield settled(app)
    screen = app.replay_screen
    check(app.manager.current == "replay", "the replay screen opens")
    events = list(session.game.events)
    check(screen.step == screen.steps, "it starts at the end")
    tap(screen.ids.first_button)
    yield 0.05
    check(
        screen.step == 0 and not any(t >= 0 for t in screen.ids.board.board[1:]),
        "the first step shows the empty board",
    )
    for n in range(1, 4):
        tap(screen.ids.next_button)
        yield 0.05
        state = fold(events[: screen.bounds[n]])
        check(list(screen.ids.board.board) == list(state.board), f"step {n} shows the board")
    tap(screen.ids.previous_button)
    yield 0.05
    check(screen.step == 2, "previous goes back")
    shot(app, folder, "kivy-replay.png")


def docs(app: CincoApp, folder: Path | None) -> Step:
    """Screenshots for docs/kivy.md: a game in progress with a card chosen."""
    rng = random.Random(11)
    for _ in range(7):
        yield settled(app)
        yield from human_turn(app, rng)
    yield settled(app)
    session = app.session
    assert session is not None
    legal = session.legal()
    card = max((c for c, s in legal.plays if s), default=None)
    if card is not None:
        tap(app.game_screen.card_button(card))
    yield 0.6
    shot(app, folder, "kivy-game.png")
    Window.size = (800, 1280)
    yield 1.0
    shot(app, folder, "kivy-portrait.png")


SCENARIOS: dict[str, tuple[Callable[[CincoApp, Path | None], Step], PlayOptions]] = {
    "full_game": (
        full_game,
        PlayOptions(players=2, bots={1: ("greedy", None)}, seed=21, delay=0.0),
    ),
    "hot_seat": (hot_seat, PlayOptions(players=2, seed=8, delay=0.0)),
    "undo": (undo, PlayOptions(players=2, bots={1: ("greedy", None)}, seed=12, delay=0.0)),
    "resume_start": (
        resume_start,
        PlayOptions(players=3, bots={1: ("random", None), 2: ("greedy", None)}, seed=30, delay=0.0),
    ),
    "resume_continue": (resume_continue, PlayOptions(delay=0.0)),
    "start_screen": (start_screen, PlayOptions(delay=0.0)),
    "replay": (replay, PlayOptions(players=2, bots={1: ("greedy", None)}, seed=40, delay=0.0)),
    "docs": (
        docs,
        PlayOptions(
            players=3,
            bots={1: ("greedy", None), 2: ("greedy", None)},
            names={0: "Ann", 1: "Bob", 2: "Cid"},
            seed=7,
            delay=0.0,
        ),
    ),
}


def run(name: str, folder: Path | None) -> int:
    scenario, options = SCENARIOS[name]
    app = CincoApp(options)
    outcome: dict[str, Any] = {"error": None}

    def drive(steps: Step) -> None:
        deadline = [time.monotonic() + TIMEOUT]

        def advance(_dt: float = 0.0) -> None:
            try:
                item = next(steps)
            except StopIteration:
                app.stop()
                return
            except Exception:
                outcome["error"] = traceback.format_exc()
                app.stop()
                return
            deadline[0] = time.monotonic() + TIMEOUT
            if callable(item):
                wait_for(item)
            else:
                Clock.schedule_once(advance, item)

        def wait_for(predicate: Callable[[], bool]) -> None:
            def poll(_dt: float) -> None:
                if predicate():
                    Clock.schedule_once(advance, 0)
                elif time.monotonic() > deadline[0]:
                    outcome["error"] = f"timed out waiting in {name}"
                    app.stop()
                else:
                    Clock.schedule_once(poll, 0.02)

            Clock.schedule_once(poll, 0)

        advance()

    Clock.schedule_once(lambda _dt: drive(scenario(app, folder)), 0.5)
    app.run()
    if outcome["error"]:
        print(outcome["error"], file=sys.__stderr__, flush=True)
        return 1
    print(f"{name} OK", file=sys.__stdout__, flush=True)
    return 0


if __name__ == "__main__":
    folder = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    sys.exit(run(sys.argv[1], folder))
