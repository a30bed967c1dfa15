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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import metadata
from typing import TYPE_CHECKING, Any, Protocol

import pluggy

from . import hookspecs
from .config import GameConfig, Layout, Seat
from .errors import ConfigError, PluginError
from .i18n import _
from .loading import (
    Conflict,
    PluginInfo,
    PluginProblem,
    PluginSource,
    api_problem,
    declared_api,
    describe_error,
    distribution_of,
    find_entry_points,
    logger,
)

if TYPE_CHECKING:
    from .commands import Command
    from .game import Game
    from .oracle import RulesOracle
    from .rules import LegalActions, RuleSet
    from .state import GameState

#: Where Cinco finds the built-in plugins; each is an ordinary plugin module.
BUILTIN_PLUGINS = (
    "cinco.plugins.layouts",
    "cinco.plugins.joker",
    "cinco.plugins.six_players",
    "cinco.plugins.bots.random_bot",
    "cinco.plugins.bots.greedy",
    "cinco.plugins.bots.ismcts",
    "cinco.plugins.game_log",
)


@dataclass(frozen=True)
class Variant:
    """A rule variant. ``rules`` is a plugin object implementing rule hooks; it is registered
    only in games that enable the variant. ``rules_text`` is the variant's own rules in Markdown
    (optional, hook API 2), shown by ``cinco rules`` after the standard rules."""

    name: str
    description: str
    rules: object
    rules_text: str = ""


@dataclass(frozen=True)
class BotContext:
    """What a bot is told when it takes a seat. Nothing here is secret: ``config`` is the
    configuration as the seat sees it (no seed), and ``rules`` is a read-only
    :class:`~cinco.core.oracle.RulesOracle` for look-ahead, not the game's rule set."""

    seat: int
    config: GameConfig
    rules: RulesOracle
    level: str | None = None
    seed: int = 0
    #: Seconds per move the bot may think, when the game sets a budget.
    time_budget: float | None = None
    #: A search bot's fixed budget of iterations per move, when the game sets one (a budget
    #: that, unlike time, makes its moves reproducible). Bots without a search ignore it.
    iterations: int | None = None


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


def hook_names() -> list[str]:
    """The names of every hook in :mod:`cinco.core.hookspecs`."""
    return sorted(name for name in vars(hookspecs) if name.startswith(f"{hookspecs.PROJECT}_"))


def rule_hooks(rules: object) -> tuple[str, ...]:
    """The hooks a variant's ``rules`` object implements."""
    marker = f"{hookspecs.PROJECT}_impl"
    return tuple(
        sorted(name for name in hook_names() if hasattr(getattr(rules, name, None), marker))
    )


def unknown_hooks(plugin: object) -> list[str]:
    """Names *plugin* marks with ``hookimpl`` that are not hooks (misspelt, or too new)."""
    marker = f"{hookspecs.PROJECT}_impl"
    known = set(hook_names())
    return sorted(
        name
        for name in dir(plugin)
        if name not in known and hasattr(getattr(plugin, name, None), marker)
    )


@dataclass
class Registry:
    """The plugin manager of a Cinco installation, and what its plugins add."""

    entry_points: bool = True
    builtins: bool = True
    plugins: Sequence[object] = ()
    pm: pluggy.PluginManager = field(init=False, repr=False)
    _shared_rules: dict[tuple[str, ...], RuleSet] = field(
        init=False, repr=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.sources: dict[str, PluginSource] = {}
        #: Plugins that failed to load or failed in a registration hook (they are left out).
        self.problems: list[PluginProblem] = []
        self._registered: dict[str, dict[str, Any]] = {}
        self._owners: dict[str, dict[str, list[str]]] = {}
        self._by_plugin: dict[str, dict[str, list[Any]]] = {}
        if self.builtins:
            from cinco import __version__

            for name in BUILTIN_PLUGINS:
                self.register(
                    importlib.import_module(name),
                    name=name,
                    source=PluginSource(
                        name, "builtin", "cinco", __version__, hookspecs.HOOK_API_VERSION
                    ),
                )
        for plugin in self.plugins:
            self.register(plugin)
        if self.entry_points:
            self._load_entry_points()

    # -- loading plugins ----------------------------------------------------------------------

    def register(
        self, plugin: object, name: str | None = None, *, source: PluginSource | None = None
    ) -> str:
        """Register *plugin* after checking its hook API version and its hooks; returns the
        name it is registered under. Raises :class:`PluginError` saying what to upgrade."""
        if name is None:
            name = getattr(plugin, "__name__", None) or type(plugin).__name__
            base, n = name, 1
            while self.pm.has_plugin(name):
                n += 1
                name = f"{base}-{n}"
        distribution = source.distribution if source else None
        problem = api_problem(plugin, name, distribution)
        if problem is not None:
            raise PluginError(problem)
        try:
            self.pm.register(plugin, name=name)
        except Exception as exc:  # pluggy's validation: wrong arguments, bad options, ...
            raise PluginError(
                _("Plugin {name!r} cannot be registered: {error}").format(
                    name=name, error=describe_error(exc)
                )
            ) from exc
        unknown = [
            caller.name for caller in self.pm.get_hookcallers(plugin) or () if caller.spec is None
        ]
        if unknown:
            self.pm.unregister(plugin)
            raise PluginError(
                _(
                    "Plugin {name!r} implements {hooks}, which this Cinco does not have. Known "
                    "hooks: {known}. Upgrade Cinco, or fix the name."
                ).format(name=name, hooks=", ".join(unknown), known=", ".join(hook_names()))
            )
        declared = declared_api(plugin)
        api = declared if isinstance(declared, int) else None
        version = getattr(plugin, "__version__", None)
        self.sources[name] = source or PluginSource(
            name, "given", version=version if isinstance(version, str) else None, api=api
        )
        if source is not None and source.api is None and api is not None:
            self.sources[name] = replace(source, api=api)
        self._registered.clear()
        self._owners.clear()
        return name

    def _load_entry_points(self) -> None:
        """Load each ``cinco`` entry point on its own: one that fails to import or is refused
        is reported (naming the entry point and its distribution) and left out."""
        found, shadowed = find_entry_points()
        for entry_point, used in shadowed:
            self._report(self._shadowed(entry_point, used.value, _label(used)))
        for entry_point in found:
            if self.pm.is_blocked(entry_point.name):
                continue  # blocked on purpose (pluggy's set_blocked)
            if self.pm.has_plugin(entry_point.name):
                taken = self.sources.get(entry_point.name)
                origin = taken.origin if taken is not None else "given"
                where = (
                    _("the built-in plugin of that name")
                    if origin == "builtin"
                    else _("the plugin of that name given to the registry")
                )
                self._report(self._shadowed(entry_point, None, where))
                continue
            dist, version = distribution_of(entry_point)
            label = _label(entry_point)
            try:
                plugin = entry_point.load()
            except Exception as exc:  # a broken plugin must never stop Cinco
                self._report(
                    PluginProblem(
                        entry_point.name,
                        None,
                        _(
                            "Cinco plugin {name!r} (entry point {value}, from {dist}) could not be "
                            "loaded: {error}. Cinco works without it; upgrade or uninstall {what}."
                        ).format(
                            name=entry_point.name,
                            value=entry_point.value,
                            dist=label,
                            error=describe_error(exc),
                            what=dist or entry_point.name,
                        ),
                        dist,
                    )
                )
                continue
            source = PluginSource(entry_point.name, "entry point", dist, version)
            try:
                self.register(plugin, name=entry_point.name, source=source)
            except PluginError as exc:
                self._report(
                    PluginProblem(
                        entry_point.name,
                        None,
                        _("Cinco plugin {name!r} (from {dist}) was refused: {error}").format(
                            name=entry_point.name, dist=label, error=exc
                        ),
                        dist,
                    )
                )

    def _shadowed(
        self, entry_point: metadata.EntryPoint, value: str | None, used: str
    ) -> PluginProblem:
        """An entry point left out because *used* (a label) already has its name."""
        dist, _version = distribution_of(entry_point)
        what = f"{used} ({value})" if value is not None else used
        return PluginProblem(
            entry_point.name,
            None,
            _(
                "Cinco plugin {name!r} (entry point {value}, from {dist}) is left out: the name is "
                "taken by {used}. Two plugins cannot share a name; uninstall one, or ask its "
                "authors to rename it."
            ).format(
                name=entry_point.name, value=entry_point.value, dist=_label(entry_point), used=what
            ),
            dist,
            kind="shadowed",
        )

    def _report(self, problem: PluginProblem) -> None:
        if problem not in self.problems:
            self.problems.append(problem)
            logger.warning("%s", problem.message)

    def _collect(self, kind: str, expected: type) -> dict[str, Any]:
        """Ask every plugin what it adds, one at a time, in registration order: the first
        plugin to add a name keeps it. A plugin that fails is reported and skipped."""
        if kind in self._registered:
            return self._registered[kind]
        from .rules import rule_wrappers

        hook = getattr(self.pm.hook, f"cinco_register_{kind}s")
        found: dict[str, Any] = {}
        owners: dict[str, list[str]] = {}
        by_plugin: dict[str, list[Any]] = {}
        for impl in hook.get_hookimpls():
            if impl.hookwrapper or impl.wrapper:
                continue
            try:
                items = list(impl.function() or ())
                # Duck-typed: a module imported twice (doctests) gives two ``Variant`` classes.
                bad = [item for item in items if type(item).__name__ != expected.__name__]
                if bad:
                    raise TypeError(
                        _("returned {item!r}, not a {kind}").format(item=bad[0], kind=kind)
                    )
                for item in items if kind == "variant" else ():
                    typos = unknown_hooks(item.rules)
                    if typos:
                        raise TypeError(
                            _(
                                "the rules of variant {name!r} implement {hooks}, which this Cinco "
                                "does not have"
                            ).format(name=item.name, hooks=", ".join(typos))
                        )
                    api = self.sources.get(impl.plugin_name, PluginSource("", "")).api
                    newer = [
                        hook
                        for hook in rule_hooks(item.rules)
                        if api is not None and hookspecs.HOOK_SINCE.get(hook, 1) > api
                    ]
                    if newer:
                        raise TypeError(
                            _(
                                "the rules of variant {name!r} implement {hook}, which is hook "
                                "API {since}, but the plugin declares CINCO_HOOK_API = {api}: "
                                "declare {since}"
                            ).format(
                                name=item.name,
                                hook=newer[0],
                                since=hookspecs.HOOK_SINCE[newer[0]],
                                api=api,
                            )
                        )
                    wrapped = rule_wrappers(item.rules)
                    if wrapped:
                        raise TypeError(
                            _(
                                "the rules of variant {name!r} implement {hook} as a wrapper "
                                "(hookwrapper=True or wrapper=True); a rule hook must be an "
                                "ordinary @hookimpl that answers or returns None"
                            ).format(name=item.name, hook=wrapped[0])
                        )
            except Exception as exc:  # a broken plugin must never stop Cinco
                self._report(
                    PluginProblem(
                        impl.plugin_name,
                        hook.name,
                        _(
                            "Plugin {plugin!r} failed in {hook}: {error}. Its {kind}s are left out."
                        ).format(
                            plugin=impl.plugin_name,
                            hook=hook.name,
                            error=describe_error(exc),
                            kind=kind,
                        ),
                        self.sources.get(impl.plugin_name, PluginSource("", "")).distribution,
                    )
                )
                continue
            by_plugin.setdefault(impl.plugin_name, []).extend(items)
            for item in items:
                owners.setdefault(item.name, []).append(impl.plugin_name)
                found.setdefault(item.name, item)
        self._registered[kind] = found
        self._owners[kind] = owners
        self._by_plugin[kind] = by_plugin
        for conflict in self._conflicts(kind):
            logger.warning("%s", conflict.message)
        return found

    def layouts(self) -> dict[str, Layout]:
        """Every layout, by name."""
        return self._collect("layout", Layout)

    def variants(self) -> dict[str, Variant]:
        """Every variant, by name."""
        return self._collect("variant", Variant)

    def bots(self) -> dict[str, BotSpec]:
        """Every bot, by name."""
        return self._collect("bot", BotSpec)

    def describe(self, name: str) -> str:
        """A plugin's name with its distribution and version, for messages."""
        source = self.sources.get(name)
        if source is None or source.distribution is None:
            return name
        return f"{name} ({source.distribution} {source.version or ''})".replace(" )", ")")

    def _conflicts(self, kind: str) -> list[Conflict]:
        return [
            Conflict(kind, item, self.describe(names[0]), tuple(map(self.describe, names[1:])))
            for item, names in self._owners.get(kind, {}).items()
            if len(names) > 1
        ]

    def conflicts(self) -> list[Conflict]:
        """Names added by more than one plugin; the first registered is the one used."""
        self.layouts(), self.variants(), self.bots()
        return [c for kind in ("layout", "variant", "bot") for c in self._conflicts(kind)]

    def owner(self, kind: str, name: str) -> str | None:
        """The plugin whose *kind* (layout, variant or bot) called *name* is used."""
        self._collect(kind, {"layout": Layout, "variant": Variant, "bot": BotSpec}[kind])
        names = self._owners[kind].get(name)
        return names[0] if names else None

    def plugin_info(self) -> list[PluginInfo]:
        """What each registered plugin is and adds (including names another plugin already
        took: see :meth:`conflicts`), in registration order."""
        self.conflicts()

        def added(kind: str, name: str) -> list[Any]:
            return self._by_plugin[kind].get(name, [])

        infos = []
        for name, source in self.sources.items():
            plugin = self.pm.get_plugin(name)
            if plugin is None:
                continue
            variants: list[Variant] = added("variant", name)
            infos.append(
                PluginInfo(
                    source=source,
                    hooks=tuple(sorted(c.name for c in self.pm.get_hookcallers(plugin) or ())),
                    layouts=tuple(layout.name for layout in added("layout", name)),
                    variants=tuple(variant.name for variant in variants),
                    bots=tuple(bot.name for bot in added("bot", name)),
                    variant_hooks=tuple(
                        (variant.name, rule_hooks(variant.rules)) for variant in variants
                    ),
                )
            )
        return infos

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other

    # -- configuring games --------------------------------------------------------------------

    def layout(self, players: int, name: str | None = None) -> Layout:
        """The layout called *name* for *players*, or the first one registered for *players*."""
        counts = self.player_counts()
        if players not in counts:
            raise ConfigError(
                _(
                    "Cinco is played by {counts} players (as the installed layouts say), not {n}."
                ).format(counts=_or_list(counts), n=players)
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
    ) -> GameConfig:
        """A checked :class:`GameConfig`: the layout and variants exist, the bots are known.

        *options* are recorded with the game, for example ``{"bot_time_budget": 2.0}``: the
        seconds a bot may think per move before the move goes to a random one."""
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
            options=dict(options or {}),
        )

    def rules_for(self, config: GameConfig, *, shared: bool = False) -> RuleSet:
        """The rules of a game with *config*: the standard rules and its variants' hooks.

        A *shared* rule set is made once per combination of variants and handed to every game
        that asks (it must then not be given plugins of its own): building one costs more than
        a whole bot game's moves.
        """
        from .rules import RuleSet

        if shared:
            cached = self._shared_rules.get(config.variants)
            if cached is None:
                cached = self._shared_rules[config.variants] = self.rules_for(config)
            return cached

        known = self.variants()
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


def _label(entry_point: metadata.EntryPoint) -> str:
    """The distribution that declares *entry_point*, with its version, for messages."""
    dist, version = distribution_of(entry_point)
    return f"{dist} {version}" if dist else _("an unknown distribution")


def _or_list(counts: Sequence[int]) -> str:
    """``2, 3, 4 or 6``."""
    words = [str(n) for n in counts]
    if len(words) <= 1:
        return "".join(words) or "-"
    return _("{first} or {last}").format(first=", ".join(words[:-1]), last=words[-1])
