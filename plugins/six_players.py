"""V2: the two six-player layouts, 2 teams of 3 and 3 teams of 2."""

from __future__ import annotations

from cinco.core.engine.config import Layout
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.words.i18n import N_


@hookimpl
def cinco_register_layouts() -> list[Layout]:
    return [
        Layout("2x3", players=6, teams=2, description=N_("6 players in 2 teams of 3")),
        Layout("3x2", players=6, teams=3, description=N_("6 players in 3 teams of 2")),
    ]
