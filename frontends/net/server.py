"""``cinco serve``: run the server's ASGI app (:mod:`.app`) under uvicorn until it is stopped.

The app and its parts: :mod:`.app` (the routes), :mod:`.service` (the tables),
:mod:`.connection` (one WebSocket), :mod:`.hosted` (one table), :mod:`.bot_turns`,
:mod:`.timers` and :mod:`.stand_ins` (bots, turn timers, zombie mode), :mod:`.cluster`
(several processes on PostgreSQL).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from pathlib import Path
from types import FrameType

from cinco.core.host.registry import Registry

from .app import create_app
from .collector import keep_collections_short
from .connection import MAX_MESSAGE, PING_INTERVAL, PING_TIMEOUT
from .lobby import LOBBY_BURST, LOBBY_RATE
from .service import TableService
from .storage import is_database_url, open_store
from .store import StoreError

__all__ = ["StoreError", "serve"]


def serve(
    host: str,
    port: int,
    db: str | Path,
    *,
    bot_delay: float = 0.5,
    lobby_rate: float = LOBBY_RATE,
    registry: Registry | None = None,
) -> None:
    """Run the server until it is stopped (Ctrl-C); *lobby_rate*: lobby requests a second per
    client address (bursts of eight times as many; 0: no limit). A store that cannot be used
    raises :class:`StoreError` before the server listens."""
    import uvicorn

    app = create_app(
        db,
        registry=registry,  # None: the installed plugins
        bot_delay=bot_delay,
        lobby_rate=lobby_rate,
        lobby_burst=max(LOBBY_BURST, 8 * lobby_rate),
    )
    service: TableService = app.state.service
    owner = None
    if is_database_url(db):  # one name across restarts: it takes its own tables back at once
        # (app.state is untyped: the service is a LeasedTableService, from cluster.py)
        owner = app.state.service.server_id = f"{socket.gethostname()}:{port}"
    # Before listening: a store that cannot be used (another server's SQLite file, read-only,
    # not a database) stops the command with its StoreError's message, not a traceback.
    service.store = open_store(db, owner=owner)
    keep_collections_short()  # a full collection would stall every table (collector.py)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=MAX_MESSAGE,
        ws_ping_interval=PING_INTERVAL,  # a silent connection is noticed (connection.py)
        ws_ping_timeout=PING_TIMEOUT,
        # Frames are a few hundred bytes of JSON: compressing each one cost a tenth of the
        # server's time under load (benchmarks/server_load.py) and saves next to nothing.
        ws_per_message_deflate=False,
        log_level="warning",
        lifespan="on",
        timeout_graceful_shutdown=3,
    )

    class Stopping(uvicorn.Server):
        """On SIGTERM or Ctrl-C every hint is called off at once: a connection waiting on one
        would hold the graceful shutdown up until it ends."""

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            with contextlib.suppress(RuntimeError):  # in the loop's thread, not in the handler
                asyncio.get_running_loop().call_soon_threadsafe(service.call_off_hints)
            super().handle_exit(sig, frame)

    Stopping(config).run()
