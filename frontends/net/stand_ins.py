"""Zombie mode at ``cinco serve``: :class:`StandIns` starts a grace timer for each person
with no connection (left, dropped, never came); once the table's ``grace`` seconds are up,
the table's stand-in bot plays their seat (:meth:`Table.stand_in`) until they connect
again."""

from __future__ import annotations

import asyncio

from cinco.core.table.protocol import Accepted

from .hosted import HostedTable, TableStep


class StandIns:
    """The stand-ins of every table of one server: *flush* passes a table's news on, *kick*
    asks its bots to move."""

    def __init__(self, *, flush: TableStep, kick: TableStep) -> None:
        self._flush = flush
        self._kick = kick

    def watch_seats(self, hosted: HostedTable) -> None:
        """Start the grace timer of every person's seat that has no connection."""
        for index, seat in enumerate(hosted.seats):
            if seat.bot is None:
                self.absent(hosted, index)

    def absent(self, hosted: HostedTable, seat: int) -> None:
        """*seat* may have nobody connected: after the table's grace, a bot plays for it."""
        if hosted.table is None or hosted.state != "playing" or hosted.connected(seat):
            return
        if seat in hosted.stand_ins or seat in hosted.away:
            return
        loop = asyncio.get_running_loop()
        hosted.away[seat] = loop.create_task(self._stand_in_later(hosted, seat))

    async def _stand_in_later(self, hosted: HostedTable, seat: int) -> None:
        try:
            await asyncio.sleep(hosted.grace)
            async with hosted.lock:
                table = hosted.table
                if hosted.away.get(seat) is not asyncio.current_task():
                    return
                del hosted.away[seat]
                if table is None or hosted.state != "playing" or hosted.connected(seat):
                    return
                reason = "left" if hosted.seats[seat].token_hash is None else "disconnected"
                answer = await asyncio.to_thread(
                    table.stand_in, seat, hosted.stand_in_bot, reason=reason
                )
                if isinstance(answer, Accepted):
                    hosted.stand_ins.add(seat)
                self._flush(hosted)
            self._kick(hosted)
        except asyncio.CancelledError:
            pass

    async def back(self, hosted: HostedTable, seat: int) -> None:
        """*seat*'s person connected (holding the table's lock): no grace timer, no
        stand-in."""
        task = hosted.away.pop(seat, None)
        if task is not None:
            task.cancel()
        table = hosted.table
        if seat in hosted.stand_ins and table is not None:
            answer = await asyncio.to_thread(table.stand_in, seat, None, reason="back")
            if isinstance(answer, Accepted):
                hosted.stand_ins.discard(seat)
            self._flush(hosted)
