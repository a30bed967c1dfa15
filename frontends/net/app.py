"""The ASGI app of ``cinco serve`` (Starlette): its routes, as module-level endpoints that
find the server's :class:`~.service.TableService` and :class:`~.settings.ServerSettings` on
the app's state, and :func:`create_app` that makes it.

Each table is a :class:`cinco.core.table.table.Table` whose events go to the store
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

Zombie mode (:mod:`.stand_ins`): a person with no connection (left, dropped, never came) for
the table's ``grace`` seconds has the table's ``stand_in`` bot play for them until they
connect again. Turn timers (:mod:`.timers`, the table's ``timer``): a person out of time has
the stand-in play that turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from cinco.core.engine.errors import EventError
from cinco.core.engine.events import SPECTATOR, Viewer
from cinco.core.host.registry import Registry
from cinco.core.table.protocol import Envelope, Message, Refused, request_from_json
from cinco.core.words.i18n import UnknownLanguage
from cinco.frontends.web import routes as web_routes
from cinco.frontends.web.narrated import Words

from .connection import (
    CLOSE_TOO_BIG,
    CLOSE_TOO_MANY,
    MAX_MESSAGE,
    RATE,
    SUBPROTOCOL,
    Connection,
    bearer,
    offers_subprotocol,
    socket_credential,
)
from .hosted import HostedTable
from .lobby import LOBBY_BURST, LOBBY_RATE, ErrorResponse, LobbyError, parse_body, read_body
from .service import TableService
from .settings import ServerSettings
from .storage import is_database_url
from .store import CannotWrite, HeldElsewhere
from .timers import CLOCK_TICK

logger = logging.getLogger("cinco.server")

#: A web page asked for words in a language Cinco does not speak (``?lang=``).
CLOSE_UNKNOWN_LANGUAGE = 4400

#: A lobby endpoint of the HTTP API.
Handler = Callable[[Request], Awaitable[Response]]


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
    """The server's ASGI app, its tables stored in the SQLite file (or PostgreSQL database)
    *db*; the other options are :class:`ServerSettings`'. Its state holds the settings
    (``app.state.settings``) and the tables (``app.state.service``)."""
    settings = ServerSettings(
        db,
        registry=registry,
        bot_delay=bot_delay,
        rate=rate,
        now=now,
        clock_tick=clock_tick,
        lobby_rate=lobby_rate,
        lobby_burst=lobby_burst,
    )
    service = _service_for(settings)
    app = Starlette(
        routes=ROUTES,
        lifespan=_lifespan,
        exception_handlers={HTTPException: _not_found, Exception: _failed},
    )
    if is_database_url(db):  # several processes on one database: a table is served by one
        app.add_middleware(_cluster().Leases, service=service)
    app.state.settings = settings
    app.state.service = service
    return app


def _service_for(settings: ServerSettings) -> TableService:
    if is_database_url(settings.db):
        service: TableService = _cluster().LeasedTableService(settings)
        return service
    return TableService(settings)


#: Several servers on one PostgreSQL database; loaded by name because it needs psycopg, which
#: only such a database asks for.
CLUSTER = "cinco.frontends.net.cluster"


def _cluster() -> Any:
    return importlib.import_module(CLUSTER)


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    service: TableService = app.state.service
    await service.start()
    try:
        yield
    finally:
        await service.stop()


def service_of(request: Request | WebSocket) -> TableService:
    """The tables of the app that *request* came to."""
    service: TableService = request.app.state.service
    return service


def settings_of(request: Request | WebSocket) -> ServerSettings:
    """The settings of the app that *request* came to."""
    settings: ServerSettings = request.app.state.settings
    return settings


# -- the lobby ------------------------------------------------------------------------------------


def _limit(request: Request) -> None:
    address = request.client.host if request.client is not None else "?"
    wait = service_of(request).lobby.take(address)
    if wait:
        raise LobbyError(
            429,
            "rate_limited",
            "too many requests from this address: wait and try again",
            retry_after=max(1, int(wait + 0.999)),
        )


def hosted_of(request: Request | WebSocket) -> HostedTable:
    """The table the request's path names (``404`` if there is none)."""
    hosted = service_of(request).tables.get(str(request.path_params.get("table", "")))
    if hosted is None:
        raise LobbyError(404, "no_such_table", "no such table")
    return hosted


def seat_token(request: Request) -> str:
    token = bearer(request.headers)
    if token is None:
        raise LobbyError(401, "no_token", "send Authorization: Bearer SEAT_TOKEN")
    return token


def _body(request: Request) -> dict[str, Any]:
    """The request's body (read by the route wrapper) as a JSON object."""
    return parse_body(getattr(request.state, "raw_body", b""))


def lobby_route(handler: Handler) -> Handler:
    """A lobby endpoint: rate-limited per address, its body read (at most MAX_BODY bytes),
    a LobbyError answered as its JSON error, and any other failure as a JSON ``500`` (this
    is the one place where the lobby's errors become answers)."""

    @functools.wraps(handler)
    async def route(request: Request) -> Response:
        try:
            _limit(request)
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


@lobby_route
async def list_tables(request: Request) -> Response:
    listed = [
        hosted.summary()
        for hosted in service_of(request).tables.values()
        if hosted.state in ("waiting", "playing") and any(seat.free for seat in hosted.seats)
    ]
    return JSONResponse({"tables": listed})


@lobby_route
async def create_table(request: Request) -> Response:
    service = service_of(request)
    created = service.create(_body(request))
    hosted = service.tables[created["table"]]
    if hosted.full:  # bots only: deal now (or, if the store cannot, at the first watcher)
        async with hosted.lock:
            await service.deal(hosted)
    return JSONResponse(created, status_code=201)


@lobby_route
async def table_info(request: Request) -> Response:
    return JSONResponse(hosted_of(request).summary())


@lobby_route
async def join(request: Request) -> Response:
    return JSONResponse(await service_of(request).join(_body(request)))


@lobby_route
async def rejoin(request: Request) -> Response:
    hosted = hosted_of(request)
    return JSONResponse(await service_of(request).rejoin(hosted, seat_token(request)))


@lobby_route
async def rematch(request: Request) -> Response:
    hosted = hosted_of(request)
    return JSONResponse(await service_of(request).rematch(hosted, seat_token(request)))


@lobby_route
async def leave(request: Request) -> Response:
    hosted = hosted_of(request)
    token = seat_token(request)
    return JSONResponse(
        {"table": hosted.id, "left": await service_of(request).leave(hosted, token)}
    )


@lobby_route
async def record(request: Request) -> Response:
    hosted = hosted_of(request)
    text = service_of(request).record(hosted, bearer(request.headers))
    return PlainTextResponse(text, media_type="application/x-ndjson")


# -- the WebSockets -------------------------------------------------------------------------------


async def play(websocket: WebSocket) -> None:
    service = service_of(websocket)
    hosted = service.tables.get(str(websocket.path_params.get("table", "")))
    token = socket_credential(websocket.headers)
    seat = hosted.seat_of(token) if hosted is not None and token is not None else None
    if hosted is None or seat is None:
        await websocket.close(code=4403)  # before accept: the handshake is refused (403)
        return
    await service.ensure_stream(hosted)
    await _serve_connection(websocket, hosted, seat, token)


async def watch(websocket: WebSocket) -> None:
    service = service_of(websocket)
    code = socket_credential(websocket.headers)
    hosted = service.find(code, "watch") if code is not None else None
    if hosted is None:
        await websocket.close(code=4403)
        return
    await service.ensure_stream(hosted)
    await _serve_connection(websocket, hosted, SPECTATOR)


async def _serve_connection(
    websocket: WebSocket, hosted: HostedTable, viewer: Viewer, token: str | None = None
) -> None:
    service = service_of(websocket)
    rate = settings_of(websocket).rate
    connection = Connection(websocket, viewer, rate=rate, burst=3 * rate)
    lang = websocket.query_params.get("lang")
    if lang:  # a web page: its frames carry words, in its language
        try:
            connection.words = _words(hosted, viewer, lang).frame
        except UnknownLanguage:
            await websocket.close(code=CLOSE_UNKNOWN_LANGUAGE)
            return
    if not await service.connect(hosted, connection, token):
        await websocket.close(code=4403)  # revoked while the handshake waited: 403
        return
    try:
        subprotocol = SUBPROTOCOL if offers_subprotocol(websocket.headers) else None
        await websocket.accept(subprotocol=subprotocol)
    except BaseException:
        await service.disconnect(hosted, connection)
        raise
    sender = asyncio.get_running_loop().create_task(connection.send_loop())
    try:
        await _receive_loop(websocket, service, hosted, connection)
    except WebSocketDisconnect:
        pass
    finally:
        await service.disconnect(hosted, connection)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sender, 2.0)
        sender.cancel()


def _words(hosted: HostedTable, viewer: Viewer, lang: str) -> Words:
    """The narrator of a web page's connection (:class:`UnknownLanguage` for a language Cinco
    does not speak)."""

    def history() -> list[Envelope]:
        handle = hosted.handles.get(viewer)
        return list(handle.events()) if handle is not None else []

    return Words(lang, viewer, history)


async def _receive_loop(
    websocket: WebSocket, service: TableService, hosted: HostedTable, connection: Connection
) -> None:
    """Answer the connection's frames, in order, until it closes (or is closed: too big a
    frame, too many too fast)."""
    while not connection.closed:
        data = await websocket.receive()
        if data["type"] == "websocket.disconnect":
            break
        text: str | bytes = data.get("text") or data.get("bytes") or b""
        if len(text) > MAX_MESSAGE:
            connection.close(CLOSE_TOO_BIG)
            break
        if not connection.allow():
            connection.push(connection.frame(Refused("rate_limited")))
            if connection.tokens < -connection.burst:
                connection.close(CLOSE_TOO_MANY)
                break
            connection.tokens -= 1
            continue
        connection.push(connection.frame(await _answer_frame(service, hosted, connection, text)))


async def _answer_frame(
    service: TableService, hosted: HostedTable, connection: Connection, text: str | bytes
) -> Message:
    """The answer to one frame, whatever it holds: a frame that is no request of the
    protocol is refused (``malformed_command``, saying what is wrong), and the connection
    goes on."""
    try:
        return await service.request(hosted, connection, request_from_json(text))
    except EventError as exc:
        return Refused("malformed_command", (("problem", str(exc)[:500]),))
    except Exception as exc:
        # A frame the schema let through and the table choked on is a bug to mend (it is
        # logged), not a reason to drop the client.
        logger.exception("table %s: a request failed: %r", hosted.id, text[:200])
        return Refused("malformed_command", (("problem", type(exc).__name__),))


# -- errors ---------------------------------------------------------------------------------------


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


ROUTES = [
    *web_routes.ROUTES,
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
]
