"""The standard rules, as a plugin of rule hooks (A1, A2, E1–E4).

Registered in every game with ``trylast``, so a variant's implementation is asked first and
can change placement or the end of the game without any special case here.
"""

from __future__ import annotations

from .board import SPACES, line_through
from .commands import Command, PlayCard
from .hookspecs import hookimpl
from .rules import Outcome
from .state import TOKENS_PER_TEAM, GameState

#: E1: the length of a winning line.
WINNING_LENGTH = 5


@hookimpl(trylast=True)
def cinco_legal_spaces(state: GameState, seat: int, card: int) -> tuple[int, ...]:
    """A1: any free space numbered *card* or higher; none means the card burns (A2)."""
    return state.free_spaces(card)


@hookimpl(trylast=True)
def cinco_game_end(state: GameState, command: Command) -> Outcome | None:
    """E1 win by a line of five, E2 stalemate at 35 tokens, E3 full board, E4 turn limit."""
    if isinstance(command, PlayCard) and command.space is not None:
        team = state.team_of(command.seat)
        line = line_through(state.board, command.space, team)
        if len(line) >= WINNING_LENGTH:
            return Outcome(winner=team, reason="line", line=line)
        if state.tokens[team] >= TOKENS_PER_TEAM:
            return Outcome(winner=None, reason="stalemate")
        if state.occupied >= SPACES:
            return Outcome(winner=None, reason="board_full")
    limit = state.config.turn_limit
    if limit is not None and state.turn + 1 >= limit:
        return Outcome(winner=None, reason="turn_limit")
    return None
