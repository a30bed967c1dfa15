"""No exchange: a Cinco variant in which a hand can never be exchanged (no rule A4).

The variant forbids one action through the ``cinco_action_allowed`` hook (hook API 2). The
legal actions are listed through the same hook, so no bot ever tries to exchange, and a person
who does is told why not.
"""

from __future__ import annotations

from cinco import GameState, Variant, hookimpl

__version__ = "1.0.0"

#: The Cinco hook API this plugin is written for (cinco_action_allowed is new in API 2).
CINCO_HOOK_API = 2

#: What a player who tries to exchange is told.
REASON = "this game is played without exchanges"


class NoExchangeRules:
    """Rule hooks of a game played without exchanges."""

    @hookimpl
    def cinco_action_allowed(self, state: GameState, seat: int, action: str) -> str | None:
        """Refuse every exchange (with the reason shown); a draw: the standard rule."""
        if action == "exchange":
            return REASON
        return None


@hookimpl
def cinco_register_variants() -> list[Variant]:
    return [
        Variant(
            "no-exchange",
            "No exchange: a full hand must be played; it can never be exchanged.",
            rules=NoExchangeRules(),
            rules_text="There is **no exchange** (A4): a full hand must be played.",
        )
    ]
