"""Game records: JSON Lines, a header line then one event per line (``docs/game-record.md``).

Reading checks the header, every event, and that the events make a legal game from the first
(:class:`~cinco.core.engine.verify.LogChecker`): the first line that breaks a rule is reported, with
the rule. A truncated last line (a process killed mid-write) loses only that event:
:func:`load_record` returns the valid prefix with a warning. Only regular files are read, and
lines and files have a size limit, so that no file makes the reader wait or fill the memory.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cinco import __version__
from cinco.core.engine.board import SPACES
from cinco.core.engine.config import PLAYER_COUNTS, STANDARD_LAYOUTS
from cinco.core.engine.errors import ConfigError, EventError, RecordError
from cinco.core.engine.events import (
    DeckShuffled,
    Event,
    GameStarted,
    HandDiscarded,
    event_from_dict,
)
from cinco.core.engine.params import MAX_HAND
from cinco.core.engine.projection import Item, Projection
from cinco.core.engine.verify import LogChecker, TurnError
from cinco.core.host.registry import Registry, default_registry
from cinco.core.words.i18n import _

if TYPE_CHECKING:
    from cinco.core.engine.config import GameConfig
    from cinco.core.engine.rules import RuleSet

FORMAT = "cinco-record"
#: Version of the record format (the header and the line layout).
FORMAT_VERSION = 1

#: The longest line a reader accepts, in bytes. A real line is at most a few hundred bytes
#: (the set-up shuffle, a configuration with long names).
MAX_LINE_BYTES = 64 * 1024
#: The largest file a reader accepts, in bytes: about ten times a 20,000-turn game.
MAX_FILE_BYTES = 64 * 1024 * 1024
#: How deeply the game options (the one free-form part of a record) may nest.
MAX_OPTIONS_DEPTH = 16

#: The header fields this Cinco knows, with their types. Other fields are kept apart, in
#: :attr:`Record.extra_header`, and never passed on (readers ignore what they do not know).
HEADER_FIELDS: dict[str, type] = {
    "format": str,
    "version": int,
    "cinco": str,
    "frontend": str,
    "table": str,
    #: The distribution that added each variant, where one did: ``{"hand5": {"distribution":
    #: "cinco-hand-of-five", "version": "1.0.0"}}``, so that a reader without it can say what
    #: to install (:meth:`cinco.core.host.registry.Registry.variant_sources`).
    "variants": dict,
    #: The same for a layout a plugin added: ``{"2x4": {"distribution": "cinco-eight", ...}}``.
    "layouts": dict,
}

#: The rule hooks of a variant that only changes game parameters: a record of it holds them,
#: so it is read (and resumed) without the plugin, with the standard rules and those numbers.
PARAMS_ONLY_HOOKS = frozenset({"cinco_game_params"})

#: P2: the numbers of teams the standard layouts give each player count (a record whose layout
#: is not installed must still have one of these).
STANDARD_TEAMS: dict[int, tuple[int, ...]] = {
    count: tuple(teams for players, teams in STANDARD_LAYOUTS.values() if players == count)
    for count in PLAYER_COUNTS
}


def header(**extra: Any) -> dict[str, Any]:
    return {"format": FORMAT, "version": FORMAT_VERSION, "cinco": __version__, **extra}


def dumps(event: Event) -> str:
    """One record line (without the newline)."""
    return json.dumps(event.to_dict(), separators=(",", ":"))


@dataclass
class Record:
    """A loaded record: its header, its events, and anything worth telling about it."""

    #: The header fields this Cinco knows (:data:`HEADER_FIELDS`), each of its type.
    header: dict[str, Any]
    events: list[Event]
    warnings: list[str] = field(default_factory=list)
    #: Whether the last line was cut short and left out.
    truncated: bool = False
    #: The other header fields, as read: information only, never passed on.
    extra_header: dict[str, Any] = field(default_factory=dict)


class _NotJSON(ValueError):
    """A value JSON allows Python to read but a record never holds (NaN, Infinity)."""


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotJSON(text)
    return value


def _constant(text: str) -> Any:
    raise _NotJSON(text)


def _too_long(line: str) -> bool:
    # A character is at most four bytes: most lines need no encoding to be measured.
    return len(line) > MAX_LINE_BYTES // 4 and (
        len(line) > MAX_LINE_BYTES or len(line.encode("utf-8", "surrogatepass")) > MAX_LINE_BYTES
    )


def _parse_line(text: str, number: int) -> Any:
    """The JSON value of line *number*. Raises :class:`RecordError`; a line that is not JSON
    at all raises it with ``__context__`` a :class:`json.JSONDecodeError` (it may be cut short).
    """
    if _too_long(text):
        raise RecordError(
            _(
                "the line is longer than {limit} KiB; no Cinco record has such lines. The file is "
                "damaged or is not a game record."
            ).format(limit=MAX_LINE_BYTES // 1024),
            number,
        )
    try:
        return json.loads(text, parse_float=_finite, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise RecordError(_("not valid JSON ({error})").format(error=exc.msg), number) from exc
    except _NotJSON as exc:
        raise RecordError(
            _("the number {value} is not allowed in a record").format(value=exc), number
        ) from None
    except RecursionError:
        raise RecordError(
            _("the line nests lists or objects too deeply; no Cinco record does that"), number
        ) from None
    except ValueError:  # an integer of thousands of digits (Python's int conversion limit)
        raise RecordError(
            _("the line holds a number with thousands of digits; no Cinco record does that"),
            number,
        ) from None


def _depth(value: Any, limit: int) -> bool:
    """Whether *value* (parsed JSON) nests no deeper than *limit*."""
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            if level > limit:
                return False
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level + 1) for child in children)
    return True


def _optional(value: Any, kind: type) -> bool:
    return value is None or (isinstance(value, kind) and not isinstance(value, bool))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _config_problem(config: Any) -> str | None:
    """What is wrong with the types of a ``game_started`` line's raw ``config``, or ``None``.

    :meth:`GameConfig.from_dict` converts what it is given (``int("7")``, ``int(2.5)``); a
    record holds exact types, and a value that cannot be converted must be an error, not a
    crash."""
    if not isinstance(config, dict):
        return None  # event_from_dict says so
    problem = _seats_problem(config.get("seats"))
    if problem is not None:
        return problem
    if not _whole(config.get("teams")):
        return _("config: 'teams' must be a whole number")
    if not isinstance(config.get("layout"), str):
        return _("config: 'layout' must be text")
    variants = config.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        return _("config: 'variants' must be a list of names")
    for name in ("seed", "first_seat", "turn_limit"):
        if not _optional(config.get(name), int):
            return _("config: {name!r} must be a whole number or null").format(name=name)
    options = config.get("options")
    if options is not None and not isinstance(options, dict):
        return _("config: 'options' must be an object")
    if not _depth(options, MAX_OPTIONS_DEPTH):
        return _("config: 'options' nest deeper than {n} levels").format(n=MAX_OPTIONS_DEPTH)
    return None


def _seats_problem(seats: Any) -> str | None:
    """What is wrong with the types of a raw configuration's ``seats``, or ``None``."""
    if not isinstance(seats, list) or not all(isinstance(seat, dict) for seat in seats):
        return _("config: 'seats' must be a list of seats")
    for seat in seats:
        if not isinstance(seat.get("name"), str):
            return _("config: each seat must have a name (text)")
        if not _optional(seat.get("bot"), str) or not _optional(seat.get("level"), str):
            return _("config: a seat's bot and level must be text or null")
    return None


def _hidden_problem(event: Event) -> str | None:
    """A hidden field (a player's view) whose count is more than any pile or hand holds: the
    fold would make that many unknown cards."""
    if isinstance(event, DeckShuffled) and event.order is None and not 0 <= event.size <= SPACES:
        return _("a shuffle of {n} cards: there are {all}").format(n=event.size, all=SPACES)
    if (
        isinstance(event, HandDiscarded)
        and event.cards is None
        and not 0 <= event.count <= MAX_HAND
    ):
        return _("a hand of {n} cards discarded: a hand holds at most {limit}").format(
            n=event.count, limit=MAX_HAND
        )
    return None


def _split_header(head: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    known: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in head.items():
        kind = HEADER_FIELDS.get(key)
        if kind is not None and isinstance(value, kind) and not isinstance(value, bool):
            known[key] = value
        else:
            extra[key] = value
    return known, extra


def _install(names: list[str], sources: Any) -> tuple[list[str], list[str]]:
    """Each of *names* as a message names it (with the distribution and entry point the
    record's header gives), and the ``pip install`` arguments that bring them."""
    sources = sources if isinstance(sources, dict) else {}
    shown: list[str] = []
    installs: list[str] = []
    for name in names:
        source = sources.get(name)
        dist = source.get("distribution") if isinstance(source, dict) else None
        version = source.get("version") if isinstance(source, dict) else None
        entry = source.get("entry_point") if isinstance(source, dict) else None
        if not isinstance(dist, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", dist):
            shown.append(repr(name))
            continue
        good = isinstance(version, str) and re.fullmatch(r"[0-9][0-9A-Za-z.+-]*", version)
        where = f"{dist}{f' {version}' if good else ''}"
        if isinstance(entry, str) and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", entry):
            where += _(", entry point {name}").format(name=entry)
        shown.append(f"{name!r} (from {where})")
        installs.append(f"'{dist}>={version}'" if good else dist)
    return shown, list(dict.fromkeys(installs))


def _missing_variants(missing: list[str], sources: Any) -> str:
    """What to say of variants a record needs and this installation lacks: each with the
    distribution the record says added it, and the ``pip install`` that brings it.

    >>> message = _missing_variants(
    ...     ["hand5"], {"hand5": {"distribution": "cinco-hand5", "version": "1.0.0"}}
    ... )
    >>> "'hand5' (from cinco-hand5 1.0.0)" in message
    True
    >>> "Install it (pip install 'cinco-hand5>=1.0.0'), then load" in message
    True
    """
    names, installs = _install(missing, sources)
    if installs:
        how = _("Install it (pip install {dists}), then load the record again.").format(
            dists=" ".join(installs)
        )
    else:
        how = _(
            "Install the plugin that adds it (its authors' package; `cinco plugins` lists what "
            "is installed), then load the record again."
        )
    return _(
        "this game was played with the variant {names}, which is not installed here, so its "
        "moves cannot be checked. {how}"
    ).format(names=", ".join(names), how=how)


def params_only(missing: list[str], sources: Any) -> bool:
    """Whether the record's header says each of the variants *missing* changes only game
    parameters (its rule hooks are :data:`PARAMS_ONLY_HOOKS` at most).

    >>> params_only(["hand5"], {"hand5": {"hooks": ["cinco_game_params"]}})
    True
    >>> params_only(["lucky7"], {"lucky7": {"hooks": ["cinco_legal_spaces"]}})
    False
    >>> params_only(["x"], {})  # an older record: its header does not say
    False
    """
    if not isinstance(sources, dict):
        return False
    for name in missing:
        source = sources.get(name)
        hooks = source.get("hooks") if isinstance(source, dict) else None
        if not isinstance(hooks, list) or not set(hooks) <= PARAMS_ONLY_HOOKS:
            return False
    return True


def _stand_in_warning(missing: list[str], sources: Any) -> str:
    names, installs = _install(missing, sources)
    how = (
        _("To play new games of it: pip install {dists}.").format(dists=" ".join(installs))
        if installs
        else _("To play new games of it, install the plugin that adds it.")
    )
    return _(
        "the variant {names} is not installed here; it only changes the game's numbers, which "
        "this record holds, so the record is read (and can be resumed) with them. {how}"
    ).format(names=", ".join(names), how=how)


def _check_config(
    config: GameConfig,
    registry: Registry,
    sources: Any = None,
    warnings: list[str] | None = None,
    layouts: Any = None,
) -> RuleSet:
    """The rules of a game with *config*, after checking its layout (P2) and that its variants
    are installed (*sources*: the header's ``variants``, saying what to install; *layouts*:
    its ``layouts``). A variant that is not installed but changes only game parameters (as
    the header says) is read with the recorded ones: *warnings* is told so. Raises
    :class:`RecordError` (line 2)."""
    players, teams = config.players, config.teams
    layout = registry.layouts().get(config.layout)
    if layout is not None and (layout.players, layout.teams) != (players, teams):
        raise RecordError(
            _(
                "the layout {name!r} is {lp} players in {lt} teams, but this game has {players} "
                "players in {teams} teams (rule P2)"
            ).format(
                name=config.layout, lp=layout.players, lt=layout.teams, players=players, teams=teams
            ),
            2,
        )
    if layout is None and teams not in STANDARD_TEAMS.get(players, ()):
        shown, installs = _install([config.layout], layouts)
        how = (
            _("Install it (pip install {dists}), then load the record again.").format(
                dists=" ".join(installs)
            )
            if installs
            else _("Install the plugin that adds it, then load the record again.")
        )
        raise RecordError(
            _(
                "{players} players in {teams} teams is not a layout of the rules (P2), and the "
                "layout {name} is not installed here. {how}"
            ).format(players=players, teams=teams, name=shown[0], how=how),
            2,
        )
    known = registry.variants()
    missing = [name for name in config.variants if name not in known]
    if missing and not params_only(missing, sources):
        raise RecordError(_missing_variants(missing, sources), 2)
    if missing:
        for name in missing:
            registry.stand_in(name)
        if warnings is not None:
            warnings.append(_stand_in_warning(missing, sources))
    try:
        return registry.rules_for(config, shared=True)
    except ConfigError as exc:
        raise RecordError(str(exc), 2) from None


def _decode(data: Any) -> Event:
    if isinstance(data, dict) and data.get("type") == GameStarted.type:
        problem = _config_problem(data.get("config"))
        if problem is not None:
            raise EventError(f"{GameStarted.type}: {problem}")
    event = event_from_dict(data)
    problem = _hidden_problem(event)
    if problem is not None:
        raise EventError(f"{event.type}: {problem}")
    return event


class _Reader:
    """Takes a record's events one line at a time: the fold, or the whole rule check."""

    def __init__(
        self, registry: Registry | None, check_rules: bool, head: dict[str, Any] | None = None
    ) -> None:
        self.registry = registry
        self.check_rules = check_rules
        head = head or {}
        self.sources = head.get("variants")
        self.layouts = head.get("layouts")
        #: What to tell about the record (a variant read without its plugin).
        self.warnings: list[str] = []
        self.checker: LogChecker | None = None
        #: The fold (without the rule check): the record is the referee's stream, numbered
        #: by line (an undo costs no re-fold).
        self.projection: Projection[Item] | None = None

    def take(self, event: Event) -> None:
        if self.checker is not None:
            self.checker.feed(event)
        elif self.projection is not None:
            self.projection.take(Item(self.projection.seq + 1, event))
        elif not isinstance(event, GameStarted):
            raise EventError(
                _("the first event must be game_started, not {kind}").format(kind=event.type)
            )
        elif self.check_rules:
            registry = self.registry if self.registry is not None else default_registry()
            rules = _check_config(event.config, registry, self.sources, self.warnings, self.layouts)
            self.checker = LogChecker(event, rules)
        else:
            self.projection = Projection()
            self.projection.take(Item(0, event))


def loads(
    text: str,
    source: str = "record",
    *,
    registry: Registry | None = None,
    check_rules: bool = True,
) -> Record:
    """Read a record from its text. Raises :class:`RecordError` with the line at fault.

    With *check_rules* (the default) the record must be a legal game from its first event:
    the set-up (P5, S1), the layout (P2), and every turn against the rules of the game's
    variants, as installed in *registry* (by default
    :func:`~cinco.core.host.registry.default_registry`); a variant that is not installed is an
    error. Without it, only the format and the fold (cards and board) are checked.
    """
    if len(text) > MAX_FILE_BYTES:
        raise RecordError(_too_big(source))
    lines = text.split("\n")
    ends_cleanly = text.endswith("\n")
    if ends_cleanly:
        lines.pop()
    if not lines or not lines[0].strip():
        raise RecordError(
            _("{source} is empty: it is not a Cinco game record.").format(source=source)
        )
    known, extra = _split_header(_read_header(lines[0]))
    record = Record(header=known, events=[], extra_header=extra)
    reader = _Reader(registry, check_rules, known)
    for number, line in enumerate(lines[1:], start=2):
        last = number == len(lines)
        if not line.strip():
            if last:
                continue
            raise RecordError(_("empty line inside the record"), number)
        try:
            data = _parse_line(line, number)
        except RecordError as exc:
            if last and not ends_cleanly and isinstance(exc.__cause__, json.JSONDecodeError):
                record.truncated = True
                record.warnings.append(
                    _(
                        "line {n} was cut short (the game was interrupted while saving); "
                        "the record was read up to line {prev}."
                    ).format(n=number, prev=number - 1)
                )
                break
            raise RecordError(exc.reason, number) from None
        record.events.append(_take_line(reader, data, number))
        if reader.warnings:
            record.warnings += reader.warnings
            reader.warnings.clear()
    if not record.events:
        raise RecordError(_("the record holds no events: the game never started."))
    return record


def _read_header(line: str) -> dict[str, Any]:
    """The record's header (its first *line*), checked: a Cinco record, of a version this
    Cinco reads."""
    try:
        head = _parse_line(line.removeprefix("\ufeff"), 1)
    except RecordError as exc:
        raise RecordError(exc.reason, 1) from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise RecordError(_("this is not a Cinco game record (no record header)."), 1)
    version = head.get("version")
    if not _whole(version) or version != FORMAT_VERSION:
        raise RecordError(
            _(
                "record format version {v!r} is not supported; this Cinco reads version "
                "{ours}. Upgrade Cinco to read it."
            ).format(v=version, ours=FORMAT_VERSION),
            1,
        )
    return head


def _take_line(reader: _Reader, data: Any, number: int) -> Event:
    """The event of line *number* (its parsed JSON, *data*), taken by *reader*; any fault is
    a :class:`RecordError` naming the line."""
    try:
        event = _decode(data)
        reader.take(event)
    except RecordError:
        raise
    except TurnError as exc:
        raise RecordError(exc.reason, number) from None
    except (EventError, ConfigError) as exc:
        raise RecordError(str(exc), number) from None
    except (ArithmeticError, AttributeError, LookupError, TypeError, ValueError) as exc:
        # A bug in Cinco rather than in the record; still a clean error, never a crash.
        raise RecordError(
            _("this line could not be checked ({error}); please report it").format(
                error=f"{type(exc).__name__}: {exc}"
            ),
            number,
        ) from exc
    return event


def _too_big(source: str) -> str:
    return _(
        "{source} is larger than {limit} MiB; no Cinco record is that large. It is damaged or "
        "is not a game record."
    ).format(source=source, limit=MAX_FILE_BYTES // (1024 * 1024))


def _read(path: Path) -> str:
    """The text of the regular file at *path*, read without waiting (a pipe, a device) and
    without reading more than :data:`MAX_FILE_BYTES`."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        raise RecordError(_("no such file: {path}").format(path=path)) from None
    except IsADirectoryError:
        raise RecordError(_not_a_file(path)) from None
    except OSError as exc:
        raise RecordError(
            _("cannot read {path}: {error}").format(path=path, error=exc.strerror)
        ) from None
    try:
        with os.fdopen(descriptor, "rb") as file:
            info = os.fstat(file.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise RecordError(_not_a_file(path))
            if info.st_size > MAX_FILE_BYTES:
                raise RecordError(_too_big(str(path)))
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise RecordError(
            _("cannot read {path}: {error}").format(path=path, error=exc.strerror)
        ) from None
    if len(data) > MAX_FILE_BYTES:
        raise RecordError(_too_big(str(path)))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(
            _("{path} is not a text file: it is not a Cinco game record.").format(path=path)
        ) from None


def _not_a_file(path: Path) -> str:
    return _(
        "{path} is not a regular file (a folder, a pipe or a device): a game record is a file. "
        "Give the path of a .jsonl record."
    ).format(path=path)


def load_record(
    path: str | Path, *, registry: Registry | None = None, check_rules: bool = True
) -> Record:
    """Read the record at *path*; see :func:`loads`."""
    path = Path(path)
    return loads(_read(path), source=str(path), registry=registry, check_rules=check_rules)
