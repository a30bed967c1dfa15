"""Eight players: Cinco for two teams of four (``2x4``) or four teams of two (``4x2``).

A layout is data (P2): how many play and in how many teams; the seats alternate teams (P4),
and the rules, the bots and the frontends follow. Four teams need a fourth look: Cinco draws
three teams (blue, orange, pink), so this plugin adds green, in the same colour-blind-safe
palette (Okabe–Ito), with a symbol of its own (hook API 2).
"""

from __future__ import annotations

from cinco import Layout, TeamStyle, hookimpl

__version__ = "1.0.0"

#: The Cinco hook API this plugin is written for (team styles are new in API 2).
CINCO_HOOK_API = 2


@hookimpl
def cinco_register_layouts() -> list[Layout]:
    return [
        Layout("2x4", players=8, teams=2, description="2 teams of 4"),
        Layout("4x2", players=8, teams=4, description="4 teams of 2"),
    ]


@hookimpl
def cinco_register_team_styles() -> list[TeamStyle]:
    # The fourth team of 4x2 (teams 1 to 3 have Cinco's own styles).
    return [TeamStyle("green", colour="#009E73", symbol="◆", ascii_symbol="+", shape="diamond")]
