"""The tables of one ``cinco serve`` process: :class:`TableService` holds each
:class:`~.hosted.HostedTable` and the store, answers the lobby (create, join, rejoin,
rematch, leave, the record), deals and restores games, passes each table's stream on to its
connections, and answers their requests. Its helpers keep the rest: the bots' turns
(:mod:`.bot_turns`), the turn timers (:mod:`.timers`) and zombie mode (:mod:`.stand_ins`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import secrets
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cinco.core.engine.config import Seat
from cinco.core.engine.errors import CincoError
from cinco.core.engine.events import SPECTATOR, GameEnded, GameStarted, Viewer, event_from_dict
from cinco.core.host.registry import default_registry
from cinco.core.records.record import dumps, header
from cinco.core.table.handle import SeatHandle
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
)
from cinco.core.table.sink import EventSink
from cinco.core.table.table import Table

from .bot_turns import BotTurns
from .connection import CLOSE_LEFT, CLOSE_REPLACED, Connection, Frames
from .hosted import GRACE, STAND_IN_BOT, HostedTable, LobbySeat
from .lobby import (
    Buckets,
    LobbyError,
    clean_name,
    free_name,
    join_fields,
    new_code,
    normal_code,
    table_options,
)
from .loop_tables import ThinkingPool, create_table, restore_table
from .seats import digest
from .settings import ServerSettings
from .stand_ins import StandIns, presences
from .storage import LobbyStore
from .store import CannotWrite, SeatRow, Store, TableRow
from .timers import TurnTimers

logger = logging.getLogger("cinco.server")

#: The longest a hint may think at a table of this server (seconds): a longer one asked for
#: (up to the protocol's MAX_HINT_SECONDS) thinks this long; the table answers nobody else
#: meanwhile.
HINT_SECONDS = 5.0
#: Threads for the bots and hints of the tables the event loop drives (:mod:`.loop_tables`):
#: that many think at once, the others wait their turn.
THINKERS = 8
#: The longest a stopping server waits for its tables to close (seconds): each stores what
#: it has at once, unless a bot holds its thread past its budget and its limit.
CLOSE_WAIT = 10.0


class TableService:
    """Every table of one server, and its store."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.db = Path(settings.db)
        self.registry = settings.registry or default_registry()
        self.store: LobbyStore | None = None
        self.tables: dict[str, HostedTable] = {}
        self.lobby = Buckets(settings.lobby_rate, settings.lobby_burst)
        self.bot_turns = BotTurns(flush=self.flush, delay=settings.bot_delay)
        self.timers = TurnTimers(
            now=settings.now,
            tick=settings.clock_tick,
            store=lambda: self.db_store,
            flush=self.flush,
            kick=self.bot_turns.kick,
        )
        self.stand_ins = StandIns(flush=self.flush, kick=self.bot_turns.kick)
        #: The threads where bots and hints think, for the tables the event loop drives.
        self.thinking = ThinkingPool(THINKERS)

    # -- starting and stopping ----------------------------------------------------------------

    async def start(self) -> None:
        if self.store is None:  # ``cinco serve`` opened it before listening (see serve)
            self.store = Store(self.db)
        for row in self.store.tables():
            hosted = self.hosted_from(row, self.store.seats(row.id))
            self.tables[hosted.id] = hosted
            if hosted.state == "playing":  # a finished table is read when someone comes
                await self.restore_or_break(hosted)

    async def restore_or_break(self, hosted: HostedTable) -> None:
        """Restore a game in play from its events; one that cannot be is ``broken``."""
        try:
            await self._restore(hosted)
        except Exception:
            logger.exception("table %s could not be restored", hosted.id)
            hosted.state = "broken"

    def call_off_hints(self) -> None:
        """Every table stops the hint it thinks on, and answers any asked later at once: the
        server is stopping."""
        for hosted in self.tables.values():
            if hosted.table is not None:
                hosted.table.call_off()

    async def stop(self) -> None:
        self.call_off_hints()
        tables: list[Table] = []
        for hosted in self.tables.values():
            if hosted.table is not None:
                tables.append(hosted.table)
            for connection in hosted.connections:
                connection.close(1001)
            for task in hosted.tasks():
                task.cancel()
            if hosted.state == "playing":
                self.timers.save(hosted)  # the clock that runs, as it is now
        await _close_all(tables)
        self.thinking.shutdown()
        if self.store is not None:
            self.store.close()

    def hosted_from(self, row: TableRow, seats: list[SeatRow]) -> HostedTable:
        return HostedTable(
            id=row.id,
            settings=row.settings,
            seats=[LobbySeat(s.name, s.bot, s.level, s.token_hash, s.held) for s in seats],
            invite_hash=row.invite_hash,
            watch_hash=row.watch_hash,
            owner_hash=row.owner_hash,
            state=row.state,
            rematch=row.rematch,
            rematch_of=row.settings.get("rematch_of"),
        )

    @property
    def db_store(self) -> LobbyStore:
        assert self.store is not None, "the service is not started"
        return self.store

    # -- the lobby ------------------------------------------------------------------------------

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        options = table_options(body, self.registry, grace=GRACE, stand_in=STAND_IN_BOT)
        settings = options.settings
        players, layout, variants = settings["players"], settings["layout"], settings["variants"]
        seats = [LobbySeat(name, bot, level) for name, bot, level in options.seats]
        try:  # check it all now, with placeholder names
            self.registry.configure(
                players,
                layout=layout,
                variants=variants,
                seats=[Seat(s.name or "?", bot=s.bot, level=s.level) for s in seats],
            )
        except CincoError as exc:
            raise LobbyError(400, "bad_table", str(exc)) from None
        table_id = secrets.token_hex(6)
        code, watch, owner = new_code(), new_code(), secrets.token_urlsafe(32)
        hashes = (digest(normal_code(code)), digest(normal_code(watch)), digest(owner))
        self.db_store.add_table(
            table_id, settings, hashes, [(s.name, s.bot, s.level) for s in seats]
        )
        hosted = HostedTable(table_id, settings, seats, *hashes)
        self.tables[table_id] = hosted
        return {
            "table": table_id,
            "code": code,
            "watch": watch,
            "owner": owner,
            "seats": hosted.summary()["seats"],
        }

    def find(self, code: str, which: str) -> HostedTable | None:
        hashed = digest(normal_code(code))
        for hosted in self.tables.values():
            stored = hosted.invite_hash if which == "invite" else hosted.watch_hash
            if hmac.compare_digest(stored, hashed):
                return hosted
        return None

    async def join(self, body: dict[str, Any]) -> dict[str, Any]:
        code, name, wanted = join_fields(body)
        hosted = self.find(code, "invite")
        if hosted is None:
            raise LobbyError(404, "no_such_code", "no table has that invite code")
        if wanted is not None and not 1 <= wanted <= len(hosted.seats):
            text = f"seat: there is no seat {wanted} (seats 1 to {len(hosted.seats)})"
            raise LobbyError(400, "bad_request", text, field="seat")
        chosen = clean_name(name) if name is not None and name.strip() else None
        async with hosted.lock:
            index = hosted.free_seat_for(wanted, chosen)
            seat = hosted.seats[index]
            token = secrets.token_urlsafe(32)  # 256 bits
            named = seat.name
            if hosted.table is None:  # before the game: the player names the seat
                others = [s.name for i, s in enumerate(hosted.seats) if i != index]
                named = chosen or free_name(f"Player {index + 1}", others)
            # Stored first: a store that cannot write (503) leaves the seat free here too.
            self.db_store.set_seat(hosted.id, index, named, digest(token))
            seat.name, seat.token_hash = named, digest(token)
            if hosted.table is None and hosted.full:
                await self.deal(hosted)
        return {"table": hosted.id, "seat": index, "token": token, "name": seat.name}

    async def rejoin(self, hosted: HostedTable, token: str) -> dict[str, Any]:
        """Come back to one's seat with its token (after the client restarted, say): the
        token rotates (the old one is revoked, its connection closed)."""
        async with hosted.lock:
            index = hosted.seat_of(token)
            if index is None:
                raise LobbyError(403, "bad_token", "that is not a seat token of this table")
            seat = hosted.seats[index]
            fresh = secrets.token_urlsafe(32)
            seat.token_hash = digest(fresh)
            self.db_store.set_seat(hosted.id, index, seat.name, seat.token_hash)
            for connection in hosted.connections:
                if connection.viewer == index:
                    connection.close(CLOSE_REPLACED)
        return {"table": hosted.id, "seat": index, "token": fresh, "name": seat.name}

    async def rematch(self, hosted: HostedTable, token: str) -> dict[str, Any]:
        """A new table at *hosted*'s settings with the same people and bots, once its game is
        over: each person's seat is held for them (their old token claims it, and gets a new
        one). Asked with a seat token: that seat is claimed at once; with the owner token:
        none is. The first ask makes the table, the others find it."""
        async with hosted.lock:
            index = hosted.seat_of(token)
            owner = hmac.compare_digest(digest(token), hosted.owner_hash)
            if index is None and not owner:
                raise LobbyError(403, "bad_token", "send a seat token of this table or its owner's")
            if hosted.state != "over":
                raise LobbyError(409, "not_over", "a rematch is made once the game is over")
            if hosted.rematch is None:
                self._new_rematch(hosted)
        assert hosted.rematch is not None
        new = self.tables[hosted.rematch]
        answer: dict[str, Any] = {"table": new.id, "rematch_of": hosted.id}
        async with new.lock:
            answer.update(new.codes)  # the rematch's invite and watch codes, for its people
            if index is not None:
                answer.update(self._claim_held_seat(new, index, token))
            if new.table is None and new.full:  # every seat claimed, or bots only
                await self._begin(new)
        return answer

    def _claim_held_seat(self, new: HostedTable, index: int, token: str) -> dict[str, Any]:
        """The rematch's seat *index*, held for the person whose old *token* this is, theirs
        with a new token (holding the rematch's lock)."""
        seat = new.seats[index]
        if seat.held is None or not hmac.compare_digest(seat.held, digest(token)):
            raise LobbyError(409, "seat_taken", "that seat of the rematch is taken")
        fresh = secrets.token_urlsafe(32)
        seat.held, seat.token_hash = None, digest(fresh)
        self.db_store.set_seat(new.id, index, seat.name, seat.token_hash, held=None)
        return {"seat": index, "token": fresh, "name": seat.name}

    def _new_rematch(self, hosted: HostedTable) -> None:
        """Make *hosted*'s rematch table (holding its lock)."""
        seats = [
            LobbySeat(s.name, s.bot, s.level, None, None if s.bot else s.token_hash)
            for s in hosted.seats
        ]
        settings = {**hosted.settings, "rematch_of": hosted.id}
        table_id = secrets.token_hex(6)
        code, watch = new_code(), new_code()
        hashes = (digest(normal_code(code)), digest(normal_code(watch)), hosted.owner_hash)
        # The codes are shown to whoever asks for the rematch (they had the first table's),
        # from memory: the store keeps only their hashes. The owner token stays the same.
        self.db_store.add_table(
            table_id,
            settings,
            hashes,
            [(s.name, s.bot, s.level) for s in seats],
            held=[s.held for s in seats],
        )
        new = HostedTable(table_id, settings, seats, *hashes, rematch_of=hosted.id)
        new.codes = {"code": code, "watch": watch}
        self.tables[table_id] = new
        hosted.rematch = table_id
        self.db_store.set_rematch(hosted.id, table_id)

    async def leave(self, hosted: HostedTable, token: str) -> int:
        leaving = hosted.seat_of(token)
        handle = hosted.handles.get(leaving) if leaving is not None else None
        if handle is not None:
            handle.call_off()  # a hint this seat asked for holds the table's lock: end it
        async with hosted.lock:
            index = hosted.seat_of(token)
            if index is None:
                raise LobbyError(403, "bad_token", "that is not a seat token of this table")
            seat = hosted.seats[index]
            seat.token_hash = None
            if hosted.table is None:
                seat.name = None
            self.db_store.set_seat(hosted.id, index, seat.name, None)
            for connection in hosted.connections:
                if connection.viewer == index:
                    connection.close(CLOSE_LEFT)
            self.stand_ins.absent(hosted, index)
        return index

    def record(self, hosted: HostedTable, token: str | None) -> str:
        owner = token is not None and hmac.compare_digest(digest(token), hosted.owner_hash)
        if hosted.state != "over" and not owner:
            raise LobbyError(403, "not_over", "the record is given once the game is over")
        decoded = [event_from_dict(data) for data in self.db_store.events(hosted.id)]
        # The plugins the game needs, named in the header as every writer names them.
        needs = (
            self.registry.record_sources(decoded[0].config)
            if decoded and isinstance(decoded[0], GameStarted)
            else {}
        )
        lines = [json.dumps(header(frontend="server", table=hosted.id, **needs))]
        lines += [dumps(event) for event in decoded]
        return "\n".join(lines) + "\n"

    # -- the game -----------------------------------------------------------------------------

    def _sink(self, hosted: HostedTable) -> Callable[[], EventSink]:
        return lambda: self.db_store.sink(hosted.id)

    async def _begin(self, hosted: HostedTable) -> None:
        """Every person's seat is taken: deal (called holding the table's lock)."""
        settings = hosted.settings
        seats = [
            Seat(s.name or f"Player {i + 1}", bot=s.bot, level=s.level)
            for i, s in enumerate(hosted.seats)
        ]
        config = self.registry.configure(
            settings["players"],
            layout=settings.get("layout"),
            variants=settings.get("variants", []),
            seats=seats,
        )
        undo = bool(settings.get("undo", True))
        store = self.store
        if isinstance(store, Store):  # SQLite: the event loop drives the table
            hosted.table, hosted.channel = await asyncio.to_thread(
                create_table,
                config,
                registry=self.registry,
                sink=lambda: store.sink(hosted.id, staged=True),
                table_id=hosted.id,
                undo=undo,
                loop=asyncio.get_running_loop(),
                pool=self.thinking,
            )
        else:
            hosted.table = await asyncio.to_thread(
                Table.create,
                config,
                registry=self.registry,
                sink=self._sink(hosted),
                table_id=hosted.id,
                undo=undo,
            )
        hosted.state = "playing"
        self.db_store.set_state(hosted.id, "playing")
        await self._seat_handles(hosted)
        self.timers.start(hosted)
        for connection in hosted.connections:
            self._catch_up(hosted, connection)
        self.flush(hosted)
        self.stand_ins.watch_seats(hosted)
        self.bot_turns.kick(hosted)

    async def _restore(self, hosted: HostedTable) -> None:
        events = [event_from_dict(data) for data in self.db_store.events(hosted.id)]
        undo = bool(hosted.settings.get("undo", True))
        store = self.store
        if isinstance(store, Store):  # SQLite: the event loop drives the table
            hosted.table, hosted.channel = await asyncio.to_thread(
                restore_table,
                events,
                lambda keep: store.sink(hosted.id, keep, staged=True),
                table_id=hosted.id,
                registry=self.registry,
                undo=undo,
                loop=asyncio.get_running_loop(),
                pool=self.thinking,
            )
        else:
            hosted.table = await asyncio.to_thread(
                Table.restore,
                events,
                lambda keep: self.db_store.sink(hosted.id, keep),
                table_id=hosted.id,
                registry=self.registry,
                undo=undo,
            )
        hosted.generation = 0
        table = hosted.table
        assert table is not None
        await self._seat_handles(hosted)
        status = await asyncio.to_thread(table.status)
        hosted.stand_ins = {seat for seat, _bot in status.stand_ins}
        if status.is_over and hosted.state != "over":
            hosted.state = "over"
            self.db_store.set_state(hosted.id, "over")
        if not status.is_over:
            self.timers.start(hosted)
            self.timers.resume(hosted)
            self.timers.sync(hosted)
            self.stand_ins.watch_seats(hosted)
        self.bot_turns.kick(hosted)

    async def _seat_handles(self, hosted: HostedTable) -> None:
        table = hosted.table
        assert table is not None
        viewers: list[int | None] = [*table.humans, SPECTATOR]
        for viewer in viewers:
            handle = await asyncio.to_thread(_handle_for, table, viewer)
            pending: list[Message] = []
            hosted.pending[viewer] = pending
            handle.listen(pending.append)
            hosted.handles[viewer] = handle

    def _catch_up(self, hosted: HostedTable, connection: Connection) -> None:
        """Send *connection* what its viewer's handle has after the connection's last event,
        and the prompt if it is this seat's turn."""
        handle = hosted.handles.get(connection.viewer)
        if handle is None:
            return
        for envelope in handle.events(connection.cursor.sent):
            connection.deliver(envelope)
        legal = handle.legal()
        seat = connection.viewer
        if (
            isinstance(seat, int)
            and seat not in hosted.stand_ins
            and (legal.plays or legal.can_draw or legal.can_exchange or legal.acts)
        ):
            connection.deliver(Prompt(hosted.id, handle.seq, legal))
        clock = self.timers.message(hosted)
        if clock is not None:
            connection.deliver(clock)
        for message in presences(hosted, connection.viewer):
            connection.deliver(message)

    def _reopen_handles(self, hosted: HostedTable) -> None:
        """The table was rebuilt from the store (a write failed: :mod:`.loop_tables`): new
        handles, from the stored log; what the old ones took in of the failed turn is dropped
        (nobody was sent it). The connections skip what they had already."""
        channel, table = hosted.channel, hosted.table
        assert channel is not None and table is not None
        hosted.generation = channel.generation
        hosted.handles.clear()
        hosted.pending.clear()
        for viewer in [*table.humans, SPECTATOR]:
            pending: list[Message] = []
            hosted.pending[viewer] = pending
            handle = _handle_for(table, viewer)  # carried out in the event loop: no wait
            handle.listen(pending.append)
            hosted.handles[viewer] = handle

    def flush(self, hosted: HostedTable) -> None:
        """Pass on what the handles took in since the last flush (holding the table's lock)."""
        if hosted.channel is not None and hosted.channel.generation != hosted.generation:
            self._reopen_handles(hosted)
        ended = False
        frames = Frames()  # an event every viewer sees alike is encoded once
        for viewer, pending in hosted.pending.items():
            hosted.handles[viewer].pump()
            messages = pending[:]
            pending.clear()
            ended = _pass_on(hosted, viewer, messages, frames) or ended
        if ended and hosted.state != "over":
            hosted.state = "over"
            self.db_store.set_state(hosted.id, "over")
        self.timers.sync(hosted)
        if ended and hosted.table is not None:
            # The handles keep the whole stream for late viewers; the table's thread and
            # its database connection are not needed any more.
            asyncio.get_running_loop().create_task(self._close_table(hosted))

    async def _close_table(self, hosted: HostedTable) -> None:
        async with hosted.lock:
            table, hosted.table, hosted.channel = hosted.table, None, None
            if table is not None:
                await asyncio.to_thread(table.close)

    async def deal(self, hosted: HostedTable) -> None:
        """:meth:`_begin`, unless the store cannot write the deal: the seats stay taken, and
        the next connection to the table deals (:meth:`ensure_stream`)."""
        try:
            await self._begin(hosted)
        except CannotWrite as exc:
            logger.error("table %s: the deal could not be stored, it waits: %s", hosted.id, exc)

    async def ensure_stream(self, hosted: HostedTable) -> None:
        """A finished table's handles, rebuilt from the store (after a restart); a full
        table whose deal could not be stored, dealt."""
        async with hosted.lock:
            if hosted.state == "waiting" and hosted.full and hosted.table is None:
                await self.deal(hosted)
                return
            if hosted.state != "over" or hosted.handles:
                return
            await self._restore(hosted)
        await self._close_table(hosted)

    # -- a connection's requests --------------------------------------------------------------

    async def request(
        self, hosted: HostedTable, connection: Connection, message: Message
    ) -> Message:
        async with hosted.lock:
            if isinstance(message, Subscribe):
                connection.subscribed = True
                connection.cursor.resume(message.after)
                self._catch_up(hosted, connection)
                handle = hosted.handles.get(connection.viewer)
                return Accepted(handle.seq if handle is not None else -1)
            handle = hosted.handles.get(connection.viewer)
            if connection.viewer is None:
                return Refused("not_seated")
            if hosted.state == "over":
                return Refused("game_over")
            if hosted.table is None or handle is None:
                return Refused("not_started")
            answer = await _answer(handle, message)
            self.flush(hosted)
        self.bot_turns.kick(hosted)
        return answer

    async def connect(
        self, hosted: HostedTable, connection: Connection, token: str | None = None
    ) -> bool:
        """Bind *connection* to its seat (or as a spectator). A seat's *token* is checked
        again here, holding the table's lock that leave and rejoin take to revoke one: a
        token revoked while the handshake waited is refused (``False``), not bound."""
        async with hosted.lock:
            if isinstance(connection.viewer, int) and (
                token is None or hosted.seat_of(token) != connection.viewer
            ):
                return False
            for other in hosted.connections:
                if connection.viewer is not None and other.viewer == connection.viewer:
                    other.close(CLOSE_REPLACED)  # one connection per seat: the newest
            hosted.connections.append(connection)
            if isinstance(connection.viewer, int):
                await self.stand_ins.back(hosted, connection.viewer)
        return True

    async def disconnect(self, hosted: HostedTable, connection: Connection) -> None:
        connection.close()
        async with hosted.lock:
            if connection in hosted.connections:
                hosted.connections.remove(connection)
            if isinstance(connection.viewer, int):
                self.stand_ins.absent(hosted, connection.viewer)


async def _answer(handle: SeatHandle, message: Message) -> Message:
    """The table's answer to a seat's request (holding the table's lock)."""
    if isinstance(message, Hint):
        message = Hint(message.bots, min(message.seconds, HINT_SECONDS))
    if not isinstance(message, Submit | Check | Undo | Hint):
        return Refused("malformed_command", (("problem", message.type),))
    # Straight to the table (carried out in the event loop, or in the table's thread) and
    # back: no worker thread in between; an answer that is there already is not awaited.
    try:
        future = handle.send(message)
        answer: Message = future.result() if future.done() else await asyncio.wrap_future(future)
    except asyncio.CancelledError:  # the server stops: a hint must not hold it
        handle.call_off()
        raise
    if isinstance(message, Check) or (isinstance(message, Undo) and message.check):
        answer = answer if isinstance(answer, Refused) else Accepted(-1)
    return answer


def _pass_on(hosted: HostedTable, viewer: Viewer, messages: list[Message], frames: Frames) -> bool:
    """Deliver *messages* of *viewer*'s handle to its connections; whether the game ended."""
    ended = False
    connections = [c for c in hosted.connections if c.viewer == viewer]
    for message in messages:
        if isinstance(message, Envelope) and isinstance(message.event, GameEnded):
            ended = True
        for connection in connections:
            connection.deliver(message, frames)
    return ended


async def _close_all(tables: list[Table]) -> None:
    """Close *tables* side by side, so that a bot thinking at one table (its own budget
    bounds it) holds up no other; at most CLOSE_WAIT seconds."""
    closing = [_in_daemon_thread(table.close) for table in tables]
    try:
        results = await asyncio.wait_for(
            asyncio.gather(*closing, return_exceptions=True), CLOSE_WAIT
        )
    except TimeoutError:
        # A bot that ignores its budget and its limit: what was accepted is stored (a turn
        # is stored before it is answered), so the server stops without that table.
        logger.error("some tables did not close in %.0f s; stopping without them", CLOSE_WAIT)
        results = []
    for table, result in zip(tables, results, strict=False):
        if isinstance(result, BaseException):  # the others and the store close all the same
            logger.error("table %s did not close: %r", table.id, result)


async def _in_daemon_thread(function: Callable[[], object]) -> None:
    """Run *function* in a thread of its own, which does not keep the process alive: unlike
    ``asyncio.to_thread``, whose threads the event loop waits for when it ends, however long."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def settle(error: BaseException | None) -> None:
        if done.done():
            return
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)

    def run() -> None:
        error: BaseException | None = None
        try:
            function()
        except BaseException as exc:  # passed on to the awaiting task
            error = exc
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits any more
            loop.call_soon_threadsafe(settle, error)

    threading.Thread(target=run, name="cinco-closing", daemon=True).start()
    await done


def _handle_for(table: Table, viewer: int | None) -> SeatHandle:
    return table.spectator() if viewer is None else table.seat(viewer)
