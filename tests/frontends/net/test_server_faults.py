"""Faults under a real ``cinco serve`` (127.0.0.1, a free port): a store that refuses writes in
the middle of a turn (a trigger in the real database, on SQLite and on PostgreSQL), a real full
disk (a small tmpfs, as root), two servers on one SQLite file, a database that cannot be used
at start, ``kill -9`` during commits, and the files' modes.

Accepted means durable (issue 23): a move is answered ``accepted`` only once its turn is
stored; a write that fails refuses the move (``record_failed``), nobody is sent its events, and
the table goes on from what is stored. docs/server.md, "Security model" and "Operations".
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from live_server import CINCO, Server, first_legal, free_port, play
from websockets.sync.client import connect

from cinco.core.engine.commands import Command
from cinco.core.engine.events import GameEnded, event_from_dict
from cinco.core.records.recording import RecordFile, RecordWriter
from cinco.core.table.protocol import PROTOCOL_VERSION, Accepted, Refused, Submit
from cinco.frontends.net.client import Lobby, NetError, Session
from cinco.frontends.net.store import Store

# The store refuses a row whose JSON matches a pattern in ``fault``: a turn's last event
# (``turn_ended``), after its first ones were inserted in the same transaction.
SQLITE_FAULT = """
CREATE TABLE IF NOT EXISTS fault (pattern TEXT NOT NULL);
CREATE TRIGGER IF NOT EXISTS refuse_events BEFORE INSERT ON events
WHEN EXISTS (SELECT 1 FROM fault WHERE NEW.data LIKE pattern)
BEGIN SELECT RAISE(ABORT, 'disk I/O error (injected by the test)'); END;
"""
PG_FAULT = """
CREATE TABLE IF NOT EXISTS fault (pattern TEXT NOT NULL);
CREATE OR REPLACE FUNCTION refuse_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM fault WHERE NEW.data LIKE pattern) THEN
        RAISE EXCEPTION 'could not extend file: No space left on device (injected by the test)';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER refuse_events BEFORE INSERT ON events
FOR EACH ROW EXECUTE FUNCTION refuse_events();
"""


def turn_end_of(seat: int) -> str:
    """The ``LIKE`` pattern of *seat*'s ``turn_ended`` event, as the store keeps it."""
    return f'%"type":"turn_ended",%"seat":{seat},%'


class Fault(Protocol):
    """The database a server writes, seen from outside: make its writes fail, read it."""

    def fail(self, pattern: str | None) -> None: ...

    def stored(self, table: str) -> list[dict[str, Any]]: ...


class SqliteFault:
    def __init__(self, path: Path) -> None:
        self.path = path
        with self._connect() as db:
            db.executescript(SQLITE_FAULT)

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=10)

    def fail(self, pattern: str | None) -> None:
        db = self._connect()
        try:
            with db:
                db.execute("DELETE FROM fault")
                if pattern is not None:
                    db.execute("INSERT INTO fault VALUES (?)", (pattern,))
        finally:
            db.close()

    def stored(self, table: str) -> list[dict[str, Any]]:
        db = self._connect()
        try:
            rows = db.execute(
                "SELECT seq, data FROM events WHERE table_id = ? ORDER BY seq", (table,)
            ).fetchall()
        finally:
            db.close()
        assert [row[0] for row in rows] == list(range(len(rows)))
        return [json.loads(row[1]) for row in rows]


class PgFault:
    def __init__(self, url: str) -> None:
        import psycopg

        self.url = url
        self.psycopg = psycopg
        with psycopg.connect(url, autocommit=True) as db:
            db.execute(PG_FAULT)

    def fail(self, pattern: str | None) -> None:
        with self.psycopg.connect(self.url, autocommit=True) as db:
            db.execute("DELETE FROM fault")
            if pattern is not None:
                db.execute("INSERT INTO fault VALUES (%s)", (pattern,))

    def stored(self, table: str) -> list[dict[str, Any]]:
        with self.psycopg.connect(self.url) as db:
            rows = db.execute(
                "SELECT seq, data FROM events WHERE table_id = %s ORDER BY seq", (table,)
            ).fetchall()
        assert [row[0] for row in rows] == list(range(len(rows)))
        return [json.loads(row[1]) for row in rows]


def my_prompt(session: Session, timeout: float = 30) -> Command:
    """Wait until it is the session's turn; a legal move then."""
    deadline = time.monotonic() + timeout
    while True:
        command = first_legal(session)
        if command is not None:
            return command
        assert time.monotonic() < deadline, "no prompt came"
        session.receive(timeout=0.5)


def quiet(session: Session, seconds: float) -> list[object]:
    """What the server sends in the next *seconds*."""
    got: list[object] = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        message = session.receive(timeout=left)
        if message is not None:
            got.append(message)
    return got


def seated(server: Server) -> tuple[Lobby, dict[str, Any], Session]:
    """A table of Ann (seat 0, a person) against a greedy bot, Ann connected."""
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "bots": {"2": "greedy"}})
    seat = lobby.join(table["code"], "Ann")
    session = Session(lobby, table=table["table"], token=seat["token"], seat=seat["seat"])
    session.connect()
    return lobby, table, session


def check_whole_game(session: Session, lobby: Lobby, fault: Fault, table: dict[str, Any]) -> None:
    """The game ended; Ann saw the stored log, each event once, in order, as her seat sees it."""
    stored = fault.stored(table["table"])
    referee = [event_from_dict(data) for data in stored]
    assert isinstance(referee[-1], GameEnded)
    exported = lobby.record(table["table"], table["owner"]).splitlines()[1:]
    assert [json.loads(line) for line in exported] == stored
    seqs = [envelope.seq for envelope in session.view.log]
    assert seqs == list(range(len(referee)))
    assert [e.event for e in session.view.log] == [e.seen_by(0) for e in referee]


def refused_then_plays_on(server: Server, fault: Fault) -> None:
    """The scenario of the store that refuses writes: Ann's move, then the bot's."""
    lobby, table, session = seated(server)
    try:
        assert play(session, 1) == 1
        move = my_prompt(session)
        stored = fault.stored(table["table"])
        fault.fail(turn_end_of(0))  # Ann's turn fails at its last event
        for _try in range(2):
            answer = session.request(Submit(move))
            assert isinstance(answer, Refused) and answer.code == "record_failed", answer
            assert "injected" in answer.message
            assert fault.stored(table["table"]) == stored  # no half turn
        quiet(session, 0.3)
        assert session.view.seq == len(stored) - 1  # nobody was sent the unstored turn
        # The table went back to what is stored: the same move is judged again, and stored.
        fault.fail(turn_end_of(1))  # now the bot's turn fails
        answer = session.request(Submit(move))
        assert isinstance(answer, Accepted), answer
        mine = fault.stored(table["table"])
        assert len(mine) == answer.seq + 1 and mine[: len(stored)] == stored
        assert mine[-1]["type"] == "turn_ended" and mine[-1]["seat"] == 0
        quiet(session, 1.0)  # the bot tries, and is refused, meanwhile
        assert fault.stored(table["table"]) == mine
        assert session.view.seq == answer.seq  # nothing past the store
        assert first_legal(session) is None  # and no prompt: the bot is to move
        fault.fail(None)  # the disk has room again: the bot moves by itself, then Ann
        my_prompt(session)
        assert session.view.seq > answer.seq
        play(session, None)
    finally:
        session.close()
    check_whole_game(session, lobby, fault, table)


# -- a store that refuses writes in the middle of a turn ------------------------------------------


def test_sqlite_a_turn_the_store_refuses_is_refused_and_taken_back(server: Server) -> None:
    refused_then_plays_on(server, SqliteFault(Path(server.db)))


def test_postgres_a_turn_the_store_refuses_is_refused_and_taken_back(
    pg_url: str, tmp_path: Path
) -> None:
    running = Server(pg_url, free_port(), tmp_path / "server.log")
    running.start()
    try:
        refused_then_plays_on(running, PgFault(pg_url))
    finally:
        running.stop()


@pytest.fixture
def pg_url(request: pytest.FixtureRequest) -> str:
    """A new database on the session's PostgreSQL server (tests/conftest.py; skips if there
    is none)."""
    server: Any = request.getfixturevalue("postgres")
    url: str = server.new_database()
    return url


# -- a real full disk ------------------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 3 MB tmpfs of the test's own (as root), unmounted at the end."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a full disk needs a tmpfs of the test's own: run as root to mount one")
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m,mode=0700", "tmpfs", str(disk)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (a container without the right): {mounted.stderr}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def fill(disk: Path) -> Path:
    """Fill *disk* to its last byte: a file that takes all the room left."""
    filler = disk / "filler"
    out = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        for size in (65536, 4096, 512, 1):  # then the last pieces
            try:
                while os.write(out, b"\0" * size):
                    pass
            except OSError:
                continue
    finally:
        os.close(out)
    return filler


def test_a_full_disk_refuses_the_move_and_the_table_plays_on_once_it_has_room(
    small_disk: Path, tmp_path: Path
) -> None:
    running = Server(small_disk / "server.db", free_port(), tmp_path / "server.log")
    running.start()
    fault = SqliteFault(small_disk / "server.db")
    fault.fail(None)  # no fault but the disk's
    try:
        lobby, table, session = seated(running)
        try:
            assert play(session, 1) == 1
            move = my_prompt(session)
            stored = fault.stored(table["table"])
            filler = fill(small_disk)
            answer = session.request(Submit(move))
            assert isinstance(answer, Refused) and answer.code == "record_failed", answer
            assert "full" in answer.message
            assert fault.stored(table["table"]) == stored
            quiet(session, 0.3)
            assert session.view.seq == len(stored) - 1
            with pytest.raises(NetError) as refused:  # no new table either: a JSON 503
                lobby.create({"players": 2})
            assert (refused.value.status, refused.value.code) == (503, "store_failed")
            filler.unlink()
            answer = session.request(Submit(move))
            assert isinstance(answer, Accepted), answer
            play(session, None)
        finally:
            session.close()
        check_whole_game(session, lobby, fault, table)
    finally:
        running.stop()


def test_a_table_the_store_cannot_write_is_answered_503_json(server: Server) -> None:
    path = Path(server.db)
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TRIGGER refuse_tables BEFORE INSERT ON tables"
            " BEGIN SELECT RAISE(ABORT, 'database or disk is full (injected)'); END"
        )
    lobby = Lobby(server.url)
    with pytest.raises(NetError) as refused:
        lobby.create({"players": 2})
    assert (refused.value.status, refused.value.code) == (503, "store_failed")
    assert "try again" in str(refused.value)
    assert lobby.tables() == []  # nothing half made
    with sqlite3.connect(path) as db:
        db.execute("DROP TRIGGER refuse_tables")
    assert "table" in lobby.create({"players": 2})


def test_a_seat_the_store_cannot_write_stays_free_and_a_deal_waits_for_the_store(
    server: Server,
) -> None:
    path = Path(server.db)
    fault = SqliteFault(path)
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "bots": {"2": "greedy"}})
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TRIGGER refuse_seats BEFORE UPDATE ON seats"
            " BEGIN SELECT RAISE(ABORT, 'database or disk is full (injected)'); END"
        )
    with pytest.raises(NetError) as refused:
        lobby.join(table["code"], "Ann")
    assert (refused.value.status, refused.value.code) == (503, "store_failed")
    assert lobby.table(table["table"])["seats"][0]["free"]  # not taken in memory either
    with sqlite3.connect(path) as db:
        db.execute("DROP TRIGGER refuse_seats")
    fault.fail('%"type":"game_started"%')  # the seat is stored, the deal is not
    seat = lobby.join(table["code"], "Ann")
    assert seat["seat"] == 0 and fault.stored(table["table"]) == []
    fault.fail(None)
    session = Session(lobby, table=table["table"], token=seat["token"], seat=0)
    session.connect()  # the table deals now
    try:
        play(session, None)
    finally:
        session.close()
    check_whole_game(session, lobby, fault, table)


# -- one server per SQLite file; a database that cannot be used ----------------------------------


def serve_once(db: str | Path, *, user: str | None = None) -> subprocess.CompletedProcess[str]:
    """``cinco serve --db DB`` expected to stop by itself (it cannot use *db*); one that runs
    on is stopped after a while, and that is a failure."""
    command = [str(CINCO), "serve", "--port", str(free_port()), "--db", str(db)]
    if user is not None:
        command = ["runuser", "-u", user, "--", *command]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        raise AssertionError(f"cinco serve --db {db} started: {err}") from None
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def test_a_second_server_on_one_sqlite_file_refuses_to_start(server: Server) -> None:
    second = serve_once(server.db)
    assert second.returncode != 0
    assert "in use by another cinco serve" in second.stderr
    assert server.process is not None and f"(process {server.process.pid})" in second.stderr
    assert "Traceback" not in second.stderr
    Lobby(server.url).tables()  # the first one serves on
    server.kill()  # the lock goes with its process, however it ends
    server.start()


def test_a_store_s_file_cannot_be_opened_by_another_process(tmp_path: Path) -> None:
    path = tmp_path / "server.db"
    opening = (
        "import sys\nfrom cinco.frontends.net.store import Store, StoreError\n"
        f"try:\n    Store({str(path)!r}).close()\nexcept StoreError as exc:\n"
        "    sys.exit(str(exc))\n"
    )

    def another_process() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", opening], capture_output=True, text=True, timeout=60
        )

    store = Store(path)
    try:
        Store(path).close()  # in this process: shared (a tool beside the server, a test)
        refused = another_process()
        assert refused.returncode == 1 and "in use by another cinco serve" in refused.stderr
        assert f"(process {os.getpid()})" in refused.stderr
    finally:
        store.close()
    assert another_process().returncode == 0  # closed: free again


def damaged(path: Path) -> None:
    store = Store(path)
    store.add_table("t1", {"players": 2}, ("i", "w", "o"), [(None, None, None)] * 2)
    store.close()
    with path.open("r+b") as file:
        file.write(b"this is no longer a database header")


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda path: path.write_text("my notes, not a database\n" * 20), "not a Cinco server"),
        (damaged, "not a Cinco server database, or it is damaged"),
    ],
    ids=["not-a-database", "damaged"],
)
def test_a_database_that_cannot_be_used_stops_the_server_with_a_message(
    tmp_path: Path, make: Callable[[Path], None], words: str
) -> None:
    path = tmp_path / "server.db"
    make(path)
    before = path.read_bytes()
    ran = serve_once(path)
    assert ran.returncode != 0
    assert words in ran.stderr and "--db" in ran.stderr
    assert "Traceback" not in ran.stderr
    assert path.read_bytes() == before  # left as it was


def test_a_postgresql_server_that_is_not_there_stops_the_server_with_a_message() -> None:
    pytest.importorskip("psycopg")
    nobody = f"postgresql://cinco@127.0.0.1:{free_port()}/cinco"  # a port nothing listens on
    ran = serve_once(nobody)
    assert ran.returncode != 0
    assert "check the URL, and that PostgreSQL runs there" in ran.stderr
    assert "Traceback" not in ran.stderr


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    """A folder this test's servers may not write, holding a server's database: read-only
    files for a user, a read-only mount for root (who writes any file)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    Store(folder / "server.db").close()
    if os.geteuid() != 0:
        (folder / "server.db").chmod(0o400)
        folder.chmod(0o500)
        yield folder
        folder.chmod(0o700)
        return
    binds = [["mount", "--bind", str(folder), str(folder)]]
    binds.append(["mount", "-o", "remount,bind,ro", str(folder)])
    for command in binds:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            subprocess.run(["umount", str(folder)], check=False)
            pytest.skip(f"as root, a read-only folder needs a read-only mount: {done.stderr}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_read_only_database_stops_the_server_with_a_message(read_only: Path) -> None:
    for name in ("server.db", "new.db"):  # a database there, and one to be made there
        before = sorted(os.listdir(read_only))
        ran = serve_once(read_only / name)
        assert ran.returncode != 0
        assert "read-only" in ran.stderr and "--db" in ran.stderr, ran.stderr
        assert "Traceback" not in ran.stderr
        assert sorted(os.listdir(read_only)) == before


# -- kill -9 during commits ------------------------------------------------------------------------


def test_kill_9_during_commits_loses_no_accepted_move(server: Server) -> None:
    """Moves sent, and the server killed a moment later (often while it commits): every move
    answered ``accepted`` before the kill is in the store after the restart, and the game
    goes on from there to its end."""
    lobby, table, session = seated(server)
    fault = SqliteFault(Path(server.db))
    chooser = random.Random(23)
    accepted: list[int] = []
    try:
        for _kill in range(5):
            move = my_prompt(session, timeout=60)
            raw = connect(
                lobby.ws_url(f"/ws/tables/{table['table']}"),
                additional_headers={"Authorization": f"Bearer {session.token}"},
                open_timeout=10,
            )
            submit = Submit(move).to_dict()
            raw.send(json.dumps({**submit, "v": PROTOCOL_VERSION}))
            time.sleep(chooser.uniform(0, 0.25))  # before, during or after
            server.kill()
            try:
                while True:
                    frame = json.loads(raw.recv(timeout=2))
                    if frame["type"] == "accepted":
                        accepted.append(frame["seq"])
            except Exception:  # the connection died with the server
                pass
            raw.close()
            stored = fault.stored(table["table"])
            assert all(seq < len(stored) for seq in accepted), (accepted, len(stored))
            server.start()
        assert accepted, "no move was answered before a kill: the test proved nothing"
        play(session, None)
    finally:
        session.close()
    check_whole_game(session, lobby, fault, table)


# -- who may read the files ------------------------------------------------------------------------


@pytest.fixture
def umask() -> Iterator[None]:
    """The common umask (022), which would leave new files readable by every local user."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_the_database_and_its_folder_are_the_owner_s_only(tmp_path: Path, umask: None) -> None:
    path = tmp_path / "data" / "cinco" / "server.db"
    store = Store(path)
    try:
        store.add_table("t1", {"players": 2}, ("i", "w", "o"), [(None, None, None)] * 2)
        files = [path, path.with_name("server.db-wal"), path.with_name("server.db-shm")]
        assert [mode(file) for file in files] == [0o600] * 3
        assert mode(path.with_name("server.db.lock")) == 0o600
        assert mode(path.parent) == mode(path.parent.parent) == 0o700
    finally:
        store.close()
    for file in files:  # a database made before (0644) is closed up at the next start
        if file.exists():
            file.chmod(0o644)
    Store(path).close()
    assert [mode(file) for file in files if file.exists()] == [0o600] * sum(
        file.exists() for file in files
    )


def test_records_and_the_saves_folder_are_the_owner_s_only(tmp_path: Path, umask: None) -> None:
    from cinco.core.engine.config import GameConfig
    from cinco.core.game.game import Game

    record = RecordFile.create(tmp_path / "games" / "one.jsonl")
    record.close()
    assert mode(tmp_path / "games" / "one.jsonl") == 0o600
    assert mode(tmp_path / "games") == 0o700
    written = tmp_path / "plugin" / "two.jsonl"
    game = Game.new(GameConfig.for_players(2, seed=5), plugins=[RecordWriter(written)])
    game.close()
    assert mode(written) == 0o600 and mode(written.parent) == 0o700
    rebuilt = tmp_path / "plugin" / "three.jsonl"
    Game.from_events(list(game.events), plugins=[RecordWriter(rebuilt)]).close()
    assert mode(rebuilt) == 0o600  # written whole, then put in place
    older = tmp_path / "games" / "older.jsonl"  # made before records were private
    RecordFile.create(older, list(game.events)).close()
    older.chmod(0o644)
    RecordFile.reopen(older, keep=len(game.events)).close()
    assert mode(older) == 0o600  # closed up when it is played on
