"""What makes a plugin's hooks or the items it declares unusable: the hook names this Cinco has,
and the checks on each layout, variant, setting and team style a plugin adds (the loader,
:mod:`cinco.core.host.registry`, leaves out what fails them and says why)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cinco.core.engine.actions import spec_problem
from cinco.core.engine.faults import user_interrupt
from cinco.core.hooks import hookspecs
from cinco.core.host.declarations import SETTING_KINDS, TOKEN_SHAPES
from cinco.core.words.i18n import _

__all__ = ["MAX_PLAYERS", "MAX_TEAMS", "hook_names", "item_problem", "rule_hooks", "unknown_hooks"]


def hook_names() -> list[str]:
    """The names of every hook in :mod:`cinco.core.hooks.hookspecs`."""
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


#: The most teams, and players, a layout may have: the bots' kernel keeps a table per team
#: whose size grows as the winning length to the power of the teams.
MAX_TEAMS = 6
MAX_PLAYERS = 12
_TEAMS_BY_SIZE = re.compile(r"(\d+)x(\d+)")


def item_problem(kind: str, item: Any, found: Mapping[str, Any], kept: Sequence[Any]) -> str | None:
    """Why a plugin's *item* (a layout, variant or team style) cannot be used, or ``None``.
    *found* holds the items registered before this plugin's, *kept* this plugin's so far.

    >>> from cinco.core.engine.config import Layout
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
    check = _KIND_CHECKS.get(kind)
    return check(item, [*found.values(), *kept]) if check is not None else None


def _layout_problem(layout: Any, _others: Sequence[Any]) -> str | None:
    players, teams = layout.players, layout.teams
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
    match = _TEAMS_BY_SIZE.fullmatch(layout.name)
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
    return None


def _variant_problem(variant: Any, _others: Sequence[Any]) -> str | None:
    for label in ("incompatible", "requires"):
        names = getattr(variant, label, ())
        if not isinstance(names, tuple | list) or not all(isinstance(n, str) for n in names):
            return _("its {field} must be a tuple of variant names, not {value!r}").format(
                field=label, value=names
            )
    if variant.name in variant.incompatible or variant.name in variant.requires:
        return _("it names itself among the variants it is incompatible with or requires")
    both = set(variant.incompatible) & set(variant.requires)
    if both:
        return _("it both requires and is incompatible with {names}").format(
            names=", ".join(sorted(both))
        )
    return _actions_problem(variant.rules)


def _actions_problem(rules: Any) -> str | None:
    """What is wrong with the actions *rules* declares (``cinco_declare_actions``, hook API
    3), checked when the variant is registered so that ``cinco plugins`` says it, not a game."""
    declare = getattr(rules, "cinco_declare_actions", None)
    if declare is None or not hasattr(declare, f"{hookspecs.PROJECT}_impl"):
        return None
    try:
        specs = declare()
    except BaseException as exc:
        if user_interrupt(exc):
            raise
        return _("its cinco_declare_actions failed: {error}").format(
            error=f"{type(exc).__name__}: {exc}"
        )
    if not isinstance(specs, list | tuple):
        return _("its cinco_declare_actions returned {value!r}, not a list").format(value=specs)
    names: set[str] = set()
    for spec in specs:
        problem = spec_problem(spec)
        if problem is None and spec.name in names:
            problem = _("the action {name!r} is declared twice").format(name=spec.name)
        if problem is not None:
            return _("its action {name!r}: {problem}").format(
                name=getattr(spec, "name", spec), problem=problem
            )
        names.add(spec.name)
    return None


def _setting_problem(setting: Any, _others: Sequence[Any]) -> str | None:
    default = setting.default
    if type(default) not in SETTING_KINDS:
        return _("its default must be text, a number or true/false, not {value!r}").format(
            value=default
        )
    if setting.choices and default not in setting.choices:
        return _("its default {value!r} is not one of its choices").format(value=default)
    return None


def _team_style_problem(style: Any, others: Sequence[Any]) -> str | None:
    """*others*: the team styles registered before it (its plugin's own included)."""
    colour = style.colour
    if not isinstance(colour, str) or not re.fullmatch(r"#[0-9A-Fa-f]{6}", colour):
        return _("its colour must be #RRGGBB, not {value!r}").format(value=colour)
    for label, symbol in (("symbol", style.symbol), ("ascii_symbol", style.ascii_symbol)):
        problem = _symbol_problem(style.name, label, symbol, others)
        if problem is not None:
            return problem
    if style.shape not in TOKEN_SHAPES:
        return _("its shape must be one of {shapes}, not {value!r}").format(
            shapes=", ".join(TOKEN_SHAPES), value=style.shape
        )
    return None


def _symbol_problem(name: str, label: str, symbol: Any, others: Sequence[Any]) -> str | None:
    """What is wrong with a team style's ``symbol`` or ``ascii_symbol`` (*label*), if anything:
    one visible character (ASCII for the latter), no other style's already."""
    if not isinstance(symbol, str) or len(symbol) != 1 or symbol.isspace():
        return _("its {field} must be one visible character, not {value!r}").format(
            field=label, value=symbol
        )
    if label == "ascii_symbol" and not symbol.isascii():
        return _("its ascii_symbol must be ASCII, not {value!r}").format(value=symbol)
    taken = [
        other.name for other in others if getattr(other, label) == symbol and other.name != name
    ]
    if taken:
        return _("its {field} {value!r} is the team style {other!r}'s already").format(
            field=label, value=symbol, other=taken[0]
        )
    return None


#: The checks of each kind of item beyond its name (a kind not here has none).
_KIND_CHECKS: dict[str, Callable[[Any, Sequence[Any]], str | None]] = {
    "layout": _layout_problem,
    "variant": _variant_problem,
    "setting": _setting_problem,
    "team_style": _team_style_problem,
}
