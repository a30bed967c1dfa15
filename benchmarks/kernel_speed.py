"""Rollouts per second: the bots' kernel, compiled and pure Python, and the reference engine.

A *rollout* here is a whole two-player game from a fresh deal with every action drawn
uniformly from the legal actions (what the ``random`` bot does). The reference engine plays it
with :func:`cinco.core.engine.rules.legal_actions` and :func:`cinco.core.engine.rules.decide_steps`
on
immutable states (no event store, no projections: the cheapest way to use it); the kernel
plays it on its mutable lists (:meth:`~cinco.plugins.bots.kernel.Kernel.random_playout`).
It also times the ``ismcts`` bot's own rollout policy (a greedy player that keeps a hand,
with space scores kept up to date on every move), from the same deals, and the whole search
of ``ismcts:hard`` (iterations per second, from one mid-game position).

The kernel runs twice in the same process: the compiled build (mypyc, if this installation
has one) and the pure-Python source of the same modules (``cinco.plugins.bots.pure``). The
goals (issue 15): compiled at least 5x the pure kernel on random rollouts, at least 4x on the
rollout policy; and (issue 28) the compiled kernel's random rollouts at least 2.5 million
turns a second — a figure of the machine and its load, where the ratios are not.

Run: ``python benchmarks/kernel_speed.py [--seconds S] [--rounds R]``: each loop runs for *S*
seconds of CPU time in each of *R* rounds (the loops take turns), and the best round counts.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import fields
from types import ModuleType

from cinco.core.engine.config import GameConfig, Seat
from cinco.core.engine.legal import legal_actions
from cinco.core.engine.rules import decide_steps, setup_events
from cinco.core.engine.state import fold
from cinco.core.game.game import Game
from cinco.core.host.registry import Registry
from cinco.plugins.bots import builds
from cinco.plugins.bots import kernel as installed_kernel
from cinco.plugins.bots import search as installed_search
from cinco.plugins.bots.ismcts import LEVELS

REGISTRY = Registry(entry_points=False)
TURN_LIMIT = 1000
#: (loop, its goal as a multiple of the pure kernel's speed).
GOALS = {"random": 5.0, "ismcts rollout policy": 4.0}
#: Issue 28: turns a second of the compiled kernel's random rollouts.
TURNS_GOAL = 2_500_000


def config(seed: int) -> GameConfig:
    return GameConfig.for_players(2, seed=seed, first_seat=0, turn_limit=TURN_LIMIT)


#: The kernels' table (they shuffle with their own random generator: the seed is not used).
TABLE = config(0)

Rollout = Callable[[random.Random], int]


def reference_rollout(seed: int) -> int:
    """A random game of the reference engine from deal *seed* (also used by
    ``engine_speed.py``); its turns."""
    cfg = config(seed)
    rules = REGISTRY.rules_for(cfg)
    rng = random.Random(seed)
    state = fold(setup_events(cfg))
    while not state.is_over:
        legal = legal_actions(state, rules)
        state = decide_steps(state, legal[rng.randrange(len(legal))], rules, legal)[-1][1]
    return state.turn


def random_rollouts(kernel: ModuleType) -> Rollout:
    """Random games on *kernel*: each a copy of a fresh table, dealt, played out (the way
    the search starts each rollout from a copy of its position)."""
    table = kernel.Kernel(TABLE)

    def rollout(rng: random.Random) -> int:
        world = table.copy()
        world.rng = rng
        world.deal()
        world.random_playout(rng)
        return int(world.turn)

    return rollout


def policy_rollouts(kernel: ModuleType, search: ModuleType) -> Rollout:
    """Games of the ``ismcts`` rollout policy (level medium) on *kernel*, with *search*."""
    medium = LEVELS["medium"]  # as the build's own Settings
    settings = search.Settings(**{f.name: getattr(medium, f.name) for f in fields(medium)})
    table = kernel.Kernel(TABLE, scores=True)

    def rollout(rng: random.Random) -> int:
        world = table.copy()
        world.rng = rng
        world.deal()
        search.rollout_fast(world, rng, settings)
        return int(world.turn)

    return rollout


def search_loop(search: ModuleType, iterations: int = 64) -> Rollout:
    """``ismcts`` searches (level hard, *iterations* each) from one mid-game position of a
    two-player game: the whole search (worlds, tree, rollouts), not the kernel alone."""
    seats = [Seat("a", bot="greedy"), Seat("b", bot="greedy")]
    game = Game.new(REGISTRY.configure(2, seats=seats, seed=4, first_seat=0), registry=REGISTRY)
    game.play_bots(max_turns=12)
    seat = game.state.current_seat
    view = game.view(seat)
    hard = LEVELS["hard"]
    settings = search.Settings(**{f.name: getattr(hard, f.name) for f in fields(hard)})

    def run(rng: random.Random) -> int:
        searcher = search.Search(view, seat, game.rules, settings, rng)
        searcher.run(iterations, None)
        return int(searcher.iterations)

    return run


def measure(rollout: Rollout, seconds: float) -> tuple[float, float]:
    """Rollouts and turns per second of *rollout* over about *seconds* of this process's CPU
    time (not the wall clock: other work on the machine then weighs less)."""
    rng = random.Random(1)
    games = turns = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        turns += rollout(rng)
        games += 1
    elapsed = time.process_time() - started
    return games / elapsed, turns / elapsed


def builds_to_time() -> dict[str, tuple[ModuleType, ModuleType]]:
    """The builds of (kernel, search) in this process: pure always, compiled if installed."""
    found = {"pure": (builds.pure_module("kernel"), builds.pure_module("search"))}
    if builds.status() == "compiled":
        found["compiled"] = (installed_kernel, installed_search)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per loop and round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    found = builds_to_time()
    loops: dict[str, Rollout] = {
        "reference engine (random)": lambda rng: reference_rollout(rng.randrange(2**32))
    }
    for build, (kernel, search) in found.items():
        loops[f"{build} kernel (random)"] = random_rollouts(kernel)
        loops[f"{build} kernel (ismcts rollout policy)"] = policy_rollouts(kernel, search)
        loops[f"{build} ismcts search"] = search_loop(search)
    # The loops take turns and each keeps its best round, so that other work on the machine
    # weighs on all of them alike.
    best = dict.fromkeys(loops, (0.0, 0.0))
    for _round in range(args.rounds):
        for name, rollout in loops.items():
            best[name] = max(best[name], measure(rollout, args.seconds))
    print(f"compiled build: {builds.status()}")
    for name, (rollouts, turns) in best.items():
        if name.endswith("search"):
            print(f"{name:<40} {rollouts:8.1f} searches/s {turns:10.0f} iterations/s")
        else:
            print(f"{name:<40} {rollouts:8.1f} rollouts/s {turns:10.0f} turns/s")
    fastest = "compiled" if "compiled" in found else "pure"
    ratio = best[f"{fastest} kernel (random)"][0] / best["reference engine (random)"][0]
    print(f"{fastest} kernel / reference engine (random): {ratio:.1f}x")
    for loop, goal in GOALS.items():
        if "compiled" not in found:
            print(f"compiled / pure ({loop}): no compiled build (goal: at least {goal:g}x)")
            continue
        ratio = best[f"compiled kernel ({loop})"][1] / best[f"pure kernel ({loop})"][1]
        verdict = "PASS" if ratio >= goal else "FAIL"
        print(f"compiled / pure ({loop}): {ratio:.2f}x (goal: at least {goal:g}x) {verdict}")
    if "compiled" in found:
        ratio = best["compiled ismcts search"][1] / best["pure ismcts search"][1]
        print(f"compiled / pure (ismcts search, iterations): {ratio:.2f}x (no goal)")
        turns = best["compiled kernel (random)"][1]
        verdict = "PASS" if turns >= TURNS_GOAL else "FAIL"
        print(
            f"compiled kernel (random): {turns / 1e6:.2f} M turns/s "
            f"(goal: at least {TURNS_GOAL / 1e6:g} M) {verdict}"
        )


if __name__ == "__main__":
    main()
