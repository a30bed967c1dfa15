"""Turn timers at ``cinco serve``: :class:`TurnTimers` runs the clock of the person to move
(:class:`~.clock.Clocks`, on the server's monotonic time), tells everyone as ``clock``
messages, stores the readings at every change, and, when a person's time runs out, has the
table's stand-in bot play that turn for them (:meth:`Table.play_for`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from cinco.core.engine.events import SPECTATOR
from cinco.core.table.protocol import Accepted, Clock

from .clock import Clocks, TimeControl
from .connection import Frames
from .hosted import HostedTable, TableStep
from .storage import LobbyStore

logger = logging.getLogger("cinco.server")

#: The longest a table's timer task sleeps between two looks at its clocks (seconds).
CLOCK_TICK = 1.0


class TurnTimers:
    """The turn timers of every table of one server. *now* is their monotonic time (a fake
    one in tests) and *tick* the longest their watcher sleeps; *store* gives the server's
    store, *flush* passes a table's news on, *kick* asks its bots to move."""

    def __init__(
        self,
        *,
        now: Callable[[], float],
        tick: float,
        store: Callable[[], LobbyStore],
        flush: TableStep,
        kick: TableStep,
    ) -> None:
        self.now = now
        self.tick = tick
        self._store = store
        self._flush = flush
        self._kick = kick

    def start(self, hosted: HostedTable) -> None:
        timer = hosted.settings.get("timer")
        if not isinstance(timer, dict) or hosted.clocks is not None:
            return
        control = TimeControl.of(timer.get("reserve"), timer.get("increment", 0))
        hosted.clocks = Clocks(control, len(hosted.seats), now=self.now)
        hosted.timer = asyncio.get_running_loop().create_task(self._watch(hosted))

    def resume(self, hosted: HostedTable) -> None:
        """Set a restored table's clocks from the readings stored at its last change (or at
        the last stop). Time the server was down is nobody's; after a ``kill -9`` the
        person to move gets back what they had spent of the turn under way."""
        clocks = hosted.clocks
        spectator = hosted.handles.get(SPECTATOR)
        if clocks is None or spectator is None:
            return
        readings = self._store().clocks(hosted.id)
        if readings is None:
            return
        turn = readings.get("turn")
        moved = isinstance(turn, int) and turn != spectator.view.turn
        if not clocks.resume(readings, moved=moved):
            logger.warning("table %s: its stored clocks do not fit: they start again", hosted.id)

    def save(self, hosted: HostedTable) -> None:
        clocks = hosted.clocks
        spectator = hosted.handles.get(SPECTATOR)
        if clocks is None or spectator is None:
            return
        readings = {"turn": spectator.view.turn, **clocks.readings()}
        try:
            # Not waited for: the event loop serves every table. A crash may lose this
            # turn's readings; a restart then finds the last turn's (see resume).
            self._store().set_clocks(hosted.id, readings, wait=False)
        except Exception:  # any store's error: the game goes on, a restart loses this turn
            logger.exception("table %s: its clocks could not be stored", hosted.id)

    def message(self, hosted: HostedTable) -> Clock | None:
        clocks = hosted.clocks
        spectator = hosted.handles.get(SPECTATOR)
        if clocks is None or spectator is None:
            return None
        return Clock(
            hosted.id,
            spectator.seq,
            clocks.snapshot(),
            clocks.running,
            clocks.control.reserve,
            clocks.control.increment,
        )

    def sync(self, hosted: HostedTable) -> None:
        """Run the clock of the person to move (none while a bot moves, for a bot's seat or
        a person's), after any change; tell everyone when that changed."""
        clocks = hosted.clocks
        spectator = hosted.handles.get(SPECTATOR)
        if clocks is None or spectator is None:
            return
        state = spectator.view
        running: int | None = state.current_seat
        seats = state.config.seats
        if state.is_over or seats[state.current_seat].is_bot or running in hosted.stand_ins:
            running = None
        key = (state.turn, running)
        if key == hosted.clock_key:
            return
        moved = hosted.clock_key is not None and hosted.clock_key[0] != state.turn
        clocks.stop(moved=moved)
        clocks.start(running)
        hosted.clock_key = key
        self.save(hosted)
        clock = self.message(hosted)
        assert clock is not None
        frames = Frames()  # encoded once for every connection
        for connection in hosted.connections:
            connection.deliver(clock, frames)

    async def _watch(self, hosted: HostedTable) -> None:
        """Watch the running clock; when it reaches zero, a bot moves for its player."""
        clocks = hosted.clocks
        assert clocks is not None
        while hosted.state != "over":
            left = clocks.until_expiry()
            await asyncio.sleep(self.tick if left is None else min(left, self.tick))
            async with hosted.lock:
                seat = clocks.expired()
                table = hosted.table
                if seat is None or table is None or hosted.state == "over":
                    continue
                answer = await asyncio.to_thread(
                    table.play_for, seat, hosted.stand_in_bot, reason="timeout"
                )
                if isinstance(answer, Accepted):
                    clocks.run_out()
                else:
                    logger.warning(
                        "table %s: no bot could move for seat %s: %s", hosted.id, seat, answer
                    )
                    clocks.stop(moved=False)
                self._flush(hosted)
            self._kick(hosted)
