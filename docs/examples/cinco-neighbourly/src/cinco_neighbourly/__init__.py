"""The neighbourly bot: a small Cinco bot plugin.

A bot sees only its own seat's view of the game (other players' cards are hidden) and the
legal actions; it answers with one of them. Cinco replaces a move that raises, is illegal or
comes too late with a random one, and tells the players.
"""

from __future__ import annotations

from cinco import (
    BotContext,
    BotSpec,
    Command,
    Draw,
    Exchange,
    GameState,
    LegalActions,
    PlayCard,
    hookimpl,
    neighbours,
)

__version__ = "1.0.0"

#: The Cinco hook API this plugin is written for. Cinco refuses to load it if it cannot run it.
CINCO_HOOK_API = 1

#: A neighbour of one's own team counts this many times one of an opponent's.
OWN_WEIGHT = 3


class NeighbourlyBot:
    """Plays next to its own tokens, else next to anyone's; draws when that is pointless."""

    def __init__(self, context: BotContext) -> None:
        self.seat = context.seat

    def score(self, view: GameState, space: int) -> int:
        team = view.team_of(self.seat)
        total = 0
        for other in neighbours(space):
            if view.is_free(other):
                continue
            total += OWN_WEIGHT if view.board[other] == team else 1
        return total

    def choose(self, view: GameState, legal: LegalActions) -> Command:
        best: tuple[int, int, int] | None = None  # (score, card, space)
        for card, spaces in legal.plays:
            for space in spaces:
                candidate = (self.score(view, space), card, space)
                if best is None or candidate > best:
                    best = candidate
        if best is not None and (best[0] > 0 or not legal.can_draw):
            return PlayCard(self.seat, best[1], best[2])
        if legal.can_draw:
            return Draw(self.seat)
        if legal.can_exchange:
            return Exchange(self.seat)
        # Only burns are left (A2): burn the highest card.
        return PlayCard(self.seat, max(card for card, _spaces in legal.plays), None)


@hookimpl
def cinco_register_bots() -> list[BotSpec]:
    return [
        BotSpec(
            "neighbourly",
            "Plays next to its own tokens, else next to anyone's.",
            create=NeighbourlyBot,
        )
    ]
