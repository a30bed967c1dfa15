"""Hints: the move the strongest installed bot would make, with a one-line reason.

The bot sees only the hinted player's view, like any bot. The reason reads the board's lines of
five through the chosen space (geometry, not rules): how much of a line it builds for the
player's team, or how much of an opponent's line it blocks.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from cinco.core.board import windows_through
from cinco.core.commands import Command, Draw, Exchange, PlayCard
from cinco.core.game import Game
from cinco.core.i18n import _
from cinco.core.registry import BotContext
from cinco.core.state import FREE, GameState
from cinco.frontends.narration import join_names, seat_name

#: Bots to ask for a hint, strongest first; the first one installed is used.
HINT_BOTS = ("ismcts", "greedy")
#: Seconds a hint bot may think, for bots that honour a time budget.
HINT_SECONDS = 1.5


@dataclass(frozen=True)
class HintAnswer:
    command: Command
    reason: str
    bot: str


def hint_bot_name(game: Game) -> str | None:
    installed = game.registry.bots()
    return next((name for name in HINT_BOTS if name in installed), None)


def hint(game: Game, seat: int) -> HintAnswer | None:
    """What the strongest installed bot would do in *seat*'s place, or ``None`` when no
    hint bot is installed."""
    name = hint_bot_name(game)
    if name is None:
        return None
    view = game.view(seat)
    # The seat's own view of the configuration: a hint bot must not learn the seed (S2).
    context = BotContext(
        seat=seat,
        config=view.config,
        rules=game.rules,
        seed=secrets.randbelow(2**31),
        time_budget=HINT_SECONDS,
    )
    bot = game.registry.create_bot(context, name)
    legal = game.legal_actions(seat)
    command = bot.choose(view, legal)
    if command not in legal:  # a broken bot must not mislead the player
        return None
    explain = getattr(bot, "explain", None)
    reason = explain(view, command) if callable(explain) else None
    return HintAnswer(command, str(reason) if reason else explain_move(view, seat, command), name)


def explain_move(view: GameState, seat: int, command: Command) -> str:
    """One line saying why *command* is a good idea for *seat*."""
    if isinstance(command, Draw):
        return _("nothing on the board is worth a card yet: another card gives you more choice")
    if isinstance(command, Exchange):
        return _("your cards reach no useful space: a fresh hand of four does better")
    assert isinstance(command, PlayCard)
    if command.space is None:
        return _("{card} can go nowhere: burning it makes room for a better card").format(
            card=command.card
        )
    team = view.team_of(seat)
    best_own = 0
    best_block = (0, -1)
    for window in windows_through(command.space):
        owners = [view.board[n] for n in window if view.board[n] != FREE]
        others = {t for t in owners if t != team}
        if not others:
            best_own = max(best_own, len(owners))
        elif len(others) == 1 and team not in owners:
            best_block = max(best_block, (len(owners), others.pop()))
    cards = [c for c in view.hand(seat) if c]
    keeps_low = cards and command.card > min(cards)
    tail = _(", and it keeps your lower cards for later") if keeps_low else ""
    if best_own >= 4:
        return _("it completes five in a row: you win")
    blocked, other = best_block
    if blocked >= 3 or (blocked >= 2 and blocked > best_own):
        names = join_names([seat_name(view.config, s) for s in view.config.seats_of(other)])
        return (
            _("it blocks a line where {names} already hold {n} of 5").format(names=names, n=blocked)
            + tail
        )
    if best_own:
        return _("it gives your team {n} of 5 in an open line").format(n=best_own + 1) + tail
    return _("an open space with room for your lines") + tail
