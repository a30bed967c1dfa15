"""The host's side of a table: :class:`Table`, the one service between a game and everyone
who plays, watches or records it.

A :class:`Table` owns a game, its log and its record, drives its bots and applies the table's
own rules (who may undo what, when the game is saved). Everyone at it gets a
:class:`~cinco.core.table.handle.SeatHandle`: a seat's or a spectator's projected state, legal
actions, ``submit``, and a sequenced stream of projected events. A handle holds no
:class:`~cinco.core.game.game.Game`, rule set, record writer or seed; it reaches the table only
through a request queue (:mod:`~cinco.core.table.channel`), because the game lives in the
table's own thread, with the :mod:`~cinco.core.table.referee`. The messages it exchanges are
the seat protocol (:mod:`cinco.core.table.protocol`), which networked play sends over a socket
unchanged.

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

import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

from cinco.core.engine.config import GameConfig
from cinco.core.engine.errors import CincoError
from cinco.core.engine.events import SPECTATOR, Event, Viewer
from cinco.core.game.game import Game
from cinco.core.records.record import load_record
from cinco.core.records.recording import RecordFile
from cinco.core.table.channel import TableChannel
from cinco.core.table.handle import SeatHandle
from cinco.core.table.log import whole_turns
from cinco.core.table.protocol import Accepted, Refused
from cinco.core.table.referee import (
    Referee,
    dealt_referee,
    rebuild,
    restored_referee,
    variant_header,
)
from cinco.core.table.requests import (
    OpenStream,
    PlayBotTurn,
    PlayFor,
    SaveAs,
    StandIn,
    Status,
    TableStatus,
)
from cinco.core.table.sink import EventSink
from cinco.core.words.i18n import _

if TYPE_CHECKING:
    from cinco.core.host.registry import Registry

__all__ = ["Table"]


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

    def __init__(
        self, channel: TableChannel, table_id: str, config: GameConfig, warnings: list[str]
    ):
        self._channel = channel
        #: The table's id (in every envelope).
        self.id = table_id
        #: The configuration as everyone may see it: no seed.
        self.config = config
        #: Things worth telling about a resumed record (a cut-off last turn, ...).
        self.warnings = warnings

    # -- creating -------------------------------------------------------------------------------

    @classmethod
    def _start(cls, setup: Callable[[], Referee], warnings: list[str]) -> Table:
        channel, ready = TableChannel.start(setup)
        return cls(channel, ready.table_id, ready.config, warnings)

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

        def setup() -> Referee:
            if sink is not None:
                referee, failed = dealt_referee(
                    config, registry=registry, table_id=table_id, sink=sink(), undo=undo
                )
                if failed is not None:  # the deal is not stored: there is no table
                    raise referee.failure or CincoError(failed.message)
                return referee
            game = Game.new(config, registry=registry, game_id=table_id)
            file = None
            if path is not None:
                file = RecordFile.create(
                    path,
                    list(game.store),
                    frontend=frontend,
                    table=table_id,
                    **variant_header(game),
                )
            referee = Referee(game, table_id, file, written=len(game.store), undo=undo)
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
        complete = whole_turns(loaded.events)
        if complete < len(loaded.events):
            warnings.append(_("The last turn in the record was not finished; it was left out."))
        events = loaded.events[:complete]
        header_id = loaded.header.get("table")
        table_id = header_id if isinstance(header_id, str) and header_id else secrets.token_hex(6)

        def setup() -> Referee:
            game, written = rebuild(events, registry, table_id)
            file = RecordFile.reopen(path, keep=written) if record else None
            referee = Referee(game, table_id, file, written=written, undo=undo)
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

        def setup() -> Referee:
            return restored_referee(
                events, registry=registry, table_id=table_id, sink=sink, undo=undo
            )

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
        stream, inbox = self._channel.call(OpenStream(viewer))
        return SeatHandle(self._channel, stream, inbox, viewer, self.id)

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(i for i, seat in enumerate(self.config.seats) if not seat.is_bot)

    # -- hosting ------------------------------------------------------------------------------

    def status(self) -> TableStatus:
        return self._channel.call(Status())

    def play_bot_turn(self) -> Accepted | Refused:
        """Let the bot to move play one turn (``Refused("no_bot_to_move")`` if none is)."""
        return self._channel.call(PlayBotTurn())

    def stand_in(self, seat: int, bot: str | None, *, reason: str = "away") -> Accepted | Refused:
        """Zombie mode: let *bot* (``NAME[:LEVEL]``) play the person's *seat* from now on
        (:meth:`play_bot_turn` moves for it, the seat is not prompted), or with ``None`` give
        the seat back. Everyone is told by a ``stand_in`` / ``stand_in_ended`` notice (with
        *reason*); the seat's handle keeps its stream. Raises ``CincoError`` for a bot that is
        not installed."""
        return self._channel.call(StandIn(seat, bot, reason))

    def play_for(self, seat: int, bot: str, *, reason: str = "timeout") -> Accepted | Refused:
        """Let *bot* play one turn for the person at *seat*, whose turn it is (their time ran
        out); a ``played_for`` notice tells everyone first. The bot sees only the seat's view."""
        return self._channel.call(PlayFor(seat, bot, reason))

    def start_bot_turn(self) -> Future[Accepted | Refused]:
        """:meth:`play_bot_turn` without waiting: the answer comes in the returned future, the
        events in every handle's stream (for frontends that keep drawing while a bot thinks)."""
        return self._channel.send(PlayBotTurn())

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
        return self._channel.call(SaveAs(Path(path)))

    def call_off(self) -> None:
        """Stop the hint the table is thinking on now, and any asked from now on (answered
        ``no_hint_bot`` at once): the table is about to close, and nobody should wait."""
        self._channel.call_off(closing=True)

    def close(self) -> None:
        """Write what is left, close the record and stop the table (a hint thinking now is
        called off first). Handles then get ``Refused("table_closed")``."""
        self._channel.close()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        config = self.config
        return f"<Table {self.id} {config.players}p {config.layout}>"
