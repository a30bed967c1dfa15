"""One writer for the server's SQLite file: every table's turns and the lobby's changes go
through one connection in one thread, committed in groups.

SQLite lets one connection write at a time. With a connection per table, a table that had
begun its transaction kept the file's lock while its thread waited for the interpreter's
lock, and the other tables slept in SQLite's busy handler, in steps of up to 100 ms: stalls
of half a second across every table under load (``benchmarks/server_load.py``). The writer
never waits for another writer, and one commit (one ``fsync``) makes a whole group of turns
durable: whatever arrived while the last commit was on its way.

>>> import os, sqlite3, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "w.db")
>>> sqlite3.connect(path).execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)").close()
>>> writer = Writer(path)
>>> writer.write([("INSERT INTO t VALUES (?, ?)", [(1, "a"), (2, "b")])])
>>> writer.write([("INSERT INTO t VALUES (?, ?)", [(3, "c"), (2, "again")])])
Traceback (most recent call last):
...
cinco.frontends.net.writer.CannotWrite: database: UNIQUE constraint failed: t.k
>>> writer.close()
>>> sqlite3.connect(path).execute("SELECT k, v FROM t").fetchall()  # all of a write or none
[(1, 'a'), (2, 'b')]
"""

from __future__ import annotations

import logging
import queue
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

#: A statement and the rows to run it with (``executemany``).
Statement = tuple[str, Sequence[Sequence[Any]]]


def connect(path: str | Path) -> sqlite3.Connection:
    """A connection to the SQLite file *path* as the server uses it: WAL, every commit on
    disk (``synchronous=FULL``), foreign keys checked; usable from any thread."""
    connection = sqlite3.connect(str(path), timeout=10.0, check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("PRAGMA foreign_keys=ON")
    return connection


class CannotWrite(OSError):
    """The store could not write (the disk is full, the file read-only, the database gone):
    nothing of the write is stored. The server answers a lobby request 503 for it, and a
    move ``record_failed``."""


class Job:
    """One write handed to the :class:`Writer`: :meth:`wait` returns once it is committed or
    has failed (:attr:`error`); *then* is called first, in the writer's thread."""

    __slots__ = ("_over", "error", "logged", "statements", "then")

    def __init__(
        self,
        statements: Sequence[Statement],
        *,
        logged: bool = False,
        then: Callable[[Job], None] | None = None,
    ) -> None:
        self.statements = statements
        self.logged = logged  # nobody waits for it: an error goes to the log
        # Held until the job is over: a bare lock costs a tenth of a threading.Event to make,
        # and a job is made for every turn of every table.
        self._over = threading.Lock()
        self._over.acquire()
        self.error: Exception | None = None
        self.then = then

    def finish(self) -> None:
        if self.logged and self.error is not None:
            logger.error("a write to the database failed: %s", self.error)
        if self.then is not None:
            try:
                self.then(self)
            except Exception:  # the writer goes on whatever its callers do
                logger.exception("a write's callback failed")
        self._over.release()

    def wait(self) -> None:
        """Return once the job is committed or has failed."""
        with self._over:
            pass


class Writer:
    """The thread that writes *path*; :meth:`write` is safe from any thread."""

    def __init__(self, path: str | Path) -> None:
        self._db = connect(path)
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._closed = False
        #: Transactions committed so far: one for a whole group of writes.
        self.commits = 0
        self._lock = threading.Lock()  # no job is queued after the end mark
        self._thread = threading.Thread(target=self._run, name="cinco-db-writer", daemon=True)
        self._thread.start()

    def write(self, statements: Sequence[Statement], *, wait: bool = True) -> None:
        """Run *statements* as one transaction (perhaps in a commit with other callers') and
        return once it is on disk; :class:`CannotWrite` if it was not (nothing of it is).

        With *wait* false it returns at once: the writes still land in the order they were
        made, and one that fails is logged (for what may be lost in a crash, such as the
        clocks' readings, where the event loop must not wait for the disk)."""
        job = Job(statements, logged=not wait)
        with self._lock:
            if self._closed:
                raise CannotWrite("database: the store is closed")
            self._jobs.put(job)
        if not wait:
            return
        job.wait()
        if job.error is not None:
            raise CannotWrite(f"database: {job.error}") from job.error

    def stage(self, statements: Sequence[Statement], then: Callable[[Job], None]) -> Job:
        """Queue *statements* as one transaction (perhaps committed with others) and return
        at once: ``then(job)`` is called in the writer's thread once it is on disk or has
        failed (``job.error``). An event loop does not wait for the disk this way
        (:mod:`~cinco.frontends.net.loop_tables`); :class:`CannotWrite` if the store is closed."""
        job = Job(statements, then=then)
        with self._lock:
            if self._closed:
                raise CannotWrite("database: the store is closed")
            self._jobs.put(job)
        return job

    def close(self) -> None:
        """Write what is queued, then stop."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._jobs.put(None)
        self._thread.join()

    def _run(self) -> None:
        try:
            running = True
            while running:
                first = self._jobs.get()
                if first is None:
                    break
                group = [first]
                while True:  # everything that came while the last commit was being made
                    try:
                        job = self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    if job is None:
                        running = False
                        break
                    group.append(job)
                self._commit(group)
        finally:
            self._db.close()

    def _commit(self, group: list[Job]) -> None:
        try:
            with self._db:
                for job in group:
                    self._run_job(job)
            self.commits += 1
        except Exception as exc:  # the callers hear of it; the writer goes on
            if len(group) == 1:
                group[0].error = exc
            else:  # one job at fault (or the disk): each alone, so only the guilty one fails
                for job in group:
                    self._alone(job)
        finally:
            for job in group:
                job.finish()

    def _alone(self, job: Job) -> None:
        try:
            with self._db:
                self._run_job(job)
            self.commits += 1
        except Exception as exc:
            job.error = exc

    def _run_job(self, job: Job) -> None:
        for sql, rows in job.statements:
            self._db.executemany(sql, rows)
