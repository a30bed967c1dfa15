"""Game configuration: seats, teams, variants, seed. Recorded in a game's first event.

>>> config = GameConfig.for_players(2, seed=7)
>>> config.teams, config.team_of(0), config.team_of(1)
(2, 0, 1)
>>> GameConfig.from_dict(config.to_dict()) == config
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import ConfigError
from .i18n import _

#: P1: the player counts of the standard game. Which counts a game may have is up to the
#: installed layouts (:meth:`cinco.core.registry.Registry.player_counts`); this is only what
#: the built-in layout plugins register.
PLAYER_COUNTS = (2, 3, 4, 6)


@dataclass(frozen=True)
class Layout:
    """How the seats of a game form teams (P2). Seat *i* plays for team ``i % teams`` (P4)."""

    name: str
    players: int
    teams: int
    description: str = ""

    def __post_init__(self) -> None:
        if self.players % self.teams:
            raise ConfigError(
                _("Layout {name}: {players} players cannot form {teams} equal teams.").format(
                    name=self.name, players=self.players, teams=self.teams
                )
            )


@dataclass(frozen=True)
class Seat:
    """One seat at the table: who sits there, and which bot plays it (``None`` for a person)."""

    name: str
    bot: str | None = None
    level: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot is not None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "level": self.level}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(name=str(data["name"]), bot=data.get("bot"), level=data.get("level"))


DEFAULT_NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")


@dataclass(frozen=True)
class GameConfig:
    """Everything that fixes a game before the first card is dealt.

    ``teams`` is resolved from the layout when the game is configured, so that replaying a record
    needs no plugin to know the teams. ``turn_limit`` is E4 (``None``: no limit).
    """

    seats: tuple[Seat, ...]
    teams: int
    layout: str
    variants: tuple[str, ...] = ()
    #: Fixes every shuffle (``None``: :meth:`cinco.core.game.Game.new` draws one from the
    #: operating system). Only the referee sees it; every other view holds ``None``.
    seed: int | None = None
    first_seat: int | None = None
    turn_limit: int | None = None
    options: dict[str, Any] = field(default_factory=dict, compare=True, hash=False)

    def __post_init__(self) -> None:
        players = len(self.seats)
        if self.teams < 2 or players < self.teams or players % self.teams:
            raise ConfigError(
                _("{players} players cannot form {teams} equal teams.").format(
                    players=players, teams=self.teams
                )
            )
        if self.first_seat is not None and not 0 <= self.first_seat < players:
            raise ConfigError(_("The first seat must be between 1 and {n}.").format(n=players))
        if self.turn_limit is not None and self.turn_limit < 1:
            raise ConfigError(_("The turn limit must be a positive number of turns."))

    @classmethod
    def for_players(
        cls,
        players: int,
        *,
        teams: int | None = None,
        layout: str | None = None,
        bots: tuple[str | None, ...] | None = None,
        names: tuple[str, ...] | None = None,
        **kwargs: Any,
    ) -> GameConfig:
        """A configuration with default names. Without *teams*, the layout (*layout*, or the
        first installed for *players*) says how many: P2, from the layout plugins."""
        if teams is None:
            from .registry import default_registry

            chosen = default_registry().layout(players, layout)
            teams, layout = chosen.teams, chosen.name
        seat_bots = bots or (None,) * players
        seat_names = names or DEFAULT_NAMES[:players]
        seats = tuple(Seat(name=seat_names[i], bot=seat_bots[i]) for i in range(players))
        return cls(
            seats=seats,
            teams=teams,
            layout=layout or f"{teams}x{players // teams}",
            **kwargs,
        )

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def team_size(self) -> int:
        return self.players // self.teams

    def team_of(self, seat: int) -> int:
        """P4: seats alternate teams."""
        return seat % self.teams

    def seats_of(self, team: int) -> tuple[int, ...]:
        return tuple(range(team, self.players, self.teams))

    def has_variant(self, name: str) -> bool:
        return name in self.variants

    @property
    def all_bots(self) -> bool:
        return all(seat.is_bot for seat in self.seats)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seats": [seat.to_dict() for seat in self.seats],
            "teams": self.teams,
            "layout": self.layout,
            "variants": list(self.variants),
            "seed": self.seed,
            "first_seat": self.first_seat,
            "turn_limit": self.turn_limit,
            "options": dict(self.options),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameConfig:
        try:
            return cls(
                seats=tuple(Seat.from_dict(s) for s in data["seats"]),
                teams=int(data["teams"]),
                layout=str(data["layout"]),
                variants=tuple(str(v) for v in data.get("variants", ())),
                seed=None if data.get("seed") is None else _whole(data["seed"], "seed"),
                first_seat=data.get("first_seat"),
                turn_limit=data.get("turn_limit"),
                options=dict(data.get("options") or {}),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(_("Malformed game configuration: {error}").format(error=exc)) from exc


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(
            _("The {name} must be a whole number, not {value!r}.").format(name=name, value=value)
        )
    return value
