"""The built-in team styles: blue, orange and pink, from the Okabe–Ito colour-blind-safe
palette, each with its own symbol (hook API 2, ``cinco_register_team_styles``).

A layout with more teams adds styles for the others through the same hook; beyond the
registered styles they repeat.
"""

from __future__ import annotations

from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host.declarations import TeamStyle
from cinco.core.words.i18n import N_


@hookimpl
def cinco_register_team_styles() -> list[TeamStyle]:
    return [
        TeamStyle(N_("blue"), colour="#56B4E9", symbol="●", ascii_symbol="o", shape="circle"),
        TeamStyle(N_("orange"), colour="#E69F00", symbol="▲", ascii_symbol="x", shape="triangle"),
        TeamStyle(N_("pink"), colour="#CC79A7", symbol="■", ascii_symbol="#", shape="square"),
    ]
