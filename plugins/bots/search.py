"""The search of the ``ismcts`` bot (:mod:`.ismcts`): its tree, its loop and its rollouts.

This module and :mod:`.kernel` are the hot code of the bots; both are compiled by mypyc when
the package is built with a C compiler at hand (``setup.py``), and run as plain Python
otherwise (see ``docs/bots.md``, "Compiled kernel"). Hence the style: typed locals, ``Final``
constants, native classes, loops over lists rather than ``key=`` callbacks where a compiled
loop is faster than a call.

One iteration: determinise the hidden cards (:meth:`Search.determinise`), select down the tree
by UCT among the moves legal in that world (:meth:`Search.moves`), expand one move, roll out
to the end of the game with the rollout policy (:func:`policy_choice`), back up each team's
score. A move is a *space* (played with the least flexible card that reaches it), or
:data:`DRAW`, :data:`EXCHANGE` or :data:`BURN`.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from cinco.core.engine.state import GameState

from .kernel import (
    COMPILED,
    SPACES,
    UNKNOWN,
    Kernel,
    first_at_least,
    line_weights,
    make_kernel,
    shuffled,
)

if TYPE_CHECKING:
    from mypy_extensions import i64  # a native integer to mypyc (see .kernel): annotations only

    from cinco.core.engine.rules import Rules

#: Move keys besides spaces (1–90).
DRAW: Final = -1
EXCHANGE: Final = -2
BURN: Final = -3
#: How often the rollouts of unknown rules draw instead of playing, when they may.
GENERIC_DRAW_CHANCE: Final = 0.3


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


def space_score(kernel: Kernel, space: int, team: int) -> float:
    """How good *space* is for *team* now: the windows of five through it that *team* can
    still complete (more of its tokens there: worth more), and the windows one other team is
    building (more tokens: more urgent to block)."""
    value = kernel.tables.value[team]
    code = kernel.code
    total = 0.0
    for w in kernel.through[space]:
        total += value[code[w]]
    return total


def unseen_cards(view: GameState, seat: int) -> list[int]:
    """Every card *seat* cannot see: not in its hand, not known in the discard pile."""
    seen = set(view.hands[seat])
    seen.update(c for c in view.discard_pile if c != UNKNOWN)
    return [c for c in range(1, SPACES + 1) if c not in seen]


class Node:
    """A node of the search tree: an information set after a sequence of moves."""

    __slots__ = ("avail", "children", "ranked", "reward", "team", "visits")

    team: int
    children: dict[int, Node]
    visits: int
    avail: int
    reward: float
    ranked: list[int] | None

    def __init__(self, team: int) -> None:
        #: The team whose move led here; ``reward`` is its score.
        self.team = team
        self.children = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        #: Free spaces, best first for the team to move here (the same in every world).
        self.ranked = None


class Search:
    """One move's search from *view*."""

    view: GameState
    seat: int
    settings: Settings
    rng: random.Random
    unseen: list[int]
    base: Kernel
    fast: bool
    root: Node
    iterations: int
    teams: int

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
        base = make_kernel(view, rules, hidden=self.unseen, rng=rng)
        if type(base) is Kernel:
            base = Kernel.from_state(view, hidden=self.unseen, rules=rules, rng=rng, scores=True)
        self.base = base
        self.fast = type(base) is Kernel
        self.root = Node(-1)
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
            discard: list[int] = []
            for c in view.discard_pile:
                if c == UNKNOWN:
                    discard.append(cards[i])
                    i += 1
                else:
                    discard.append(c)
            world.discard = discard
        return world

    # -- moves --------------------------------------------------------------------------------

    def moves(self, node: Node, world: Kernel, width: int) -> list[int]:
        """The moves searched at *node* in *world*: an immediate win alone if there is one;
        else the best *width* reachable spaces, and draw, exchange or burn when legal."""
        hand = world.hands[world.seat]
        if not hand:
            return [DRAW]
        team = world.seat % world.teams
        ranked = node.ranked
        if ranked is None:
            ranked = node.ranked = rank_spaces(world, team)
        if self.fast:
            free = world.free
            top = free[-1] if free else 0
            low = min(hand)
            anywhere = world.joker and max(hand) > top
            win = reachable_in(world.threats[team], low, anywhere)
            if win:
                return [win]
            moves = best_reachable(ranked, low, anywhere, width)
            burn = not world.joker and max(hand) > top
        else:
            win = next((x for x in world.threats[team] if world.card_for(x) is not None), 0)
            if win:
                return [win]
            moves = held_reach(world, ranked, width)
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
        while not self.done(iterations, deadline):
            self.iterations += 1
            world = self.determinise()
            path = self.descend(world)
            scores = self.rollout(world)
            for visited in path:
                visited.visits += 1
                if visited.team >= 0:
                    visited.reward += scores[visited.team]

    def done(self, iterations: int | None, deadline: float | None) -> bool:
        """Whether *iterations* are done, or (without them) the clock has passed *deadline*
        (read every eighth iteration)."""
        if iterations is not None:
            return self.iterations >= iterations
        return self.iterations % 8 == 0 and deadline is not None and time.perf_counter() >= deadline

    def descend(self, world: Kernel) -> list[Node]:
        """Select down the tree by UCT, playing each move in *world*, until a move not tried
        yet, which is expanded (or the game ends): the nodes passed, root first."""
        settings = self.settings
        exploration = settings.exploration
        bias = settings.bias
        node_width = settings.width
        policy = self.fast and bias > 0
        node = self.root
        path = [node]
        width = settings.root_width
        while not world.over:
            moves = self.moves(node, world, width)
            width = node_width
            children = node.children
            prior = policy_choice(world, settings, None) if policy else 0
            fresh = untried(children, moves, prior)
            if fresh != 0:
                new = Node(world.seat % world.teams)
                new.avail = 1
                children[fresh] = new
                apply_move(world, fresh)
                path.append(new)
                break
            move = uct_choice(children, moves, prior, exploration, bias)
            node = children[move]
            apply_move(world, move)
            path.append(node)
        return path

    def rollout(self, world: Kernel) -> list[float]:
        """Play *world* out with the fast policy; each team's score."""
        if self.fast:
            rollout_fast(world, self.rng, self.settings)
        else:
            rollout_generic(world, self.rng, self.settings)
        teams = world.teams
        if world.over:
            winner = world.winner
            if winner is None:
                return [0.5] * teams
            scores = [0.0] * teams
            scores[winner] = 1.0
            return scores
        return evaluate(world)

    def best_move(self) -> int:
        """The most visited move; but the rollout policy's own move, unless the most visited
        one scored clearly better (by ``settings.confidence`` standard errors).

        A search that ran no iteration (its deadline passed while it was being set up: a
        cold start building a kernel's tables for many teams, or a busy server, can take
        longer than a small budget; or it was called off at once) plays the rollout
        policy's move, :meth:`unsearched_move`: never an empty tree's ``max()``."""
        children = self.root.children
        if not children:
            return self.unsearched_move()
        best = max(children, key=lambda m: (children[m].visits, children[m].reward))
        if not (self.fast and self.settings.bias > 0):
            return best
        prior = policy_choice(self.determinise(), self.settings, None)
        if prior == best or prior not in children:
            return best
        a, b = children[best], children[prior]
        mean_a, mean_b = a.reward / a.visits, b.reward / b.visits
        error = math.sqrt(0.25 / a.visits + 0.25 / b.visits)
        return best if mean_a - mean_b > self.settings.confidence * error else prior

    def unsearched_move(self) -> int:
        """The move without search: the rollout policy's (deterministic) choice, or with
        unknown rules the first move :meth:`moves` offers at the root."""
        world = self.determinise()
        if self.fast and world.scores is not None:
            return policy_choice(world, self.settings, None)
        return self.moves(self.root, world, self.settings.root_width)[0]


def untried(children: dict[int, Node], moves: list[int], prior: int) -> int:
    """The move of *moves* to expand: the rollout policy's *prior* if it has no node yet, else
    the first that has none, or 0 when all have. Every other move's node counts one more
    time it was available."""
    fresh = prior if prior in moves and prior not in children else 0
    for move in moves:
        child = children.get(move)
        if child is None:
            if fresh == 0:
                fresh = move
        else:
            child.avail += 1
    return fresh


def uct_choice(
    children: dict[int, Node], moves: list[int], prior: int, exploration: float, bias: float
) -> int:
    """The move whose node (every move has one) scores best by UCT, plus the progressive
    *bias* towards the rollout policy's *prior* (first of equals)."""
    best_value = -1.0
    best_move = moves[0]
    for move in moves:
        child = children[move]
        visits = child.visits
        value = child.reward / visits + exploration * math.sqrt(math.log(child.avail) / visits)
        if move == prior:
            value += bias / (visits + 1)
        if value > best_value:
            best_value = value
            best_move = move
    return best_move


def reachable_in(spaces: set[int], low: int, anywhere: bool) -> int:
    """The first of *spaces* that a hand whose lowest card is *low* reaches (every one with
    *anywhere*: a Joker), or 0 when none."""
    for x in spaces:
        if x >= low or anywhere:
            return x
    return 0


def best_reachable(ranked: list[int], low: int, anywhere: bool, width: int) -> list[int]:
    """The first *width* of the spaces *ranked* that such a hand reaches."""
    found: list[int] = []
    for x in ranked:
        if x >= low or anywhere:
            found.append(x)
            if len(found) >= width:
                break
    return found


def held_reach(world: Kernel, ranked: list[int], width: int) -> list[int]:
    """:func:`best_reachable`, asking *world* (its rules) whether a card in hand reaches each
    space, and no more spaces than it takes."""
    found: list[int] = []
    for x in ranked:
        if world.card_for(x) is not None:
            found.append(x)
            if len(found) >= width:
                break
    return found


def rank_spaces(world: Kernel, team: int) -> list[int]:
    """The free spaces of *world*, best first for *team* (by the kept scores, else by
    :func:`space_score`); equal spaces keep their order (the sort is stable)."""
    row = world.scores[team] if world.scores is not None else None
    if row is not None:
        return sorted(world.free, key=row.__getitem__, reverse=True)
    return sorted(world.free, key=lambda n: -space_score(world, n, team))


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
    team = seat % world.teams
    free = world.free
    if COMPILED:  # a loop in machine code; the interpreter is quicker calling min and max
        low = high = hand[0]
        for held in hand:
            if held < low:
                low = held
            elif held > high:
                high = held
    else:
        low = min(hand)
        high = max(hand)
    anywhere = world.joker and high > free[-1]
    urgent = urgent_space(world.threats, team, low, anywhere)
    if urgent:
        return urgent
    start = 0 if anywhere else first_at_least(free, low)
    if len(free) - start <= 0:
        return DRAW if world.can_draw() else EXCHANGE if world.can_exchange() else BURN
    scores = world.scores
    assert scores is not None
    row = scores[team]
    move = best_space(free, start, row, settings, rng)
    card = world.card_for(move)
    assert card is not None
    keep = settings.keep
    if row[move] - settings.card_cost * (SPACES - card) < keep[min(len(hand), len(keep) - 1)]:
        return keep_hand(world, move, settings, rng)
    return move


def urgent_space(threats: list[set[int]], team: int, low: int, anywhere: bool) -> int:
    """A space of *threats* that a hand whose lowest card is *low* reaches (every one with
    *anywhere*): *team*'s own, which wins, else another team's, in team order, which blocks
    it; 0 when none."""
    # (``len`` first: most sets are empty, and a loop over a set makes an iterator.)
    if len(threats[team]) > 0:
        win = reachable_in(threats[team], low, anywhere)
        if win:
            return win
    for other in range(len(threats)):
        if other != team and len(threats[other]) > 0:
            block = reachable_in(threats[other], low, anywhere)
            if block:
                return block
    return 0


def best_space(
    free: list[int], start: int, row: list[int], settings: Settings, rng: random.Random | None
) -> int:
    """The space of ``free[start:]`` (not empty) worth most by *row*, the first of equals; or,
    by :attr:`Settings.epsilon` when there is an *rng*, one of them at random."""
    epsilon = settings.epsilon
    if rng is not None and epsilon and rng.random() < epsilon:
        return free[start + int(rng.random() * (len(free) - start))]
    if COMPILED:  # the first of the best, as ``max`` picks it (a call per space, compiled)
        move = free[start]
        best = row[move]
        at: i64 = start + 1
        end: i64 = len(free)
        while at < end:  # (indices, not a slice: no list to allocate on every move)
            x = free[at]
            value = row[x]
            if value > best:
                best = value
                move = x
            at += 1
        return move
    return max(free[start:], key=row.__getitem__)


def keep_hand(world: Kernel, move: int, settings: Settings, rng: random.Random | None) -> int:
    """Instead of *move*, a space not worth its card: draw, or with a full hand exchange (by
    :attr:`Settings.exchange_chance`, always without *rng*), or else play it anyway."""
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


__all__ = [
    "BURN",
    "DRAW",
    "EXCHANGE",
    "Node",
    "Search",
    "Settings",
    "apply_move",
    "evaluate",
    "policy_choice",
    "policy_move",
    "rollout_fast",
    "rollout_generic",
    "space_score",
    "unseen_cards",
]
