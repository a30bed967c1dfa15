"""Several ``cinco serve`` processes on one PostgreSQL database (``--db postgresql://…``).

Each table is held by one process at a time, through its lease in the store
(:mod:`cinco.frontends.net.store_pg`): only that process keeps the table in memory, plays it and
writes its events. :class:`LeasedTableService` is the server's
:class:`~cinco.frontends.net.service.TableService` for such a store: at the start it takes
over the games whose leases ran out (their process died) and restores them from their events;
later it takes a table when a request names one whose lease is free or run out; every few
seconds it renews its leases, drops the tables another process took from it, and takes the
games in play that no process holds (so that their bots and clocks go on without waiting for
a request).

:class:`Leases` is the ASGI middleware in front of the app that finds which table a request is
about (its id in the path, or its invite or watch code) and makes sure this process holds it.
A request about a table another process holds is refused ``503`` with ``Retry-After`` and
that process's address (a WebSocket's handshake, too), so that a load balancer tries the next
process, or a client tries again later. The list of tables comes from the shared database:
every process shows every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
from typing import Any

import psycopg
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .connection import MAX_MESSAGE, socket_credential
from .lobby import normal_code
from .seats import digest
from .service import TableService
from .settings import ServerSettings
from .store_pg import Holder, LeaseLost, PgStore

logger = logging.getLogger("cinco.server")

#: The WebSocket close code of a connection whose table another process took over (connect
#: again: the load balancer, or the client's retry, finds the process that holds it now).
CLOSE_ELSEWHERE = 4503

#: ``/api/tables/{id}…`` and ``/ws/tables/{id}``: requests that name their table.
TABLE_PATH = re.compile(r"/(?:api|ws)/tables/([^/]+)(?:/.*)?")


class LeasedTableService(TableService):
    """A :class:`TableService` holding only the tables it leases in a store shared with
    other processes."""

    def __init__(self, settings: ServerSettings) -> None:
        super().__init__(settings)
        self.url = str(settings.db)
        #: The tables this process held at its last look (renewal or claim).
        self.held: set[str] = set()
        self._claims: dict[str, asyncio.Lock] = {}
        self._renewer: asyncio.Task[None] | None = None
        self._address: str | None = None
        #: This process's name in the leases (``cinco serve``: HOST:PORT), else a new one.
        self.server_id: str | None = None

    @property
    def pg(self) -> PgStore:
        store = self.db_store
        assert isinstance(store, PgStore)
        return store

    async def start(self) -> None:
        store = self.pg if self.store is not None else None  # opened before listening: serve
        if store is None:
            store = await asyncio.to_thread(PgStore, self.url, owner=self.server_id)
        self.store = store
        for row in await asyncio.to_thread(store.tables):
            if row.state == "playing":  # the others are taken when someone asks for them
                await self.hold(row.id)
        self._renewer = asyncio.get_running_loop().create_task(self._renew_loop())

    async def stop(self) -> None:
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewer
        await super().stop()  # the tables' last commits, then the store gives up the leases

    # -- leases ------------------------------------------------------------------------------

    async def hold(self, table_id: str) -> Holder | None:
        """Make sure this process holds *table_id* (taking it if its lease is free or ran out,
        restored from its events): ``None`` if it does (or there is no such table), else the
        process that holds it."""
        if table_id in self.held and table_id in self.tables:
            return None
        lock = self._claims.setdefault(table_id, asyncio.Lock())
        async with lock:
            if table_id in self.held and table_id in self.tables:
                return None
            holder = await asyncio.to_thread(self.pg.claim, table_id)
            if holder is None:
                return None  # no such table: the app answers 404
            if holder.owner != self.pg.owner:
                if table_id in self.tables:
                    await self.drop(table_id)
                return holder
            if table_id not in self.tables:
                await self._take(table_id)
            self.held.add(table_id)
            return None

    async def _take(self, table_id: str) -> None:
        row = await asyncio.to_thread(self.pg.table, table_id)
        if row is None:
            return
        hosted = self.hosted_from(row, await asyncio.to_thread(self.pg.seats, table_id))
        if hosted.state == "playing":
            await self.restore_or_break(hosted)
        self.tables[hosted.id] = hosted
        logger.info("table %s: taken by this process (%s)", table_id, self.pg.owner)

    async def drop(self, table_id: str) -> None:
        """Another process holds *table_id* now: forget it here (its clients are closed with
        :data:`CLOSE_ELSEWHERE`, to connect again where it is)."""
        hosted = self.tables.pop(table_id, None)
        self.held.discard(table_id)
        if hosted is None:
            return
        logger.warning("table %s: another server process took it over", table_id)
        for connection in hosted.connections:
            connection.close(CLOSE_ELSEWHERE)
        for task in hosted.tasks():
            task.cancel()
        async with hosted.lock:
            table, hosted.table = hosted.table, None
            if table is not None:
                await asyncio.to_thread(table.close)  # its commits are refused: fenced

    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(self.pg.lease / 3)
            try:
                held = await asyncio.to_thread(self.pg.renew)
                for table_id in list(self.tables):
                    if table_id in held:
                        continue
                    holder = await asyncio.to_thread(self.pg.holder, table_id)
                    if holder is not None and holder.owner == self.pg.owner:
                        held.add(table_id)  # made since the renewal
                    else:
                        await self.drop(table_id)
                self.held = held & set(self.tables)
                for table_id in await asyncio.to_thread(self.pg.orphans):
                    await self.hold(table_id)  # its bots and clocks go on here
            except (OSError, psycopg.Error) as exc:
                # The database is away: the leases run out, the tables' commits fail.
                logger.warning("cannot renew the table leases: %s", exc)

    async def learn_address(self, scope: Scope) -> None:
        """Note the address this process is reached at (from the first request), shown to
        clients another process sends away."""
        server = scope.get("server")
        if self._address is not None or not server:
            return
        host, port = server[0], server[1]
        self._address = f"http://{host}:{port}" if port else str(host)
        with contextlib.suppress(OSError, psycopg.Error):
            await asyncio.to_thread(self.pg.set_address, self._address)

    # -- the lobby's list, from the shared database ------------------------------------------

    async def summaries(self) -> list[dict[str, Any]]:
        """Every process's tables that have a free seat (this process's from memory)."""
        rows = await asyncio.to_thread(self.pg.tables)
        seats = await asyncio.to_thread(self.pg.all_seats)
        listed = []
        for row in rows:
            hosted = self.tables.get(row.id) or self.hosted_from(row, seats.get(row.id, []))
            if hosted.state in ("waiting", "playing") and any(seat.free for seat in hosted.seats):
                listed.append(hosted.summary())
        return listed


# -- the middleware ------------------------------------------------------------------------------


class Leases:
    """ASGI middleware: a request about a table is served only by the process holding it."""

    def __init__(self, app: ASGIApp, service: LeasedTableService) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        service = self.service
        await service.learn_address(scope)
        try:
            if kind == "http" and scope["path"] == "/api/tables" and scope.get("method") == "GET":
                await self._list(scope, receive, send)
                return
            table_id, receive = await self._table_of(scope, receive)
            holder = None if table_id is None else await service.hold(table_id)
        except (OSError, psycopg.Error) as exc:
            logger.warning("the store cannot be reached: %s", exc)
            await _refuse(scope, receive, send, "store_unavailable", str(exc), 5, None)
            return
        if holder is not None and table_id is not None:
            await _elsewhere(scope, receive, send, table_id, holder)
            return
        await self._serve(scope, receive, send, table_id)

    async def _table_of(self, scope: Scope, receive: Receive) -> tuple[str | None, Receive]:
        """The id of the table the request is about (its path's, or its invite or watch
        code's), if any, and the ``receive`` to pass on (a join's body, read, given again)."""
        kind, path = scope["type"], scope["path"]
        match = TABLE_PATH.fullmatch(path)
        if match is not None:
            return match[1], receive
        code: str | None = None
        which = "invite"
        if kind == "http" and path == "/api/join" and scope.get("method", "GET") == "POST":
            body, receive = await _read_body(receive)
            code = _json_field(body, "code")
        elif kind == "websocket" and path == "/ws/watch":
            code, which = socket_credential(Headers(scope=scope)), "watch"
        if code is None:
            return None, receive
        found = await asyncio.to_thread(self.service.pg.find, digest(normal_code(code)), which)
        return found, receive

    async def _serve(
        self, scope: Scope, receive: Receive, send: Send, table_id: str | None
    ) -> None:
        """Pass the request on to the app; a write refused because another process took the
        table since the last renewal is answered with where it went (if nothing was sent)."""
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except LeaseLost:
            # Taken over since the last renewal: the write was refused; say where it went.
            if table_id is None or started or scope["type"] != "http":
                raise
            await self.service.drop(table_id)
            holder = await asyncio.to_thread(self.service.pg.holder, table_id)
            if holder is None:
                raise
            await _elsewhere(scope, receive, send, table_id, holder)

    async def _list(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        wait = self.service.lobby.take(client[0] if client else "?")
        if wait:
            retry = max(1, int(wait + 0.999))
            text = "too many requests from this address: wait and try again"
            await _refuse(scope, receive, send, "rate_limited", text, retry, None, status=429)
            return
        response = JSONResponse({"tables": await self.service.summaries()})
        await response(scope, receive, send)


async def _elsewhere(
    scope: Scope, receive: Receive, send: Send, table_id: str, holder: Holder
) -> None:
    wait = max(1, math.ceil(holder.left)) if holder.left > 0 else 1
    text = (
        f"table {table_id} is served by another server process ({holder.address}):"
        f" ask that one, or again in {wait} s"
    )
    await _refuse(scope, receive, send, "elsewhere", text, wait, holder.address)


async def _read_body(receive: Receive) -> tuple[bytes, Receive]:
    """The request's body (at most a little over MAX_MESSAGE: the app refuses a bigger one),
    and a ``receive`` that gives it to the app again."""
    chunks: list[bytes] = []
    size = 0
    more = True
    while more and size <= MAX_MESSAGE:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        more = bool(message.get("more_body", False))
    body = b"".join(chunks)
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": more}
        return await receive()

    return body, replay


def _json_field(body: bytes, key: str) -> str | None:
    try:
        data = json.loads(body or b"{}")
    except ValueError:
        return None
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, str) else None


async def _refuse(
    scope: Scope,
    receive: Receive,
    send: Send,
    code: str,
    text: str,
    retry_after: int,
    address: str | None,
    *,
    status: int = 503,
) -> None:
    """Answer ``{"error", "message"}`` with *status* and ``Retry-After`` (a WebSocket: in its
    handshake, or with close code :data:`CLOSE_ELSEWHERE` where a denial cannot be sent)."""
    body: dict[str, Any] = {"error": code, "message": text}
    headers = {"Retry-After": str(retry_after)}
    if address is not None:
        body["server"] = address
        headers["Cinco-Server"] = address
    response = JSONResponse(body, status_code=status, headers=headers)
    if scope["type"] == "http":
        await response(scope, receive, send)
        return
    await receive()  # websocket.connect
    if "websocket.http.response" in scope.get("extensions", {}):
        await send(
            {
                "type": "websocket.http.response.start",
                "status": status,
                "headers": response.raw_headers,
            }
        )
        await send({"type": "websocket.http.response.body", "body": response.body})
    else:
        await send({"type": "websocket.close", "code": CLOSE_ELSEWHERE, "reason": text[:120]})
