"""One viewer's move log as the terminal keeps it: the narrator's lines, each with the event
that told it, the moves an undo took back marked as such, and only the newest kept.

An undo removes nothing from the table's log (:class:`~cinco.core.engine.events.Undone` says
which events no longer count), so the narrator has told the moves it takes back as if they
stood. Here each line remembers the ``seq`` of the event that told it; an ``Undone`` marks
the moves told at or after its ``back_to`` as taken back, and the screen draws them so.

>>> from cinco.core.engine.config import GameConfig
>>> from cinco.core.engine.events import CardPlayed, TurnEnded, Undone
>>> log = MoveLog(Narrator(GameConfig.for_players(2), viewer=0, in_setup=False))
>>> log.feed(0, CardPlayed(seat=0, card=34, space=36))
>>> log.feed(1, TurnEnded(seat=0, action="play", next_seat=1))
>>> log.feed(2, Undone(seat=0, back_to=0))
>>> [(entry.line.text, entry.taken_back) for entry in log.entries]
[('You played 34 and placed on 36', True)]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from cinco.core.engine.config import GameConfig
from cinco.core.engine.events import Event, GameEnded, TurnEnded, Undone, Viewer
from cinco.core.table.protocol import Envelope, Message
from cinco.frontends.narration import LogLine, Narrator

if TYPE_CHECKING:
    from cinco.core.table.handle import SeatHandle

#: How many lines are kept: far more than any screen shows, so memory stays bounded in a
#: game of any length.
LIMIT = 200


@dataclass(frozen=True)
class Entry:
    """A line of the log, the ``seq`` of the event that told it, and whether it tells a move
    (``move``: a turn's or the result's line, which an undo can take back, not a notice)."""

    line: LogLine
    seq: int
    move: bool = False
    taken_back: bool = False


class MoveLog:
    """A narrator's lines as they come, at most *limit* of them, undone moves marked."""

    def __init__(self, narrator: Narrator, limit: int | None = LIMIT) -> None:
        self.narrator = narrator
        self.entries: deque[Entry] = deque(maxlen=limit)
        #: How many lines were ever told (the plain terminal prints the ones it has not).
        self.told = 0

    @classmethod
    def following(cls, handle: SeatHandle, config: GameConfig, viewer: Viewer) -> MoveLog:
        """The log of *viewer* told *handle*'s stream: the events it holds now, then each one
        as the stream brings it."""
        log = cls(Narrator(config, viewer))
        for envelope in handle.events():  # what arrived before anyone listened
            log.feed(envelope.seq, envelope.event)
        handle.listen(log.hear)
        return log

    @classmethod
    def of(
        cls,
        config: GameConfig,
        viewer: Viewer,
        events: Sequence[Event],
        limit: int | None = LIMIT,
    ) -> MoveLog:
        """The log of a record's *events* (numbered from 0), as *viewer* is told it; with
        *limit* ``None``, every line of it."""
        log = cls(Narrator(config, viewer), limit)
        for seq, event in enumerate(events):
            log.feed(seq, event)
        return log

    def hear(self, message: Message) -> None:
        """A stream's listener: take in the event of an envelope."""
        if isinstance(message, Envelope):
            self.feed(message.seq, message.event)

    def feed(self, seq: int, event: Event) -> None:
        """Take in event number *seq* of the log."""
        if isinstance(event, Undone):
            self.entries = deque(
                (
                    replace(entry, taken_back=True)
                    if entry.move and entry.seq >= event.back_to
                    else entry
                    for entry in self.entries
                ),
                maxlen=self.entries.maxlen,
            )
        self.narrator.feed(event)
        told = self.narrator.lines
        move = isinstance(event, TurnEnded | GameEnded)
        for line in told:
            self.entries.append(Entry(line, seq, move=move))
        self.told += len(told)
        told.clear()  # the narrator's own list would grow with the game

    @property
    def lines(self) -> list[LogLine]:
        """The lines kept, oldest first."""
        return [entry.line for entry in self.entries]

    def taken_back(self) -> set[int]:
        """The indexes in :attr:`lines` of the moves taken back."""
        return {index for index, entry in enumerate(self.entries) if entry.taken_back}

    def since(self, told: int) -> list[Entry]:
        """The entries told after the first *told* lines (those of them still kept)."""
        new = self.told - told
        if new <= 0:
            return []
        return list(self.entries)[-new:]
