"""The seat protocol: every message between a table and one viewer (a seat or a spectator).

A seat handle (:class:`cinco.core.table.SeatHandle`) sends requests and receives answers and a
sequenced stream of events, each a value with a JSON form (``to_dict``, and
:func:`message_from_dict` back), so that networked play sends these messages over a socket.
``docs/seat-protocol.md``
describes each one.

>>> from cinco.core.events import CardPlayed
>>> envelope = Envelope(table="t1", seq=12, event=CardPlayed(seat=0, card=34, space=36))
>>> envelope.to_dict()["seq"], envelope.to_dict()["event"]["type"]
(12, 'card_played')
>>> message_from_dict(envelope.to_dict()) == envelope
True
>>> Refused("space_taken", (("space", 34),)).message
'Space 34 is already taken.'
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from .commands import Command, command_from_dict
from .errors import EventError, IllegalCommand
from .events import Event, event_from_dict
from .messages import Param, freeze, render, thaw
from .rules import LegalActions

#: Version of the seat protocol. A message of another version is refused, never guessed at.
#: Version 2 added ``clock``; a version 1 message (any type but ``clock``) is still read.
PROTOCOL_VERSION = 2
#: The versions this Cinco reads.
READS = (1, 2)

Params = tuple[tuple[str, Param], ...]


class Message(ABC):
    """Base class of the protocol's messages."""

    type: ClassVar[str] = "message"

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """The message's JSON form (:func:`message_from_dict` reads it back)."""

    def _head(self) -> dict[str, Any]:
        return {"type": self.type, "v": PROTOCOL_VERSION}


# -- from the table ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Envelope(Message):
    """One event of table ``table``'s log, number ``seq`` (from 0), as this viewer may see it.
    Every viewer gets every event, in order, each projected (:meth:`Event.seen_by`), so ``seq``
    is the same for everyone and a client resumes with ``after=seq``."""

    type: ClassVar[str] = "event"
    table: str
    seq: int
    event: Event

    def to_dict(self) -> dict[str, Any]:
        return {**self._head(), "table": self.table, "seq": self.seq, "event": self.event.to_dict()}


@dataclass(frozen=True)
class Prompt(Message):
    """It is this seat's turn: after event ``seq``, these are its legal actions."""

    type: ClassVar[str] = "prompt"
    table: str
    seq: int
    legal: LegalActions

    def to_dict(self) -> dict[str, Any]:
        legal = self.legal
        return {
            **self._head(),
            "table": self.table,
            "seq": self.seq,
            "seat": legal.seat,
            "plays": [[card, list(spaces)] for card, spaces in legal.plays],
            "can_draw": legal.can_draw,
            "can_exchange": legal.can_exchange,
        }


@dataclass(frozen=True)
class Accepted(Message):
    """The request was carried out; the events it made end at ``seq`` (``-1``: it made none)."""

    type: ClassVar[str] = "accepted"
    seq: int

    def to_dict(self) -> dict[str, Any]:
        return {**self._head(), "seq": self.seq}


@dataclass(frozen=True)
class Refused(Message):
    """The request was refused and nothing changed: ``code`` says why, with ``params``
    (:mod:`cinco.core.messages` puts them into words)."""

    type: ClassVar[str] = "refused"
    code: str
    params: Params = ()

    @classmethod
    def of(cls, error: IllegalCommand) -> Refused:
        return cls(error.code, freeze(error.params))

    @property
    def message(self) -> str:
        return render(self.code, dict(self.params))

    def to_dict(self) -> dict[str, Any]:
        return {**self._head(), "code": self.code, "params": thaw(self.params)}


# -- to the table ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Submit(Message):
    """Carry out ``command`` for this seat (its ``seat`` field must be this seat)."""

    type: ClassVar[str] = "submit"
    command: Command

    def to_dict(self) -> dict[str, Any]:
        return {**self._head(), "command": self.command.to_dict()}


@dataclass(frozen=True)
class Check(Message):
    """Would ``command`` be accepted now? Answered with Accepted(-1) or Refused; nothing
    changes."""

    type: ClassVar[str] = "check"
    command: Command

    def to_dict(self) -> dict[str, Any]:
        return {**self._head(), "command": self.command.to_dict()}


@dataclass(frozen=True)
class Undo(Message):
    """Take back this seat's last action (the table's undo policy decides; see
    :class:`cinco.core.table.Table`). With ``check``, only say whether it would be allowed."""

    type: ClassVar[str] = "undo"
    check: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {**self._head(), "check": self.check}


@dataclass(frozen=True)
class Subscribe(Message):
    """Stream the log from event ``after + 1`` on (``-1``: from the start), then every new
    event as it is stored."""

    type: ClassVar[str] = "subscribe"
    after: int = -1

    def to_dict(self) -> dict[str, Any]:
        return {**self._head(), "after": self.after}


@dataclass(frozen=True)
class Hint(Message):
    """What would the first installed of ``bots`` play in this seat's place? The bot sees only
    this seat's view, like any bot. Answered with :class:`Hinted` or Refused."""

    type: ClassVar[str] = "hint"
    bots: tuple[str, ...] = ("ismcts", "greedy")
    seconds: float = 1.5

    def to_dict(self) -> dict[str, Any]:
        return {**self._head(), "bots": list(self.bots), "seconds": self.seconds}


@dataclass(frozen=True)
class Hinted(Message):
    """A hint: ``bot`` would play ``command``; ``reason`` is the bot's own, if it gives one."""

    type: ClassVar[str] = "hinted"
    command: Command
    bot: str
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            **self._head(),
            "command": self.command.to_dict(),
            "bot": self.bot,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Clock(Message):
    """The table's turn timers (version 2), as the server measured them when it sent this:
    ``remaining`` seconds per seat (every seat's, bots' too), the seat whose clock runs
    (``None``: nobody's, a bot is to move or the game is over), after event ``seq``. A client
    counts the running clock down by itself until the next ``clock``. Public: every viewer
    gets the same."""

    type: ClassVar[str] = "clock"
    table: str
    seq: int
    remaining: tuple[float, ...]
    running: int | None
    reserve: float
    increment: float

    def to_dict(self) -> dict[str, Any]:
        return {
            **self._head(),
            "table": self.table,
            "seq": self.seq,
            "remaining": list(self.remaining),
            "running": self.running,
            "reserve": self.reserve,
            "increment": self.increment,
        }


MESSAGE_TYPES: dict[str, type[Message]] = {
    cls.type: cls
    for cls in (
        Envelope,
        Prompt,
        Accepted,
        Refused,
        Submit,
        Check,
        Undo,
        Subscribe,
        Hint,
        Hinted,
        Clock,
    )
}


def _whole(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise EventError(f"{data.get('type')}: field {name!r} must be a whole number")
    return value


def message_from_dict(data: Any) -> Message:
    """Rebuild a message from its JSON form, checking it (``EventError`` says what is wrong)."""
    if not isinstance(data, dict):
        raise EventError("a message must be a JSON object")
    kind = data.get("type")
    version = data.get("v")
    if isinstance(version, bool) or version not in READS or (kind == "clock" and version < 2):
        raise EventError(
            f"{kind}: protocol version {data.get('v')!r} is not supported "
            f"(this Cinco speaks version {PROTOCOL_VERSION})"
        )
    if kind == "event":
        table = data.get("table")
        if not isinstance(table, str):
            raise EventError("event: field 'table' must be text")
        return Envelope(table, _whole(data, "seq"), event_from_dict(data.get("event")))
    if kind == "prompt":
        plays = data.get("plays")
        if not isinstance(plays, list):
            raise EventError("prompt: field 'plays' must be a list")
        legal = LegalActions(
            _whole(data, "seat"),
            tuple((int(card), tuple(int(s) for s in spaces)) for card, spaces in plays),
            bool(data.get("can_draw")),
            bool(data.get("can_exchange")),
        )
        return Prompt(str(data.get("table")), _whole(data, "seq"), legal)
    if kind == "accepted":
        return Accepted(_whole(data, "seq"))
    if kind == "refused":
        params = data.get("params") or {}
        if not isinstance(data.get("code"), str) or not isinstance(params, dict):
            raise EventError("refused: needs a text 'code' and an object 'params'")
        return Refused(data["code"], freeze(params))
    if kind in ("submit", "check"):
        command = data.get("command")
        if not isinstance(command, dict):
            raise EventError(f"{kind}: field 'command' must be an object")
        return (Submit if kind == "submit" else Check)(command_from_dict(command))
    if kind == "undo":
        return Undo(check=bool(data.get("check", False)))
    if kind == "subscribe":
        return Subscribe(_whole(data, "after"))
    if kind == "hint":
        bots = data.get("bots", ["ismcts", "greedy"])
        seconds = data.get("seconds", 1.5)
        if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
            raise EventError("hint: field 'bots' must be a list of names")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds <= 0:
            raise EventError("hint: field 'seconds' must be a positive number")
        return Hint(tuple(bots), float(seconds))
    if kind == "hinted":
        command = data.get("command")
        reason = data.get("reason")
        if not isinstance(command, dict) or not isinstance(data.get("bot"), str):
            raise EventError("hinted: needs a 'command' object and a 'bot' name")
        return Hinted(
            command_from_dict(command), data["bot"], reason if isinstance(reason, str) else None
        )
    if kind == "clock":
        return _clock(data)
    raise EventError(f"unknown message type {kind!r}")


def _number(data: dict[str, Any], name: str) -> float:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise EventError(f"{data.get('type')}: field {name!r} must be a number")
    return float(value)


def _clock(data: dict[str, Any]) -> Clock:
    remaining = data.get("remaining")
    running = data.get("running")
    if not isinstance(remaining, list) or not all(
        isinstance(r, int | float) and not isinstance(r, bool) for r in remaining
    ):
        raise EventError("clock: field 'remaining' must be a list of seconds")
    if running is not None and (isinstance(running, bool) or not isinstance(running, int)):
        raise EventError("clock: field 'running' must be a seat or null")
    table = data.get("table")
    if not isinstance(table, str):
        raise EventError("clock: field 'table' must be text")
    return Clock(
        table,
        _whole(data, "seq"),
        tuple(float(r) for r in remaining),
        running,
        _number(data, "reserve"),
        _number(data, "increment"),
    )
