"""Writing game records: JSON Lines, appended event by event as the game goes.

Each line is flushed as soon as it is written, so a killed process loses at most the event it
was writing. :class:`RecordFile` is what a :class:`~cinco.core.table.Table` keeps open: it only
ever appends (nothing is removed from a record), and it holds an advisory lock so that a second
Cinco cannot write the same game. :class:`RecordWriter` is the same as a plugin, for programs
that make a :class:`~cinco.core.game.Game` themselves::

    game = Game.new(config, plugins=[RecordWriter("game.jsonl")])
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from .errors import RecordError
from .events import Event
from .hookspecs import hookimpl
from .i18n import _
from .record import dumps, header

try:  # advisory locks: POSIX (Linux, macOS, Android); elsewhere records are not locked
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from .game import Game


class RecordWriter:
    """Writes one game's record to *path*.

    A new game's events arrive through ``cinco_event``. A game rebuilt from a record (resume)
    calls ``cinco_game_started`` with its events already in place: the writer then rewrites the
    record from them, atomically, and goes on appending.
    """

    def __init__(self, path: str | Path, **header_fields: Any) -> None:
        self.path = Path(path)
        self.header_fields = header_fields
        self._file: IO[str] | None = None

    def _open(self) -> IO[str]:
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("w", encoding="utf-8")
            self._write_line(json.dumps(header(**self.header_fields)))
        elif self._file.closed:
            self._file = self.path.open("a", encoding="utf-8")
        return self._file

    def _write_line(self, line: str) -> None:
        assert self._file is not None
        self._file.write(line + "\n")
        self._file.flush()

    @hookimpl
    def cinco_game_started(self, game: Game) -> None:
        if self._file is not None:
            return  # a new game: its opening events are already written
        # Rebuilt from events: write them all to a fresh file, then swap it in.
        temporary = self.path.with_name(self.path.name + ".tmp")
        temporary.parent.mkdir(parents=True, exist_ok=True)
        with temporary.open("w", encoding="utf-8") as out:
            out.write(json.dumps(header(**self.header_fields)) + "\n")
            for event in game.events:
                out.write(dumps(event) + "\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, self.path)
        self._file = self.path.open("a", encoding="utf-8")

    @hookimpl
    def cinco_event(self, game: Game, event: Event) -> None:
        self._open()
        self._write_line(dumps(event))

    @hookimpl
    def cinco_game_ended(self, game: Game) -> None:
        self.close()

    def close(self) -> None:
        if self._file is not None and not self._file.closed:
            self._file.close()


def _lock(file: IO[str], path: Path) -> None:
    if fcntl is None:
        return
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        file.close()
        raise RecordError(
            _(
                "{path} is open in another Cinco (a game being played or resumed there). Finish "
                "or quit that game first, or open a copy of the file."
            ).format(path=path)
        ) from None


class RecordFile:
    """An open game record that only grows: a header line, then one line per event."""

    def __init__(self, path: Path, file: IO[str]) -> None:
        self.path = path
        self._file = file

    @classmethod
    def create(
        cls, path: str | Path, events: Sequence[Event] = (), **header_fields: Any
    ) -> RecordFile:
        """A new record at *path* holding *events*. An existing file is never overwritten:
        it may be a saved game (:class:`~cinco.core.errors.RecordError` says so)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            file = path.open("x", encoding="utf-8")
        except FileExistsError:
            raise RecordError(
                _(
                    "{path} exists already, and it may be a saved game: choose another file, "
                    "or resume it with --resume."
                ).format(path=path)
            ) from None
        _lock(file, path)
        record = cls(path, file)
        record._write(json.dumps(header(**header_fields)))
        for event in events:
            record._write(dumps(event))
        return record

    @classmethod
    def reopen(cls, path: str | Path, keep: int) -> RecordFile:
        """The record at *path*, to go on writing after its first *keep* events. Lines after
        them (a turn cut short by a killed process, a line written halfway) are cut off: they
        never made a whole turn, and a turn is stored whole or not at all."""
        path = Path(path)
        file = path.open("r+", encoding="utf-8")
        _lock(file, path)
        offset = 0
        for _number in range(keep + 1):  # the header, then *keep* events
            line = file.readline()
            if not line.endswith("\n"):
                file.close()
                raise RecordError(_("{path} changed while it was being opened.").format(path=path))
            offset = file.tell()
        file.seek(offset)
        file.truncate()
        return cls(path, file)

    def _write(self, line: str) -> None:
        self._file.write(line + "\n")
        self._file.flush()

    def append(self, event: Event) -> None:
        """Write *event* (raises ``OSError`` when the disk says no)."""
        self._write(dumps(event))

    def sync(self) -> None:
        """Make what is written survive a power cut (a game's end, a quit)."""
        if not self._file.closed:
            self._file.flush()
            os.fsync(self._file.fileno())

    def close(self) -> None:
        if not self._file.closed:
            try:
                self.sync()
            finally:
                self._file.close()

    @property
    def closed(self) -> bool:
        return self._file.closed
