"""The table's side: the :class:`Referee`, the one object that may see the whole game, in the
table's own thread. It answers the viewers' requests, stores every change (a record file or
an :class:`~cinco.core.table.sink.EventSink`) before anyone hears of it, then sends each
viewer its projected stream and its prompt. Zombie mode and hints are in
:mod:`~cinco.core.table.seat_bots`, the undo policy in :mod:`~cinco.core.table.undo`."""

from __future__ import annotations

import contextlib
import queue
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cinco.core.engine.commands import Command
from cinco.core.engine.errors import CincoError, IllegalCommand
from cinco.core.engine.events import Event, GameStarted, Viewer
from cinco.core.engine.rules import decide
from cinco.core.game.game import Game
from cinco.core.records.recording import RecordFile
from cinco.core.table.channel import RunningHints, ViewerStream
from cinco.core.table.log import stand_ins, whole_turns
from cinco.core.table.protocol import (
    Accepted,
    Check,
    Envelope,
    Hint,
    Message,
    Prompt,
    Refused,
    Submit,
    Subscribe,
    Undo,
    printable,
)
from cinco.core.table.requests import TableStatus
from cinco.core.table.seat_bots import hint, move_for
from cinco.core.table.sink import EventSink
from cinco.core.table.undo import undo
from cinco.core.words.messages import freeze

if TYPE_CHECKING:
    from cinco.core.engine.config import GameConfig
    from cinco.core.host.registry import Registry

__all__ = ["Referee", "rebuild", "variant_header"]


class Referee:
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
        #: Each handle's stream, by its id.
        self.streams: dict[str, ViewerStream] = {}
        self.open = True
        #: People's seats a bot plays for (zombie mode): seat → bot spec, from the log.
        self.stand_ins: dict[int, str] = stand_ins(game.store)
        self.stand_in_bots: dict[tuple[int, str], Any] = {}
        #: The hint thinking now, which another thread may call off (set by
        #: :func:`~cinco.core.table.channel.serve_table`).
        self.hints = RunningHints()

    # -- a viewer's requests -------------------------------------------------------------------

    def open_stream(self, viewer: Viewer) -> tuple[str, queue.SimpleQueue[Message]]:
        """A new stream for *viewer*'s handle: its id, and its inbox."""
        stream_id = secrets.token_hex(16)
        self.streams[stream_id] = ViewerStream(viewer, queue.SimpleQueue())
        return stream_id, self.streams[stream_id].inbox

    def stream_id(self, stream: ViewerStream) -> str | None:
        """The id *stream* is known by (``None``: it is not this table's)."""
        return next((key for key, value in self.streams.items() if value is stream), None)

    def answer(self, stream: ViewerStream, message: Message) -> Message:
        """The answer to a viewer's seat-protocol *message*, from its *stream*."""
        if isinstance(message, Subscribe):
            stream.streaming = True
            stream.cursor.resume(message.after)
            self.deliver()
            return Accepted(len(self.game.store) - 1)
        if isinstance(message, Submit | Check):
            refusal = self._seat_refusal(stream, message.command)
            if refusal is not None:
                return refusal
            if isinstance(message, Check):
                return self.check(message.command)
            return self.submit(message.command)
        if isinstance(message, Undo):
            return undo(self, stream, check=message.check)
        if isinstance(message, Hint):
            return hint(self, stream, message)
        raise CincoError(f"not a request: {message!r}")

    def _seat_refusal(self, stream: ViewerStream, command: Command) -> Refused | None:
        if not isinstance(stream.viewer, int):
            return Refused("not_seated")
        if not isinstance(command, Command):
            return Refused("malformed_command", freeze({"problem": type(command).__name__}))
        if command.seat != stream.viewer:
            return Refused(
                "wrong_seat", freeze({"seat": stream.viewer, "other": printable(command.seat)})
            )
        if self.problem is not None:
            return self.problem
        return None

    def check(self, command: Command) -> Refused | Accepted:
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

    # -- the host's requests -------------------------------------------------------------------

    def play_bot_turn(self) -> Refused | Accepted:
        state = self.game.state
        if self.problem is not None:
            return self.problem
        if not state.is_over and state.current_seat in self.stand_ins:
            return move_for(self, state.current_seat, self.stand_ins[state.current_seat])
        if state.is_over or not self.game.config.seats[state.current_seat].is_bot:
            return Refused("no_bot_to_move")
        try:
            self.game.play_bot_turn()
        except IllegalCommand as exc:  # the rules refused even the random fallback (a plugin)
            return Refused.of(exc)
        finally:
            self.settle()
        return self.answered()

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
        if self.record is None or self.problem is not None:
            return None
        try:
            self._store(self.record)
        except OSError as exc:
            self.failure = exc
            error = freeze({"error": self.game.scrub(str(exc))})
            if not isinstance(self.record, RecordFile) and self._take_back():
                return Refused("record_failed", error)  # nothing happened; try again later
            # Stop rather than play on unrecorded: the events stay here, for save_as.
            self.problem = Refused("record_stopped", error)
            return self.problem
        return None

    def _store(self, record: RecordFile | EventSink) -> None:
        """Write the events not yet written to *record* (raises ``OSError``)."""
        store = self.game.store
        if isinstance(record, RecordFile):
            while self.written < len(store):  # a line is written when appended
                record.append(store[self.written])
                self.written += 1
        else:  # a sink's batch counts only once committed: stored before anyone hears
            batch = self.written
            while batch < len(store):
                record.append(store[batch])
                batch += 1
            record.commit()
            self.written = batch
        if self.game.is_over:
            record.sync()

    def restarted(self, stored: int, sink: EventSink) -> Referee:
        """A new referee for this table's first *stored* events, going on into *sink*: what
        a sink that commits in groups does when a write failed (the turn never happened).
        Its hints, failure and frontend are carried over by the caller."""
        kept = list(self.game.store)[:stored]
        game, written = rebuild(kept, self.game.registry, self.table_id)
        return Referee(game, self.table_id, sink, written=written, undo=self.undo_allowed)

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
        game, written = rebuild(kept, self.game.registry, self.table_id)
        if written != self.written or len(game.store) != written:
            return False
        self.game = game
        self.stand_ins = stand_ins(game.store)
        self.stand_in_bots.clear()  # they saw views of the turn taken back
        return True

    def deliver(self) -> None:
        """Send every subscribed viewer the stored events it has not had, each as it may see
        it, then its prompt if it is the person to move (once per event: the cursor's rule,
        :mod:`~cinco.core.engine.projection`)."""
        store = self.game.store
        # What is recorded, and no more: a turn whose record failed is nobody's news.
        known = len(store) if self.record is None else self.written
        last = known - 1
        to_move = self._person_to_prompt()
        for stream in self.streams.values():
            if not stream.streaming:
                continue
            cursor = stream.cursor
            while cursor.next < known:
                seq = cursor.next
                event = store[seq].seen_by(stream.viewer)
                stream.inbox.put(Envelope(self.table_id, seq, event))
                cursor.envelope_due(seq)
            if to_move is not None and stream.viewer == to_move and cursor.prompt_due(last):
                stream.inbox.put(self._prompt(to_move, last))

    def _person_to_prompt(self) -> int | None:
        """The seat to prompt now: only a person (no bot, no stand-in) is prompted, and
        nobody while the game is over or stopped."""
        state = self.game.state
        to_move = None if state.is_over else state.current_seat
        if to_move is not None and (
            self.game.config.seats[to_move].is_bot or to_move in self.stand_ins or self.problem
        ):
            return None
        return to_move

    def _prompt(self, seat: int, last: int) -> Prompt | Refused:
        """The seat's legal actions, or why there are none: a variant's rule hook that fails
        while they are worked out refuses like it does a command, and the game is unchanged."""
        try:
            return Prompt(self.table_id, last, self.game.legal_actions(seat))
        except IllegalCommand as exc:
            return Refused.of(exc)


def variant_header(game: Game) -> dict[str, Any]:
    """The record header's ``variants`` field: where each of the game's variants comes from,
    so that a reader without one can say what to install (none for built-ins)."""
    return game.registry.record_sources(game.config)  # variants and layouts


def dealt_referee(
    config: GameConfig,
    *,
    registry: Registry | None,
    table_id: str,
    sink: EventSink,
    undo: bool,
) -> tuple[Referee, Refused | None]:
    """A referee for a new game of *config*, its deal handed to *sink*, and the refusal that
    storing it gave (``None``: stored, or staged for a sink that commits in groups)."""
    game = Game.new(config, registry=registry, game_id=table_id)
    referee = Referee(game, table_id, sink, written=0, undo=undo)
    return referee, referee.persist()


def restored_referee(
    events: Sequence[Event],
    *,
    registry: Registry | None,
    table_id: str,
    sink: Callable[[int], EventSink],
    undo: bool,
) -> Referee:
    """A referee going on from a stored log (a turn cut short is played again);
    ``sink(keep)`` opens the store to go on after its first *keep* events."""
    stored = list(events)
    game, written = rebuild(stored[: whole_turns(stored)], registry, table_id)
    referee = Referee(game, table_id, sink(written), written=written, undo=undo)
    referee.persist()
    return referee


def rebuild(events: Sequence[Event], registry: Registry | None, table_id: str) -> tuple[Game, int]:
    """The game of a stored log cut to its whole turns
    (:func:`~cinco.core.table.log.whole_turns`), and how many of the stored events it keeps.
    A log cut off inside the deal keeps its first event and deals again (from the seed: the
    same cards)."""
    if len(events) == 1 and isinstance(events[0], GameStarted):
        game = Game.new(events[0].config, registry=registry, keep_params=True, game_id=table_id)
        return game, 1
    game = Game.from_events(events, registry=registry, game_id=table_id)
    return game, len(game.store)
