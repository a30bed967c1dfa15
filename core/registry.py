"""The registry: the installed plugins and what they add (layouts, variants, bots).

Built-in plugins are registered through the same hooks as third-party ones; third-party ones
are found through the ``cinco`` entry-point group.

>>> registry = Registry(entry_points=False)
>>> sorted(registry.variants())
['joker']
>>> registry.layout(6).name, registry.layout(6, "3x2").teams
('2x3', 3)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

import pluggy

from . import hookspecs
from .config import PLAYER_COUNTS, GameConfig, Layout, Seat
from .errors import ConfigError, PluginError
from .i18n import _

if TYPE_CHECKING:
    from .commands import Command
    from .game import Game
    from .rules import LegalActions, RuleSet
    from .state import GameState

#: Where Cinco finds the built-in plugins; each is an ordinary plugin module.
BUILTIN_PLUGINS = (
    "cinco.plugins.layouts",
    "cinco.plugins.joker",
    "cinco.plugins.six_players",
    "cinco.plugins.bots.random_bot",
    "cinco.plugins.bots.greedy",
    "cinco.plugins.game_log",
)


@dataclass(frozen=True)
class Variant:
    """A rule variant. ``rules`` is a plugin object implementing rule hooks; it is registered
    only in games that enable the variant."""

    name: str
    description: str
    rules: object


@dataclass(frozen=True)
class BotContext:
    """What a bot is told when it takes a seat. Nothing here is secret."""

    seat: int
    config: GameConfig
    rules: RuleSet
    level: str | None = None
    seed: int = 0
    #: Seconds per move the bot may think, when the game sets a budget.
    time_budget: float | None = None


class Bot(Protocol):
    """A computer player. It sees only its own player's view of the game."""

    def choose(self, view: GameState, legal: LegalActions) -> Command:
        """Pick one of *legal* (never empty) given *view*, the state as this seat sees it."""
        ...


@dataclass(frozen=True)
class BotSpec:
    """A kind of bot a plugin offers: ``create`` makes one for a seat."""

    name: str
    description: str
    create: Callable[[BotContext], Bot]
    levels: tuple[str, ...] = ()


@dataclass
class Registry:
    """The plugin manager of a Cinco installation, and what its plugins add."""

    entry_points: bool = True
    builtins: bool = True
    plugins: Sequence[object] = ()
    pm: pluggy.PluginManager = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        if self.builtins:
            for name in BUILTIN_PLUGINS:
                self.pm.register(importlib.import_module(name), name=name)
        for plugin in self.plugins:
            self.pm.register(plugin)
        if self.entry_points:
            self._load_entry_points()

    def _load_entry_points(self) -> None:
        try:
            self.pm.load_setuptools_entrypoints(hookspecs.PROJECT)
        except Exception as exc:
            raise PluginError(
                _("A Cinco plugin failed to load: {error}. Uninstall or upgrade it.").format(
                    error=exc
                )
            ) from exc

    def _collect(self, results: Iterable[Iterable[Any]], what: str) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for batch in results:
            for item in batch:
                found.setdefault(item.name, item)
        return found

    @cache  # noqa: B019 - a registry lives as long as the process
    def layouts(self) -> dict[str, Layout]:
        return self._collect(self.pm.hook.cinco_register_layouts(), "layout")

    @cache  # noqa: B019
    def variants(self) -> dict[str, Variant]:
        return self._collect(self.pm.hook.cinco_register_variants(), "variant")

    @cache  # noqa: B019
    def bots(self) -> dict[str, BotSpec]:
        return self._collect(self.pm.hook.cinco_register_bots(), "bot")

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other

    # -- configuring games --------------------------------------------------------------------

    def layout(self, players: int, name: str | None = None) -> Layout:
        """The layout called *name* for *players*, or the first one registered for *players*."""
        if players not in PLAYER_COUNTS:
            raise ConfigError(
                _("Cinco is played by 2, 3, 4 or 6 players, not {n}.").format(n=players)
            )
        fitting = [lay for lay in self.layouts().values() if lay.players == players]
        if name is None:
            if not fitting:
                raise ConfigError(
                    _("No layout for {n} players is installed.").format(n=players)
                )
            return fitting[0]
        for lay in fitting:
            if lay.name == name:
                return lay
        raise ConfigError(
            _("No layout {name!r} for {n} players. Choose one of: {choices}.").format(
                name=name, n=players, choices=", ".join(lay.name for lay in fitting) or "-"
            )
        )

    def configure(
        self,
        players: int = 2,
        *,
        layout: str | None = None,
        variants: Sequence[str] = (),
        seats: Sequence[Seat] | None = None,
        seed: int = 0,
        first_seat: int | None = None,
        turn_limit: int | None = None,
    ) -> GameConfig:
        """A checked :class:`GameConfig`: the layout and variants exist, the bots are known."""
        chosen = self.layout(players, layout)
        known = self.variants()
        for name in variants:
            if name not in known:
                raise ConfigError(
                    _("Unknown variant {name!r}. Installed variants: {choices}.").format(
                        name=name, choices=", ".join(sorted(known)) or "-"
                    )
                )
        if seats is None:
            seats = GameConfig.for_players(players, teams=chosen.teams).seats
        if len(seats) != players:
            raise ConfigError(
                _("{n} seats given for {players} players.").format(n=len(seats), players=players)
            )
        bots = self.bots()
        for seat in seats:
            if seat.bot is not None and seat.bot not in bots:
                raise ConfigError(
                    _("Unknown bot {name!r}. Installed bots: {choices}.").format(
                        name=seat.bot, choices=", ".join(sorted(bots))
                    )
                )
            if seat.bot is not None and seat.level is not None:
                levels = bots[seat.bot].levels
                if seat.level not in levels:
                    raise ConfigError(
                        _("Bot {bot!r} has no level {level!r}. Levels: {choices}.").format(
                            bot=seat.bot, level=seat.level, choices=", ".join(levels) or "-"
                        )
                    )
        return GameConfig(
            seats=tuple(seats),
            teams=chosen.teams,
            layout=chosen.name,
            variants=tuple(dict.fromkeys(variants)),
            seed=seed,
            first_seat=first_seat,
            turn_limit=turn_limit,
        )

    def rules_for(self, config: GameConfig) -> RuleSet:
        """The rules of a game with *config*: the standard rules and its variants' hooks."""
        from .rules import RuleSet

        known = self.variants()
        missing = [name for name in config.variants if name not in known]
        if missing:
            raise ConfigError(
                _("This game uses variant {names}, which is not installed.").format(
                    names=", ".join(missing)
                )
            )
        return RuleSet(known[name].rules for name in config.variants)

    def create_bot(self, context: BotContext, name: str) -> Bot:
        spec = self.bots().get(name)
        if spec is None:
            raise ConfigError(
                _("Unknown bot {name!r}. Installed bots: {choices}.").format(
                    name=name, choices=", ".join(sorted(self.bots()))
                )
            )
        return spec.create(context)

    def new_game(self, config: GameConfig, plugins: Sequence[object] = ()) -> Game:
        """Start a game: shuffle, deal, and store the opening events."""
        from .game import Game

        return Game.new(config, registry=self, plugins=plugins)


@cache
def default_registry() -> Registry:
    """The registry of this installation: built-ins plus every ``cinco`` entry point."""
    return Registry()
