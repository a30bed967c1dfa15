"""The statistics of a tournament: the sequential test (SPRT) that stops a match once it is
decided, the Wilson interval of a proportion, Elo ratings fitted to the results, and the report
they come to (:class:`Report`).

>>> round(wilson(9, 10)[0], 3), round(wilson(9, 10)[1], 3)
(0.596, 0.982)
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from cinco.core.bots.matches import ArenaSpec, GameResult
from cinco.core.engine.errors import ConfigError
from cinco.core.words.i18n import _

#: The z of a two-sided 95% confidence interval.
Z95 = 1.959963984540054


# -- the sequential test ----------------------------------------------------------------------


def expected_score(elo: float) -> float:
    """The chance of winning a decisive game with an Elo advantage of *elo* (the logistic
    model).

    >>> expected_score(0), round(expected_score(400), 4)
    (0.5, 0.9091)
    """
    return 1 / (1 + 10 ** (-elo / 400))


def bernoulli_llr(wins: int, losses: int, p0: float, p1: float) -> float:
    """The log-likelihood ratio of H1 (a decisive game is won with chance *p1*) against H0
    (with chance *p0*) after *wins* and *losses*: Wald's SPRT for a Bernoulli variable.

    >>> round(bernoulli_llr(3, 1, 0.5, 0.75), 6)  # 3 ln 1.5 + ln 0.5
    0.523248
    """
    return wins * math.log(p1 / p0) + losses * math.log((1 - p1) / (1 - p0))


@dataclass(frozen=True)
class SprtTally:
    """The first entrant's results so far, in the games' order."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, result: GameResult) -> SprtTally:
        team = result.teams.index(0)
        if result.winner is None:
            return replace(self, draws=self.draws + 1)
        if result.winner == team:
            return replace(self, wins=self.wins + 1)
        return replace(self, losses=self.losses + 1)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of the first bot (A) against the second (B), as
    chess engines are tested: H0 says A is *elo0* Elo stronger than B, H1 that it is *elo1*
    stronger. After each decisive game the log-likelihood ratio of H1 against H0 moves; the
    match stops as soon as it leaves ``(lower, upper)`` = ``(ln(β / (1 − α)),
    ln((1 − β) / α))``: above, H1 is accepted (wrongly at most α of the time when H0 holds),
    below, H0 (wrongly at most β of the time when H1 holds). Draws do not move it.

    >>> test = Sprt(elo0=0, elo1=50, alpha=0.05, beta=0.05)
    >>> [round(b, 4) for b in test.bounds]
    [-2.9444, 2.9444]
    >>> test.verdict(23, 0), test.verdict(22, 0), test.verdict(0, 20), test.verdict(0, 19)
    ('H1', None, 'H0', None)
    """

    elo0: float = 0.0
    elo1: float = 50.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise ConfigError(
                    _("The SPRT's {name} must lie between 0 and 0.5, not {value}.").format(
                        name=name, value=value
                    )
                )
        for name in ("elo0", "elo1"):
            value = getattr(self, name)
            if not -2000 <= value <= 2000:
                raise ConfigError(
                    _("The SPRT's {name} must lie between -2000 and 2000, not {value}.").format(
                        name=name, value=value
                    )
                )
        if not self.elo0 < self.elo1:
            raise ConfigError(
                _("The SPRT's elo1 ({elo1}) must be greater than its elo0 ({elo0}).").format(
                    elo0=self.elo0, elo1=self.elo1
                )
            )

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, wins: int, losses: int) -> float:
        return bernoulli_llr(wins, losses, expected_score(self.elo0), expected_score(self.elo1))

    def verdict(self, wins: int, losses: int) -> str | None:
        """``"H1"``, ``"H0"``, or ``None`` while the test goes on."""
        lower, upper = self.bounds
        llr = self.llr(wins, losses)
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None

    def check(self, spec: ArenaSpec, teams: int) -> None:
        """The SPRT is for a match: two bots, two teams."""
        if len(spec.entrants) != 2 or teams != 2:
            raise ConfigError(
                _(
                    "The SPRT tests one bot against another: name exactly two bots, in a game "
                    "of two teams (not {bots} bots and {teams} teams)."
                ).format(bots=len(spec.entrants), teams=teams)
            )

    def outcome(self, tally: SprtTally, *, decided: bool) -> SprtOutcome:
        lower, upper = self.bounds
        return SprtOutcome(
            test=self,
            wins=tally.wins,
            draws=tally.draws,
            losses=tally.losses,
            llr=self.llr(tally.wins, tally.losses),
            lower=lower,
            upper=upper,
            verdict=self.verdict(tally.wins, tally.losses) if decided else None,
        )


@dataclass(frozen=True)
class SprtOutcome:
    """Where the test stood when the match ended: its verdict (``None``: the match reached
    ``--games`` first, undecided)."""

    test: Sprt
    wins: int
    draws: int
    losses: int
    llr: float
    lower: float
    upper: float
    verdict: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "elo0": self.test.elo0,
            "elo1": self.test.elo1,
            "alpha": self.test.alpha,
            "beta": self.test.beta,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "llr": round(self.llr, 4),
            "lower": round(self.lower, 4),
            "upper": round(self.upper, 4),
            "verdict": self.verdict,
        }


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
    #: Its moves replaced by random ones (it failed, was too slow or illegal).
    replaced: int = 0


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
    #: Where the sequential test stood at the end (``--sprt``), or ``None``.
    sprt: SprtOutcome | None = None

    @classmethod
    def of(cls, spec: ArenaSpec, teams: int, results: list[GameResult], seconds: float) -> Report:
        labels = [e.label for e in spec.entrants]
        standings = [Standing(label) for label in labels]
        pairs: list[tuple[int, int, float]] = []
        for result in results:
            for team, who in enumerate(result.teams):
                standing = standings[who]
                standing.games += 1
                if team < len(result.replaced_teams):
                    standing.replaced += result.replaced_teams[team]
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
            "isolated": spec.isolate,
            "sprt": None if self.sprt is None else self.sprt.to_dict(),
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
