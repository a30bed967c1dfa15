"""Hand of five: a Cinco variant played with five cards in hand.

Each player is dealt five cards, may draw while holding fewer than five, and may exchange a
hand of five for five new cards. The variant changes only game parameters, through the
``cinco_game_params`` hook (hook API 2): the rules, the bots and the frontends all read them,
and a game's record holds them, so it replays as it was played.
"""

from __future__ import annotations

from dataclasses import replace

from cinco import GameConfig, GameParams, Variant, hookimpl

__version__ = "1.0.0"

#: The Cinco hook API this plugin is written for (cinco_game_params is new in API 2).
CINCO_HOOK_API = 2

#: The size of a hand in this variant.
HAND = 5


class HandOfFiveRules:
    """Rule hooks of a game played with a hand of five."""

    @hookimpl
    def cinco_game_params(self, params: GameParams, config: GameConfig) -> GameParams:
        """Absolute values, not ``params.hand_limit + 1``: the hook may be asked again."""
        return replace(params, hand_limit=HAND, deal=HAND, exchange_size=HAND)


@hookimpl
def cinco_register_variants() -> list[Variant]:
    return [
        Variant(
            "hand5",
            "Hand of five: deal five cards, draw below five, exchange a hand of five.",
            rules=HandOfFiveRules(),
            rules_text=(
                "Each player is dealt **five** cards. Draw only while you hold fewer than "
                "five; exchange a hand of five for five new cards."
            ),
        )
    ]
