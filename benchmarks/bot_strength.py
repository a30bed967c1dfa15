"""How strong are the bots? Two-player matches through ``cinco arena``'s tournament runner.

The goals (issue 4): ``ismcts`` at 1 s per move wins at least 75% of two-player games against
``greedy`` (at least 200 games); ``greedy`` wins at least 90% against ``random``; ``ismcts`` at
least 98% against ``random``. Seats are rotated (each deal is played twice, each bot moving
first once); a draw counts as not won.

Run: ``python benchmarks/bot_strength.py [--games 200] [--budget 1.0 | --iterations N]
[--jobs J] [--match ismcts-greedy ...]``. The full run (the defaults) takes hours on a small
machine: 200 games × ~30 moves × 1 s for the first match alone. ``--iterations`` gives
reproducible results (about 3,000 iterations is one second on a 2020s desktop core).
"""

from __future__ import annotations

import argparse
import time

from cinco.core.tournament import ArenaSpec, parse_entrants, run

#: (entrants, the share of games the first must win).
MATCHES = {
    "ismcts-greedy": ("ismcts,greedy", 0.75),
    "greedy-random": ("greedy,random", 0.90),
    "ismcts-random": ("ismcts,random", 0.98),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget", type=float, default=None, help="seconds per move")
    parser.add_argument("--iterations", type=int, default=None, help="ismcts iterations/move")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--match",
        action="append",
        choices=sorted(MATCHES),
        help="which matches (repeatable; default: all)",
    )
    args = parser.parse_args()
    budget = args.budget
    if budget is None and args.iterations is None:
        budget = 1.0
    print(
        f"{'match':<16} {'games':>5} {'won':>5} {'drawn':>5} {'win rate':>9} "
        f"{'95% interval':>16} {'goal':>5}  verdict  seconds"
    )
    for name in args.match or list(MATCHES):
        bots, goal = MATCHES[name]
        spec = ArenaSpec(
            entrants=parse_entrants(bots),
            players=2,
            games=args.games,
            budget=budget,
            iterations=args.iterations,
            seed=args.seed,
        )
        started = time.perf_counter()
        report = run(spec, jobs=args.jobs)
        first = report.standings[0]
        verdict = "PASS" if first.win_rate >= goal else "FAIL"
        print(
            f"{name:<16} {first.games:>5} {first.wins:>5} {first.draws:>5} "
            f"{first.win_rate:>9.1%} {first.ci_low:>7.1%} – {first.ci_high:<6.1%} "
            f"{goal:>5.0%}  {verdict:<7}  {time.perf_counter() - started:.0f}"
            + (f"  ({report.replaced} moves replaced)" if report.replaced else "")
        )


if __name__ == "__main__":
    main()
