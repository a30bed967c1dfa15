"""How fast ``cinco arena`` plays on each backend, the same games on each.

``python benchmarks/arena_backends.py [--bots greedy,random] [--games 200] [--workers 2]
[--batch N] [--isolated-games 20]`` plays the tournament in this process, in ``--workers``
local worker processes, on a Dask ``LocalCluster`` of ``--workers`` processes on 127.0.0.1
(when ``distributed`` is installed), and with ``--isolate`` (a process per bot), and prints
games/s for each, and whether each gave the same results as this process (isolated bots draw
their randomness from the operating system, so only their deals are the same). Bounded: the
defaults take about half a minute on two shared cores.
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Callable
from typing import Any

from cinco.core.bots.matches import ArenaSpec, parse_entrants
from cinco.core.bots.statistics import Report
from cinco.core.bots.tournament import run


def timed(label: str, games: int, play: Callable[[], Report], same: Report | None) -> Report:
    started = time.perf_counter()
    report = play()
    seconds = time.perf_counter() - started
    note = ""
    if same is not None:
        note = "  same results" if report.results == same.results else "  DIFFERENT RESULTS"
    print(f"{label:<34} {games:>6} games {seconds:>8.2f} s {games / seconds:>9.1f} games/s{note}")
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="greedy,random")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--batch", type=int, default=None)
    parser.add_argument("--isolated-games", type=int, default=20)
    args = parser.parse_args()
    spec = ArenaSpec(entrants=parse_entrants(args.bots), games=args.games, seed=1)
    alone = timed("one process", spec.games, lambda: run(spec, jobs=1), None)
    timed(
        f"{args.workers} local worker processes",
        spec.games,
        lambda: run(spec, jobs=args.workers, batch=args.batch),
        alone,
    )
    try:
        # Dask has no type hints: it is used through Any.
        dask: Any = importlib.import_module("distributed")
    except ImportError:
        print("Dask LocalCluster: skipped (pip install 'cinco[cluster]')")
    else:
        started = time.perf_counter()
        with (
            dask.LocalCluster(
                n_workers=args.workers,
                threads_per_worker=1,
                host="127.0.0.1",
                dashboard_address=":0",
                worker_dashboard_address=":0",
            ) as cluster,
            dask.Client(cluster) as client,
        ):
            print(f"(the LocalCluster started in {time.perf_counter() - started:.2f} s)")
            executor = client.get_executor(pure=False)
            timed(
                f"Dask LocalCluster, {args.workers} workers",
                spec.games,
                lambda: run(spec, executor=executor, slots=args.workers, batch=args.batch),
                alone,
            )
    isolated = ArenaSpec(
        entrants=spec.entrants, games=args.isolated_games, seed=spec.seed, isolate=True
    )
    timed("--isolate, one process", isolated.games, lambda: run(isolated, jobs=1), None)


if __name__ == "__main__":
    main()
