"""Checking that a log follows the rules, turn by turn (records, resumed games, network peers).

The fold (:func:`cinco.core.state.evolve`) already refuses events that cannot happen to the cards
and the board. This module also refuses turns the rules forbid: a card placed below its number,
a draw into a full hand, a turn passed to the wrong seat, a game that should have ended (or
should not have). It rebuilds each turn's command from the turn's first event and asks
:func:`cinco.core.rules.decide_steps` what that command produces.

Shuffle orders are not compared: the log's own shuffles are the truth (replaying needs no random
generator), and the fold checks that a reshuffle holds exactly the discard pile.
"""

from __future__ import annotations

from collections.abc import Sequence

from .commands import Command, Draw, Exchange, PlayCard
from .errors import EventError, IllegalCommand
from .events import (
    CardDrawn,
    CardPlayed,
    DeckShuffled,
    Event,
    GameEnded,
    HandDiscarded,
    Notice,
    TurnEnded,
)
from .i18n import _
from .rules import RuleSet, decide_steps
from .state import GameState, evolve

#: Events that end a turn.
TURN_ENDS = (TurnEnded, GameEnded)


class TurnError(EventError):
    """A turn of a log breaks the rules. ``index`` is the 0-based index of the event at fault."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(_("event {n}: {reason}").format(n=index + 1, reason=reason))
        self.index = index
        self.reason = reason


def _command(event: Event, seat: int) -> Command | None:
    """The command whose turn begins with *event*."""
    if isinstance(event, CardPlayed):
        return PlayCard(event.seat, event.card, event.space)
    if isinstance(event, HandDiscarded):
        return Exchange(event.seat)
    if isinstance(event, CardDrawn | DeckShuffled):
        return Draw(seat)
    return None


def _describe(event: Event) -> str:
    return event.type if not isinstance(event, TURN_ENDS) else repr(event)


def check_turns(events: Sequence[Event], rules: RuleSet, setup: int) -> int:
    """Check every turn of *events* after the first *setup* events (the deal).

    Returns how many events form complete turns; the events after that are a turn cut short
    (a process killed mid-turn), which the caller may drop. Raises :class:`EventError` naming
    the first event at fault (:class:`TurnError`).
    """
    from .state import fold

    state: GameState = fold(events[:setup])
    index = setup
    complete = setup
    while index < len(events):
        event = events[index]
        if isinstance(event, Notice):
            state = evolve(state, event)
            index += 1
            complete = index
            continue
        command = _command(event, state.current_seat)
        if command is None:
            raise EventError(
                _("event {n}: a turn cannot begin with {kind}").format(n=index + 1, kind=event.type)
            )
        try:
            expected = decide_steps(state, command, rules)
        except IllegalCommand as exc:
            raise TurnError(
                index, _("a move the rules forbid: {reason}").format(reason=exc.message)
            ) from None
        for offset, (wanted, _after) in enumerate(expected):
            position = index + offset
            if position >= len(events):
                return complete  # the log stops inside this turn
            recorded = events[position]
            if type(recorded) is not type(wanted) or (
                isinstance(wanted, (*TURN_ENDS, CardPlayed, HandDiscarded)) and recorded != wanted
            ):
                raise TurnError(
                    position,
                    _("the rules give {wanted} here, not {recorded}").format(
                        wanted=_describe(wanted), recorded=_describe(recorded)
                    ),
                )
            state = evolve(state, recorded)
        index += len(expected)
        complete = index
    return complete
