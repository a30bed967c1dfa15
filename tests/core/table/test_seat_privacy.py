"""Secrets are projected by construction (S2, A7): what a seat handle, a spectator and a bot are
given leads to no hidden card, no deck order and no seed, and no message delivered to anyone
shows another seat's card.

Two checks. A walker follows everything reachable from a handle and from what a bot is handed
(attributes, slots, closures, the owners of bound methods, containers) and fails on a referee's
object (a Game, a rule set, a plugin manager, a record writer), a state with cards the viewer
may not see, or the seed. A hypothesis test plays random games in every configuration, with
people at handles and bots that raise, answer too late or answer illegally, and checks every
message delivered to every seat and spectator.
"""

from __future__ import annotations

import collections
import queue
import random
import threading
import time
import types
from collections.abc import Iterator
from concurrent.futures import Future
from typing import Any

import pluggy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cinco.core.game.game as game_module
from cinco import (
    BotSpec,
    CardDrawn,
    Command,
    DeckShuffled,
    Event,
    Game,
    GameStarted,
    HandDiscarded,
    LegalActions,
    Notice,
    PlayCard,
    Registry,
    RuleSet,
    Seat,
    hookimpl,
)
from cinco.core.engine.state import UNKNOWN, GameState
from cinco.core.host.declarations import BotContext
from cinco.core.records.recording import RecordFile, RecordWriter
from cinco.core.table.handle import SeatHandle
from cinco.core.table.protocol import Envelope, Prompt, Refused
from cinco.core.table.table import Table

FORBIDDEN_TYPES = (Game, RuleSet, pluggy.PluginManager, RecordFile, RecordWriter, threading.Thread)


def reachable(root: object, limit: int = 200_000) -> Iterator[tuple[str, object]]:
    """Every object reachable from *root* through attributes, slots, closures, bound methods'
    owners, partials and containers, with the path to it. Modules, classes and functions'
    globals are not followed: they are shared code, not data handed to a viewer."""
    seen: set[int] = set()
    todo: list[tuple[str, object]] = [("root", root)]
    while todo and len(seen) < limit:
        path, obj = todo.pop()
        if id(obj) in seen or isinstance(obj, types.ModuleType | type):
            continue
        seen.add(id(obj))
        yield path, obj
        if isinstance(obj, str | bytes | int | float | bool | type(None)):
            continue
        todo.extend(children_of(path, obj))


def children_of(path: str, obj: object) -> list[tuple[str, object]]:
    """What :func:`reachable` follows from *obj* (at *path*), with the paths to it."""
    children: list[tuple[str, object]] = []
    if isinstance(obj, dict):
        children += [(f"{path}[{k!r}]", v) for k, v in obj.items()]
        children += [(f"{path}.key", k) for k in obj]
    elif isinstance(obj, list | tuple | set | frozenset | collections.deque):
        children += [(f"{path}[{i}]", v) for i, v in enumerate(obj)]
    elif isinstance(obj, types.FunctionType):
        cells = obj.__closure__ or ()
        children += [(f"{path}.<cell {i}>", c.cell_contents) for i, c in enumerate(cells)]
        children += [(f"{path}.__defaults__", obj.__defaults__)]
        children += [(f"{path}.__kwdefaults__", obj.__kwdefaults__)]
    elif isinstance(obj, types.MethodType):
        children += [(f"{path}.__self__", obj.__self__), (f"{path}.__func__", obj.__func__)]
    elif isinstance(obj, types.BuiltinMethodType):
        children += [(f"{path}.__self__", obj.__self__)]
    else:
        children += attributes_of(path, obj)
    return children


def attributes_of(path: str, obj: object) -> list[tuple[str, object]]:
    """*obj*'s attributes (its class's, but not its properties or dunders, then its own)."""
    children: list[tuple[str, object]] = []
    for name in dir(type(obj)):
        if name.startswith("__") and name.endswith("__"):
            continue
        attribute = getattr(type(obj), name, None)
        if isinstance(attribute, property):
            continue  # computed on demand: what it returns is checked where it is used
        try:
            value = getattr(obj, name)
        except Exception:
            continue
        children.append((f"{path}.{name}", value))
    for name, value in vars(obj).items() if hasattr(obj, "__dict__") else ():
        children.append((f"{path}.{name}", value))
    return children


def assert_nothing_secret(root: object, viewer: int | None, seed: int) -> int:
    """Walk *root*; fail on anything that leads to hidden cards, the deck or the seed."""
    count = 0
    for path, obj in reachable(root):
        count += 1
        assert not isinstance(obj, FORBIDDEN_TYPES), f"{path} is a {type(obj).__name__}"
        if isinstance(obj, int) and not isinstance(obj, bool):
            assert obj != seed, f"{path} holds the seed"
        if isinstance(obj, GameState):
            for seat, hand in enumerate(obj.hands):
                if seat != viewer:
                    assert set(hand) <= {UNKNOWN}, f"{path}: seat {seat}'s hand"
            assert set(obj.draw_pile) <= {UNKNOWN}, f"{path}: the draw pile's order"
            assert obj.config.seed is None, f"{path}: the seed"
    return count


def test_a_seat_handle_and_a_spectator_lead_to_no_secret() -> None:
    """S2: a handle holds no Game, rule set, record writer, thread or seed; its state shows
    only its own cards. Walked after a few turns, so the stream and prompts are in it."""
    registry = Registry(entry_points=False)
    seats = [Seat("Ann"), Seat("Bob"), Seat("Cid", bot="greedy"), Seat("Dee", bot="random")]
    config = registry.configure(4, seats=seats, first_seat=0, seed=918_273_645_546_372_819)
    with Table.create(config, registry=registry) as table:
        ann, bob, watcher = table.seat(0), table.seat(1), table.spectator()
        for _turn in range(6):
            status = table.status()
            if status.is_over:
                break
            if status.bot_to_move:
                table.play_bot_turn()
                continue
            handle = ann if status.to_move == 0 else bob
            handle.submit(next(iter(handle.legal())))
        for viewer, handle in ((0, ann), (1, bob), (None, watcher)):
            assert handle.events()  # the walk covers a real stream
            assert assert_nothing_secret(handle, viewer, config.seed or 0) > 50
        assert_nothing_secret(table, None, config.seed or 0)  # the host's object too


class Spy:
    """A bot that keeps everything it is handed, for the walker."""

    def __init__(self, context: BotContext) -> None:
        self.context = context
        self.seen: list[tuple[GameState, LegalActions]] = []

    def choose(self, view: GameState, legal: LegalActions) -> Command:
        self.seen.append((view, legal))
        return next(iter(legal))


def test_what_a_bot_is_handed_leads_to_no_secret() -> None:
    """A bot gets its seat's projected view, its legal actions and a read-only rules oracle:
    nothing that leads to hidden cards, the deck, the seed, a rule set it could register a
    hook on, or the record writer (issue 10)."""
    spies: list[Spy] = []

    class Plugin:
        @hookimpl
        def cinco_register_bots(self) -> list[BotSpec]:
            def create(context: BotContext) -> Spy:
                spies.append(Spy(context))
                return spies[-1]

            return [BotSpec("spy", "keeps what it is given", create=create)]

    registry = Registry(entry_points=False, plugins=[Plugin()])
    seed = 5_551_234_567_890_123
    config = registry.configure(
        2,
        seats=[Seat("a", bot="spy"), Seat("b", bot="spy")],
        variants=["joker"],
        turn_limit=30,
        seed=seed,
    )
    with Table.create(config, registry=registry, record=None) as table:
        table.play_bots()
    assert len(spies) == 2 and all(spy.seen for spy in spies)
    for spy in spies:
        assert not hasattr(spy.context.rules, "register") and not hasattr(spy.context.rules, "pm")
        assert assert_nothing_secret(spy, spy.context.seat, seed) > 100


# -- every message to every viewer, in random games ---------------------------------------------


class Troublemaker:
    """A bot that misbehaves in the ways a bot can: it raises with a card of its hand in the
    message, answers too late, plays a card it does not hold on a taken space, or answers for
    another seat."""

    def __init__(self, how: str, seat: int) -> None:
        self.how, self.seat, self.turn = how, seat, 0

    def choose(self, view: GameState, legal: LegalActions) -> Command:
        self.turn += 1
        card = view.hand(self.seat)[0] if view.hand(self.seat) else 1
        if self.turn % 3:
            return next(iter(legal))  # behave two turns in three, so games go on
        if self.how == "raises":
            raise ValueError(f"my secret card is {card}")
        if self.how == "late":
            time.sleep(0.004)
            return next(iter(legal))
        if self.how == "wrong_seat":
            return PlayCard(self.seat + 1, card, None)
        return PlayCard(self.seat, card, 0)  # a space that does not exist


def troublemakers() -> Registry:
    class Plugin:
        @hookimpl
        def cinco_register_bots(self) -> list[BotSpec]:
            return [
                BotSpec(how, how, create=lambda c, how=how: Troublemaker(how, c.seat))
                for how in ("raises", "late", "illegal", "wrong_seat")
            ]

    return Registry(entry_points=False, plugins=[Plugin()])


REGISTRY = troublemakers()
LAYOUTS = [(2, "2x1"), (3, "3x1"), (4, "2x2"), (6, "2x3"), (6, "3x2")]
KINDS = [None, "greedy", "random", "raises", "late", "illegal", "wrong_seat"]


def secret_cards(events: list[Event], seat: int | None) -> set[int]:
    """The cards *seat* may not know, from the referee's log: others' draws and exchanges."""
    hidden: set[int] = set()
    for event in events:
        if isinstance(event, CardDrawn) and event.seat != seat and event.card:
            hidden.add(event.card)
        if isinstance(event, HandDiscarded) and event.seat != seat:
            hidden.update(event.cards or ())
    return hidden


def check_message(message: object, viewer: int | None, seed: int) -> None:
    seed_text = str(seed)
    if isinstance(message, Envelope):
        event = message.event
        if isinstance(event, CardDrawn):
            assert event.card is None or event.seat == viewer, f"{viewer} saw a draw: {event}"
        elif isinstance(event, HandDiscarded):
            assert event.cards is None or event.seat == viewer, f"{viewer} saw an exchange"
        elif isinstance(event, DeckShuffled):
            assert event.order is None, "the deck order reached a viewer"
        elif isinstance(event, GameStarted):
            assert event.config.seed is None, "the seed reached a viewer"
        elif isinstance(event, Notice):
            assert event.private is None or event.seat == viewer, "a private notice leaked"
            assert seed_text not in event.text
        assert seed_text not in repr(event.to_dict())
    elif isinstance(message, Refused):
        assert seed_text not in message.message
    elif isinstance(message, Prompt):
        assert message.legal.seat == viewer


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    layout=st.sampled_from(LAYOUTS),
    joker=st.booleans(),
    kinds=st.lists(st.sampled_from(KINDS), min_size=6, max_size=6),
    seed=st.integers(10**9, 2**62),
    choices=st.integers(0, 2**32),
)
def test_no_message_to_anyone_shows_a_hidden_card_or_the_seed(
    monkeypatch: pytest.MonkeyPatch,
    layout: tuple[int, str],
    joker: bool,
    kinds: list[str | None],
    seed: int,
    choices: int,
) -> None:
    """S2, A7: in random games (2, 3, 4, 6 players in both layouts, with and without Joker,
    people at handles and bots that raise, answer late or illegally), every event, notice,
    prompt and refusal delivered to every seat and spectator hides others' cards, the deck
    order, face-down discards and the seed."""
    monkeypatch.setattr(game_module, "BUDGET_GRACE", 0.0)
    moves = random.Random(choices)
    players, name = layout
    seats = [Seat(f"p{i}", bot=kinds[i]) for i in range(players)]
    config = REGISTRY.configure(
        players,
        layout=name,
        seats=seats,
        variants=["joker"] if joker else [],
        seed=seed,
        turn_limit=40,
        options={"bot_time_budget": 0.002},
    )
    delivered: dict[int | None, list[object]] = {}
    with Table.create(config, registry=REGISTRY) as table:
        handles: dict[int | None, SeatHandle] = {
            seat: table.seat(seat) for seat in range(players) if kinds[seat] is None
        }
        handles[None] = table.spectator()
        for viewer, handle in handles.items():
            delivered[viewer] = []
            handle.listen(delivered[viewer].append)
        for _step in range(400):
            status = table.status()
            if status.is_over:
                break
            if status.bot_to_move:
                table.play_bot_turn()
                continue
            handle = handles[status.to_move]
            legal = list(handle.legal())
            if moves.random() < 0.2:  # a person's mistake: refused, told only to them
                bad = PlayCard(status.to_move, moves.randrange(1, 91), moves.randrange(0, 92))
                answer = handle.submit(bad)
                delivered[status.to_move].append(answer)
            else:
                handle.submit(moves.choice(legal))
        for handle in handles.values():
            handle.pump()
        streams = {viewer: handle.events() for viewer, handle in handles.items()}
    for viewer, messages in delivered.items():
        assert streams[viewer] and streams[viewer][0].seq == 0  # the whole stream, in order
        assert [e.seq for e in streams[viewer]] == list(range(len(streams[viewer])))
        for message in [*streams[viewer], *messages]:
            check_message(message, viewer, seed)


def test_the_walker_finds_a_leak_when_there_is_one() -> None:
    """The walker itself: a handle-like object holding a Game, or a referee state, fails."""
    game = Game.new(Registry(entry_points=False).configure(2, seed=12345))

    class Leaky:
        def __init__(self) -> None:
            self.sneak = lambda: game

    with pytest.raises(AssertionError, match="Game"):
        assert_nothing_secret(Leaky(), 0, -1)
    with pytest.raises(AssertionError, match="hand"):
        assert_nothing_secret([game.state], 0, -1)
    with pytest.raises(AssertionError, match="seed"):
        assert_nothing_secret({"x": (12345,)}, 0, 12345)
    pending: Future[Any] = Future()
    requests: queue.Queue[Any] = queue.Queue()
    requests.put(game)
    with pytest.raises(AssertionError):
        assert_nothing_secret((pending, requests), 0, -1)
