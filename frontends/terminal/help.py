"""The help shown by ``?`` during a game."""

from __future__ import annotations

from cinco.core.engine.params import STANDARD_PARAMS, GameParams
from cinco.core.words.i18n import _, ngettext
from cinco.frontends.narration import number_word


def help_text(params: GameParams = STANDARD_PARAMS, *, can_exchange: bool = True) -> str:
    """The help, with the numbers of the game's rules (*params*); without the exchange when the
    game has none."""
    draw = (
        _("draw a card: when you hold fewer than {n}").format(n=params.hand_limit)
        if params.cards_per_draw == 1
        else ngettext(
            "draw {k} card: when you hold fewer than {n} (as many as fit)",
            "draw {k} cards: when you hold fewer than {n} (as many as fit)",
            params.cards_per_draw,
        ).format(k=params.cards_per_draw, n=params.hand_limit)
    )
    exchange = (
        "\n  "
        + _("exchange your hand: when you hold {n}, swap all of them for {n} new cards").format(
            n=params.exchange_size
        )
        if can_exchange
        else ""
    )
    return _(
        """How to play (full rules: cinco rules)

Make {length} of your team's tokens in a straight line. Each turn, do one thing:
  play a card: put a token on any free space numbered at least the card
  {draw}{exchange}
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
    ).format(length=number_word(params.winning_length), draw=draw, exchange=exchange)
