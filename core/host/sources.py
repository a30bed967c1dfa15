"""Where plugins come from and what can go wrong with them: entry points and their
distributions, the hook API a plugin declares, and the problems and conflicts reported.

A plugin declares the hook API it targets with a module (or object) attribute::

    CINCO_HOOK_API = 1

:func:`api_problem` says whether this Cinco can run it. A plugin that declares nothing is
assumed to target the current API (and ``cinco plugins`` shows it as undeclared).

>>> import types
>>> api_problem(types.SimpleNamespace(CINCO_HOOK_API=1), "ok", None) is None
True
>>> problem = api_problem(types.SimpleNamespace(CINCO_HOOK_API=99), "future", "cinco-future")
>>> "targets Cinco hook API 99" in problem and "upgrade Cinco" in problem
True
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import metadata

from cinco.core.hooks import hookspecs
from cinco.core.words.i18n import _

#: Where problems with plugins are logged (a warning each; the CLI shows them on stderr).
logger = logging.getLogger("cinco.plugins")

#: The attribute a plugin sets to the hook API version it targets.
API_ATTRIBUTE = "CINCO_HOOK_API"


@dataclass(frozen=True)
class PluginProblem:
    """A plugin that failed: at load (``hook`` is ``None``) or in a hook."""

    plugin: str
    hook: str | None
    message: str
    distribution: str | None = None
    #: ``failed`` (it broke, or was refused), or ``shadowed``: an entry point left out because
    #: another plugin (an entry point of another distribution, a built-in) has its name.
    kind: str = "failed"

    def to_dict(self) -> dict[str, str | None]:
        return {
            "plugin": self.plugin,
            "hook": self.hook,
            "distribution": self.distribution,
            "message": self.message,
            "kind": self.kind,
        }


@dataclass(frozen=True)
class Conflict:
    """Two or more plugins add a layout, variant or bot of the same name; the first wins."""

    kind: str
    name: str
    used: str
    ignored: tuple[str, ...]

    @property
    def message(self) -> str:
        return _(
            "Two plugins add the {kind} {name!r}: using the one from {used}, ignoring {ignored}."
        ).format(kind=self.kind, name=self.name, used=self.used, ignored=", ".join(self.ignored))

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "name": self.name,
            "used": self.used,
            "ignored": list(self.ignored),
        }


@dataclass(frozen=True)
class PluginSource:
    """Where a registered plugin came from."""

    name: str
    origin: str  # "builtin", "entry point" or "given"
    distribution: str | None = None
    version: str | None = None
    api: int | None = None


def declared_api(plugin: object) -> object:
    """The hook API version *plugin* declares, or ``None``."""
    return getattr(plugin, API_ATTRIBUTE, None)


def api_problem(plugin: object, name: str, distribution: str | None) -> str | None:
    """Why this Cinco cannot run *plugin*'s hooks, or ``None`` when it can."""
    declared = declared_api(plugin)
    if declared is None:
        return None
    where = f"{name!r} ({distribution})" if distribution else repr(name)
    if isinstance(declared, bool) or not isinstance(declared, int):
        return _(
            "Plugin {where} declares {attr} = {value!r}; it must be a whole number such as "
            "{ours}. Upgrade the plugin."
        ).format(where=where, attr=API_ATTRIBUTE, value=declared, ours=hookspecs.HOOK_API_VERSION)
    if declared > hookspecs.HOOK_API_VERSION:
        return _(
            "Plugin {where} targets Cinco hook API {theirs}, but this Cinco provides API {ours}: "
            "upgrade Cinco (pip install --upgrade cinco)."
        ).format(where=where, theirs=declared, ours=hookspecs.HOOK_API_VERSION)
    if declared < hookspecs.OLDEST_HOOK_API_VERSION:
        return _(
            "Plugin {where} targets Cinco hook API {theirs}, which this Cinco no longer supports "
            "(it provides API {ours}): upgrade the plugin (pip install --upgrade {dist})."
        ).format(
            where=where,
            theirs=declared,
            ours=hookspecs.HOOK_API_VERSION,
            dist=distribution or name,
        )
    return None


def entry_points() -> Iterator[metadata.EntryPoint]:
    """The installed ``cinco`` entry points, each name once, in a stable order (see
    :func:`find_entry_points` for the ones left out)."""
    yield from find_entry_points()[0]


def find_entry_points() -> tuple[
    list[metadata.EntryPoint], list[tuple[metadata.EntryPoint, metadata.EntryPoint]]
]:
    """The installed ``cinco`` entry points by name, and the ones left out.

    Two entry points of one name cannot both be registered: the first found (in the order of
    ``sys.path``, as Python imports) is used. Returns the entry points used, sorted by name,
    and each one left out paired with the one used in its place. The same entry point seen
    twice (one distribution found on two paths) is not left out: it is the same plugin.
    """
    used: dict[str, metadata.EntryPoint] = {}
    dropped: list[tuple[metadata.EntryPoint, metadata.EntryPoint]] = []
    found = sorted(metadata.entry_points(group=hookspecs.PROJECT), key=lambda ep: ep.name)
    for entry_point in found:
        first = used.get(entry_point.name)
        if first is None:
            used[entry_point.name] = entry_point
        elif (first.value, distribution_of(first)) != (
            entry_point.value,
            distribution_of(entry_point),
        ):
            dropped.append((entry_point, first))
    return list(used.values()), dropped


def distribution_of(entry_point: metadata.EntryPoint) -> tuple[str | None, str | None]:
    """The name and version of the distribution that declares *entry_point*."""
    dist = getattr(entry_point, "dist", None)
    if dist is None:
        return None, None
    try:
        return dist.metadata["Name"], dist.version
    except Exception:  # broken metadata must not stop Cinco
        return None, None


def describe_error(exc: BaseException) -> str:
    """``Type: message`` of an exception, for reports that name the plugin and the hook."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


@dataclass(frozen=True)
class PluginInfo:
    """What ``cinco plugins`` shows about one registered plugin."""

    source: PluginSource
    #: The hooks the plugin object itself implements.
    hooks: tuple[str, ...]
    layouts: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    bots: tuple[str, ...] = ()
    #: For each variant it adds, the rule hooks the variant's ``rules`` object implements.
    variant_hooks: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def name(self) -> str:
        return self.source.name

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.source.name,
            "origin": self.source.origin,
            "distribution": self.source.distribution,
            "version": self.source.version,
            "hook_api": self.source.api,
            "hooks": list(self.hooks),
            "layouts": list(self.layouts),
            "variants": list(self.variants),
            "variant_hooks": {name: list(hooks) for name, hooks in self.variant_hooks},
            "bots": list(self.bots),
        }
