"""Game records: JSON Lines, a header line then one event per line (``docs/game-record.md``).

Reading checks the header, every event, and that the events make a consistent game. A
truncated last line (a process killed mid-write) loses only that event: :func:`load_record`
returns the valid prefix with a warning.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import ConfigError, EventError, RecordError
from .events import Event, GameStarted, event_from_dict
from .i18n import _
from .state import HAND_LIMIT, evolve, start

if TYPE_CHECKING:
    from .registry import Registry

FORMAT = "cinco-record"
#: Version of the record format (the header and the line layout).
FORMAT_VERSION = 1


def header(**extra: Any) -> dict[str, Any]:
    from cinco import __version__

    return {"format": FORMAT, "version": FORMAT_VERSION, "cinco": __version__, **extra}


def dumps(event: Event) -> str:
    """One record line (without the newline)."""
    return json.dumps(event.to_dict(), separators=(",", ":"))


@dataclass
class Record:
    """A loaded record: its header, its events, and anything worth telling about it."""

    header: dict[str, Any]
    events: list[Event]
    warnings: list[str] = field(default_factory=list)
    #: Whether the last line was cut short and left out.
    truncated: bool = False


def _parse_line(text: str, number: int) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(_("not valid JSON ({error})").format(error=exc.msg), number) from None


def loads(
    text: str,
    source: str = "record",
    *,
    registry: Registry | None = None,
    check_rules: bool = True,
) -> Record:
    """Read a record from its text. Raises :class:`RecordError` with the line at fault.

    With *check_rules* every turn is also checked against the rules of the game's variants,
    as installed in *registry* (by default :func:`~cinco.core.registry.default_registry`).
    """
    lines = text.split("\n")
    ends_cleanly = text.endswith("\n")
    if ends_cleanly:
        lines.pop()
    if not lines or not lines[0].strip():
        raise RecordError(
            _("{source} is empty: it is not a Cinco game record.").format(source=source)
        )
    head = _parse_line(lines[0], 1)
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise RecordError(_("this is not a Cinco game record (no record header)."), 1)
    if head.get("version") != FORMAT_VERSION:
        raise RecordError(
            _(
                "record format version {v!r} is not supported; this Cinco reads version "
                "{ours}. Upgrade Cinco to read it."
            ).format(v=head.get("version"), ours=FORMAT_VERSION),
            1,
        )
    record = Record(header=head, events=[])
    state = None
    for number, line in enumerate(lines[1:], start=2):
        last = number == len(lines)
        if not line.strip():
            if last:
                continue
            raise RecordError(_("empty line inside the record"), number)
        try:
            data = _parse_line(line, number)
            event = event_from_dict(data)
            if state is None:
                if not isinstance(event, GameStarted):
                    raise EventError(_("the first event must be game_started"))
                state = start(event)
            else:
                state = evolve(state, event)
        except (RecordError, EventError) as exc:
            if last and not ends_cleanly:
                record.truncated = True
                record.warnings.append(
                    _(
                        "line {n} was cut short (the game was interrupted while saving); "
                        "the record was read up to line {prev}."
                    ).format(n=number, prev=number - 1)
                )
                break
            reason = exc.reason if isinstance(exc, RecordError) else str(exc)
            raise RecordError(reason, number) from None
        record.events.append(event)
    if not record.events:
        raise RecordError(_("the record holds no events: the game never started."))
    if check_rules:
        from .registry import default_registry

        _check_rules(record, registry if registry is not None else default_registry())
    return record


def _check_rules(record: Record, registry: Registry) -> None:
    """Refuse a record whose turns break the rules (a tampered or foreign record)."""
    from .verify import TurnError, check_turns

    started = record.events[0]
    assert isinstance(started, GameStarted)
    try:
        rules = registry.rules_for(started.config, shared=True)
    except ConfigError as exc:
        # Its variant is not installed here: the record can still be read and shown.
        record.warnings.append(
            _("{error} Its turns were not checked against the rules.").format(error=exc)
        )
        return
    setup = 2 + HAND_LIMIT * started.config.players
    if len(record.events) <= setup:
        return
    try:
        check_turns(record.events, rules, setup)
    except TurnError as exc:
        # Line 1 is the header: event i (0-based) is on line i + 2.
        raise RecordError(exc.reason, exc.index + 2) from None


def load_record(
    path: str | Path, *, registry: Registry | None = None, check_rules: bool = True
) -> Record:
    """Read the record at *path*; see :func:`loads`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(_("no such file: {path}").format(path=path)) from None
    except UnicodeDecodeError:
        raise RecordError(
            _("{path} is not a text file: it is not a Cinco game record.").format(path=path)
        ) from None
    except OSError as exc:
        raise RecordError(
            _("cannot read {path}: {error}").format(path=path, error=exc.strerror)
        ) from None
    return loads(text, source=str(path), registry=registry, check_rules=check_rules)
