"""One viewer's stream of events, folded: the :class:`Projection` every reader of a stream
uses (a table's seat handle, the network client, an isolated bot, the record reader), and the
:class:`StreamCursor` every sender keeps (the table for each handle, the server for each
connection).

A stream is a table's log as one viewer may see it: every event, in order, each projected
(:meth:`~cinco.core.engine.events.Event.seen_by`) and numbered ``seq`` from 0, the same
numbers for every viewer (the seat protocol's ``Envelope`` is one such item).

**Where a subscription resumes.** A cursor is the ``seq`` of the last event a viewer has
(``-1``: none yet). ``subscribe(after)`` asks for every event after *after*: the sender sets
its cursor to *after* (:meth:`StreamCursor.resume`) and sends from ``after + 1`` on, then the
viewer's prompt, if it is to move, once more even if it was sent before: the viewer may have
lost it with the connection. A reader resumes with its projection's cursor
(``subscribe(projection.seq)``), and drops what it has already if the streams overlap.

>>> from cinco.core.engine.config import GameConfig
>>> from cinco.core.engine.events import GameStarted, DeckShuffled
>>> first = GameStarted(config=GameConfig.for_players(2), first_seat=1)
>>> shuffled = DeckShuffled(size=90, order=None, reshuffle=False)
>>> projection: Projection[Item] = Projection()
>>> [projection.take(Item(0, first)), projection.take(Item(1, shuffled))]
[True, True]
>>> projection.take(Item(1, shuffled)), projection.seq  # a repeat: dropped
(False, 1)
>>> cursor = StreamCursor()
>>> cursor.resume(projection.seq)
>>> cursor.next, cursor.prompt_due(1)
(2, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from cinco.core.engine.events import Event, GameEnded, GameStarted, TurnEnded, Undone
from cinco.core.engine.state import GameState, Timeline

__all__ = ["NOTHING", "Item", "Projection", "Sequenced", "StreamCursor", "closes_turn"]

#: The cursor of a viewer that has no event yet (``subscribe(NOTHING)``: the whole stream).
NOTHING = -1


class Sequenced(Protocol):
    """One item of a stream: event number ``seq`` of the log, as this viewer sees it."""

    @property
    def seq(self) -> int: ...

    @property
    def event(self) -> Event: ...


#: The items of one stream (the seat protocol's ``Envelope``, or :class:`Item`).
Taken = TypeVar("Taken", bound=Sequenced)


@dataclass(frozen=True)
class Item:
    """A stream item that is no protocol message (a record's line, a test's)."""

    seq: int
    event: Event


def closes_turn(event: Event) -> bool:
    """Whether *event* ends a turn (or takes turns back): a prompt before it is stale."""
    return type(event) in (TurnEnded, GameEnded, Undone)


class Projection(Generic[Taken]):
    """A viewer's stream folded into the game as the viewer sees it, with its cursor.

    :meth:`take` folds the next item (starting the game with its ``GameStarted``, evolving
    it, or going back for an undo, which costs no re-fold: :class:`Timeline`) and drops any
    other: a repeat (a resubscription overlapping what the viewer has) or a gap (which a
    resubscription after :attr:`seq` fills).
    """

    __slots__ = ("_timeline", "log")

    def __init__(self) -> None:
        #: The items taken, in order (``log[i].seq == i``).
        self.log: list[Taken] = []
        self._timeline: Timeline | None = None

    @property
    def seq(self) -> int:
        """The cursor: the ``seq`` of the last item taken (:data:`NOTHING`: none yet)."""
        return self.log[-1].seq if self.log else NOTHING

    @property
    def state(self) -> GameState | None:
        """The game as the viewer sees it after the last item taken (``None``: none yet)."""
        return None if self._timeline is None else self._timeline.state

    def take(self, item: Taken) -> bool:
        """Fold *item* if it is the stream's next; whether it was."""
        if item.seq != self.seq + 1:
            return False
        event = item.event
        if self._timeline is None:
            assert isinstance(event, GameStarted), "a stream begins with game_started"
            self._timeline = Timeline(event)
        else:
            self._timeline.append(event)
        self.log.append(item)
        return True

    def after(self, seq: int) -> list[Taken]:
        """The items taken with a ``seq`` after *seq*."""
        return self.log[max(0, seq + 1) :]


@dataclass
class StreamCursor:
    """Where a sender stands in one viewer's stream: the ``seq`` of the last event sent
    (:data:`NOTHING`: none) and of the last prompt sent (``None``: none since the viewer
    subscribed). See the module's rule for :meth:`resume`."""

    sent: int = NOTHING
    prompted: int | None = None

    @property
    def next(self) -> int:
        """The ``seq`` of the next event to send."""
        return self.sent + 1

    def resume(self, after: int) -> None:
        """``subscribe(after)``: send from event ``after + 1`` on, and the prompt again."""
        self.sent = max(NOTHING, after)
        self.prompted = None

    def envelope_due(self, seq: int) -> bool:
        """Whether event *seq* is news to the viewer (then it counts as sent)."""
        if seq <= self.sent:
            return False
        self.sent = seq
        return True

    def prompt_due(self, seq: int) -> bool:
        """Whether a prompt after event *seq* is news to the viewer: it is for the last event
        sent, or a later one, and not sent already (then it counts as sent)."""
        if seq < self.sent or (self.prompted is not None and seq <= self.prompted):
            return False
        self.prompted = seq
        return True
