"""``cinco plugins`` shows each plugin's team styles, the order teams get them, and the
problems of the styles Cinco could not use, under the plugin that added them (issue 25)."""

from __future__ import annotations

import types

from cinco import TeamStyle, hookimpl
from cinco.core.host.registry import Registry
from cinco.frontends.plugins_cmd import plugins_report, plugins_text


def styles_plugin() -> types.ModuleType:
    plugin = types.ModuleType("cinco_greens")
    plugin.CINCO_HOOK_API = 2  # type: ignore[attr-defined]
    plugin.cinco_register_team_styles = hookimpl(  # type: ignore[attr-defined]
        lambda: [
            TeamStyle("green", colour="#009E73", symbol="◆", ascii_symbol="+", shape="diamond"),
            TeamStyle("mud", colour="brown", symbol="▼", ascii_symbol="v"),  # not #RRGGBB
            TeamStyle("blue", colour="#0000FF", symbol="★", ascii_symbol="*"),  # name taken
        ]
    )
    return plugin


def test_team_styles_and_their_problems_are_listed() -> None:
    registry = Registry(entry_points=False, plugins=[styles_plugin()])
    text = "\n".join(plugins_text(registry))
    assert "team styles: blue #56B4E9 ●/o circle, orange #E69F00" in text  # the built-ins
    block = text.split("\ncinco_greens")[1].split("\n\n")[0]
    assert "team styles: green #009E73 ◆/+ diamond" in block
    assert "blue #0000FF ★/* circle [not used: cinco.plugins.team_styles adds it first]" in block
    assert "problem:" in block and "'mud'" in block and "Cinco cannot use" in block
    order = "Team styles (team 1 gets the first; after 4 teams they repeat): blue, orange, pink"
    assert f"{order}, green" in text
    report = plugins_report(registry)
    greens = next(p for p in report["plugins"] if p["name"] == "cinco_greens")
    assert [style["name"] for style in greens["team_styles"]] == ["green", "blue"]
    assert [style["name"] for style in report["team_styles"]] == ["blue", "orange", "pink", "green"]
    assert any("'mud'" in problem["message"] for problem in report["problems"])
