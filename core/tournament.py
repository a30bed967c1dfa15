"""Tournaments between bots (``cinco arena``): fair seating, parallel games, and statistics.

Each *entrant* (a bot, optionally at a level: ``ismcts:hard``) plays for whole teams. Games are
played in *rounds*: one deal (one seed) is played once under every arrangement of the entrants
over the teams — every permutation when there are as many entrants as teams, every rotation
when there are fewer — so that each entrant sits first, second, ... equally often and meets the
same cards. The first seat is always seat 1, whose team moves first.

>>> entrants = parse_entrants("greedy,random")
>>> arrangements(entrants, teams=2)
[(0, 1), (1, 0)]
>>> round(wilson(9, 10)[0], 3), round(wilson(9, 10)[1], 3)
(0.596, 0.982)
"""

from __future__ import annotations

import itertools
import math
import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .config import Seat
from .errors import ConfigError
from .i18n import _
from .simulation import DEFAULT_TURN_LIMIT

#: The z of a two-sided 95% confidence interval.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Entrant:
    """A bot in the tournament, at a level (``None``: its default)."""

    bot: str
    level: str | None = None

    @property
    def label(self) -> str:
        return f"{self.bot}:{self.level}" if self.level else self.bot


def parse_entrants(text: str) -> tuple[Entrant, ...]:
    """``NAME[:LEVEL],NAME[:LEVEL],...`` → entrants."""
    entrants = []
    for part in text.split(","):
        name, _sep, level = part.strip().partition(":")
        if not name:
            raise ConfigError(
                _("Name the bots as NAME[:LEVEL],NAME[:LEVEL], for example ismcts:hard,greedy.")
            )
        entrants.append(Entrant(name, level or None))
    if not entrants:
        raise ConfigError(_("Name at least one bot."))
    return tuple(entrants)


def arrangements(entrants: Sequence[Entrant], teams: int) -> list[tuple[int, ...]]:
    """The ways of seating the entrants at the teams, each a tuple giving each team's entrant
    (an index into *entrants*). One round plays a deal once under each."""
    count = len(entrants)
    if count > teams:
        raise ConfigError(
            _("{n} bots cannot share {teams} teams: name at most {teams} bots.").format(
                n=count, teams=teams
            )
        )
    if count == teams:
        return list(itertools.permutations(range(count)))
    pattern = [i % count for i in range(teams)]
    return [tuple(pattern[(j + r) % teams] for j in range(teams)) for r in range(teams)]


@dataclass(frozen=True)
class ArenaSpec:
    """A tournament, as asked for on the command line."""

    entrants: tuple[Entrant, ...]
    players: int = 2
    layout: str | None = None
    variants: tuple[str, ...] = ()
    games: int = 100
    budget: float | None = None
    iterations: int | None = None
    seed: int = 0
    records: Path | None = None
    turn_limit: int = DEFAULT_TURN_LIMIT


@dataclass(frozen=True)
class GameResult:
    """How one arena game went."""

    index: int
    seed: int
    #: Each team's entrant (an index into the spec's entrants).
    teams: tuple[int, ...]
    winner: int | None
    reason: str
    turns: int
    #: The team of the first seat (the one that moved first).
    first_team: int
    #: Moves of bots that failed, were too slow or illegal and were replaced by random ones.
    replaced: int = 0


def game_plan(spec: ArenaSpec, teams: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """``(index, seed, arrangement)`` of every game."""
    ways = arrangements(spec.entrants, teams)
    return [(k, spec.seed + k // len(ways), ways[k % len(ways)]) for k in range(spec.games)]


def check(spec: ArenaSpec) -> int:
    """Check *spec* against the installed plugins (bots, levels, layout, variants) and return
    the number of teams. Raises :class:`ConfigError` saying what is wrong."""
    from .registry import default_registry

    registry = default_registry()
    if spec.budget is not None and spec.iterations is not None:
        raise ConfigError(_("Give either a time budget or an iteration budget, not both."))
    layout = registry.layout(spec.players, spec.layout)
    seats = [Seat(e.label, bot=e.bot, level=e.level) for e in spec.entrants]
    seats = (seats * spec.players)[: spec.players]
    registry.configure(spec.players, layout=layout.name, variants=spec.variants, seats=seats)
    arrangements(spec.entrants, layout.teams)
    if spec.records is not None:
        try:
            spec.records.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(
                _("Cannot save records in {path}: {error}").format(
                    path=spec.records, error=exc.strerror or exc
                )
            ) from None
    return layout.teams


def play_one(spec: ArenaSpec, index: int, seed: int, arrangement: tuple[int, ...]) -> GameResult:
    """Play one arena game (in whichever process runs it)."""
    from cinco.core.recording import RecordWriter

    from .events import Notice
    from .game import BOT_ITERATIONS, BOT_TIME_BUDGET, Game
    from .registry import default_registry

    registry = default_registry()
    layout = registry.layout(spec.players, spec.layout)
    teams = layout.teams
    seats = []
    for i in range(spec.players):
        entrant = spec.entrants[arrangement[i % teams]]
        seats.append(Seat(f"{entrant.label} {i + 1}", bot=entrant.bot, level=entrant.level))
    options: dict[str, Any] = {}
    if spec.budget is not None:
        options[BOT_TIME_BUDGET] = spec.budget
    if spec.iterations is not None:
        options[BOT_ITERATIONS] = spec.iterations
    config = registry.configure(
        spec.players,
        layout=layout.name,
        variants=spec.variants,
        seats=seats,
        seed=seed,
        first_seat=0,
        turn_limit=spec.turn_limit,
        options=options,
    )
    plugins = []
    if spec.records is not None:
        plugins.append(RecordWriter(spec.records / f"game-{index + 1:05d}.jsonl"))
    game = Game.new(config, registry=registry, plugins=plugins)
    game.play_bots()
    result = game.state.result
    assert result is not None  # bot-only games always end (E4)
    replaced = sum(
        1 for event in game.events if isinstance(event, Notice) and event.code == "bot_replaced"
    )
    return GameResult(
        index=index,
        seed=seed,
        teams=arrangement,
        winner=result.winner,
        reason=result.reason,
        turns=game.state.turn,
        first_team=config.team_of(0),
        replaced=replaced,
    )


def _worker_start() -> None:
    """Workers leave Ctrl-C to the main process, which stops the tournament."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_job(job: tuple[ArenaSpec, int, int, tuple[int, ...]]) -> GameResult:
    return play_one(*job)


def run(
    spec: ArenaSpec,
    *,
    jobs: int = 1,
    on_result: Callable[[GameResult], None] | None = None,
) -> Report:
    """Play the tournament, *jobs* games at a time in worker processes (1: in this process);
    *on_result* is called as each game ends (for a progress bar)."""
    teams = check(spec)
    plan = game_plan(spec, teams)
    started = time.perf_counter()
    results: list[GameResult] = []
    work = [(spec, *item) for item in plan]
    if jobs <= 1:
        for job in work:
            result = _play_job(job)
            results.append(result)
            if on_result is not None:
                on_result(result)
    else:
        pool = ProcessPoolExecutor(max_workers=min(jobs, len(work)), initializer=_worker_start)
        try:
            futures = [pool.submit(_play_job, job) for job in work]
            for future in as_completed(futures):
                result = future.result()
                results.append(result)
                if on_result is not None:
                    on_result(result)
        except BaseException:
            # Interrupted (Ctrl-C) or a game failed: drop the games not started yet.
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
    results.sort(key=lambda r: r.index)
    return Report.of(spec, teams, results, time.perf_counter() - started)


# -- statistics -------------------------------------------------------------------------------


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) with no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


def elo_ratings(
    count: int, pairs: Sequence[tuple[int, int, float]], iterations: int = 500
) -> list[float]:
    """Elo ratings (mean 1500) fitted to pairwise results ``(a, b, score of a)`` by the
    Bradley–Terry model (a draw counts half a win each way). Every entrant also gets one
    virtual draw against each other one, so that a clean sweep gives a large but finite gap.

    >>> a, b = elo_ratings(2, [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)])
    >>> round(a - b)
    147
    """
    wins = [0.0] * count
    games: Counter[tuple[int, int]] = Counter()
    for a, b, score in pairs:
        wins[a] += score
        wins[b] += 1 - score
        games[(min(a, b), max(a, b))] += 1
    for a in range(count):
        for b in range(a + 1, count):
            wins[a] += 0.5
            wins[b] += 0.5
            games[(a, b)] += 1
    strength = [1.0] * count
    for _round in range(iterations):
        updated = []
        for i in range(count):
            denominator = 0.0
            for (a, b), n in games.items():
                if i in (a, b):
                    other = b if i == a else a
                    denominator += n / (strength[i] + strength[other])
            updated.append(wins[i] / denominator if denominator else strength[i])
        mean_log = sum(math.log(s) for s in updated) / count
        strength = [s / math.exp(mean_log) for s in updated]
    return [1500 + 400 * math.log10(s) for s in strength]


@dataclass
class Standing:
    """One entrant's results. ``games`` counts the team places it played."""

    entrant: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    win_rate: float = 0.0
    ci_low: float = 0.0
    ci_high: float = 1.0
    elo: float = 1500.0


@dataclass
class Report:
    """What a tournament came to."""

    spec: ArenaSpec
    results: list[GameResult]
    standings: list[Standing]
    draws: int
    reasons: dict[str, int]
    mean_turns: float
    #: Share of decided games won by the team that moved first, with its 95% interval;
    #: ``fair_share`` is what it would be with no first-move advantage (1 / teams).
    first_seat_wins: float
    first_seat_ci: tuple[float, float]
    fair_share: float
    replaced: int
    seconds: float
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, spec: ArenaSpec, teams: int, results: list[GameResult], seconds: float) -> Report:
        labels = [e.label for e in spec.entrants]
        standings = [Standing(label) for label in labels]
        pairs: list[tuple[int, int, float]] = []
        for result in results:
            for team, who in enumerate(result.teams):
                standing = standings[who]
                standing.games += 1
                if result.winner is None:
                    standing.draws += 1
                elif result.winner == team:
                    standing.wins += 1
                else:
                    standing.losses += 1
            for i, j in itertools.combinations(range(len(result.teams)), 2):
                a, b = result.teams[i], result.teams[j]
                if a == b:
                    continue
                score = 1.0 if result.winner == i else 0.0 if result.winner == j else 0.5
                pairs.append((a, b, score))
        for standing, elo in zip(standings, elo_ratings(len(labels), pairs), strict=True):
            standing.elo = elo
            if standing.games:
                standing.win_rate = standing.wins / standing.games
            standing.ci_low, standing.ci_high = wilson(standing.wins, standing.games)
        decided = [r for r in results if r.winner is not None]
        first = sum(1 for r in decided if r.winner == r.first_team)
        return cls(
            spec=spec,
            results=results,
            standings=standings,
            draws=len(results) - len(decided),
            reasons=dict(sorted(Counter(r.reason for r in results).items())),
            mean_turns=sum(r.turns for r in results) / len(results) if results else 0.0,
            first_seat_wins=first / len(decided) if decided else 0.0,
            first_seat_ci=wilson(first, len(decided)),
            fair_share=1 / teams,
            replaced=sum(r.replaced for r in results),
            seconds=seconds,
        )

    def to_dict(self) -> dict[str, Any]:
        spec = self.spec
        return {
            "bots": [e.label for e in spec.entrants],
            "players": spec.players,
            "layout": spec.layout,
            "variants": list(spec.variants),
            "games": len(self.results),
            "budget": spec.budget,
            "iterations": spec.iterations,
            "seed": spec.seed,
            "standings": [
                {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(s).items()}
                for s in self.standings
            ],
            "draws": self.draws,
            "reasons": self.reasons,
            "mean_turns": round(self.mean_turns, 2),
            "first_seat": {
                "wins": round(self.first_seat_wins, 4),
                "ci_low": round(self.first_seat_ci[0], 4),
                "ci_high": round(self.first_seat_ci[1], 4),
                "fair_share": round(self.fair_share, 4),
            },
            "replaced_moves": self.replaced,
            "seconds": round(self.seconds, 3),
        }

    def csv_rows(self) -> list[dict[str, Any]]:
        """One row per entrant, with the tournament-wide figures repeated."""
        rows = []
        for s in self.standings:
            row = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(s).items()}
            row.update(
                total_games=len(self.results),
                total_draws=self.draws,
                mean_turns=round(self.mean_turns, 2),
                first_seat_wins=round(self.first_seat_wins, 4),
            )
            rows.append(row)
        return rows


def default_jobs() -> int:
    """As many worker processes as this machine has cores."""
    return max(1, os.cpu_count() or 1)


__all__ = [
    "ArenaSpec",
    "Entrant",
    "GameResult",
    "Report",
    "Standing",
    "arrangements",
    "default_jobs",
    "elo_ratings",
    "parse_entrants",
    "play_one",
    "run",
    "wilson",
]
