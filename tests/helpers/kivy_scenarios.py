"""Scenarios that drive the real Kivy app with simulated touches (run by ``test_kivy_app.py``).

Each scenario runs in a process of its own (Kivy allows one window per process)::

    python tests/helpers/kivy_scenarios.py SCENARIO [SCREENSHOT_DIR]

It needs a display (the tests start Xvfb) and prints ``SCENARIO OK`` or exits non-zero with
the failed check. A scenario is a generator: it yields seconds to wait, or a predicate to wait
for (checked every frame), and between yields taps widgets through Kivy's own input path and
checks what the table says (through seat handles and the record on disk: the app itself
only ever holds seat handles).
"""

from __future__ import annotations

import os
import random
import re
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
from kivy.metrics import dp  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.behaviors import ButtonBehavior  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402
from kivy.uix.slider import Slider  # noqa: E402
from kivy.uix.textinput import TextInput  # noqa: E402

from cinco.core.engine.commands import PlayCard  # noqa: E402
from cinco.core.engine.config import Layout  # noqa: E402
from cinco.core.engine.errors import RecordError  # noqa: E402
from cinco.core.engine.events import Event  # noqa: E402
from cinco.core.engine.state import fold  # noqa: E402
from cinco.core.hooks.hookspecs import hookimpl  # noqa: E402
from cinco.core.host.declarations import TeamStyle, Variant  # noqa: E402
from cinco.core.host.registry import Registry, default_registry  # noqa: E402
from cinco.core.records.record import load_record  # noqa: E402
from cinco.core.table.protocol import Accepted  # noqa: E402
from cinco.core.table.table import Table  # noqa: E402
from cinco.frontends.kivy_app.app import CincoApp  # noqa: E402
from cinco.frontends.kivy_app.hold import HOLD  # noqa: E402
from cinco.frontends.kivy_app.session import autosave_dir, unfinished_games  # noqa: E402
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


def hand_laid_out(app: CincoApp) -> bool:
    """Every card of the hand shown sits inside the hand's box: its layout has run. (A hand
    built on this frame still has its cards at (0, 0), where a tap would miss them.)"""
    hand = app.game_screen.ids.hand
    return all(
        hand.x - 1 <= card.x
        and card.right <= hand.right + 1
        and hand.y - 1 <= card.y
        and card.top <= hand.top + 1
        for card in hand.children
    )


def settled(app: CincoApp) -> Callable[[], bool]:
    """The app waits for a person: no bot thinking, no screen changing, the hand laid out."""
    return lambda: not app.thinking and not app.manager.transition.is_active and hand_laid_out(app)


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
    before = session.event_count
    legal = session.legal()
    view = session.handle(seat).view
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
            # A first tap only shows the token; a second tap or Confirm places it.
            check(session.event_count == before, "a first tap on a space plays nothing")
            check(app.pending == space and board.preview == space, f"{space} is previewed")
            check(not screen.ids.confirm_button.disabled, "Confirm is offered")
            if rng.random() < 0.5:
                tap_at(*board.to_window(*board.space_centre(space)))
            else:
                tap(screen.ids.confirm_button)
            yield 0.05
            state = session.public_view
            check(
                state.board[space] == session.config.team_of(seat),
                f"a token of seat {seat}'s team is on {space}",
            )
            check(
                session.handle(seat).view.hand(seat).count(card) < view.hand(seat).count(card),
                "the card left the hand",
            )
        else:
            check(screen.burn_text, "a card that burns offers Burn")
            tap(screen.ids.burn_button)
            yield 0.05
            last = session.public_view.last_play
            check(
                last is not None and last.card == card and last.space is None, f"{card} burned (A2)"
            )
    elif legal.can_draw:
        size = len(view.hand(seat))
        tap(screen.ids.draw_button)
        yield 0.05
        check(
            session.public_view.hand_size(seat) == size + 1 or session.is_over,
            "Draw took one card (A3)",
        )
    else:
        tap(screen.ids.exchange_button)
        yield 0.05
        check(session.public_view.hand_size(seat) == 4, "Exchange drew four (A4)")
    check(session.event_count > before, "the table recorded the turn")


def reveal(app: CincoApp) -> Step:
    """The next player holds the button with their name on the privacy screen, a second."""
    yield lambda: app.privacy_screen.ready
    yield from hold(app.privacy_screen.ids.hold_button)


def hold(widget: Any, seconds: float = HOLD + 0.2) -> Step:
    """A finger down on the middle of *widget*, kept still *seconds*, lifted."""
    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    yield seconds
    touch.touch_up()


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
            yield from reveal(app)
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
        events = session.event_count
        tap(app.game_screen.ids.draw_button)
        yield 0.05
        check(session.event_count == events, "tapping a disabled Draw changes nothing")
    yield from play_to_end(app, rng)
    yield lambda: app.manager.current == "over"
    yield settled(app)
    session = app.session
    assert session is not None
    check(session.is_over, "the table says the game is over")
    check(app.over_screen.result == session.result(), "the result is shown")
    check(session.log()[-1] == session.result(), "the move log ends with the result")
    check(session.path is not None and session.path.parent == autosave_dir(), "autosaved")
    check(
        re.fullmatch(r"\d{4}-\d\d-\d\d-\d{6}-[0-9a-f]{4}\.jsonl", session.path.name),  # type: ignore[union-attr]
        "the file is named by date and time only, never by the seed",
    )
    record = load_record(session.path)  # type: ignore[arg-type]
    final = fold(record.events)
    shown = session.public_view
    check(
        len(record.events) == session.event_count
        and final.board == shown.board
        and final.result == shown.result,
        "the autosaved record replays to the same final state",
    )
    shot(app, folder, "kivy-game-over.png")
    old = session
    tap(app.over_screen.ids.rematch_button)
    yield settled(app)
    check(app.session is not old and not app.session.is_over, "Rematch starts a new game")  # type: ignore[union-attr]
    check(app.session.config.seats == old.config.seats, "Rematch keeps the table")  # type: ignore[union-attr]


def feel(app: CincoApp, folder: Path | None) -> Step:
    """Sounds and cues over a whole game against a bot: a knock for each token, a chime when
    the bot has moved and it is the person's turn, a buzz for a refused move, an arpeggio and
    the winning line drawn in at the end; the Sounds toggle mutes them, remembered."""
    from cinco.core.engine.commands import Draw
    from cinco.core.records.saves import data_dir
    from cinco.frontends.kivy_app import settings

    rng = random.Random(7)
    yield settled(app)
    board = app.game_screen.ids.board
    celebrated: list[float] = []
    original = board.celebrate
    board.celebrate = lambda: (celebrated.append(board.sweep), original())
    session = app.session
    assert session is not None
    if session.to_move == 0 and not session.legal().can_draw:
        app.act(Draw(0))  # a full hand: the table refuses, and says so with a buzz
        yield 0.05
        check(app.sounds.played[-1:] == ["refused"], f"a refusal buzzes: {app.sounds.played}")
    yield from play_to_end(app, rng)
    played = app.sounds.played
    check("place" in played and "turn" in played, f"knocks and turn chimes: {set(played)}")
    check(played.count("win") == 1, "one fanfare at the end")
    check(len(celebrated) == 1, "the winning line is drawn in once")
    yield 0.3
    check(0.0 < board.sweep <= 1.0, "the line is being drawn in")
    sounds = data_dir() / "sounds"
    check((sounds / "place-v1.wav").stat().st_size > 1000, "the knock was made as a WAV file")
    if os.environ.get("SDL_AUDIODRIVER") == "dummy":  # an audio device that plays to nowhere
        loaded = app.sounds._loaded
        check(all(loaded.get(k) is not None for k in ("place", "turn", "win")), "they play")
    yield lambda: app.manager.current == "over"
    app.show_start()
    yield settled(app)
    toggle = app.start_screen.ids.sound_toggle
    check(toggle.state == "down" and not app.sounds.muted, "sounds are on to begin with")
    tap(toggle)
    yield 0.1
    check(app.sounds.muted and settings.read().get("muted") is True, "muted, and remembered")
    check(toggle.text == app.tr("Sounds off"), f"the toggle says so: {toggle.text}")


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
        yield from reveal(app)
        yield settled(app)
        check(app.manager.current == "game", "a tap shows the game")
        seat = session.to_move
        check(
            hand_cards(app) == sorted(session.handle(seat).view.hand(seat)),
            "the cards shown are the mover's",
        )
        yield from human_turn(app, rng)
        yield settled(app)
        if session.is_over:
            return


def undo(app: CincoApp, folder: Path | None) -> Step:
    """Against a bot: undo takes back the bot's reply and the person's move, once a reply
    showed no card (a card the bot played stays seen: the table refuses, and says why)."""
    rng = random.Random(3)
    yield settled(app)
    session = app.session
    assert session is not None
    check(app.game_screen.ids.undo_button.disabled, "nothing to undo before the first move")
    count = session.event_count
    hand = session.handle(0).view.hand(0)
    board = session.public_view.board
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
    # A frozen UI draws no frame at all in that second; a loaded CI machine draws few.
    check(frames[0] >= 3, f"the UI kept drawing while the bot thought ({frames[0]} frames)")
    app.options.delay = 0.0
    check(session.to_move == 0 and session.event_count > count, "the bot replied")
    for _turn in range(40):
        if session.can_undo:
            break
        refusal = session.undo_refusal() or ""
        check("has played a card" in refusal or "showed you" in refusal, f"why not: {refusal}")
        check(app.game_screen.ids.undo_button.disabled, "Undo is disabled meanwhile")
        hand = session.handle(0).view.hand(0)
        board = session.public_view.board
        yield from human_turn(app, rng)
        yield settled(app)
    check(not app.game_screen.ids.undo_button.disabled, "Undo is enabled")
    shot(app, folder, "kivy-undo-before.png")
    tap(app.game_screen.ids.undo_button)
    yield settled(app)
    check(app.session is session, "the same table")
    check(session.public_view.board == board, "undo took back the play and the bot's reply")
    check(session.handle(0).view.hand(0) == hand, "with the same cards")
    check(hand_cards(app) == sorted(hand), "shown again")
    check("took back" in app.game_screen.log, "the move log says so")
    check(
        app.game_screen.ids.undo_button.disabled == (not session.can_undo),
        "Undo is offered again only if the table allows it",
    )
    record = load_record(session.path)  # type: ignore[arg-type]
    check(len(record.events) == session.event_count, "the undo is in the autosave")
    check(fold(record.events).hand(0) == hand, "which replays to the same cards")
    shot(app, folder, "kivy-undo.png")


def hot_seat_undo(app: CincoApp, folder: Path | None) -> Step:
    """Two people: the one who played may not take the play back, since the other saw the
    card (it would go back into the first one's hand): Undo stays disabled, and says why."""
    yield settled(app)
    session = app.session
    assert session is not None
    yield from reveal(app)
    yield settled(app)
    first = session.to_move
    legal = session.legal()
    card, spaces = next((c, s) for c, s in legal.plays if s)
    tap(app.game_screen.card_button(card))
    yield 0.05
    board_widget = app.game_screen.ids.board
    tap_at(*board_widget.to_window(*board_widget.space_centre(spaces[0])))
    yield 0.05
    tap(app.game_screen.ids.confirm_button)
    yield settled(app)
    check(app.manager.current == "privacy", "the tablet goes to the other person")
    yield from reveal(app)
    yield settled(app)
    other = session.to_move
    check(other != first, "the other person's turn")
    button = app.game_screen.ids.undo_button
    check(button.disabled, f"Undo is not offered: {button.text}")
    refusal = session.undo_refusal() or ""
    other_name = session.config.seats[other].name
    check(f"{other_name} has seen the card" in refusal, f"the table says why: {refusal}")
    board = session.public_view.board
    tap(button)
    yield settled(app)
    check(session.to_move == other and session.public_view.board == board, "nothing changed")


def resume_start(app: CincoApp, folder: Path | None) -> Step:
    """Play two turns, then die without closing anything (like a killed process)."""
    rng = random.Random(4)
    for _ in range(2):
        yield settled(app)
        yield from human_turn(app, rng)
    yield settled(app)
    session = app.session
    assert session is not None
    (Path(os.environ["CINCO_DATA_DIR"]) / "expected.txt").write_text(str(session.event_count))
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
    check(session.event_count == expected, "every event before the kill is back")
    check(app.manager.current == "game", "the game is shown")
    yield from human_turn(app, random.Random(9))
    yield settled(app)
    record = load_record(session.path)  # type: ignore[arg-type]
    check(len(record.events) == session.event_count, "and it is saved as it goes on")


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


def language(app: CincoApp, folder: Path | None) -> Step:
    """Choose Čeština on the start screen: every screen is built again in Czech at once, the
    players chosen stay chosen, and the choice is remembered for the next start."""
    from cinco.core.words import i18n
    from cinco.frontends.kivy_app.language import saved_language

    yield settled(app)
    before = app.start_screen
    tap(next(b for b in before.ids.players.children if b.text == "3"))
    yield 0.1
    spinner = before.ids.language
    check(spinner.text == "English", f"the chooser shows the language spoken: {spinner.text}")
    tap(spinner)
    yield 0.3
    option = next(o for o in spinner._dropdown.container.children if o.text == "Čeština")
    tap(option)
    yield settled(app)
    yield 0.3
    after = app.start_screen
    check(after is not before, "the start screen was built again")
    check(i18n.current_language() == "cs" and saved_language() == "cs", "Czech, remembered")
    headings = {label.text for label in after.walk() if isinstance(label, Label)}
    check(i18n._("PLAYERS") in headings, f"the headings are in Czech: {sorted(headings)[:8]}")
    check(after.ids.language.text == "Čeština", "the chooser says Čeština")
    check(after.players == 3, "the three players chosen are kept")
    kinds = [row.ids.kind.text for row in after.seat_rows]
    check(
        kinds[1:] == [after.kind_labels()[1 + after.bot_names.index("greedy")]] * 2,
        f"and the bots, named in Czech: {kinds}",
    )
    shot(app, folder, "kivy-start-cs.png")
    tap(after.ids.start_button)
    yield settled(app)
    check(app.session is not None and app.session.config.players == 3, "a game of three")
    shot(app, folder, "kivy-game-cs.png")


class PairsLayout:
    """A third party's plugin: one more layout for four players."""

    @hookimpl
    def cinco_register_layouts(self) -> list[Layout]:
        return [Layout("pairs", players=4, teams=2, description="partners opposite")]


def plugin_registry() -> Registry:
    registry = default_registry()
    registry.register(PairsLayout(), "pairs-layout")
    return registry


def plugin_layout(app: CincoApp, folder: Path | None) -> Step:
    """A layout registered by a plugin is offered on the start screen, and played."""
    yield settled(app)
    screen = app.start_screen
    counts = sorted(int(b.text) for b in screen.ids.players.children)
    check(counts == list(app.registry.player_counts()), f"player counts from plugins: {counts}")
    four = next(b for b in screen.ids.players.children if b.text == "4")
    tap(four)
    yield 0.1
    check(sorted(screen.layout_buttons) == ["2x2", "pairs"], f"{sorted(screen.layout_buttons)}")
    check(not screen.layout_buttons["pairs"].disabled, "a choice between them")
    tap(screen.layout_buttons["pairs"])
    yield 0.1
    tap(screen.ids.start_button)
    yield settled(app)
    session = app.session
    assert session is not None
    check(session.config.layout == "pairs" and session.config.players == 4, "the plugin's layout")
    check(app.manager.current in ("game", "privacy"), "the game starts")


class VariantPlugins:
    """A third party's variants: one without exchanges, one that cannot go with Joker, and a
    layout of four teams with a style for the fourth."""

    CINCO_HOOK_API = 2

    @hookimpl
    def cinco_register_variants(self) -> list[Variant]:
        return [
            Variant("no-exchange", "No exchange.", rules=NoExchangeRules()),
            Variant("wild", "Wild.", rules=NoExchangeRules(), incompatible=("joker",)),
        ]

    @hookimpl
    def cinco_register_layouts(self) -> list[Layout]:
        return [Layout("4x2", players=8, teams=4, description="four pairs")]

    @hookimpl
    def cinco_register_team_styles(self) -> list[TeamStyle]:
        return [TeamStyle("green", "#009E73", symbol="◆", ascii_symbol="+", shape="diamond")]


class NoExchangeRules:
    @hookimpl
    def cinco_action_allowed(self, action: str) -> str | None:
        return "this game is played without exchanges" if action == "exchange" else None


def variant_registry() -> Registry:
    registry = Registry(entry_points=False)
    registry.register(VariantPlugins(), "variant-plugins")
    return registry


def variant_plugins(app: CincoApp, folder: Path | None) -> Step:
    """The chooser greys out a variant incompatible with one chosen; a game without exchanges
    never offers Exchange (the reason is shown); a fourth team has its own colour and shape."""
    from cinco.frontends.kivy_app import theme

    yield settled(app)
    screen = app.start_screen
    buttons = screen.variant_buttons
    check(not buttons["wild"].disabled, "wild can be chosen")
    tap(buttons["joker"])
    yield 0.1
    check(buttons["wild"].disabled and not buttons["no-exchange"].disabled, "wild greyed out")
    tap(buttons["joker"])
    yield 0.1
    check(not buttons["wild"].disabled, "wild again once Joker is off")
    check(
        theme.team_shape(3) == "diamond" and theme.team_colour(3) == theme.rgba("#009E73"),
        "the fourth team's style",
    )
    tap(buttons["no-exchange"])
    yield 0.1
    tap(screen.ids.start_button)
    yield settled(app)
    session = app.session
    assert session is not None
    check(session.config.variants == ("no-exchange",), f"{session.config.variants}")
    for _turn in range(6):
        yield settled(app)
        if app.manager.current == "game" and session.to_move in session.humans:
            game = app.game_screen
            check(game.ids.exchange_button.disabled, "Exchange is never offered")
            if hand_cards(app):  # an empty hand cannot be exchanged in any game (A4)
                check("without exchanges" in game.reason, f"the reason shown: {game.reason!r}")
            yield from human_turn(app, random.Random(_turn))


def capture(app: CincoApp, folder: Path | None) -> Step:
    """A variant's own action has a button: choose the card, tap the opponent's token, and
    the button (its title and values) captures it. The variant is docs/examples/cinco-capture,
    installed by the test on ``PYTHONPATH`` and found by its entry point, as a player's app
    finds it."""
    yield settled(app)
    session = app.session
    assert session is not None
    yield lambda: session.to_move in session.humans and not app.thinking
    seat = session.to_move
    legal = session.legal()
    check(bool(legal.acts), "a capture is legal (seed 0: greedy begins, Ann holds a 5)")
    act = legal.acts[0]
    card, space = act.get("card"), act.get("space")
    assert card is not None and space is not None
    screen = app.game_screen
    check(screen.ids.declared_button.disabled, "no action button before a choice")
    tap(screen.card_button(card))
    yield 0.05
    board = screen.ids.board
    tap_at(*board.to_window(*board.space_centre(space)))
    yield 0.05
    button = screen.ids.declared_button
    check(not button.disabled and "Capture" in button.text, f"the button: {button.text!r}")
    shot(app, folder, "kivy-capture.png")
    before = session.event_count
    tap(button)
    yield lambda: session.event_count > before
    check(session.public_view.owner(space) == session.config.team_of(seat), "captured")
    events = [envelope.event for envelope in session.handle(seat).events()]
    check(any(e.type == "action_taken" for e in events), "the table recorded the capture")


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
    events = list(load_record(session.path).events)  # type: ignore[arg-type]
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
    screen.ids.slider.value = screen.steps - 6  # as if dragged: a board with a game on it
    yield 0.3  # the button is drawn released again
    check(screen.step == screen.steps - 6, "the slider moves through the game")
    shot(app, folder, "kivy-replay.png")
    # Export: a copy in the Downloads folder, for another app or device; twice, two files.
    from platformdirs import user_downloads_dir

    downloads = Path(user_downloads_dir())
    for copies in (1, 2):
        tap(screen.ids.export_button)
        yield 0.1
        exported = sorted(downloads.glob("*.jsonl"))
        check(len(exported) == copies, f"export {copies} made a copy: {exported}")
        told = [path for path in exported if str(path) in screen.message]
        check(len(told) == 1, f"and says where: {screen.message}")
        check(told[0].read_bytes() == session.path.read_bytes(), "the same record")  # type: ignore[union-attr]


# -- records from anywhere: the "Open file…" popup ---------------------------------------------


def make_record(path: Path, *, person: bool, seed: int, turns: int | None = None) -> list[Event]:
    """Write a record of a 2-player game at *path* (as ``cinco --record`` or ``cinco simulate
    --records`` would): Ann (a person, if *person*) against the greedy bot, for *turns* turns
    or to the end."""
    registry = default_registry()
    bots = {1: ("greedy", None)} if person else {0: ("random", None), 1: ("greedy", None)}
    config = PlayOptions(players=2, bots=bots, names={0: "Ann"}).config(registry, seed)
    with Table.create(config, registry=registry, record=path, frontend="test") as table:
        ann = table.seat(0)
        played = 0
        while not table.status().is_over and (turns is None or played < turns):
            if table.status().bot_to_move:
                answer = table.play_bot_turn()
            else:
                answer = ann.submit(next(iter(ann.legal())))
            assert isinstance(answer, Accepted), answer
            played += 1
    return list(load_record(path).events)


def double_tap(widget: Any) -> None:
    """Two taps in quick succession (Kivy's double-tap detector is bypassed by test touches,
    so the second one says what it would have said)."""
    tap(widget)
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.is_double_tap = True
    touch.double_tap_time = 0.1
    touch.touch_down()
    touch.touch_up()


def popup_open(screen: Any) -> Callable[[], bool]:
    return lambda: getattr(screen, "popup", None) is not None and screen.popup._window is not None


def entry(popup: Any, name: str) -> Any:
    """The file chooser's line for *name* in the folder shown, if listed yet."""
    for node in popup.ids.chooser.layout.ids.treeview.iterate_all_nodes():
        if getattr(node, "path", None) and Path(node.path).name == name:
            return node
    return None


def listed(popup: Any) -> list[str]:
    nodes = popup.ids.chooser.layout.ids.treeview.iterate_all_nodes()
    return sorted(Path(n.path).name for n in nodes if getattr(n, "path", None))


def window_shot(folder: Path | None, name: str) -> None:
    """Save the window as shown, popups included (they are not in the app's widget tree)."""
    if folder is not None:
        saved = Path(Window.screenshot(name=str(folder / name)))
        saved.replace(folder / name)


def home_with_records() -> tuple[Path, Path]:
    """A home folder (``$HOME``, where the chooser opens) holding ``records/``."""
    home = Path(os.environ["CINCO_DATA_DIR"]) / "home"
    records = home / "records"
    records.mkdir(parents=True, exist_ok=True)
    os.environ["HOME"] = str(home)
    return home, records


def replay_no_saves(app: CincoApp, folder: Path | None) -> Step:
    """With no saved game yet, "Replay a saved game" still opens the replay screen, which says
    so and offers "Open file…"; Cancel closes the chooser and changes nothing."""
    home, _records = home_with_records()
    yield settled(app)
    check(app.manager.current == "start", "the app opens on the start screen")
    check(not any(autosave_dir().glob("*.jsonl")), "no saved game")
    button = app.start_screen.ids.replays_button
    check(not button.disabled, "Replay a saved game is enabled with no saved game")
    tap(button)
    yield settled(app)
    screen = app.replay_screen
    check(app.manager.current == "replay", "the replay screen opens")
    check(
        "No saved games" in screen.message and str(autosave_dir()) in screen.message,
        f"it says there is no saved game in the folder: {screen.message!r}",
    )
    check(not screen.message_is_error, "as a notice, not an error")
    check(screen.ids.next_button.disabled and screen.ids.slider.disabled, "nothing to step")
    check(screen.ids.continue_button.disabled, "nothing to continue")
    check(not screen.ids.open_button.disabled, "Open file… is offered")
    tap(screen.ids.open_button)
    yield popup_open(screen)
    popup = screen.popup
    check(Path(popup.ids.chooser.path) == home, "the chooser opens in the home folder")
    check(popup.ids.open_button.disabled, "Open is disabled until a file is chosen")
    yield 0.3
    tap(popup.ids.cancel_button)
    yield lambda: popup._window is None
    check(app.manager.current == "replay" and "No saved games" in screen.message, "unchanged")
    tap(screen.ids.back_button)
    yield settled(app)
    check(app.manager.current == "start", "Back returns to the start screen")


def open_record_file(app: CincoApp, folder: Path | None) -> Step:
    """Open records from a folder that is not the autosave folder: a finished game shows its
    last turn; an unfinished one can be played on ("Continue this game")."""
    _home, records = home_with_records()
    finished = make_record(records / "finished.jsonl", person=False, seed=3)
    unfinished = make_record(records / "unfinished.jsonl", person=True, seed=4, turns=7)
    (records / "notes.txt").write_text("not a record\n")
    yield settled(app)
    tap(app.start_screen.ids.replays_button)
    yield settled(app)
    screen = app.replay_screen
    tap(screen.ids.open_button)
    yield popup_open(screen)
    popup = screen.popup
    yield lambda: entry(popup, "records") is not None
    tap(entry(popup, "records"))
    yield lambda: entry(popup, "finished.jsonl") is not None
    yield 0.2
    check(Path(popup.ids.chooser.path) == records, "a tap on a folder goes into it")
    check("notes.txt" not in listed(popup), f"only records are listed: {listed(popup)}")
    tap(entry(popup, "finished.jsonl"))
    yield 0.1
    check(popup.ids.chooser.selection == [str(records / "finished.jsonl")], "a tap chooses")
    check(not popup.ids.open_button.disabled, "Open is enabled")
    check("finished.jsonl" in popup.ids.chosen.text, "the choice is named")
    yield 0.3
    window_shot(folder, "kivy-open-file.png")
    tap(popup.ids.open_button)
    yield lambda: popup._window is None
    yield settled(app)
    check(app.manager.current == "replay", "the replay screen shows the record")
    check(not screen.message, f"no problem: {screen.message!r}")
    final = fold(finished)
    check(final.is_over, "(the record is of a finished game)")
    check(screen.step == screen.steps and screen.steps > 0, "it opens on the last turn")
    check(list(screen.ids.board.board) == list(final.board), "showing the final board")
    check("finished.jsonl" in screen.record_name, "the file is named in the list")
    check(screen.ids.continue_button.disabled, "a finished game cannot be continued")
    tap(screen.ids.first_button)
    yield 0.05
    check(screen.step == 0, "and it can be stepped through")
    # The chooser opens where the last file came from; a double tap opens a file at once.
    tap(screen.ids.open_button)
    yield popup_open(screen)
    popup = screen.popup
    check(Path(popup.ids.chooser.path) == records, "the chooser opens in the last folder")
    yield lambda: entry(popup, "unfinished.jsonl") is not None
    yield 0.2
    double_tap(entry(popup, "unfinished.jsonl"))
    yield lambda: popup._window is None
    yield settled(app)
    check("unfinished.jsonl" in screen.record_name, "a double tap opened the other record")
    check(list(screen.ids.board.board) == list(fold(unfinished).board), "showing its last turn")
    check(not screen.ids.continue_button.disabled, "an unfinished game can be continued")
    tap(screen.ids.continue_button)
    yield settled(app)
    session = app.session
    assert session is not None
    check(session.path == records / "unfinished.jsonl", "the game goes on in its own file")
    check(session.event_count == len(unfinished), "from where the record stops")
    check(app.manager.current == "game" and app.shown == 0, "Ann's turn is on screen")
    yield from human_turn(app, random.Random(1))
    yield settled(app)
    record = load_record(records / "unfinished.jsonl")
    check(len(record.events) == session.event_count, "and is saved as it goes on")


def open_bad_files(app: CincoApp, folder: Path | None) -> Step:
    """A damaged or foreign file says why it cannot be read, and the app stays usable."""
    _home, records = home_with_records()
    good = make_record(records / "good.jsonl", person=False, seed=5)
    text = (records / "good.jsonl").read_text()
    lines = text.splitlines(keepends=True)
    corrupt = records / "corrupt.jsonl"
    corrupt.write_text("".join(lines[:5]) + '{"type": "card_played", "seat": 0}\n' + lines[5])
    binary = records / "binary.jsonl"
    binary.write_bytes(bytes(range(256)) * 4)
    folder_named_like_a_record = records / "folder.jsonl"
    folder_named_like_a_record.mkdir()
    yield settled(app)
    tap(app.start_screen.ids.replays_button)
    yield settled(app)
    screen = app.replay_screen
    screen.last_folder = records
    tap(screen.ids.open_button)
    yield popup_open(screen)
    popup = screen.popup
    yield lambda: entry(popup, "corrupt.jsonl") is not None
    yield 0.2
    double_tap(entry(popup, "corrupt.jsonl"))
    yield lambda: popup._window is None
    yield settled(app)
    try:
        load_record(corrupt)
        raise Failed("the corrupt record should not load")
    except RecordError as exc:
        expected = str(exc)
    check(screen.message_is_error, "an error is shown")
    check(
        "corrupt.jsonl" in screen.message and expected in screen.message,
        f"it names the file and the record's problem ({expected!r}): {screen.message!r}",
    )
    check(screen.ids.next_button.disabled and not screen.events, "nothing is stepped through")
    check(not any(t >= 0 for t in screen.ids.board.board[1:]), "the board is cleared")
    for bad, words in (
        (binary, "not a text file"),
        (folder_named_like_a_record, "cannot read"),
        (records / "gone.jsonl", "no such file"),
    ):
        screen.open_file(bad)
        yield 0.1
        check(
            screen.message_is_error and words in screen.message and bad.name in screen.message,
            f"{bad.name}: {screen.message!r}",
        )
    # A record cut short while saving opens without its last line, and says so.
    truncated = records / "truncated.jsonl"
    truncated.write_text(text[: len(text) - 20])
    screen.open_file(truncated)
    yield 0.1
    check(screen.has_game and not screen.message_is_error, "a cut record still opens")
    check("cut short" in screen.message, f"and says so: {screen.message!r}")
    check(len(screen.events) == len(good) - 1, "without its last event")
    # Still usable: the next file opens, the screens still work.
    screen.open_file(records / "good.jsonl")
    yield 0.1
    check(not screen.message and screen.has_game, "a good record opens after bad ones")
    check(list(screen.ids.board.board) == list(fold(good).board), "showing its last turn")
    tap(screen.ids.back_button)
    yield settled(app)
    check(app.manager.current == "start", "Back works")
    tap(app.start_screen.ids.start_button)
    yield settled(app)
    check(app.session is not None and app.manager.current == "game", "a new game starts")


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


# -- layout at many sizes and densities --------------------------------------------------------


def walk(widget: Any) -> Iterator[Any]:
    yield widget
    for child in widget.children:
        yield from walk(child)


def shown(widget: Any) -> bool:
    """Drawn: of some size, and neither it nor an ancestor hidden (opacity 0). An ancestor
    squeezed to nothing does not hide it: Kivy draws what overflows."""
    if widget.width < 1 or widget.height < 1:
        return False
    node = widget
    while node is not None and node is not node.parent:
        if node.opacity == 0:
            return False
        node = node.parent
    return True


def window_box(widget: Any) -> tuple[float, float, float, float]:
    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    return x0, y0, x1, y1


def scroller(widget: Any) -> Any:
    node = widget.parent
    while node is not None and node is not node.parent:
        if isinstance(node, ScrollView):
            return node
        node = node.parent
    return None


def overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


def controls(screen: Any) -> list[Any]:
    """What a finger uses: buttons, cards, toggles, spinners, inputs and sliders, if shown."""
    kinds = (ButtonBehavior, TextInput, Slider)
    return [w for w in walk(screen) if isinstance(w, kinds) and shown(w)]


def check_layout(app: CincoApp, name: str, label: str) -> dict[str, float]:
    """On screen *name*: every control inside the window (or inside a scrolling panel that
    keeps it across the window's width), at least 48 dp each way (a slider's cursor line
    excepted: its height), never under the board; every card of the hand; the panel clear of
    the board. Returns the board's cell width in dp, if it has a board."""
    screen = app.manager.get_screen(name)
    width, height = Window.size
    where = f"{label} {name}"
    board = screen.ids.get("board")
    board_box = window_box(board) if board is not None else None
    least = dp(48) - 0.5
    for widget in controls(screen):
        box = window_box(widget)
        what = f"{where}: {type(widget).__name__} {getattr(widget, 'text', '')!r} at {box}"
        inside_x = box[0] >= -1 and box[2] <= width + 1
        if scroller(widget) is None:
            check(inside_x and box[1] >= -1 and box[3] <= height + 1, f"{what} is off screen")
        else:
            check(inside_x, f"{what} is off the window's sides")
        check(box[2] - box[0] >= least, f"{what} is narrower than 48 dp")
        if not isinstance(widget, Slider):
            check(box[3] - box[1] >= least, f"{what} is lower than 48 dp")
        if board_box is not None:
            check(not overlaps(box, board_box), f"{what} is under the board {board_box}")
    # No control on top of another or of a text (one inside another is a spinner's parts).
    shown_controls = [(w, window_box(w)) for w in controls(screen) if scroller(w) is None]
    texts = [
        (w, window_box(w))
        for w in walk(screen)
        if isinstance(w, Label)
        and not isinstance(w, ButtonBehavior)
        and w.text
        and shown(w)
        and scroller(w) is None
    ]
    for i, (one, box) in enumerate(shown_controls):
        for other, other_box in shown_controls[i + 1 :] + texts:
            nested = one in list(walk(other)) or other in list(walk(one))
            check(
                nested or not overlaps(box, other_box),
                f"{where}: {getattr(one, 'text', one)!r} {box} overlaps "
                f"{getattr(other, 'text', other)!r} {other_box}",
            )
    result: dict[str, float] = {}
    if board is not None:
        panel = screen.ids.get("panel")
        if panel is not None and shown(panel):
            check(not overlaps(window_box(panel), board_box), f"{where}: the panel is on the board")
        result["hex"] = board.hex_width / dp(1)
    if name == "game":
        cards = [c for c in screen.ids.hand.children]
        for card in cards:
            box = window_box(card)
            check(
                shown(card)
                and box[0] >= -1
                and box[2] <= width + 1
                and box[1] >= -1
                and box[3] <= height + 1,
                f"{where}: card {card.number} is not all on screen ({box})",
            )
    return result


def layout_sizes() -> list[tuple[int, int]]:
    """The window sizes to try, in pixels, from ``$CINCO_LAYOUT_SIZES`` ("720x1280,1280x720");
    the first is the size the app opened at."""
    text = os.environ.get("CINCO_LAYOUT_SIZES") or f"{Window.width}x{Window.height}"
    return [(int(w), int(h)) for w, h in (size.split("x") for size in text.split(","))]


def resize(size: tuple[int, int]) -> Step:
    """Resize the window (a rotation, when width and height swap) and wait until it has."""
    Window.size = size
    yield lambda: (Window.width, Window.height) == size


def layout(app: CincoApp, folder: Path | None) -> Step:
    """Every screen at each size of ``$CINCO_LAYOUT_SIZES`` (at the density the process
    started with), turning the window between sizes as a rotation does mid-game."""
    density = dp(1)
    _home, records = home_with_records()
    finished = records / "finished.jsonl"
    make_record(finished, person=True, seed=3)
    report: list[str] = []
    yield settled(app)
    for n, (width, height) in enumerate(layout_sizes()):
        label = f"{width}x{height}@{density:g}"
        tag = f"{width}x{height}-{density:g}"
        if (Window.width, Window.height) != (width, height):
            yield from resize((width, height))
        yield 0.25
        # The start screen: in portrait too, players, teams and variants show at once,
        # and Continue / Replay sit below the title.
        app.show_start()
        yield settled(app)
        yield 0.2
        check_layout(app, "start", label)
        start = app.start_screen
        title = window_box(start.ids.title_row)
        upright = (
            []
            if width > height
            else [
                *start.ids.players.children,
                *start.ids.layouts.children,
                *start.ids.variants.children,
                start.ids.start_button,
            ]
        )
        for widget in upright:
            box = window_box(widget)
            check(box[1] >= 0 and box[3] <= title[1] + 1, f"{label}: {widget.text!r} shows {box}")
        for button in (start.ids.continue_button, start.ids.replays_button):
            check(not overlaps(window_box(button), title), f"{label}: {button.text!r} on the title")
        shot(app, folder, f"kivy-start-{tag}.png")
        # Two people: the privacy screen, then a hand with a card chosen and a space tapped.
        app.start_from_options(PlayOptions(players=2, names={0: "Ann", 1: "Bob"}, seed=7))
        yield settled(app)
        check(app.manager.current == "privacy", f"{label}: the privacy screen")
        check_layout(app, "privacy", label)
        shot(app, folder, f"kivy-privacy-{tag}.png")
        yield lambda: app.privacy_screen.ready
        yield from reveal(app)
        yield settled(app)
        session = app.session
        assert session is not None
        card, spaces = max(((c, s) for c, s in session.legal().plays if s), key=lambda p: p[0])
        tap(app.game_screen.card_button(card))
        yield 0.1
        board = app.game_screen.ids.board
        tap_at(*board.to_window(*board.space_centre(spaces[-1])))
        yield 0.1
        check(app.pending == spaces[-1], f"{label}: a first tap previews")
        metrics = check_layout(app, "game", label)
        check(len(app.game_screen.ids.hand.children) == 4, "the whole hand")
        shot(app, folder, f"kivy-game-{tag}.png")
        if n + 1 < len(layout_sizes()):
            # Turn the window with the preview showing: still there, still laid out.
            after = layout_sizes()[n + 1]
            yield from resize(after)
            yield 0.25
            check(app.pending == spaces[-1] and board.preview == spaces[-1], "preview kept")
            check_layout(app, "game", f"{after[0]}x{after[1]}@{density:g} (turned)")
            yield from resize((width, height))
            yield 0.25
        # The end of a game, and its replay.
        app.resume(finished)
        yield lambda: app.manager.current == "over"
        yield settled(app)
        check_layout(app, "over", label)
        shot(app, folder, f"kivy-over-{tag}.png")
        app.open_replay(finished)
        yield settled(app)
        yield 0.2
        check_layout(app, "replay", label)
        shot(app, folder, f"kivy-replay-{tag}.png")
        report.append(f"{label}: cells {metrics['hex']:.1f} dp wide")
        if min(width, height) / density < 480:
            # A phone: 11 cells across 360 dp at most; upright they get the long side.
            least = 35 if height > width else 32
            check(metrics["hex"] >= least, f"{label}: cells are {metrics['hex']:.1f} dp wide")
    print("; ".join(report), file=sys.__stdout__, flush=True)


# -- touch that forgives, privacy kept, Back and pause -------------------------------------------


def space_point(app: CincoApp, space: int) -> tuple[float, float]:
    board = app.game_screen.ids.board
    return board.to_window(*board.space_centre(space))  # type: ignore[no-any-return]


def touches(app: CincoApp, folder: Path | None) -> Step:
    """Two people, touches of real length: a brush plays nothing; a tap previews, anything
    else cancels, a second tap plays on its lift; a finger held through the move, or one that
    went down before the privacy screen came, or a tap on the reveal button, never reveals
    the next hand (tests/frontends/kivy_app/test_kivy_pass_privacy.py sweeps the rest); Back
    asks before leaving; pausing hides the hand; Burn leaves Draw and Exchange as wide as before."""
    yield settled(app)
    session = app.session
    assert session is not None
    check(app.manager.current == "privacy", "the privacy screen first")
    # A tap, even on the reveal button, does nothing: it must be held.
    yield lambda: app.privacy_screen.ready
    tap(app.privacy_screen.ids.hold_button)
    yield 0.1
    check(app.manager.current == "privacy" and app.shown is None, "a tap does not reveal")
    yield from reveal(app)
    yield settled(app)
    check(app.manager.current == "game", "holding the button reveals")
    seat = session.to_move
    screen = app.game_screen
    card, spaces = next((c, s) for c, s in session.legal().plays if len(s) >= 2)
    tap(screen.card_button(card))
    yield 0.05
    target, other = spaces[0], spaces[1]
    events = session.event_count
    # A brush: down on a lit space, slide off the board, lift: nothing (a drag that lifts on
    # a lit space plays there: kivy_feel_scenarios.py).
    touch = UnitTestTouch(*space_point(app, target))
    touch.touch_down()
    yield 0.15
    touch.touch_move(*space_point(app, other))
    board = screen.ids.board
    touch.touch_move(*board.to_window(board.right + 5, board.center_y))
    touch.touch_up()
    yield 0.05
    check(session.event_count == events and app.pending is None, "a brush plays nothing")
    # Down on a space: nothing until the lift.
    touch = UnitTestTouch(*space_point(app, target))
    touch.touch_down()
    yield 0.3
    check(app.pending is None, "nothing happens on touch-down")
    touch.touch_up()
    yield 0.05
    check(app.pending == target and session.event_count == events, "the lift previews")
    # Anything else cancels: a space that is not lit, the card again, the panel.
    unlit = next(n for n in range(1, 91) if n not in spaces and session.public_view.board[n] < 0)
    tap_at(*space_point(app, unlit))
    yield 0.05
    check(app.pending is None and session.event_count == events, "an unlit space cancels")
    tap_at(*space_point(app, target))
    yield 0.05
    tap_at(*screen.ids.reason.to_window(*screen.ids.reason.center))
    yield 0.05
    check(app.pending is None, "a tap on the panel cancels")
    tap_at(*space_point(app, target))
    yield 0.05
    tap(screen.card_button(card))
    yield 0.05
    check(app.pending is None and app.selected is None, "the card again cancels")
    tap(screen.card_button(card))
    yield 0.05
    tap_at(*space_point(app, target))
    yield 0.05
    check(app.pending == target, "previewed again")
    shot(app, folder, "kivy-preview.png")
    # Another finger rests on the panel meanwhile; the second tap is held half a second.
    resting = UnitTestTouch(*screen.ids.piles.to_window(*screen.ids.piles.center))
    resting.touch_down()
    held = UnitTestTouch(*space_point(app, target))
    held.touch_down()
    yield 0.5
    check(session.event_count == events, "held: not played yet")
    held.touch_up()
    yield 0.05
    check(session.public_view.board[target] == session.config.team_of(seat), "played on lift")
    yield settled(app)
    check(app.manager.current == "privacy", "the tablet is passed")
    resting.touch_up()  # the lift of a touch that began on the game screen
    yield 0.8
    check(app.manager.current == "privacy" and app.shown is None, "a stale lift never reveals")
    check(not screen.ids.hand.children, "no hand on screen")
    # No Take back before passing the tablet: the other person saw the card, which would go
    # back into the mover's hand (the table refuses an undo that shows a card).
    check(not app.privacy_screen.take_back, "Take back is not offered")
    check(session.public_view.board[target] >= 0, "it was played")
    yield from reveal(app)
    yield settled(app)
    check(app.shown == session.to_move != seat, "the next player's hand, on their tap")
    check(app.game_screen.can_hide, "Hide shown")
    tap(screen.ids.hide_button)
    yield settled(app)
    check(app.manager.current == "privacy" and not screen.ids.hand.children, "Hide hides")
    yield from reveal(app)
    yield settled(app)
    check(app.shown == session.to_move != seat, "their hand again, on their tap")
    # Burn, then no burn: Draw and Exchange as wide as before.
    draw, exchange = screen.ids.draw_button, screen.ids.exchange_button
    widths = (draw.width, exchange.width)
    screen.burn_text = "Burn 5"
    yield 0.1
    check(draw.width < widths[0], "Burn takes its share")
    screen.burn_text = ""
    yield 0.1
    check(abs(draw.width - widths[0]) < 1 and abs(exchange.width - widths[1]) < 1, "as before")
    # Back asks before leaving a game; Stay keeps it, Leave goes to the start screen.
    Window.dispatch("on_keyboard", 27, 0, None, [])
    yield 0.3
    check(app.leave_popup is not None, "Back asks before leaving the game")
    window_shot(folder, "kivy-leave.png")
    Window.dispatch("on_keyboard", 27, 0, None, [])
    yield 0.3
    check(app.leave_popup is None and app.manager.current == "game", "Back again stays")
    # Pausing (Android) takes the hand off the screen; resuming passes the tablet first.
    check(app.on_pause() is True, "the app may pause")
    check(not screen.ids.hand.children, "no hand while paused")
    app.on_resume()
    yield settled(app)
    check(app.manager.current == "privacy", "back from a pause: the privacy screen")
    yield from reveal(app)
    yield settled(app)
    Window.dispatch("on_keyboard", 27, 0, None, [])
    yield 0.3
    popup = app.leave_popup
    check(popup is not None, "asked again")
    tap(popup.ids.leave_button)
    yield settled(app)
    check(app.manager.current == "start", "Leave goes to the start screen")
    check(session.path in unfinished_games(), "and the game is kept to continue")
    yield from back_twice_leaves(app)


def back_twice_leaves(app: CincoApp) -> Step:
    """Back on the start screen warns first ("Press back again to leave"); a second Back
    after the warning went stays; two within two seconds close the app."""
    from cinco.frontends.kivy_app.notice import current_notice

    yield settled(app)
    check(app.manager.current == "start", "on the start screen")
    Window.dispatch("on_keyboard", 27, 0, None, [])
    yield 0.1
    check(app.manager.current == "start", "one Back stays on the start screen")
    check(current_notice() == app.tr("Press back again to leave"), "and says how to leave")
    yield lambda: not current_notice()  # the notice goes by itself
    yield 0.3
    Window.dispatch("on_keyboard", 27, 0, None, [])
    yield 0.1
    check(app.manager.current == "start" and current_notice(), "too late: a warning again")
    Window.dispatch("on_keyboard", 27, 0, None, [])
    yield 5.0  # the app stops here: nothing after this line runs
    raise Failed("two Backs on the start screen did not close the app")


def back_on_start(app: CincoApp, folder: Path | None) -> Step:
    yield from back_twice_leaves(app)


class FrameCounter:
    """Counts the frames Kivy draws (its window's flips: a clock tick with nothing changed
    draws nothing) from its creation until :meth:`stop`."""

    def __init__(self) -> None:
        self.frames = 0
        self.began = time.monotonic()
        Window.bind(on_flip=self.flipped)

    def flipped(self, *_args: object) -> None:
        self.frames += 1

    def stop(self) -> tuple[float, float]:
        """Frames per second, and over how many seconds."""
        Window.unbind(on_flip=self.flipped)
        took = time.monotonic() - self.began
        return self.frames / took, took


def fps(app: CincoApp, folder: Path | None) -> Step:
    """A benchmark, not a test (``python tests/helpers/kivy_scenarios.py fps``): frames drawn per
    second while idle, then while ``ismcts:hard`` thinks, over three of its turns."""
    yield settled(app)
    yield 3.0  # the bots' process has loaded (it starts with the app)
    idle = FrameCounter()
    yield 1.0
    print(f"idle: {idle.stop()[0]:.0f} fps", file=sys.__stdout__, flush=True)
    # The same spinner turning with no bot at all: what drawing a frame costs here.
    spinner = next(w for w in app.game_screen.walk() if type(w).__name__ == "Thinking")
    spinner.running = True
    turning = FrameCounter()
    yield 1.2
    spinner.running = False
    print(f"spinner, no bot: {turning.stop()[0]:.0f} fps", file=sys.__stdout__, flush=True)
    rates = []
    for _turn in range(3):
        yield settled(app)
        session = app.session
        assert session is not None
        if session.is_over:
            break
        card, spaces = next((c, s) for c, s in session.legal().plays if s)
        app.act(PlayCard(session.to_move, card, spaces[0]))
        counter = FrameCounter()
        yield lambda: not app.thinking
        rates.append(counter.stop())
    text = ", ".join(f"{rate:.0f} fps over {took:.1f} s" for rate, took in rates)
    print(f"while ismcts:hard thinks: {text}", file=sys.__stdout__, flush=True)


SCENARIOS: dict[str, tuple[Callable[[CincoApp, Path | None], Step], PlayOptions]] = {
    "full_game": (
        full_game,
        PlayOptions(players=2, bots={1: ("greedy", None)}, seed=21, delay=0.0),
    ),
    "hot_seat": (hot_seat, PlayOptions(players=2, seed=8, delay=0.0)),
    "undo": (undo, PlayOptions(players=2, bots={1: ("greedy", None)}, seed=12, delay=0.0)),
    "hot_seat_undo": (hot_seat_undo, PlayOptions(players=2, seed=9, delay=0.0)),
    "plugin_layout": (plugin_layout, PlayOptions(delay=0.0)),
    "variant_plugins": (variant_plugins, PlayOptions(delay=0.0)),
    "capture": (
        capture,
        PlayOptions(
            players=2, variants=("capture",), bots={1: ("greedy", None)}, seed=0, delay=0.0
        ),
    ),
    "resume_start": (
        resume_start,
        PlayOptions(players=3, bots={1: ("random", None), 2: ("greedy", None)}, seed=30, delay=0.0),
    ),
    "resume_continue": (resume_continue, PlayOptions(delay=0.0)),
    "start_screen": (start_screen, PlayOptions(delay=0.0)),
    "replay": (replay, PlayOptions(players=2, bots={1: ("greedy", None)}, seed=40, delay=0.0)),
    "replay_no_saves": (replay_no_saves, PlayOptions(delay=0.0)),
    "open_record_file": (open_record_file, PlayOptions(delay=0.0)),
    "open_bad_files": (open_bad_files, PlayOptions(delay=0.0)),
    "layout": (layout, PlayOptions(delay=0.0)),
    "language": (language, PlayOptions(delay=0.0)),
    "feel": (feel, PlayOptions(players=2, bots={1: ("greedy", None)}, seed=23, delay=0.0)),
    "fps": (fps, PlayOptions(players=2, bots={1: ("ismcts", "hard")}, seed=3, delay=0.0)),
    "back_on_start": (back_on_start, PlayOptions(delay=0.0)),
    "touches": (touches, PlayOptions(players=2, names={0: "Ann", 1: "Bob"}, seed=14, delay=0.0)),
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


#: Scenarios played with other plugins installed.
REGISTRIES: dict[str, Callable[[], Registry]] = {
    "plugin_layout": plugin_registry,
    "variant_plugins": variant_registry,
}


def app_state(app: CincoApp) -> str:
    """What :func:`settled` and its like look at, for a timeout's message."""
    try:
        hand = app.game_screen.ids.hand
        cards = [
            (getattr(card, "number", "?"), tuple(map(round, (*card.pos, *card.size))))
            for card in hand.children
        ]
        return (
            f"  screen {app.manager.current!r}, thinking {app.thinking}, transition active "
            f"{app.manager.transition.is_active}, hand box "
            f"{tuple(map(round, (*hand.pos, *hand.size)))}, cards {cards}"
        )
    except Exception as exc:  # the state is a hint for the reader; never a second failure
        return f"  (state unknown: {exc!r})"


def where(steps: Step) -> str:
    """The scenario's stack down to the innermost step it is waiting in."""
    lines, generator = [], steps
    while generator is not None and getattr(generator, "gi_frame", None) is not None:
        frame = generator.gi_frame  # type: ignore[attr-defined]
        lines.append(f"  {frame.f_code.co_name}, line {frame.f_lineno}")
        generator = getattr(generator, "gi_yieldfrom", None)
    return "\n".join(lines)


def run(name: str, folder: Path | None) -> int:
    scenario, options = SCENARIOS[name]
    registry = REGISTRIES[name]() if name in REGISTRIES else None
    app = CincoApp(options, registry=registry)
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
                    outcome["error"] = (
                        f"timed out waiting in {name}:\n{where(steps)}\n{app_state(app)}"
                    )
                    app.stop()
                else:
                    Clock.schedule_once(poll, 0.02)

            Clock.schedule_once(poll, 0)

        advance()

    Clock.schedule_once(lambda _dt: drive(scenario(app, folder)), 0.5)
    app.run()
    if app.failures and not outcome["error"]:  # reported on standard error, shown, and
        outcome["error"] = f"the app failed: {app.failures[0].summary}"  # the app went on
    if outcome["error"]:
        print(outcome["error"], file=sys.__stderr__, flush=True)
        return 1
    print(f"{name} OK", file=sys.__stdout__, flush=True)
    return 0


if __name__ == "__main__":
    folder = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    sys.exit(run(sys.argv[1], folder))
