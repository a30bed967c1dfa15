"""The plumbing between a table's thread and everyone else: the :class:`TableChannel` that
carries requests (the host's :mod:`~cinco.core.table.requests`, the viewers' seat-protocol
messages) into the thread and their answers back as futures, the thread's loop
(:func:`serve_table`), each viewer's :class:`ViewerStream` (its inbox and where its stream
stands), and the :class:`RunningHints` another thread may call off."""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar, cast

from cinco.core.engine.config import GameConfig
from cinco.core.engine.events import SPECTATOR, Viewer
from cinco.core.engine.projection import StreamCursor
from cinco.core.host.thinking import Limit, limited
from cinco.core.table.protocol import Message, Refused
from cinco.core.table.requests import CloseTable, TableRequest

if TYPE_CHECKING:
    from cinco.core.table.referee import Referee

__all__ = [
    "ANSWER_TIMEOUT",
    "QueuedRequest",
    "RunningHints",
    "TableChannel",
    "TableReady",
    "ViewerStream",
    "serve_table",
]

#: How long a handle waits for the table to answer one request (a bot's move included).
ANSWER_TIMEOUT = 600.0

Answer = TypeVar("Answer")


@dataclass
class ViewerStream:
    """What the table keeps for one viewer's handle: who it is, the inbox the table puts its
    stream (envelopes, prompts) into, and where that stream stands (:class:`StreamCursor`)."""

    viewer: Viewer
    inbox: queue.SimpleQueue[Message]
    streaming: bool = False
    cursor: StreamCursor = field(default_factory=StreamCursor)


class RunningHints:
    """The hints a table's thread is thinking on (one at most: it does one thing at a time),
    so that another thread can call them off: the seat that asked left, or the table closes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[str | None, threading.Event] = {}
        self._closing = False

    @contextlib.contextmanager
    def running(self, stream: str | None, seconds: float) -> Iterator[Limit]:
        """Think for *stream* (a viewer stream's id) for *seconds* at most, unless called
        off first."""
        stop = threading.Event()
        with self._lock:
            if self._closing:
                stop.set()
            self._running[stream] = stop
        try:
            with limited(seconds, stop) as limit:
                yield limit
        finally:
            with self._lock:
                self._running.pop(stream, None)

    def call_off(self, stream: str | None = None) -> None:
        """Stop the thinking for *stream* (``None``: anyone's) now."""
        with self._lock:
            for key, stop in self._running.items():
                if stream is None or key == stream:
                    stop.set()

    def close(self) -> None:
        """Stop every thinking now, and any started from now on at once."""
        with self._lock:
            self._closing = True
        self.call_off()


@dataclass(frozen=True)
class TableReady:
    """What a table's thread tells its host once the referee is made."""

    table_id: str
    #: The configuration as everyone may see it: no seed.
    config: GameConfig
    thread_id: int


@dataclass(frozen=True)
class QueuedRequest:
    """One request waiting for the table's thread, and where its answer goes."""

    request: TableRequest[Any]
    answer: Future[Any]


def serve_table(
    requests: queue.Queue[QueuedRequest],
    setup: Callable[[], Referee],
    ready: Future[TableReady],
    hints: RunningHints,
) -> None:
    """The table's thread: make the referee, then answer requests one at a time."""
    try:
        referee = setup()
    except BaseException as exc:
        ready.set_exception(exc)
        return
    referee.hints = hints
    config = referee.game.view(SPECTATOR).config
    ready.set_result(TableReady(referee.table_id, config, threading.get_ident()))
    del setup
    while referee.open:
        queued = requests.get()
        if not queued.answer.set_running_or_notify_cancel():
            continue  # its caller gave up (an awaiting task was cancelled): nothing was done
        try:
            queued.answer.set_result(queued.request.carry_out(referee))
        except BaseException as exc:  # a bug must reach the caller, never kill the table
            queued.answer.set_exception(exc)


class TableChannel:
    """The request queue into one table's thread, shared by its host and its handles.

    A table that is closed, or asked from its own thread (a hook, a bot), does not carry a
    request out: it answers ``Refused("table_closed")`` or ``Refused("busy")``, whatever was
    asked."""

    __slots__ = ("_closed", "_hints", "_lock", "_queue", "_thread_id")

    def __init__(
        self, requests: queue.Queue[QueuedRequest], thread_id: int, hints: RunningHints
    ) -> None:
        self._queue = requests
        self._hints = hints
        self._closed = threading.Event()
        self._thread_id = thread_id
        # CloseTable is the last request ever queued: one sent from another thread while the
        # table closes is answered table_closed, never left waiting behind the closed table.
        self._lock = threading.Lock()

    @classmethod
    def start(cls, setup: Callable[[], Referee]) -> tuple[TableChannel, TableReady]:
        """Start a table's thread, which makes its referee with *setup*; the channel into
        it, and what it said once ready (raises what *setup* raised)."""
        requests: queue.Queue[QueuedRequest] = queue.Queue()
        ready: Future[TableReady] = Future()
        hints = RunningHints()
        thread = threading.Thread(
            target=serve_table,
            args=(requests, setup, ready, hints),
            name="cinco-table",
            daemon=True,
        )
        thread.start()
        started = ready.result(ANSWER_TIMEOUT)
        return cls(requests, started.thread_id, hints), started

    def call(self, request: TableRequest[Answer]) -> Answer:
        """Carry out *request* in the table's thread and wait for its answer."""
        return self.send(request).result(ANSWER_TIMEOUT)

    def send(self, request: TableRequest[Answer]) -> Future[Answer]:
        """Queue *request* for the table's thread; its answer comes in the future."""
        answer: Future[Answer] = Future()
        with self._lock:
            if self._closed.is_set():
                answer.set_result(cast(Answer, Refused("table_closed")))
            elif threading.get_ident() == self._thread_id:
                # From inside a hook or a bot: the table is busy with the request that called it.
                answer.set_result(cast(Answer, Refused("busy")))
            else:
                self._queue.put(QueuedRequest(request, answer))
        return answer

    def call_off(self, stream: str | None = None, *, closing: bool = False) -> None:
        """Stop a hint the table is thinking on for *stream* (``None``: anyone's) now; with
        *closing*, every hint now and from now on."""
        if closing:
            self._hints.close()
        else:
            self._hints.call_off(stream)

    def close(self) -> None:
        self._hints.close()  # a hint thinking now must not hold the close up
        with self._lock:
            if self._closed.is_set():
                return
            if threading.get_ident() == self._thread_id:
                self._closed.set()  # from inside the table: nothing more will be asked of it
                return
            answer: Future[None] = Future()
            self._queue.put(QueuedRequest(CloseTable(), answer))
            self._closed.set()
        answer.result(ANSWER_TIMEOUT)
