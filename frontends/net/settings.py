"""The settings of one ``cinco serve`` app: :class:`ServerSettings`, made once by
:func:`~.app.create_app` and carried on the app's state, read by the tables' service and by
the endpoints."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cinco.core.host.registry import Registry

from .connection import RATE
from .lobby import LOBBY_BURST, LOBBY_RATE
from .timers import CLOCK_TICK


@dataclass(frozen=True)
class ServerSettings:
    """*db*: the SQLite file or the PostgreSQL URL of the tables; *registry*: the plugins
    (``None``: the installed ones); *bot_delay*: the pause after each bot's turn (seconds);
    *rate*: requests a second one connection may send (bursts of three times as many);
    *lobby_rate* and *lobby_burst*: lobby requests per client address; *now*: the turn
    timers' monotonic time, and *clock_tick* the longest their watcher sleeps (tests make
    time run)."""

    db: str | Path
    registry: Registry | None = None
    bot_delay: float = 0.0
    rate: float = RATE
    now: Callable[[], float] = time.monotonic
    clock_tick: float = CLOCK_TICK
    lobby_rate: float = LOBBY_RATE
    lobby_burst: float = LOBBY_BURST
