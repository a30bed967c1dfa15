"""``cinco plugins``: the loaded plugins, what each adds, clashes, and plugins that failed."""

from __future__ import annotations

import json
from typing import Any

import click

from cinco.core.hooks.hookspecs import HOOK_API_VERSION
from cinco.core.host.registry import Registry, default_registry
from cinco.core.host.sources import PluginInfo
from cinco.core.words.i18n import N_, _


def plugins_report(registry: Registry) -> dict[str, Any]:
    """Everything ``cinco plugins --json`` prints."""
    return {
        "hook_api": HOOK_API_VERSION,
        "plugins": [info.to_dict() for info in registry.plugin_info()],
        "conflicts": [conflict.to_dict() for conflict in registry.conflicts()],
        "problems": [problem.to_dict() for problem in registry.problems],
    }


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


def plugins_text(registry: Registry) -> list[str]:
    """The human-readable listing, line by line."""
    lines = [_("Cinco hook API {api}. Loaded plugins:").format(api=HOOK_API_VERSION)]
    for info in registry.plugin_info():
        source = info.source
        where = [source.origin]
        if source.distribution:
            where.append(f"{source.distribution} {source.version or ''}".strip())
        where.append(
            _("hook API {api}").format(api=source.api)
            if source.api is not None
            else _("hook API not declared")
        )
        lines.append("")
        lines.append(f"{info.name}  ({', '.join(where)})")
        lines.append(_("  hooks:    {hooks}").format(hooks=", ".join(info.hooks) or "-"))
        for kind, label, names in (
            ("layout", _("  layouts:  {names}"), info.layouts),
            ("variant", _("  variants: {names}"), info.variants),
            ("bot", _("  bots:     {names}"), info.bots),
        ):
            if names:
                lines.append(label.format(names=_names(registry, kind, info, names)))
        for setting in registry.added_by("setting", info.name):
            lines.append(
                _("  setting:  {name} (default {default!r}): {description}").format(
                    name=setting.name, default=setting.default, description=setting.description
                )
            )
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
    return lines


@click.command("plugins")
@click.option("--json", "as_json", is_flag=True, help=N_("Print the listing as JSON."))
def plugins(as_json: bool) -> None:
    """List the loaded plugins: version, distribution, hooks, and the variants, layouts and
    bots each adds; clashes between plugins; plugins left out (a name taken twice) and
    plugins that failed to load."""
    registry = default_registry()
    if as_json:
        click.echo(json.dumps(plugins_report(registry), indent=1))
        return
    for line in plugins_text(registry):
        click.echo(line)
