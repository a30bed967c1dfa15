"""Questions a table asks of its log (and a replay or a frontend may ask too): the turns that
still count after undos, the people's seats a bot plays for (zombie mode), the turns a bot
played for a person, and how much of a stored log makes whole turns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cinco.core.engine.events import (
    CardDrawn,
    CardPlayed,
    Event,
    GameEnded,
    GameStarted,
    HandDiscarded,
    Notice,
    TurnEnded,
    Undone,
)

__all__ = [
    "PLAYED_FOR",
    "STAND_IN",
    "STAND_IN_ENDED",
    "Standing",
    "Turn",
    "cards_shown",
    "first_turn_start",
    "played_for",
    "stand_ins",
    "turns",
    "whole_turns",
]

#: The notices of zombie mode: a bot plays for a person's seat, that person is back, a bot
#: moved once for a person out of time. Their ``seat`` is the person's.
STAND_IN = "stand_in"
STAND_IN_ENDED = "stand_in_ended"
PLAYED_FOR = "played_for"


@dataclass(frozen=True)
class Turn:
    """One turn of a log that still counts (an undo takes turns back): ``start`` and ``end``
    are event counts (the state before the turn is the state after ``start`` events)."""

    start: int
    end: int
    seat: int
    action: str


def turns(events: Sequence[Event]) -> list[Turn]:
    """The turns of *events* that still count, oldest first: undone turns are left out."""
    first = events[0] if events else None
    if not isinstance(first, GameStarted):
        return []
    counted: list[Turn] = []
    start_at: int | None = None
    for index, event in enumerate(events):
        kind = type(event)
        if kind is TurnEnded or kind is GameEnded:
            assert isinstance(event, TurnEnded | GameEnded)
            begin = start_at if start_at is not None else first_turn_start(events)
            counted.append(Turn(begin, index + 1, event.seat, event.action))
            start_at = index + 1
        elif kind is Undone:
            assert isinstance(event, Undone)
            while counted and counted[-1].end > event.back_to:
                counted.pop()
            start_at = index + 1
    return counted


def cards_shown(event: Event) -> tuple[int, ...]:
    """The cards *event*, as one viewer sees it, shows them face up."""
    kind = type(event)
    if kind is CardPlayed:
        assert isinstance(event, CardPlayed)
        return (event.card,)
    if kind is CardDrawn:
        assert isinstance(event, CardDrawn)
        return () if event.card is None else (event.card,)
    if kind is HandDiscarded:
        assert isinstance(event, HandDiscarded)
        return () if event.cards is None else event.cards
    return ()


def first_turn_start(events: Sequence[Event]) -> int:
    """The event count at which the first turn starts: after the game's start, the shuffle
    and the deal (*events* begin with :class:`GameStarted`)."""
    first = events[0]
    assert isinstance(first, GameStarted)
    return 2 + first.config.params.deal * first.config.players


def stand_ins(events: Sequence[Event]) -> dict[int, str]:
    """Which people's seats a bot plays for after *events* (from the zombie-mode notices),
    seat → the bot's spec (``NAME[:LEVEL]``)."""
    standing: dict[int, str] = {}
    for event in events:
        if type(event) is Notice:
            assert isinstance(event, Notice)
            if event.seat is None:
                continue
            if event.code == STAND_IN:
                standing[event.seat] = str(dict(event.params).get("bot", "random"))
            elif event.code == STAND_IN_ENDED:
                standing.pop(event.seat, None)
    return standing


def played_for(events: Sequence[Event]) -> set[int]:
    """The ends (event counts, as :attr:`Turn.end`) of the turns a bot played for a person."""
    standing: set[int] = set()
    once: set[int] = set()
    ends: set[int] = set()
    for index, event in enumerate(events):
        kind = type(event)
        if kind is Notice:
            assert isinstance(event, Notice)
            _note_stand_in(event, standing, once)
        elif kind is TurnEnded or kind is GameEnded:
            assert isinstance(event, TurnEnded | GameEnded)
            if event.seat in standing or event.seat in once:
                ends.add(index + 1)
            once.discard(event.seat)
    return ends


def _note_stand_in(notice: Notice, standing: set[int], once: set[int]) -> None:
    """Take in a zombie-mode *notice*: the seats a bot plays for, and for one turn."""
    if notice.seat is None:
        return
    if notice.code == STAND_IN:
        standing.add(notice.seat)
    elif notice.code == STAND_IN_ENDED:
        standing.discard(notice.seat)
    elif notice.code == PLAYED_FOR:
        once.add(notice.seat)


class Standing:
    """Who plays whose turns, followed event by event from the zombie-mode notices: a bot
    that plays a person's seat from now on (``stand_in`` until ``stand_in_ended``) or for
    their next turn only (``played_for``). A narrator asks :meth:`bot_for` at the end of each
    turn, so that a stand-in's moves are told as the stand-in's, never as the person's."""

    def __init__(self) -> None:
        self.standing: dict[int, str] = {}
        self.once: dict[int, str] = {}

    def take(self, notice: Notice) -> None:
        if notice.seat is None:
            return
        bot = str(dict(notice.params).get("bot", "random"))
        if notice.code == STAND_IN:
            self.standing[notice.seat] = bot
        elif notice.code == STAND_IN_ENDED:
            self.standing.pop(notice.seat, None)
        elif notice.code == PLAYED_FOR:
            self.once[notice.seat] = bot

    def bot_for(self, seat: int) -> str | None:
        """The bot that plays *seat*'s turn under way (``None``: its own player)."""
        return self.once.get(seat) or self.standing.get(seat)

    def turn_ended(self, seat: int) -> None:
        self.once.pop(seat, None)


def whole_turns(events: Sequence[Event]) -> int:
    """How many of *events* make whole turns: a turn cut off by a kill is left out (a log
    cut inside the deal keeps only its first event: the deal is made again from the seed)."""
    started = events[0] if events else None
    if not isinstance(started, GameStarted):
        return 0
    end = 0
    setup = first_turn_start(events)
    for index, event in enumerate(events):
        if isinstance(event, TurnEnded | GameEnded | Undone):
            end = index + 1
        elif isinstance(event, Notice) and index == max(end, setup):
            end = index + 1  # a notice between turns (or after the deal) belongs to no turn
    if end == 0 or end < setup:
        return setup if len(events) >= setup else 1
    return end
