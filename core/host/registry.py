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
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import metadata
from typing import TYPE_CHECKING, Any, Protocol

import pluggy

from cinco.core.engine.config import GameConfig, Layout, Seat
from cinco.core.engine.errors import ConfigError, PluginError
from cinco.core.engine.faults import user_interrupt
from cinco.core.host import hookspecs
from cinco.core.host.loading import (
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
from cinco.core.words.i18n import N_, _

if TYPE_CHECKING:
    from cinco.core.bots.bot_process import BotProcess
    from cinco.core.engine.commands import Command
    from cinco.core.engine.oracle import RulesOracle
    from cinco.core.engine.rules import LegalActions, RuleSet
    from cinco.core.engine.state import GameState
    from cinco.core.game.game import Game

#: Where Cinco finds the built-in plugins; each is an ordinary plugin module.
BUILTIN_PLUGINS = (
    "cinco.plugins.layouts",
    "cinco.plugins.team_styles",
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
    (optional, hook API 2), shown by ``cinco rules`` after the standard rules.

    ``incompatible`` names the variants this one cannot be played with, and ``requires`` the
    ones it must be played with (hook API 2): a game choosing an incompatible pair, or this
    variant without one it requires, is refused before it starts (either side may declare an
    incompatibility; names of variants not installed are ignored)."""

    name: str
    description: str
    rules: object
    rules_text: str = ""
    incompatible: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    #: The variant's name as players read it, a msgid (``N_("Joker")``; hook API 2): the
    #: frontends show it translated, where ``name`` is what commands and records use.
    title: str = ""

    @property
    def label(self) -> str:
        """The variant's name in the user's language (``Joker``, Czech ``Žolík``)."""
        return _(self.title) if self.title else self.name.replace("_", " ").capitalize()


@dataclass(frozen=True)
class TeamStyle:
    """How the frontends draw a team (hook API 2, :func:`cinco_register_team_styles`): a
    ``name`` players read ("blue": an English word, translated where shown), a ``colour``
    (``#RRGGBB``), a ``symbol`` for its tokens in the terminal, an ``ascii_symbol`` for
    terminals that show only ASCII, and the ``shape`` of its tokens in the app (one of
    :data:`TOKEN_SHAPES`)."""

    name: str
    colour: str
    symbol: str
    ascii_symbol: str
    shape: str = "circle"


@dataclass(frozen=True)
class Setting:
    """A setting a plugin declares (hook API 2, :func:`cinco_register_settings`), chosen per
    game (``cinco --setting NAME=VALUE``, ``Registry.configure(settings=...)``) and recorded
    in the game's options, so that a replay knows it. ``default`` (text, a whole number, a
    number or true/false) gives its type; ``choices``, when given, are the values allowed.
    Name it after the plugin (``"game_log.level"``) so that names do not clash."""

    name: str
    description: str
    default: str | int | float | bool
    choices: tuple[str | int | float | bool, ...] = ()

    def parse(self, value: object) -> str | int | float | bool:
        """*value* (text from a command line, or a value) as this setting's type, checked.

        >>> Setting("x.n", "", 3).parse("4"), Setting("x.on", "", False).parse("yes")
        (4, True)
        """
        kind = type(self.default)
        try:
            if isinstance(value, kind) and not (kind is not bool and isinstance(value, bool)):
                parsed: str | int | float | bool = value
            elif not isinstance(value, str):
                raise ValueError
            elif kind is bool:
                words = {"true": True, "yes": True, "on": True, "1": True}
                words |= {"false": False, "no": False, "off": False, "0": False}
                parsed = words[value.strip().lower()]
            else:
                parsed = kind(value.strip())
        except (KeyError, ValueError):
            raise ConfigError(
                _("The setting {name} takes {kind}, not {value!r}.").format(
                    name=self.name, kind=_(_SETTING_KINDS[kind]), value=value
                )
            ) from None
        if self.choices and parsed not in self.choices:
            raise ConfigError(
                _("The setting {name} is one of {choices}, not {value!r}.").format(
                    name=self.name, choices=", ".join(map(str, self.choices)), value=value
                )
            )
        return parsed


_SETTING_KINDS = {
    str: N_("text"),
    int: N_("a whole number"),
    float: N_("a number"),
    bool: N_("true or false"),
}

#: The game option holding the plugin settings chosen for a game (name → value).
SETTINGS_OPTION = "settings"


#: The token shapes the app draws.
TOKEN_SHAPES = ("circle", "triangle", "square", "diamond", "hexagon")


@dataclass(frozen=True)
class BotContext:
    """What a bot is told when it takes a seat. Nothing here is secret: ``config`` is the
    configuration as the seat sees it (no seed), and ``rules`` is a read-only
    :class:`~cinco.core.engine.oracle.RulesOracle` for look-ahead, not the game's rule set."""

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
    #: The bot's name as players read it, a msgid (``N_("Monte Carlo")``; hook API 2).
    title: str = ""

    @property
    def label(self) -> str:
        """The bot's name in the user's language: its title, else its name, capitalised."""
        if self.title:
            return _(self.title)
        return self.name.replace("_", " ").replace("-", " ").capitalize()


#: The usual bot levels in words (a plugin's other levels are shown as they are named).
LEVEL_WORDS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def level_label(level: str) -> str:
    """A bot level in the user's language (``hard`` → Czech ``těžká``)."""
    return _(LEVEL_WORDS[level]) if level in LEVEL_WORDS else level


def hook_names() -> list[str]:
    """The names of every hook in :mod:`cinco.core.host.hookspecs`."""
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
    #: Let bots think in a worker process of their own (:mod:`cinco.core.bots.bot_process`), so
    #: that an app's drawing thread keeps the interpreter while they search. Ignored with
    #: *plugins* (objects cannot be sent to another process) and where processes cannot start.
    bot_processes: bool = False
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
        self._bots_worker: BotProcess | None = None
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
        newer = [
            caller.name
            for caller in self.pm.get_hookcallers(plugin) or ()
            if api is not None and hookspecs.HOOK_SINCE.get(caller.name, 1) > api
        ]
        if newer:
            self.pm.unregister(plugin)
            raise PluginError(
                _(
                    "Plugin {name!r} implements {hook}, which is hook API {since}, but declares "
                    "CINCO_HOOK_API = {api}: declare {since}."
                ).format(name=name, hook=newer[0], since=hookspecs.HOOK_SINCE[newer[0]], api=api)
            )
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
            except BaseException as exc:  # a broken plugin (sys.exit() too) must not stop Cinco
                if user_interrupt(exc):
                    raise
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
        from cinco.core.engine.rules import rule_wrappers

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
            except BaseException as exc:  # a broken plugin (sys.exit() too) must not stop Cinco
                if user_interrupt(exc):
                    raise
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
            kept: list[Any] = []
            for item in items:
                problem = item_problem(kind, item, found, kept)
                if problem is None:
                    kept.append(item)
                    continue
                self._report(
                    PluginProblem(
                        impl.plugin_name,
                        hook.name,
                        _(
                            "Plugin {plugin!r} adds the {kind} {name!r}, which Cinco cannot use: "
                            "{problem}. It is left out (the plugin's other {kind}s are used); "
                            "ask the plugin's authors to fix it."
                        ).format(
                            plugin=self.describe(impl.plugin_name),
                            kind=kind.replace("_", " "),
                            name=getattr(item, "name", "?"),
                            problem=problem,
                        ),
                        self.sources.get(impl.plugin_name, PluginSource("", "")).distribution,
                    )
                )
            items = kept
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

    def added_by(self, kind: str, plugin: str) -> list[Any]:
        """What the plugin named *plugin* adds of *kind* (``"setting"``, ``"team_style"``,
        ...), in its order, including names another plugin took first."""
        self.owner(kind, "")  # collects them
        return list(self._by_plugin[kind].get(plugin, []))

    def settings(self) -> dict[str, Setting]:
        """Every setting the installed plugins declare, by name."""
        return self._collect("setting", Setting)

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

    def variant_sources(self, names: Sequence[str]) -> dict[str, dict[str, str]]:
        """The distribution (and version) that adds each of the variants *names*, for a
        record's header: a reader without it can then say what to ``pip install``. Built-in
        variants, and variants of plugins given to the registry directly, are left out."""
        found: dict[str, dict[str, str]] = {}
        for name in names:
            owner = self.owner("variant", name)
            source = self.sources.get(owner) if owner is not None else None
            if source is None or source.origin == "builtin" or source.distribution is None:
                continue
            found[name] = {"distribution": source.distribution}
            if source.version:
                found[name]["version"] = source.version
        return found

    def team_styles(self) -> list[TeamStyle]:
        """How to draw each team, in order: team *i* is drawn in style ``i % len(...)``
        (``cinco_register_team_styles``; the built-in three come first)."""
        return list(self._collect("team_style", TeamStyle).values())

    def team_style(self, team: int) -> TeamStyle:
        """The style of *team* (styles repeat beyond the registered ones)."""
        styles = self.team_styles() or [TeamStyle("?", "#888888", "?", "?")]
        return styles[team % len(styles)]

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
        """The plugin whose *kind* (layout, variant, bot or team_style) called *name* is used."""
        kinds = {
            "layout": Layout,
            "variant": Variant,
            "bot": BotSpec,
            "team_style": TeamStyle,
            "setting": Setting,
        }
        self._collect(kind, kinds[kind])
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
        settings: Mapping[str, object] | None = None,
    ) -> GameConfig:
        """A checked :class:`GameConfig`: the layout and variants exist, the bots are known.

        *options* are recorded with the game, for example ``{"bot_time_budget": 2.0}``: the
        seconds a bot may think per move before the move goes to a random one. *settings*
        are plugin settings (:class:`Setting`), name → value or text, checked and recorded in
        the options (``"settings"``)."""
        chosen = self.layout(players, layout)
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
            options=dict(options or {})
            | ({SETTINGS_OPTION: self.check_settings(settings)} if settings else {}),
        )

    def rules_for(self, config: GameConfig, *, shared: bool = False) -> RuleSet:
        """The rules of a game with *config*: the standard rules and its variants' hooks.

        A *shared* rule set is made once per combination of variants and handed to every game
        that asks (it must then not be given plugins of its own): building one costs more than
        a whole bot game's moves.
        """
        from cinco.core.engine.rules import RuleSet

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
        if self.bot_processes and not self.plugins:
            from cinco.core.bots.bot_process import processes_available

            if processes_available():
                return self._bot_process().create(name, context)
        return spec.create(context)

    def prepare_bots(self) -> None:
        """Start the bots' process now (with *bot_processes*), rather than at the first bot's
        move, which would then wait a second for it to load."""
        from cinco.core.bots.bot_process import processes_available

        if self.bot_processes and not self.plugins and processes_available():
            self._bot_process()

    def _bot_process(self) -> BotProcess:
        from cinco.core.bots.bot_process import BotProcess

        if self._bots_worker is None:
            self._bots_worker = BotProcess(entry_points=self.entry_points, builtins=self.builtins)
        return self._bots_worker

    def new_game(self, config: GameConfig, plugins: Sequence[object] = ()) -> Game:
        """Start a game: shuffle, deal, and store the opening events."""
        from cinco.core.game.game import Game

        return Game.new(config, registry=self, plugins=plugins)


#: The most teams, and players, a layout may have: the bots' kernel keeps a table per team
#: whose size grows as the winning length to the power of the teams.
MAX_TEAMS = 6
MAX_PLAYERS = 12
_TEAMS_BY_SIZE = re.compile(r"(\d+)x(\d+)")


def item_problem(kind: str, item: Any, found: Mapping[str, Any], kept: Sequence[Any]) -> str | None:
    """Why a plugin's *item* (a layout, variant or team style) cannot be used, or ``None``.
    *found* holds the items registered before this plugin's, *kept* this plugin's so far.

    >>> item_problem("layout", Layout("3x2", players=6, teams=2), {}, [])
    "its name says 3 teams of 2, but it has 2 teams of 3 players (name it '2x3')"
    >>> item_problem("layout", Layout("solo", players=1, teams=1), {}, [])
    'a game needs 2 to 6 teams, not 1'
    """
    name = getattr(item, "name", None)
    if not isinstance(name, str) or not name.strip() or name != name.strip():
        return _("its name must be a word, not {name!r}").format(name=name)
    if any(other.name == name for other in kept):
        return _("the plugin adds the name {name!r} twice").format(name=name)
    if kind == "layout":
        players, teams = item.players, item.teams
        for label, value in (("players", players), ("teams", teams)):
            if isinstance(value, bool) or not isinstance(value, int):
                return _("its {field} must be a whole number, not {value!r}").format(
                    field=label, value=value
                )
        if not 2 <= teams <= MAX_TEAMS:
            return _("a game needs 2 to {most} teams, not {n}").format(most=MAX_TEAMS, n=teams)
        if not teams <= players <= MAX_PLAYERS or players % teams:
            return _(
                "{players} players cannot form {teams} equal teams (a layout has {teams} to "
                "{most} players, the same number in every team)"
            ).format(players=players, teams=teams, most=MAX_PLAYERS)
        match = _TEAMS_BY_SIZE.fullmatch(name)
        if match and (int(match[1]), int(match[2])) != (teams, players // teams):
            return _(
                "its name says {t} teams of {s}, but it has {teams} teams of {size} players "
                "(name it {right!r})"
            ).format(
                t=match[1],
                s=match[2],
                teams=teams,
                size=players // teams,
                right=f"{teams}x{players // teams}",
            )
    elif kind == "variant":
        for label in ("incompatible", "requires"):
            names = getattr(item, label, ())
            if not isinstance(names, tuple | list) or not all(isinstance(n, str) for n in names):
                return _("its {field} must be a tuple of variant names, not {value!r}").format(
                    field=label, value=names
                )
        if name in item.incompatible or name in item.requires:
            return _("it names itself among the variants it is incompatible with or requires")
        both = set(item.incompatible) & set(item.requires)
        if both:
            return _("it both requires and is incompatible with {names}").format(
                names=", ".join(sorted(both))
            )
    elif kind == "setting":
        default = item.default
        if type(default) not in _SETTING_KINDS:
            return _("its default must be text, a number or true/false, not {value!r}").format(
                value=default
            )
        if item.choices and default not in item.choices:
            return _("its default {value!r} is not one of its choices").format(value=default)
    elif kind == "team_style":
        colour = item.colour
        if not isinstance(colour, str) or not re.fullmatch(r"#[0-9A-Fa-f]{6}", colour):
            return _("its colour must be #RRGGBB, not {value!r}").format(value=colour)
        for label, symbol in (("symbol", item.symbol), ("ascii_symbol", item.ascii_symbol)):
            if not isinstance(symbol, str) or len(symbol) != 1 or symbol.isspace():
                return _("its {field} must be one visible character, not {value!r}").format(
                    field=label, value=symbol
                )
            if label == "ascii_symbol" and not symbol.isascii():
                return _("its ascii_symbol must be ASCII, not {value!r}").format(value=symbol)
            taken = [
                other.name
                for other in (*found.values(), *kept)
                if getattr(other, label) == symbol and other.name != name
            ]
            if taken:
                return _("its {field} {value!r} is the team style {other!r}'s already").format(
                    field=label, value=symbol, other=taken[0]
                )
        if item.shape not in TOKEN_SHAPES:
            return _("its shape must be one of {shapes}, not {value!r}").format(
                shapes=", ".join(TOKEN_SHAPES), value=item.shape
            )
    return None


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
