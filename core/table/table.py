"""The table: the one service between a game and everyone who plays, watches or records it.

A :class:`Table` owns a game, its log and its record, drives its bots and applies the table's
own rules (who may undo what, when the game is saved). Everyone at it gets a
:class:`SeatHandle`: a seat's or a spectator's projected state, legal actions, ``submit``, and a
sequenced stream of projected events. A handle holds no :class:`~cinco.core.game.game.Game`, rule
set, record writer or seed; it reaches the table only through a request queue, because the
game lives in the table's own thread. The messages it exchanges are the seat protocol
(:mod:`cinco.core.table.protocol`), which networked play sends over a socket unchanged.

>>> from cinco.core.engine.commands import Exchange
>>> from cinco.core.engine.config import GameConfig, Seat
>>> config = GameConfig.for_players(2, seed=3, first_seat=0)
>>> with Table.create(config) as table:
...     ann = table.seat(0)
...     answer = ann.submit(Exchange(seat=0))
...     type(answer).__name__, ann.view.turn, ann.view.hand(1)
('Accepted', 1, (0, 0, 0, 0))
"""

from __future__ import annotations

import contextlib
import queue
import random
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from cinco.core.engine.commands import Command
from cinco.core.engine.config import GameConfig
from cinco.core.engine.errors import CincoError, IllegalCommand
from cinco.core.engine.events import (
    SPECTATOR,
    CardDrawn,
    CardPlayed,
    Event,
    GameEnded,
    GameStarted,
    HandDiscarded,
    Notice,
    TurnEnded,
    Undone,
    Viewer,
)
from cinco.core.engine.faults import user_interrupt
from cinco.core.engine.rules import LegalActions
from cinco.core.engine.state import GameState, Timeline
from cinco.core.game.game import Game
from cinco.core.host.thinking import Limit, limited
from cinco.core.records.record import load_record
from cinco.core.records.recording import RecordFile
from cinco.core.table.protocol import (
    MAX_HINT_SECONDS,
    Accepted,
    Check,
    Envelope,
    Hint,
    Hinted,
    Message,
    Prompt,
    Refused,
    Submit,
    Subscribe,
    Undo,
)
from cinco.core.words.messages import freeze

if TYPE_CHECKING:
    from cinco.core.host.registry import Registry

__all__ = [
    "PLAYED_FOR",
    "STAND_IN",
    "STAND_IN_ENDED",
    "EventSink",
    "SeatHandle",
    "Table",
    "TableStatus",
    "Turn",
    "played_for",
    "stand_ins",
    "turns",
]

#: How long a handle waits for the table to answer one request (a bot's move included).
ANSWER_TIMEOUT = 600.0


@dataclass(frozen=True)
class TableStatus:
    """Public facts about a table, for whoever hosts it (a frontend, a server's lobby)."""

    table: str
    seq: int
    is_over: bool
    to_move: int
    bot_to_move: bool
    #: The record's path (``None``: not saved), and whether every event is written to it.
    record: Path | None
    saved: bool
    #: Why the game is stopped (the record could not be written), if it is.
    problem: Refused | None
    #: The people's seats a bot plays for now (zombie mode), with the bot's spec.
    stand_ins: tuple[tuple[int, str], ...] = ()
    #: Turns played so far (undone ones left out).
    turn: int = 0


@dataclass(frozen=True)
class Turn:
    """One turn of a log that still counts (an undo takes turns back): ``start`` and ``end``
    are event counts (the state before the turn is the state after ``start`` events)."""

    start: int
    end: int
    seat: int
    action: str


def turns(events: Sequence[Event]) -> list[Turn]:
    """The turns of *events* that still count, oldest first: undone turns are left out."""
    first = events[0] if events else None
    if not isinstance(first, GameStarted):
        return []
    counted: list[Turn] = []
    start_at: int | None = None
    for index, event in enumerate(events):
        kind = type(event)
        if kind is TurnEnded or kind is GameEnded:
            assert isinstance(event, TurnEnded | GameEnded)
            begin = start_at if start_at is not None else _first_turn_start(events)
            counted.append(Turn(begin, index + 1, event.seat, event.action))
            start_at = index + 1
        elif kind is Undone:
            assert isinstance(event, Undone)
            while counted and counted[-1].end > event.back_to:
                counted.pop()
            start_at = index + 1
    return counted


def _cards_shown(event: Event) -> tuple[int, ...]:
    """The cards *event*, as one viewer sees it, shows them face up."""
    kind = type(event)
    if kind is CardPlayed:
        assert isinstance(event, CardPlayed)
        return (event.card,)
    if kind is CardDrawn:
        assert isinstance(event, CardDrawn)
        return () if event.card is None else (event.card,)
    if kind is HandDiscarded:
        assert isinstance(event, HandDiscarded)
        return () if event.cards is None else event.cards
    return ()


def _first_turn_start(events: Sequence[Event]) -> int:
    first = events[0]
    assert isinstance(first, GameStarted)
    return 2 + first.config.params.deal * first.config.players


#: The notices of zombie mode: a bot plays for a person's seat, that person is back, a bot
#: moved once for a person out of time. Their ``seat`` is the person's.
STAND_IN = "stand_in"
STAND_IN_ENDED = "stand_in_ended"
PLAYED_FOR = "played_for"


def stand_ins(events: Sequence[Event]) -> dict[int, str]:
    """Which people's seats a bot plays for after *events* (from the zombie-mode notices),
    seat → the bot's spec (``NAME[:LEVEL]``)."""
    standing: dict[int, str] = {}
    for event in events:
        if type(event) is Notice:
            assert isinstance(event, Notice)
            if event.seat is None:
                continue
            if event.code == STAND_IN:
                standing[event.seat] = str(dict(event.params).get("bot", "random"))
            elif event.code == STAND_IN_ENDED:
                standing.pop(event.seat, None)
    return standing


def played_for(events: Sequence[Event]) -> set[int]:
    """The ends (event counts, as :attr:`Turn.end`) of the turns a bot played for a person."""
    standing: set[int] = set()
    once: set[int] = set()
    ends: set[int] = set()
    for index, event in enumerate(events):
        kind = type(event)
        if kind is Notice:
            assert isinstance(event, Notice)
            if event.seat is None:
                continue
            if event.code == STAND_IN:
                standing.add(event.seat)
            elif event.code == STAND_IN_ENDED:
                standing.discard(event.seat)
            elif event.code == PLAYED_FOR:
                once.add(event.seat)
        elif kind is TurnEnded or kind is GameEnded:
            assert isinstance(event, TurnEnded | GameEnded)
            if event.seat in standing or event.seat in once:
                ends.add(index + 1)
            once.discard(event.seat)
    return ends


class EventSink(Protocol):
    """Where a table stores its events instead of a JSONL :class:`RecordFile` (a server's
    database, say). The table calls it from its own thread only: ``append`` for each new event
    in order, then ``commit`` once the events of one request (a whole turn, or the deal) are
    appended, before anyone is sent them; ``sync`` at the game's end, ``close`` when the table
    closes. A ``commit`` stores all of its events or, raising ``OSError``, none of them, and
    then forgets them: the table refuses the request (``record_failed``) and takes its events
    back, and the next ``append`` follows the last event stored."""

    @property
    def path(self) -> Path | None: ...

    def append(self, event: Event) -> None: ...

    def commit(self) -> None: ...

    def sync(self) -> None: ...

    def close(self) -> None: ...


# -- the table's side: the referee, in its own thread -----------------------------------------


@dataclass
class _Port:
    viewer: Viewer
    inbox: queue.SimpleQueue[Message]
    streaming: bool = False
    sent: int = 0  # events delivered so far
    prompted: int = -1  # the seq at which this seat was last prompted


class _Calls:
    """The hints a table's thread is thinking on (one at most: it does one thing at a time),
    so that another thread can call them off: the seat that asked left, or the table closes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[str | None, threading.Event] = {}
        self._closing = False

    @contextlib.contextmanager
    def running(self, port: str | None, seconds: float) -> Iterator[Limit]:
        """Think for *port* (a port id) for *seconds* at most, unless called off first."""
        stop = threading.Event()
        with self._lock:
            if self._closing:
                stop.set()
            self._running[port] = stop
        try:
            with limited(seconds, stop) as limit:
                yield limit
        finally:
            with self._lock:
                self._running.pop(port, None)

    def call_off(self, port: str | None = None) -> None:
        """Stop the thinking for *port* (``None``: anyone's) now."""
        with self._lock:
            for key, stop in self._running.items():
                if port is None or key == port:
                    stop.set()

    def close(self) -> None:
        """Stop every thinking now, and any started from now on at once."""
        with self._lock:
            self._closing = True
        self.call_off()


class _Referee:
    """Everything that may see the whole game. Only the table's thread touches it."""

    def __init__(
        self,
        game: Game,
        table_id: str,
        record: RecordFile | EventSink | None,
        *,
        written: int,
        undo: bool,
    ) -> None:
        self.game = game
        self.table_id = table_id
        self.record: RecordFile | EventSink | None = record
        self.written = written
        self.undo_allowed = undo
        self.problem: Refused | None = None
        #: Why the last request's events are not stored (:meth:`settle`), if they are not.
        self.unstored: Refused | None = None
        #: The store's last error (the server tells a full disk from other failures by it).
        self.failure: OSError | None = None
        #: Which program hosts the table (a record's header says so).
        self.frontend = "api"
        self.ports: dict[str, _Port] = {}
        self.open = True
        #: People's seats a bot plays for (zombie mode): seat → bot spec, from the log.
        self.stand_ins: dict[int, str] = stand_ins(game.store)
        self.stand_in_bots: dict[tuple[int, str], Any] = {}
        #: The hint thinking now, which another thread may call off (set by :func:`_serve`).
        self.calls = _Calls()

    # -- requests ------------------------------------------------------------------------------

    def serve(self, operation: str, port_id: str | None, payload: Any) -> Any:
        port = self.ports.get(port_id) if port_id is not None else None
        if operation == "port":
            new_id = secrets.token_hex(16)
            self.ports[new_id] = _Port(payload, queue.SimpleQueue())
            return new_id, self.ports[new_id].inbox
        if operation == "status":
            return self.status()
        if operation == "bot":
            return self.play_bot_turn()
        if operation == "save_as":
            return self.save_as(payload)
        if operation == "stand_in":
            return self.stand_in(*payload)
        if operation == "play_for":
            return self.play_for(*payload)
        if operation == "close":
            self.close()
            return None
        if port is None:
            raise CincoError(f"unknown port for {operation}")
        if operation == "request":
            return self.answer(port, payload)
        raise CincoError(f"unknown table operation {operation!r}")

    def answer(self, port: _Port, message: Message) -> Message | None:
        if isinstance(message, Subscribe):
            port.streaming = True
            port.sent = max(0, message.after + 1)
            port.prompted = -1
            self.deliver()
            return Accepted(len(self.game.store) - 1)
        if isinstance(message, Submit | Check):
            refusal = self._seat_refusal(port, message.command)
            if refusal is not None:
                return refusal
            if isinstance(message, Check):
                return self.check(message.command)
            return self.submit(message.command)
        if isinstance(message, Undo):
            return self.undo(port, check=message.check)
        if isinstance(message, Hint):
            return self.hint(port, message)
        raise CincoError(f"not a request: {message!r}")

    def _seat_refusal(self, port: _Port, command: Command) -> Refused | None:
        if not isinstance(port.viewer, int):
            return Refused("not_seated")
        if not isinstance(command, Command):
            return Refused("malformed_command", freeze({"problem": type(command).__name__}))
        if command.seat != port.viewer:
            return Refused(
                "wrong_seat", freeze({"seat": port.viewer, "other": _printable(command.seat)})
            )
        if self.problem is not None:
            return self.problem
        return None

    def check(self, command: Command) -> Refused | Accepted:
        from cinco.core.engine.rules import decide

        try:
            decide(self.game.state, command, self.game.rules)
        except IllegalCommand as exc:
            return Refused.of(exc)
        return Accepted(-1)

    def submit(self, command: Command) -> Refused | Accepted:
        try:
            self.game.execute(command)
        except IllegalCommand as exc:
            return Refused.of(exc)
        finally:
            self.settle()
        return self.answered()

    def play_bot_turn(self) -> Refused | Accepted:
        state = self.game.state
        if self.problem is not None:
            return self.problem
        if not state.is_over and state.current_seat in self.stand_ins:
            return self.move_for(state.current_seat, self.stand_ins[state.current_seat])
        if state.is_over or not self.game.config.seats[state.current_seat].is_bot:
            return Refused("no_bot_to_move")
        try:
            self.game.play_bot_turn()
        except IllegalCommand as exc:  # the rules refused even the random fallback (a plugin)
            return Refused.of(exc)
        finally:
            self.settle()
        return self.answered()

    # -- zombie mode: a bot in a person's seat -------------------------------------------------

    def _person(self, seat: object) -> int | Refused:
        seats = self.game.config.seats
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats):
            return Refused("wrong_seat", freeze({"seat": -1, "other": _printable(seat)}))
        if seats[seat].is_bot:
            return Refused("not_seated")
        return seat

    def stand_in(self, seat: int, bot: str | None, reason: str) -> Refused | Accepted:
        """Let *bot* (``NAME[:LEVEL]``) play the person's *seat* from now on, or (``None``)
        give the seat back to its person; a notice tells everyone."""
        person = self._person(seat)
        if isinstance(person, Refused):
            return person
        if self.problem is not None:
            return self.problem
        if self.game.is_over or self.stand_ins.get(person) == bot:
            return Accepted(-1)
        name = self.game.config.seats[person].name
        if bot is None:
            del self.stand_ins[person]
            self.game.notice(STAND_IN_ENDED, {"name": name, "reason": reason}, seat=person)
        else:
            self._bot_name(bot)
            self.stand_ins[person] = bot
            self.game.notice(
                STAND_IN,
                {"name": name, "bot": bot.partition(":")[0], "reason": reason},
                seat=person,
            )
        self.settle()
        return self.answered()

    def play_for(self, seat: int, bot: str, reason: str) -> Refused | Accepted:
        """Let *bot* play this one turn for the person at *seat*, whose turn it is (their
        time ran out, say); a notice tells everyone first."""
        person = self._person(seat)
        if isinstance(person, Refused):
            return person
        if self.problem is not None:
            return self.problem
        state = self.game.state
        if state.is_over or state.current_seat != person:
            return Refused("no_bot_to_move")
        self._bot_name(bot)
        name = self.game.config.seats[person].name
        self.game.notice(
            PLAYED_FOR, {"name": name, "bot": bot.partition(":")[0], "reason": reason}, seat=person
        )
        return self.move_for(person, bot)

    def _bot_name(self, spec: str) -> str:
        name = spec.partition(":")[0]
        if name not in self.game.registry.bots():
            raise CincoError(f"no bot {name!r} is installed")
        return name

    def move_for(self, seat: int, spec: str) -> Refused | Accepted:
        """One turn for the person at *seat* (to move), chosen by bot *spec* from the seat's
        view only; a bot that fails or cheats loses the move to a random legal one."""
        from cinco.core.engine.oracle import RulesOracle
        from cinco.core.host.registry import BotContext

        name, _colon, level = spec.partition(":")
        legal = self.game.legal_actions(seat)
        chooser = random.Random(secrets.randbits(32))
        command: Command | None = None
        try:
            bot = self.stand_in_bots.get((seat, spec))
            if bot is None:
                view = self.game.view(seat)
                context = BotContext(
                    seat=seat,
                    config=view.config,  # as the seat sees it: no seed
                    rules=RulesOracle.of(self.game.rules),
                    level=level or None,
                    seed=secrets.randbelow(2**31),
                    time_budget=self.game.bot_time_budget,
                )
                bot = self.game.registry.create_bot(context, name)
                self.stand_in_bots[(seat, spec)] = bot
            answer = bot.choose(self.game.view(seat), legal)
            command = next((c for c in legal if type(c) is type(answer) and c == answer), None)
        except BaseException:  # a stand-in that fails must not stop the game (SystemExit...)
            command = None
        if command is None:
            command = legal[chooser.randrange(len(legal))]
        try:
            self.game.execute(command)
        except IllegalCommand as exc:
            return Refused.of(exc)
        finally:
            self.settle()
        return self.answered()

    def hint(self, port: _Port, request: Hint) -> Hinted | Refused:
        """Ask a bot what it would play in the seat's place, from the seat's view only."""
        from cinco.core.engine.oracle import RulesOracle
        from cinco.core.host.registry import BotContext

        seat = port.viewer
        if not isinstance(seat, int):
            return Refused("not_seated")
        state = self.game.state
        if state.is_over or state.current_seat != seat:
            return Refused("no_hint_now")
        installed = self.game.registry.bots()
        name = next((bot for bot in request.bots if bot in installed), None)
        if name is None:
            return Refused("no_hint_bot", freeze({"bots": ", ".join(request.bots)}))
        seconds = request.seconds
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
            or not 0 < seconds <= MAX_HINT_SECONDS
        ):
            # A local handle's Hint skips the protocol's schema: the same bound, whatever
            # it asks (a NaN would never end the search).
            problem = f"hint: seconds must be more than 0 and at most {MAX_HINT_SECONDS:g}"
            return Refused("malformed_command", freeze({"problem": problem}))
        view = self.game.view(seat)
        context = BotContext(
            seat=seat,
            config=view.config,
            rules=RulesOracle.of(self.game.rules),
            seed=secrets.randbelow(2**31),
            time_budget=float(seconds),
        )
        legal = self.game.legal_actions(seat)
        try:
            # The table answers nobody else meanwhile: the bot thinks until the deadline at
            # most, or until the hint is called off (:meth:`_Line.call_off`).
            port_id = next((key for key, value in self.ports.items() if value is port), None)
            with self.calls.running(port_id, float(seconds)) as limit:
                bot = self.game.registry.create_bot(context, name)
                command = bot.choose(view, legal)
                if limit.stop.is_set():  # the seat left, or the table closes: nobody waits
                    return Refused("no_hint_bot", freeze({"bots": f"{name} (called off)"}))
            explain = getattr(bot, "explain", None)
            reason = explain(view, command) if callable(explain) else None
        except BaseException as exc:  # a broken bot must not cost the player the game
            if user_interrupt(exc):
                raise
            return Refused("no_hint_bot", freeze({"bots": f"{name} ({type(exc).__name__})"}))
        if command not in legal:  # nor mislead the player
            return Refused("no_hint_bot", freeze({"bots": name}))
        return Hinted(command, name, str(reason) if reason else None)

    # -- undo ----------------------------------------------------------------------------------

    def undo_target(self, seat: int) -> int | Refused:
        """Where *seat*'s undo goes back to, or why it may not. Only the seat's own last
        action, while no other person has acted since (bots' replies are taken back with it),
        never once the game is over, and never if it would tell a person where a card is that
        they could not know without the undo: the seat's own draw or exchange (the cards drawn
        would go back into the deck), a bot's play since (its card, seen by all, would go back
        into its hand), or the seat's own play when another person sits at the table (they saw
        the card, which would go back into the seat's hand). See :meth:`_undo_shows`."""
        if not self.undo_allowed:
            return Refused("undo_not_allowed")
        seats = self.game.config.seats
        if seats[seat].is_bot:
            return Refused("not_seated")
        if self.game.is_over:
            return Refused("undo_game_over")
        counted = turns(self.game.store)
        mine = [turn for turn in counted if turn.seat == seat]
        if not mine:
            return Refused("nothing_to_undo")
        last = mine[-1]
        if last.end in played_for(self.game.store):
            return Refused("undo_stand_in")
        for turn in counted[counted.index(last) + 1 :]:
            if not seats[turn.seat].is_bot:
                return Refused("undo_other_moved", freeze({"name": seats[turn.seat].name}))
        if last.action != "play":
            return Refused("undo_showed_cards", freeze({"action": last.action}))
        shows = self._undo_shows(seat, last.start)
        return last.start if shows is None else shows

    def _undo_shows(self, seat: int, target: int) -> Refused | None:
        """Why going back to the state after *target* events would show a person a card, or
        ``None``: each card an event taken back showed a person face up (a play to everyone,
        a draw or an exchange to its seat) must then be in that person's own hand, where they
        know it anyway, and not in another hand or the deck. The seat's own view is looked at
        first, so that its refusal names the seat that played the card it saw."""
        game = self.game
        seats = game.config.seats
        before = game.state_at(target)
        people = [seat, *(n for n, spec in enumerate(seats) if not spec.is_bot and n != seat)]
        store = game.store
        for index in range(target, len(store)):
            event = store[index]
            for person in people:
                held = before.hands[person]
                if all(card in held for card in _cards_shown(event.seen_by(person))):
                    continue
                if person != seat:
                    return Refused("undo_seen_by_others", freeze({"name": seats[person].name}))
                # A card another seat showed (the seat's own draws were refused already).
                assert isinstance(event, CardPlayed | CardDrawn | HandDiscarded)
                return Refused("undo_card_seen", freeze({"name": seats[event.seat].name}))
        return None

    def undo(self, port: _Port, *, check: bool) -> Refused | Accepted:
        if not isinstance(port.viewer, int):
            return Refused("not_seated")
        if self.problem is not None:
            return self.problem
        target = self.undo_target(port.viewer)
        if isinstance(target, Refused):
            return target
        if check:
            return Accepted(-1)
        try:
            self.game.undo(port.viewer, target)
            self.game.notice(
                "undone", {"name": self.game.config.seats[port.viewer].name}, seat=port.viewer
            )
        except IllegalCommand as exc:
            return Refused.of(exc)
        finally:
            self.settle()
        return self.answered()

    # -- after every change: the record, then everyone's stream -----------------------------

    def settle(self) -> None:
        self.unstored = self.persist()
        self.deliver()

    def answered(self) -> Refused | Accepted:
        """The answer to a request that changed the game, once :meth:`settle` has stored it:
        ``accepted`` only if its events are stored, else why not (``record_failed``)."""
        if self.unstored is not None:
            return self.unstored
        return Accepted(len(self.game.store) - 1)

    def persist(self) -> Refused | None:
        """Store the events not yet stored; if that fails, the ``record_failed`` refusal.

        A sink (a server's database) stores a request's events in one commit or none: when
        the commit fails, the game goes back to the stored log (:meth:`_take_back`), so that
        nothing anyone was told of, or will be judged against, is missing from the store;
        the next request tries again (the disk may have room by then). A record file stops
        the game instead, its events kept here for ``save_as``: a local player loses
        nothing, and there is nobody else to tell."""
        store = self.game.store
        if self.record is None or self.problem is not None:
            return None
        try:
            if isinstance(self.record, RecordFile):
                while self.written < len(store):  # a line is written when appended
                    self.record.append(store[self.written])
                    self.written += 1
            else:  # a sink's batch counts only once committed: stored before anyone hears
                batch = self.written
                while batch < len(store):
                    self.record.append(store[batch])
                    batch += 1
                self.record.commit()
                self.written = batch
            if self.game.is_over:
                self.record.sync()
        except OSError as exc:
            self.failure = exc
            error = freeze({"error": self.game.scrub(str(exc))})
            if not isinstance(self.record, RecordFile) and self._take_back():
                return Refused("record_failed", error)  # nothing happened; try again later
            # Stop rather than play on unrecorded: the events stay here, for save_as.
            self.problem = Refused("record_stopped", error)
            return self.problem
        return None

    def _take_back(self) -> bool:
        """Make the game the stored log again, after a sink's commit failed: the request's
        events never happened for anyone (nobody was sent them: :meth:`deliver` sends only
        what is stored). False if the stored log is no game to go on from (the deal itself
        was not stored). The game is rebuilt from the stored log, as at a server's restart:
        plugins' ``cinco_game_started`` hook is called again for it, with the same game id."""
        if len(self.game.store) == self.written:
            return True
        kept = list(self.game.store)[: self.written]
        if not kept:
            return False
        game, written = _rebuild(kept, self.game.registry, self.table_id)
        if written != self.written or len(game.store) != written:
            return False
        self.game = game
        self.stand_ins = stand_ins(game.store)
        self.stand_in_bots.clear()  # they saw views of the turn taken back
        return True

    def deliver(self) -> None:
        store = self.game.store
        state = self.game.state
        to_move = None if state.is_over else state.current_seat
        if to_move is not None and (
            self.game.config.seats[to_move].is_bot or to_move in self.stand_ins or self.problem
        ):
            to_move = None  # only a person is prompted, and nobody while the game is stopped
        # What is recorded, and no more: a turn whose record failed is nobody's news.
        known = len(store) if self.record is None else self.written
        last = known - 1
        for port in self.ports.values():
            if not port.streaming:
                continue
            while port.sent < known:
                event = store[port.sent].seen_by(port.viewer)
                port.inbox.put(Envelope(self.table_id, port.sent, event))
                port.sent += 1
            if to_move is not None and port.viewer == to_move and port.prompted != last:
                port.inbox.put(self._prompt(to_move, last))
                port.prompted = last

    def _prompt(self, seat: int, last: int) -> Prompt | Refused:
        """The seat's legal actions, or why there are none: a variant's rule hook that fails
        while they are worked out refuses like it does a command, and the game is unchanged."""
        try:
            return Prompt(self.table_id, last, self.game.legal_actions(seat))
        except IllegalCommand as exc:
            return Refused.of(exc)

    # -- the host's operations -------------------------------------------------------------

    def status(self) -> TableStatus:
        state = self.game.state
        seats = self.game.config.seats
        record = self.record
        return TableStatus(
            table=self.table_id,
            seq=len(self.game.store) - 1,
            is_over=state.is_over,
            to_move=state.current_seat,
            bot_to_move=not state.is_over
            and (seats[state.current_seat].is_bot or state.current_seat in self.stand_ins),
            record=None if record is None else record.path,
            saved=record is not None
            and self.problem is None
            and self.written == len(self.game.store),
            problem=self.problem,
            stand_ins=tuple(sorted(self.stand_ins.items())),
            turn=state.turn,
        )

    def save_as(self, path: Path) -> Path:
        """Write the whole log to a new record at *path* and go on recording there."""
        new = RecordFile.create(
            path,
            list(self.game.store),
            frontend=self.frontend,
            table=self.table_id,
            **variant_header(self.game),
        )
        if self.record is not None:
            with contextlib.suppress(OSError):  # it failed already: that is why we are here
                self.record.close()
        self.record, self.written, self.problem = new, len(self.game.store), None
        self.deliver()
        return new.path

    def close(self) -> None:
        self.persist()
        if self.record is not None:
            with contextlib.suppress(OSError):
                self.record.close()
        self.open = False
        self.game.close()  # cinco_game_closed: ended, or abandoned


def variant_header(game: Game) -> dict[str, Any]:
    """The record header's ``variants`` field: where each of the game's variants comes from,
    so that a reader without one can say what to install (none for built-ins)."""
    sources = game.registry.variant_sources(game.config.variants)
    return {"variants": sources} if sources else {}


def _printable(value: object) -> str | int:
    return value if isinstance(value, int) and not isinstance(value, bool) else repr(value)


_Request = tuple[str, str | None, Any, "Future[Any]"]


def _serve(
    requests: queue.Queue[_Request],
    setup: Callable[[], _Referee],
    ready: Future[Any],
    calls: _Calls,
) -> None:
    """The table's thread: make the referee, then answer requests one at a time."""
    try:
        referee = setup()
    except BaseException as exc:
        ready.set_exception(exc)
        return
    referee.calls = calls
    ready.set_result((referee.table_id, referee.game.view(SPECTATOR).config, threading.get_ident()))
    del setup
    while referee.open:
        operation, port, payload, answer = requests.get()
        if not answer.set_running_or_notify_cancel():
            continue  # its caller gave up (an awaiting task was cancelled): nothing was done
        try:
            answer.set_result(referee.serve(operation, port, payload))
        except BaseException as exc:  # a bug must reach the caller, never kill the table
            answer.set_exception(exc)


class _Line:
    """The request queue to one table's thread, shared by its host and its handles."""

    __slots__ = ("_calls", "_closed", "_lock", "_queue", "_thread_id")

    def __init__(self, requests: queue.Queue[_Request], thread_id: int, calls: _Calls) -> None:
        self._queue = requests
        self._calls = calls
        self._closed = threading.Event()
        self._thread_id = thread_id
        # "close" is the last request ever queued: one sent from another thread while the
        # table closes is answered table_closed, never left waiting behind the closed table.
        self._lock = threading.Lock()

    def call(self, operation: str, port: str | None = None, payload: Any = None) -> Any:
        return self.send(operation, port, payload).result(ANSWER_TIMEOUT)

    def send(self, operation: str, port: str | None = None, payload: Any = None) -> Future[Any]:
        answer: Future[Any] = Future()
        with self._lock:
            if self._closed.is_set():
                answer.set_result(Refused("table_closed"))
            elif threading.get_ident() == self._thread_id:
                # From inside a hook or a bot: the table is busy with the request that called it.
                answer.set_result(Refused("busy"))
            else:
                self._queue.put((operation, port, payload, answer))
        return answer

    def call_off(self, port: str | None = None, *, closing: bool = False) -> None:
        """Stop a hint the table is thinking on for *port* (``None``: anyone's) now; with
        *closing*, every hint now and from now on."""
        if closing:
            self._calls.close()
        else:
            self._calls.call_off(port)

    def close(self) -> None:
        self._calls.close()  # a hint thinking now must not hold the close up
        with self._lock:
            if self._closed.is_set():
                return
            if threading.get_ident() == self._thread_id:
                self._closed.set()  # from inside the table: nothing more will be asked of it
                return
            answer: Future[Any] = Future()
            self._queue.put(("close", None, None, answer))
            self._closed.set()
        answer.result(ANSWER_TIMEOUT)


# -- the host's side -------------------------------------------------------------------------


class Table:
    """A table: create it with :meth:`create` or :meth:`resume`, then hand out seats.

    Undo (``undo=True``, the default): a person may take back their own last action while no
    other person has acted since; against bots, the bots' replies are taken back with it. An
    undo never shows anyone a card, or it is refused: each card the events taken back showed a
    person face up must then be in that person's own hand. So a draw or an exchange stays (its
    cards would go back into the deck: ``undo_showed_cards``), a play stays once a bot has
    played a card since (``undo_card_seen``) or when another person at the table saw it, a
    team-mate too (``undo_seen_by_others``), and nothing is taken back after the game has
    ended (``undo_game_over``). An undo is an event: nothing is removed from the log or the
    record.
    """

    def __init__(self, line: _Line, table_id: str, config: GameConfig, warnings: list[str]):
        self._line = line
        #: The table's id (in every envelope).
        self.id = table_id
        #: The configuration as everyone may see it: no seed.
        self.config = config
        #: Things worth telling about a resumed record (a cut-off last turn, ...).
        self.warnings = warnings

    # -- creating -------------------------------------------------------------------------------

    @classmethod
    def _start(cls, setup: Callable[[], _Referee], warnings: list[str]) -> Table:
        requests: queue.Queue[_Request] = queue.Queue()
        ready: Future[Any] = Future()
        calls = _Calls()
        thread = threading.Thread(
            target=_serve, args=(requests, setup, ready, calls), name="cinco-table", daemon=True
        )
        thread.start()
        table_id, config, thread_id = ready.result(ANSWER_TIMEOUT)
        return cls(_Line(requests, thread_id, calls), table_id, config, warnings)

    @classmethod
    def create(
        cls,
        config: GameConfig,
        *,
        registry: Registry | None = None,
        record: str | Path | None = None,
        frontend: str = "api",
        undo: bool = True,
        sink: Callable[[], EventSink] | None = None,
        table_id: str | None = None,
    ) -> Table:
        """A new table for *config* (no seed: one is drawn from the operating system).
        With *record*, every event is written to that new file (an existing file is refused:
        it may be a saved game). With *sink* instead, every event goes to the
        :class:`EventSink` it makes (in the table's thread); *table_id* names the table."""
        table_id = table_id or secrets.token_hex(6)
        path = None if record is None else Path(record)

        def setup() -> _Referee:
            game = Game.new(config, registry=registry, game_id=table_id)
            if sink is not None:
                referee = _Referee(game, table_id, sink(), written=0, undo=undo)
                failed = referee.persist()
                if failed is not None:  # the deal is not stored: there is no table
                    raise referee.failure or CincoError(failed.message)
                return referee
            file = None
            if path is not None:
                file = RecordFile.create(
                    path,
                    list(game.store),
                    frontend=frontend,
                    table=table_id,
                    **variant_header(game),
                )
            referee = _Referee(game, table_id, file, written=len(game.store), undo=undo)
            referee.frontend = frontend
            return referee

        return cls._start(setup, [])

    @classmethod
    def resume(
        cls,
        path: str | Path,
        *,
        registry: Registry | None = None,
        undo: bool = True,
        record: bool = True,
    ) -> Table:
        """The game saved in *path*, going on where it stopped (a turn cut short by a killed
        process is played again from its start). Its record goes on growing in the same file
        (*record* false: only read it, as a replay does). Raises :class:`RecordError`."""
        path = Path(path)
        loaded = load_record(path, registry=registry)
        warnings = list(loaded.warnings)
        complete = _whole_turns(loaded.events)
        if complete < len(loaded.events):
            from cinco.core.words.i18n import _

            warnings.append(_("The last turn in the record was not finished; it was left out."))
        events = loaded.events[:complete]
        header_id = loaded.header.get("table")
        table_id = header_id if isinstance(header_id, str) and header_id else secrets.token_hex(6)

        def setup() -> _Referee:
            game, written = _rebuild(events, registry, table_id)
            file = RecordFile.reopen(path, keep=written) if record else None
            referee = _Referee(game, table_id, file, written=written, undo=undo)
            referee.persist()
            return referee

        return cls._start(setup, warnings)

    @classmethod
    def restore(
        cls,
        events: Sequence[Event],
        sink: Callable[[int], EventSink],
        *,
        table_id: str,
        registry: Registry | None = None,
        undo: bool = True,
    ) -> Table:
        """A table going on from *events* (the referee's whole log, as an :class:`EventSink`
        stored it), as :meth:`resume` does from a record: a turn cut short is played again.
        ``sink(keep)`` opens the store to go on after its first *keep* events."""
        stored = list(events)
        complete = _whole_turns(stored)
        kept = stored[:complete]

        def setup() -> _Referee:
            game, written = _rebuild(kept, registry, table_id)
            referee = _Referee(game, table_id, sink(written), written=written, undo=undo)
            referee.persist()
            return referee

        return cls._start(setup, [])

    # -- seats ------------------------------------------------------------------------------

    def seat(self, seat: int) -> SeatHandle:
        """A handle for the person at *seat* (numbered from 0)."""
        if (
            isinstance(seat, bool)
            or not isinstance(seat, int)
            or not 0 <= seat < self.config.players
        ):
            raise ValueError(f"no seat {seat!r}: seats are 0 to {self.config.players - 1}")
        return self._handle(seat)

    def spectator(self) -> SeatHandle:
        """A handle that sees what everyone may see, and may not act."""
        return self._handle(SPECTATOR)

    def _handle(self, viewer: Viewer) -> SeatHandle:
        port, inbox = self._line.call("port", payload=viewer)
        return SeatHandle(self._line, port, inbox, viewer, self.id)

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(i for i, seat in enumerate(self.config.seats) if not seat.is_bot)

    # -- hosting ------------------------------------------------------------------------------

    def status(self) -> TableStatus:
        status: TableStatus = self._line.call("status")
        return status

    def play_bot_turn(self) -> Accepted | Refused:
        """Let the bot to move play one turn (``Refused("no_bot_to_move")`` if none is)."""
        answer: Accepted | Refused = self._line.call("bot")
        return answer

    def stand_in(self, seat: int, bot: str | None, *, reason: str = "away") -> Accepted | Refused:
        """Zombie mode: let *bot* (``NAME[:LEVEL]``) play the person's *seat* from now on
        (:meth:`play_bot_turn` moves for it, the seat is not prompted), or with ``None`` give
        the seat back. Everyone is told by a ``stand_in`` / ``stand_in_ended`` notice (with
        *reason*); the seat's handle keeps its stream. Raises ``CincoError`` for a bot that is
        not installed."""
        answer: Accepted | Refused = self._line.call("stand_in", payload=(seat, bot, reason))
        return answer

    def play_for(self, seat: int, bot: str, *, reason: str = "timeout") -> Accepted | Refused:
        """Let *bot* play one turn for the person at *seat*, whose turn it is (their time ran
        out); a ``played_for`` notice tells everyone first. The bot sees only the seat's view."""
        answer: Accepted | Refused = self._line.call("play_for", payload=(seat, bot, reason))
        return answer

    def start_bot_turn(self) -> Future[Accepted | Refused]:
        """:meth:`play_bot_turn` without waiting: the answer comes in the returned future, the
        events in every handle's stream (for frontends that keep drawing while a bot thinks)."""
        return self._line.send("bot")

    def play_bots(self, max_turns: int | None = None) -> int:
        """Let bots move until a person is to move or the game ends; returns turns played."""
        played = 0
        while max_turns is None or played < max_turns:
            if not isinstance(self.play_bot_turn(), Accepted):
                break
            played += 1
        return played

    def save_as(self, path: str | Path) -> Path:
        """Write the whole game to a new record at *path* (after the record failed, say) and
        go on recording there."""
        saved: Path = self._line.call("save_as", payload=Path(path))
        return saved

    def call_off(self) -> None:
        """Stop the hint the table is thinking on now, and any asked from now on (answered
        ``no_hint_bot`` at once): the table is about to close, and nobody should wait."""
        self._line.call_off(closing=True)

    def close(self) -> None:
        """Write what is left, close the record and stop the table (a hint thinking now is
        called off first). Handles then get ``Refused("table_closed")``."""
        self._line.close()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        config = self.config
        return f"<Table {self.id} {config.players}p {config.layout}>"


def _rebuild(events: Sequence[Event], registry: Registry | None, table_id: str) -> tuple[Game, int]:
    """The game of a stored log cut to its whole turns (:func:`_whole_turns`), and how many
    of the stored events it keeps. A log cut off inside the deal keeps its first event and
    deals again (from the seed: the same cards)."""
    if len(events) == 1 and isinstance(events[0], GameStarted):
        game = Game.new(events[0].config, registry=registry, keep_params=True, game_id=table_id)
        return game, 1
    game = Game.from_events(events, registry=registry, game_id=table_id)
    return game, len(game.store)


def _whole_turns(events: Sequence[Event]) -> int:
    """How many of *events* make whole turns: a turn cut off by a kill is left out (a log
    cut inside the deal keeps only its first event: the deal is made again from the seed)."""
    started = events[0] if events else None
    if not isinstance(started, GameStarted):
        return 0
    end = 0
    setup = _first_turn_start(events)
    for index, event in enumerate(events):
        if isinstance(event, TurnEnded | GameEnded | Undone):
            end = index + 1
        elif isinstance(event, Notice) and index == max(end, setup):
            end = index + 1  # a notice between turns (or after the deal) belongs to no turn
    if end == 0 or end < setup:
        return setup if len(events) >= setup else 1
    return end


# -- the viewer's side ---------------------------------------------------------------------------


Listener = Callable[[Message], None]


class SeatHandle:
    """What one viewer at a table holds: a seat's, or a spectator's.

    The handle keeps the viewer's own copy of the game, folded from the projected events it
    receives (so :attr:`view` never waits for the table), and the legal actions the table sent
    with the last prompt. Messages arrive in an inbox; :meth:`pump` takes them in (every
    request does too) and passes each to the listeners.
    """

    __slots__ = (
        "_blocked",
        "_inbox",
        "_legal",
        "_line",
        "_listeners",
        "_log",
        "_port",
        "_states",
        "_view",
        "table",
        "viewer",
    )

    def __init__(
        self,
        line: _Line,
        port: str,
        inbox: queue.SimpleQueue[Message],
        viewer: Viewer,
        table: str,
    ) -> None:
        self._line = line
        self._port = port
        self._inbox = inbox
        #: The seat number, or ``None`` for a spectator.
        self.viewer = viewer
        self.table = table
        self._log: list[Envelope] = []
        self._view: GameState | None = None
        #: The view's states kept for undo: an undo costs no re-fold of the log.
        self._states: Timeline | None = None
        self._legal: LegalActions | None = None
        self._blocked: Refused | None = None
        self._listeners: list[Listener] = []
        self._request(Subscribe(-1))

    # -- what the viewer knows -----------------------------------------------------------------

    @property
    def seat(self) -> int | None:
        return self.viewer if isinstance(self.viewer, int) else None

    @property
    def view(self) -> GameState:
        """The game as this viewer sees it, up to the last event received."""
        self.pump()
        assert self._view is not None
        return self._view

    @property
    def config(self) -> GameConfig:
        """The game's configuration as this viewer sees it (no seed)."""
        return self.view.config

    @property
    def seq(self) -> int:
        """The number of the last event received (``-1``: none yet)."""
        self.pump()
        return self._log[-1].seq if self._log else -1

    def legal(self) -> LegalActions:
        """What this seat may do now: empty unless it is this seat's turn."""
        self.pump()
        view = self._view
        seat = self.viewer if isinstance(self.viewer, int) else 0
        if self._legal is None or view is None or view.is_over or view.current_seat != seat:
            return LegalActions(seat, (), False, False)
        return self._legal

    @property
    def blocked(self) -> Refused | None:
        """Why this seat, to move, has no legal actions (a variant's rule hook failed while
        the table worked them out), or ``None``."""
        self.pump()
        return self._blocked

    def events(self, after: int = -1) -> list[Envelope]:
        """The envelopes received so far with a ``seq`` after *after*."""
        self.pump()
        return [envelope for envelope in self._log if envelope.seq > after]

    # -- acting --------------------------------------------------------------------------------

    def submit(self, command: Command) -> Accepted | Refused:
        """Carry out *command* for this seat: ``Accepted`` (the events are in the stream
        already) or ``Refused`` with the reason, and nothing changed."""
        answer: Accepted | Refused = self._request(Submit(command))
        return answer

    def check(self, command: Command) -> Refused | None:
        """Why *command* would be refused now, or ``None`` if it would be accepted."""
        answer = self._request(Check(command))
        return answer if isinstance(answer, Refused) else None

    def undo(self) -> Accepted | Refused:
        """Take back this seat's last action (see :class:`Table` for when that is allowed)."""
        answer: Accepted | Refused = self._request(Undo())
        return answer

    def hint(
        self, bots: Sequence[str] = ("ismcts", "greedy"), seconds: float = 1.5
    ) -> Hinted | Refused:
        """What the first installed of *bots* would play in this seat's place (it sees only
        this seat's view)."""
        answer: Hinted | Refused = self._request(Hint(tuple(bots), seconds))
        return answer

    def undo_refusal(self) -> Refused | None:
        """Why :meth:`undo` would be refused now, or ``None`` if it would be allowed."""
        answer = self._request(Undo(check=True))
        return answer if isinstance(answer, Refused) else None

    # -- the stream ----------------------------------------------------------------------------

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call *listener(message)* with every envelope and prompt taken in from now on (by
        :meth:`pump`, on the caller's thread). Returns a function that stops it."""
        self._listeners.append(listener)

        def stop() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return stop

    def pump(self) -> list[Message]:
        """Take in every message waiting in the inbox; returns them."""
        taken: list[Message] = []
        while True:
            try:
                message = self._inbox.get_nowait()
            except queue.Empty:
                break
            self._take(message)
            taken.append(message)
        return taken

    def wait(self, timeout: float | None = None) -> list[Message]:
        """:meth:`pump`, waiting up to *timeout* seconds for at least one message."""
        try:
            first = self._inbox.get(timeout=timeout)
        except queue.Empty:
            return []
        self._take(first)
        return [first, *self.pump()]

    def _take(self, message: Message) -> None:
        if isinstance(message, Envelope):
            self._fold(message)
        elif isinstance(message, Prompt):
            self._legal, self._blocked = message.legal, None
        elif isinstance(message, Refused):
            self._legal, self._blocked = None, message
        for listener in list(self._listeners):
            listener(message)

    def _fold(self, envelope: Envelope) -> None:
        if self._log and envelope.seq != self._log[-1].seq + 1:
            return  # a repeat (a resubscription overlapping): already folded
        self._log.append(envelope)
        event = envelope.event
        if self._states is None:
            assert isinstance(event, GameStarted)
            self._states = Timeline(event)
            self._view = self._states.state
        else:
            self._view = self._states.append(event)
        self._legal = None if type(event) in (TurnEnded, GameEnded, Undone) else self._legal

    def send(self, message: Submit | Check | Undo | Hint) -> Future[Message]:
        """The table's answer to *message* as a future, without waiting for it: what
        :meth:`submit`, :meth:`check`, :meth:`undo` and :meth:`hint` wait for. An event loop
        awaits it (``await asyncio.wrap_future(handle.send(message))``) instead of holding a
        thread; call :meth:`pump` after it is answered to take in the turn's messages."""
        answer: Future[Message] = self._line.send("request", self._port, message)
        return answer

    def call_off(self) -> None:
        """Stop a hint the table is thinking on for this handle now: it is answered
        ``no_hint_bot`` at once (its asker left, say)."""
        self._line.call_off(self._port)

    def _request(self, message: Message) -> Any:
        answer = self._line.call("request", self._port, message)
        self.pump()
        return answer

    def __repr__(self) -> str:
        who = "spectator" if self.viewer is None else f"seat {self.viewer}"
        return f"<SeatHandle {who} at table {self.table}>"
