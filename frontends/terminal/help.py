"""The help shown by ``?`` during a game."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cinco.core.engine.actions import ActionSpec
from cinco.core.engine.params import STANDARD_PARAMS, GameParams
from cinco.core.words.i18n import _, ngettext
from cinco.frontends.narration import number_word

if TYPE_CHECKING:
    from cinco.frontends.terminal.screen import Screen


def show_help(
    screen: Screen,
    params: GameParams = STANDARD_PARAMS,
    *,
    can_exchange: bool = True,
    actions: Sequence[ActionSpec] = (),
) -> None:
    """``?``: the help on a clear screen (:func:`help_text`), until Enter, in a terminal; as
    the local game and ``cinco join`` show it."""
    screen.clear()
    screen.say(help_text(params, can_exchange=can_exchange, actions=actions))
    if screen.interactive:
        screen.ask(_("Press Enter to go back to the game. "))


def help_text(
    params: GameParams = STANDARD_PARAMS,
    *,
    can_exchange: bool = True,
    actions: Sequence[ActionSpec] = (),
) -> str:
    """The help, with the numbers of the game's rules (*params*); without the exchange when the
    game has none; with the variants' own *actions* (hook API 3), their keys and what they do.

    >>> spec = ActionSpec("hop", ("card",), lambda s, n: (), lambda *a: (), key="j",
    ...                   usage="CARD", description="Hop over a token.")
    >>> print(help_text(actions=[spec]).splitlines()[-2])
      j CARD    hop: Hop over a token.
    """
    return _base_help(params, can_exchange=can_exchange) + _actions_help(actions)


#: The width the help is written for (an 80-column terminal, less a margin).
HELP_WIDTH = 78


def _actions_help(actions: Sequence[ActionSpec]) -> str:
    if not actions:
        return ""
    lines = [_("This game's own actions")]
    for spec in actions:
        typed = f"{spec.key or spec.name} {_(spec.usage) if spec.usage else ''}".strip()
        what = _(spec.description) if spec.description else ""
        line = f"  {typed:<9} {spec.label.lower()}: {what}".rstrip(": ")
        # Wrapped here: a plugin's description is one line of any length, and a terminal
        # would break it inside a word.
        lines.append(textwrap.fill(line, width=HELP_WIDTH, subsequent_indent=" " * 12))
    first = actions[0]
    example = f"{first.name} {_(first.usage) if first.usage else ''}".strip()
    lines.append(
        "  "
        + _("An action may also be typed as its name and its numbers: {example}").format(
            example=example
        )
    )
    return "\n\n" + "\n".join(lines)


def _base_help(params: GameParams, *, can_exchange: bool) -> str:
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
