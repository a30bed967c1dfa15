"""Zombie mode at ``cinco serve``: :class:`StandIns` starts a grace timer for each person
with no connection (left, dropped, never came); once the table's ``grace`` seconds are up,
the table's stand-in bot plays their seat (:meth:`Table.stand_in`) until they connect
again. Every viewer is told at once, by a ``presence`` message (not an event: the server's
word on its connections), when a seat's connection drops, when its stand-in begins and when
the person is back; and after each ``subscribe``, which seats are away now (:func:`presences`).
"""

from __future__ import annotations

import asyncio
import math

from cinco.core.engine.events import Viewer
from cinco.core.table.protocol import Accepted, Presence
from cinco.core.words.messages import freeze

from .connection import Frames
from .hosted import HostedTable, TableStep

#: Seconds a person's seat may wait for its first connection once the game starts (or the
#: server restarts) before the others are told it is away: a person who has just taken the
#: last seat is still opening the table's page, and clients reconnect after a restart.
#: The grace period itself runs from the start, as for a drop.
ARRIVAL = 5.0


def presence(hosted: HostedTable, seat: int, code: str) -> Presence:
    """The ``presence`` message *code* about *seat* of *hosted*, as of now."""
    params: dict[str, object] = {"name": hosted.seats[seat].name or f"Player {seat + 1}"}
    if code != "seat_back":
        params["bot"] = hosted.stand_in_bot
    until = hosted.away_until.get(seat)
    if code == "seat_away" and until is not None:
        left = max(0.0, until - asyncio.get_running_loop().time())
        params["seconds"] = math.ceil(left)
        params["grace"] = hosted.grace
    return Presence(hosted.id, seat, code, freeze(params))


def presences(hosted: HostedTable, viewer: Viewer) -> list[Presence]:
    """What *viewer* is told after it subscribes: each other seat the others were told is
    away, or played by its stand-in."""
    told = [presence(hosted, seat, "seat_away") for seat in sorted(hosted.told_away)]
    told += [presence(hosted, seat, "seat_stand_in") for seat in sorted(hosted.stand_ins)]
    return [message for message in told if message.seat != viewer]


def announce(hosted: HostedTable, seat: int, code: str) -> None:
    """Tell every viewer of *hosted* but *seat*'s own connection about *seat*."""
    message = presence(hosted, seat, code)
    frames = Frames()  # encoded once for every connection
    for connection in hosted.connections:
        if connection.viewer != seat:
            connection.deliver(message, frames)


class StandIns:
    """The stand-ins of every table of one server: *flush* passes a table's news on, *kick*
    asks its bots to move."""

    def __init__(self, *, flush: TableStep, kick: TableStep) -> None:
        self._flush = flush
        self._kick = kick

    def watch_seats(self, hosted: HostedTable) -> None:
        """Start the grace timer of every person's seat that has no connection (the game has
        just started, or the server has): the others are told after :data:`ARRIVAL`."""
        for index, seat in enumerate(hosted.seats):
            if seat.bot is None:
                self.absent(hosted, index, tell_after=ARRIVAL)

    def absent(self, hosted: HostedTable, seat: int, *, tell_after: float = 0.0) -> None:
        """*seat* may have nobody connected: after the table's grace, a bot plays for it.
        Everyone is told (``seat_away``, with the seconds left) now, or after *tell_after*
        seconds if the seat has no connection by then."""
        if hosted.table is None or hosted.state != "playing" or hosted.connected(seat):
            return
        if seat in hosted.stand_ins or seat in hosted.away:
            return
        loop = asyncio.get_running_loop()
        tell_after = min(tell_after, hosted.grace)
        hosted.away[seat] = loop.create_task(self._stand_in_later(hosted, seat, tell_after))
        hosted.away_until[seat] = loop.time() + hosted.grace
        if tell_after <= 0:
            self._tell_away(hosted, seat)

    @staticmethod
    def _tell_away(hosted: HostedTable, seat: int) -> None:
        hosted.told_away.add(seat)
        announce(hosted, seat, "seat_away")

    async def _stand_in_later(self, hosted: HostedTable, seat: int, tell_after: float) -> None:
        try:
            if tell_after > 0:
                await asyncio.sleep(tell_after)
                async with hosted.lock:
                    if (
                        hosted.away.get(seat) is asyncio.current_task()
                        and hosted.state == "playing"
                    ):
                        self._tell_away(hosted, seat)
            await asyncio.sleep(hosted.grace - tell_after)
            async with hosted.lock:
                table = hosted.table
                if hosted.away.get(seat) is not asyncio.current_task():
                    return
                del hosted.away[seat]
                hosted.away_until.pop(seat, None)
                hosted.told_away.discard(seat)
                if table is None or hosted.state != "playing" or hosted.connected(seat):
                    return
                reason = "left" if hosted.seats[seat].token_hash is None else "disconnected"
                answer = await asyncio.to_thread(
                    table.stand_in, seat, hosted.stand_in_bot, reason=reason
                )
                if isinstance(answer, Accepted):
                    hosted.stand_ins.add(seat)
                self._flush(hosted)
                if isinstance(answer, Accepted):
                    announce(hosted, seat, "seat_stand_in")
            self._kick(hosted)
        except asyncio.CancelledError:
            pass  # the person connected (or the table closed): nobody to stand in for

    async def back(self, hosted: HostedTable, seat: int) -> None:
        """*seat*'s person connected (holding the table's lock): no grace timer, no
        stand-in. Everyone else is told (``seat_back``) if they were told the seat was away."""
        task = hosted.away.pop(seat, None)
        hosted.away_until.pop(seat, None)
        was_away = seat in hosted.told_away or seat in hosted.stand_ins
        hosted.told_away.discard(seat)
        if task is not None:
            task.cancel()
        table = hosted.table
        if seat in hosted.stand_ins and table is not None:
            answer = await asyncio.to_thread(table.stand_in, seat, None, reason="back")
            if isinstance(answer, Accepted):
                hosted.stand_ins.discard(seat)
            self._flush(hosted)
        if was_away:
            announce(hosted, seat, "seat_back")
