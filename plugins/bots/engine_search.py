"""The ``ismcts`` bot's search for games whose variants declare actions of their own (hook API
3): information-set Monte Carlo on the reference engine, slower than the kernel but exact.

The kernel (:mod:`.kernel`) plays play, draw and exchange on plain lists; it cannot play an
action a variant declares (a capture, a pass, ...), whose effects only the game's rules know.
So in such a game the bot searches with the engine itself: each iteration determinises the
hidden cards (:meth:`EngineSearch.determinise`, one world its view allows), picks a root move
by UCB1 among a few candidates (:func:`candidates`: the best plays and declared actions by
greedy's measure, draw, exchange, burn), carries it out with
:func:`~cinco.core.engine.rules.decide_steps`, and rolls the world out with a light random
policy for at most :data:`ROLLOUT_TURNS` turns, through the game's own rules (its hooks and its
declared actions), scoring an unfinished world by the teams' open lines. Every move it plays
is one of the legal moves it was given.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import replace
from typing import TYPE_CHECKING

from cinco.core.engine.board import SPACES
from cinco.core.engine.commands import Command, PlayCard
from cinco.core.engine.errors import CincoError
from cinco.core.engine.legal import LegalActions, legal_actions
from cinco.core.engine.rules import decide_steps
from cinco.core.engine.state import UNKNOWN, GameState

from .greedy import CARD_COST, GreedyBot, act_value, float_weights, space_scores
from .kernel import geometry

if TYPE_CHECKING:
    from cinco.core.engine.rules import Rules

#: A rollout stops after this many turns; the world is then scored by its open lines.
ROLLOUT_TURNS = 30
#: Plain plays, and declared actions, considered at the root (the best by greedy's measure).
ROOT_PLAYS = 6
ROOT_ACTS = 4
#: UCB1's exploration constant (rewards are in [0, 1]).
EXPLORATION = 0.7
#: In a rollout, how often a player with a card to place plays one rather than any move.
PLAY_CHANCE = 0.6


def candidates(view: GameState, legal: LegalActions, rules: Rules) -> list[Command]:
    """The root moves searched: greedy's own choice first, then the best plain plays (each
    space with the highest card reaching it) and declared actions by greedy's measure, a burn,
    draw and exchange when legal. All are among *legal*."""
    seat = legal.seat
    team = view.team_of(seat)
    scores = space_scores(view, team)
    moves: list[Command] = [GreedyBot(seat, rules).choose(view, legal)]
    spaces: dict[int, int] = {}
    for card, reached in legal.plays:
        for space in reached:
            spaces[space] = max(card, spaces.get(space, 0))
    ranked = sorted(spaces, key=lambda n: scores[n] - CARD_COST * (SPACES - spaces[n]))
    moves += [PlayCard(seat, spaces[n], n) for n in reversed(ranked[-ROOT_PLAYS:])]
    burnable = [card for card, reached in legal.plays if not reached]
    if burnable:
        moves.append(PlayCard(seat, max(burnable), None))
    moves += [command for command in legal if not isinstance(command, PlayCard)][:2]
    moves += _best_acts(view, legal, team, rules)
    unique = list(dict.fromkeys(moves))
    return [move for move in unique if move in legal]


def _best_acts(view: GameState, legal: LegalActions, team: int, rules: Rules) -> list[Command]:
    valued: list[tuple[float, int]] = []
    for index, act in enumerate(legal.acts):
        try:
            after = decide_steps(view, act, rules, legal)[-1][1]
        except CincoError:
            continue
        valued.append((act_value(view, after, team), index))
    valued.sort(reverse=True)
    return [legal.acts[index] for _value, index in valued[:ROOT_ACTS]]


def unseen(view: GameState, seat: int) -> list[int]:
    """Every card *seat* cannot see: not in its hand, not known in the discard pile."""
    seen = set(view.hands[seat])
    seen.update(card for card in view.discard_pile if card != UNKNOWN)
    return [card for card in range(1, SPACES + 1) if card not in seen]


def evaluate(state: GameState) -> list[float]:
    """A score per team for an unfinished world: shares of the open-line potential."""
    own, _block = float_weights(state.params.winning_length)
    windows, _through = geometry(state.params.winning_length, state.params.blocked)
    values = [0.0] * state.teams
    board = state.board
    for window in windows:
        owners = {board[n] for n in window if board[n] >= 0}
        if len(owners) == 1:
            team = owners.pop()
            count = sum(1 for n in window if board[n] == team)
            values[team] += sum(own[:count])
    whole = sum(values) or 1.0
    return [0.25 + 0.5 * value / whole for value in values]


class EngineSearch:
    """One move's search from *view* on the reference engine (see the module)."""

    def __init__(
        self, view: GameState, legal: LegalActions, rules: Rules, rng: random.Random
    ) -> None:
        self.view = view
        self.seat = legal.seat
        self.rules = rules
        self.rng = rng
        self.unseen = unseen(view, legal.seat)
        self.legal = legal
        self.moves = candidates(view, self.legal, rules)
        self.visits = [0] * len(self.moves)
        self.reward = [0.0] * len(self.moves)
        self.iterations = 0

    def determinise(self) -> GameState:
        """The view with the cards it cannot see dealt at random where it has unknown ones."""
        cards = list(self.unseen)
        self.rng.shuffle(cards)
        view = self.view
        hands = list(view.hands)
        i = 0
        for seat, hand in enumerate(hands):
            if seat != self.seat:
                hands[seat] = tuple(cards[i : i + len(hand)])
                i += len(hand)
        pile = tuple(cards[i : i + len(view.draw_pile)])
        i += len(pile)
        discard = []
        for card in view.discard_pile:
            if card == UNKNOWN and i < len(cards):
                card = cards[i]
                i += 1
            discard.append(card)
        return replace(view, hands=tuple(hands), draw_pile=pile, discard_pile=tuple(discard))

    def run(self, iterations: int | None, deadline: float | None) -> None:
        """Iterate until *iterations* are done or the clock passes *deadline* (whichever comes
        first; with neither, not at all)."""
        while self.moves and (iterations is not None or deadline is not None):
            if iterations is not None and self.iterations >= iterations:
                return
            if deadline is not None and time.perf_counter() >= deadline:
                return
            self.iterations += 1
            index = self._select()
            team = self.view.team_of(self.seat)
            self.visits[index] += 1
            self.reward[index] += self._playout(self.moves[index])[team]

    def _select(self) -> int:
        for index, visits in enumerate(self.visits):
            if visits == 0:
                return index
        log_total = math.log(sum(self.visits))
        return max(
            range(len(self.moves)),
            key=lambda i: (
                self.reward[i] / self.visits[i]
                + EXPLORATION * math.sqrt(log_total / self.visits[i])
            ),
        )

    def _playout(self, move: Command) -> list[float]:
        """Each team's score after *move* in a fresh world, rolled out."""
        state = self.determinise()
        teams = state.teams
        try:
            state = decide_steps(state, move, self.rules, self.legal)[-1][1]
            for _turn in range(ROLLOUT_TURNS):
                if state.result is not None:
                    break
                state = decide_steps(state, self._policy(state), self.rules)[-1][1]
        except CincoError:  # a world the rules cannot play on (a variant's fault): no news
            return [0.5] * teams
        result = state.result
        if result is None:
            return evaluate(state)
        if result.winner is None:
            return [0.5] * teams
        return [1.0 if team == result.winner else 0.0 for team in range(teams)]

    def _policy(self, state: GameState) -> Command:
        """The rollout policy: a random placement, often; else any legal move at random."""
        legal = legal_actions(state, self.rules)
        placing = [(card, spaces) for card, spaces in legal.plays if spaces]
        if placing and self.rng.random() < PLAY_CHANCE:
            card, spaces = self.rng.choice(placing)
            return PlayCard(legal.seat, card, self.rng.choice(spaces))
        return legal[self.rng.randrange(len(legal))]

    def best(self) -> Command:
        """The most visited root move (greedy's choice when nothing was searched)."""
        if not self.moves:
            return self.legal[0]
        if not any(self.visits):
            return self.moves[0]
        index = max(range(len(self.moves)), key=lambda i: (self.visits[i], self.reward[i]))
        return self.moves[index]


__all__ = ["EngineSearch", "candidates", "evaluate"]
