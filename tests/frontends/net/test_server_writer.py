"""The SQLite file's one writer (frontends/net/writer.py): a write returns once it is on disk,
writes that arrive together share one commit, and a bad write fails alone. (A table's turn
stored at its commit, on both stores: test_stores.py.)

Networked play: issue 12, docs/server.md ("Storage").
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from cinco.frontends.net.writer import Writer

INSERT = "INSERT INTO t VALUES (?, ?)"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    db = tmp_path / "w.db"
    with sqlite3.connect(db) as setup:
        setup.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
    setup.close()
    return db


def rows(path: Path) -> dict[int, str]:
    reader = sqlite3.connect(path)
    try:
        return dict(reader.execute("SELECT k, v FROM t"))
    finally:
        reader.close()


def hold_the_file(path: Path) -> sqlite3.Connection:
    """Another connection that holds the file's write lock until it rolls back."""
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    return blocker


def test_a_write_is_readable_as_soon_as_it_returns(path: Path) -> None:
    writer = Writer(path)
    try:
        for key in range(20):
            writer.write([(INSERT, [(key, f"v{key}")])])
            assert rows(path)[key] == f"v{key}"  # another connection sees it at once
    finally:
        writer.close()


def test_writes_that_wait_together_share_one_commit(path: Path) -> None:
    writer = Writer(path)
    blocker = hold_the_file(path)
    try:
        first = threading.Thread(target=writer.write, args=([(INSERT, [(0, "first")])],))
        first.start()
        time.sleep(0.2)  # the writer is in its first commit, waiting for the file
        others = [
            threading.Thread(target=writer.write, args=([(INSERT, [(key, "x")])],))
            for key in range(1, 31)
        ]
        for thread in others:
            thread.start()
        time.sleep(0.3)  # all thirty are queued behind the first
        assert rows(path) == {}  # nothing returned: nothing is claimed to be on disk
        blocker.rollback()
        for thread in [first, *others]:
            thread.join(10)
        assert rows(path) == {0: "first", **{key: "x" for key in range(1, 31)}}
        assert writer.commits == 2  # the first alone, then the thirty in one transaction
    finally:
        blocker.close()
        writer.close()


def test_a_bad_write_in_a_group_fails_alone(path: Path) -> None:
    writer = Writer(path)
    writer.write([(INSERT, [(1, "a")])])
    blocker = hold_the_file(path)
    results: dict[str, str] = {}

    def write(name: str, statements: list[tuple[str, list[tuple[int, str]]]]) -> None:
        try:
            writer.write(statements)
            results[name] = "written"
        except OSError as exc:
            results[name] = str(exc)

    try:
        threads = [threading.Thread(target=write, args=("wait", [(INSERT, [(2, "b")])]))]
        threads[0].start()
        time.sleep(0.2)
        threads += [
            threading.Thread(target=write, args=("bad", [(INSERT, [(3, "c"), (1, "twice")])])),
            threading.Thread(target=write, args=("good", [(INSERT, [(4, "d")])])),
        ]
        for thread in threads[1:]:
            thread.start()
        time.sleep(0.3)
        blocker.rollback()
        for thread in threads:
            thread.join(10)
    finally:
        blocker.close()
        writer.close()
    assert results["wait"] == results["good"] == "written"
    assert "UNIQUE constraint failed" in results["bad"]
    assert rows(path) == {1: "a", 2: "b", 4: "d"}  # none of the bad write, all of the rest


def test_a_closed_writer_says_so(path: Path) -> None:
    writer = Writer(path)
    writer.close()
    writer.close()  # twice is harmless
    with pytest.raises(OSError, match="the store is closed"):
        writer.write([(INSERT, [(1, "a")])])


def test_a_write_not_waited_for_lands_in_order_and_a_failure_is_logged(
    path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    writer = Writer(path)
    blocker = hold_the_file(path)
    try:
        started = time.monotonic()
        writer.write([(INSERT, [(1, "first")])], wait=False)
        writer.write([("UPDATE t SET v = ? WHERE k = ?", [("second", 1)])], wait=False)
        writer.write([(INSERT, [(1, "twice")])], wait=False)  # fails: its key is taken
        assert time.monotonic() - started < 0.5  # none waited for the held file
        assert rows(path) == {}
        blocker.rollback()
    finally:
        blocker.close()
        writer.close()  # what is queued is written first
    assert rows(path) == {1: "second"}  # in the order they were made
    assert "UNIQUE constraint failed" in caplog.text
