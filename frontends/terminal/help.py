"""The help shown by ``?`` during a game."""

from __future__ import annotations

from cinco.core.i18n import _


def help_text() -> str:
    return _(
        """How to play (full rules: cinco rules)

Make five of your team's tokens in a straight line. Each turn, do one thing:
  play a card: put a token on any free space numbered at least the card
  draw a card: when you hold fewer than 4
  exchange your hand: when you hold 4, swap all of them for 4 new cards
A card with no free space at or above it burns: no token is placed.

What to type
  34        play card 34 on space 34 (if 34 is taken you are asked where)
  34 36     play card 34 on space 36 (also 34>36, 34,36, 34 on 36)
  34?       mark the spaces where card 34 may go, without playing it
  d         draw a card
  x         exchange your hand
  u         undo: back to your previous turn
  h         hint: the move a bot would make, and why (then Enter plays it)
  ?         this help
  q         save the game and quit (continue later with cinco --resume FILE)

On the board: free spaces show their number; tokens show their team's symbol.
  < last move   * where the card you are placing may go   ! the winning line"""
    )
