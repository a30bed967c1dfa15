"""What an arena plays (``cinco arena``): the entrants, the tournament asked for, each game's
deal, seating and configuration, where its record goes, and how it went.

Each *entrant* (a bot, optionally at a level: ``ismcts:hard``) plays for whole teams. Games are
played in *rounds*: one deal (one seed) is played once under every arrangement of the entrants
over the teams — every permutation when there are as many entrants as teams, every rotation
when there are fewer — so that each entrant sits first, second, ... equally often and meets the
same cards. The first seat is always seat 1, whose team moves first.

>>> entrants = parse_entrants("greedy,random")
>>> arrangements(entrants, teams=2)
[(0, 1), (1, 0)]
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cinco.core.bots.simulation import DEFAULT_TURN_LIMIT
from cinco.core.engine.config import GameConfig, Seat
from cinco.core.engine.errors import ConfigError
from cinco.core.game.game import BOT_ITERATIONS, BOT_TIME_BUDGET
from cinco.core.host.registry import default_registry
from cinco.core.words.i18n import _


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
    #: Plugin settings for every game (name → value, recorded with it), as pairs.
    settings: tuple[tuple[str, Any], ...] = ()


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
    #: The same, per team (an index as in *teams*; empty when not counted).
    replaced_teams: tuple[int, ...] = ()


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


def check(spec: ArenaSpec) -> int:
    """Check *spec* against the installed plugins (bots, levels, layout, variants) and return
    the number of teams. Raises :class:`ConfigError` saying what is wrong."""
    registry = default_registry()
    if spec.budget is not None and spec.iterations is not None:
        raise ConfigError(_("Give either a time budget or an iteration budget, not both."))
    layout = registry.layout(spec.players, spec.layout)
    seats = [Seat(e.label, bot=e.bot, level=e.level) for e in spec.entrants]
    seats = (seats * spec.players)[: spec.players]
    registry.configure(
        spec.players,
        layout=layout.name,
        variants=spec.variants,
        seats=seats,
        settings=dict(spec.settings),
    )
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
        settings=dict(spec.settings),
    )


def record_path(spec: ArenaSpec, index: int) -> Path:
    """Where game *index*'s record goes (with ``--records``)."""
    assert spec.records is not None
    return spec.records / f"game-{index + 1:05d}.jsonl"
