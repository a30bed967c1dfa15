"""The server's store: SQLite (stdlib ``sqlite3``, WAL mode) with three tables.

``tables`` holds each table's settings and the hashes of its invite, watch and owner codes;
``seats`` each seat's player and the hash of its seat token (never the token); ``events`` the
referee's log, append-only, one row per event in the game record's JSON. A table's events are
written by an :class:`SqliteSink` in the table's own thread, one transaction per turn,
committed before anyone is sent them (``synchronous=FULL``: a commit is on disk). Every
change goes through the file's one :class:`~cinco.frontends.net.writer.Writer` thread; one
that cannot be written raises :class:`CannotWrite`, having stored nothing of it.

A store holds the file's lock (:func:`lock`) while it is open: one server process per file.
The file and its ``-wal`` and ``-shm`` files are their owner's only (:func:`keep_private`).
A file that cannot be used raises :class:`StoreError` at the start, saying why.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "cinco.db")
>>> store = Store(path)
>>> store.add_table("t1", {"players": 2}, ("i", "w", "o"), [("Ann", None, None)] * 2)
>>> [row.id for row in store.tables()], store.seats("t1")[0].name
(['t1'], 'Ann')
>>> store.close()
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cinco.core.engine.events import Event
from cinco.core.records.record import dumps
from cinco.core.records.recording import FILE_MODE, private_dir, try_lock

from .seats import digest
from .writer import CannotWrite, Job, Statement, Writer, connect

__all__ = [
    "CannotWrite",
    "HeldElsewhere",
    "SeatRow",
    "SqliteSink",
    "Store",
    "StoreError",
    "TableRow",
    "digest",
]

logger = logging.getLogger("cinco.server")

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created DOUBLE PRECISION NOT NULL,  -- SQLite reads it as REAL; PostgreSQL shares it
    settings TEXT NOT NULL,
    invite_hash TEXT NOT NULL UNIQUE,
    watch_hash TEXT NOT NULL UNIQUE,
    owner_hash TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'waiting',
    rematch TEXT,
    clocks TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    name TEXT,
    bot TEXT,
    level TEXT,
    token_hash TEXT,
    held TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
"""
#: Columns added since the first schema: a database made before gets them at open.
ADDED = (("tables", "rematch", "TEXT"), ("seats", "held", "TEXT"), ("tables", "clocks", "TEXT"))


class HeldElsewhere(OSError):
    """A write refused because another server process holds the table (PostgreSQL's leases):
    not answered by the route but by the cluster's middleware, which sends the client on."""


class StoreError(OSError):
    """The store cannot be used (at a server's start): what is wrong, and what to do."""


#: The database files this process holds the lock of: lock file's descriptor, and how many
#: of this process's stores use it (a tool or a test may open a second one beside a server).
_HELD: dict[Path, list[int]] = {}
_HELD_LOCK = threading.Lock()


def lock(path: Path) -> Path:
    """Take the lock of the SQLite file *path* for this process, or raise
    :class:`StoreError`: one server per file. Two would each hold their own copy of a table
    and answer the same turn twice (SQLite's own locks keep the file whole, not the game).
    The lock is an advisory lock (:func:`cinco.core.records.recording.try_lock`, as for records) on
    ``PATH.lock`` beside the file, which holds the process id of its holder; the operating
    system lets it go when the process ends, however it ends. Returns what :func:`unlock`
    takes, once every store of this process on *path* is closed."""
    key = path.resolve()
    with _HELD_LOCK:
        held = _HELD.get(key)
        if held is not None:
            held[1] += 1
            return key
        _HELD[key] = [_take(path), 1]
    return key


def unlock(key: Path) -> None:
    with _HELD_LOCK:
        held = _HELD[key]
        held[1] -= 1
        if not held[1]:
            del _HELD[key]
            os.close(held[0])  # the next server may have the file


def _take(path: Path) -> int:
    path_lock = path.with_name(path.name + ".lock")
    try:
        held = os.open(path_lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, FILE_MODE)
    except OSError as exc:
        try:  # a read-only folder: lock the file there all the same; SQLite will say more
            held = os.open(path_lock, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            raise StoreError(
                f"{path}: its folder is read-only for this server: the lock file {path_lock}"
                f" cannot be made ({exc.strerror or exc}). Make the folder writable by the user"
                " who runs cinco serve, or give --db a file in another folder"
            ) from None
    if not try_lock(held):
        holder = os.read(held, 32).decode("ascii", "replace").strip()
        os.close(held)
        raise StoreError(
            f"{path} is in use by another cinco serve"
            + (f" (process {holder})" if holder.isdigit() else "")
            + ": stop that server first, or give this one another --db. One SQLite file"
            " serves one process; several servers share a PostgreSQL database."
        )
    with contextlib.suppress(OSError):  # read-only: the message says who has it, if it can
        os.ftruncate(held, 0)
        os.write(held, f"{os.getpid()}\n".encode("ascii"))
    return held


def keep_private(path: Path) -> None:
    """Make the database *path* and its ``-wal`` and ``-shm`` files readable by their owner
    only: they hold every game's seed and deck order in clear. A new database is made so
    (SQLite gives its other files the database's mode); one made before is closed up."""
    if not path.exists():
        with contextlib.suppress(OSError):  # a read-only folder: SQLite will say so
            os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, FILE_MODE))
    for name in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            mode = name.stat().st_mode
            if mode & 0o077:  # the owner's bits stay: a read-only file stays read-only
                os.chmod(name, mode & 0o700)
        except FileNotFoundError:
            continue
        except OSError as exc:  # another user's file: say so, it is theirs to change
            logger.warning("%s is readable by other users, and cannot be changed: %s", name, exc)


def _read_only(path: Path) -> bool:
    """Whether this process may not write *path* (if it is there) or its folder."""
    return any(place.exists() and not os.access(place, os.W_OK) for place in (path, path.parent))


def unusable(path: Path, exc: sqlite3.Error) -> str:
    """What an SQLite error at a server's start means, and what to do about it."""
    text = str(exc)
    if isinstance(exc, sqlite3.DatabaseError) and "not a database" in text:
        return (
            f"{path} is not a Cinco server database, or it is damaged ({text}): give --db"
            " another file, or move this one away (or restore it from a backup) and start again"
        )
    if "readonly" in text or "read-only" in text or _read_only(path):
        return (
            f"{path} is read-only for this server ({text}): make the file and its folder"
            " writable by the user who runs cinco serve, or give --db another file"
        )
    if "unable to open" in text:
        return (
            f"{path} cannot be opened ({text}): is it a folder, or is its folder not writable"
            " (SQLite makes its -wal and -shm files there)? Give --db another file"
        )
    if "full" in text:
        return f"{path} cannot be written: the disk is full ({text}). Free some space first"
    return f"{path} cannot be used as the server's database ({text}): give --db another file"


@dataclass(frozen=True)
class TableRow:
    id: str
    created: float
    settings: dict[str, Any]
    invite_hash: str
    watch_hash: str
    owner_hash: str
    state: str
    #: The id of this table's rematch, once one was asked for.
    rematch: str | None = None


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str | None
    bot: str | None
    level: str | None
    token_hash: str | None
    #: A rematch's seat kept for its person: the hash of their token at the first table.
    held: str | None = None


class Store:
    """The lobby's side of the database (the server's event loop; a lock makes it safe from
    other threads too). It reads on a connection of its own; what it changes, and every
    table's events (:meth:`sink`), go through the file's one :class:`Writer`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            private_dir(self.path.parent)
        except OSError as exc:
            raise StoreError(
                f"{self.path}: its folder cannot be made ({exc.strerror or exc}): give --db a"
                " file in a folder this user may write"
            ) from None
        self._lock = threading.Lock()
        # The file's lock, held while this store is open (or until it is garbage: a store
        # dropped without close must not keep the file from the next one).
        self._unlock = weakref.finalize(self, unlock, lock(self.path))
        try:
            self._db = self._open()
            self.writer = Writer(self.path)
        except BaseException:
            self._unlock()
            raise

    def _open(self) -> sqlite3.Connection:
        """The lobby's connection, the schema made or brought up to date, and the file shown
        writable by a write (a read-only file would otherwise be found out at the first move);
        :class:`StoreError` saying what is wrong and what to do."""
        keep_private(self.path)
        db: sqlite3.Connection | None = None
        try:
            db = connect(self.path)
            with self._lock, db:
                db.executescript(SCHEMA)
                for table, column, kind in ADDED:
                    have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
                    if column not in have:
                        db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
                version = db.execute("PRAGMA user_version").fetchone()[0]
                db.execute(f"PRAGMA user_version = {int(version)}")
            keep_private(self.path)  # the -wal and -shm files SQLite has made by now
        except sqlite3.Error as exc:
            if db is not None:
                db.close()
            raise StoreError(unusable(self.path, exc)) from None
        return db

    def close(self) -> None:
        try:
            self.writer.close()
            with self._lock:
                self._db.close()
        finally:
            self._unlock()

    def sink(self, table_id: str, keep: int = 0, *, staged: bool = False) -> SqliteSink:
        """Where *table_id*'s events go, from event number *keep* on (see
        :class:`SqliteSink`; *staged*: for a table the event loop drives)."""
        return SqliteSink(self.writer, table_id, keep, staged=staged)

    def _write(self, *statements: Statement, wait: bool = True) -> None:
        self.writer.write(statements, wait=wait)  # OSError if it could not be written

    def add_table(
        self,
        table_id: str,
        settings: dict[str, Any],
        hashes: tuple[str, str, str],
        seats: Sequence[tuple[str | None, str | None, str | None]],
        *,
        held: Sequence[str | None] | None = None,
    ) -> None:
        invite, watch, owner = hashes
        kept = list(held) if held is not None else [None] * len(seats)
        self._write(
            (
                "INSERT INTO tables (id, created, settings, invite_hash, watch_hash, owner_hash)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(table_id, time.time(), json.dumps(settings), invite, watch, owner)],
            ),
            (
                "INSERT INTO seats (table_id, seat, name, bot, level, held)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(table_id, index, *seat, kept[index]) for index, seat in enumerate(seats)],
            ),
        )

    def tables(self) -> list[TableRow]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, created, settings, invite_hash, watch_hash, owner_hash, state, rematch"
                " FROM tables ORDER BY created"
            ).fetchall()
        return [
            TableRow(row[0], row[1], json.loads(row[2]), row[3], row[4], row[5], row[6], row[7])
            for row in rows
        ]

    def seats(self, table_id: str) -> list[SeatRow]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seat, name, bot, level, token_hash, held FROM seats WHERE table_id = ?"
                " ORDER BY seat",
                (table_id,),
            ).fetchall()
        return [SeatRow(*row) for row in rows]

    def set_seat(
        self,
        table_id: str,
        seat: int,
        name: str | None,
        token_hash: str | None,
        *,
        held: str | None = None,
    ) -> None:
        self._write(
            (
                "UPDATE seats SET name = ?, token_hash = ?, held = ?"
                " WHERE table_id = ? AND seat = ?",
                [(name, token_hash, held, table_id, seat)],
            )
        )

    def set_rematch(self, table_id: str, rematch: str) -> None:
        self._write(("UPDATE tables SET rematch = ? WHERE id = ?", [(rematch, table_id)]))

    def set_state(self, table_id: str, state: str) -> None:
        self._write(("UPDATE tables SET state = ? WHERE id = ?", [(state, table_id)]))

    def set_clocks(self, table_id: str, readings: dict[str, Any], *, wait: bool = True) -> None:
        """Store the clocks' *readings*; *wait* false: return before they are on disk (the
        server's event loop, at every turn: a crash may lose the last turn's readings)."""
        self._write(
            ("UPDATE tables SET clocks = ? WHERE id = ?", [(json.dumps(readings), table_id)]),
            wait=wait,
        )

    def clocks(self, table_id: str) -> dict[str, Any] | None:
        """The turn timers' last readings (:meth:`Clocks.readings
        <cinco.frontends.net.clock.Clocks.readings>`), or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT clocks FROM tables WHERE id = ?", (table_id,)).fetchone()
        return read_clocks(row)

    def events(self, table_id: str) -> list[dict[str, Any]]:
        """The referee's log of *table_id*, as the record's JSON objects."""
        with self._lock:
            rows = self._db.execute(
                "SELECT data FROM events WHERE table_id = ? ORDER BY seq", (table_id,)
            ).fetchall()
        return [json.loads(row[0]) for row in rows]


def read_clocks(row: Sequence[Any] | None) -> dict[str, Any] | None:
    """A stored ``clocks`` column read back (``None`` if unset or not a JSON object)."""
    if row is None or row[0] is None:
        return None
    try:
        readings = json.loads(row[0])
    except ValueError:
        return None
    return readings if isinstance(readings, dict) else None


class SqliteSink:
    """One table's events, appended to the ``events`` table (a
    :class:`cinco.core.table.sink.EventSink`). Used in the table's own thread: :meth:`append`
    keeps the turn's events, :meth:`commit` hands them to the file's :class:`Writer` and
    returns once they are on disk."""

    def __init__(
        self, writer: Writer, table_id: str, keep: int = 0, *, staged: bool = False
    ) -> None:
        self.table_id = table_id
        self._writer = writer
        self._next = keep
        self._rows: list[tuple[str, int, str]] = []
        self._unsure = False
        #: Staged (the event loop drives the table: :mod:`.loop_tables`): a commit only sets
        #: its rows aside, and :meth:`stage` hands everything set aside to the writer as one
        #: transaction, without waiting; whoever drives the table waits for it.
        self.staged = staged
        self._committed: list[tuple[str, int, str]] = []
        #: Events stored for sure (the count), once the writer has said so.
        self.stored = keep
        # Rows after *keep* never made a whole turn (a turn is one transaction, so this
        # finds none unless the log was cut by hand): the turn is played again.
        delete = ("DELETE FROM events WHERE table_id = ? AND seq >= ?", [(table_id, keep)])
        if staged:
            self._unsure = True  # the first transaction begins with it
        else:
            writer.write([delete])

    @property
    def path(self) -> Path | None:
        return None

    def append(self, event: Event) -> None:
        self._rows.append((self.table_id, self._next + len(self._rows), dumps(event)))

    def commit(self) -> None:
        """Store the appended events in one transaction, or raise ``OSError`` having stored
        none of them and forgotten them: the table takes their turn back. (Staged: set them
        aside for :meth:`stage`.)"""
        if not self._rows:
            return
        rows, self._rows = self._rows, []
        if self.staged:
            self._committed += rows
            self._next += len(rows)
            return
        try:
            self._writer.write(self._statements(rows))
        except OSError:
            self._unsure = True
            raise
        self._unsure = False
        self._next += len(rows)
        self.stored = self._next

    def _statements(self, rows: list[tuple[str, int, str]]) -> list[Statement]:
        statements: list[Statement] = []
        if self._unsure:  # a failed commit may have reached the disk all the same
            statements.append(
                (
                    "DELETE FROM events WHERE table_id = ? AND seq >= ?",
                    [(self.table_id, self.stored)],
                )
            )
        statements.append(("INSERT INTO events (table_id, seq, data) VALUES (?, ?, ?)", rows))
        return statements

    def stage(self, then: Callable[[Job], None]) -> Job | None:
        """Hand every event committed since the last stage to the writer, as one
        transaction (``None``: there are none); ``then(job)`` is called in the writer's
        thread once it is on disk or has failed. Call :meth:`staged_done` with the job before
        the next stage."""
        rows, self._committed = self._committed, []
        if not rows:
            return None
        return self._writer.stage(self._statements(rows), then)

    def staged_done(self, job: Job) -> None:
        """*job* (from :meth:`stage`) is over: its events are stored, or none of them are and
        the sink goes on after the last stored event (the table is rebuilt from there)."""
        if job.error is None:
            self._unsure = False
            self.stored = self._next
        else:
            self._unsure = True
            self._next = self.stored
            self._rows.clear()

    def sync(self) -> None:
        self.commit()

    def close(self) -> None:
        self.commit()
