"""Four in a row: a Cinco variant won by a straight line of four tokens.

It changes one game parameter, the winning length, through the ``cinco_game_params`` hook
(hook API 2). The standard rules end the game on a line of that length; the bots, the hints and
the frontends read it too ("four in a row"), and the record holds it.
"""

from __future__ import annotations

from dataclasses import replace

from cinco import GameConfig, GameParams, Variant, hookimpl

__version__ = "1.0.0"

#: The Cinco hook API this plugin is written for (cinco_game_params is new in API 2).
CINCO_HOOK_API = 2

#: The length of a winning line in this variant.
LENGTH = 4


class FourInARowRules:
    """Rule hooks of a game won by four in a row."""

    @hookimpl
    def cinco_game_params(self, params: GameParams, config: GameConfig) -> GameParams:
        return replace(params, winning_length=LENGTH)


@hookimpl
def cinco_register_variants() -> list[Variant]:
    return [
        Variant(
            "four-in-a-row",
            "Four in a row: a straight line of four tokens wins.",
            rules=FourInARowRules(),
            rules_text="A straight line of **four** of your team's tokens wins (E1).",
        )
    ]
