"""The seat protocol: every message between a table and one viewer (a seat or a spectator).

A seat handle (:class:`cinco.core.table.handle.SeatHandle`) sends requests and receives answers
and a sequenced stream of events, each a value with a JSON form (``to_dict``, and
:func:`message_from_dict` back), so that networked play sends these messages over a socket.
``docs/seat-protocol.md`` describes each one.

>>> from cinco.core.engine.events import CardPlayed
>>> envelope = Envelope(table="t1", seq=12, event=CardPlayed(seat=0, card=34, space=36))
>>> envelope.to_dict()["seq"], envelope.to_dict()["event"]["type"]
(12, 'card_played')
>>> message_from_dict(envelope.to_dict()) == envelope
True
>>> Refused("space_taken", (("space", 34),)).message
'Space 34 is already taken.'
"""

from __future__ import annotations

import json
import math
import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from cinco.core.engine.actions import is_action_name
from cinco.core.engine.commands import COMMAND_TYPES, Act, Command, command_from_dict
from cinco.core.engine.errors import EventError, IllegalCommand
from cinco.core.engine.events import Event, event_from_dict
from cinco.core.engine.legal import LegalActions
from cinco.core.words.messages import Param, freeze, render, thaw

#: Version of the seat protocol. A message of another version is refused, never guessed at.
#: Version 2 added ``clock``; a version 1 message (any type but ``clock``) is still read.
#: A prompt's ``acts`` (a variant's own actions, hook API 3) came later within version 2: an
#: optional field, absent when there are none, which an older reader skips.
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
    """It is this seat's turn: after event ``seq``, these are its legal actions. Its JSON
    form has ``acts``, the commands of the variants' own actions (hook API 3,
    ``{"kind": "capture", "seat": 0, "card": 1, "space": 34}``), only when there are some."""

    type: ClassVar[str] = "prompt"
    table: str
    seq: int
    legal: LegalActions

    def to_dict(self) -> dict[str, Any]:
        legal = self.legal
        data = {
            **self._head(),
            "table": self.table,
            "seq": self.seq,
            "seat": legal.seat,
            "plays": [[card, list(spaces)] for card, spaces in legal.plays],
            "can_draw": legal.can_draw,
            "can_exchange": legal.can_exchange,
        }
        if legal.acts:
            data["acts"] = [act.to_dict() for act in legal.acts]
        return data


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
    (:mod:`cinco.core.words.messages` puts them into words)."""

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


def printable(value: object) -> str | int:
    """*value* as a refusal's parameter may hold it: a seat number, or its repr."""
    return value if isinstance(value, int) and not isinstance(value, bool) else repr(value)


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
    :class:`cinco.core.table.table.Table`). With ``check``, only say whether it would be allowed."""

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


@dataclass(frozen=True)
class Presence(Message):
    """Whether a person's seat is connected (version 2): ``code`` ``seat_away`` (its
    connection dropped or the person left; ``params`` ``name``, ``seconds`` left of the grace
    period as measured when sent, ``grace``, ``bot`` the stand-in to come), ``seat_back`` or
    ``seat_stand_in`` (the grace ran out: ``bot`` plays for them). Not an event: the server's
    word on its connections, sent to every viewer when it changes and after a ``subscribe``
    (docs/seat-protocol.md). Words: ``render(code, params)``."""

    type: ClassVar[str] = "presence"
    table: str
    seat: int
    code: str
    params: Params = ()

    @property
    def message(self) -> str:
        return render(self.code, dict(self.params))

    def to_dict(self) -> dict[str, Any]:
        return {
            **self._head(),
            "table": self.table,
            "seat": self.seat,
            "code": self.code,
            "params": thaw(self.params),
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
        Presence,
    )
}


# -- reading messages: one schema per type --------------------------------------------------------

#: The deepest nesting of arrays and objects a message may have. The deepest the protocol sends
#: is about 5 (an event's configuration); a frame nested deeper is refused before it is decoded.
MAX_DEPTH = 16
#: The largest event number (``seq``, ``after``) a message may carry.
MAX_SEQ = 2**31 - 1
#: A hint's ``seconds`` must be a number above 0 and at most this; a server may think less.
MAX_HINT_SECONDS = 10.0
#: A hint names at most this many bots, each at most :data:`MAX_NAME` characters long.
MAX_HINT_BOTS = 8
MAX_NAME = 64
#: The largest number a command's field (seat, card, space) may hold.
MAX_COMMAND_NUMBER = 9999
#: A variant's own action (hook API 3) is sent as a command of its own kind (a lower-case
#: word of at most this many characters) with at most :data:`MAX_ACT_FIELDS` fields besides
#: ``kind`` and ``seat``, each named by an identifier and holding a whole number.
MAX_ACT_NAME = 32
MAX_ACT_FIELDS = 8
#: A prompt offers at most this many commands of declared actions.
MAX_ACTS = 4096

#: Reads one field's JSON value (the message's type and the field's name say what is wrong).
Reader = Callable[[str, str, Any], Any]
_REQUIRED = object()


def _wrong(kind: str, name: str, what: str) -> EventError:
    return EventError(f"{kind}: field {name!r} must be {what}")


def _whole(low: int, high: int) -> Reader:
    def read(kind: str, name: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise _wrong(kind, name, f"a whole number from {low} to {high}")
        return value

    return read


def _number(low: float, high: float, *, above: bool = False) -> Reader:
    """A finite number from *low* (*above*: more than *low*) to *high*."""

    def read(kind: str, name: str, value: Any) -> float:
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (isinstance(value, float) and not math.isfinite(value))
            or not (low < value if above else low <= value)
            or value > high
        ):
            bound = "more than" if above else "from"
            raise _wrong(kind, name, f"a number {bound} {low:g} to {high:g}")
        return float(value)

    return read


def _text(longest: int) -> Reader:
    def read(kind: str, name: str, value: Any) -> str:
        if not isinstance(value, str) or len(value) > longest:
            raise _wrong(kind, name, f"text of at most {longest} characters")
        return value

    return read


def _flag(kind: str, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _wrong(kind, name, "true or false")
    return value


def _optional(reader: Reader) -> Reader:
    def read(kind: str, name: str, value: Any) -> Any:
        return None if value is None else reader(kind, name, value)

    return read


def _list(reader: Reader, most: int, *, least: int = 0) -> Reader:
    def read(kind: str, name: str, value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list) or not least <= len(value) <= most:
            raise _wrong(kind, name, f"a list of {least} to {most} items")
        return tuple(reader(kind, name, item) for item in value)

    return read


def _command(kind: str, name: str, value: Any) -> Command:
    """A command: a built-in one (``play``, ``draw``, ``exchange``), or a variant's own action
    (:class:`~cinco.core.engine.commands.Act`) of any plausible name, which the table refuses
    when its game has no such action (``malformed_command``, naming the game's actions)."""
    if not isinstance(value, dict):
        raise _wrong(kind, name, "an object")
    number = _whole(0, MAX_COMMAND_NUMBER)
    for key, item in value.items():
        if key != "kind" and not (key == "space" and item is None):
            number(kind, f"{name}.{str(key)[:MAX_NAME]}", item)
    action = value.get("kind")
    if isinstance(action, str) and action in COMMAND_TYPES:
        return command_from_dict(value)
    if not (isinstance(action, str) and len(action) <= MAX_ACT_NAME and is_action_name(action)):
        shown = action[:MAX_NAME] if isinstance(action, str) else type(action).__name__
        raise _wrong(
            kind,
            f"{name}.kind",
            f"play, draw, exchange or an action's name (a lower-case word), not {shown!r}",
        )
    fields = [key for key in value if key not in ("kind", "seat")]
    if len(fields) > MAX_ACT_FIELDS:
        raise _wrong(kind, name, f"a command of at most {MAX_ACT_FIELDS} fields besides its seat")
    for key in fields:
        if not (
            isinstance(key, str)
            and len(key) <= MAX_ACT_NAME
            and key.isascii()
            and key.isidentifier()
        ):
            shown = str(key)[:MAX_NAME]
            raise _wrong(
                kind, f"{name}.{shown}", f"named by a word of at most {MAX_ACT_NAME} letters"
            )
    return command_from_dict(value, actions=(action,))


def _act(kind: str, name: str, value: Any) -> Act:
    """A prompt's command of a declared action (never a built-in one: those have fields of
    their own)."""
    command = _command(kind, name, value)
    if not isinstance(command, Act):
        raise _wrong(kind, name, "the command of a declared action")
    return command


def _event(kind: str, name: str, value: Any) -> Event:
    try:
        return event_from_dict(value)
    except EventError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as exc:
        # The events' own checks are the record's; a frame must never get past them otherwise.
        raise _wrong(kind, name, f"an event ({type(exc).__name__})") from None


def _params(kind: str, name: str, value: Any) -> Params:
    if not isinstance(value, dict) or len(value) > 32:
        raise _wrong(kind, name, "an object of at most 32 parameters")
    for key, item in value.items():
        scalar = item is None or isinstance(item, str | bool | int) or _finite(item)
        whole_list = isinstance(item, list) and all(
            isinstance(i, int) and not isinstance(i, bool) for i in item
        )
        if not (scalar or whole_list):
            raise _wrong(kind, f"{name}.{key}", "text, a number, true, false, null or a list")
    return freeze(value)


def _finite(value: Any) -> bool:
    return isinstance(value, float) and math.isfinite(value)


def _play(kind: str, name: str, value: Any) -> tuple[int, tuple[int, ...]]:
    if not isinstance(value, list) or len(value) != 2:
        raise _wrong(kind, name, "a list of [card, [spaces]] pairs")
    card = _whole(0, MAX_COMMAND_NUMBER)(kind, name, value[0])
    spaces: tuple[int, ...] = _list(_whole(0, MAX_COMMAND_NUMBER), 1000)(kind, name, value[1])
    return card, spaces


@dataclass(frozen=True)
class Schema:
    """The fields of one message type: ``name → (reader, default)`` (no default: required).
    A *strict* schema (a request, from a client) refuses fields it does not know, so that a
    misspelt field is said rather than read as its default."""

    fields: dict[str, tuple[Reader, Any]]
    build: Callable[[dict[str, Any]], Message]
    strict: bool = False
    since: int = 1

    def read(self, kind: str, data: dict[str, Any]) -> Message:
        if self.strict:
            extra = sorted(str(key) for key in data if key not in self.fields)
            extra = [key for key in extra if key not in ("type", "v")]
            if extra:
                raise EventError(f"{kind}: unknown field {extra[0][:MAX_NAME]!r}")
        values: dict[str, Any] = {}
        for name, (reader, default) in self.fields.items():
            if name not in data:
                if default is _REQUIRED:
                    raise EventError(f"{kind}: field {name!r} is missing")
                values[name] = default
            else:
                values[name] = reader(kind, name, data[name])
        return self.build(values)


_SEQ = _whole(0, MAX_SEQ)
_SEQ_OR_NONE = _whole(-1, MAX_SEQ)
_TABLE = _text(MAX_NAME)
_BOT_NAME = _text(MAX_NAME)
_SECONDS = _number(0.0, 1e9)

#: The schema of every message type, by its ``type``.
SCHEMAS: dict[str, Schema] = {
    "event": Schema(
        {"table": (_TABLE, _REQUIRED), "seq": (_SEQ, _REQUIRED), "event": (_event, _REQUIRED)},
        lambda f: Envelope(f["table"], f["seq"], f["event"]),
    ),
    "prompt": Schema(
        {
            "table": (_TABLE, _REQUIRED),
            "seq": (_SEQ_OR_NONE, _REQUIRED),
            "seat": (_whole(0, MAX_COMMAND_NUMBER), _REQUIRED),
            "plays": (_list(_play, 1000), _REQUIRED),
            "can_draw": (_flag, _REQUIRED),
            "can_exchange": (_flag, _REQUIRED),
            "acts": (_list(_act, MAX_ACTS), ()),
        },
        lambda f: Prompt(
            f["table"],
            f["seq"],
            LegalActions(f["seat"], f["plays"], f["can_draw"], f["can_exchange"], f["acts"]),
        ),
    ),
    "accepted": Schema({"seq": (_SEQ_OR_NONE, _REQUIRED)}, lambda f: Accepted(f["seq"])),
    "refused": Schema(
        {"code": (_text(MAX_NAME), _REQUIRED), "params": (_optional(_params), None)},
        lambda f: Refused(f["code"], f["params"] or ()),
    ),
    "submit": Schema(
        {"command": (_command, _REQUIRED)}, lambda f: Submit(f["command"]), strict=True
    ),
    "check": Schema({"command": (_command, _REQUIRED)}, lambda f: Check(f["command"]), strict=True),
    "undo": Schema({"check": (_flag, False)}, lambda f: Undo(check=f["check"]), strict=True),
    "subscribe": Schema(
        {"after": (_SEQ_OR_NONE, _REQUIRED)}, lambda f: Subscribe(f["after"]), strict=True
    ),
    "hint": Schema(
        {
            "bots": (_list(_BOT_NAME, MAX_HINT_BOTS, least=1), Hint.bots),
            "seconds": (_number(0.0, MAX_HINT_SECONDS, above=True), Hint.seconds),
        },
        lambda f: Hint(f["bots"], f["seconds"]),
        strict=True,
    ),
    "hinted": Schema(
        {
            "command": (_command, _REQUIRED),
            "bot": (_BOT_NAME, _REQUIRED),
            "reason": (_optional(_text(4096)), None),
        },
        lambda f: Hinted(f["command"], f["bot"], f["reason"]),
    ),
    "clock": Schema(
        {
            "table": (_TABLE, _REQUIRED),
            "seq": (_SEQ_OR_NONE, _REQUIRED),
            "remaining": (_list(_SECONDS, 64), _REQUIRED),
            "running": (_optional(_whole(0, 63)), None),
            "reserve": (_SECONDS, _REQUIRED),
            "increment": (_SECONDS, _REQUIRED),
        },
        lambda f: Clock(
            f["table"], f["seq"], f["remaining"], f["running"], f["reserve"], f["increment"]
        ),
        since=2,
    ),
    "presence": Schema(
        {
            "table": (_TABLE, _REQUIRED),
            "seat": (_whole(0, 63), _REQUIRED),
            "code": (_text(MAX_NAME), _REQUIRED),
            "params": (_optional(_params), None),
        },
        lambda f: Presence(f["table"], f["seat"], f["code"], f["params"] or ()),
        since=2,
    ),
}
#: The types a client sends to a table; the others only a table sends.
REQUESTS = frozenset(name for name, schema in SCHEMAS.items() if schema.strict)


def message_from_dict(data: Any) -> Message:
    """Rebuild a message from its JSON form, checking every field against its type's schema
    (:data:`SCHEMAS`). Raises ``EventError`` saying what is wrong, and nothing else.

    >>> message_from_dict({"type": "hint", "v": 2, "bots": ["ismcts"], "seconds": float("nan")})
    Traceback (most recent call last):
    ...
    cinco.core.engine.errors.EventError: hint: field 'seconds' must be a number more than 0 to 10
    """
    if not isinstance(data, dict):
        raise EventError("a message must be a JSON object")
    kind = data.get("type")
    schema = SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        shown = kind[:MAX_NAME] if isinstance(kind, str) else type(kind).__name__
        raise EventError(f"unknown message type {shown!r}")
    assert isinstance(kind, str)
    version = data.get("v")
    if isinstance(version, bool) or version not in READS or version < schema.since:
        given = version if isinstance(version, int) else type(version).__name__
        raise EventError(
            f"{kind}: protocol version {given!r} is not supported "
            f"(this Cinco speaks version {PROTOCOL_VERSION})"
        )
    return schema.read(kind, data)


def _too_deep(text: str) -> bool:
    """Whether *text* nests arrays and objects deeper than :data:`MAX_DEPTH` (brackets inside
    strings do not count), found before decoding it: a deep frame costs no recursion."""
    depth = 0
    for token in _STRUCTURE.finditer(text):
        mark = token.group()
        if mark == '"':
            return False  # a string that never ends: not JSON, which the decoder says
        if mark in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif mark in "]}":
            depth -= 1
    return False


#: A whole string (skipped), a quote that starts no whole string, or a bracket.
_STRUCTURE = re.compile(r'"(?:[^"\\]|\\.)*+"|["\[\]{}]', re.DOTALL)


def message_from_json(frame: str | bytes) -> Message:
    """Read one frame of the protocol: UTF-8 JSON text, nested at most :data:`MAX_DEPTH` deep,
    read by :func:`message_from_dict`, with no number that is not finite. Raises
    ``EventError`` saying what is wrong, whatever the frame holds.

    >>> message_from_json('{"type": "subscribe", "v": 2, "after": -1}')
    Subscribe(after=-1)
    >>> message_from_json("[" * 100 + "]" * 100)
    Traceback (most recent call last):
    ...
    cinco.core.engine.errors.EventError: a message may nest arrays and objects at most 16 deep
    """
    return _finite_only(_decode(frame), message_from_dict)


def _decode(frame: str | bytes) -> Any:
    if isinstance(frame, bytes | bytearray):
        try:
            frame = bytes(frame).decode("utf-8")
        except UnicodeDecodeError:
            raise EventError("a message must be UTF-8 text") from None
    if _too_deep(frame):
        raise EventError(f"a message may nest arrays and objects at most {MAX_DEPTH} deep")
    try:
        # NaN, Infinity and numbers too large for a float (read as infinities) are let
        # through here, so that the schema says which field holds one.
        return json.loads(frame)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, or over 4300 digits
        raise EventError(f"a message must be JSON ({str(exc)[:100]})") from None


def request_from_json(frame: str | bytes) -> Submit | Check | Undo | Subscribe | Hint:
    """Read one frame a client sent to a table (:func:`message_from_json`): a request, never a
    message only a table sends (``prompt``, ``event``, ...). Raises ``EventError``."""
    data = _decode(frame)
    kind = data.get("type") if isinstance(data, dict) else None
    if isinstance(kind, str) and kind in SCHEMAS and kind not in REQUESTS:
        raise EventError(
            f"{kind}: only a table sends this; a client sends {', '.join(sorted(REQUESTS))}"
        )
    message = _finite_only(data, message_from_dict)
    assert isinstance(message, Submit | Check | Undo | Subscribe | Hint)
    return message


def _finite_only(data: Any, read: Callable[[Any], Message]) -> Message:
    """*read* (*data*), then refuse a number that is not finite anywhere in it: the schema
    names the field where it knows it, this catches the rest (in an event's options, say)."""
    message = read(data)
    if _has_non_finite(data):
        raise EventError(f"{message.type}: numbers must be finite (NaN and infinities are not)")
    return message


def _has_non_finite(data: Any) -> bool:
    if isinstance(data, float):
        return not math.isfinite(data)
    if isinstance(data, dict):
        return any(_has_non_finite(value) for value in data.values())
    if isinstance(data, list):
        return any(_has_non_finite(value) for value in data)
    return False
