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
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from cinco.core.bots.simulation import DEFAULT_TURN_LIMIT
from cinco.core.engine.config import GameConfig, Seat
from cinco.core.engine.errors import ConfigError
from cinco.core.words.i18n import _

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
    #: Every bot plays in its own process, seeing only its seat's stream
    #: (:mod:`cinco.core.bots.isolation`).
    isolate: bool = False


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


#: One game to play: its index, its deal's seed and the entrants' arrangement over the teams.
Job = tuple[int, int, tuple[int, ...]]


def deal_seed(spec: ArenaSpec, deal: int) -> int:
    """The seed of deal number *deal* (from 0): a function of the arena's seed alone, so that
    a game's cards never depend on where, when or next to which games it is played.

    >>> deal_seed(ArenaSpec(parse_entrants("greedy,random"), seed=40), 2)
    42
    """
    return spec.seed + deal


def game_plan(spec: ArenaSpec, teams: int) -> Iterator[Job]:
    """Every game of the tournament, made one at a time as they are asked for (so that
    ``--games`` may be as large as one likes): game *k* plays deal ``k // seatings`` under
    seating ``k % seatings``.

    >>> spec = ArenaSpec(parse_entrants("greedy,random"), games=3, seed=7)
    >>> list(game_plan(spec, teams=2))
    [(0, 7, (0, 1)), (1, 7, (1, 0)), (2, 8, (0, 1))]
    """
    ways = arrangements(spec.entrants, teams)
    for k in range(spec.games):
        yield k, deal_seed(spec, k // len(ways)), ways[k % len(ways)]


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


def check(spec: ArenaSpec) -> int:
    """Check *spec* against the installed plugins (bots, levels, layout, variants) and return
    the number of teams. Raises :class:`ConfigError` saying what is wrong."""
    from cinco.core.host.registry import default_registry

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


def game_config(
    spec: ArenaSpec, seed: int, arrangement: tuple[int, ...], *, bots: bool = True
) -> GameConfig:
    """The configuration of one arena game: seat *i* plays for team ``i % teams``, whose
    entrant *arrangement* gives. With *bots* false the seats are left to players from outside
    the game (the isolated bots' processes)."""
    from cinco.core.game.game import BOT_ITERATIONS, BOT_TIME_BUDGET
    from cinco.core.host.registry import default_registry

    registry = default_registry()
    layout = registry.layout(spec.players, spec.layout)
    teams = layout.teams
    seats = []
    for i in range(spec.players):
        entrant = spec.entrants[arrangement[i % teams]]
        name = f"{entrant.label} {i + 1}"
        seats.append(Seat(name, bot=entrant.bot, level=entrant.level) if bots else Seat(name))
    options: dict[str, Any] = {}
    if spec.budget is not None:
        options[BOT_TIME_BUDGET] = spec.budget
    if spec.iterations is not None:
        options[BOT_ITERATIONS] = spec.iterations
    return registry.configure(
        spec.players,
        layout=layout.name,
        variants=spec.variants,
        seats=seats,
        seed=seed,
        first_seat=0,
        turn_limit=spec.turn_limit,
        options=options,
    )


def play_one(spec: ArenaSpec, index: int, seed: int, arrangement: tuple[int, ...]) -> GameResult:
    """Play one arena game (in whichever process runs it)."""
    if spec.isolate:
        from cinco.core.bots.isolation import play_isolated

        return play_isolated(spec, index, seed, arrangement)

    from cinco.core.engine.events import Notice
    from cinco.core.game.game import Game
    from cinco.core.host.registry import default_registry
    from cinco.core.records.recording import RecordWriter

    config = game_config(spec, seed, arrangement)
    plugins = []
    if spec.records is not None:
        plugins.append(RecordWriter(record_path(spec, index)))
    game = Game.new(config, registry=default_registry(), plugins=plugins)
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


def record_path(spec: ArenaSpec, index: int) -> Path:
    """Where game *index*'s record goes (with ``--records``)."""
    assert spec.records is not None
    return spec.records / f"game-{index + 1:05d}.jsonl"


def play_batch(spec: ArenaSpec, jobs: Sequence[Job]) -> list[GameResult]:
    """Play a task's games, one after the other (in a worker: a process of this machine's
    pool, or a Dask worker anywhere). Isolated bots keep their processes for the task."""
    if spec.isolate:
        from cinco.core.bots.isolation import Bench, play_isolated

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
        # One game at a time (isolated bots: a batch, to keep their processes), so that the
        # SPRT stops at once.
        size = batch or (MAX_AUTO_BATCH if spec.isolate else 1)
        for chunk in batches(plan, size):
            collector.add(play_batch(spec, chunk))
            if collector.done:
                break
    else:
        width = max(1, slots or jobs)
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
    report = Report.of(spec, teams, collector.results(), time.perf_counter() - started)
    if sprt is not None:
        report.sprt = sprt.outcome(collector.tally, decided=collector.done)
    return report


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


def default_jobs() -> int:
    """As many worker processes as this machine has cores."""
    return max(1, os.cpu_count() or 1)


__all__ = [
    "ArenaSpec",
    "Entrant",
    "GameResult",
    "Report",
    "Sprt",
    "SprtOutcome",
    "SprtTally",
    "Standing",
    "arrangements",
    "auto_batch",
    "batches",
    "bernoulli_llr",
    "deal_seed",
    "default_jobs",
    "elo_ratings",
    "expected_score",
    "game_plan",
    "parse_entrants",
    "play_batch",
    "play_one",
    "run",
    "wilson",
]
