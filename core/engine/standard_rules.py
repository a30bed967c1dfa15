"""The standard rules, as a plugin of rule hooks (A1–A5, E1–E4), played by the game's parameters
(:class:`cinco.core.engine.params.GameParams`: hand limit, winning length, ...).

Registered in every game with ``trylast``, so a variant's implementation is asked first and
can change placement or the end of the game without any special case here.
"""

from __future__ import annotations

from cinco.core.engine.board import SPACES, line_through
from cinco.core.engine.commands import DRAW, EXCHANGE, Act, Command, PlayCard
from cinco.core.engine.outcome import Outcome
from cinco.core.engine.params import STANDARD_PARAMS
from cinco.core.engine.state import GameState
from cinco.core.hooks.hookspecs import hookimpl

#: E1: the length of a winning line in the standard game (a game's own: ``state.params``).
WINNING_LENGTH = STANDARD_PARAMS.winning_length


@hookimpl(trylast=True)
def cinco_legal_spaces(state: GameState, seat: int, card: int) -> tuple[int, ...]:
    """A1: any free space numbered *card* or higher; none means the card burns (A2)."""
    return state.free_spaces(card)


@hookimpl(trylast=True)
def cinco_game_end(state: GameState, command: Command) -> Outcome | None:
    """E1 win by a line of five, E2 stalemate at 35 tokens, E3 full board, E4 turn limit (the
    length, the tokens and the blocked spaces are the game's parameters)."""
    placed = isinstance(command, PlayCard) and command.space is not None
    if placed or isinstance(command, Act):
        params = state.config.params
        team = state.team_of(command.seat)
        line = _line(state, command, team)
        if len(line) >= params.winning_length:
            return Outcome(winner=team, reason="line", line=line)
        if state.tokens[team] >= params.tokens_per_team:
            return Outcome(winner=None, reason="stalemate")
        if state.occupied + len(params.blocked) >= SPACES:
            return Outcome(winner=None, reason="board_full")
    limit = state.config.turn_limit
    if limit is not None and state.turn + 1 >= limit:
        return Outcome(winner=None, reason="turn_limit")
    return None


def _line(state: GameState, command: Command, team: int) -> tuple[int, ...]:
    """The longest line of *team* the command made: through the space a play took, or, after a
    declared action (hook API 3, which may have placed tokens anywhere), through any of the
    team's tokens (a line there before would have ended the game already)."""
    if isinstance(command, PlayCard) and command.space is not None:
        return line_through(state.board, command.space, team)
    longest: tuple[int, ...] = ()
    for space in sorted(state.spaces_of(team)):
        line = line_through(state.board, space, team)
        if len(line) > len(longest):
            longest = line
    return longest


@hookimpl(trylast=True)
def cinco_action_allowed(state: GameState, seat: int, action: str) -> bool | str:
    """A3 a draw while the hand is below the limit (A5), A4 an exchange of a full hand (the
    ``exchange_size`` game parameter). Refusals are the codes ``hand_full``, ``hand_not_full``."""
    size = len(state.hands[seat])
    params = state.config.params
    if action == DRAW:
        return True if size < params.hand_limit else "hand_full"
    if action == EXCHANGE:
        return True if size == params.exchange_size else "hand_not_full"
    return False
