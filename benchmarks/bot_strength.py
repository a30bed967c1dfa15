"""How strong are the bots? Two-player matches through ``cinco arena``'s tournament runner.

The goals (issue 4): ``ismcts`` at 1 s per move wins at least 75% of two-player games against
``greedy`` (at least 200 games); ``greedy`` wins at least 90% against ``random``; ``ismcts`` at
least 98% against ``random``. Seats are rotated (each deal is played twice, each bot moving
first once); a draw counts as not won.

Run: ``python benchmarks/bot_strength.py [--games 200] [--budget 1.0 | --iterations N]
[--jobs J] [--match ismcts-greedy ...]``. The full run (the defaults) takes hours on a small
machine: 200 games × ~30 moves × 1 s for the first match alone. ``--iterations`` gives
reproducible results (about 3,000 iterations is one second on a 2020s desktop core).

The match ``compiled-pure`` (issue 15) plays ``ismcts:hard`` with the compiled kernel against
``ismcts:hard`` with the pure-Python kernel, in this process, each at the level's own second
per move (or ``--budget``): the same bot, only faster. The goal: the compiled one wins at least
60% of 100 two-player games. It needs a compiled build (``pip install -e .`` with a C
compiler). ``python benchmarks/bot_strength.py --match compiled-pure --games 100`` takes about
100 × 55 moves × 1 s, an hour and a half of one core; ``--progress`` prints each game.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from cinco.core.bots.matches import ArenaSpec, parse_entrants
from cinco.core.bots.statistics import wilson
from cinco.core.bots.tournament import run
from cinco.core.engine.config import Seat
from cinco.core.game.game import BOT_ITERATIONS, BOT_TIME_BUDGET, Game
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host.declarations import BotSpec
from cinco.core.host.registry import Registry
from cinco.plugins.bots import builds

#: (entrants, the share of games the first must win).
MATCHES = {
    "ismcts-greedy": ("ismcts,greedy", 0.75),
    "greedy-random": ("greedy,random", 0.90),
    "ismcts-random": ("ismcts,random", 0.98),
}
#: The compiled bot against the pure-Python one (not through the arena: both in one process).
BUILDS_MATCH = "compiled-pure"
BUILDS_GOAL = 0.60
#: The bot of the pure-Python build, registered under this name for the match.
PURE_BOT = "ismcts-pure"
BUILDS_LEVEL = "hard"
TURN_LIMIT = 1000


class PureIsmcts:
    """A plugin offering the ``ismcts`` bot of the pure-Python modules as :data:`PURE_BOT`."""

    @hookimpl
    def cinco_register_bots(self) -> list[BotSpec]:
        ismcts = builds.pure_module("ismcts")
        return [
            BotSpec(PURE_BOT, "ismcts, pure Python", ismcts.create, levels=tuple(ismcts.LEVELS))
        ]


def builds_match(
    games: int, budget: float | None, iterations: int | None, seed: int, progress: bool
) -> tuple[int, int, int, float]:
    """Play *games* two-player games of compiled ``ismcts:hard`` against the pure-Python one,
    seats rotated (each deal twice, each side first once); (games, won, drawn, seconds) of the
    compiled side."""
    if builds.status() != "compiled":
        raise SystemExit(
            f"compiled-pure needs a compiled build; this one is {builds.status()!r} "
            "(install with a C compiler: pip install -e .)"
        )
    registry = Registry(entry_points=False, plugins=[PureIsmcts()])
    options: dict[str, Any] = {}
    if budget is not None:
        options[BOT_TIME_BUDGET] = budget
    if iterations is not None:
        options[BOT_ITERATIONS] = iterations
    won = drawn = 0
    started = time.perf_counter()
    for index in range(games):
        compiled_seat = index % 2
        seats = [Seat("pure", bot=PURE_BOT, level=BUILDS_LEVEL)] * 2
        seats[compiled_seat] = Seat("compiled", bot="ismcts", level=BUILDS_LEVEL)
        config = registry.configure(
            2,
            seats=seats,
            seed=seed + index // 2,
            first_seat=0,
            turn_limit=TURN_LIMIT,
            options=options,
        )
        game = Game.new(config, registry=registry)
        game.play_bots()
        result = game.state.result
        assert result is not None
        if result.winner is None:
            drawn += 1
        elif result.winner == config.team_of(compiled_seat):
            won += 1
        if progress:
            print(
                f"game {index + 1}: compiled seat {compiled_seat + 1}, winner "
                f"{'-' if result.winner is None else result.winner + 1} ({result.reason}, "
                f"{game.state.turn} turns); compiled {won}/{index + 1}",
                flush=True,
            )
    return games, won, drawn, time.perf_counter() - started


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
        choices=sorted([*MATCHES, BUILDS_MATCH]),
        help=f"which matches (repeatable; default: all but {BUILDS_MATCH})",
    )
    parser.add_argument("--progress", action="store_true", help=f"print each {BUILDS_MATCH} game")
    args = parser.parse_args()
    budget = args.budget
    print(
        f"{'match':<16} {'games':>5} {'won':>5} {'drawn':>5} {'win rate':>9} "
        f"{'95% interval':>16} {'goal':>5}  verdict  seconds"
    )
    for name in args.match or list(MATCHES):
        if name == BUILDS_MATCH:
            # Each side at ismcts:hard's own second per move, unless told otherwise.
            games, won, drawn, seconds = builds_match(
                args.games, budget, args.iterations, args.seed, args.progress
            )
            rate = won / games if games else 0.0
            low, high = wilson(won, games)
            # The goal is set on 100 games: a smaller sample gets no verdict.
            verdict = "sample" if games < 100 else "PASS" if rate >= BUILDS_GOAL else "FAIL"
            print(
                f"{name:<16} {games:>5} {won:>5} {drawn:>5} {rate:>9.1%} {low:>7.1%} – "
                f"{high:<6.1%} {BUILDS_GOAL:>5.0%}  {verdict:<7}  {seconds:.0f}"
            )
            continue
        arena_budget = 1.0 if budget is None and args.iterations is None else budget
        bots, goal = MATCHES[name]
        spec = ArenaSpec(
            entrants=parse_entrants(bots),
            players=2,
            games=args.games,
            budget=arena_budget,
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
