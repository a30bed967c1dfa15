"""The standard team layouts for 2, 3 and 4 players (P2)."""

from __future__ import annotations

from cinco.core.engine.config import Layout
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.words.i18n import N_


@hookimpl
def cinco_register_layouts() -> list[Layout]:
    return [
        Layout("2x1", players=2, teams=2, description=N_("2 players, each on their own")),
        Layout("3x1", players=3, teams=3, description=N_("3 players, each on their own")),
        Layout("2x2", players=4, teams=2, description=N_("4 players in 2 teams of 2")),
    ]
