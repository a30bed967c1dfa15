"""The ``greedy`` bot: a one-move heuristic.

It scores every free space it can reach by the lines of five (the game's winning length) through
it: windows its team can
still complete (more tokens already there: worth more), and windows an opponent is building
(more tokens: more urgent to block). It plays the best space with the highest card that reaches
it, keeping low cards, which reach more of the board, for later. When nothing on the board is
worth a card it draws while its hand has room; with a full hand it exchanges only a hand of
high cards, and otherwise plays its best move (so that two greedy bots facing an empty board
do not exchange for ever).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from cinco.core.engine.board import SPACES
from cinco.core.engine.commands import Act, Command, Draw, Exchange, PlayCard
from cinco.core.engine.errors import CincoError
from cinco.core.engine.events import GameEnded
from cinco.core.engine.legal import LegalActions
from cinco.core.engine.rules import decide_steps
from cinco.core.engine.state import FREE, GameState
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host.declarations import BotContext, BotSpec
from cinco.core.words.i18n import N_

from .kernel import geometry, line_weights

if TYPE_CHECKING:
    from cinco.core.engine.rules import Rules

# A space is worth what the kernel's window values (kernel.OWN and kernel.BLOCK, by the game's
# winning length: kernel.line_weights) add up to over the windows through it (kernel.geometry).
# Spending a card costs this much per step it is below 90: low cards are the flexible ones.
CARD_COST = 0.08
# Below this a move is not worth a card: draw instead (when the hand has room).
WORTH_PLAYING = 9.0
# A full hand whose every card is above this reaches only the rim of the board: exchange it
# rather than make a weak move. (A fresh hand is all above it only about one time in sixteen.)
EXCHANGE_ABOVE = 45


@cache
def float_weights(length: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The kernel's window values for lines of *length* (:func:`~.kernel.line_weights`) as
    floats: a space's score is a float, and adding a float to it is quicker than an int."""
    own, block = line_weights(length)
    return tuple(map(float, own)), tuple(map(float, block))


def space_scores(view: GameState, team: int) -> list[float]:
    """How good each space is for *team* to take now (0 for taken spaces): the windows of the
    game's winning length through it that no blocked space is in."""
    board = view.board
    teams = view.teams
    params = view.config.params
    own_weights, block_weights = float_weights(params.winning_length)
    all_windows, through = geometry(params.winning_length, params.blocked)
    counts = []
    for window in all_windows:
        per_team = [0] * teams
        for space in window:
            owner = board[space]
            if owner >= 0:
                per_team[owner] += 1
        counts.append(per_team)
    scores = [0.0] * (SPACES + 1)
    for space in range(1, SPACES + 1):
        if board[space] != FREE:
            continue
        value = 0.0
        for index in through[space]:
            per_team = counts[index]
            ours = per_team[team]
            others = [(t, c) for t, c in enumerate(per_team) if t != team and c]
            if not others:
                value += own_weights[ours]
            elif ours == 0 and len(others) == 1:
                value += block_weights[others[0][1]]
        scores[space] = value
    return scores


class GreedyBot:
    """Extends its lines, blocks the opponents' longest open lines, and saves low cards."""

    def __init__(self, seat: int, rules: Rules | None = None) -> None:
        self.seat = seat
        #: The game's rules, to weigh the actions a variant declares (hook API 3).
        self.rules = rules

    def choose(self, view: GameState, legal: LegalActions) -> Command:
        team = view.team_of(self.seat)
        scores = space_scores(view, team)
        if legal.acts and self.rules is not None:
            act = best_act(view, legal, team, self.rules)
            if act is not None and act[0] >= WORTH_PLAYING and act[0] > _best_play(scores, legal):
                return act[1]
        best: tuple[float, Command] | None = None
        burnable: int | None = None
        for card, spaces in legal.plays:
            if not spaces:
                burnable = card if burnable is None else max(burnable, card)
                continue
            for space in spaces:
                value = scores[space] - CARD_COST * (SPACES - card)
                if best is None or value > best[0]:
                    best = (value, PlayCard(self.seat, card, space))
        if best is not None and (
            best[0] >= WORTH_PLAYING or not (legal.can_draw or legal.can_exchange)
        ):
            return self._highest_card_for(best[1], legal)
        if legal.can_draw:
            return Draw(self.seat)
        # A full hand burns or exchanges to wait for a better card, while the board has a space
        # worth one. On a board that has none (its open lines all dead: many teams block each
        # other) waiting never ends: it places, and the full board ends the game (E3).
        waiting = best is None or max(scores[n] for n in view.free_spaces()) >= WORTH_PLAYING
        if burnable is not None and waiting:
            return PlayCard(self.seat, burnable, None)
        hand = view.hands[self.seat]
        if legal.can_exchange and min(hand) > EXCHANGE_ABOVE and waiting:
            return Exchange(self.seat)
        assert best is not None  # an empty hand can draw, a hand that burns has burned
        return self._highest_card_for(best[1], legal)

    def _highest_card_for(self, command: Command, legal: LegalActions) -> Command:
        """The same space, taken with the highest card that reaches it."""
        assert isinstance(command, PlayCard)
        space = command.space
        cards = [card for card, spaces in legal.plays if space in spaces]
        return PlayCard(self.seat, max(cards), space)


def _best_play(scores: list[float], legal: LegalActions) -> float:
    """The value of the best plain play of *legal* (by greedy's measure)."""
    best = float("-inf")
    for card, spaces in legal.plays:
        for space in spaces:
            best = max(best, scores[space] - CARD_COST * (SPACES - card))
    return best


def best_act(
    view: GameState, legal: LegalActions, team: int, rules: Rules
) -> tuple[float, Act] | None:
    """The declared action of *legal* (hook API 3) worth most to *team*, and its worth: one
    that wins outright first; else what it changes on the board, by the windows through the
    spaces it changes (:func:`act_value`), less its card's cost. Each action is carried out
    on the view by the game's own rules (``decide``): greedy needs to know nothing of it."""
    best: tuple[float, Act] | None = None
    for act in legal.acts:
        try:
            steps = decide_steps(view, act, rules, legal)
        except CincoError:  # not decidable from this view (it would need hidden cards)
            continue
        last, after = steps[-1]
        if isinstance(last, GameEnded) and last.winner == team:
            return float("inf"), act
        value = act_value(view, after, team)
        card = act.get("card")
        if card is not None:
            value -= CARD_COST * (SPACES - card)
        if best is None or value > best[0]:
            best = (value, act)
    return best


def act_value(before: GameState, after: GameState, team: int) -> float:
    """How much better the board is for *team* after than before: over the windows through the
    spaces that changed, *team*'s open windows (each worth what its tokens took to build, by
    the kernel's values) gained, and the other teams' lost."""
    own_weights, block_weights = float_weights(before.params.winning_length)
    windows, through = geometry(before.params.winning_length, before.params.blocked)
    changed = {n for n in range(1, SPACES + 1) if before.board[n] != after.board[n]}
    touched = {index for space in changed for index in through[space]}

    def worth(board: tuple[int, ...]) -> float:
        total = 0.0
        for index in touched:
            owners = {board[n] for n in windows[index] if board[n] >= 0}
            count = sum(1 for n in windows[index] if board[n] >= 0)
            if owners == {team}:
                total += sum(own_weights[:count])
            elif len(owners) == 1:
                total -= sum(block_weights[:count])
        return total

    return worth(after.board) - worth(before.board)


@hookimpl
def cinco_register_bots() -> list[BotSpec]:
    return [
        BotSpec(
            "greedy",
            N_("Builds its own lines, blocks the longest open lines of others, saves low cards."),
            create=lambda context: GreedyBot(context.seat, context.rules),
            title=N_("Greedy"),
        )
    ]


__all__ = ["BotContext", "GreedyBot", "space_scores"]
