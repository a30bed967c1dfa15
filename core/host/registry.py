"""The registry: the installed plugins and what they add (:mod:`cinco.core.host.loader`), and
the games they allow: the layouts for a number of players, checked configurations
(:meth:`Registry.configure`), each game's rule set, and its bots (in a worker process of their
own if asked: :mod:`cinco.core.host.bot_process`).

Built-in plugins are registered through the same hooks as third-party ones; third-party ones
are found through the ``cinco`` entry-point group.

>>> registry = Registry(entry_points=False)
>>> sorted(registry.variants())
['joker']
>>> registry.layout(6).name, registry.layout(6, "3x2").teams
('2x3', 3)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any

from cinco.core.engine.config import GameConfig, Layout, Seat, or_list
from cinco.core.engine.errors import ConfigError
from cinco.core.engine.rules import RuleSet
from cinco.core.host.bot_process import BotProcess, processes_available
from cinco.core.host.declarations import SETTINGS_OPTION, Bot, BotContext, TeamStyle, Variant
from cinco.core.host.loader import PluginLoader
from cinco.core.words.i18n import _


@dataclass(eq=False)  # compared by identity, as a PluginLoader
class Registry(PluginLoader):
    """The plugins of a Cinco installation (:class:`~cinco.core.host.loader.PluginLoader`) and
    the games they allow: layouts, checked configurations, rule sets and bots."""

    #: Let bots think in a worker process of their own (:mod:`cinco.core.host.bot_process`), so
    #: that an app's drawing thread keeps the interpreter while they search. Ignored with
    #: *plugins* (objects cannot be sent to another process) and where processes cannot start.
    bot_processes: bool = False
    #: Plugin settings for every game this registry configures (a server's ``--setting``
    #: and settings file): :meth:`configure` records them, under the game's own choices.
    chosen_settings: Mapping[str, object] = field(default_factory=dict)
    _shared_rules: dict[tuple[str, ...], RuleSet] = field(
        init=False, repr=False, default_factory=dict
    )
    _bots_worker: BotProcess | None = field(init=False, repr=False, default=None)
    #: Variants not installed that a record says change only game parameters: a game of
    #: them is rebuilt with the parameters it recorded (:meth:`stand_in`). Never offered.
    _stand_ins: dict[str, Variant] = field(init=False, repr=False, default_factory=dict)

    def layout(self, players: int, name: str | None = None) -> Layout:
        """The layout called *name* for *players*, or the first one registered for *players*."""
        counts = self.player_counts()
        if players not in counts:
            raise ConfigError(
                _(
                    "Cinco is played by {counts} players (as the installed layouts say), not {n}."
                ).format(counts=or_list(counts), n=players)
            )
        fitting = [lay for lay in self.layouts().values() if lay.players == players]
        if name is None:
            if not fitting:
                raise ConfigError(_("No layout for {n} players is installed.").format(n=players))
            return fitting[0]
        for lay in fitting:
            if lay.name == name:
                return lay
        raise ConfigError(
            _("No layout {name!r} for {n} players. Choose one of: {choices}.").format(
                name=name, n=players, choices=", ".join(lay.name for lay in fitting) or "-"
            )
        )

    def check_layout(self, config: GameConfig) -> None:
        """Refuse *config* unless an installed layout has its name, players and teams (P1, P2:
        the layouts say who may play). A layout whose plugin is not installed is trusted as
        recorded: a record names its teams, so it replays without the plugin."""
        installed = self.layouts().get(config.layout)
        if installed is None:
            self.layout(config.players)  # at least the player count must be playable here
            return
        if (installed.players, installed.teams) != (config.players, config.teams):
            raise ConfigError(
                _(
                    "Layout {name} is for {players} players in {teams} teams, not {n} in {t}."
                ).format(
                    name=installed.name,
                    players=installed.players,
                    teams=installed.teams,
                    n=config.players,
                    t=config.teams,
                )
            )

    def player_counts(self) -> tuple[int, ...]:
        """The player counts some installed layout is for (P1: 2, 3, 4 and 6 built in)."""
        return tuple(sorted({layout.players for layout in self.layouts().values()}))

    def layouts_for(self, players: int) -> list[Layout]:
        """The installed layouts for *players*, the default (first registered) first."""
        return [layout for layout in self.layouts().values() if layout.players == players]

    def configure(
        self,
        players: int = 2,
        *,
        layout: str | None = None,
        variants: Sequence[str] = (),
        seats: Sequence[Seat] | None = None,
        seed: int | None = None,
        first_seat: int | None = None,
        turn_limit: int | None = None,
        options: Mapping[str, Any] | None = None,
        settings: Mapping[str, object] | None = None,
    ) -> GameConfig:
        """A checked :class:`GameConfig`: the layout and variants exist, the bots are known.

        *options* are recorded with the game, for example ``{"bot_time_budget": 2.0}``: the
        seconds a bot may think per move before the move goes to a random one. *settings*
        are plugin settings (:class:`Setting`), name → value or text, checked and recorded in
        the options (``"settings"``)."""
        chosen = {**self.chosen_settings, **(settings or {})}
        layout_of = self.layout(players, layout)
        known = self.variants()
        for name in variants:
            if name not in known:
                raise ConfigError(
                    _("Unknown variant {name!r}. Installed variants: {choices}.").format(
                        name=name, choices=", ".join(sorted(known)) or "-"
                    )
                )
        self.check_variants(variants)
        if seats is None:
            seats = GameConfig.for_players(players, teams=layout_of.teams).seats
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
            teams=layout_of.teams,
            layout=layout_of.name,
            variants=tuple(dict.fromkeys(variants)),
            seed=seed,
            first_seat=first_seat,
            turn_limit=turn_limit,
            options=dict(options or {})
            | ({SETTINGS_OPTION: self.check_settings(chosen)} if chosen else {}),
        )

    def check_settings(self, chosen: Mapping[str, object]) -> dict[str, Any]:
        """*chosen* settings (name → value or text), each declared by a plugin and of its
        type: the values to record. Raises :class:`ConfigError` saying what is wrong."""
        known = self.settings()
        values: dict[str, Any] = {}
        for name, value in chosen.items():
            setting = known.get(name)
            if setting is None:
                raise ConfigError(
                    _("Unknown setting {name!r}. The installed plugins' settings: {known}.").format(
                        name=name, known=", ".join(sorted(known)) or "-"
                    )
                )
            values[name] = setting.parse(value)
        return values

    def setting(self, config: GameConfig, name: str) -> Any:
        """The value of the setting *name* in a game of *config*: the one chosen for it (as
        recorded), else the setting's default. Raises :class:`ConfigError` for a setting no
        installed plugin declares and the game does not hold."""
        chosen = config.options.get(SETTINGS_OPTION) or {}
        if name in chosen:
            return chosen[name]
        setting = self.settings().get(name)
        if setting is None:
            raise ConfigError(_("Unknown setting {name!r}.").format(name=name))
        return setting.default

    def check_variants(self, names: Sequence[str]) -> None:
        """Refuse a choice of variants that cannot be played together: an incompatible pair
        (declared by either) or a variant without one it requires (``Variant.incompatible``,
        ``Variant.requires``). Names not installed are left to the caller."""
        known = self.variants()
        chosen = [name for name in dict.fromkeys(names) if name in known]
        for index, name in enumerate(chosen):
            for other in chosen[index + 1 :]:
                if other in known[name].incompatible or name in known[other].incompatible:
                    raise ConfigError(
                        _(
                            "The variants {a!r} and {b!r} cannot be played together (as {who} "
                            "says). Choose one of them."
                        ).format(
                            a=name,
                            b=other,
                            who=name if other in known[name].incompatible else other,
                        )
                    )
            missing = [need for need in known[name].requires if need not in chosen]
            if missing:
                raise ConfigError(
                    _("The variant {name!r} is played only with {needs}: add {options}.").format(
                        name=name,
                        needs=", ".join(repr(need) for need in missing),
                        options=" ".join(f"--variant {need}" for need in missing),
                    )
                )

    def incompatible_with(self, chosen: Sequence[str]) -> set[str]:
        """The installed variants that cannot be added to *chosen* (for a chooser to grey
        out): each is declared incompatible with one of them, or one of them with it."""
        known = self.variants()
        picked = [name for name in chosen if name in known]
        return {
            name
            for name, variant in known.items()
            if name not in picked
            and any(
                other in variant.incompatible or name in known[other].incompatible
                for other in picked
            )
        }

    def team_style(self, team: int) -> TeamStyle:
        """The style of *team* (styles repeat beyond the registered ones)."""
        styles = self.team_styles() or [TeamStyle("?", "#888888", "?", "?")]
        return styles[team % len(styles)]

    def rules_for(self, config: GameConfig, *, shared: bool = False) -> RuleSet:
        """The rules of a game with *config*: the standard rules and its variants' hooks.

        A *shared* rule set is made once per combination of variants and handed to every game
        that asks (it must then not be given plugins of its own): building one costs more than
        a whole bot game's moves.
        """
        if shared:
            cached = self._shared_rules.get(config.variants)
            if cached is None:
                cached = self._shared_rules[config.variants] = self.rules_for(config)
            return cached

        known = {**self._stand_ins, **self.variants()}
        missing = [name for name in config.variants if name not in known]
        if missing:
            raise ConfigError(
                _("This game uses variant {names}, which is not installed.").format(
                    names=", ".join(missing)
                )
            )
        # Named so that a failing rule hook is reported with the variant and its plugin.
        labels = [
            _("variant {name!r} from {plugin}").format(
                name=name, plugin=self.describe(self.owner("variant", name) or "?")
            )
            for name in config.variants
        ]
        return RuleSet((known[name].rules for name in config.variants), names=labels)

    def stand_in(self, name: str) -> None:
        """Let games of the variant *name*, which is not installed, be rebuilt from their
        records: the record says the variant changes only game parameters, and it holds them
        (``game_started``), so the standard rules with those parameters are its rules. New
        games of it are still refused (:meth:`configure`), and it is not listed."""
        if name not in self.variants():
            self._stand_ins[name] = Variant(name, "", rules=RecordedParams())

    def create_bot(self, context: BotContext, name: str) -> Bot:
        spec = self.bots().get(name)
        if spec is None:
            raise ConfigError(
                _("Unknown bot {name!r}. Installed bots: {choices}.").format(
                    name=name, choices=", ".join(sorted(self.bots()))
                )
            )
        if self.bot_processes and not self.plugins and processes_available():
            return self._bot_process().create(name, context)
        return spec.create(context)

    def prepare_bots(self) -> None:
        """Start the bots' process now (with *bot_processes*), rather than at the first bot's
        move, which would then wait a second for it to load."""
        if self.bot_processes and not self.plugins and processes_available():
            self._bot_process()

    def _bot_process(self) -> BotProcess:
        if self._bots_worker is None:
            # The worker makes a registry like this one (the class pickles by name).
            make = partial(Registry, entry_points=self.entry_points, builtins=self.builtins)
            self._bots_worker = BotProcess(make)
        return self._bots_worker


class RecordedParams:
    """The rules of a variant that is not installed and only changed game parameters: no rule
    hook (the parameters are the recorded ones, in the game's configuration)."""


@cache
def default_registry() -> Registry:
    """The registry of this installation: built-ins plus every ``cinco`` entry point."""
    return Registry()
