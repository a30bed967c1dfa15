"""The plugin loader: the plugins of an installation (the built-in ones, the ``cinco`` entry
points, plugins given), each registered after its hook API and hooks are checked, and what they
add (layouts, variants, bots, settings, team styles), collected one plugin at a time so that a
broken plugin is reported and left out. :class:`~cinco.core.host.registry.Registry` configures
games from what it holds.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import metadata
from typing import Any

import pluggy

from cinco import __version__
from cinco.core.engine.config import GameConfig, Layout
from cinco.core.engine.errors import PluginError
from cinco.core.engine.faults import user_interrupt
from cinco.core.engine.rule_hooks import rule_wrappers
from cinco.core.hooks import hookspecs
from cinco.core.host.checks import hook_names, item_problem, rule_hooks, unknown_hooks
from cinco.core.host.declarations import BotSpec, Setting, TeamStyle, Variant
from cinco.core.host.sources import (
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
from cinco.core.words.i18n import _

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


# Compared by identity (__eq__, __hash__ below): a registry is a cache key (shared rule sets).
@dataclass(eq=False)
class PluginLoader:
    """The plugin manager of a Cinco installation, and what its plugins add."""

    entry_points: bool = True
    builtins: bool = True
    plugins: Sequence[object] = ()
    pm: pluggy.PluginManager = field(init=False, repr=False)

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
        hook = getattr(self.pm.hook, f"cinco_register_{kind}s")
        found: dict[str, Any] = {}
        owners: dict[str, list[str]] = {}
        by_plugin: dict[str, list[Any]] = {}
        for impl in hook.get_hookimpls():
            if impl.hookwrapper or impl.wrapper:
                continue
            items = self._ask(impl, hook.name, kind, expected)
            if items is None:
                continue
            items = self._usable(impl.plugin_name, hook.name, kind, items, found)
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

    def _ask(self, impl: Any, hook: str, kind: str, expected: type) -> list[Any] | None:
        """What one plugin's registration hook (*impl*) adds, or ``None`` (reported) when it
        fails or adds something that is not a *kind*."""
        try:
            items = list(impl.function() or ())
            # Duck-typed: a module imported twice (doctests) gives two ``Variant`` classes.
            bad = [item for item in items if type(item).__name__ != expected.__name__]
            if bad:
                raise TypeError(_("returned {item!r}, not a {kind}").format(item=bad[0], kind=kind))
            for item in items if kind == "variant" else ():
                self._check_variant_rules(impl.plugin_name, item)
        except BaseException as exc:  # a broken plugin (sys.exit() too) must not stop Cinco
            if user_interrupt(exc):
                raise
            self._report(
                PluginProblem(
                    impl.plugin_name,
                    hook,
                    _(
                        "Plugin {plugin!r} failed in {hook}: {error}. Its {kind}s are left out."
                    ).format(
                        plugin=impl.plugin_name,
                        hook=hook,
                        error=describe_error(exc),
                        kind=kind,
                    ),
                    self.sources.get(impl.plugin_name, PluginSource("", "")).distribution,
                )
            )
            return None
        return items

    def _check_variant_rules(self, plugin: str, variant: Variant) -> None:
        """Raise :class:`TypeError` saying what is wrong with the rule hooks of *variant*
        (added by *plugin*): unknown hooks, hooks newer than the plugin's API, wrappers."""
        typos = unknown_hooks(variant.rules)
        if typos:
            raise TypeError(
                _(
                    "the rules of variant {name!r} implement {hooks}, which this Cinco "
                    "does not have"
                ).format(name=variant.name, hooks=", ".join(typos))
            )
        api = self.sources.get(plugin, PluginSource("", "")).api
        newer = [
            hook
            for hook in rule_hooks(variant.rules)
            if api is not None and hookspecs.HOOK_SINCE.get(hook, 1) > api
        ]
        if newer:
            raise TypeError(
                _(
                    "the rules of variant {name!r} implement {hook}, which is hook "
                    "API {since}, but the plugin declares CINCO_HOOK_API = {api}: "
                    "declare {since}"
                ).format(
                    name=variant.name,
                    hook=newer[0],
                    since=hookspecs.HOOK_SINCE[newer[0]],
                    api=api,
                )
            )
        wrapped = rule_wrappers(variant.rules)
        if wrapped:
            raise TypeError(
                _(
                    "the rules of variant {name!r} implement {hook} as a wrapper "
                    "(hookwrapper=True or wrapper=True); a rule hook must be an "
                    "ordinary @hookimpl that answers or returns None"
                ).format(name=variant.name, hook=wrapped[0])
            )

    def _usable(
        self, plugin: str, hook: str, kind: str, items: list[Any], found: Mapping[str, Any]
    ) -> list[Any]:
        """The *items* a plugin adds that Cinco can use; each other one is reported."""
        kept: list[Any] = []
        for item in items:
            problem = item_problem(kind, item, found, kept)
            if problem is None:
                kept.append(item)
                continue
            self._report(
                PluginProblem(
                    plugin,
                    hook,
                    _(
                        "Plugin {plugin!r} adds the {kind} {name!r}, which Cinco cannot use: "
                        "{problem}. It is left out (the plugin's other {kind}s are used); "
                        "ask the plugin's authors to fix it."
                    ).format(
                        plugin=self.describe(plugin),
                        kind=kind.replace("_", " "),
                        name=getattr(item, "name", "?"),
                        problem=problem,
                    ),
                    self.sources.get(plugin, PluginSource("", "")).distribution,
                )
            )
        return kept

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

    def team_styles(self) -> list[TeamStyle]:
        """How to draw each team, in order: team *i* is drawn in style ``i % len(...)``
        (``cinco_register_team_styles``; the built-in three come first)."""
        return list(self._collect("team_style", TeamStyle).values())

    def variant_sources(self, names: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Where each of the variants *names* comes from, for a record's header: the
        distribution, its version and the entry point that add it, and the rule hooks it has
        (``"hooks"``), so that a reader without it can say what to ``pip install``, and can
        replay it anyway when it only changes game parameters (which the record holds).
        Built-in variants are left out; a plugin given to the registry directly has no
        distribution or entry point (only its hooks are said)."""
        found: dict[str, dict[str, Any]] = {}
        variants = self.variants()
        for name in names:
            owner = self.owner("variant", name)
            source = self.sources.get(owner) if owner is not None else None
            if source is None or source.origin == "builtin" or name not in variants:
                continue
            found[name] = self._source_fields(source)
            found[name]["hooks"] = list(rule_hooks(variants[name].rules))
        return found

    def layout_sources(self, names: Sequence[str]) -> dict[str, dict[str, Any]]:
        """As :meth:`variant_sources`, for layouts (no hooks: a layout is data)."""
        found: dict[str, dict[str, Any]] = {}
        for name in names:
            owner = self.owner("layout", name)
            source = self.sources.get(owner) if owner is not None else None
            if source is not None and source.origin != "builtin":
                found[name] = self._source_fields(source)
        return found

    @staticmethod
    def _source_fields(source: PluginSource) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        if source.distribution is not None:
            fields["distribution"] = source.distribution
            if source.version:
                fields["version"] = source.version
        if source.origin == "entry point":
            fields["entry_point"] = source.name
        return fields

    def record_sources(self, config: GameConfig) -> dict[str, Any]:
        """The header fields of a record of a game of *config* that name the plugins it
        needs (``variants``, ``layouts``; none for a game of built-ins only)."""
        fields: dict[str, Any] = {}
        variants = self.variant_sources(config.variants)
        if variants:
            fields["variants"] = variants
        layouts = self.layout_sources([config.layout])
        if layouts:
            fields["layouts"] = layouts
        return fields

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


def _label(entry_point: metadata.EntryPoint) -> str:
    """The distribution that declares *entry_point*, with its version, for messages."""
    dist, version = distribution_of(entry_point)
    return f"{dist} {version}" if dist else _("an unknown distribution")
