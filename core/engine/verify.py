"""Checking that a log follows the rules, event by event (records, resumed games, network peers).

:class:`LogChecker` takes a log one event at a time, from its first, and refuses the first event
that does not fit: the set-up (P5: the first seat; S1: a shuffle of the 90 cards, dealt one at a
time round the table from the first player), then every turn. The fold
(:func:`cinco.core.engine.state.evolve`) refuses events that cannot happen to the cards and the
board;
the checker also refuses turns the rules forbid: a card placed below its number, a draw into a
full hand, a turn passed to the wrong seat, a game that should have ended (or should not have).
It rebuilds each turn's command from the turn's first event and asks
:func:`cinco.core.engine.rules.decide_steps` what that command produces.

Because each event is checked against a state every earlier event was checked to reach, the
error names the first event at fault and the rule it breaks, never a later symptom.

Shuffle orders are not compared: the log's own shuffles are the truth (replaying needs no random
generator), and the fold checks that a reshuffle holds exactly the discard pile.
"""

from __future__ import annotations

from collections.abc import Sequence

from cinco.core.engine.board import SPACES
from cinco.core.engine.commands import (
    DRAW,
    EXCHANGE,
    PLAY,
    Act,
    Command,
    Draw,
    Exchange,
    PlayCard,
)
from cinco.core.engine.errors import EventError, IllegalCommand
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
    TurnEnded,
    Undone,
)
from cinco.core.engine.rules import RuleSet, Step, decide_steps
from cinco.core.engine.state import GameState, Timeline, evolve, start
from cinco.core.words.i18n import _

#: Events that end a turn.
TURN_ENDS = (TurnEnded, GameEnded)

#: The rule clause (``/work/shared/RULES.md``, ``docs/rules.md``) behind each refusal code.
CLAUSES: dict[str, str] = {
    "not_your_turn": "P4",
    "card_not_in_hand": "A1",
    "space_taken": "A1",
    "space_below_card": "A1",
    "no_such_space": "A1",
    "space_required": "A1",
    "cannot_place": "A2",
    "burns_without_space": "A2",
    "hand_full": "A3",
    "hand_not_full": "A4",
    "empty_hand": "A5",
    "game_over": "E1",
}

#: The clause of each way a game ends.
END_CLAUSES: dict[str, str] = {
    "line": "E1",
    "stalemate": "E2",
    "board_full": "E3",
    "turn_limit": "E4",
}

#: The clause of each action, for a turn whose events are not the ones it should have.
ACTION_CLAUSES: dict[str, str] = {PLAY: "A1", DRAW: "A3", EXCHANGE: "A4"}


class TurnError(EventError):
    """An event of a log breaks the rules. ``index`` is the 0-based index of the event at
    fault; ``reason`` says what is wrong and names the rule."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(_("event {n}: {reason}").format(n=index + 1, reason=reason))
        self.index = index
        self.reason = reason


def _rule(text: str, clause: str | None) -> str:
    """*text*, naming the rule clause it is about."""
    if clause is None:
        return text
    return _("{text} (rule {clause})").format(text=text, clause=clause)


def _command(event: Event, seat: int, rules: RuleSet) -> Command | None:
    """The command whose turn begins with *event*."""
    if isinstance(event, ActionTaken):
        # A declared action (hook API 3): its fields by the names its variant declares (an
        # action the game does not declare keeps none, and deciding refuses it).
        spec = rules.declared_action(event.action)
        names = spec.fields if spec is not None else ()
        return Act(event.seat, event.action, tuple(zip(names, event.values, strict=False)))
    if isinstance(event, CardPlayed):
        return PlayCard(event.seat, event.card, event.space)
    if isinstance(event, HandDiscarded):
        return Exchange(event.seat)
    if isinstance(event, CardDrawn | DeckShuffled):
        return Draw(seat)
    return None


def _describe(event: Event) -> str:
    """An event in a few words, its fields included (what an error shows of it)."""
    if isinstance(event, DeckShuffled):
        kind = _("a reshuffle") if event.reshuffle else _("a shuffle")
        return _("{event} ({kind} of {n} cards)").format(event=event.type, kind=kind, n=event.size)
    if isinstance(event, CardDrawn):
        return _("{event} (seat {seat} takes a card)").format(event=event.type, seat=event.seat)
    if isinstance(event, Notice):
        return event.type
    if isinstance(event, GameStarted):
        return event.type
    fields = ", ".join(
        f"{name}={value!r}" for name, value in event.to_dict().items() if name not in ("type", "v")
    )
    return f"{event.type}({fields})"


def _same_step(recorded: Event, wanted: Event) -> bool:
    """Whether *recorded* is the step the rules give (*wanted*). A shuffle's order and a drawn
    card are the log's own (the fold checks them against the piles); all else must match."""
    if type(recorded) is not type(wanted):
        return False
    if isinstance(recorded, DeckShuffled) and isinstance(wanted, DeckShuffled):
        return recorded.reshuffle == wanted.reshuffle and recorded.size == wanted.size
    if isinstance(recorded, CardDrawn) and isinstance(wanted, CardDrawn):
        return recorded.seat == wanted.seat
    return recorded == wanted


def _mismatch_clause(recorded: Event, wanted: Event, action: str) -> str | None:
    """The rule a turn breaks when the log has *recorded* where the rules give *wanted*."""
    if isinstance(wanted, GameEnded):
        return END_CLAUSES.get(wanted.reason)
    if isinstance(recorded, GameEnded):
        return END_CLAUSES.get(recorded.reason)
    if isinstance(wanted, TurnEnded) and isinstance(recorded, TurnEnded):
        return "P4"
    if isinstance(wanted, DeckShuffled) or isinstance(recorded, DeckShuffled):
        return "A6"
    return ACTION_CLAUSES.get(action)


class LogChecker:
    """Checks a log one event at a time, from its first (:class:`GameStarted`).

    :meth:`feed` each event in order; it raises :class:`TurnError` at the first one that does
    not fit the rules, naming the rule. :attr:`state` is the referee's state so far and
    :attr:`complete` how many events form a whole set-up and whole turns (the events after it
    are a turn cut short, as a killed process leaves it).

    With *strict_end*, nothing may follow ``game_ended`` (a record); without it, notices may
    (a game in memory can tell its players something after the end).
    """

    def __init__(self, started: Event, rules: RuleSet, *, strict_end: bool = True) -> None:
        if not isinstance(started, GameStarted):
            raise TurnError(
                0, _("the first event must be game_started, not {kind}").format(kind=started.type)
            )
        config = started.config
        try:
            self.state: GameState = start(started)
        except EventError as exc:
            raise TurnError(0, _rule(str(exc), "P5")) from None
        if config.first_seat is not None and config.first_seat != started.first_seat:
            raise TurnError(
                0,
                _rule(
                    _(
                        "the game is configured to begin with seat {configured}, but seat "
                        "{first} begins"
                    ).format(configured=config.first_seat, first=started.first_seat),
                    "P5",
                ),
            )
        self.rules = rules
        self.strict_end = strict_end
        #: Events fed so far (the next one's 0-based index).
        self.count = 1
        #: Events that form the whole set-up and whole turns.
        self.complete = 1
        #: How many events the set-up has: game_started, the shuffle, the deal's cards (S1).
        self.setup = 2 + config.params.deal * config.players
        #: The log's states so far, kept so that an undo costs no re-fold of the log.
        self._log = Timeline(started)
        #: The event counts after which a turn may begin: where an undo may go back to.
        self._starts: set[int] = set()
        self._ended_at: int | None = None
        self._turn: list[Step] = []
        self._position = 0
        self._action = ""

    def feed(self, event: Event) -> None:
        """Check *event*, the next of the log, and take it into :attr:`state`."""
        index = self.count
        if type(event) is Undone:
            self._undo(index, event)
        elif self._ended_at is not None:
            if self.strict_end or not isinstance(event, Notice):
                raise TurnError(
                    index,
                    _rule(
                        _(
                            "the game ended at event {n} (game_ended): nothing may follow it, "
                            "not {event}"
                        ).format(n=self._ended_at + 1, event=_describe(event)),
                        "E1",
                    ),
                )
            self.state = self._fold(index, event, None)
        elif (
            (isinstance(event, CardDrawn) and event.card is None)
            or (isinstance(event, DeckShuffled) and event.order is None)
            or (isinstance(event, HandDiscarded) and event.cards is None)
        ):
            raise TurnError(index, _hidden())
        elif isinstance(event, Notice):
            # Notices change nothing: they may come between any two events after the deal
            # (which a game never interrupts, so that a turn begins after 2 + 4 x players).
            if index < self.setup:
                raise TurnError(
                    index,
                    _rule(_("a notice cannot interrupt the deal; it comes after it"), "S1"),
                )
            self.state = self._fold(index, event, None)
        elif index < self.setup:
            self._setup(index, event)
        else:
            self._step(index, event)
        self.count += 1
        self._log.append(event, self.state)
        if not self._turn and self.count >= self.setup:
            self.complete = self.count
            if self.state.result is None:
                self._starts.add(self.count)

    def _undo(self, index: int, event: Undone) -> None:
        """An undo: back to the state after the first ``back_to`` events, which must be the
        start of a turn, between two turns."""
        if self._turn or index < self.setup:
            raise TurnError(
                index,
                _("an undo comes between two turns, not in the middle of {what}").format(
                    what=_("the deal") if index < self.setup else _("a turn")
                ),
            )
        if not 0 <= event.seat < self.state.config.players:
            raise TurnError(
                index,
                _("there is no seat {seat} in a {n}-player game").format(
                    seat=event.seat, n=self.state.config.players
                ),
            )
        if event.back_to not in self._starts:
            raise TurnError(
                index,
                _(
                    "an undo goes back to the start of a turn of the game so far; after event "
                    "{back} no turn begins"
                ).format(back=event.back_to),
            )
        try:
            self.state = self._log.undo(event)
        except EventError as exc:
            raise TurnError(index, str(exc)) from None
        self._ended_at = None

    # -- the set-up ---------------------------------------------------------------------------

    def _setup(self, index: int, event: Event) -> None:
        if index == 1:
            if not isinstance(event, DeckShuffled) or event.reshuffle:
                raise TurnError(
                    index,
                    _rule(
                        _(
                            "the game must begin with a shuffle of the {n} cards, not {event}"
                        ).format(n=SPACES, event=_describe(event)),
                        "S1",
                    ),
                )
            order = event.order or ()  # not None: hidden fields are refused above
            if event.size != SPACES or sorted(order) != list(range(1, SPACES + 1)):
                raise TurnError(
                    index,
                    _rule(
                        _(
                            "the first shuffle must hold each of the cards 1 to {n} once; it "
                            "holds {k} cards{detail}"
                        ).format(n=SPACES, k=len(order), detail=_deck_detail(order, event.size)),
                        "S1",
                    ),
                )
        else:
            dealt = index - 2
            players = self.state.config.players
            seat = (self.state.first_seat + dealt) % players
            if not isinstance(event, CardDrawn) or event.seat != seat:
                raise TurnError(
                    index,
                    _rule(
                        _(
                            "the deal gives four cards to each player, one at a time round the "
                            "table from the first player: card {k} of the deal goes to seat "
                            "{seat}, not {event}"
                        ).format(k=dealt + 1, seat=seat, event=_describe(event)),
                        "S1",
                    ),
                )
        self.state = self._fold(index, event, "S1")

    # -- the turns ----------------------------------------------------------------------------

    def _step(self, index: int, event: Event) -> None:
        folded = self._begin(index, event) if not self._turn else None
        wanted, _after = self._turn[self._position]
        clause = _mismatch_clause(event, wanted, self._action)
        if not _same_step(event, wanted):
            raise TurnError(
                index,
                _rule(
                    _("the rules give {wanted} here, not {recorded}").format(
                        wanted=_describe(wanted), recorded=_describe(event)
                    ),
                    clause,
                ),
            )
        self.state = folded if folded is not None else self._fold(index, event, clause)
        self._position += 1
        if self._position == len(self._turn):
            self._turn = []
            if isinstance(event, GameEnded):
                self._ended_at = index

    def _begin(self, index: int, event: Event) -> GameState:
        """Start checking the turn whose first event is *event*; returns the state after it."""
        state = self.state
        command = _command(event, state.current_seat, self.rules)
        if command is None:
            raise TurnError(
                index,
                _rule(
                    _(
                        "a turn must begin with its action (a card played, a card drawn or a "
                        "hand discarded), not {event}"
                    ).format(event=_describe(event)),
                    "A5",
                ),
            )
        action = command.action if isinstance(command, Act) else command.kind
        # Fold first: a card or a seat that cannot be is told as what it is.
        empty = action == DRAW and not state.draw_pile  # the draw needs a reshuffle first
        folded = self._fold(index, event, "A6" if empty else ACTION_CLAUSES.get(action))
        if action in (DRAW, EXCHANGE) and not state.draw_pile and not state.discard_pile:
            raise TurnError(
                index,
                _rule(
                    _("a card must be drawn, but the draw pile and the discard pile are empty"),
                    "A6",
                ),
            )
        try:
            self._turn = decide_steps(state, command, self.rules)
        except IllegalCommand as exc:
            raise TurnError(
                index,
                _rule(
                    _("a move the rules forbid: {reason}").format(reason=exc.message),
                    CLAUSES.get(exc.code),
                ),
            ) from None
        self._position = 0
        self._action = action
        return folded

    def _fold(self, index: int, event: Event, clause: str | None) -> GameState:
        try:
            return evolve(self.state, event)
        except EventError as exc:
            raise TurnError(index, _rule(str(exc), clause)) from None


def _hidden() -> str:
    return _(
        "a card is hidden (this is a player's view of the game, not the referee's record): "
        "only a record with every card can be checked"
    )


def _deck_detail(order: Sequence[int], size: int) -> str:
    """What is wrong with a set-up shuffle's *order* (of *size* cards), in a few words."""
    seen: set[int] = set()
    for card in order:
        if not 1 <= card <= SPACES:
            return _(", among them {card}").format(card=card)
        if card in seen:
            return _(", {card} twice").format(card=card)
        seen.add(card)
    missing = [card for card in range(1, SPACES + 1) if card not in seen]
    if missing:
        return _(", without {card}").format(card=missing[0])
    return _(" but says it holds {size}").format(size=size)


def check_log(events: Sequence[Event], rules: RuleSet, *, strict_end: bool = True) -> int:
    """Check a whole log from its first event (see :class:`LogChecker`). Returns how many
    events form a complete set-up and complete turns; raises :class:`TurnError`."""
    if not events:
        raise TurnError(0, _("a game must begin with a game_started event"))
    checker = LogChecker(events[0], rules, strict_end=strict_end)
    for event in events[1:]:
        checker.feed(event)
    return checker.complete


def check_turns(events: Sequence[Event], rules: RuleSet, setup: int) -> int:
    """Check *events* (a whole log, from ``game_started``): the set-up of its first *setup*
    events (``2 + 4 * players``, S1) and then every turn.

    Returns how many events form complete turns; the events after that are a turn cut short
    (a process killed mid-turn), which the caller may drop. Raises :class:`EventError` naming
    the first event at fault (:class:`TurnError`). Notices may follow the end of the game.
    """
    return check_log(events, rules, strict_end=False)
