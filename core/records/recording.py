"""Writing game records: JSON Lines, appended event by event as the game goes.

Each line is flushed as soon as it is written, so a killed process loses at most the event it
was writing. :class:`RecordFile` is what a :class:`~cinco.core.table.table.Table` keeps open: it
only
ever appends (nothing is removed from a record), and it holds an advisory lock so that a second
Cinco cannot write the same game. :class:`RecordWriter` is the same as a plugin, for programs
that make a :class:`~cinco.core.game.game.Game` themselves::

    game = Game.new(config, plugins=[RecordWriter("game.jsonl")])
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from cinco.core.engine.errors import RecordError
from cinco.core.engine.events import Event
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.records.record import dumps, header
from cinco.core.words.i18n import _

try:  # advisory locks: POSIX (Linux, macOS, Android); elsewhere records are not locked
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from cinco.core.game.game import Game


class RecordWriter:
    """Writes one game's record to *path*.

    ``cinco_game_started`` comes first (hook API 2 order): a new game's record is opened
    there, with its header, and every event then arrives through ``cinco_event``. A game
    rebuilt from a record (resume, ``game.resumed``) holds its events already: the writer
    then rewrites the record from them, atomically, and goes on appending. The header names
    the distribution and entry point of each variant and layout the game needs
    (:meth:`~cinco.core.host.loader.PluginLoader.record_sources`), whoever made the game.
    """

    def __init__(self, path: str | Path, **header_fields: Any) -> None:
        self.path = Path(path)
        self.header_fields = header_fields
        self._file: IO[str] | None = None

    def _header(self, game: Game | None) -> str:
        fields = dict(self.header_fields)
        if game is not None:
            for key, value in game.registry.record_sources(game.config).items():
                fields.setdefault(key, value)
        return json.dumps(header(**fields))

    def _open(self, game: Game | None = None) -> IO[str]:
        if self._file is None:
            private_dir(self.path.parent)
            self._file = private_open(self.path, "w")
            self._write_line(self._header(game))
        elif self._file.closed:
            self._file = private_open(self.path, "a")
        return self._file

    def _write_line(self, line: str) -> None:
        assert self._file is not None
        self._file.write(line + "\n")
        self._file.flush()

    @hookimpl
    def cinco_game_started(self, game: Game) -> None:
        if self._file is not None:
            return  # started twice (a plugin calling the hook itself): already open
        if not game.resumed:
            self._open(game)  # a new game: its events follow, through cinco_event
            return
        # Rebuilt from events: write them all to a fresh file, then swap it in.
        temporary = self.path.with_name(self.path.name + ".tmp")
        private_dir(temporary.parent)
        with private_open(temporary, "w") as out:
            out.write(self._header(game) + "\n")
            for event in game.events:
                out.write(dumps(event) + "\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, self.path)
        self._file = private_open(self.path, "a")

    @hookimpl
    def cinco_event(self, game: Game, event: Event) -> None:
        self._open(game)
        self._write_line(dumps(event))

    @hookimpl
    def cinco_game_ended(self, game: Game) -> None:
        self.close()

    def close(self) -> None:
        if self._file is not None and not self._file.closed:
            self._file.close()


#: Who may read a record or a server's database: its owner only. They hold each game's seed and
#: deck order in clear, which would tell another local user every card still to come.
FILE_MODE = 0o600
#: The folders Cinco makes for them: its owner only, too.
DIR_MODE = 0o700


def private_dir(folder: Path) -> None:
    """Make *folder* and its missing parents, each readable by its owner only (one that is
    there already is left as it is: it may be shared on purpose)."""
    missing = []
    for parent in (folder, *folder.parents):
        if parent.exists():
            break
        missing.append(parent)
    for made in reversed(missing):
        with contextlib.suppress(FileExistsError):  # made meanwhile by another process
            made.mkdir(mode=DIR_MODE)
            os.chmod(made, DIR_MODE)  # mkdir's mode is cut by the umask; this one is not


def private_open(path: Path, mode: str, *, exclusive: bool = False) -> IO[str]:
    """*path* opened as :func:`open` would with *mode* (``"w"``, ``"a"`` or ``"r+"``), but a
    file it creates is its owner's only (:data:`FILE_MODE`); *exclusive*: an existing file
    raises :class:`FileExistsError`."""
    flags = {"w": os.O_WRONLY | os.O_CREAT | os.O_TRUNC, "a": os.O_WRONLY | os.O_CREAT}.get(
        mode, os.O_RDWR
    )
    if mode == "a":
        flags |= os.O_APPEND
    if exclusive:
        flags |= os.O_CREAT | os.O_EXCL
    descriptor = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    return os.fdopen(descriptor, mode, encoding="utf-8")


def try_lock(descriptor: int) -> bool:
    """Take the advisory lock of the open file *descriptor* for this process, without waiting:
    False if another open file (another Cinco) holds it. It lasts until the file is closed
    (or the process ends, however it ends: a ``kill -9`` leaves no stale lock)."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _lock(file: IO[str], path: Path) -> None:
    if not try_lock(file.fileno()):
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
        it may be a saved game (:class:`~cinco.core.engine.errors.RecordError` says so)."""
        path = Path(path)
        private_dir(path.parent)
        try:
            file = private_open(path, "w", exclusive=True)
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
        with contextlib.suppress(OSError):  # a record made before records were private
            mode = os.fstat(file.fileno()).st_mode
            if mode & 0o077:
                os.fchmod(file.fileno(), mode & 0o700)
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
