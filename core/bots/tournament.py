"""Tournaments between bots (``cinco arena``): the games of an arena
(:mod:`cinco.core.bots.matches`) played in batches on this machine's worker processes or any
executor (a Dask cluster's), their results collected in the games' order, stopped early by the
sequential test, and reported (:mod:`cinco.core.bots.statistics`).
"""

from __future__ import annotations

import itertools
import math
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait

from cinco.core.bots.isolation import Bench, play_isolated
from cinco.core.bots.matches import (
    ArenaSpec,
    GameResult,
    Job,
    check,
    game_config,
    game_plan,
    record_path,
)
from cinco.core.bots.statistics import Report, Sprt, SprtTally
from cinco.core.engine.events import Notice
from cinco.core.game.game import Game
from cinco.core.host.registry import default_registry
from cinco.core.records.recording import RecordWriter


def batches(plan: Iterable[Job], size: int) -> Iterator[tuple[Job, ...]]:
    """*plan* cut into tasks of *size* games (the last one may be shorter), lazily.

    >>> [len(b) for b in batches(((k, 0, (0, 1)) for k in range(7)), 3)]
    [3, 3, 1]
    """
    games = iter(plan)
    while chunk := tuple(itertools.islice(games, size)):
        yield chunk


def auto_batch(games: int, slots: int) -> int:
    """Games per task when none is asked for: enough that handing out a task costs little
    next to playing it, few enough that every worker gets about eight tasks (so that the
    last ones end together), at most :data:`MAX_AUTO_BATCH`.

    >>> auto_batch(100, 2), auto_batch(10, 4), auto_batch(10**6, 8)
    (6, 1, 16)
    """
    return max(1, min(MAX_AUTO_BATCH, games // (max(1, slots) * 8)))


#: The largest batch :func:`auto_batch` picks.
MAX_AUTO_BATCH = 16
#: Tasks handed to the executor ahead of those being played, per worker.
AHEAD = 2


def play_one(spec: ArenaSpec, index: int, seed: int, arrangement: tuple[int, ...]) -> GameResult:
    """Play one arena game (in whichever process runs it)."""
    if spec.isolate:
        return play_isolated(spec, index, seed, arrangement)
    config = game_config(spec, seed, arrangement)
    plugins = []
    if spec.records is not None:
        plugins.append(RecordWriter(record_path(spec, index)))
    game = Game.new(config, registry=default_registry(), plugins=plugins)
    try:
        game.play_bots()
    finally:
        game.close()  # cinco_game_closed, as every command that plays games calls it
    result = game.state.result
    assert result is not None  # bot-only games always end (E4)
    per_team = [0] * config.teams
    for event in game.events:
        if type(event) is Notice and event.code == "bot_replaced" and event.seat is not None:
            per_team[config.team_of(event.seat)] += 1
    return GameResult(
        index=index,
        seed=seed,
        teams=arrangement,
        winner=result.winner,
        reason=result.reason,
        turns=game.state.turn,
        first_team=config.team_of(0),
        replaced=sum(per_team),
        replaced_teams=tuple(per_team),
    )


def play_batch(spec: ArenaSpec, jobs: Sequence[Job]) -> list[GameResult]:
    """Play a task's games, one after the other (in a worker: a process of this machine's
    pool, or a Dask worker anywhere). Isolated bots keep their processes for the task."""
    if spec.isolate:
        with Bench() as bench:
            return [play_isolated(spec, *job, bench=bench) for job in jobs]
    return [play_one(spec, *job) for job in jobs]


def _watch_parent(parent: int) -> None:
    """In a worker: end this process when the tournament's process is gone (killed)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _worker_start(parent: int) -> None:
    """Workers leave Ctrl-C to the main process, end on SIGTERM, and end when it is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def local_pool(workers: int) -> ProcessPoolExecutor:
    """*workers* processes of this machine, ended with the tournament's process."""
    return ProcessPoolExecutor(
        max_workers=workers, initializer=_worker_start, initargs=(os.getpid(),)
    )


def end_pool(pool: ProcessPoolExecutor) -> None:
    """Drop the tasks not started, and end the worker processes now."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=2)


class _Collector:
    """The results as they come in, in any order. The SPRT (if any) reads them in the games'
    order, so that it stops at the same game whatever the backend, the workers and the
    batches: results past that game are set aside."""

    def __init__(self, sprt: Sprt | None, on_result: Callable[[GameResult], None] | None) -> None:
        self.sprt = sprt
        self.on_result = on_result
        self.found: dict[int, GameResult] = {}
        self.tally = SprtTally()
        self.next = 0
        #: The index of the game after which the SPRT decided.
        self.stop_at: int | None = None

    @property
    def done(self) -> bool:
        return self.stop_at is not None

    def add(self, results: Iterable[GameResult]) -> None:
        for result in results:
            if self.stop_at is not None and result.index > self.stop_at:
                continue
            self.found[result.index] = result
            if self.on_result is not None:
                self.on_result(result)
        sprt = self.sprt
        while sprt is not None and self.stop_at is None and self.next in self.found:
            self.tally = self.tally.add(self.found[self.next])
            if sprt.verdict(self.tally.wins, self.tally.losses) is not None:
                self.stop_at = self.next
            self.next += 1

    def results(self) -> list[GameResult]:
        last = self.stop_at if self.stop_at is not None else math.inf
        return [self.found[k] for k in sorted(self.found) if k <= last]


def run(
    spec: ArenaSpec,
    *,
    jobs: int = 1,
    executor: Executor | None = None,
    slots: int | None = None,
    batch: int | None = None,
    sprt: Sprt | None = None,
    on_result: Callable[[GameResult], None] | None = None,
) -> Report:
    """Play the tournament and report on it.

    The games are played on *executor* (any :class:`concurrent.futures.Executor`: a Dask
    cluster's, say; *slots* is how many tasks it runs at once), or else in *jobs* worker
    processes of this machine (1: in this process). They go out *batch* games per task
    (default: :func:`auto_batch`), never more than ``AHEAD`` tasks per slot ahead, so that
    ``--games`` may be as large as one likes. *on_result* is called as each game ends (for a
    progress bar). With *sprt*, the match stops at the first game after which the test
    decides. The report is the same whatever the executor, the workers and the batches.

    Interrupted (Ctrl-C, SIGTERM, a failed game), the tasks not started are dropped and this
    machine's workers are ended.
    """
    teams = check(spec)
    if sprt is not None:
        sprt.check(spec, teams)
    started = time.perf_counter()
    collector = _Collector(sprt, on_result)
    plan = game_plan(spec, teams)
    if executor is None and (jobs <= 1 or spec.games <= 1):
        _play_here(spec, plan, collector, batch)
    else:
        _play_on(executor, max(1, slots or jobs), spec, plan, collector, batch)
    report = Report.of(spec, teams, collector.results(), time.perf_counter() - started)
    if sprt is not None:
        report.sprt = sprt.outcome(collector.tally, decided=collector.done)
    return report


def _play_here(
    spec: ArenaSpec, plan: Iterable[Job], collector: _Collector, batch: int | None
) -> None:
    """Play *plan* in this process, one game at a time (isolated bots: a batch, to keep their
    processes), so that the SPRT stops at once."""
    size = batch or (MAX_AUTO_BATCH if spec.isolate else 1)
    for chunk in batches(plan, size):
        collector.add(play_batch(spec, chunk))
        if collector.done:
            break


def _play_on(
    executor: Executor | None,
    width: int,
    spec: ArenaSpec,
    plan: Iterable[Job],
    collector: _Collector,
    batch: int | None,
) -> None:
    """Play *plan* on *executor* (``None``: a pool of *width* processes of this machine, ended
    with it), *width* tasks at a time and ``AHEAD`` tasks per slot handed out ahead."""
    own = executor is None
    pool: Executor = executor or local_pool(min(width, spec.games))
    size = batch or auto_batch(spec.games, width)
    pending: set[Future[list[GameResult]]] = set()
    try:
        for chunk in batches(plan, size):
            pending.add(pool.submit(play_batch, spec, chunk))
            while len(pending) >= width * AHEAD and not collector.done:
                pending = _collect(pending, collector)
            if collector.done:
                break
        while pending and not collector.done:
            pending = _collect(pending, collector)
    except BaseException:
        _drop(pool, pending, own)
        raise
    if collector.done:
        _drop(pool, pending, own)  # the games in flight no longer count
    elif own:
        pool.shutdown()


def _collect(
    pending: set[Future[list[GameResult]]], collector: _Collector
) -> set[Future[list[GameResult]]]:
    finished, waiting = wait(pending, return_when=FIRST_COMPLETED)
    for future in finished:
        collector.add(future.result())
    return waiting


def _drop(pool: Executor, pending: set[Future[list[GameResult]]], own: bool) -> None:
    for future in pending:
        future.cancel()
    if own:
        assert isinstance(pool, ProcessPoolExecutor)
        end_pool(pool)


def default_jobs() -> int:
    """As many worker processes as this machine has cores."""
    return max(1, os.cpu_count() or 1)
