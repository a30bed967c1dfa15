"""Game configuration: seats, teams, variants, seed. Recorded in a game's first event.

>>> config = GameConfig.for_players(2, seed=7)
>>> config.teams, config.team_of(0), config.team_of(1)
(2, 0, 1)
>>> GameConfig.from_dict(config.to_dict()) == config
True

A configuration is deeply immutable: its options are a read-only mapping, lists in them are
tuples, and :meth:`GameConfig.to_dict` gives plain JSON again.

>>> config = GameConfig.for_players(2, options={"bot_time_budget": 2.0, "trace": [1, 2]})
>>> config.options["trace"], config.to_dict()["options"]
((1, 2), {'bot_time_budget': 2.0, 'trace': [1, 2]})
>>> config.options["bot_time_budget"] = 9.0
Traceback (most recent call last):
...
TypeError: 'mappingproxy' object does not support item assignment
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from cinco.core.engine.errors import ConfigError
from cinco.core.engine.params import STANDARD_PARAMS, GameParams
from cinco.core.words.i18n import _

#: P1, P2: the layouts of the standard game, name → (players, teams); the first for a player
#: count is its default. The built-in layout plugins register these (``cinco.plugins.layouts``,
#: ``cinco.plugins.six_players``; a test holds them to it). Which layouts a game may have is up
#: to the installed plugins (:meth:`cinco.core.host.registry.Registry.configure`); this is what
#: a configuration made without the plugin host (:meth:`GameConfig.for_players`) knows.
STANDARD_LAYOUTS: dict[str, tuple[int, int]] = {
    "2x1": (2, 2),
    "3x1": (3, 3),
    "2x2": (4, 2),
    "2x3": (6, 2),
    "3x2": (6, 3),
}
#: P1: the player counts of the standard game.
PLAYER_COUNTS = tuple(sorted({players for players, _teams in STANDARD_LAYOUTS.values()}))


def or_list(items: Sequence[object]) -> str:
    """``2, 3, 4 or 6``."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words) or "-"
    return _("{first} or {last}").format(first=", ".join(words[:-1]), last=words[-1])


def standard_layout(players: int, name: str | None = None) -> str:
    """The standard layout called *name* for *players*, or the default one for *players*
    (P1, P2). Raises :class:`ConfigError` as the registry does for a layout it has not.

    >>> standard_layout(6), standard_layout(6, "3x2")
    ('2x3', '3x2')
    """
    if players not in PLAYER_COUNTS:
        raise ConfigError(
            _(
                "Cinco is played by {counts} players (as the installed layouts say), not {n}."
            ).format(counts=or_list(PLAYER_COUNTS), n=players)
        )
    fitting = [layout for layout, (count, _teams) in STANDARD_LAYOUTS.items() if count == players]
    if name is None:
        return fitting[0]
    if name not in fitting:
        raise ConfigError(
            _("No layout {name!r} for {n} players. Choose one of: {choices}.").format(
                name=name, n=players, choices=", ".join(fitting)
            )
        )
    return name


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
        bot, level = data.get("bot"), data.get("level")
        for field_name, value in (("bot", bot), ("level", level)):
            if value is not None and not isinstance(value, str):
                raise ConfigError(
                    _("A seat's {field} must be a name, not {value!r}.").format(
                        field=field_name, value=value
                    )
                )
        return cls(name=str(data["name"]), bot=bot, level=level)


DEFAULT_NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")


def default_name(seat: int) -> str:
    """The name of *seat* when nobody gives one: Ann, Bob, ... then P7, P8 (a plugin's layout
    may seat more players than there are names)."""
    return DEFAULT_NAMES[seat] if seat < len(DEFAULT_NAMES) else f"P{seat + 1}"


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
    #: Fixes every shuffle (``None``: :meth:`cinco.core.game.game.Game.new` draws one from the
    #: operating system). Only the referee sees it; every other view holds ``None``.
    seed: int | None = None
    first_seat: int | None = None
    turn_limit: int | None = None
    #: Recorded settings such as ``bot_time_budget``: a read-only mapping over a private copy
    #: of what was given (nested objects read-only too, lists become tuples), so that nobody
    #: holding the configuration (a bot, a plugin, a frontend) can change the game's options
    #: behind the log's back. Equal to a plain ``dict`` of the same scalars.
    options: Mapping[str, Any] = field(default_factory=dict, compare=True, hash=False)
    #: The numbers of the rules (hand limit, winning length, ...): the standard game's unless
    #: the variants declare others (``cinco_game_params``, resolved by
    #: :meth:`cinco.core.game.game.Game.new`). Recorded, so that a record replays by its own rules.
    params: GameParams = STANDARD_PARAMS

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", freeze_options(self.options))
        if not isinstance(self.params, GameParams):
            raise ConfigError(
                _("The game parameters must be GameParams, not {value!r}.").format(
                    value=self.params
                )
            )
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
        """A configuration with default names. Without *teams*, the standard layout (*layout*,
        or the default for *players*: :data:`STANDARD_LAYOUTS`) says how many. A layout a
        plugin adds takes *teams*, or :meth:`cinco.core.host.registry.Registry.configure`,
        which knows the installed layouts (P2)."""
        if teams is None:
            layout = standard_layout(players, layout)
            teams = STANDARD_LAYOUTS[layout][1]
        seat_bots = bots or (None,) * players
        seat_names = names or tuple(map(default_name, range(players)))
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
            "options": thaw_options(self.options),
        } | ({"params": self.params.to_dict()} if not self.params.is_standard else {})

    def __reduce__(self) -> tuple[Any, ...]:
        # A read-only mapping cannot be pickled or deep-copied; the JSON form can.
        return (GameConfig.from_dict, (self.to_dict(),))

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
                options=data.get("options") or {},
                params=GameParams.from_dict(data.get("params")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(_("Malformed game configuration: {error}").format(error=exc)) from exc


def _frozen(value: Any, where: str) -> Any:
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list | tuple):
        return tuple(_frozen(item, f"{where}[{i}]") for i, item in enumerate(value))
    if isinstance(value, Mapping):
        return freeze_options(value, where)
    raise ConfigError(
        _(
            "The option {where} must hold only numbers, text, true/false, null, lists and "
            "objects (what a record can hold), not {value!r}."
        ).format(where=where, value=value)
    )


def freeze_options(options: Any, where: str = "options") -> Mapping[str, Any]:
    """*options* as a read-only mapping over a private copy, nested lists and objects frozen
    too (tuples and read-only mappings). Refuses what a record cannot hold.

    >>> frozen = freeze_options({"a": [1, {"b": 2}]})
    >>> frozen["a"][1]["b"], type(frozen).__name__
    (2, 'mappingproxy')
    """
    if not isinstance(options, Mapping):
        raise ConfigError(
            _("The {where} must be an object of named settings, not {value!r}.").format(
                where=where, value=options
            )
        )
    frozen: dict[str, Any] = {}
    for key, value in options.items():
        if not isinstance(key, str):
            raise ConfigError(
                _("The {where} must be named by text, not {key!r}.").format(where=where, key=key)
            )
        frozen[key] = _frozen(value, f"{where}.{key}")
    return MappingProxyType(frozen)


def thaw_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The plain JSON form of frozen *options*: dicts and lists again."""
    return {key: _thawed(value) for key, value in options.items()}


def _thawed(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thawed(item) for item in value]
    if isinstance(value, Mapping):
        return thaw_options(value)
    return value


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(
            _("The {name} must be a whole number, not {value!r}.").format(name=name, value=value)
        )
    return value
