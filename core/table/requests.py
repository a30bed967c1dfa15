"""What may be asked of a table's thread: one frozen request type per operation, each
carried out over the referee (:meth:`TableRequest.carry_out`) with a typed answer, and the
:class:`TableStatus` a host is answered with. The host (:class:`~cinco.core.table.table.Table`)
sends them; a viewer's handle sends its seat-protocol message in a :class:`ViewerRequest`."""

from __future__ import annotations

import queue
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from cinco.core.engine.errors import CincoError
from cinco.core.engine.events import Viewer
from cinco.core.table.protocol import Accepted, Message, Refused
from cinco.core.table.seat_bots import play_for, stand_in

if TYPE_CHECKING:
    from cinco.core.table.referee import Referee

__all__ = [
    "CloseTable",
    "OpenStream",
    "PlayBotTurn",
    "PlayFor",
    "SaveAs",
    "StandIn",
    "Status",
    "TableRequest",
    "TableStatus",
    "ViewerRequest",
]

Answer = TypeVar("Answer", covariant=True)


@dataclass(frozen=True)
class TableStatus:
    """Public facts about a table, for whoever hosts it (a frontend, a server's lobby)."""

    table: str
    seq: int
    is_over: bool
    to_move: int
    bot_to_move: bool
    #: The record's path (``None``: not saved), and whether every event is written to it.
    record: Path | None
    saved: bool
    #: Why the game is stopped (the record could not be written), if it is.
    problem: Refused | None
    #: The people's seats a bot plays for now (zombie mode), with the bot's spec.
    stand_ins: tuple[tuple[int, str], ...] = ()
    #: Turns played so far (undone ones left out).
    turn: int = 0


class TableRequest(ABC, Generic[Answer]):
    """One thing asked of the table's thread, answered with an ``Answer``."""

    @abstractmethod
    def carry_out(self, referee: Referee) -> Answer:
        """Do it, in the table's thread (the only one that touches *referee*)."""


@dataclass(frozen=True)
class OpenStream(TableRequest[tuple[str, "queue.SimpleQueue[Message]"]]):
    """A new handle's stream for *viewer*: its id, and the inbox its messages come in."""

    viewer: Viewer

    def carry_out(self, referee: Referee) -> tuple[str, queue.SimpleQueue[Message]]:
        return referee.open_stream(self.viewer)


@dataclass(frozen=True)
class ViewerRequest(TableRequest[Message]):
    """A viewer's seat-protocol request (submit, check, undo, hint, subscribe), from the
    handle whose stream is *stream*."""

    stream: str
    message: Message

    def carry_out(self, referee: Referee) -> Message:
        port = referee.streams.get(self.stream)
        if port is None:
            raise CincoError("unknown port for request")
        return referee.answer(port, self.message)


@dataclass(frozen=True)
class Status(TableRequest[TableStatus]):
    """The table's public facts now."""

    def carry_out(self, referee: Referee) -> TableStatus:
        return referee.status()


@dataclass(frozen=True)
class PlayBotTurn(TableRequest["Accepted | Refused"]):
    """One turn for the bot (or the stand-in bot) to move."""

    def carry_out(self, referee: Referee) -> Accepted | Refused:
        return referee.play_bot_turn()


@dataclass(frozen=True)
class StandIn(TableRequest["Accepted | Refused"]):
    """Zombie mode: *bot* plays the person's *seat* from now on (``None``: give it back)."""

    seat: int
    bot: str | None
    reason: str

    def carry_out(self, referee: Referee) -> Accepted | Refused:
        return stand_in(referee, self.seat, self.bot, self.reason)


@dataclass(frozen=True)
class PlayFor(TableRequest["Accepted | Refused"]):
    """*bot* plays one turn for the person at *seat*, whose time ran out."""

    seat: int
    bot: str
    reason: str

    def carry_out(self, referee: Referee) -> Accepted | Refused:
        return play_for(referee, self.seat, self.bot, self.reason)


@dataclass(frozen=True)
class SaveAs(TableRequest[Path]):
    """Write the whole game to a new record at *path* and go on recording there."""

    path: Path

    def carry_out(self, referee: Referee) -> Path:
        return referee.save_as(self.path)


@dataclass(frozen=True)
class CloseTable(TableRequest[None]):
    """Store what is left, close the record and end the table's thread."""

    def carry_out(self, referee: Referee) -> None:
        referee.close()
