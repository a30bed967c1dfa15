"""Bots that think in a process of their own.

A search bot spends its whole budget in Python code, and in the same process that holds the
global interpreter lock from the app's drawing thread: on a tablet the board stutters while
``ismcts`` thinks. A :class:`BotProcess` is one worker process (started with ``spawn``, so it
shares nothing with its parent but what it is sent) holding the bots of one registry. The
parent's :class:`ProcessBot` sends each ``choose`` the seat's view and legal actions, the only
things a bot is ever given, and waits on a pipe, which leaves the lock to the app.

The worker builds its own registry (the same installed plugins) and, from the seat's
configuration (which has no seed), its own rules, so nothing of the referee's crosses over. A
worker that dies or answers with garbage raises in ``choose``: the game then replaces the move
as for any failing bot (``bot_replaced``).

Where processes cannot be started (Android's Python has no working ``spawn``), or with
``CINCO_BOT_PROCESS=0``, :func:`processes_available` is false and bots think in threads as
before.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cinco.core.engine.faults import user_interrupt
from cinco.core.engine.oracle import RulesOracle
from cinco.core.host import thinking
from cinco.core.host.declarations import BotContext

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from cinco.core.engine.commands import Command
    from cinco.core.engine.legal import LegalActions
    from cinco.core.engine.state import GameState
    from cinco.core.host.declarations import Bot
    from cinco.core.host.registry import Registry

#: Seconds the worker may take to start (import Cinco, load plugins) and answer its first call.
START_TIMEOUT = 60.0
#: Seconds beyond the bot's own budget a move may take before the worker counts as hung.
MOVE_GRACE = 30.0
#: Seconds beyond a caller's limit (:mod:`cinco.core.host.thinking`) before the worker is killed.
LIMIT_GRACE = 1.0
#: How often a wait that may be called off looks whether it was (seconds).
STOP_POLL = 0.05


class BotProcessError(RuntimeError):
    """The bot's process died, hung, or raised."""


def processes_available() -> bool:
    """Whether bots may think in a process of their own here."""
    if os.environ.get("CINCO_BOT_PROCESS", "1") == "0":
        return False
    return "ANDROID_ARGUMENT" not in os.environ and sys.platform not in ("emscripten", "wasi")


class BotProcess:
    """One worker process holding bots; calls to it are serialised (one move at a time).

    A worker that has died is started again at the next call, and its bots made again (a bot
    keeps nothing between moves that it cannot rebuild from its view)."""

    def __init__(self, make_registry: Callable[[], Registry]) -> None:
        #: Makes the worker's own registry there (the same installed plugins): a callable that
        #: pickles by name (``functools.partial(Registry, ...)``), so that this module needs
        #: no registry of its own and the registry may start its bots' process.
        self._make_registry = make_registry
        self._lock = threading.Lock()
        self._keys = itertools.count()
        self._made: dict[int, tuple[Any, ...]] = {}
        self._start()
        atexit.register(self.close)

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process = context.Process(
            target=_serve, args=(child, self._make_registry), daemon=True, name="cinco-bots"
        )
        self._process.start()
        child.close()

    @property
    def pid(self) -> int | None:
        """The worker's process id (for tests and ``ps``)."""
        return self._process.pid

    def _ask(
        self, request: tuple[Any, ...], timeout: float, stop: threading.Event | None = None
    ) -> Any:
        try:
            self._conn.send(request)
            if not self._answered(timeout, stop):
                # Killed, not left thinking: the next call starts a new worker.
                self._process.kill()
                self._process.join(5)
                if stop is not None and stop.is_set():
                    raise BotProcessError("the move was called off")
                raise BotProcessError(f"the bots' process gave no answer in {timeout:.0f} s")
            status, value = self._conn.recv()
        except (EOFError, OSError) as exc:
            raise BotProcessError(f"the bots' process has stopped ({exc})") from None
        if status == "error":
            raise BotProcessError(value)
        return value

    def _answered(self, timeout: float, stop: threading.Event | None) -> bool:
        """Whether the worker answered within *timeout* seconds, before *stop* was set."""
        if stop is None:
            return self._conn.poll(timeout)
        deadline = time.monotonic() + timeout
        while not stop.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if self._conn.poll(min(left, STOP_POLL)):
                return True
        return False

    def call(
        self, request: tuple[Any, ...], timeout: float, stop: threading.Event | None = None
    ) -> Any:
        with self._lock:
            if not self._process.is_alive():
                self._conn.close()
                self._start()
                for made in self._made.values():
                    self._ask(made, START_TIMEOUT)
            return self._ask(request, timeout, stop)

    def create(self, name: str, context: BotContext) -> ProcessBot:
        key = next(self._keys)
        # Everything but the rules oracle, which the worker makes from its own registry.
        fields = (context.seat, context.config, context.level, context.seed)
        budgets = (context.time_budget, context.iterations)
        request = ("create", key, name, fields, budgets)
        self.call(request, START_TIMEOUT)
        self._made[key] = request
        return ProcessBot(self, key, context.time_budget)

    def close(self) -> None:
        with self._lock:
            if self._process.is_alive():
                with contextlib.suppress(OSError, ValueError):
                    self._conn.send(("stop",))
                self._process.join(2)
                if self._process.is_alive():
                    self._process.kill()
            self._conn.close()


class ProcessBot:
    """A bot whose ``choose`` runs in a :class:`BotProcess`."""

    def __init__(self, process: BotProcess, key: int, budget: float | None) -> None:
        self._process, self._key = process, key
        self._timeout = (budget or 10.0) + MOVE_GRACE

    def choose(self, view: GameState, legal: LegalActions) -> Command:
        limit = thinking.current()
        command: Command
        if limit is None:
            command = self._process.call(("choose", self._key, view, legal, None), self._timeout)
            return command
        # Someone waits (a hint): the worker thinks to the same deadline, and is killed if
        # it does not answer by then (plus a margin for the pipe) or the wait is called off.
        left = limit.remaining()
        request = ("choose", self._key, view, legal, left)
        command = self._process.call(request, min(self._timeout, left + LIMIT_GRACE), limit.stop)
        return command

    def __repr__(self) -> str:
        return f"ProcessBot(key={self._key})"


def _serve(conn: Connection, make_registry: Callable[[], Registry]) -> None:
    """The worker's loop: make bots, and answer their moves, until told to stop."""
    # The app's drawing comes first: a search may take every cycle the screen leaves it, but
    # never make the board stutter (the bot's budget is wall-clock time either way).
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    registry = make_registry()
    bots: dict[int, Bot] = {}
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        try:
            if request[0] == "stop":
                return
            if request[0] == "create":
                _op, key, name, (seat, config, level, seed), (budget, iterations) = request
                # The rules come from this process's own registry, for the seat's configuration.
                context = BotContext(
                    seat=seat,
                    config=config,
                    rules=RulesOracle.of(registry.rules_for(config)),
                    level=level,
                    seed=seed,
                    time_budget=budget,
                    iterations=iterations,
                )
                bots[key] = registry.create_bot(context, name)
                conn.send(("ok", None))
            else:
                _op, key, view, legal, seconds = request
                if seconds is None:
                    conn.send(("ok", bots[key].choose(view, legal)))
                else:  # the caller's limit, as this process's own
                    with thinking.limited(seconds, threading.Event()):
                        conn.send(("ok", bots[key].choose(view, legal)))
        except BaseException as exc:  # reported to the parent, whose game replaces the move
            if user_interrupt(exc):
                raise
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
