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
from typing import TYPE_CHECKING

from cinco.core.engine.commands import Command, Draw, Exchange, PlayCard
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host import thinking
from cinco.core.host.declarations import BotContext, BotSpec
from cinco.core.words.i18n import N_

from .engine_search import EngineSearch

# The search itself (tree, loop, rollouts) is in .search, compiled with the kernel when a
# compiled build exists; these names are re-exported for the bot's users.
from .search import (
    BURN,
    DRAW,
    EXCHANGE,
    Search,
    Settings,
    policy_choice,
    policy_move,
    rollout_fast,
    unseen_cards,
)

if TYPE_CHECKING:
    from cinco.core.engine.legal import LegalActions
    from cinco.core.engine.state import GameState
    from cinco.core.host.thinking import Limit

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
#: Of a time budget, this share is used for thinking; the rest is a margin for the clock.
TIME_SHARE = 0.85
#: Under a caller's limit, the search looks at it this often (seconds, or iterations).
SLICE_SECONDS = 0.05
SLICE_ITERATIONS = 32


class IsmctsBot:
    """A bot that searches by information-set MCTS from its own player's view."""

    def __init__(self, context: BotContext) -> None:
        self.context = context
        self.settings = LEVELS.get(context.level or DEFAULT_LEVEL, LEVELS[DEFAULT_LEVEL])
        #: The last search, for tests and curious people.
        self.last: Search | None = None

    def budget(self) -> tuple[int | None, float | None]:
        """(iterations, seconds) per move. A budget that is no number of seconds (NaN, an
        infinity) counts as none given: a search must end; one of nothing (zero, negative)
        searches nothing and plays the rollout policy's move."""
        context = self.context
        if context.iterations is not None:
            return max(context.iterations, 0), None
        budget = context.time_budget
        if budget is not None and math.isfinite(budget):
            return None, max(budget, 0.0) * TIME_SHARE
        return None, self.settings.seconds

    def choose(self, view: GameState, legal: LegalActions) -> Command:
        seat = self.context.seat
        if len(legal) == 1:
            return legal[0]
        started = time.perf_counter()
        iterations, seconds = self.budget()
        rng = random.Random(self.context.seed * 1_000_003 + view.turn)
        rules = self.context.rules
        if rules is not None and rules.declared:
            # A variant's own actions (hook API 3), which the kernel cannot play: search on
            # the engine itself (slower, exact; .engine_search).
            generic = EngineSearch(view, legal, rules, rng)
            _run_generic(generic, iterations, seconds, started)
            return generic.best()
        search = Search(view, seat, self.context.rules, self.settings, rng)
        deadline = None if seconds is None else started + seconds
        _run(search, iterations, deadline, thinking.current())
        self.last = search
        return to_command(search.best_move(), legal)


def _run(
    search: Search, iterations: int | None, deadline: float | None, limit: Limit | None
) -> None:
    """Search to the budget; with a *limit* (someone waits: :mod:`cinco.core.host.thinking`), in
    short slices, never past its deadline, and no further once it is called off."""
    if limit is None:
        search.run(iterations, deadline)
        return
    while not limit.over():
        if iterations is not None:  # the same iterations as without a limit, if it allows
            if search.iterations >= iterations:
                return
            search.run(min(iterations, search.iterations + SLICE_ITERATIONS), None)
            continue
        end = limit.deadline if deadline is None else min(deadline, limit.deadline)
        now = time.perf_counter()
        if now >= end:
            return
        search.run(None, min(end, now + SLICE_SECONDS))


def _run_generic(
    search: EngineSearch, iterations: int | None, seconds: float | None, started: float
) -> None:
    """The engine search to the budget, in slices under a caller's limit (as :func:`_run`)."""
    deadline = None if seconds is None else started + seconds
    limit = thinking.current()
    if limit is not None:
        deadline = limit.deadline if deadline is None else min(deadline, limit.deadline)
    search.run(iterations, deadline)


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
            N_(
                "Searches ahead by information-set Monte Carlo tree search, from its own view "
                "only; strong. Levels: easy, medium, hard."
            ),
            create=create,
            levels=tuple(LEVELS),
            title=N_("Monte Carlo"),
        )
    ]


__all__ = [
    "BURN",
    "DRAW",
    "EXCHANGE",
    "LEVELS",
    "IsmctsBot",
    "Search",
    "Settings",
    "policy_choice",
    "policy_move",
    "rollout_fast",
    "unseen_cards",
]
