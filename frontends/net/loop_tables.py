"""Tables the server's event loop drives: no thread per table.

A :class:`~cinco.core.table.table.Table` normally lives in a thread of its own, and every
request crosses to it and back (:mod:`cinco.core.table.channel`). At a server that is two
thread switches per request, and a third and fourth for the store's writer, each a wake-up
of a sleeping thread and a hand-over of the interpreter's lock: the largest cost of a move
(docs/server.md, *Cost per action*). Here a :class:`LoopChannel` stands in for the table's
channel: the event loop carries a request out itself (the engine takes tens of microseconds)
and only what thinks — a bot's turn, a stand-in's, a hint — goes to a small pool of threads.

Durable before confirmed still holds. The table's store is an
:class:`~cinco.frontends.net.store.SqliteSink` in *staged* mode: the referee's commit sets the
turn's events aside, and once the request is carried out they go to the writer as one
transaction, without waiting; the request's answer (a future) is settled only once the writer
has them on disk, and the server passes nothing of the turn on before that (it holds the
table's lock, and flushes the handles after the answer). Turns of many tables share a commit.
If the write fails, the table is rebuilt from what is stored (as a restarted server does) and
the request is answered ``record_failed``: nobody was told of the turn. The server then opens
its handles again (:attr:`LoopChannel.generation` tells it so).

Every request to one table is made holding that table's lock (:class:`~.hosted.HostedTable`),
so the referee is never used by two threads at once; a lock here makes sure of it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, TypeVar, cast

from cinco.core.engine.config import GameConfig
from cinco.core.engine.events import SPECTATOR, Event
from cinco.core.host.registry import Registry
from cinco.core.table.channel import RunningHints, TableChannel
from cinco.core.table.protocol import Hint, Refused
from cinco.core.table.referee import Referee, dealt_referee, restored_referee
from cinco.core.table.requests import (
    CloseTable,
    PlayBotTurn,
    PlayFor,
    SaveAs,
    StandIn,
    TableRequest,
    ViewerRequest,
)
from cinco.core.table.table import Table
from cinco.core.words.messages import freeze

from .store import SqliteSink
from .writer import CannotWrite, Job

__all__ = ["LoopChannel", "ThinkingPool", "create_table", "restore_table"]

Answer = TypeVar("Answer")

logger = logging.getLogger("cinco.server")


class ThinkingPool:
    """A few daemon threads where bots and hints think: a bot that heeds no limit must not
    keep the process from ending (``concurrent.futures`` joins its threads at exit), as the
    table's own daemon thread did not. *size* think at once; the rest wait their turn."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._stopped = False

    def submit(self, job: Callable[[], None]) -> None:
        with self._lock:
            if self._stopped:
                raise RuntimeError("the server is stopping")
            if len(self._threads) < self._size:  # one more, until there are size
                thread = threading.Thread(target=self._run, name="cinco-thinking", daemon=True)
                self._threads.append(thread)
                thread.start()
            self._jobs.put(job)

    def shutdown(self) -> None:
        """Take no more jobs; the threads end once they are free (not waited for)."""
        with self._lock:
            self._stopped = True
            for _thread in self._threads:
                self._jobs.put(None)

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                job()  # each job settles its own future, errors included
            except Exception:  # the store closed under it (the server stops): go on
                logger.exception("a table's request failed in the thinking pool")


def _thinks(request: TableRequest[Any]) -> bool:
    """Whether *request* may take long (a bot thinks, a file is written): it goes to the pool."""
    if isinstance(request, ViewerRequest):
        return isinstance(request.message, Hint)
    return isinstance(request, PlayBotTurn | PlayFor | StandIn | SaveAs | CloseTable)


class LoopChannel(TableChannel):
    """A table's channel whose requests the event loop *loop* carries out itself (those that
    think go to *pool*); answers come once their events are stored."""

    __slots__ = (
        "_carrying",
        "_done",
        "_loop",
        "_owner",
        "_pool",
        "_referee",
        "_registry",
        "_sink",
        "_state",
        "_undo",
        "generation",
    )

    def __init__(
        self,
        referee: Referee,
        sink: SqliteSink,
        *,
        registry: Registry | None,
        undo: bool,
        loop: asyncio.AbstractEventLoop,
        pool: ThinkingPool,
    ) -> None:
        # Not TableChannel.__init__: there is no queue and no thread of the table's own.
        self._referee = referee
        self._sink = sink
        self._registry = registry
        self._undo = undo
        self._loop = loop
        self._pool = pool
        self._hints = RunningHints()
        referee.hints = self._hints
        self._carrying = threading.RLock()  # the referee, one request at a time
        self._state = threading.Lock()
        self._done = False
        self._owner: int | None = None  # the thread that carries a request out now
        #: How often the table was rebuilt from the store (a write failed): the server opens
        #: its handles again when this changes.
        self.generation = 0

    @property
    def referee(self) -> Referee:
        return self._referee

    # -- TableChannel --------------------------------------------------------------------------

    def call(self, request: TableRequest[Answer]) -> Answer:
        return self.send(request).result()

    def send(self, request: TableRequest[Answer]) -> Future[Answer]:
        answer: Future[Answer] = Future()
        answer.set_running_or_notify_cancel()
        refusal = self._refusal()
        if refusal is not None:
            answer.set_result(cast(Answer, refusal))
        elif not self._on_loop():
            self._carry_and_wait(request, answer)  # a worker thread: it may wait for the disk
        elif _thinks(request):
            try:
                self._pool.submit(functools.partial(self._carry_and_wait, request, answer))
            except RuntimeError:  # the server stops
                answer.set_result(cast(Answer, Refused("table_closed")))
        else:
            self._carry_on_loop(request, answer)
        return answer

    def close(self) -> None:
        self._hints.close()  # a hint thinking now must not hold the close up
        with self._state:
            if self._done:
                return
        answer: Future[None] = Future()
        answer.set_running_or_notify_cancel()
        self._carry_and_wait(CloseTable(), answer)
        with self._state:
            self._done = True
        answer.result()

    # -- carrying requests out -----------------------------------------------------------------

    def _refusal(self) -> Refused | None:
        with self._state:
            if self._done:
                return Refused("table_closed")
            if self._owner == threading.get_ident():
                # From inside a hook or a bot: the table is busy with the request that called it.
                return Refused("busy")
        return None

    def _on_loop(self) -> bool:
        try:
            return asyncio.get_running_loop() is self._loop
        except RuntimeError:
            return False

    def _carry(self, request: TableRequest[Answer]) -> tuple[Answer | None, BaseException | None]:
        with self._carrying:
            with self._state:
                self._owner = threading.get_ident()
            try:
                return request.carry_out(self._referee), None
            except BaseException as exc:  # a bug must reach the caller, never kill the table
                return None, exc
            finally:
                with self._state:
                    self._owner = None

    def _carry_on_loop(self, request: TableRequest[Answer], answer: Future[Answer]) -> None:
        """Carry *request* out now, in the event loop; *answer* is settled once its events
        are on disk (by the writer's thread: the loop does not wait)."""
        result, error = self._carry(request)
        referee = self._referee

        def then(job: Job) -> None:  # in the writer's thread
            if job.error is None:
                self._sink.staged_done(job)
                _settle(answer, result, error)
            else:  # rebuilt in the loop, which waits for nothing meanwhile: it holds the lock
                self._loop.call_soon_threadsafe(self._failed, job, referee, answer)

        job = self._sink.stage(then)
        if job is None:
            _settle(answer, result, error)

    def _failed(self, job: Job, referee: Referee, answer: Future[Any]) -> None:
        with self._carrying:
            answer.set_result(self._take_back(job, referee))

    def _carry_and_wait(self, request: TableRequest[Answer], answer: Future[Answer]) -> None:
        """Carry *request* out in this thread and wait for its events to be on disk."""
        try:
            self._carry_and_wait_for(request, answer)
        except BaseException as exc:  # the store is closed (the server stops): say so
            if not answer.done():
                answer.set_exception(exc)
            raise

    def _carry_and_wait_for(self, request: TableRequest[Answer], answer: Future[Answer]) -> None:
        with self._carrying:
            result, error = self._carry(request)
            job = self._sink.stage(lambda job: None)
            if job is not None:
                job.wait()
                if job.error is not None:
                    answer.set_result(cast(Answer, self._take_back(job, self._referee)))
                    return
                self._sink.staged_done(job)
        _settle(answer, result, error)

    def _take_back(self, job: Job, referee: Referee) -> Refused:
        """The write of a request's events failed: none of them is stored, nobody was told
        of them. The table goes back to what is stored (a new referee; its handles are
        opened again by the server), and the request is answered ``record_failed``."""
        self._sink.staged_done(job)
        error = job.error
        assert error is not None
        fresh = referee.restarted(self._sink.stored, self._sink)
        fresh.hints = self._hints
        fresh.failure = CannotWrite(f"database: {error}")
        fresh.frontend = referee.frontend
        self._referee = fresh
        self.generation += 1
        return Refused("record_failed", freeze({"error": fresh.game.scrub(str(fresh.failure))}))


def _settle(answer: Future[Answer], result: Answer | None, error: BaseException | None) -> None:
    if error is not None:
        answer.set_exception(error)
    else:
        answer.set_result(cast(Answer, result))


def _start(
    setup: Callable[[], tuple[Referee, SqliteSink]],
    *,
    registry: Registry | None,
    undo: bool,
    loop: asyncio.AbstractEventLoop,
    pool: ThinkingPool,
) -> tuple[Table, LoopChannel]:
    """A table from *setup*'s referee, once what it stored is on disk (in a worker thread:
    it waits for the disk). :class:`CannotWrite` if that failed: there is no table."""
    referee, sink = setup()
    job = sink.stage(lambda job: None)
    if job is not None:
        job.wait()
        sink.staged_done(job)
        if job.error is not None:
            raise CannotWrite(f"database: {job.error}")
    channel = LoopChannel(referee, sink, registry=registry, undo=undo, loop=loop, pool=pool)
    config: GameConfig = referee.game.view(SPECTATOR).config  # as everyone sees it: no seed
    return Table(channel, referee.table_id, config, []), channel


def create_table(
    config: GameConfig,
    *,
    registry: Registry | None,
    sink: Callable[[], SqliteSink],
    table_id: str,
    undo: bool,
    loop: asyncio.AbstractEventLoop,
    pool: ThinkingPool,
) -> tuple[Table, LoopChannel]:
    """A new table for *config* (dealt, the deal stored), as
    :meth:`Table.create <cinco.core.table.table.Table.create>` with a sink makes one, driven by
    *loop*. Call it from a worker thread."""

    def setup() -> tuple[Referee, SqliteSink]:
        store = sink()
        # The sink commits in groups: whether the deal is stored is known once _start waits.
        referee, _failed = dealt_referee(
            config, registry=registry, table_id=table_id, sink=store, undo=undo
        )
        return referee, store

    return _start(setup, registry=registry, undo=undo, loop=loop, pool=pool)


def restore_table(
    events: Sequence[Event],
    sink: Callable[[int], SqliteSink],
    *,
    table_id: str,
    registry: Registry | None,
    undo: bool,
    loop: asyncio.AbstractEventLoop,
    pool: ThinkingPool,
) -> tuple[Table, LoopChannel]:
    """A table going on from its stored *events*, as :meth:`Table.restore
    <cinco.core.table.table.Table.restore>` makes one (a turn cut short is played again),
    driven by *loop*. Call it from a worker thread."""
    opened: list[SqliteSink] = []

    def open_sink(keep: int) -> SqliteSink:
        opened.append(sink(keep))
        return opened[-1]

    def setup() -> tuple[Referee, SqliteSink]:
        referee = restored_referee(
            events, registry=registry, table_id=table_id, sink=open_sink, undo=undo
        )
        return referee, opened[-1]

    return _start(setup, registry=registry, undo=undo, loop=loop, pool=pool)
