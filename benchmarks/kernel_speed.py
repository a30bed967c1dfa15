"""Rollouts per second: the bots' simulation kernel against the reference engine.

A *rollout* here is a whole two-player game from a fresh deal with every action drawn
uniformly from the legal actions (what the ``random`` bot does). The reference engine plays it
with :func:`cinco.core.rules.legal_actions` and :func:`cinco.core.rules.decide_steps` on
immutable states (no event store, no projections: the cheapest way to use it); the kernel
plays it on its mutable lists. The goal: the kernel at least 10× the reference.

For information it also times the ``ismcts`` bot's own rollout policy (a noisy greedy player,
with space scores kept up to date on every move), from the same deals.

Run: ``python benchmarks/kernel_speed.py [--seconds S] [--rounds R]``: each loop runs for *S*
seconds in each of *R* rounds, and the best round counts.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from cinco.core.config import GameConfig
from cinco.core.registry import Registry
from cinco.core.rules import decide_steps, legal_actions, setup_events
from cinco.core.state import fold
from cinco.plugins.bots.ismcts import LEVELS, rollout_fast
from cinco.plugins.bots.kernel import Kernel

REGISTRY = Registry(entry_points=False)
TURN_LIMIT = 1000


def config(seed: int) -> GameConfig:
    return GameConfig.for_players(2, seed=seed, first_seat=0, turn_limit=TURN_LIMIT)


def reference_rollout(seed: int) -> int:
    cfg = config(seed)
    rules = REGISTRY.rules_for(cfg)
    rng = random.Random(seed)
    state = fold(setup_events(cfg))
    while not state.is_over:
        legal = legal_actions(state, rules)
        state = decide_steps(state, legal[rng.randrange(len(legal))], rules, legal)[-1][1]
    return state.turn


def kernel_rollout(seed: int) -> int:
    rng = random.Random(seed)
    kernel = Kernel(config(seed), rng=rng)
    kernel.deal()
    while not kernel.over:
        kernel.random_move(rng)
    return kernel.turn


def policy_rollout(seed: int) -> int:
    rng = random.Random(seed)
    kernel = Kernel(config(seed), rng=rng, scores=True)
    kernel.deal()
    rollout_fast(kernel, rng, LEVELS["medium"])
    return kernel.turn


def measure(rollout: Callable[[int], int], seconds: float) -> tuple[float, float]:
    """Rollouts and turns per second of *rollout* over about *seconds*."""
    games = turns = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        turns += rollout(games)
        games += 1
    elapsed = time.perf_counter() - started
    return games / elapsed, turns / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per loop and round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    loops = {
        "reference engine (random)": reference_rollout,
        "kernel (random)": kernel_rollout,
        "kernel (ismcts rollout policy)": policy_rollout,
    }
    # The loops take turns and each keeps its best round, so that other work on the machine
    # weighs on all of them alike.
    best = dict.fromkeys(loops, (0.0, 0.0))
    for _round in range(args.rounds):
        for name, rollout in loops.items():
            best[name] = max(best[name], measure(rollout, args.seconds))
    for name, (rollouts, turns) in best.items():
        print(f"{name:<32} {rollouts:8.1f} rollouts/s {turns:10.0f} turns/s")
    ratio = best["kernel (random)"][0] / best["reference engine (random)"][0]
    verdict = "PASS" if ratio >= 10 else "FAIL"
    print(f"kernel / reference: {ratio:.1f}x (goal: at least 10x) {verdict}")


if __name__ == "__main__":
    main()
