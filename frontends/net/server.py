"""``cinco serve``: one process holding many tables, as an ASGI app (Starlette).

Each table is a :class:`cinco.core.table.table.Table` whose events go to the SQLite store
(:mod:`cinco.frontends.net.store`) before anyone is sent them. The server holds one seat handle
per person's seat and one spectator's handle per table; every WebSocket gets its viewer's
handle's stream, as the seat protocol's JSON (:mod:`cinco.core.table.protocol`), nothing else.

HTTP (the lobby), all JSON:

* ``GET /api/tables``: the tables that have a free seat (no codes);
* ``POST /api/tables``: create one: ``{"players": 2, "layout": null, "variants": [],
  "bots": {"2": "greedy:hard"}, "undo": true}`` (seats numbered from 1) →
  ``{"table", "code", "watch", "owner", "seats"}``;
* ``POST /api/join``: ``{"code": INVITE, "name": "Ann"}`` → ``{"table", "seat", "token"}``;
* ``POST /api/tables/{id}/leave`` (``Authorization: Bearer SEAT_TOKEN``): the token is revoked
  and the seat is free again (a stand-in bot plays it after the table's grace);
* ``POST /api/tables/{id}/rejoin`` (``Authorization: Bearer SEAT_TOKEN``): the seat back, with
  a new token;
* ``POST /api/tables/{id}/rematch`` (a seat token of the finished table, or its owner token):
  the rematch's table, each person's seat held for them;
* ``GET /api/tables/{id}/record``: the referee's record (JSON Lines), once the game is over, or
  before for ``Authorization: Bearer OWNER_TOKEN``.

WebSockets: ``/ws/tables/{id}`` with ``Authorization: Bearer SEAT_TOKEN`` plays that seat;
``/ws/watch`` with ``Authorization: Bearer WATCH_CODE`` watches.

Zombie mode: a person with no connection (left, dropped, never came) for the table's ``grace``
seconds has the table's ``stand_in`` bot play for them (:meth:`Table.stand_in`) until they
connect again. Turn timers (the table's ``timer``): :class:`~.clock.Clocks` on the hub's
monotonic time; a person out of time has the stand-in play that turn (:meth:`Table.play_for`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import json
import logging
import secrets
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from cinco.core.engine.config import Seat
from cinco.core.engine.errors import CincoError, EventError
from cinco.core.engine.events import SPECTATOR, GameEnded, Viewer, event_from_dict
from cinco.core.host.registry import Registry, default_registry
from cinco.core.records.record import dumps, header
from cinco.core.table.protocol import (
    Accepted,
    Check,
    Clock,
    Envelope,
    Hint,
    Message,
    Prompt,
    Refused,
    Submit,
    Subscribe,
    Undo,
    request_from_json,
)
from cinco.core.table.table import EventSink, SeatHandle, Table

from .clock import Clocks, TimeControl
from .lobby import (
    ErrorResponse,
    LobbyError,
    clean_name,
    normal_code,
    parse_body,
    read_body,
    same_name,
    table_options,
)
from .storage import LobbyStore, is_database_url, open_store
from .store import CannotWrite, HeldElsewhere, SeatRow, Store, TableRow, digest

logger = logging.getLogger("cinco.server")

#: A lobby endpoint of the HTTP API.
Handler = Callable[[Request], Awaitable[Response]]

#: The largest message a client may send (bytes of JSON); a bigger one closes the connection.
MAX_MESSAGE = 16 * 1024
#: Frames waiting for one client; a client that lets more pile up is dropped (it reconnects
#: and resumes with ``after=SEQ``): a slow client never holds up the table.
QUEUE_LIMIT = 1024
#: Requests per second a connection may send (a token bucket of RATE_BURST).
RATE = 10.0
RATE_BURST = 30.0
#: Lobby requests (HTTP) per second one client address may make (a token bucket of
#: LOBBY_BURST); more get ``429`` with ``Retry-After``.
LOBBY_RATE = 5.0
LOBBY_BURST = 40.0
#: Seconds a person may be away (their connection dropped, or they left) before a bot plays
#: for them (zombie mode), unless the table sets its own ``grace``.
GRACE = 60.0
#: The bot that plays for a person who is away or out of time, unless the table says.
STAND_IN_BOT = "greedy"
#: The longest a hint may think at a table of this server (seconds): a longer one asked for
#: (up to the protocol's MAX_HINT_SECONDS) thinks this long; the table answers nobody else
#: meanwhile.
HINT_SECONDS = 5.0
#: The longest a stopping server waits for its tables to close (seconds): each stores what
#: it has at once, unless a bot holds its thread past its budget and its limit.
CLOSE_WAIT = 10.0
#: The longest a table's timer task sleeps between two looks at its clocks (seconds).
CLOCK_TICK = 1.0
#: The alphabet of invite and watch codes: no 0/O, 1/I/L.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

#: WebSocket close codes (4000-4999 are the application's).
CLOSE_TOO_SLOW = 4008
CLOSE_REPLACED = 4009
CLOSE_LEFT = 4010
CLOSE_TOO_MANY = 4029
CLOSE_TOO_BIG = 1009


#: Seconds before a bot's turn the store refused is tried again (growing to the second).
STORE_RETRY, STORE_RETRY_MAX = 0.5, 10.0


def new_code() -> str:
    """An invite or watch code people can read out: 12 letters (about 60 bits)."""
    letters = "".join(secrets.choice(CODE_ALPHABET) for _ in range(12))
    return "-".join(letters[i : i + 4] for i in range(0, 12, 4))


def bearer(headers: Any) -> str | None:
    value = headers.get("authorization")
    if not isinstance(value, str):
        return None
    scheme, _sep, credential = value.partition(" ")
    if scheme.lower() != "bearer" or not credential.strip():
        return None
    return credential.strip()


def frame(message: Message) -> str:
    return json.dumps(message.to_dict(), separators=(",", ":"))


class Buckets:
    """A token bucket per client address: *rate* requests a second, bursts of *burst*. Full
    buckets are forgotten, so that the table of addresses stays small."""

    def __init__(
        self, rate: float, burst: float, *, now: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.now = rate, burst, now
        self.buckets: dict[str, tuple[float, float]] = {}

    def take(self, address: str) -> float:
        """Take a token for *address*: 0 if it may go on, else the seconds to wait (a rate of
        0: no limit)."""
        if self.rate <= 0:
            return 0.0
        now = self.now()
        tokens, stamp = self.buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - stamp) * self.rate)
        if tokens < 1:
            self.buckets[address] = (tokens, now)
            return (1 - tokens) / self.rate
        self.buckets[address] = (tokens - 1, now)
        if len(self.buckets) > 10_000:  # forget the addresses whose buckets are full again
            self.buckets = {
                key: (left, at)
                for key, (left, at) in self.buckets.items()
                if left + (now - at) * self.rate < self.burst
            }
        return 0.0


# -- one client's connection -------------------------------------------------------------------


class Client:
    """One WebSocket: a viewer (a seat number, or ``None`` for a spectator), a bounded queue of
    frames and the task that sends them."""

    def __init__(
        self, websocket: WebSocket, viewer: Viewer, *, rate: float = RATE, burst: float = RATE_BURST
    ) -> None:
        self.websocket = websocket
        self.rate, self.burst = rate, burst
        self.viewer = viewer
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_LIMIT)
        #: The last event number sent (the client subscribed after it).
        self.sent = -1
        self.subscribed = False
        self.prompted = -2
        self.closed = False
        self.close_code = 1000
        self.tokens = burst
        self.stamp = time.monotonic()

    def deliver(self, message: Message) -> None:
        """Queue *message* for the client (an event it has had already is skipped)."""
        if self.closed or not self.subscribed:
            return
        if isinstance(message, Envelope):
            if message.seq <= self.sent:
                return
            self.sent = message.seq
        elif isinstance(message, Prompt):
            if message.seq <= self.prompted or message.seq < self.sent:
                return
            self.prompted = message.seq
        self.push(frame(message))

    def push(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            logger.info("dropping a slow client (viewer %r)", self.viewer)
            self.close(CLOSE_TOO_SLOW)

    def close(self, code: int = 1000) -> None:
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)
        if self.queue.full():  # make room for the end mark: the client is gone anyway
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    def allow(self) -> bool:
        """The rate limit: one token per request, RATE tokens a second."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def send_loop(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self.websocket.send_text(text)
            await self.websocket.close(self.close_code)
        except Exception:  # the client went away: nothing more to send
            self.closed = True


# -- one table ----------------------------------------------------------------------------------


@dataclass
class SeatInfo:
    name: str | None
    bot: str | None
    level: str | None
    token_hash: str | None = None
    #: A rematch's seat kept for the person who had it: the hash of their old table's token.
    held: str | None = None

    @property
    def free(self) -> bool:
        return self.bot is None and self.token_hash is None and self.held is None


@dataclass
class Room:
    """A table of the server: its lobby facts, its :class:`Table` once the game has started,
    the seat handles and the connected clients."""

    id: str
    settings: dict[str, Any]
    seats: list[SeatInfo]
    invite_hash: str
    watch_hash: str
    owner_hash: str
    state: str = "waiting"
    table: Table | None = None
    handles: dict[Viewer, SeatHandle] = field(default_factory=dict)
    pending: dict[Viewer, list[Message]] = field(default_factory=dict)
    clients: list[Client] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bots: asyncio.Task[None] | None = None
    #: How often the bots were asked to move: a loop that finds no bot to move returns only
    #: if nobody asked again meanwhile (a stand-in may begin while it waits for the table).
    kicks: int = 0
    #: People's seats a bot plays for now (zombie mode), and the grace timers of those away.
    stand_ins: set[int] = field(default_factory=set)
    away: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    #: The turn timers (``None``: the table has none), the (turn, seat) they were last set
    #: for, and the task that watches them.
    clocks: Clocks | None = None
    clock_key: tuple[int, int | None] | None = None
    timer: asyncio.Task[None] | None = None
    #: The rematch's table id, once someone asked for one; the table this one is a rematch of.
    rematch: str | None = None
    rematch_of: str | None = None
    #: A rematch's invite and watch codes, while this process runs.
    codes: dict[str, str] = field(default_factory=dict)

    @property
    def grace(self) -> float:
        grace = self.settings.get("grace", GRACE)
        return float(grace) if isinstance(grace, int | float) else GRACE

    @property
    def stand_in_bot(self) -> str:
        bot = self.settings.get("stand_in")
        return bot if isinstance(bot, str) and bot else STAND_IN_BOT

    @property
    def full(self) -> bool:
        """Every seat is a bot's or taken by a person (none free, none held)."""
        return all(seat.bot is not None or seat.token_hash is not None for seat in self.seats)

    def connected(self, seat: int) -> bool:
        return any(c.viewer == seat and not c.closed for c in self.clients)

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is (compared in constant time), or ``None``."""
        hashed = digest(token)
        found = None
        for index, seat in enumerate(self.seats):
            stored = seat.token_hash or ""
            if hmac.compare_digest(stored.encode(), hashed.encode()) and stored:
                found = index
        return found

    def summary(self) -> dict[str, Any]:
        return {
            "table": self.id,
            "state": self.state,
            "players": self.settings["players"],
            "layout": self.settings.get("layout"),
            "variants": self.settings.get("variants", []),
            "timer": self.settings.get("timer"),
            "grace": self.grace,
            "rematch": self.rematch,
            "rematch_of": self.rematch_of,
            "seats": [
                {
                    "seat": index + 1,
                    "name": seat.name,
                    "bot": seat.bot,
                    "level": seat.level,
                    "free": seat.free,
                    "held": seat.held is not None,
                    "stand_in": index in self.stand_ins,
                }
                for index, seat in enumerate(self.seats)
            ],
        }


class Hub:
    """Every table of one server, and its store."""

    def __init__(
        self,
        db: str | Path,
        *,
        registry: Registry | None = None,
        bot_delay: float = 0.0,
        rate: float = RATE,
        now: Callable[[], float] = time.monotonic,
        clock_tick: float = CLOCK_TICK,
        lobby_rate: float = LOBBY_RATE,
        lobby_burst: float = LOBBY_BURST,
    ) -> None:
        self.db = Path(db)
        self.rate = rate
        self.registry = registry or default_registry()
        self.bot_delay = bot_delay
        self.store: LobbyStore | None = None
        self.rooms: dict[str, Room] = {}
        #: The turn timers' time (monotonic seconds): a fake one in tests.
        self.now = now
        self.clock_tick = clock_tick
        self.lobby = Buckets(lobby_rate, lobby_burst)

    # -- starting and stopping ----------------------------------------------------------------

    async def start(self) -> None:
        if self.store is None:  # ``cinco serve`` opened it before listening (see serve)
            self.store = Store(self.db)
        for row in self.store.tables():
            room = self._room(row, self.store.seats(row.id))
            self.rooms[room.id] = room
            if room.state == "playing":  # a finished table is read when someone comes
                try:
                    await self._restore(room)
                except Exception:
                    logger.exception("table %s could not be restored", room.id)
                    room.state = "broken"

    def call_off_hints(self) -> None:
        """Every table stops the hint it thinks on, and answers any asked later at once: the
        server is stopping."""
        for room in self.rooms.values():
            if room.table is not None:
                room.table.call_off()

    async def stop(self) -> None:
        self.call_off_hints()
        tables: list[Table] = []
        for room in self.rooms.values():
            if room.table is not None:
                tables.append(room.table)
            for client in room.clients:
                client.close(1001)
            for task in [room.bots, room.timer, *room.away.values()]:
                if task is not None:
                    task.cancel()
            if room.state == "playing":
                self._save_clocks(room)  # the clock that runs, as it is now
        # Each table stores what it has and stops; side by side, so that a bot thinking at
        # one table (its own budget bounds it) holds up no other.
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
        if self.store is not None:
            self.store.close()

    def _room(self, row: TableRow, seats: list[SeatRow]) -> Room:
        return Room(
            id=row.id,
            settings=row.settings,
            seats=[SeatInfo(s.name, s.bot, s.level, s.token_hash, s.held) for s in seats],
            invite_hash=row.invite_hash,
            watch_hash=row.watch_hash,
            owner_hash=row.owner_hash,
            state=row.state,
            rematch=row.rematch,
            rematch_of=row.settings.get("rematch_of"),
        )

    @property
    def db_store(self) -> LobbyStore:
        assert self.store is not None, "the hub is not started"
        return self.store

    # -- the lobby ------------------------------------------------------------------------------

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        options = table_options(body, self.registry, grace=GRACE, stand_in=STAND_IN_BOT)
        settings = options.settings
        players, layout, variants = settings["players"], settings["layout"], settings["variants"]
        seats = [SeatInfo(name, bot, level) for name, bot, level in options.seats]
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
        room = Room(table_id, settings, seats, *hashes)
        self.rooms[table_id] = room
        return {
            "table": table_id,
            "code": code,
            "watch": watch,
            "owner": owner,
            "seats": room.summary()["seats"],
        }

    def find(self, code: str, which: str) -> Room | None:
        hashed = digest(normal_code(code))
        for room in self.rooms.values():
            stored = room.invite_hash if which == "invite" else room.watch_hash
            if hmac.compare_digest(stored, hashed):
                return room
        return None

    async def join(self, body: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(body) - {"code", "name", "seat"})
        if unknown:
            text = f"{unknown[0]}: no such field (code, name, seat)"
            raise LobbyError(400, "bad_request", text, field=unknown[0])
        code = body.get("code")
        if not isinstance(code, str) or len(code) > 64:
            raise LobbyError(400, "bad_request", "join needs the table's invite code", field="code")
        name = body.get("name")
        if name is not None and not isinstance(name, str):
            raise LobbyError(400, "bad_request", f"name: text, not {name!r}", field="name")
        wanted = body.get("seat")
        if wanted is not None and (isinstance(wanted, bool) or not isinstance(wanted, int)):
            text = f"seat: a number from 1, not {wanted!r}"
            raise LobbyError(400, "bad_request", text, field="seat")
        room = self.find(code, "invite")
        if room is None:
            raise LobbyError(404, "no_such_code", "no table has that invite code")
        if wanted is not None and not 1 <= wanted <= len(room.seats):
            text = f"seat: there is no seat {wanted} (seats 1 to {len(room.seats)})"
            raise LobbyError(400, "bad_request", text, field="seat")
        chosen = clean_name(name) if name is not None and name.strip() else None
        async with room.lock:
            free = [index for index, seat in enumerate(room.seats) if seat.free]
            if wanted is not None:
                free = [index for index in free if index == wanted - 1]
            # Someone who left comes back to the seat with their name, if it is free.
            free.sort(key=lambda index: not same_name(room.seats[index].name, chosen))
            if not free:
                raise LobbyError(409, "table_full", "no free seat at that table")
            index = free[0]
            seat = room.seats[index]
            others = [s.name for i, s in enumerate(room.seats) if i != index]
            if chosen is not None and any(same_name(chosen, other) for other in others):
                raise LobbyError(
                    409,
                    "name_taken",
                    f"someone at that table is called {chosen!r} already: choose another name",
                    field="name",
                )
            token = secrets.token_urlsafe(32)  # 256 bits
            named = seat.name
            if room.table is None:  # before the game: the player names the seat
                named = chosen or _free_name(f"Player {index + 1}", others)
            # Stored first: a store that cannot write (503) leaves the seat free here too.
            self.db_store.set_seat(room.id, index, named, digest(token))
            seat.name, seat.token_hash = named, digest(token)
            if room.table is None and room.full:
                await self._deal(room)
        return {"table": room.id, "seat": index, "token": token, "name": seat.name}

    async def rejoin(self, room: Room, token: str) -> dict[str, Any]:
        """Come back to one's seat with its token (after the client restarted, say): the
        token rotates (the old one is revoked, its connection closed)."""
        async with room.lock:
            index = room.seat_of(token)
            if index is None:
                raise LobbyError(403, "bad_token", "that is not a seat token of this table")
            seat = room.seats[index]
            fresh = secrets.token_urlsafe(32)
            seat.token_hash = digest(fresh)
            self.db_store.set_seat(room.id, index, seat.name, seat.token_hash)
            for client in room.clients:
                if client.viewer == index:
                    client.close(CLOSE_REPLACED)
        return {"table": room.id, "seat": index, "token": fresh, "name": seat.name}

    async def rematch(self, room: Room, token: str) -> dict[str, Any]:
        """A new table at *room*'s settings with the same people and bots, once its game is
        over: each person's seat is held for them (their old token claims it, and gets a new
        one). Asked with a seat token: that seat is claimed at once; with the owner token:
        none is. The first ask makes the table, the others find it."""
        async with room.lock:
            index = room.seat_of(token)
            owner = hmac.compare_digest(digest(token), room.owner_hash)
            if index is None and not owner:
                raise LobbyError(403, "bad_token", "send a seat token of this table or its owner's")
            if room.state != "over":
                raise LobbyError(409, "not_over", "a rematch is made once the game is over")
            if room.rematch is None:
                self._new_rematch(room)
        assert room.rematch is not None
        new = self.rooms[room.rematch]
        answer: dict[str, Any] = {"table": new.id, "rematch_of": room.id}
        async with new.lock:
            answer.update(new.codes)  # the rematch's invite and watch codes, for its people
            if index is not None:
                seat = new.seats[index]
                if seat.held is None or not hmac.compare_digest(seat.held, digest(token)):
                    raise LobbyError(409, "seat_taken", "that seat of the rematch is taken")
                fresh = secrets.token_urlsafe(32)
                seat.held, seat.token_hash = None, digest(fresh)
                self.db_store.set_seat(new.id, index, seat.name, seat.token_hash, held=None)
                answer.update(seat=index, token=fresh, name=seat.name)
            if new.table is None and new.full:  # every seat claimed, or bots only
                await self._begin(new)
        return answer

    def _new_rematch(self, room: Room) -> None:
        """Make *room*'s rematch table (holding its lock)."""
        seats = [
            SeatInfo(s.name, s.bot, s.level, None, None if s.bot else s.token_hash)
            for s in room.seats
        ]
        settings = {**room.settings, "rematch_of": room.id}
        table_id = secrets.token_hex(6)
        code, watch = new_code(), new_code()
        hashes = (digest(normal_code(code)), digest(normal_code(watch)), room.owner_hash)
        # The codes are shown to whoever asks for the rematch (they had the first table's),
        # from memory: the store keeps only their hashes. The owner token stays the same.
        self.db_store.add_table(
            table_id,
            settings,
            hashes,
            [(s.name, s.bot, s.level) for s in seats],
            held=[s.held for s in seats],
        )
        new = Room(table_id, settings, seats, *hashes, rematch_of=room.id)
        new.codes = {"code": code, "watch": watch}
        self.rooms[table_id] = new
        room.rematch = table_id
        self.db_store.set_rematch(room.id, table_id)

    async def leave(self, room: Room, token: str) -> int:
        leaving = room.seat_of(token)
        handle = room.handles.get(leaving) if leaving is not None else None
        if handle is not None:
            handle.call_off()  # a hint this seat asked for holds the table's lock: end it
        async with room.lock:
            index = room.seat_of(token)
            if index is None:
                raise LobbyError(403, "bad_token", "that is not a seat token of this table")
            seat = room.seats[index]
            seat.token_hash = None
            if room.table is None:
                seat.name = None
            self.db_store.set_seat(room.id, index, seat.name, None)
            for client in room.clients:
                if client.viewer == index:
                    client.close(CLOSE_LEFT)
            self._absent(room, index)
        return index

    def record(self, room: Room, token: str | None) -> str:
        owner = token is not None and hmac.compare_digest(digest(token), room.owner_hash)
        if room.state != "over" and not owner:
            raise LobbyError(403, "not_over", "the record is given once the game is over")
        events = self.db_store.events(room.id)
        lines = [json.dumps(header(frontend="server", table=room.id))]
        lines += [dumps(event_from_dict(data)) for data in events]
        return "\n".join(lines) + "\n"

    # -- the game -----------------------------------------------------------------------------

    def _sink(self, room: Room) -> Callable[[], EventSink]:
        return lambda: self.db_store.sink(room.id)

    async def _begin(self, room: Room) -> None:
        """Every person's seat is taken: deal (called holding the room's lock)."""
        settings = room.settings
        seats = [
            Seat(s.name or f"Player {i + 1}", bot=s.bot, level=s.level)
            for i, s in enumerate(room.seats)
        ]
        config = self.registry.configure(
            settings["players"],
            layout=settings.get("layout"),
            variants=settings.get("variants", []),
            seats=seats,
        )
        room.table = await asyncio.to_thread(
            Table.create,
            config,
            registry=self.registry,
            sink=self._sink(room),
            table_id=room.id,
            undo=bool(settings.get("undo", True)),
        )
        room.state = "playing"
        self.db_store.set_state(room.id, "playing")
        await self._seat_handles(room)
        self._start_clocks(room)
        for client in room.clients:
            self._catch_up(room, client)
        self._flush(room)
        self._watch_seats(room)
        self._kick_bots(room)

    async def _restore(self, room: Room) -> None:
        events = [event_from_dict(data) for data in self.db_store.events(room.id)]
        room.table = await asyncio.to_thread(
            Table.restore,
            events,
            lambda keep: self.db_store.sink(room.id, keep),
            table_id=room.id,
            registry=self.registry,
            undo=bool(room.settings.get("undo", True)),
        )
        await self._seat_handles(room)
        status = await asyncio.to_thread(room.table.status)
        room.stand_ins = {seat for seat, _bot in status.stand_ins}
        if status.is_over and room.state != "over":
            room.state = "over"
            self.db_store.set_state(room.id, "over")
        if not status.is_over:
            self._start_clocks(room)
            self._resume_clocks(room)
            self._sync_clocks(room)
            self._watch_seats(room)
        self._kick_bots(room)

    async def _seat_handles(self, room: Room) -> None:
        table = room.table
        assert table is not None
        viewers: list[int | None] = [*table.humans, SPECTATOR]
        for viewer in viewers:
            handle = await asyncio.to_thread(_handle_for, table, viewer)
            pending: list[Message] = []
            room.pending[viewer] = pending
            handle.listen(pending.append)
            room.handles[viewer] = handle

    def _catch_up(self, room: Room, client: Client) -> None:
        """Send *client* what its viewer's handle has after the client's last event, and the
        prompt if it is this seat's turn."""
        handle = room.handles.get(client.viewer)
        if handle is None:
            return
        for envelope in handle.events(client.sent):
            client.deliver(envelope)
        legal = handle.legal()
        seat = client.viewer
        if (
            isinstance(seat, int)
            and seat not in room.stand_ins
            and (legal.plays or legal.can_draw or legal.can_exchange)
        ):
            client.deliver(Prompt(room.id, handle.seq, legal))
        clock = self._clock_message(room)
        if clock is not None:
            client.deliver(clock)

    def _flush(self, room: Room) -> None:
        """Pass on what the handles took in since the last flush (holding the room's lock)."""
        ended = False
        for viewer, pending in room.pending.items():
            handle = room.handles[viewer]
            handle.pump()
            messages = pending[:]
            pending.clear()
            for message in messages:
                if isinstance(message, Envelope) and isinstance(message.event, GameEnded):
                    ended = True
                for client in room.clients:
                    if client.viewer == viewer:
                        client.deliver(message)
        if ended and room.state != "over":
            room.state = "over"
            self.db_store.set_state(room.id, "over")
        self._sync_clocks(room)
        if ended and room.table is not None:
            # The handles keep the whole stream for late viewers; the table's thread and
            # its database connection are not needed any more.
            asyncio.get_running_loop().create_task(self._close_table(room))

    async def _close_table(self, room: Room) -> None:
        async with room.lock:
            table, room.table = room.table, None
            if table is not None:
                await asyncio.to_thread(table.close)

    async def _deal(self, room: Room) -> None:
        """:meth:`_begin`, unless the store cannot write the deal: the seats stay taken, and
        the next connection to the table deals (:meth:`ensure_stream`)."""
        try:
            await self._begin(room)
        except CannotWrite as exc:
            logger.error("table %s: the deal could not be stored, it waits: %s", room.id, exc)

    async def ensure_stream(self, room: Room) -> None:
        """A finished table's handles, rebuilt from the store (after a restart); a full
        table whose deal could not be stored, dealt."""
        async with room.lock:
            if room.state == "waiting" and room.full and room.table is None:
                await self._deal(room)
                return
            if room.state != "over" or room.handles:
                return
            await self._restore(room)
        await self._close_table(room)

    # -- turn timers ------------------------------------------------------------------------

    def _start_clocks(self, room: Room) -> None:
        timer = room.settings.get("timer")
        if not isinstance(timer, dict) or room.clocks is not None:
            return
        control = TimeControl.of(timer.get("reserve"), timer.get("increment", 0))
        room.clocks = Clocks(control, len(room.seats), now=self.now)
        room.timer = asyncio.get_running_loop().create_task(self._timer_loop(room))

    def _resume_clocks(self, room: Room) -> None:
        """Set a restored table's clocks from the readings stored at its last change (or at
        the last stop). Time the server was down is nobody's; after a ``kill -9`` the
        person to move gets back what they had spent of the turn under way."""
        clocks = room.clocks
        spectator = room.handles.get(SPECTATOR)
        if clocks is None or spectator is None:
            return
        readings = self.db_store.clocks(room.id)
        if readings is None:
            return
        turn = readings.get("turn")
        moved = isinstance(turn, int) and turn != spectator.view.turn
        if not clocks.resume(readings, moved=moved):
            logger.warning("table %s: its stored clocks do not fit: they start again", room.id)

    def _save_clocks(self, room: Room) -> None:
        clocks = room.clocks
        spectator = room.handles.get(SPECTATOR)
        if clocks is None or spectator is None:
            return
        readings = {"turn": spectator.view.turn, **clocks.readings()}
        try:
            # Not waited for: the event loop serves every table. A crash may lose this
            # turn's readings; a restart then finds the last turn's (see _resume_clocks).
            self.db_store.set_clocks(room.id, readings, wait=False)
        except Exception:  # any store's error: the game goes on, a restart loses this turn
            logger.exception("table %s: its clocks could not be stored", room.id)

    def _clock_message(self, room: Room) -> Clock | None:
        clocks = room.clocks
        spectator = room.handles.get(SPECTATOR)
        if clocks is None or spectator is None:
            return None
        return Clock(
            room.id,
            spectator.seq,
            clocks.snapshot(),
            clocks.running,
            clocks.control.reserve,
            clocks.control.increment,
        )

    def _sync_clocks(self, room: Room) -> None:
        """Run the clock of the person to move (none while a bot moves, for a bot's seat or
        a person's), after any change; tell everyone when that changed."""
        clocks = room.clocks
        spectator = room.handles.get(SPECTATOR)
        if clocks is None or spectator is None:
            return
        state = spectator.view
        running: int | None = state.current_seat
        seats = state.config.seats
        if state.is_over or seats[state.current_seat].is_bot or running in room.stand_ins:
            running = None
        key = (state.turn, running)
        if key == room.clock_key:
            return
        moved = room.clock_key is not None and room.clock_key[0] != state.turn
        clocks.stop(moved=moved)
        clocks.start(running)
        room.clock_key = key
        self._save_clocks(room)
        clock = self._clock_message(room)
        assert clock is not None
        for client in room.clients:
            client.deliver(clock)

    async def _timer_loop(self, room: Room) -> None:
        """Watch the running clock; when it reaches zero, a bot moves for its player."""
        clocks = room.clocks
        assert clocks is not None
        while room.state != "over":
            left = clocks.until_expiry()
            await asyncio.sleep(self.clock_tick if left is None else min(left, self.clock_tick))
            async with room.lock:
                seat = clocks.expired()
                table = room.table
                if seat is None or table is None or room.state == "over":
                    continue
                answer = await asyncio.to_thread(
                    table.play_for, seat, room.stand_in_bot, reason="timeout"
                )
                if isinstance(answer, Accepted):
                    clocks.run_out()
                else:
                    logger.warning(
                        "table %s: no bot could move for seat %s: %s", room.id, seat, answer
                    )
                    clocks.stop(moved=False)
                self._flush(room)
            self._kick_bots(room)

    # -- zombie mode: a bot for a person who is away ---------------------------------------

    def _watch_seats(self, room: Room) -> None:
        """Start the grace timer of every person's seat that has no connection."""
        for index, seat in enumerate(room.seats):
            if seat.bot is None:
                self._absent(room, index)

    def _absent(self, room: Room, seat: int) -> None:
        """*seat* may have nobody connected: after the table's grace, a bot plays for it."""
        if room.table is None or room.state != "playing" or room.connected(seat):
            return
        if seat in room.stand_ins or seat in room.away:
            return
        room.away[seat] = asyncio.get_running_loop().create_task(self._stand_in_later(room, seat))

    async def _stand_in_later(self, room: Room, seat: int) -> None:
        try:
            await asyncio.sleep(room.grace)
            async with room.lock:
                table = room.table
                if room.away.get(seat) is not asyncio.current_task():
                    return
                del room.away[seat]
                if table is None or room.state != "playing" or room.connected(seat):
                    return
                reason = "left" if room.seats[seat].token_hash is None else "disconnected"
                answer = await asyncio.to_thread(
                    table.stand_in, seat, room.stand_in_bot, reason=reason
                )
                if isinstance(answer, Accepted):
                    room.stand_ins.add(seat)
                self._flush(room)
            self._kick_bots(room)
        except asyncio.CancelledError:
            pass

    async def _back(self, room: Room, seat: int) -> None:
        """*seat*'s person connected (holding the room's lock): no grace timer, no stand-in."""
        task = room.away.pop(seat, None)
        if task is not None:
            task.cancel()
        table = room.table
        if seat in room.stand_ins and table is not None:
            answer = await asyncio.to_thread(table.stand_in, seat, None, reason="back")
            if isinstance(answer, Accepted):
                room.stand_ins.discard(seat)
            self._flush(room)

    def _kick_bots(self, room: Room) -> None:
        if room.table is None:
            return
        room.kicks += 1
        if room.bots is not None and not room.bots.done():
            return  # the running loop looks again before it ends
        room.bots = asyncio.get_running_loop().create_task(self._bot_loop(room))

    async def _bot_loop(self, room: Room) -> None:
        unstored = 0  # bot turns in a row the store refused
        while True:
            async with room.lock:
                table = room.table
                if table is None or room.state == "over":
                    return
                kicks = room.kicks
                answer = await asyncio.wrap_future(table.start_bot_turn())
                self._flush(room)
                if isinstance(answer, Refused) and answer.code == "record_failed":
                    # Taken back, nothing stored: the bot tries again once the disk has room.
                    if not unstored:
                        logger.warning("table %s: a bot's turn was not stored: %s", room.id, answer)
                    unstored += 1
                elif not isinstance(answer, Accepted):
                    if answer.code != "no_bot_to_move":  # a person's turn, or the end
                        logger.warning("table %s: a bot's turn was refused: %s", room.id, answer)
                        return
                    if room.kicks == kicks:
                        return
                    continue  # asked again while it looked: a stand-in may have begun
                else:
                    unstored = 0
            if unstored:
                await asyncio.sleep(min(STORE_RETRY * unstored, STORE_RETRY_MAX))
            elif self.bot_delay:
                await asyncio.sleep(self.bot_delay)

    # -- a client's requests --------------------------------------------------------------------

    async def request(self, room: Room, client: Client, message: Message) -> Message:
        async with room.lock:
            if isinstance(message, Subscribe):
                client.subscribed = True
                client.sent = max(-1, message.after)
                client.prompted = -2
                self._catch_up(room, client)
                handle = room.handles.get(client.viewer)
                return Accepted(handle.seq if handle is not None else -1)
            handle = room.handles.get(client.viewer)
            if client.viewer is None:
                return Refused("not_seated")
            if room.state == "over":
                return Refused("game_over")
            if room.table is None or handle is None:
                return Refused("not_started")
            answer: Message
            if isinstance(message, Hint):
                message = Hint(message.bots, min(message.seconds, HINT_SECONDS))
            if isinstance(message, Submit | Check | Undo | Hint):
                # Straight to the table's thread and back: no worker thread in between.
                try:
                    answer = await asyncio.wrap_future(handle.send(message))
                except asyncio.CancelledError:  # the server stops: a hint must not hold it
                    handle.call_off()
                    raise
                if isinstance(message, Check) or (isinstance(message, Undo) and message.check):
                    answer = answer if isinstance(answer, Refused) else Accepted(-1)
            else:
                answer = Refused("malformed_command", (("problem", message.type),))
            self._flush(room)
        self._kick_bots(room)
        return answer

    async def connect(self, room: Room, client: Client, token: str | None = None) -> bool:
        """Bind *client* to its seat (or as a spectator). A seat's *token* is checked again
        here, holding the table's lock that leave and rejoin take to revoke one: a token
        revoked while the handshake waited is refused (``False``), not bound."""
        async with room.lock:
            if isinstance(client.viewer, int) and (
                token is None or room.seat_of(token) != client.viewer
            ):
                return False
            for other in room.clients:
                if client.viewer is not None and other.viewer == client.viewer:
                    other.close(CLOSE_REPLACED)  # one connection per seat: the newest
            room.clients.append(client)
            if isinstance(client.viewer, int):
                await self._back(room, client.viewer)
        return True

    async def disconnect(self, room: Room, client: Client) -> None:
        client.close()
        async with room.lock:
            if client in room.clients:
                room.clients.remove(client)
            if isinstance(client.viewer, int):
                self._absent(room, client.viewer)


def _free_name(name: str, others: list[str | None]) -> str:
    """*name*, or *name* (2), (3), ...: the first no other seat has."""
    candidate, number = name, 1
    while any(same_name(candidate, other) for other in others):
        number += 1
        candidate = f"{name} ({number})"
    return candidate


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


# -- the ASGI app ---------------------------------------------------------------------------------


def _body(request: Request) -> dict[str, Any]:
    """The request's body (read by the route wrapper) as a JSON object."""
    return parse_body(getattr(request.state, "raw_body", b""))


async def _not_found(request: Request, exc: Exception) -> Response:
    """Starlette's own HTTP errors (no such route, a method it does not take) as JSON."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    code = {404: "no_such_route", 405: "method_not_allowed"}.get(status, "http_error")
    return ErrorResponse(LobbyError(status, code, f"{request.method} {request.url.path}: {code}"))


async def _failed(request: Request, exc: Exception) -> Response:
    logger.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return ErrorResponse(_internal())


def _internal() -> LobbyError:
    return LobbyError(
        500, "internal_error", "the server failed on this request (its log says why): try again"
    )


def create_app(
    db: str | Path,
    *,
    registry: Registry | None = None,
    bot_delay: float = 0.0,
    rate: float = RATE,
    now: Callable[[], float] = time.monotonic,
    clock_tick: float = CLOCK_TICK,
    lobby_rate: float = LOBBY_RATE,
    lobby_burst: float = LOBBY_BURST,
) -> Starlette:
    """The server's ASGI app, its tables stored in the SQLite file *db*; *rate*: requests a
    second one connection may send (bursts of three times as many); *lobby_rate* and
    *lobby_burst*: lobby requests per client address. *now* is the turn timers' monotonic
    time, and *clock_tick* the longest their watcher sleeps (tests make time run)."""
    hub = _hub_type(db)(
        db,
        registry=registry,
        bot_delay=bot_delay,
        rate=rate,
        now=now,
        clock_tick=clock_tick,
        lobby_rate=lobby_rate,
        lobby_burst=lobby_burst,
    )

    def limit(request: Request) -> None:
        address = request.client.host if request.client is not None else "?"
        wait = hub.lobby.take(address)
        if wait:
            raise LobbyError(
                429,
                "rate_limited",
                "too many requests from this address: wait and try again",
                retry_after=max(1, int(wait + 0.999)),
            )

    def room_of(request: Request | WebSocket) -> Room:
        room = hub.rooms.get(str(request.path_params.get("table", "")))
        if room is None:
            raise LobbyError(404, "no_such_table", "no such table")
        return room

    def lobby_route(handler: Handler) -> Handler:
        """A lobby endpoint: rate-limited per address, its body read (at most MAX_BODY
        bytes), a LobbyError answered as its JSON error, and any other failure as a JSON
        ``500`` (this is the one place where the lobby's errors become answers)."""

        @functools.wraps(handler)
        async def route(request: Request) -> Response:
            try:
                limit(request)
                request.state.raw_body = await read_body(request)
                return await handler(request)
            except LobbyError as exc:
                error = exc
            except HeldElsewhere:  # PostgreSQL: the Leases middleware sends the client on
                raise
            except CannotWrite as exc:  # the disk is full, say: nothing of it was stored
                logger.error("%s %s: %s", request.method, request.url.path, exc)
                error = LobbyError(
                    503,
                    "store_failed",
                    "the server cannot store anything now: try again later",
                    retry_after=5,
                )
            except Exception:  # never a bare 500: logged, and answered as JSON
                logger.exception("%s %s failed", request.method, request.url.path)
                error = _internal()
            # A body left unread (too big, or refused first) is drained after the answer.
            return ErrorResponse(error, drain=not getattr(request.state, "body_read", False))

        return route

    def seat_token(request: Request) -> str:
        token = bearer(request.headers)
        if token is None:
            raise LobbyError(401, "no_token", "send Authorization: Bearer SEAT_TOKEN")
        return token

    @lobby_route
    async def list_tables(request: Request) -> Response:
        rooms = [
            room.summary()
            for room in hub.rooms.values()
            if room.state in ("waiting", "playing") and any(seat.free for seat in room.seats)
        ]
        return JSONResponse({"tables": rooms})

    @lobby_route
    async def create_table(request: Request) -> Response:
        created = hub.create(_body(request))
        room = hub.rooms[created["table"]]
        if room.full:  # bots only: deal now (or, if the store cannot, at the first watcher)
            async with room.lock:
                await hub._deal(room)
        return JSONResponse(created, status_code=201)

    @lobby_route
    async def table_info(request: Request) -> Response:
        return JSONResponse(room_of(request).summary())

    @lobby_route
    async def join(request: Request) -> Response:
        return JSONResponse(await hub.join(_body(request)))

    @lobby_route
    async def rejoin(request: Request) -> Response:
        room = room_of(request)
        return JSONResponse(await hub.rejoin(room, seat_token(request)))

    @lobby_route
    async def rematch(request: Request) -> Response:
        room = room_of(request)
        return JSONResponse(await hub.rematch(room, seat_token(request)))

    @lobby_route
    async def leave(request: Request) -> Response:
        room = room_of(request)
        token = seat_token(request)
        return JSONResponse({"table": room.id, "left": await hub.leave(room, token)})

    @lobby_route
    async def record(request: Request) -> Response:
        room = room_of(request)
        text = hub.record(room, bearer(request.headers))
        return PlainTextResponse(text, media_type="application/x-ndjson")

    async def answer_frame(room: Room, client: Client, text: str | bytes) -> Message:
        """The answer to one frame, whatever it holds: a frame that is no request of the
        protocol is refused (``malformed_command``, saying what is wrong), and the connection
        goes on."""
        try:
            return await hub.request(room, client, request_from_json(text))
        except EventError as exc:
            return Refused("malformed_command", (("problem", str(exc)[:500]),))
        except Exception as exc:
            # A frame the schema let through and the table choked on is a bug to mend (it is
            # logged), not a reason to drop the client.
            logger.exception("table %s: a request failed: %r", room.id, text[:200])
            return Refused("malformed_command", (("problem", type(exc).__name__),))

    async def serve_client(
        websocket: WebSocket, room: Room, viewer: Viewer, token: str | None = None
    ) -> None:
        client = Client(websocket, viewer, rate=hub.rate, burst=3 * hub.rate)
        if not await hub.connect(room, client, token):
            await websocket.close(code=4403)  # revoked while the handshake waited: 403
            return
        try:
            await websocket.accept()
        except BaseException:
            await hub.disconnect(room, client)
            raise
        sender = asyncio.get_running_loop().create_task(client.send_loop())
        try:
            while not client.closed:
                data = await websocket.receive()
                if data["type"] == "websocket.disconnect":
                    break
                text: str | bytes = data.get("text") or data.get("bytes") or b""
                if len(text) > MAX_MESSAGE:
                    client.close(CLOSE_TOO_BIG)
                    break
                if not client.allow():
                    client.push(frame(Refused("rate_limited")))
                    if client.tokens < -client.burst:
                        client.close(CLOSE_TOO_MANY)
                        break
                    client.tokens -= 1
                    continue
                client.push(frame(await answer_frame(room, client, text)))
        except WebSocketDisconnect:
            pass
        finally:
            await hub.disconnect(room, client)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sender, 2.0)
            sender.cancel()

    async def play(websocket: WebSocket) -> None:
        room = hub.rooms.get(str(websocket.path_params.get("table", "")))
        token = bearer(websocket.headers)
        seat = room.seat_of(token) if room is not None and token is not None else None
        if room is None or seat is None:
            await websocket.close(code=4403)  # before accept: the handshake is refused (403)
            return
        await hub.ensure_stream(room)
        await serve_client(websocket, room, seat, token)

    async def watch(websocket: WebSocket) -> None:
        code = bearer(websocket.headers)
        room = hub.find(code, "watch") if code is not None else None
        if room is None:
            await websocket.close(code=4403)
            return
        await hub.ensure_stream(room)
        await serve_client(websocket, room, SPECTATOR)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = Starlette(
        routes=[
            Route("/api/tables", list_tables, methods=["GET"]),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables/{table}", table_info, methods=["GET"]),
            Route("/api/join", join, methods=["POST"]),
            Route("/api/tables/{table}/leave", leave, methods=["POST"]),
            Route("/api/tables/{table}/rejoin", rejoin, methods=["POST"]),
            Route("/api/tables/{table}/rematch", rematch, methods=["POST"]),
            Route("/api/tables/{table}/record", record, methods=["GET"]),
            WebSocketRoute("/ws/tables/{table}", play),
            WebSocketRoute("/ws/watch", watch),
        ],
        lifespan=lifespan,
        exception_handlers={HTTPException: _not_found, Exception: _failed},
    )
    if is_database_url(db):  # several processes on one database: a table is served by one
        from .cluster import Leases, SharedHub

        assert isinstance(hub, SharedHub)
        app.add_middleware(Leases, hub=hub)
    app.state.hub = hub
    return app


def _hub_type(db: str | Path) -> type[Hub]:
    if is_database_url(db):
        from .cluster import SharedHub

        return SharedHub
    return Hub


def serve(
    host: str,
    port: int,
    db: str | Path,
    *,
    bot_delay: float = 0.5,
    lobby_rate: float = LOBBY_RATE,
) -> None:
    """Run the server until it is stopped (Ctrl-C); *lobby_rate*: lobby requests a second per
    client address (bursts of eight times as many; 0: no limit)."""
    import uvicorn

    from .collector import keep_collections_short

    app = create_app(
        db,
        bot_delay=bot_delay,
        lobby_rate=lobby_rate,
        lobby_burst=max(LOBBY_BURST, 8 * lobby_rate),
    )
    owner = None
    if is_database_url(db):  # one name across restarts: it takes its own tables back at once
        import socket

        owner = app.state.hub.server_id = f"{socket.gethostname()}:{port}"
    # Before listening: a store that cannot be used (another server's SQLite file, read-only,
    # not a database) stops the command with its StoreError's message, not a traceback.
    app.state.hub.store = open_store(db, owner=owner)
    keep_collections_short()  # a full collection would stall every table (collector.py)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=MAX_MESSAGE,
        # Frames are a few hundred bytes of JSON: compressing each one cost a tenth of the
        # server's time under load (benchmarks/server_load.py) and saves next to nothing.
        ws_per_message_deflate=False,
        log_level="warning",
        lifespan="on",
        timeout_graceful_shutdown=3,
    )
    hub: Hub = app.state.hub

    class Stopping(uvicorn.Server):
        """On SIGTERM or Ctrl-C every hint is called off at once: a connection waiting on one
        would hold the graceful shutdown up until it ends."""

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            with contextlib.suppress(RuntimeError):  # in the loop's thread, not in the handler
                asyncio.get_running_loop().call_soon_threadsafe(hub.call_off_hints)
            super().handle_exit(sig, frame)

    Stopping(config).run()
