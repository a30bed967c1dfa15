"""``cinco plugins``: the loaded plugins, what each adds (layouts, variants, bots, team styles,
settings with their current values and where each comes from), clashes, and plugins or items
that failed."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import click

from cinco.core.engine.errors import CincoError
from cinco.core.hooks.hookspecs import HOOK_API_VERSION
from cinco.core.host.declarations import TeamStyle
from cinco.core.host.registry import Registry, default_registry
from cinco.core.host.sources import PluginInfo
from cinco.core.words.i18n import N_, _
from cinco.frontends.cli_options import clean_text, parse_settings, setting_option
from cinco.frontends.plugin_settings import Chosen, resolve, settings_path, warn


def _style(style: TeamStyle) -> dict[str, str]:
    return {
        "name": style.name,
        "colour": style.colour,
        "symbol": style.symbol,
        "ascii_symbol": style.ascii_symbol,
        "shape": style.shape,
    }


def plugins_report(
    registry: Registry, chosen: Mapping[str, Chosen] | None = None
) -> dict[str, Any]:
    """Everything ``cinco plugins --json`` prints. Each plugin's ``settings`` have their
    current value and its ``source`` (``default``, ``file``, ``command_line``; *chosen*, by
    default the defaults); ``team_styles`` lists the styles in the order teams get them."""
    chosen = chosen if chosen is not None else resolve_defaults(registry)
    plugins = []
    for info in registry.plugin_info():
        data: dict[str, Any] = info.to_dict()
        data["team_styles"] = [
            _style(style) for style in registry.added_by("team_style", info.name)
        ]
        data["settings"] = [
            {
                "name": setting.name,
                "description": setting.description,
                "default": setting.default,
                "choices": list(setting.choices),
                **chosen[setting.name].to_dict(),
            }
            for setting in registry.added_by("setting", info.name)
            if setting.name in chosen
        ]
        plugins.append(data)
    return {
        "hook_api": HOOK_API_VERSION,
        "settings_file": str(settings_path()),
        "plugins": plugins,
        "team_styles": [_style(style) for style in registry.team_styles()],
        "conflicts": [conflict.to_dict() for conflict in registry.conflicts()],
        "problems": [problem.to_dict() for problem in registry.problems],
    }


def resolve_defaults(registry: Registry) -> dict[str, Chosen]:
    """Every setting at its default (no file, no command line)."""
    return {name: Chosen(name, s.default, "default") for name, s in registry.settings().items()}


def _names(registry: Registry, kind: str, info: PluginInfo, names: tuple[str, ...]) -> str:
    shown = []
    hooks = dict(info.variant_hooks)
    for name in names:
        text = name
        if kind == "variant" and hooks.get(name):
            text += _(" (rule hooks: {hooks})").format(hooks=", ".join(hooks[name]))
        owner = registry.owner(kind, name)
        if owner != info.name:
            text += _(" [not used: {owner} adds it first]").format(owner=owner)
        shown.append(text)
    return ", ".join(shown)


def _plugin_lines(registry: Registry, info: PluginInfo, chosen: Mapping[str, Chosen]) -> list[str]:
    """What one plugin is and adds, line by line."""
    source = info.source
    where = [source.origin]
    if source.distribution:
        where.append(f"{source.distribution} {source.version or ''}".strip())
    where.append(
        _("hook API {api}").format(api=source.api)
        if source.api is not None
        else _("hook API not declared")
    )
    lines = ["", f"{info.name}  ({', '.join(where)})"]
    lines.append(_("  hooks:    {hooks}").format(hooks=", ".join(info.hooks) or "-"))
    for kind, label, names in (
        ("layout", _("  layouts:  {names}"), info.layouts),
        ("variant", _("  variants: {names}"), info.variants),
        ("bot", _("  bots:     {names}"), info.bots),
    ):
        if names:
            lines.append(label.format(names=_names(registry, kind, info, names)))
    styles = registry.added_by("team_style", info.name)
    if styles:
        shown = []
        for style in styles:
            text = f"{style.name} {style.colour} {style.symbol}/{style.ascii_symbol} {style.shape}"
            owner = registry.owner("team_style", style.name)
            if owner != info.name:
                text += _(" [not used: {owner} adds it first]").format(owner=owner)
            shown.append(text)
        lines.append(_("  team styles: {styles}").format(styles=", ".join(shown)))
    for setting in registry.added_by("setting", info.name):
        current = chosen.get(setting.name)
        if current is None:  # another plugin declared this name first
            continue
        origin = current.where()
        if current.source != "default":
            origin = _("{where}; default {default!r}").format(where=origin, default=setting.default)
        lines.append(
            _("  setting:  {name} = {value!r} ({where}): {description}").format(
                name=setting.name,
                value=current.value,
                where=origin,
                description=setting.description,
            )
        )
    for problem in registry.problems:
        if problem.plugin == info.name and problem.kind != "shadowed":
            lines.append(_("  problem:  {message}").format(message=problem.message))
    return lines


def plugins_text(registry: Registry, chosen: Mapping[str, Chosen] | None = None) -> list[str]:
    """The human-readable listing, line by line."""
    chosen = chosen if chosen is not None else resolve_defaults(registry)
    lines = [_("Cinco hook API {api}. Loaded plugins:").format(api=HOOK_API_VERSION)]
    for info in registry.plugin_info():
        lines += _plugin_lines(registry, info, chosen)
    styles = registry.team_styles()
    lines += [
        "",
        _("Team styles (team 1 gets the first; after {n} teams they repeat): {styles}").format(
            n=len(styles), styles=", ".join(style.name for style in styles) or "-"
        ),
        _("Settings file: {path} (sections per plugin; --setting overrides it)").format(
            path=settings_path()
        ),
    ]
    conflicts = registry.conflicts()
    if conflicts:
        lines += ["", _("Clashes (the first plugin registered wins):")]
        lines += [f"  {conflict.message}" for conflict in conflicts]
    shadowed = [problem for problem in registry.problems if problem.kind == "shadowed"]
    failed = [problem for problem in registry.problems if problem.kind != "shadowed"]
    if shadowed:
        lines += ["", _("Plugins left out (another plugin has the same name):")]
        lines += [f"  {problem.message}" for problem in shadowed]
    if failed:
        lines += ["", _("Plugins that failed (Cinco works without them):")]
        lines += [f"  {problem.message}" for problem in failed]
    return [clean_text(line) for line in lines]


@click.command("plugins")
@click.option("--json", "as_json", is_flag=True, help=N_("Print the listing as JSON."))
@setting_option
def plugins(as_json: bool, settings: tuple[str, ...]) -> None:
    """List the loaded plugins: version, distribution, hooks, and the variants, layouts,
    bots and team styles each adds; each setting with its value and where it comes from (its
    default, the settings file or --setting); clashes between plugins; plugins left out (a
    name taken twice) and plugins or items that failed to load."""
    registry = default_registry()
    try:
        # A bad settings file is said, and the listing shows what holds without it.
        chosen = resolve(registry, parse_settings(settings), warn=warn, bad_file=warn)
    except CincoError as exc:
        raise click.ClickException(clean_text(str(exc))) from None
    if as_json:
        click.echo(json.dumps(plugins_report(registry, chosen), indent=1))
        return
    for line in plugins_text(registry, chosen):
        click.echo(line)
