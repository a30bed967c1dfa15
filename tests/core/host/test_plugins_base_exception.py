"""A plugin that raises anything, ``BaseException`` included, leaves no half turn (issue 23).

``SystemExit``, ``GeneratorExit``, a ``BaseException`` of the plugin's own, and a
``KeyboardInterrupt`` off the main thread (which no signal raises there: a plugin did), raised
in ``cinco_event`` in the middle of a turn, in ``cinco_game_started``, ``cinco_game_ended`` or
``cinco_game_closed``, or in a rule hook: the turn is stored whole or not at all, the record
and the fold of the log agree, the plugin is named in a notice and switched off, and play goes
on. The user's own Ctrl-C (a ``KeyboardInterrupt`` in the main thread) stops the process, but
only once the turn is whole: tried with a real SIGINT sent to a game played by a subprocess.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cinco import (
    BotSpec,
    CardPlayed,
    Command,
    Event,
    Game,
    GameState,
    LegalActions,
    Notice,
    PlayCard,
    Registry,
    Seat,
    Variant,
    hookimpl,
    load_record,
)
from cinco.core.bots import isolation
from cinco.core.engine.errors import IllegalCommand
from cinco.core.engine.state import fold
from cinco.core.engine.verify import check_turns
from cinco.core.table.protocol import Accepted, Envelope, Prompt, Submit
from cinco.core.table.table import Table
from cinco.plugins.record_writer import RecordWriter


class Tantrum(BaseException):
    """A plugin's own ``BaseException``, not an ``Exception``."""


#: What a plugin may raise (``KeyboardInterrupt`` only off the main thread: see below).
KINDS: list[type[BaseException]] = [SystemExit, GeneratorExit, Tantrum, RuntimeError]
LIFECYCLE = ("cinco_game_started", "cinco_event", "cinco_game_ended", "cinco_game_closed")


class Raiser:
    """Raises *kind* in *hook*, once: in ``cinco_event`` at the first card played (a turn's
    first event, with the rest of the turn still to store)."""

    CINCO_HOOK_API = 2

    def __init__(self, kind: type[BaseException], hook: str) -> None:
        self.kind, self.hook = kind, hook
        self.raised = 0

    def _maybe(self, hook: str) -> None:
        if hook == self.hook and not self.raised:
            self.raised += 1
            raise self.kind(f"{self.kind.__name__} from a plugin")

    @hookimpl
    def cinco_game_started(self, game: Game) -> None:
        self._maybe("cinco_game_started")

    @hookimpl
    def cinco_event(self, game: Game, event: Event) -> None:
        if isinstance(event, CardPlayed):
            self._maybe("cinco_event")

    @hookimpl
    def cinco_game_ended(self, game: Game) -> None:
        self._maybe("cinco_game_ended")

    @hookimpl
    def cinco_game_closed(self, game: Game, reason: str) -> None:
        self._maybe("cinco_game_closed")


def bots(registry: Registry, seed: int = 3, people: int = 0) -> Any:
    seats = [Seat(f"p{i}") if i < people else Seat(f"b{i}", bot="greedy") for i in range(2)]
    return registry.configure(2, seats=seats, seed=seed, first_seat=0, turn_limit=300)


def whole(events: list[Event], game: Game) -> None:
    """Every turn of *events* is whole, and they fold to *game*'s state."""
    setup = 2 + game.config.params.deal * game.config.players
    assert check_turns(events, game.rules, setup) == len(events)
    assert fold(events) == game.state


def switched_off(events: list[Event], hook: str) -> list[Notice]:
    return [
        e
        for e in events
        if isinstance(e, Notice)
        and e.code == "plugin_switched_off"
        and "Raiser" in e.text
        and hook in e.text
    ]


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
@pytest.mark.parametrize("hook", LIFECYCLE)
def test_a_game_survives_any_exception_in_any_lifecycle_hook(
    tmp_path: Path, kind: type[BaseException], hook: str
) -> None:
    """In the main thread, as ``cinco simulate`` or a script plays: nothing escapes, the
    turn is whole in the log and in the record another plugin writes, the plugin is named."""
    raiser = Raiser(kind, hook)
    registry = Registry(entry_points=False, plugins=[raiser])
    path = tmp_path / "game.jsonl"
    game = Game.new(bots(registry), registry=registry, plugins=[RecordWriter(path)])
    game.play_bots()
    game.close()
    assert game.is_over and raiser.raised == 1
    events = list(game.events)
    whole(events, game)
    assert list(load_record(path, registry=registry).events) == events
    [problem] = game.problems
    assert hook in problem.message and "Raiser" in problem.message
    assert kind.__name__ in problem.message
    if hook == "cinco_event":  # told to every player (the end's and the close's are logged)
        [notice] = switched_off(events, hook)
        assert all(notice in game.events_for(seat) for seat in (0, 1))


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_a_subscriber_raising_anything_mid_turn_leaves_the_turn_whole(
    kind: type[BaseException],
) -> None:
    """A listener of the game's events (``Game.subscribe``: a frontend, a plugin's watcher)
    is switched off and reported the same way."""
    registry = Registry(entry_points=False)
    game = Game.new(bots(registry), registry=registry)
    told: list[Event] = []

    def listener(event: Event, _game: Game) -> None:
        told.append(event)
        if isinstance(event, CardPlayed):
            raise kind("listener")

    game.subscribe(listener)
    game.play_bots()
    events = list(game.events)
    assert game.is_over and len(told) == len([e for e in told if not isinstance(e, CardPlayed)]) + 1
    whole(events, game)
    [notice] = [e for e in events if isinstance(e, Notice) and e.code == "subscriber_failed"]
    assert kind.__name__ in notice.text


def in_a_thread(work: Callable[[], Any]) -> Any:
    """*work*'s result, run in a thread of its own (where no signal raises anything)."""
    result: list[Any] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(work())
        except BaseException as exc:  # reported to the test below
            failure.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    if failure:
        raise failure[0]
    return result[0]


@pytest.mark.parametrize("kind", [*KINDS, KeyboardInterrupt], ids=lambda kind: kind.__name__)
def test_a_table_stores_the_turn_whole_and_keeps_serving(
    tmp_path: Path, kind: type[BaseException]
) -> None:
    """At a table (a server's, the terminal's: its own thread), a plugin raising in
    ``cinco_event`` as a person's play is stored: the move is accepted, its turn is whole in
    the record and in the person's stream, the plugin is named, and the game goes on."""
    raiser = Raiser(kind, "cinco_event")
    registry = Registry(entry_points=False, plugins=[raiser])
    path = tmp_path / "table.jsonl"
    with Table.create(bots(registry, people=1), registry=registry, record=path) as table:
        ann = table.seat(0)
        play = next(c for c in ann.legal() if isinstance(c, PlayCard))
        assert isinstance(ann.submit(play), Accepted)
        assert raiser.raised == 1
        for _turn in range(5):  # play goes on, the bot answering
            table.play_bots()
            if ann.view.is_over:
                break
            commands = list(ann.legal())
            assert isinstance(ann.submit(commands[0]), Accepted)
        stream = [envelope.event for envelope in ann.events()]
        assert switched_off(stream, "cinco_event")
    record = list(load_record(path, registry=registry).events)
    game = Game.from_events(record, registry=registry)
    whole(record, game)
    assert len(record) == len(stream)


def test_a_keyboard_interrupt_a_plugin_raises_off_the_main_thread_is_its_failure() -> None:
    """No signal raises ``KeyboardInterrupt`` outside the main thread: there it is a plugin's
    failure like any other (a server's table must not stop for it)."""
    raiser = Raiser(KeyboardInterrupt, "cinco_event")
    registry = Registry(entry_points=False, plugins=[raiser])

    def play() -> Game:
        game = Game.new(bots(registry), registry=registry)
        game.play_bots()
        return game

    game = in_a_thread(play)
    assert game.is_over
    whole(list(game.events), game)
    assert switched_off(list(game.events), "cinco_event")


def test_a_keyboard_interrupt_in_the_main_thread_stops_once_the_turn_is_whole() -> None:
    """In the main thread a ``KeyboardInterrupt`` may be the user's Ctrl-C: it stops the
    game's caller, but only after the turn is stored whole; nobody is switched off, and the
    game can go on."""
    raiser = Raiser(KeyboardInterrupt, "cinco_event")
    registry = Registry(entry_points=False, plugins=[raiser])
    game = Game.new(bots(registry, people=2), registry=registry)
    state = game.state
    play = next(c for c in game.legal_actions(state.current_seat) if isinstance(c, PlayCard))
    with pytest.raises(KeyboardInterrupt):
        game.execute(play)
    whole(list(game.events), game)
    assert game.state.turn == state.turn + 1
    assert not game.problems
    game.execute(next(iter(game.legal_actions(game.state.current_seat))))
    whole(list(game.events), game)


class Refuses:
    """A variant whose placement rule raises *kind* for every card above 45."""

    def __init__(self, kind: type[BaseException]) -> None:
        self.kind = kind

    @hookimpl
    def cinco_legal_spaces(self, state: GameState, seat: int, card: int) -> None:
        if card > 45:
            raise self.kind("no")


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_a_rule_hook_raising_anything_refuses_the_command_and_changes_nothing(
    kind: type[BaseException],
) -> None:
    class Plugin:
        CINCO_HOOK_API = 2

        @hookimpl
        def cinco_register_variants(self) -> list[Variant]:
            return [Variant("refuses", "raises", rules=Refuses(kind))]

    registry = Registry(entry_points=False, plugins=[Plugin()])
    config = registry.configure(
        2, seats=[Seat("a"), Seat("b")], variants=("refuses",), seed=1, first_seat=0
    )
    game = Game.new(config, registry=registry)
    before = list(game.events)
    with pytest.raises(IllegalCommand) as refused:
        game.legal_actions(0)
    assert "cinco_legal_spaces" in str(refused.value) and kind.__name__ in str(refused.value)
    assert list(game.events) == before


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_a_bot_raising_anything_loses_the_move_and_the_game_goes_on(
    kind: type[BaseException],
) -> None:
    class Sulks:
        def choose(self, view: GameState, legal: LegalActions) -> Command:
            raise kind("sulking")

    class Plugin:
        CINCO_HOOK_API = 2

        @hookimpl
        def cinco_register_bots(self) -> list[BotSpec]:
            return [BotSpec("sulks", "raises", create=lambda context: Sulks())]

    registry = Registry(entry_points=False, plugins=[Plugin()])
    seats = [Seat("s", bot="sulks"), Seat("g", bot="greedy")]
    game = Game.new(registry.configure(2, seats=seats, seed=2, first_seat=0), registry=registry)
    game.play_bots(max_turns=6)
    events = list(game.events)
    whole(events, game)
    replaced = [e for e in events if isinstance(e, Notice) and e.code == "bot_replaced"]
    assert len(replaced) == 3
    mine = replaced[0].seen_by(0)
    assert isinstance(mine, Notice) and kind.__name__ in str(mine.private)


@pytest.mark.parametrize("kind", [*KINDS, KeyboardInterrupt], ids=lambda kind: kind.__name__)
def test_a_stand_in_raising_anything_is_replaced_and_the_table_goes_on(
    tmp_path: Path, kind: type[BaseException]
) -> None:
    """A bot playing for a person out of time (``play_for``, in the table's thread) that
    raises: a random legal move is played for the seat instead, the turn whole."""

    class Sulks:
        def choose(self, view: GameState, legal: LegalActions) -> Command:
            raise kind("no move")

    class Plugin:
        CINCO_HOOK_API = 2

        @hookimpl
        def cinco_register_bots(self) -> list[BotSpec]:
            return [BotSpec("sulks", "raises", create=lambda context: Sulks())]

    registry = Registry(entry_points=False, plugins=[Plugin()])
    path = tmp_path / "table.jsonl"
    with Table.create(bots(registry, people=1), registry=registry, record=path) as table:
        ann = table.seat(0)
        before = ann.view.turn
        assert isinstance(table.play_for(0, "sulks"), Accepted)
        table.play_bots()
        assert ann.view.turn == before + 2 and list(ann.legal())
        stream = [envelope.event for envelope in ann.events()]
    record = list(load_record(path, registry=registry).events)
    whole(record, Game.from_events(record, registry=registry))
    assert len(record) == len(stream)


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_a_registration_hook_raising_anything_leaves_that_plugin_out(
    kind: type[BaseException],
) -> None:
    class Quits:
        CINCO_HOOK_API = 2

        @hookimpl
        def cinco_register_bots(self) -> list[BotSpec]:
            raise kind("at registration")

    registry = Registry(entry_points=False, plugins=[Quits()])
    assert {"random", "greedy", "ismcts"} <= set(registry.bots())
    [problem] = registry.problems
    assert "Quits" in problem.message and "cinco_register_bots" in problem.message
    assert kind.__name__ in problem.message


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_an_isolated_bot_raising_anything_fails_its_move_and_its_process_serves_on(
    kind: type[BaseException],
) -> None:
    """``cinco arena --isolate``: the bot's process answers a move its bot raised on with a
    failure the referee replaces (instead of dying of a ``SystemExit``), and plays on."""
    raising = {"armed": True}

    class Sometimes:
        def choose(self, view: GameState, legal: LegalActions) -> Command:
            if raising["armed"]:
                raise kind("no move")
            return next(iter(legal))

    class Plugin:
        CINCO_HOOK_API = 2

        @hookimpl
        def cinco_register_bots(self) -> list[BotSpec]:
            return [BotSpec("sometimes", "raises", create=lambda context: Sometimes())]

    registry = Registry(entry_points=False, plugins=[Plugin()])
    game = Game.new(registry.configure(2, seats=[Seat("a"), Seat("b")], seed=4), registry=registry)
    seat = game.state.current_seat
    child = isolation._Seat("sometimes", None)
    child.registry = registry
    for seq, event in enumerate(game.events):
        assert child.take(Envelope("t", seq, event.seen_by(seat))) is None
    prompt = Prompt("t", len(game.events) - 1, game.legal_actions(seat))
    answer = child.take(prompt)
    assert answer is not None and answer["type"] == "failed" and kind.__name__ in answer["error"]
    raising["armed"] = False
    child.prompt = None  # the referee prompts again for the next move
    assert child.take(prompt) == Submit(next(iter(game.legal_actions(seat)))).to_dict()


SCRIPT = """
import sys, time
from cinco import Event, Game, Registry, Seat, hookimpl
from cinco.plugins.record_writer import RecordWriter

class Slow:
    # A turn's first events take a while to handle: the Ctrl-C lands in a hook, mid-turn.
    @hookimpl
    def cinco_event(self, game, event):
        if type(event).__name__ != "TurnEnded":
            time.sleep(0.002)

registry = Registry(entry_points=False)
seats = [Seat("a", bot="random"), Seat("b", bot="random")]
games = 0
print("ready", flush=True)
try:
    while True:
        config = registry.configure(2, seats=seats, seed=games, turn_limit=2000)
        game = Game.new(config, registry=registry, plugins=[RecordWriter(sys.argv[1]), Slow()])
        game.play_bots()
        games += 1
except KeyboardInterrupt:
    print("interrupted", len(game.events), flush=True)
    sys.exit(130)
"""


def test_a_real_ctrl_c_stops_a_game_between_turns(tmp_path: Path) -> None:
    """SIGINT to a process playing games in its main thread: it stops, and the game it was
    playing is whole in its record (the Ctrl-C waited for the turn to be stored)."""
    path = tmp_path / "game.jsonl"
    script = tmp_path / "play.py"
    script.write_text(textwrap.dedent(SCRIPT))
    process = subprocess.Popen(
        [sys.executable, str(script), str(path)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "CINCO_BOT_PROCESS": "0"},
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    # Wait until the game is under way (its record has turns), then interrupt.
    while not path.exists() or len(path.read_text().splitlines()) < 30:
        assert process.poll() is None
        threading.Event().wait(0.05)
    process.send_signal(signal.SIGINT)
    out, _err = process.communicate(timeout=60)
    assert process.returncode == 130 and out.startswith("interrupted"), out
    record = load_record(path)
    game = Game.from_events(list(record.events))
    whole(list(record.events), game)
    assert int(out.split()[1]) == len(record.events)
