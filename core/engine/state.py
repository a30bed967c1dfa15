"""Game state: a pure fold of events.

The same fold serves every viewer. Cards a viewer cannot see are :data:`UNKNOWN` (0) in their
state: another player's hand, the draw pile's order, cards discarded face down by an exchange.

>>> from cinco.core.engine.config import GameConfig
>>> from cinco.core.engine.events import GameStarted, DeckShuffled, CardDrawn
>>> state = fold([
...     GameStarted(config=GameConfig.for_players(2), first_seat=1),
...     DeckShuffled(size=90, order=tuple(range(90, 0, -1)), reshuffle=False),
...     CardDrawn(seat=1, card=90),
... ])
>>> state.hands, len(state.draw_pile), state.current_seat
(((), (90,)), 89, 1)
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cinco.core.engine.board import SPACES
from cinco.core.engine.config import GameConfig
from cinco.core.engine.errors import EventError
from cinco.core.engine.events import (
    ActionTaken,
    CardDrawn,
    CardPlayed,
    DeckShuffled,
    Event,
    GameEnded,
    GameStarted,
    HandDiscarded,
    Notice,
    TokenRemoved,
    TurnEnded,
    Undone,
)
from cinco.core.engine.params import STANDARD_PARAMS, GameParams
from cinco.core.words.i18n import _

#: A card the viewer cannot see.
UNKNOWN = 0
#: A free space on :attr:`GameState.board`.
FREE = -1
#: A space no token may take (a variant's ``blocked`` game parameter) on :attr:`GameState.board`.
BLOCKED = -2
#: In :attr:`GameState.discard_from`: a card everyone saw.
PUBLIC = -1
#: C1: tokens per team colour in the standard game (a game's own: ``state.params``).
TOKENS_PER_TEAM = STANDARD_PARAMS.tokens_per_team
#: A5: the hand limit of the standard game (a game's own: ``state.params.hand_limit``).
HAND_LIMIT = STANDARD_PARAMS.hand_limit


@dataclass(frozen=True)
class GameState:
    """Everything known about a game at one moment, from one viewer's seat."""

    config: GameConfig
    first_seat: int
    #: ``board[n]`` is the team whose token is on space *n*, :data:`FREE`, or :data:`BLOCKED`
    #: (a space the game's parameters block; index 0 unused).
    board: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    #: Top card first.
    draw_pile: tuple[int, ...]
    #: Newest card last; face down (A7), but a viewer remembers the cards it saw played.
    discard_pile: tuple[int, ...]
    tokens: tuple[int, ...]
    current_seat: int
    #: Turns completed.
    turn: int = 0
    #: Reshuffles so far (the next one's randomness is derived from it).
    shuffles: int = 0
    result: GameEnded | None = None
    last_play: CardPlayed | None = None
    events: int = 0
    #: Who put each card of the discard pile there unseen by others: :data:`PUBLIC` for a
    #: played card, else the seat whose exchange discarded it face down (A7).
    discard_from: tuple[int, ...] = ()
    #: A cache of :meth:`free_spaces` (derived from ``board``; not part of the state's value).
    _free: tuple[int, ...] | None = field(default=None, init=False, repr=False, compare=False)

    # -- questions ---------------------------------------------------------------------------

    @property
    def params(self) -> GameParams:
        """The numbers of this game's rules (hand limit, winning length, ...)."""
        return self.config.params

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def teams(self) -> int:
        return self.config.teams

    def team_of(self, seat: int) -> int:
        return seat % self.config.teams

    @property
    def current_team(self) -> int:
        return self.current_seat % self.config.teams

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def hand(self, seat: int) -> tuple[int, ...]:
        """The cards in *seat*'s hand, lowest first (:data:`UNKNOWN` for cards not seen)."""
        return tuple(sorted(self.hands[seat]))

    def hand_size(self, seat: int) -> int:
        return len(self.hands[seat])

    def owner(self, space: int) -> int | None:
        """The team on *space*, or ``None`` when it is free (or blocked)."""
        team = self.board[space]
        return None if team < 0 else team

    def is_blocked(self, space: int) -> bool:
        """Whether the game's parameters block *space* (no token may ever take it)."""
        return self.board[space] == BLOCKED

    def is_free(self, space: int) -> bool:
        return self.board[space] == FREE

    def free_spaces(self, at_least: int = 1) -> tuple[int, ...]:
        """Free spaces numbered *at_least* or more, in order."""
        free = self._free
        if free is None:
            board = self.board
            free = tuple([n for n in range(1, SPACES + 1) if board[n] == FREE])
            _set(self, "_free", free)  # a cache: the value of the state does not change
        return free[bisect_left(free, at_least) :] if at_least > 1 else free

    def spaces_of(self, team: int) -> frozenset[int]:
        board = self.board
        return frozenset(n for n in range(1, SPACES + 1) if board[n] == team)

    @property
    def occupied(self) -> int:
        return sum(self.tokens)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (what ``cinco replay --json`` prints)."""
        result = self.result
        return {
            "occupied": {str(n): self.board[n] for n in range(1, SPACES + 1) if self.board[n] >= 0},
            "hands": [sorted(h) for h in self.hands],
            "draw_pile": len(self.draw_pile),
            "discard_pile": len(self.discard_pile),
            "tokens": list(self.tokens),
            "current_seat": self.current_seat,
            "turns": self.turn,
            "result": None if result is None else ("win" if result.winner is not None else "draw"),
            "winner": None if result is None else result.winner,
            "reason": None if result is None else result.reason,
            "line": None if result is None or result.line is None else list(result.line),
        } | ({} if result is None or result.scores is None else {"scores": list(result.scores)})


_new = object.__new__
_set = object.__setattr__
#: Unknown cards, by number: a projected draw pile is one of these.
_UNKNOWN_CARDS = tuple((UNKNOWN,) * n for n in range(SPACES + 1))


def _derive(state: GameState, **changes: Any) -> GameState:
    """*state* with some fields changed: what :func:`dataclasses.replace` does, without its
    checks and its ``__init__`` call, which cost more than the rest of :func:`evolve` together
    (the fold is the engine's hot path). Copying the instance dictionary is one C call; this is
    also why :class:`GameState` has no ``__slots__``."""
    new = _new(GameState)
    values = state.__dict__.copy()
    values.update(changes)
    _set(new, "__dict__", values)
    return new


def _remove_one(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """*cards* less one copy of *card*, or less one :data:`UNKNOWN` when the viewer did not
    know the card was there."""
    held = list(cards)
    try:
        held.remove(card)
    except ValueError:
        if UNKNOWN not in held:
            raise EventError(_("card {card} is not in that hand").format(card=card)) from None
        held.remove(UNKNOWN)
    return tuple(held)


def _set_hand(state: GameState, seat: int, hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    hands = list(state.hands)
    hands[seat] = hand
    return tuple(hands)


def _check_seat(state: GameState, seat: int) -> None:
    """A record or a peer may name any seat; a bad one must be refused, not crash the fold."""
    if not 0 <= seat < state.config.players:
        raise EventError(
            _("there is no seat {seat} in a {n}-player game").format(
                seat=seat, n=state.config.players
            )
        )


def _check_turn(state: GameState, seat: int) -> None:
    _check_seat(state, seat)
    if seat != state.current_seat:
        raise EventError(
            _("seat {seat} acted out of turn (seat {current} was to move)").format(
                seat=seat, current=state.current_seat
            )
        )


def start(event: GameStarted) -> GameState:
    """The state right after :class:`GameStarted`: empty board, no cards dealt yet."""
    config = event.config
    if not 0 <= event.first_seat < config.players:
        raise EventError(_("there is no seat {seat} to begin").format(seat=event.first_seat))
    board = [FREE] * (SPACES + 1)
    for space in config.params.blocked:
        board[space] = BLOCKED
    return GameState(
        config=config,
        first_seat=event.first_seat,
        board=tuple(board),
        hands=((),) * config.players,
        draw_pile=(),
        discard_pile=(),
        tokens=(0,) * config.teams,
        current_seat=event.first_seat,
        events=1,
    )


def evolve(state: GameState, event: Event) -> GameState:
    """The state after *event*. Pure: *state* is not changed."""
    kind = type(event)
    if state.result is not None and kind is not Notice:
        raise EventError(_("the game is already over"))
    # One dictionary look-up by the event's exact type: as quick as the first test of a chain
    # of ``if kind is ...``, and quicker than the later ones (this runs for every event).
    step = _STEPS.get(kind)
    if step is None:
        raise EventError(_("unknown event {event!r}").format(event=event))
    return step(state, event)


def _card_played(state: GameState, event: CardPlayed) -> GameState:
    seat, card, space = event.seat, event.card, event.space
    if seat != state.current_seat:
        _check_turn(state, seat)
    hands = _set_hand(state, seat, _remove_one(state.hands[seat], card))
    board, tokens, free = state.board, state.tokens, state._free
    if space is not None:
        if not 1 <= space <= SPACES:
            raise EventError(_("there is no space {n}").format(n=space))
        if board[space] != FREE:
            raise EventError(_("space {n} is already taken").format(n=space))
        team = seat % state.config.teams
        # Through a list: the quickest way to copy a tuple with one item changed.
        cells = list(board)
        cells[space] = team
        board = tuple(cells)
        counts = list(tokens)
        counts[team] += 1
        tokens = tuple(counts)
        if free is not None:
            i = bisect_left(free, space)
            free = free[:i] + free[i + 1 :]
    return _derive(
        state,
        hands=hands,
        board=board,
        tokens=tokens,
        discard_pile=state.discard_pile + (card,),
        discard_from=state.discard_from + (PUBLIC,),
        last_play=event,
        events=state.events + 1,
        _free=free,
    )


def _card_drawn(state: GameState, event: CardDrawn) -> GameState:
    if not state.draw_pile:
        raise EventError(_("a card was drawn from an empty draw pile"))
    _check_seat(state, event.seat)
    if len(state.hands[event.seat]) >= state.config.params.hand_limit:
        raise EventError(_("a card was drawn into a full hand"))
    top = state.draw_pile[0]
    card = event.card if event.card is not None else top
    if card != top and top != UNKNOWN:
        # Tampering: a known draw pile says which card comes next.
        raise EventError(
            _("card {card} was drawn, but the top card is {top}").format(card=card, top=top)
        )
    hand = state.hands[event.seat] + (card,)
    return _derive(
        state,
        hands=_set_hand(state, event.seat, hand),
        draw_pile=state.draw_pile[1:],
        events=state.events + 1,
    )


def _turn_ended(state: GameState, event: TurnEnded) -> GameState:
    if event.seat != state.current_seat:
        _check_turn(state, event.seat)
    if not 0 <= event.next_seat < state.config.players:
        _check_seat(state, event.next_seat)
    return _derive(
        state, current_seat=event.next_seat, turn=state.turn + 1, events=state.events + 1
    )


def _hand_discarded(state: GameState, event: HandDiscarded) -> GameState:
    _check_turn(state, event.seat)
    cards = event.cards if event.cards is not None else (UNKNOWN,) * event.count
    hand = state.hands[event.seat]
    if len(cards) != len(hand) or (
        UNKNOWN not in hand and UNKNOWN not in cards and sorted(cards) != sorted(hand)
    ):
        raise EventError(
            _("the discarded cards are not the hand of seat {seat}").format(seat=event.seat)
        )
    return _derive(
        state,
        hands=_set_hand(state, event.seat, ()),
        discard_pile=(*state.discard_pile, *cards),
        discard_from=(*state.discard_from, *(event.seat,) * len(cards)),
        events=state.events + 1,
    )


def _deck_shuffled(state: GameState, event: DeckShuffled) -> GameState:
    order = event.order if event.order is not None else (UNKNOWN,) * event.size
    if len(order) != event.size or (
        event.reshuffle
        and UNKNOWN not in order
        and UNKNOWN not in state.discard_pile
        and sorted(order) != sorted(state.discard_pile)
    ):
        raise EventError(_("the shuffled cards are not the cards of the pile"))
    # A6: a reshuffle takes the whole discard pile; set-up takes all 90 cards.
    discard = () if event.reshuffle else state.discard_pile
    return _derive(
        state,
        draw_pile=(*state.draw_pile, *order),
        discard_pile=discard,
        discard_from=() if event.reshuffle else state.discard_from,
        shuffles=state.shuffles + 1,
        events=state.events + 1,
    )


def _game_ended(state: GameState, event: GameEnded) -> GameState:
    return _derive(state, result=event, turn=state.turn + 1, events=state.events + 1)


def _notice(state: GameState, event: Notice) -> GameState:
    return _derive(state, events=state.events + 1)


def _action_taken(state: GameState, event: ActionTaken) -> GameState:
    """A declared action begins the turn: its effects are the events that follow."""
    _check_turn(state, event.seat)
    return _derive(state, events=state.events + 1)


def _token_removed(state: GameState, event: TokenRemoved) -> GameState:
    """A declared action took the token off a space: free again, one token fewer placed."""
    _check_turn(state, event.seat)
    space = event.space
    if not 1 <= space <= SPACES:
        raise EventError(_("there is no space {n}").format(n=space))
    team = state.board[space]
    if team < 0:
        raise EventError(_("there is no token on space {n} to remove").format(n=space))
    cells = list(state.board)
    cells[space] = FREE
    counts = list(state.tokens)
    counts[team] -= 1
    free = state._free
    if free is not None:
        i = bisect_left(free, space)
        free = free[:i] + (space,) + free[i:]
    return _derive(
        state, board=tuple(cells), tokens=tuple(counts), events=state.events + 1, _free=free
    )


def _started_again(state: GameState, event: GameStarted) -> GameState:
    raise EventError(_("a game can start only once"))


def _undone(state: GameState, event: Undone) -> GameState:
    raise EventError(_("an undo needs the log before it: fold the whole log"))


#: What each kind of event does to the state (:func:`evolve`), by its exact type.
_STEPS: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    CardPlayed: _card_played,
    CardDrawn: _card_drawn,
    TurnEnded: _turn_ended,
    HandDiscarded: _hand_discarded,
    DeckShuffled: _deck_shuffled,
    GameEnded: _game_ended,
    Notice: _notice,
    GameStarted: _started_again,
    Undone: _undone,
    ActionTaken: _action_taken,
    TokenRemoved: _token_removed,
}


def project(state: GameState, viewer: int | None, config: GameConfig) -> GameState:
    """The referee's *state* as *viewer* (a seat, or ``None`` for a spectator) sees it: the
    same as folding the events *viewer* was shown (:meth:`Event.seen_by`), computed in one
    step. *config* is the configuration as the viewer sees it (no seed)."""
    hands = list(state.hands)
    for seat, hand in enumerate(hands):  # a loop: quicker than a comprehension on a few hands
        if seat != viewer:
            hands[seat] = _UNKNOWN_CARDS[len(hand)]
    discard, sources = state.discard_pile, state.discard_from
    if sources.count(PUBLIC) != len(sources):  # some cards were discarded face down
        discard = tuple(
            [
                card if source in (PUBLIC, viewer) else UNKNOWN
                for card, source in zip(discard, sources, strict=True)
            ]
        )
    return _derive(
        state,
        config=config,
        hands=tuple(hands),
        draw_pile=_UNKNOWN_CARDS[len(state.draw_pile)],
        discard_pile=discard,
    )


def fold(events: Iterable[Event]) -> GameState:
    """The state after all *events* (the first must be :class:`GameStarted`).

    An :class:`~cinco.core.engine.events.Undone` event takes the state back to what it was after the
    first ``back_to`` events: the moves it takes back stay in the log, and the fold skips them.
    A log with undos is folded through a :class:`Timeline`, so that it costs what its length
    does however many undos it holds.
    """
    log = events if isinstance(events, list | tuple) else list(events)
    first = log[0] if log else None
    if not isinstance(first, GameStarted):
        raise EventError(_("a game must begin with a game_started event"))
    if any(type(event) is Undone for event in log):
        return Timeline.of(log).state
    state = start(first)
    for index in range(1, len(log)):  # the hot path: no timeline to keep without undos
        state = evolve(state, log[index])
    return state


def undo(log: Sequence[Event], event: Undone) -> GameState:
    """The state after *event* (an undo) at the end of *log*: the state after ``back_to``
    events, counting the undo itself as one more event. This folds *log* once; whoever takes
    a log's events one by one keeps a :class:`Timeline` instead, which answers an undo from
    the states it kept."""
    return Timeline.of(log).undo(event)


#: A :class:`Timeline` keeps the state after at least every this many events (and after every
#: undo), so that any earlier state is at most this many evolutions away.
KEEP_EVERY = 32


class Timeline:
    """A log being folded, one event at a time, with some of the states it went through, so
    that an :class:`~cinco.core.engine.events.Undone` event, which takes the game back to the state
    after the log's first ``back_to`` events, costs at most :data:`KEEP_EVERY` evolutions
    instead of a fold of the whole log before it (which, done for every undo, re-folds each
    earlier undo: the cost of a log doubled with each undo it held). A log's states never
    change, since the log only grows: a kept one stays right whatever follows.

    >>> from cinco.core.engine.config import GameConfig
    >>> from cinco.core.engine.events import GameStarted, DeckShuffled, CardDrawn, Undone
    >>> timeline = Timeline(GameStarted(config=GameConfig.for_players(2), first_seat=1))
    >>> for event in (
    ...     DeckShuffled(size=90, order=tuple(range(90, 0, -1)), reshuffle=False),
    ...     CardDrawn(seat=1, card=90),
    ...     Undone(seat=1, back_to=2),
    ... ):
    ...     state = timeline.append(event)
    >>> state.hands, len(state.draw_pile), state.events, len(timeline)
    (((), ()), 90, 4, 4)
    """

    __slots__ = ("_events", "_kept", "_marks", "state")

    def __init__(self, first: GameStarted) -> None:
        #: The state after every event taken so far.
        self.state = start(first)
        self._events: list[Event] = [first]
        #: Event counts whose states are kept (ascending), and those states.
        self._marks: list[int] = [1]
        self._kept: list[GameState] = [self.state]

    @classmethod
    def of(cls, events: Iterable[Event]) -> Timeline:
        """The timeline of all *events* (the first must be :class:`GameStarted`)."""
        log = iter(events)
        first = next(log, None)
        if not isinstance(first, GameStarted):
            raise EventError(_("a game must begin with a game_started event"))
        timeline = cls(first)
        for event in log:
            timeline.append(event)
        return timeline

    def __len__(self) -> int:
        return len(self._events)

    def append(self, event: Event, after: GameState | None = None) -> GameState:
        """Take *event*, the log's next, and return the state after it. *after* is that
        state, when the caller has worked it out already (it is trusted)."""
        if after is None:
            after = self.undo(event) if type(event) is Undone else evolve(self.state, event)
        events = self._events
        events.append(event)
        self.state = after
        count = len(events)
        # An undo's state is kept: the events before it cannot be evolved past it.
        if type(event) is Undone or count - self._marks[-1] >= KEEP_EVERY:
            self._marks.append(count)
            self._kept.append(after)
        return after

    def undo(self, event: Event) -> GameState:
        """The state *event* (an undo) leads to if it is the log's next; nothing is taken."""
        assert isinstance(event, Undone)
        count = len(self._events)
        if not 1 <= event.back_to < count:
            raise EventError(
                _("an undo can go back to event 1 to {n}, not {back}").format(
                    n=count - 1, back=event.back_to
                )
            )
        return _derive(self.state_at(event.back_to), events=count + 1)

    def state_at(self, count: int) -> GameState:
        """The state after the log's first *count* events."""
        events = self._events
        if count == len(events):
            return self.state
        if not 1 <= count <= len(events):
            raise IndexError(f"a state exists after 1 to {len(events)} events, not {count}")
        mark = bisect_right(self._marks, count) - 1
        state = self._kept[mark]
        # No undo lies between a kept state and *count*: each undo's state is kept.
        for index in range(self._marks[mark], count):
            state = evolve(state, events[index])
        return state
