"""A fast, mutable simulation kernel of Cinco for bots' look-ahead (rollouts, search).

The reference engine (:func:`cinco.core.engine.rules.decide` and
:func:`cinco.core.engine.state.evolve`)
is built for correctness, records and projections: immutable states, events, hooks. A search
bot needs millions of moves, so this kernel plays the same rules on plain lists:

* each window of five cells (:func:`cinco.core.engine.board.windows`) keeps a token count per team,
  so placing a token touches only the few windows through its space;
* ``threats[team]`` is the set of free spaces that would complete a line of five for *team*,
  kept up to date on every placement. A placement wins (E1) exactly when its space is in the
  set, so no line is ever traced during play;
* the free spaces are a sorted list: the spaces a card reaches (A1) are a slice of it.

It knows the standard rules and the Joker variant (V1), played by any game parameters
(:class:`~cinco.core.engine.params.GameParams`: hand limit, deal, cards per draw, exchange size,
winning length, tokens per team, blocked spaces), which it reads from the configuration.
:func:`supports` says whether a game's :class:`~cinco.core.engine.rules.RuleSet` holds other
placement
or end-of-game rules; :class:`RuleSetKernel` then asks the game's own rule hooks on every move
(slowly, but always right). A variant that only allows or forbids draws and exchanges
(``cinco_action_allowed``) keeps the fast kernel: only those questions go to its rules.
A differential test checks the kernel against the reference engine over ten thousand random
games, in both of its builds: this module is compiled by mypyc when the package is installed
with a C compiler (``setup.py``), and runs as plain Python otherwise (:mod:`.builds` chooses;
``docs/bots.md``, "The compiled kernel"). Its code is shaped for that: typed attributes and
locals, ``Final`` literal constants, and ``if COMPILED:`` where the compiled code and the
interpreter want different code for the same answer.

>>> from cinco.core.engine.config import GameConfig
>>> k = Kernel(GameConfig.for_players(2, first_seat=0), rng=random.Random(1))
>>> k.deal()
>>> len(k.hands[0]), len(k.draw), k.seat
(4, 82, 0)
"""

from __future__ import annotations

import random
import struct
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Final

from cinco.core.engine import board as _board
from cinco.core.engine import state as _state
from cinco.core.engine.board import line_through, windows
from cinco.core.engine.commands import DRAW, EXCHANGE, Draw, Exchange, PlayCard
from cinco.core.engine.state import GameState

if TYPE_CHECKING:
    # A fixed-width native integer to mypyc (no boxing, no overflow checks on tagged ints);
    # only an annotation otherwise (never evaluated: ``from __future__ import annotations``),
    # so neither build needs mypy_extensions at run time. Never call ``i64(...)``.
    from mypy_extensions import i64

    from cinco.core.engine.config import GameConfig
    from cinco.core.engine.rules import Rules

Windows = tuple[tuple[int, ...], ...]

#: The board's constants (:mod:`cinco.core.engine.board`, :mod:`cinco.core.engine.state`) as
#: literals: a
#: compiled build inlines a ``Final`` literal, where an imported name is a dictionary look-up
#: on every use.
SPACES: Final = 90
FREE: Final = -1
BLOCKED: Final = -2
UNKNOWN: Final = 0
if (SPACES, FREE, BLOCKED, UNKNOWN) != (_board.SPACES, _state.FREE, _state.BLOCKED, _state.UNKNOWN):
    raise ImportError("cinco.plugins.bots.kernel: its board constants differ from the engine's")


def _compiled() -> bool:
    """Whether this module runs compiled (by mypyc: its functions are then built-in
    functions, without Python code objects)."""
    return not hasattr(_compiled, "__code__")


#: Whether this is the compiled build of the kernel (see ``docs/bots.md``, "Compiled
#: kernel"); the pure-Python module is the same source, run by the interpreter. The build
#: tells mypyc that it is always true (``--always-true=COMPILED``), so the compiled code holds
#: no branch for the interpreter (where a call to a C function beats a Python loop).
COMPILED: Final = _compiled()


@cache
def geometry(length: int = 5, blocked: tuple[int, ...] = ()) -> tuple[Windows, Windows]:
    """The windows of *length* cells no blocked space is in, and for each space the indices
    of the windows holding it (index 0 unused): the lines a game with these parameters can
    still make."""
    out = set(blocked)
    found = tuple(w for w in windows(length) if not out.intersection(w))
    through = tuple(
        tuple(i for i, w in enumerate(found) if space in w) for space in range(SPACES + 1)
    )
    return found, through


#: The windows of five, as tuples of spaces (the standard game's).
WINDOWS: Windows = geometry()[0]
#: THROUGH[space]: indices of the windows holding *space* (index 0 unused).
THROUGH: Windows = geometry()[1]

#: How a reshuffle orders the discard pile: given the pile (oldest first) and the number of
#: shuffles so far, return the new draw pile, top first.
Shuffler = Callable[[list[int], int], list[int]]


#: Value of a window of five through a space for a team, by how many of its cells the team
#: holds when no other team is in it (four: taking the space wins) ...
OWN = (1, 4, 20, 120, 100_000)
#: ... and, for blocking, by how many one other team holds when the team is not in it.
#: (Integers: a space's score, their sum, is then mostly a small integer, which Python does
#: not allocate — the kernel updates scores on every placement.)
BLOCK = (0, 2, 12, 90, 20_000)

#: A window's state is a number: the sum over teams of ``tokens × BASE ** team`` (in the
#: standard game; ``length + 1`` for windows of another length).
BASE = 6


@cache
def line_weights(length: int = 5) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:data:`OWN` and :data:`BLOCK` for windows of *length* cells (a winning line of that
    length): index *k* is a window holding *k* tokens; one short of the line is the most.

    >>> line_weights(5) == (OWN, BLOCK)
    True
    >>> line_weights(4)
    ((1, 20, 120, 100000), (0, 12, 90, 20000))
    """
    if length <= 5:
        return (OWN[0], *OWN[6 - length :]), (BLOCK[0], *BLOCK[6 - length :])
    more = length - 5
    own = (*OWN[:-1], *(OWN[-2] << 2 * k for k in range(1, more + 1)), OWN[-1])
    block = (*BLOCK[:-1], *(BLOCK[-2] << 2 * k for k in range(1, more + 1)), BLOCK[-1])
    return own, block


def window_value(counts: Sequence[int], team: int, length: int = 5) -> int:
    """What a window of *length* cells with *counts* tokens per team is worth to *team* on
    each of its free cells (see :data:`OWN` and :data:`BLOCK`).

    >>> window_value((3, 0), 0), window_value((0, 3), 0), window_value((1, 1), 0)
    (120, 90, 0)
    """
    total = sum(counts)
    if total >= length:
        return 0  # a full window: nothing left to take in it
    own, block = line_weights(length)
    mine = counts[team]
    if mine == total:
        return own[mine]
    if mine == 0 and total in counts:
        return block[total]
    return 0


class Tables:
    """Precomputed window arithmetic for games of *teams* teams and lines of *length*."""

    teams: int
    length: int
    base: int
    step: tuple[int, ...]
    counts: list[tuple[int, ...]]
    value: list[list[int]]
    four: tuple[int, ...]
    delta: list[list[tuple[tuple[int, int], ...]]]

    def __init__(self, teams: int, length: int = 5) -> None:
        self.teams = teams
        self.length = length
        base = self.base = length + 1
        powers = [1]
        for _t in range(teams):
            powers.append(powers[-1] * base)
        self.step = tuple(powers[:teams])
        size = powers[teams]
        # A window holds at most *length* tokens, so only the states whose counts add up to
        # that or less occur: 462 of the 46,656 states of six teams (whose tables took a second
        # to build, counting them all, and a search's first move waits for them). The others
        # keep an empty count, no value and no change.
        reachable = [
            (sum(c * p for c, p in zip(counts, powers, strict=False)), counts)
            for counts in _count_vectors(teams, length)
        ]
        self.counts = [()] * size
        for code, counts in reachable:
            self.counts[code] = counts
        #: value[team][code]: :func:`window_value` of a window in state *code*.
        self.value = [[0] * size for _t in range(teams)]
        for t in range(teams):
            row = self.value[t]
            for code, counts in reachable:
                row[code] = window_value(counts, t, length)
        #: four[team]: the state of a window holding one token short of a line, all *team*'s
        #: (four in the standard game).
        self.four = tuple((length - 1) * step for step in self.step)
        #: delta[team][code]: the changes ``(t, d)`` of each team's value when *team* adds a
        #: token to a window in state *code*.
        self.delta = []
        for placer in range(teams):
            changes: list[tuple[tuple[int, int], ...]] = [()] * size
            for code, counts in reachable:
                if sum(counts) >= length:
                    continue
                after = code + self.step[placer]
                changes[code] = tuple(
                    (t, self.value[t][after] - self.value[t][code])
                    for t in range(teams)
                    if self.value[t][after] != self.value[t][code]
                )
            self.delta.append(changes)


def _count_vectors(teams: int, most: int) -> list[tuple[int, ...]]:
    """Every tuple of *teams* token counts adding up to *most* or less.

    >>> _count_vectors(2, 1)
    [(0, 0), (0, 1), (1, 0)]
    """
    if teams == 0:
        return [()]
    return [
        (first, *rest)
        for first in range(most + 1)
        for rest in _count_vectors(teams - 1, most - first)
    ]


_TABLES: dict[tuple[int, int], Tables] = {}


def tables(teams: int, length: int = 5) -> Tables:
    """The (cached) :class:`Tables` of *teams* teams and lines of *length*."""
    key = (teams, length)
    if key not in _TABLES:
        _TABLES[key] = Tables(teams, length)
    return _TABLES[key]


def shuffled(cards: Sequence[int], rng: random.Random) -> list[int]:
    """*cards* in a random order drawn from *rng*: a Fisher–Yates shuffle whose swaps take
    their random numbers from one :meth:`~random.Random.randbytes` call, four bytes each
    (a 32-bit word *w* picks ``w * (i + 1) >> 32`` of ``0..i``: uniform to within
    ``(i + 1) / 2**32``, under one part in forty million for a deck of 90).

    Every rollout and every determinisation shuffles a deck, and this was a third of a random
    rollout's time when it sorted the deck by random float keys (one ``random()`` call per
    card). Both builds draw the same bytes and make the same swaps, so they deal the same
    cards: the compiled build reads the words from the bytes as machine integers, the
    interpreter unpacks them in one :func:`struct.unpack` call.

    >>> sorted(shuffled([3, 1, 2], random.Random(7)))
    [1, 2, 3]
    >>> shuffled(range(1, 11), random.Random(7))
    [6, 8, 7, 5, 1, 10, 3, 2, 9, 4]
    """
    deck = list(cards)
    count: i64 = len(deck)
    if count < 2:
        return deck
    noise = rng.randbytes(4 * (count - 1))
    if COMPILED:
        at: i64 = 0
        i: i64 = count - 1
        while i > 0:
            b0: i64 = noise[at]
            b1: i64 = noise[at + 1]
            b2: i64 = noise[at + 2]
            b3: i64 = noise[at + 3]
            k: i64 = ((b0 | b1 << 8 | b2 << 16 | b3 << 24) * (i + 1)) >> 32
            deck[i], deck[k] = deck[k], deck[i]
            at += 4
            i -= 1
        return deck
    top = count - 1
    for m, word in enumerate(struct.unpack(f"<{top}I", noise)):
        j = top - m
        k = (word * (j + 1)) >> 32
        deck[j], deck[k] = deck[k], deck[j]
    return deck


def reference_shuffler(seed: int) -> Shuffler:
    """The reshuffles of the reference engine for a game with *seed* (A6), for replaying a
    real game exactly (:func:`cinco.core.engine.rules.reshuffle_order`)."""

    def shuffle(pile: list[int], shuffles: int) -> list[int]:
        order = list(pile)
        random.Random(f"cinco:{seed}:shuffle:{shuffles}").shuffle(order)
        return order

    return shuffle


#: The rule plugins the kernel plays exactly (see ``cinco.core.engine.rules.Rules.owners``).
KNOWN_RULES = ("cinco.core.engine.standard_rules", "cinco.plugins.joker.JokerRules")


def _owners(rules: Rules, hook: str) -> tuple[str, ...]:
    owners_of = getattr(rules, "owners_of", None)
    return tuple(owners_of(hook)) if owners_of is not None else rules.owners


def supports(rules: Rules | None) -> bool:
    """Whether the kernel plays exactly the placement and end-of-game rules of *rules*: each
    of their hooks comes from the standard rules or the Joker variant (any other plugin may
    change them). Game parameters it reads itself; draws and exchanges a variant allows or
    forbids it asks the rules about (:func:`knows_actions`)."""
    if rules is None:
        return True
    hooks = ("cinco_legal_spaces", "cinco_game_end")
    return all(owner in KNOWN_RULES for hook in hooks for owner in _owners(rules, hook))


def knows_actions(rules: Rules | None) -> bool:
    """Whether draws and exchanges are allowed by the standard rules alone in *rules*."""
    return rules is None or all(
        owner in KNOWN_RULES for owner in _owners(rules, "cinco_action_allowed")
    )


def uses_joker(rules: Rules | None, config: GameConfig) -> bool:
    """Whether the Joker placement rule is in force."""
    if rules is None:
        return config.has_variant("joker")
    return KNOWN_RULES[1] in rules.owners


def first_at_least(free: list[int], card: i64) -> i64:
    """The index in the sorted list *free* of its first space at least *card*
    (:func:`bisect.bisect_left`): the start of the spaces *card* reaches (A1).

    A compiled build runs this loop as machine code, faster than a call to ``bisect``; the
    pure-Python build calls ``bisect`` (:data:`COMPILED`).

    >>> first_at_least([3, 8, 20], 8), first_at_least([3, 8, 20], 21)
    (1, 3)
    """
    if not COMPILED:
        return bisect_left(free, card)
    lo: i64 = 0
    hi: i64 = len(free)
    while lo < hi:
        mid: i64 = (lo + hi) >> 1
        if free[mid] < card:
            lo = mid + 1
        else:
            hi = mid
    return lo


class Kernel:
    """One game's full state (a referee's, or a determinisation of a player's view), mutable.

    The draw pile is kept top *last* (``list.pop``); everything else mirrors
    :class:`~cinco.core.engine.state.GameState`.
    """

    __slots__ = (
        "action_rules",
        "board",
        "code",
        "config",
        "deal_size",
        "discard",
        "draw",
        "exchange_size",
        "free",
        "hand_limit",
        "hands",
        "joker",
        "line_cache",
        "line_space",
        "occupied",
        "open_spaces",
        "over",
        "per_draw",
        "players",
        "reason",
        "rng",
        "scores",
        "seat",
        "shuffler",
        "shuffles",
        "simple_actions",
        "tables",
        "teams",
        "threats",
        "through",
        "token_limit",
        "tokens",
        "turn",
        "turn_limit",
        "windows",
        "winner",
    )

    # The attributes, typed (a compiled build keeps them as native fields).
    config: GameConfig
    players: int
    teams: int
    joker: bool
    turn_limit: int | None
    rng: random.Random
    shuffler: Shuffler | None
    hand_limit: int
    exchange_size: int
    per_draw: int
    token_limit: int
    open_spaces: int
    action_rules: Rules | None
    simple_actions: bool
    windows: Windows
    through: Windows
    board: list[int]
    tables: Tables
    code: list[int]
    threats: list[set[int]]
    free: list[int]
    hands: list[list[int]]
    draw: list[int]
    discard: list[int]
    tokens: list[int]
    occupied: int
    seat: int
    turn: int
    shuffles: int
    over: bool
    winner: int | None
    reason: str
    line_cache: tuple[int, ...] | None
    line_space: int
    deal_size: int
    scores: list[list[int]] | None

    def __init__(
        self,
        config: GameConfig,
        *,
        joker: bool | None = None,
        rng: random.Random | None = None,
        shuffler: Shuffler | None = None,
        scores: bool = False,
        copy_of: Kernel | None = None,
    ) -> None:
        if copy_of is not None:
            self._copy_from(copy_of)
            return
        self.config = config
        self.players = config.players
        self.teams = config.teams
        self.joker = config.has_variant("joker") if joker is None else joker
        self.turn_limit = config.turn_limit
        self.rng = rng if rng is not None else random.Random(0)
        self.shuffler = shuffler
        params = config.params
        self.hand_limit = params.hand_limit
        self.exchange_size = params.exchange_size
        self.per_draw = params.cards_per_draw
        self.token_limit = params.tokens_per_team
        self.open_spaces = params.open_spaces
        self.deal_size = params.deal
        #: The rules to ask whether a draw or an exchange is allowed (``None``: the standard).
        self.action_rules = None
        #: Whether a hand below the limit may draw and a full one exchange, and nothing else
        #: (the standard game's actions): the quick path of :meth:`random_move`.
        self.simple_actions = self.hand_limit == self.exchange_size
        self.windows, self.through = geometry(params.winning_length, params.blocked)
        self.board = [FREE] * (SPACES + 1)
        for space in params.blocked:
            self.board[space] = BLOCKED
        self.tables = tables(self.teams, params.winning_length)
        #: code[w]: the state of window *w* (see :class:`Tables`).
        self.code = [0] * len(self.windows)
        self.threats = [set() for _ in range(self.teams)]
        blocked = set(params.blocked)
        self.free = (
            [n for n in range(1, SPACES + 1) if n not in blocked]
            if blocked
            else list(range(1, SPACES + 1))
        )
        self.hands = [[] for _ in range(self.players)]
        self.draw = []
        self.discard = []
        self.tokens = [0] * self.teams
        self.occupied = 0
        self.seat = 0 if config.first_seat is None else config.first_seat
        self.turn = 0
        self.shuffles = 0
        self.over = False
        self.winner = None
        self.reason = ""
        self.line_cache = None
        self.line_space = 0
        #: With ``scores``: ``scores[team][space]``, what :func:`window_value` adds up to over
        #: the windows through *space* (a greedy player's view of each space), kept up to date.
        self.scores = None
        if scores:
            self._rescore()

    def _copy_from(self, other: Kernel) -> None:
        """Become an independent copy of *other* (sharing only the immutable parts, the rng
        and the shuffler)."""
        self.config = other.config
        self.players = other.players
        self.teams = other.teams
        self.joker = other.joker
        self.turn_limit = other.turn_limit
        self.rng = other.rng
        self.shuffler = other.shuffler
        self.hand_limit = other.hand_limit
        self.exchange_size = other.exchange_size
        self.per_draw = other.per_draw
        self.token_limit = other.token_limit
        self.open_spaces = other.open_spaces
        self.deal_size = other.deal_size
        self.action_rules = other.action_rules
        self.simple_actions = other.simple_actions
        self.windows = other.windows
        self.through = other.through
        self.tables = other.tables
        self.board = other.board[:]
        self.code = other.code[:]
        self.threats = [set(t) for t in other.threats]
        self.free = other.free[:]
        self.hands = [h[:] for h in other.hands]
        self.draw = other.draw[:]
        self.discard = other.discard[:]
        self.tokens = other.tokens[:]
        self.occupied = other.occupied
        self.seat = other.seat
        self.turn = other.turn
        self.shuffles = other.shuffles
        self.over = other.over
        self.winner = other.winner
        self.reason = other.reason
        self.line_cache = other.line_cache
        self.line_space = other.line_space
        scores = other.scores
        self.scores = None if scores is None else [row[:] for row in scores]

    # -- building -----------------------------------------------------------------------------

    def deal(self, order: Sequence[int] | None = None) -> None:
        """S1: a fresh deck (*order*, top first; shuffled with the kernel's rng if not given),
        four cards (the deal) each round the table from the current seat."""
        deck = shuffled(range(1, SPACES + 1), self.rng) if order is None else list(order)
        self.draw = deck[::-1]
        self.shuffles += 1
        for _round in range(self.deal_size):
            for i in range(self.players):
                self.hands[(self.seat + i) % self.players].append(self.draw.pop())

    @classmethod
    def from_state(
        cls,
        state: GameState,
        *,
        hidden: Iterable[int] = (),
        rules: Rules | None = None,
        rng: random.Random | None = None,
        shuffler: Shuffler | None = None,
        scores: bool = False,
    ) -> Kernel:
        """A kernel holding *state*. Each unknown card (0) in it — other hands, then the draw
        pile from the top, then the discard pile — is replaced by the next of *hidden*."""
        kernel = cls(
            state.config,
            joker=uses_joker(rules, state.config),
            rng=rng,
            shuffler=shuffler,
            scores=scores,
        )
        if not knows_actions(rules):
            kernel.action_rules = rules
            kernel.simple_actions = False
        fill = iter(hidden)

        def known(cards: Iterable[int]) -> list[int]:
            return [next(fill) if c == UNKNOWN else c for c in cards]

        for seat in range(state.players):
            kernel.hands[seat] = known(state.hands[seat])
        kernel.draw = known(state.draw_pile)[::-1]
        kernel.discard = known(state.discard_pile)
        kernel.load_board(state.board)
        kernel.seat = state.current_seat
        kernel.turn = state.turn
        kernel.shuffles = state.shuffles
        if state.result is not None:
            kernel.over = True
            kernel.winner = state.result.winner
            kernel.reason = state.result.reason
            kernel.line = state.result.line
        return kernel

    def load_board(self, board: Sequence[int]) -> None:
        """Set the tokens from a board indexed by space (team, :data:`FREE` or
        :data:`BLOCKED`)."""
        cells = self.board = list(board)
        for space in self.config.params.blocked:
            cells[space] = BLOCKED
        self.free = [n for n in range(1, SPACES + 1) if cells[n] == FREE]
        self.tokens = [0] * self.teams
        for n in range(1, SPACES + 1):
            if cells[n] >= 0:
                self.tokens[cells[n]] += 1
        self.occupied = sum(self.tokens)
        self.code = [0] * len(self.windows)
        step = self.tables.step
        for index, window in enumerate(self.windows):
            for n in window:
                if cells[n] >= 0:
                    self.code[index] += step[cells[n]]
        self.threats = [set() for _ in range(self.teams)]
        for index, window in enumerate(self.windows):
            for team in range(self.teams):
                if self.code[index] == self.tables.four[team]:
                    self.threats[team].update(n for n in window if cells[n] == FREE)
        if self.scores is not None:
            self._rescore()

    def _rescore(self) -> None:
        scores: list[list[int]] = [[0] * (SPACES + 1) for _ in range(self.teams)]
        for w, window in enumerate(self.windows):
            for team, row in enumerate(scores):
                value = self.tables.value[team][self.code[w]]
                if value:
                    for n in window:
                        row[n] += value
        self.scores = scores

    def copy(self) -> Kernel:
        """An independent copy (sharing only the rng and the shuffler)."""
        return Kernel(self.config, copy_of=self)

    # -- the rules ----------------------------------------------------------------------------

    def legal_spaces(self, card: int) -> list[int]:
        """A1 (and V1 with Joker): where *card* may go; empty when it burns (A2)."""
        free = self.free
        spaces = free[first_at_least(free, card) :]
        if not spaces and self.joker:
            return free[:]
        return spaces

    def card_for(self, space: int) -> int | None:
        """The least flexible card in hand that reaches *space* (the highest one; with Joker a
        card that counts as a 1 comes last), or ``None``."""
        best = 0
        joker_card = 0
        free = self.free
        top = free[-1] if free else 0
        joker = self.joker
        for card in self.hands[self.seat]:
            if card <= space:
                if card > best:
                    best = card
            elif joker and card > top:
                joker_card = card
        if best:
            return best
        return joker_card if joker_card else None

    def play(self, card: int, space: int | None) -> None:
        """A1/A2: play *card* from the current hand; a token on *space* unless it burns."""
        self.hands[self.seat].remove(card)
        self._played(card, space)

    def _played(self, card: int, space: int | None) -> None:
        """:meth:`play`, once *card* has left the hand."""
        seat = self.seat
        self.discard.append(card)
        if space is not None:
            team = seat % self.teams
            won = space in self.threats[team]
            self._place(space, team)
            if won:
                self._finish(team, "line", space)
                return
            if self.tokens[team] >= self.token_limit:
                self._finish(None, "stalemate")
                return
            if self.occupied >= self.open_spaces:
                self._finish(None, "board_full")
                return
        # The end of the turn (E4), inline: this is the kernel's hottest path.
        limit = self.turn_limit
        if limit is not None and self.turn + 1 >= limit:
            self._finish(None, "turn_limit")
            return
        self.turn += 1
        self.seat = (seat + 1) % self.players

    def can_draw(self) -> bool:
        """A3, A5: whether the player to move may draw."""
        size = len(self.hands[self.seat])
        if size >= self.hand_limit:
            return False
        if self.action_rules is None or size == 0:
            return True
        return self._allowed(DRAW)

    def can_exchange(self) -> bool:
        """A4: whether the player to move may exchange their hand."""
        size = len(self.hands[self.seat])
        if self.action_rules is None:
            return size == self.exchange_size
        return size > 0 and self._allowed(EXCHANGE)

    def _allowed(self, action: str) -> bool:
        rules = self.action_rules
        assert rules is not None
        return rules.allowed(self.to_state(), self.seat, action) is True

    def take(self) -> None:
        """A3: draw the top card (cards per draw, as the hand has room; reshuffling the
        discard pile first if needed, A6)."""
        hand = self.hands[self.seat]
        self._draw_one(hand)
        if self.per_draw > 1:
            for _i in range(min(self.per_draw, self.hand_limit - len(hand) + 1) - 1):
                self._draw_one(hand)
        self._end_turn()

    def exchange(self) -> None:
        """A4: discard the hand face down, draw as many."""
        self._swap_hand()
        self._end_turn()

    def _swap_hand(self) -> None:
        hand = self.hands[self.seat]
        count = len(hand)
        self.discard.extend(hand)
        hand.clear()
        for _i in range(count):
            self._draw_one(hand)

    def _draw_one(self, hand: list[int]) -> None:
        if not self.draw:
            pile = self.discard
            shuffler = self.shuffler
            if shuffler is not None:
                order = shuffler(pile, self.shuffles)
            else:
                order = shuffled(pile, self.rng)
            order.reverse()
            self.draw = order
            self.discard = []
            self.shuffles += 1
        hand.append(self.draw.pop())

    def _place(self, space: int, team: int) -> None:
        """A token of *team* on the free *space*: the board, the free spaces, the token counts,
        every team's threats, and the windows through it (a free space of a window it leaves
        one short of a line becomes a threat of *team*'s); with :attr:`scores`,
        :meth:`_place_scored` does the windows."""
        board = self.board
        board[space] = team
        free = self.free
        free.pop(first_at_least(free, space))  # (``remove`` compares every space before it)
        tokens = self.tokens
        tokens[team] = tokens[team] + 1  # (not ``+=``: compiled, that is a generic add)
        self.occupied += 1
        for others in self.threats:
            others.discard(space)
        scores = self.scores
        if scores is not None:
            self._place_scored(space, team, scores)
            return
        # The windows inline: a random rollout's hottest path.
        code = self.code
        windows = self.windows
        step: i64 = self.tables.step[team]
        four: i64 = self.tables.four[team]
        threats = self.threats[team]
        for w in self.through[space]:
            after: i64 = code[w] + step
            code[w] = after
            if after == four:
                for n in windows[w]:
                    if board[n] == FREE:
                        threats.add(n)

    def _place_scored(self, space: int, team: int, scores: list[list[int]]) -> None:
        """:meth:`_place`'s windows, and every team's score of the free spaces in them moves
        by what the token changed their value (:attr:`Tables.delta`)."""
        board = self.board
        code = self.code
        windows = self.windows
        tables = self.tables
        step: i64 = tables.step[team]
        four: i64 = tables.four[team]
        threats = self.threats[team]
        delta = tables.delta[team]
        for w in self.through[space]:
            before: i64 = code[w]
            after: i64 = before + step
            code[w] = after
            window = windows[w]
            if after == four:
                for n in window:
                    if board[n] == FREE:
                        threats.add(n)
            changes = delta[before]
            if len(changes) == 0:
                continue
            # Each cell read once, then every team's change (in the compiled build a list
            # read is a call, and most windows change two teams' values).
            for n in window:
                if board[n] == FREE:  # (a taken space's score is never read again)
                    for t, d in changes:
                        row = scores[t]
                        row[n] = row[n] + d

    def _finish(self, winner: int | None, reason: str, space: int | None = None) -> None:
        self.over = True
        self.winner = winner
        self.reason = reason
        if space is not None and winner is not None:
            self.line_space = space  # the line itself: :attr:`line`, when asked
        self.turn += 1

    def _end_turn(self) -> None:
        limit = self.turn_limit
        if limit is not None and self.turn + 1 >= limit:
            self._finish(None, "turn_limit")
            return
        self.turn += 1
        self.seat = (self.seat + 1) % self.players

    def random_move(self, rng: random.Random) -> None:
        """Carry out one of the legal actions, each with the same chance (what the ``random``
        bot does), without listing them: each card's spaces are a slice of the free list."""
        self._random_move(rng.random)

    def random_playout(self, rng: random.Random) -> None:
        """:meth:`random_move` until the game ends (a random rollout)."""
        draw = rng.random  # (looked up once: compiled, a method call looks it up every time)
        while not self.over:
            self._random_move(draw)

    def _random_move(self, draw: Callable[[], float]) -> None:
        hand = self.hands[self.seat]
        free = self.free
        size: i64 = len(free)
        joker = self.joker
        if self.simple_actions:
            count: i64 = 1  # the last action: draw, or exchange a full hand
            can_draw = len(hand) < self.hand_limit
        else:
            can_draw = self.can_draw()
            count = int(can_draw) + int(self.can_exchange())  # the last actions, in legal order
        # Two passes over the hand (the second finds each card's spaces again) rather than a
        # list of them: cheaper in both builds.
        start: i64
        for card in hand:  # the cards of a hand are all different
            start = first_at_least(free, card)
            if start == size and joker:
                start = 0
            count += size - start or 1
        index: i64 = int(draw() * float(count))
        for i, card in enumerate(hand):
            start = first_at_least(free, card)
            if start == size and joker:
                start = 0
            width: i64 = size - start
            if index < (width or 1):
                hand.pop(i)
                self._played(card, free[start + index] if width else None)
                return
            index -= width or 1
        if can_draw and index == 0:
            self.take()
        else:
            self.exchange()

    # -- questions ----------------------------------------------------------------------------

    @property
    def line(self) -> tuple[int, ...] | None:
        """E1: the winning line, or ``None``. Traced when first asked for (a rollout only
        needs the winner)."""
        cached = self.line_cache
        if cached is None and self.line_space and self.winner is not None:
            cached = self.line_cache = line_through(self.board, self.line_space, self.winner)
        return cached

    @line.setter
    def line(self, value: tuple[int, ...] | None) -> None:
        self.line_cache = value
        self.line_space = 0

    def to_state(self) -> GameState:
        """The kernel's state as a reference :class:`GameState` (result left out): what a rule
        hook is asked about."""
        return GameState(
            config=self.config,
            first_seat=self.config.first_seat or 0,
            board=tuple(self.board),
            hands=tuple(tuple(h) for h in self.hands),
            draw_pile=tuple(reversed(self.draw)),
            discard_pile=tuple(self.discard),
            tokens=tuple(self.tokens),
            current_seat=self.seat,
            turn=self.turn,
            shuffles=self.shuffles,
        )

    @property
    def team(self) -> int:
        """The team to move."""
        return self.seat % self.teams

    def can_reach(self, space: int) -> bool:
        """Whether a card in the current hand reaches *space*."""
        return self.card_for(space) is not None


class RuleSetKernel(Kernel):
    """A kernel for games whose rules it does not know: placement and the end of the game are
    asked of the game's :class:`~cinco.core.engine.rules.Rules` (its hooks) on every move, through
    a :class:`~cinco.core.engine.state.GameState` built for the question. Slow, but exact."""

    __slots__ = ("rules",)

    rules: Rules

    @classmethod
    def with_rules(cls, state: GameState, rules: Rules, **kwargs: object) -> RuleSetKernel:
        kernel = cls.from_state(state, rules=rules, **kwargs)  # type: ignore[arg-type]
        assert isinstance(kernel, RuleSetKernel)
        kernel.rules = rules
        return kernel

    def copy(self) -> RuleSetKernel:
        new = RuleSetKernel(self.config, copy_of=self)
        new.rules = self.rules
        return new

    def legal_spaces(self, card: int) -> list[int]:
        return list(self.rules.legal_spaces(self.to_state(), self.seat, card))

    def card_for(self, space: int) -> int | None:
        best: tuple[int, int] | None = None
        for card in self.hands[self.seat]:
            spaces = self.legal_spaces(card)
            if space in spaces and (best is None or (len(spaces), -card) < best):
                best = (len(spaces), -card)
        return None if best is None else -best[1]

    def _check_end(self, command: object) -> bool:
        outcome = self.rules.outcome(self.to_state(), command)  # type: ignore[arg-type]
        if outcome is None:
            return False
        self.over = True
        self.winner = outcome.winner
        self.reason = outcome.reason
        self.line = outcome.line
        self.turn += 1
        return True

    def _played(self, card: int, space: int | None) -> None:
        seat = self.seat
        self.discard.append(card)
        if space is not None:
            self._place(space, seat % self.teams)
        if not self._check_end(PlayCard(seat, card, space)):
            self._advance()

    def take(self) -> None:
        self._draw_one(self.hands[self.seat])
        if not self._check_end(Draw(self.seat)):
            self._advance()

    def exchange(self) -> None:
        self._swap_hand()
        if not self._check_end(Exchange(self.seat)):
            self._advance()

    def _advance(self) -> None:
        self.turn += 1
        self.seat = (self.seat + 1) % self.players


def make_kernel(
    state: GameState,
    rules: Rules | None,
    *,
    hidden: Iterable[int] = (),
    rng: random.Random | None = None,
    shuffler: Shuffler | None = None,
) -> Kernel:
    """The fastest kernel that plays *rules* exactly, holding *state*."""
    if rules is None or supports(rules):
        return Kernel.from_state(state, hidden=hidden, rules=rules, rng=rng, shuffler=shuffler)
    return RuleSetKernel.with_rules(state, rules, hidden=hidden, rng=rng, shuffler=shuffler)


__all__ = [
    "BASE",
    "BLOCK",
    "COMPILED",
    "OWN",
    "THROUGH",
    "WINDOWS",
    "Kernel",
    "RuleSetKernel",
    "Shuffler",
    "make_kernel",
    "reference_shuffler",
    "supports",
    "tables",
    "uses_joker",
    "window_value",
]
