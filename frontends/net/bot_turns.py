"""The bots' turns at ``cinco serve``: :class:`BotTurns` keeps one loop per table that lets
the bot to move play (a bot's seat, or a stand-in in a person's) until a person is to move,
the game ends, or the store refuses a turn (tried again, later and later)."""

from __future__ import annotations

import asyncio
import logging

from cinco.core.engine.events import SPECTATOR
from cinco.core.table.protocol import Accepted, Refused

from .hosted import HostedTable, TableStep

logger = logging.getLogger("cinco.server")

#: Seconds before a bot's turn the store refused is tried again (growing to the second).
STORE_RETRY, STORE_RETRY_MAX = 0.5, 10.0


def bot_to_move(hosted: HostedTable) -> bool:
    """Whether a bot may be to move at *hosted*, as its spectator's handle has it (it has
    every stored event once a request is answered): a bot's seat, or a person's a stand-in
    plays. ``True`` when that is not known (no spectator's handle)."""
    spectator = hosted.handles.get(SPECTATOR)
    if spectator is None:
        return True
    state = spectator.view
    if state.is_over:
        return False
    seat = state.current_seat
    return state.config.seats[seat].is_bot or seat in hosted.stand_ins


class BotTurns:
    """The bot loops of every table of one server: *flush* passes a table's news on, and
    *delay* is the pause after each bot's turn (seconds; people like to see them come)."""

    def __init__(self, *, flush: TableStep, delay: float) -> None:
        self._flush = flush
        self.delay = delay

    def kick(self, hosted: HostedTable) -> None:
        """Ask *hosted*'s bots to move (a loop that runs looks again before it ends)."""
        if hosted.table is None:
            return
        hosted.kicks += 1
        if hosted.bots is not None and not hosted.bots.done():
            return  # the running loop looks again before it ends
        if not bot_to_move(hosted):
            # A person is to move (most kicks: after each of their requests): asking the
            # table's thread would cost a round trip to hear "no_bot_to_move".
            return
        hosted.bots = asyncio.get_running_loop().create_task(self._loop(hosted))

    async def _loop(self, hosted: HostedTable) -> None:
        unstored = 0  # bot turns in a row the store refused
        while True:
            async with hosted.lock:
                table = hosted.table
                if table is None or hosted.state == "over":
                    return
                kicks = hosted.kicks
                answer = await asyncio.wrap_future(table.start_bot_turn())
                self._flush(hosted)
                if isinstance(answer, Accepted):
                    unstored = 0
                elif answer.code == "record_failed":
                    # Taken back, nothing stored: the bot tries again once the disk has room.
                    if not unstored:
                        logger.warning(
                            "table %s: a bot's turn was not stored: %s", hosted.id, answer
                        )
                    unstored += 1
                elif not self._look_again(hosted, answer, kicks):
                    return
                else:
                    continue  # asked again while it looked: a stand-in may have begun
            await self._pause(unstored)

    @staticmethod
    def _look_again(hosted: HostedTable, answer: Refused, kicks: int) -> bool:
        """Whether the loop looks once more after *answer* (no bot moved): only if the bots
        were asked again while it looked."""
        if answer.code != "no_bot_to_move":  # a person's turn, or the end
            logger.warning("table %s: a bot's turn was refused: %s", hosted.id, answer)
            return False
        return hosted.kicks != kicks

    async def _pause(self, unstored: int) -> None:
        if unstored:
            await asyncio.sleep(min(STORE_RETRY * unstored, STORE_RETRY_MAX))
        elif self.delay:
            await asyncio.sleep(self.delay)
