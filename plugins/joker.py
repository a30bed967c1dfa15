"""V1, the Joker variant: a card with no free space at or above it counts as a 1.

Only the placement rule changes, through the ``cinco_legal_spaces`` rule hook; the card then
burns (A2) only when the board is full.
"""

from __future__ import annotations

from cinco.core.engine.state import GameState
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host.declarations import Variant
from cinco.core.words.i18n import N_


class JokerRules:
    """Rule hooks of a game played with the Joker variant."""

    @hookimpl
    def cinco_legal_spaces(self, state: GameState, seat: int, card: int) -> tuple[int, ...]:
        spaces = state.free_spaces(card)
        return spaces if spaces else state.free_spaces(1)


@hookimpl
def cinco_register_variants() -> list[Variant]:
    return [
        Variant(
            "joker",
            N_("A card with no free space at or above it may go on any free space."),
            rules=JokerRules(),
            # Msgids in Cinco's catalog: a built-in plugin's words are the project's
            # (a plugin installed from elsewhere marks them with its own TextDomain).
            rules_text=N_(
                "Such a card counts as a 1. Example: spaces 87, 88, 89 and 90 are taken; "
                "a played 88 may go on any free space. A card burns only when the board is full."
            ),
            title=N_("Joker"),
        )
    ]
