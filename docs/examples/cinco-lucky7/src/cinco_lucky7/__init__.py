"""Lucky seven: a Cinco variant in which the 7 card is wild.

The variant changes one rule through one rule hook. Its ``rules`` object is registered only
in games that enable the variant, so other games in the same process are unaffected.
"""

from __future__ import annotations

from cinco import GameState, Variant, hookimpl

__version__ = "1.0.0"

#: The Cinco hook API this plugin is written for. Cinco refuses to load it if it cannot run it.
CINCO_HOOK_API = 1

#: The wild card.
LUCKY_CARD = 7


class LuckySevenRules:
    """Rule hooks of a game played with Lucky seven."""

    @hookimpl
    def cinco_legal_spaces(self, state: GameState, seat: int, card: int) -> tuple[int, ...] | None:
        """The 7 may go on any free space; any other card: defer (``None``) to the next rules."""
        if card != LUCKY_CARD:
            return None
        return state.free_spaces(1)


@hookimpl
def cinco_register_variants() -> list[Variant]:
    return [
        Variant(
            "lucky7",
            "Lucky seven: the 7 card is wild and may go on any free space.",
            rules=LuckySevenRules(),
        )
    ]
