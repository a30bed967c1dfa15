"""The ``ismcts`` bot: information-set Monte Carlo tree search.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, *Information Set Monte Carlo Tree
Search*, IEEE TCIAIG 2012). The bot sees only its own player's view: the board, its own hand,
the sizes of the other hands and of the piles, and the cards it saw played. Each iteration:

1. **determinises**: deals the cards it cannot see (every card not in its hand nor known in
   the discard pile) at random into the other hands, the draw pile and the face-down
   discards, in the sizes its view shows — one world consistent with what it knows;
2. **selects** down the tree by UCT among the moves legal *in that world*, counting each
   child's availability (a move is only available in some worlds: an opponent may not hold a
   card low enough), with a progressive bias towards the rollout policy's own move;
3. **expands** one new move (the policy's first);
4. **rolls out** to the end of the game on the fast :mod:`kernel` with the rollout policy
   (:func:`policy_choice`): a greedy player that keeps a hand to choose from;
5. **backs up** the result for every team: each node keeps the score of the team that moved
   into it (win 1, draw 0.5, loss 0).

The move played is the root's most visited child — unless the rollout policy's own move scored
within a standard error of it: search must show that it knows better.

A move is a *space* (the card is then the least flexible one that reaches it: the highest,
keeping low cards, which reach more of the board), or draw, exchange, or burn. At each node
only the best few spaces by the lines through them are searched (the board at a node is the
same in every world, so this ranking is computed once per node).

Budget: ``BotContext.iterations`` (reproducible: the same seed and iterations give the same
move), else ``BotContext.time_budget`` seconds, else the level's default. Levels ``easy``,
``medium`` and ``hard`` differ in budget and breadth.
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect_left
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cinco.core.board import SPACES
from cinco.core.commands import Command, Draw, Exchange, PlayCard
from cinco.core.hookspecs import hookimpl
from cinco.core.i18n import _
from cinco.core.registry import BotContext, BotSpec
from cinco.core.state import UNKNOWN, GameState

from .kernel import Kernel, line_weights, make_kernel, shuffled

if TYPE_CHECKING:
    from cinco.core.rules import LegalActions, Rules

#: Move keys besides spaces (1–90).
DRAW, EXCHANGE, BURN = -1, -2, -3


@dataclass(frozen=True)
class Settings:
    """How one level searches."""

    #: Seconds per move when neither iterations nor a time budget are given.
    seconds: float
    #: Spaces considered at the root, and at the other nodes.
    root_width: int = 12
    width: int = 6
    #: UCT exploration constant (rewards are in [0, 1]).
    exploration: float = 0.6
    #: Chance that a rollout move is a random reachable space rather than the best one.
    epsilon: float = 0.0
    #: In rollouts, spending a card costs this much per step it is below 90.
    card_cost: float = 0.08
    #: A rollout player holding 1, 2, 3 cards draws (4: may exchange) rather than take a space
    #: worth less than this (less the card's cost): with a hand to choose from, it places
    #: better later, and can block.
    keep: tuple[float, ...] = (0.0, 200.0, 100.0, 40.0, 40.0)
    #: How often a rollout player with a full hand and no space worth it exchanges (else it
    #: plays the best space anyway).
    exchange_chance: float = 0.75
    #: Progressive bias towards the rollout policy's own move at each node (0: none) ...
    bias: float = 1.0
    #: ... and how many standard errors better another move must score to be played instead.
    confidence: float = 1.0
    #: A rollout longer than this many turns is scored by the tokens in open lines.
    max_rollout: int = 240


LEVELS: dict[str, Settings] = {
    # A beginner: little thought, no preference for keeping a hand, sloppy rollouts.
    "easy": Settings(
        seconds=0.05,
        root_width=6,
        width=3,
        epsilon=0.3,
        bias=0.0,
        keep=(0.0, 9.0, 9.0, 9.0, 9.0),
        exchange_chance=0.5,
    ),
    "medium": Settings(seconds=0.3),
    "hard": Settings(seconds=1.0),
}
DEFAULT_LEVEL = "medium"
#: How often the rollouts of unknown rules draw instead of playing, when they may.
GENERIC_DRAW_CHANCE = 0.3
#: Of a time budget, this share is used for thinking; the rest is a margin for the clock.
TIME_SHARE = 0.85


def space_score(kernel: Kernel, space: int, team: int) -> float:
    """How good *space* is for *team* now: the windows of five through it that *team* can
    still complete (more of its tokens there: worth more), and the windows one other team is
    building (more tokens: more urgent to block)."""
    value = kernel.tables.value[team]
    code = kernel.code
    return sum(value[code[w]] for w in kernel.through[space])


def unseen_cards(view: GameState, seat: int) -> list[int]:
    """Every card *seat* cannot see: not in its hand, not known in the discard pile."""
    seen = set(view.hands[seat])
    seen.update(c for c in view.discard_pile if c != UNKNOWN)
    return [c for c in range(1, SPACES + 1) if c not in seen]


class Node:
    """A node of the search tree: an information set after a sequence of moves."""

    __slots__ = ("avail", "children", "ranked", "reward", "team", "visits")

    def __init__(self, team: int) -> None:
        #: The team whose move led here; ``reward`` is its score.
        self.team = team
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        #: Free spaces, best first for the team to move here (the same in every world).
        self.ranked: list[int] | None = None


class Search:
    """One move's search from *view*."""

    def __init__(
        self,
        view: GameState,
        seat: int,
        rules: Rules | None,
        settings: Settings,
        rng: random.Random,
    ) -> None:
        self.view = view
        self.seat = seat
        self.settings = settings
        self.rng = rng
        self.unseen = unseen_cards(view, seat)
        self.base = make_kernel(view, rules, hidden=self.unseen, rng=rng)
        if type(self.base) is Kernel:
            self.base = Kernel.from_state(
                view, hidden=self.unseen, rules=rules, rng=rng, scores=True
            )
        self.fast = type(self.base) is Kernel
        self.root = Node(team=-1)
        self.iterations = 0
        self.teams = view.teams

    # -- worlds -------------------------------------------------------------------------------

    def determinise(self) -> Kernel:
        """A copy of the view with the unseen cards dealt at random where the view has
        unknown ones."""
        cards = shuffled(self.unseen, self.rng)
        world = self.base.copy()
        view = self.view
        i = 0
        for seat in range(view.players):
            if seat == self.seat:
                continue
            n = len(view.hands[seat])
            world.hands[seat] = cards[i : i + n]
            i += n
        n = len(view.draw_pile)
        world.draw = cards[i : i + n]
        i += n
        if i < len(cards):
            rest = iter(cards[i:])
            world.discard = [next(rest) if c == UNKNOWN else c for c in view.discard_pile]
        return world

    # -- moves --------------------------------------------------------------------------------

    def moves(self, node: Node, world: Kernel, width: int) -> list[int]:
        """The moves searched at *node* in *world*: an immediate win alone if there is one;
        else the best *width* reachable spaces, and draw, exchange or burn when legal."""
        hand = world.hands[world.seat]
        if not hand:
            return [DRAW]
        team = world.seat % world.teams
        if node.ranked is None:
            row = world.scores[team] if world.scores is not None else None
            if row is not None:
                node.ranked = sorted(world.free, key=row.__getitem__, reverse=True)
            else:
                node.ranked = sorted(world.free, key=lambda n: -space_score(world, n, team))
        if self.fast:
            free = world.free
            top = free[-1] if free else 0
            low = min(hand)
            anywhere = world.joker and max(hand) > top
            for x in world.threats[team]:
                if x >= low or anywhere:
                    return [x]
            moves = []
            for x in node.ranked:
                if x >= low or anywhere:
                    moves.append(x)
                    if len(moves) >= width:
                        break
            burn = not world.joker and max(hand) > top
        else:
            for x in world.threats[team]:
                if world.card_for(x) is not None:
                    return [x]
            moves = []
            for x in node.ranked:
                if world.card_for(x) is not None:
                    moves.append(x)
                    if len(moves) >= width:
                        break
            burn = any(not world.legal_spaces(c) for c in hand)
        if world.can_draw():
            moves.append(DRAW)
        elif world.can_exchange():
            moves.append(EXCHANGE)
        if burn:
            moves.append(BURN)
        return moves

    # -- the search ---------------------------------------------------------------------------

    def run(self, iterations: int | None, deadline: float | None) -> None:
        """Iterate until *iterations* are done or the clock passes *deadline*."""
        settings = self.settings
        exploration = settings.exploration
        log = math.log
        sqrt = math.sqrt
        bias = settings.bias
        policy = self.fast and bias > 0
        while True:
            if iterations is not None:
                if self.iterations >= iterations:
                    return
            elif self.iterations % 8 == 0 and time.perf_counter() >= deadline:  # type: ignore[operator]
                return
            self.iterations += 1
            world = self.determinise()
            node = self.root
            path = [node]
            width = settings.root_width
            while not world.over:
                moves = self.moves(node, world, width)
                width = settings.width
                children = node.children
                prior = policy_choice(world, settings) if policy else 0
                fresh = prior if prior in moves and prior not in children else None
                for move in moves:
                    child = children.get(move)
                    if child is None:
                        if fresh is None:
                            fresh = move
                    else:
                        child.avail += 1
                if fresh is not None:
                    child = Node(world.seat % world.teams)
                    child.avail = 1
                    children[fresh] = child
                    apply_move(world, fresh)
                    path.append(child)
                    break
                best_value = -1.0
                best_move = moves[0]
                for move in moves:
                    child = children[move]
                    value = child.reward / child.visits + exploration * sqrt(
                        log(child.avail) / child.visits
                    )
                    if move == prior:
                        value += bias / (child.visits + 1)
                    if value > best_value:
                        best_value, best_move = value, move
                node = children[best_move]
                apply_move(world, best_move)
                path.append(node)
            scores = self.rollout(world)
            for visited in path:
                visited.visits += 1
                if visited.team >= 0:
                    visited.reward += scores[visited.team]

    def rollout(self, world: Kernel) -> list[float]:
        """Play *world* out with the fast policy; each team's score."""
        if self.fast:
            rollout_fast(world, self.rng, self.settings)
        else:
            rollout_generic(world, self.rng, self.settings)
        teams = world.teams
        if world.over:
            if world.winner is None:
                return [0.5] * teams
            scores = [0.0] * teams
            scores[world.winner] = 1.0
            return scores
        return evaluate(world)

    def best_move(self) -> int:
        """The most visited move; but the rollout policy's own move, unless the most visited
        one scored clearly better (by ``settings.confidence`` standard errors)."""
        children = self.root.children
        best = max(children, key=lambda m: (children[m].visits, children[m].reward))
        if not (self.fast and self.settings.bias > 0):
            return best
        prior = policy_choice(self.determinise(), self.settings)
        if prior == best or prior not in children:
            return best
        a, b = children[best], children[prior]
        mean_a, mean_b = a.reward / a.visits, b.reward / b.visits
        error = math.sqrt(0.25 / a.visits + 0.25 / b.visits)
        return best if mean_a - mean_b > self.settings.confidence * error else prior


def evaluate(world: Kernel) -> list[float]:
    """A score per team for an unfinished rollout: shares of the open-line potential."""
    counts = world.tables.counts
    own = line_weights(world.tables.length)[0]
    values = [0.0] * world.teams
    for code in world.code:
        window = counts[code]
        total = sum(window)
        for team, mine in enumerate(window):
            if mine and mine == total:
                values[team] += own[mine]
    whole = sum(values) or 1.0
    return [0.25 + 0.5 * v / whole for v in values]


def apply_move(world: Kernel, move: int) -> None:
    """Carry out a move key in *world*: a space with the least flexible card reaching it."""
    if move > 0:
        card = world.card_for(move)
        assert card is not None
        world.play(card, move)
    elif move == DRAW:
        world.take()
    elif move == EXCHANGE:
        world.exchange()
    else:
        hand = world.hands[world.seat]
        card = max(c for c in hand if not world.legal_spaces(c))
        world.play(card, None)


def rollout_fast(world: Kernel, rng: random.Random, settings: Settings) -> None:
    """Play *world* on with :func:`policy_choice` until it ends or the rollout is long enough."""
    limit = world.turn + settings.max_rollout
    while not world.over and world.turn < limit:
        apply_move(world, policy_choice(world, settings, rng))


def policy_move(world: Kernel, rng: random.Random, settings: Settings) -> None:
    """Carry out one move of the rollout policy."""
    apply_move(world, policy_choice(world, settings, rng))


def policy_choice(world: Kernel, settings: Settings, rng: random.Random | None = None) -> int:
    """The rollout policy's move in *world* (a kernel keeping scores), a greedy player that
    keeps a hand: win if it can, block a four, else take the reachable space worth most to
    its team with the highest card that reaches it — but only if it is worth more than the
    card (:attr:`Settings.card_cost`) by the :attr:`Settings.keep` margin for its hand size;
    else draw, or with a full hand exchange (by :attr:`Settings.exchange_chance`). Without
    *rng* the choice is deterministic (no random space, a full hand exchanges)."""
    seat = world.seat
    hand = world.hands[seat]
    if not hand:
        return DRAW
    teams = world.teams
    threats = world.threats
    team = seat % teams
    free = world.free
    low = min(hand)
    anywhere = world.joker and max(hand) > free[-1]
    for x in threats[team]:
        if x >= low or anywhere:
            return x
    for other in range(teams):
        if other != team and threats[other]:
            for x in threats[other]:
                if x >= low or anywhere:
                    return x
    size = len(hand)
    start = 0 if anywhere else bisect_left(free, low)
    span = len(free) - start
    if span <= 0:
        return DRAW if world.can_draw() else EXCHANGE if world.can_exchange() else BURN
    row = world.scores[team]  # type: ignore[index]
    if rng is not None and settings.epsilon and rng.random() < settings.epsilon:
        move = free[start + int(rng.random() * span)]
    else:
        move = max(free[start:], key=row.__getitem__)
    card = world.card_for(move)
    assert card is not None
    keep = settings.keep
    if row[move] - settings.card_cost * (SPACES - card) < keep[min(size, len(keep) - 1)]:
        if world.can_draw():
            return DRAW
        if (rng is None or rng.random() < settings.exchange_chance) and world.can_exchange():
            return EXCHANGE
    return move


def rollout_generic(world: Kernel, rng: random.Random, settings: Settings) -> None:
    """The rollout policy through the kernel's rule methods (for rules it does not know)."""
    limit = world.turn + settings.max_rollout
    while not world.over and world.turn < limit:
        hand = world.hands[world.seat]
        if not hand:
            world.take()
            continue
        team = world.seat % world.teams
        options = [(c, world.legal_spaces(c)) for c in hand]
        move = next((x for x in world.threats[team] if any(x in s for _c, s in options)), 0)
        if move:
            world.play(world.card_for(move) or hand[0], move)
            continue
        if world.can_draw() and rng.random() < GENERIC_DRAW_CHANCE:
            world.take()
            continue
        card, spaces = rng.choice(options)
        if spaces:
            world.play(card, rng.choice(spaces))
        elif world.can_exchange():
            world.exchange()
        elif world.can_draw():
            world.take()
        else:
            world.play(card, None)


class IsmctsBot:
    """A bot that searches by information-set MCTS from its own player's view."""

    def __init__(self, context: BotContext) -> None:
        self.context = context
        self.settings = LEVELS.get(context.level or DEFAULT_LEVEL, LEVELS[DEFAULT_LEVEL])
        #: The last search, for tests and curious people.
        self.last: Search | None = None

    def budget(self) -> tuple[int | None, float | None]:
        """(iterations, seconds) per move."""
        context = self.context
        if context.iterations is not None:
            return context.iterations, None
        if context.time_budget is not None:
            return None, context.time_budget * TIME_SHARE
        return None, self.settings.seconds

    def choose(self, view: GameState, legal: LegalActions) -> Command:
        seat = self.context.seat
        if len(legal) == 1:
            return legal[0]
        started = time.perf_counter()
        iterations, seconds = self.budget()
        rng = random.Random(self.context.seed * 1_000_003 + view.turn)
        search = Search(view, seat, self.context.rules, self.settings, rng)
        deadline = None if seconds is None else started + seconds
        search.run(iterations, deadline)
        self.last = search
        return to_command(search.best_move(), legal)


def to_command(move: int, legal: LegalActions) -> Command:
    """The command for a searched move: a space is taken with the least flexible card that
    reaches it (the one with the fewest legal spaces; the highest among equals)."""
    seat = legal.seat
    if move == DRAW:
        return Draw(seat)
    if move == EXCHANGE:
        return Exchange(seat)
    if move == BURN:
        return PlayCard(seat, max(card for card, spaces in legal.plays if not spaces), None)
    options = [(len(spaces), -card) for card, spaces in legal.plays if move in spaces]
    return PlayCard(seat, -min(options)[1], move)


def create(context: BotContext) -> IsmctsBot:
    return IsmctsBot(context)


@hookimpl
def cinco_register_bots() -> list[BotSpec]:
    return [
        BotSpec(
            "ismcts",
            _(
                "Searches ahead by information-set Monte Carlo tree search, from its own view "
                "only; strong. Levels: easy, medium, hard."
            ),
            create=create,
            levels=tuple(LEVELS),
        )
    ]


__all__ = [
    "LEVELS",
    "IsmctsBot",
    "Search",
    "Settings",
    "policy_choice",
    "rollout_fast",
    "unseen_cards",
]
