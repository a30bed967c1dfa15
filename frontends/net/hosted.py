"""One table as ``cinco serve`` holds it: the :class:`HostedTable` (its lobby facts, its
:class:`~cinco.core.table.table.Table` once the game has started, the seat handles, the open
connections, and the tasks of its bots, timers and stand-ins) and each seat's
:class:`LobbySeat`."""

from __future__ import annotations

import asyncio
import hmac
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cinco.core.engine.events import Viewer
from cinco.core.table.handle import SeatHandle
from cinco.core.table.protocol import Message
from cinco.core.table.table import Table

from .clock import Clocks
from .connection import Connection
from .lobby import LobbyError, same_name
from .loop_tables import LoopChannel
from .seats import digest

#: Seconds a person may be away (their connection dropped, or they left) before a bot plays
#: for them (zombie mode), unless the table sets its own ``grace``.
GRACE = 60.0
#: The bot that plays for a person who is away or out of time, unless the table says.
STAND_IN_BOT = "greedy"


@dataclass
class LobbySeat:
    """A seat as the lobby knows it: who sits there (a person's name, or a bot and its
    level) and the hash of the seat's token."""

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
class HostedTable:
    """A table of the server: its lobby facts, its :class:`Table` once the game has started,
    the seat handles and the connected clients."""

    id: str
    settings: dict[str, Any]
    seats: list[LobbySeat]
    invite_hash: str
    watch_hash: str
    owner_hash: str
    state: str = "waiting"
    table: Table | None = None
    #: The table's channel when the event loop drives it (:mod:`.loop_tables`), and the
    #: generation of it the handles were opened at (a failed write rebuilds the table).
    channel: LoopChannel | None = None
    generation: int = 0
    handles: dict[Viewer, SeatHandle] = field(default_factory=dict)
    pending: dict[Viewer, list[Message]] = field(default_factory=dict)
    connections: list[Connection] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bots: asyncio.Task[None] | None = None
    #: How often the bots were asked to move: a loop that finds no bot to move returns only
    #: if nobody asked again meanwhile (a stand-in may begin while it waits for the table).
    kicks: int = 0
    #: People's seats a bot plays for now (zombie mode), and the grace timers of those away.
    stand_ins: set[int] = field(default_factory=set)
    away: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    #: When the grace of each seat away runs out (the event loop's time): its ``presence``.
    away_until: dict[int, float] = field(default_factory=dict)
    #: The seats away that the viewers were told of (``seat_away``): only these are told
    #: back (``seat_back``), so a person who takes a seat and connects at once is no news.
    told_away: set[int] = field(default_factory=set)
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
        return any(c.viewer == seat and not c.closed for c in self.connections)

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is (compared in constant time), or ``None``."""
        hashed = digest(token)
        found = None
        for index, seat in enumerate(self.seats):
            stored = seat.token_hash or ""
            if hmac.compare_digest(stored.encode(), hashed.encode()) and stored:
                found = index
        return found

    def free_seat_for(self, wanted: int | None, chosen: str | None) -> int:
        """The seat a person joining takes (holding the table's lock): *wanted* (from 1) if it
        is free, else the first free one, the one that has their name first (someone who left
        comes back to it); refused if none is, or if another seat has their name."""
        free = [index for index, seat in enumerate(self.seats) if seat.free]
        if wanted is not None:
            free = [index for index in free if index == wanted - 1]
        free.sort(key=lambda index: not same_name(self.seats[index].name, chosen))
        if not free:
            raise LobbyError(409, "table_full", "no free seat at that table")
        index = free[0]
        others = [s.name for i, s in enumerate(self.seats) if i != index]
        if chosen is not None and any(same_name(chosen, other) for other in others):
            raise LobbyError(
                409,
                "name_taken",
                f"someone at that table is called {chosen!r} already: choose another name",
                field="name",
            )
        return index

    def tasks(self) -> list[asyncio.Task[None]]:
        """The table's running helpers: its bot loop, its timer and its grace timers."""
        return [task for task in (self.bots, self.timer, *self.away.values()) if task is not None]

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


#: Something done to one table (holding its lock or not, as the step says): pass on what its
#: handles took in, or ask its bots to move.
TableStep = Callable[[HostedTable], None]
