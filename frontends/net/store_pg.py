"""The server's store in PostgreSQL (psycopg 3), for several server processes on one database.

The same tables as the SQLite store (:mod:`cinco.frontends.net.store`): ``tables``, ``seats``,
``events`` (append-only, one row per event in the record's JSON), and two more: ``servers``
(each running process: its id and the address it was last reached at) and ``leases`` (which
process holds which table, until when). A table is held by one process at a time: the process
that made it, or the one that took it over once its holder's lease ran out (the holder renews
its leases every few seconds while it runs, and gives them up when it stops).

Every write of a table's events is fenced by its lease: the turn's transaction renews the lease
*for this process* and fails (:class:`LeaseLost`: the move is refused, ``record_failed``) if
another process holds it, so two processes never both write a table's log. Times are the
database's (``now()``): the processes' clocks need not agree.

:class:`PgStore` has the methods of :class:`cinco.frontends.net.store.Store` (and the rows are
its :class:`TableRow` and :class:`SeatRow`); :class:`PgSink` is the
:class:`cinco.core.table.sink.EventSink` of one table, made and used in the table's thread.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import secrets
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from cinco.core.engine.events import Event
from cinco.core.records.record import dumps

from .store import ADDED, CannotWrite, HeldElsewhere, SeatRow, StoreError, TableRow, read_clocks
from .store import SCHEMA as STORE_SCHEMA

logger = logging.getLogger("cinco.server")

#: Seconds a lease lasts unless renewed; a process renews its leases every third of it.
LEASE_SECONDS = 10.0
#: Connections one process's tables share to write their turns (a turn is one short
#: transaction; a table holds no connection between two turns).
POOL = 8

#: The lobby's three tables as in SQLite (store.py), and the processes' leases.
SCHEMA = (
    STORE_SCHEMA
    + """
CREATE TABLE IF NOT EXISTS servers (
    id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    started TIMESTAMPTZ NOT NULL DEFAULT now(),
    seen TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS leases (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    owner TEXT NOT NULL,
    expires TIMESTAMPTZ NOT NULL
);
"""
)
#: Serializes the schema's creation among processes starting at once.
SCHEMA_LOCK = 0x43696E636F  # "Cinco"

CLAIM = """
INSERT INTO leases (table_id, owner, expires)
SELECT %(table)s, %(owner)s, now() + make_interval(secs => %(ttl)s)
WHERE EXISTS (SELECT 1 FROM tables WHERE id = %(table)s)
ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, expires = EXCLUDED.expires
WHERE leases.owner = EXCLUDED.owner OR leases.expires < now()
"""
HOLDER = """
SELECT l.owner, coalesce(s.address, ''), extract(epoch FROM l.expires - now())::float8
FROM leases l LEFT JOIN servers s ON s.id = l.owner WHERE l.table_id = %s
"""
#: A turn's fence: renew the lease if it is still this process's (else no row).
FENCE = """
UPDATE leases SET expires = now() + make_interval(secs => %(ttl)s)
WHERE table_id = %(table)s AND owner = %(owner)s RETURNING 1
"""


class LeaseLost(HeldElsewhere):
    """This process does not hold the table any more (another one took it over). Not a
    :class:`CannotWrite`: the lobby answers it by sending the client to the holder
    (``503 elsewhere``, :mod:`cinco.frontends.net.cluster`), and a table's move is refused
    ``record_failed`` like any failed commit."""


@dataclass(frozen=True)
class Holder:
    """Who holds a table's lease: the process's id, its address and the seconds left."""

    owner: str
    address: str
    left: float


def _connect(url: str, *, autocommit: bool, name: str) -> psycopg.Connection[Any]:
    try:
        return psycopg.connect(
            url, autocommit=autocommit, connect_timeout=10, application_name=_app_name(name)
        )
    except psycopg.Error as exc:
        raise CannotWrite(f"database {_safe(url)}: {exc}") from exc


@contextlib.contextmanager
def _writing(url: str) -> Iterator[None]:
    """A write of the lobby's: the database's refusal is :class:`CannotWrite` (a 503)."""
    try:
        yield
    except psycopg.Error as exc:
        raise CannotWrite(f"database {_safe(url)}: {exc}") from exc


def _app_name(owner: str) -> str:
    """The connections' ``application_name``: which server process they are (PostgreSQL
    keeps 63 bytes of it)."""
    return f"cinco {owner}"[:63]


def _safe(url: str) -> str:
    """The URL without its password (it is printed in messages)."""
    head, at, tail = url.rpartition("@")
    if not at or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _slashes, user = head.partition("//")
    return f"{scheme}//{user.split(':', 1)[0]}:***@{tail}"


class PgStore:
    """The lobby's side of the database, and this process's leases (the server's event loop;
    a lock makes it safe from other threads too). Its methods are the SQLite
    :class:`~cinco.frontends.net.store.Store`'s, plus the leases'."""

    def __init__(self, url: str, *, lease: float = LEASE_SECONDS, owner: str | None = None) -> None:
        self.url = url
        self.path: Path | None = None
        self.lease = lease
        #: This process's id in ``servers`` and ``leases``: *owner* (``cinco serve`` gives
        #: HOST:PORT, so that a restarted server takes its own tables back at once) or one of
        #: its own (also when a running process has that name: two machines of one name).
        self.owner = owner or _own_name()
        self._lock = threading.Lock()
        self._pool: queue.SimpleQueue[psycopg.Connection[Any]] = queue.SimpleQueue()
        self._made = 0
        try:
            self._db = _connect(url, autocommit=True, name=self.owner)
            self._create()
        except OSError as exc:  # no connection
            raise StoreError(
                f"{exc} — check the URL, and that PostgreSQL runs there and lets this user in"
            ) from None
        except psycopg.Error as exc:  # connected, but the schema could not be made
            self._db.close()
            raise StoreError(
                f"database {_safe(url)}: {exc} — this user must be able to create and write"
                " tables in that database"
            ) from None

    def _create(self) -> None:
        """Register this process, making the schema (or bringing it up to date) first."""
        owner = self.owner
        with self._lock, self._db.transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            taken = self._db.execute(
                "SELECT 1 FROM pg_stat_activity WHERE application_name = %s"
                " AND pid <> pg_backend_pid() LIMIT 1",
                (_app_name(self.owner),),
            ).fetchone()
            if taken is not None:  # a process that is running has that name: not ours
                logger.warning("a running server is named %s already: using another name", owner)
                self.owner = _own_name()
                self._db.execute(
                    "SELECT set_config('application_name', %s, false)", (_app_name(self.owner),)
                )
            self._db.execute(SCHEMA)
            for table, column, kind in ADDED:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind}")
            self._db.execute(
                "INSERT INTO servers (id, address) VALUES (%s, %s) ON CONFLICT (id)"
                " DO UPDATE SET started = now(), seen = now()",
                (self.owner, self.owner),
            )

    def _conn(self) -> psycopg.Connection[Any]:
        """The connection, made again if the database dropped it (it restarted, say)."""
        if self._db.broken or self._db.closed:
            self._db = _connect(self.url, autocommit=True, name=self.owner)
        return self._db

    def close(self) -> None:
        """Give up this process's leases (another process may take its tables at once)."""
        with self._lock:
            try:
                with self._conn().transaction():
                    self._db.execute("DELETE FROM leases WHERE owner = %s", (self.owner,))
                    self._db.execute("DELETE FROM servers WHERE id = %s", (self.owner,))
            except (psycopg.Error, OSError):
                pass  # the leases run out by themselves
            finally:
                self._db.close()
        while not self._pool.empty():
            self._pool.get_nowait().close()

    # -- the lobby (as the SQLite store) ------------------------------------------------------

    def add_table(
        self,
        table_id: str,
        settings: dict[str, Any],
        hashes: tuple[str, str, str],
        seats: Sequence[tuple[str | None, str | None, str | None]],
        *,
        held: Sequence[str | None] | None = None,
    ) -> None:
        """A new table, held by this process from the start."""
        invite, watch, owner = hashes
        kept = list(held) if held is not None else [None] * len(seats)
        with _writing(self.url), self._lock, self._conn().transaction():
            self._db.execute(
                "INSERT INTO tables (id, created, settings, invite_hash, watch_hash, owner_hash)"
                " VALUES (%s, %s, %s, %s, %s, %s)",
                (table_id, time.time(), json.dumps(settings), invite, watch, owner),
            )
            with self._db.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO seats (table_id, seat, name, bot, level, held)"
                    " VALUES (%s, %s, %s, %s, %s, %s)",
                    [(table_id, index, *seat, kept[index]) for index, seat in enumerate(seats)],
                )
            self._db.execute(CLAIM, {"table": table_id, "owner": self.owner, "ttl": self.lease})

    def tables(self) -> list[TableRow]:
        with self._lock:
            rows = (
                self._conn()
                .execute(
                    "SELECT id, created, settings, invite_hash, watch_hash, owner_hash, state,"
                    " rematch FROM tables ORDER BY created"
                )
                .fetchall()
            )
        return [_table_row(row) for row in rows]

    def table(self, table_id: str) -> TableRow | None:
        """One table's row, or ``None``."""
        with self._lock:
            row = (
                self._conn()
                .execute(
                    "SELECT id, created, settings, invite_hash, watch_hash, owner_hash, state,"
                    " rematch FROM tables WHERE id = %s",
                    (table_id,),
                )
                .fetchone()
            )
        return None if row is None else _table_row(row)

    def find(self, hashed: str, which: str) -> str | None:
        """The id of the table whose invite (*which* ``"invite"``) or watch code has the
        hash *hashed*."""
        column = "invite_hash" if which == "invite" else "watch_hash"
        with self._lock:
            row = (
                self._conn()
                .execute(f"SELECT id FROM tables WHERE {column} = %s", (hashed,))
                .fetchone()
            )
        return None if row is None else str(row[0])

    def seats(self, table_id: str) -> list[SeatRow]:
        with self._lock:
            rows = (
                self._conn()
                .execute(
                    "SELECT seat, name, bot, level, token_hash, held FROM seats"
                    " WHERE table_id = %s ORDER BY seat",
                    (table_id,),
                )
                .fetchall()
            )
        return [SeatRow(*row) for row in rows]

    def all_seats(self) -> dict[str, list[SeatRow]]:
        """Every table's seats (the lobby's list, in one query)."""
        with self._lock:
            rows = (
                self._conn()
                .execute(
                    "SELECT table_id, seat, name, bot, level, token_hash, held FROM seats"
                    " ORDER BY table_id, seat"
                )
                .fetchall()
            )
        seats: dict[str, list[SeatRow]] = {}
        for row in rows:
            seats.setdefault(row[0], []).append(SeatRow(*row[1:]))
        return seats

    def set_seat(
        self,
        table_id: str,
        seat: int,
        name: str | None,
        token_hash: str | None,
        *,
        held: str | None = None,
    ) -> None:
        self._owned_write(
            table_id,
            "UPDATE seats SET name = %s, token_hash = %s, held = %s"
            " WHERE table_id = %s AND seat = %s",
            (name, token_hash, held, table_id, seat),
        )

    def set_rematch(self, table_id: str, rematch: str) -> None:
        self._owned_write(
            table_id, "UPDATE tables SET rematch = %s WHERE id = %s", (rematch, table_id)
        )

    def set_state(self, table_id: str, state: str) -> None:
        self._owned_write(table_id, "UPDATE tables SET state = %s WHERE id = %s", (state, table_id))

    def set_clocks(self, table_id: str, readings: dict[str, Any], *, wait: bool = True) -> None:
        """Store the clocks' *readings* (always before returning: *wait* is for the SQLite
        store's writer, which can queue a write)."""
        self._owned_write(
            table_id,
            "UPDATE tables SET clocks = %s WHERE id = %s",
            (json.dumps(readings), table_id),
        )

    def clocks(self, table_id: str) -> dict[str, Any] | None:
        """The turn timers' last readings, or ``None``."""
        with self._lock:
            row = (
                self._conn()
                .execute("SELECT clocks FROM tables WHERE id = %s", (table_id,))
                .fetchone()
            )
        return read_clocks(row)

    def _owned_write(self, table_id: str, sql: str, params: tuple[Any, ...]) -> None:
        """One write to *table_id*'s rows, only while this process holds its lease."""
        with _writing(self.url), self._lock, self._conn().transaction():
            fenced = self._db.execute(
                FENCE, {"table": table_id, "owner": self.owner, "ttl": self.lease}
            ).fetchone()
            if fenced is None:
                raise LeaseLost(f"table {table_id} is held by another server process")
            self._db.execute(sql, params)

    def events(self, table_id: str) -> list[dict[str, Any]]:
        """The referee's log of *table_id*, as the record's JSON objects."""
        with self._lock:
            rows = (
                self._conn()
                .execute("SELECT data FROM events WHERE table_id = %s ORDER BY seq", (table_id,))
                .fetchall()
            )
        return [json.loads(row[0]) for row in rows]

    # -- leases -------------------------------------------------------------------------------

    def claim(self, table_id: str) -> Holder | None:
        """Take (or renew) *table_id*'s lease if it is free, run out or this process's; the
        holder afterwards (``holder.owner == self.owner``: this process), or ``None`` if
        there is no such table."""
        with self._lock, self._conn().transaction():
            self._db.execute(CLAIM, {"table": table_id, "owner": self.owner, "ttl": self.lease})
            row = self._db.execute(HOLDER, (table_id,)).fetchone()
        return None if row is None else Holder(row[0], row[1] or row[0], float(row[2]))

    def holder(self, table_id: str) -> Holder | None:
        with self._lock:
            row = self._conn().execute(HOLDER, (table_id,)).fetchone()
        return None if row is None else Holder(row[0], row[1] or row[0], float(row[2]))

    def renew(self) -> set[str]:
        """Renew every lease of this process; the tables it still holds."""
        with self._lock, self._conn().transaction():
            self._db.execute("UPDATE servers SET seen = now() WHERE id = %s", (self.owner,))
            rows = self._db.execute(
                "UPDATE leases SET expires = now() + make_interval(secs => %s)"
                " WHERE owner = %s RETURNING table_id",
                (self.lease, self.owner),
            ).fetchall()
        return {str(row[0]) for row in rows}

    def orphans(self) -> list[str]:
        """The games in play that no process holds (their process died, say)."""
        with self._lock:
            rows = (
                self._conn()
                .execute(
                    "SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id"
                    " WHERE t.state = 'playing' AND (l.table_id IS NULL OR l.expires < now())"
                    " ORDER BY t.created"
                )
                .fetchall()
            )
        return [str(row[0]) for row in rows]

    def release(self, table_id: str) -> None:
        """Give up *table_id*'s lease, if this process holds it."""
        with self._lock:
            self._conn().execute(
                "DELETE FROM leases WHERE table_id = %s AND owner = %s", (table_id, self.owner)
            )

    def set_address(self, address: str) -> None:
        """The address this process was reached at (shown to those sent elsewhere)."""
        with self._lock:
            self._conn().execute(
                "INSERT INTO servers (id, address) VALUES (%s, %s)"
                " ON CONFLICT (id) DO UPDATE SET address = EXCLUDED.address",
                (self.owner, address),
            )

    def sink(self, table_id: str, keep: int = 0) -> PgSink:
        """A sink for *table_id*'s events, fenced by this process's lease (in the table's
        thread)."""
        return PgSink(self, table_id, keep)

    @contextlib.contextmanager
    def borrow(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the tables' pool (at most :data:`POOL` of them, shared by every
        table of this process: a database serves many processes' tables this way), for one
        transaction. Waits up to 10 seconds for one to be free (else ``OSError``)."""
        try:
            conn = self._pool.get_nowait()
        except queue.Empty:
            with self._lock:
                make = self._made < POOL
                self._made += make
            if make:
                try:
                    conn = _connect(self.url, autocommit=False, name=self.owner)
                except OSError:
                    with self._lock:
                        self._made -= 1
                    raise
            else:
                try:
                    conn = self._pool.get(timeout=10)
                except queue.Empty:
                    raise CannotWrite("database: no free connection for 10 s") from None
        try:
            yield conn
        finally:
            if conn.broken or conn.closed:
                conn.close()
                with self._lock:
                    self._made -= 1
            else:
                if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    with contextlib.suppress(psycopg.Error):
                        conn.rollback()  # an unfinished transaction is not handed on
                self._pool.put(conn)


def _own_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


def _table_row(row: Sequence[Any]) -> TableRow:
    return TableRow(row[0], row[1], json.loads(row[2]), row[3], row[4], row[5], row[6], row[7])


class PgSink:
    """One table's events, appended to ``events`` (a :class:`cinco.core.table.sink.EventSink`):
    a turn's events are kept until ``commit``, then written in one transaction (on a
    connection of the store's pool), which also renews the table's lease and is refused if
    another process holds it. Made and used in the table's own thread."""

    def __init__(self, store: PgStore, table_id: str, keep: int = 0) -> None:
        self.table_id = table_id
        self._store = store
        self._next = keep
        self._rows: list[tuple[str, int, str]] = []
        self._unsure = False
        self._fence = {"table": table_id, "owner": store.owner, "ttl": store.lease}
        # Rows after *keep* never made a whole turn (one transaction each, so none unless
        # the log was cut by hand): that turn is played again.
        self._write("DELETE FROM events WHERE table_id = %s AND seq >= %s", (table_id, keep))

    @property
    def path(self) -> Path | None:
        return None

    def append(self, event: Event) -> None:
        self._rows.append((self.table_id, self._next + len(self._rows), dumps(event)))

    def commit(self) -> None:
        """Store the appended events in one transaction, or raise ``OSError`` having stored
        none of them and forgotten them: the table takes their turn back."""
        rows, self._rows = self._rows, []
        if not rows:
            return
        try:
            if self._unsure:  # a failed commit may have reached the database all the same
                self._write(
                    "DELETE FROM events WHERE table_id = %s AND seq >= %s",
                    (self.table_id, self._next),
                    then=("INSERT INTO events (table_id, seq, data) VALUES (%s, %s, %s)", rows),
                )
            else:
                self._write("INSERT INTO events (table_id, seq, data) VALUES (%s, %s, %s)", rows)
        except OSError:
            self._unsure = True
            raise
        self._unsure = False
        self._next += len(rows)

    def _write(
        self,
        sql: str,
        params: Sequence[Any],
        *,
        then: tuple[str, Sequence[Any]] | None = None,
    ) -> None:
        """*sql* (once, or for each row of *params* if it is a list), *then* another the same
        way, and the fence, in one transaction."""
        with self._store.borrow() as conn:
            try:
                with conn.cursor() as cursor:
                    for statement, values in [(sql, params), *([then] if then else [])]:
                        if isinstance(values, list):
                            if values:
                                cursor.executemany(statement, values)
                        else:
                            cursor.execute(statement, values)
                    fenced = cursor.execute(FENCE, self._fence).fetchone()
                if fenced is None:
                    conn.rollback()
                    raise LeaseLost(f"table {self.table_id} is held by another server process")
                conn.commit()
            except psycopg.Error as exc:
                with contextlib.suppress(psycopg.Error):
                    conn.rollback()
                raise CannotWrite(f"database: {exc}") from exc

    def sync(self) -> None:
        self.commit()

    def close(self) -> None:
        if self._rows:
            self.commit()
