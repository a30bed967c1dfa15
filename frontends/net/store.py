"""The server's store: SQLite (stdlib ``sqlite3``, WAL mode) with three tables.

``tables`` holds each table's settings and the hashes of its invite, watch and owner codes;
``seats`` each seat's player and the hash of its seat token (never the token); ``events`` the
referee's log, append-only, one row per event in the game record's JSON. A table's events are
written by an :class:`SqliteSink` in the table's own thread, one transaction per turn,
committed before anyone is sent them (``synchronous=FULL``: a commit is on disk). Every
change goes through the file's one :class:`~cinco.frontends.net.writer.Writer` thread.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "cinco.db")
>>> store = Store(path)
>>> store.add_table("t1", {"players": 2}, ("i", "w", "o"), [("Ann", None, None)] * 2)
>>> [row.id for row in store.tables()], store.seats("t1")[0].name
(['t1'], 'Ann')
>>> store.close()
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cinco.core.events import Event
from cinco.core.record import dumps

from .writer import Statement, Writer

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


def digest(secret: str) -> str:
    """The stored form of a token or a code: its SHA-256, in hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def connect(path: str | Path) -> sqlite3.Connection:
    connection = sqlite3.connect(str(path), timeout=10.0, check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("PRAGMA foreign_keys=ON")
    return connection


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
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = connect(self.path)
        with self._lock, self._db:
            self._db.executescript(SCHEMA)
            for table, column, kind in ADDED:
                have = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
                if column not in have:
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
        self.writer = Writer(self.path)

    def close(self) -> None:
        self.writer.close()
        with self._lock:
            self._db.close()

    def sink(self, table_id: str, keep: int = 0) -> SqliteSink:
        """Where *table_id*'s events go, from event number *keep* on (see
        :class:`SqliteSink`)."""
        return SqliteSink(self.writer, table_id, keep)

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
    :class:`cinco.core.table.EventSink`). Used in the table's own thread: :meth:`append`
    keeps the turn's events, :meth:`commit` hands them to the file's :class:`Writer` and
    returns once they are on disk."""

    def __init__(self, writer: Writer, table_id: str, keep: int = 0) -> None:
        self.table_id = table_id
        self._writer = writer
        self._next = keep
        self._rows: list[tuple[str, int, str]] = []
        # Rows after *keep* never made a whole turn (a turn is one transaction, so this
        # finds none unless the log was cut by hand): the turn is played again.
        writer.write([("DELETE FROM events WHERE table_id = ? AND seq >= ?", [(table_id, keep)])])

    @property
    def path(self) -> Path | None:
        return None

    def append(self, event: Event) -> None:
        self._rows.append((self.table_id, self._next + len(self._rows), dumps(event)))

    def commit(self) -> None:
        if not self._rows:
            return
        rows, self._rows = self._rows, []
        try:
            self._writer.write(
                [("INSERT INTO events (table_id, seq, data) VALUES (?, ?, ?)", rows)]
            )
        except OSError:
            # Nothing of the turn was written: it is offered again with the next commit.
            self._rows = rows + self._rows
            raise
        self._next += len(rows)

    def sync(self) -> None:
        self.commit()

    def close(self) -> None:
        self.commit()
