"""The PostgreSQL store (``cinco serve --db postgresql://…``) against a real PostgreSQL server
that this module starts (``initdb`` in a temporary folder, ``postgres`` on 127.0.0.1 and a
free port; as root, run as the ``postgres`` user), and stops at the end: the store's round
trip, a whole game through ``cinco serve``, ``kill -9`` and a restart, and two server
processes sharing the tables by leases. Skipped when no PostgreSQL binaries are installed
(Debian: ``apt-get install postgresql``).

Networked play: issue 12, docs/server.md ("Several server processes").
"""

from __future__ import annotations

import glob
import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest

psycopg = pytest.importorskip("psycopg")
pytest.importorskip("uvicorn")
websockets_sync = pytest.importorskip("websockets.sync.client")

from live_server import Server, bot_clients, cinco, free_port, play  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402

from cinco.core.engine.config import Seat  # noqa: E402
from cinco.core.engine.events import GameEnded, event_from_dict  # noqa: E402
from cinco.core.host.registry import default_registry  # noqa: E402
from cinco.core.table.protocol import Accepted, Subscribe  # noqa: E402
from cinco.core.table.table import Table  # noqa: E402
from cinco.frontends.net.client import Lobby, NetError, Session  # noqa: E402
from cinco.frontends.net.storage import open_store  # noqa: E402
from cinco.frontends.net.store_pg import LEASE_SECONDS, POOL, LeaseLost, PgStore  # noqa: E402


def postgres_bin() -> Path | None:
    """The folder with ``initdb`` and ``postgres``: Debian's newest, or the PATH's."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "postgres").exists():
            return Path(folder)
    initdb, postgres = shutil.which("initdb"), shutil.which("postgres")
    if initdb and postgres and Path(initdb).parent == Path(postgres).parent:
        return Path(initdb).parent
    return None


@dataclass
class Postgres:
    """A PostgreSQL server of the tests' own, on 127.0.0.1:port, user ``cinco``, no password."""

    port: int
    process: subprocess.Popen[bytes]
    data: Path

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://cinco@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        name = f"t_{secrets.token_hex(4)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return self.url(name)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    folder = postgres_bin()
    if folder is None:
        pytest.skip(
            "no PostgreSQL server binaries (initdb, postgres) in /usr/lib/postgresql/*/bin or"
            " on PATH: apt-get install postgresql"
        )
    prefix: list[str] = []
    user = None
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: run it as its own user
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no postgres user to run PostgreSQL as")
        prefix = ["runuser", "-u", "postgres", "--"]
    root = tempfile.mkdtemp(prefix="cinco-pg-")
    if user is not None:
        os.chown(root, user.pw_uid, user.pw_gid)
    data = Path(root) / "data"
    initdb = subprocess.run(
        [*prefix, str(folder / "initdb"), "-D", str(data), "-U", "cinco"]
        + ["--auth=trust", "-E", "UTF8", "--no-sync"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if initdb.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        raise AssertionError(f"initdb failed: {initdb.stderr}")
    port = free_port()
    log = open(Path(root) / "postgres.log", "wb")  # noqa: SIM115 (open while it runs)
    process = subprocess.Popen(
        [*prefix, str(folder / "postgres"), "-D", str(data), "-k", root]
        + ["-p", str(port), "-h", "127.0.0.1", "-c", "max_connections=60"],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    server = Postgres(port, process, data)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                psycopg.connect(server.url(), connect_timeout=2).close()
                break
            except psycopg.OperationalError:
                assert process.poll() is None, (Path(root) / "postgres.log").read_text()
                assert time.monotonic() < deadline, "PostgreSQL did not start in 60 s"
                time.sleep(0.2)
        yield server
    finally:
        pid_file = data / "postmaster.pid"  # the server's own pid (runuser is its parent)
        if pid_file.exists():
            os.kill(int(pid_file.read_text().split()[0]), signal.SIGINT)  # fast shutdown
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        log.close()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def db(postgres: Postgres) -> str:
    """A new, empty database of the test's own."""
    return postgres.new_database()


@pytest.fixture
def servers(db: str, tmp_path: Path) -> Iterator[list[Server]]:
    """Two servers on one database (not started)."""
    made = [Server(db, free_port(), tmp_path / f"server{i}.log") for i in (1, 2)]
    try:
        yield made
    finally:
        for server in made:
            server.stop()


def get(url: str) -> tuple[int, dict[str, str], dict[str, object]]:
    """Status, headers (names in lower case) and JSON body of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            headers = {key.lower(): value for key, value in answer.headers.items()}
            return answer.status, headers, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        headers = {key.lower(): value for key, value in exc.headers.items()}
        return exc.code, headers, json.loads(exc.read())


def stored_seqs(db: str, table: str) -> list[int]:
    with psycopg.connect(db) as conn:
        rows = conn.execute(
            "SELECT seq FROM events WHERE table_id = %s ORDER BY seq", (table,)
        ).fetchall()
    return [row[0] for row in rows]


def check_whole_log(session: Session, lobby: Lobby, db: str, table: str, seat: int) -> None:
    """The seat saw the referee's whole log, each event once, in order, as the store has it."""
    seqs = [envelope.seq for envelope in session.view.log]
    assert seqs == list(range(len(seqs)))
    lines = lobby.record(table).splitlines()[1:]
    referee = [event_from_dict(json.loads(line)) for line in lines]
    assert isinstance(referee[-1], GameEnded)
    assert stored_seqs(db, table) == list(range(len(referee)))
    assert [e.event for e in session.view.log] == [e.seen_by(seat) for e in referee]


# -- the store ----------------------------------------------------------------------------------


def test_store_round_trip_tables_seats_and_events_in_order(db: str) -> None:
    store = open_store(db)
    assert isinstance(store, PgStore)
    try:
        store.add_table("t1", {"players": 2}, ("i1", "w1", "o1"), [("Ann", None, None)] * 2)
        store.add_table(
            "t2", {"players": 2}, ("i2", "w2", "o1"), [(None, None, None)] * 2, held=["h", None]
        )
        store.set_seat("t1", 1, "Bob", "tokenhash")
        store.set_state("t1", "playing")
        store.set_rematch("t1", "t2")
        assert [(row.id, row.state, row.rematch) for row in store.tables()] == [
            ("t1", "playing", "t2"),
            ("t2", "waiting", None),
        ]
        assert [(s.name, s.token_hash) for s in store.seats("t1")] == [
            ("Ann", None),
            ("Bob", "tokenhash"),
        ]
        assert [s.held for s in store.seats("t2")] == ["h", None]
        assert store.find("w2", "watch") == "t2" and store.find("nope", "invite") is None
        assert store.clocks("t1") is None
        store.set_clocks("t1", {"turn": 4, "left": [12.5, 30.0], "running": 1})
        assert store.clocks("t1") == {"turn": 4, "left": [12.5, 30.0], "running": 1}

        registry = default_registry()
        config = registry.configure(
            2, seats=[Seat("Gus", bot="greedy"), Seat("Rita", bot="random")]
        )
        table = Table.create(
            config, registry=registry, sink=lambda: store.sink("t1"), table_id="t1"
        )
        for _ in range(6):
            assert isinstance(table.play_bot_turn(), Accepted)
        seq = table.status().seq
        table.close()
        first = store.events("t1")
        assert len(first) == seq + 1 and stored_seqs(db, "t1") == list(range(seq + 1))

        # A restart: the table goes on from its events, and the log only grows.
        events = [event_from_dict(data) for data in first]
        again = Table.restore(
            events, lambda keep: store.sink("t1", keep), table_id="t1", registry=registry
        )
        assert again.status().seq == seq
        while not again.status().is_over:
            assert isinstance(again.play_bot_turn(), Accepted)
        again.close()
        whole = store.events("t1")
        assert whole[: len(first)] == first and len(whole) > len(first)
        assert whole[-1]["type"] == event_from_dict(whole[-1]).type
        assert isinstance(event_from_dict(whole[-1]), GameEnded)
    finally:
        store.close()


def test_a_process_without_the_lease_cannot_write(db: str) -> None:
    holder, other = PgStore(db), PgStore(db)
    try:
        holder.add_table("t1", {"players": 2}, ("i", "w", "o"), [(None, None, None)] * 2)
        found = other.claim("t1")
        assert found is not None and found.owner == holder.owner and found.left > 0
        with pytest.raises(LeaseLost):
            other.set_seat("t1", 0, "Eve", "x")
        with pytest.raises(LeaseLost):
            other.set_clocks("t1", {"left": [1.0, 1.0], "running": None})
        with pytest.raises(LeaseLost):
            other.sink("t1")  # fenced from its first transaction
        assert holder.seats("t1")[0].name is None
        holder.close()  # gives its leases up: the other takes the table at once
        taken = other.claim("t1")
        assert taken is not None and taken.owner == other.owner
        other.set_seat("t1", 0, "Eve", "x")
        assert other.seats("t1")[0].name == "Eve"
    finally:
        other.close()


def test_the_tables_share_a_few_connections(db: str) -> None:
    store = PgStore(db)
    registry = default_registry()
    config = registry.configure(2, seats=[Seat("Gus", bot="greedy"), Seat("Rita", bot="random")])
    names = [f"t{index}" for index in range(3 * POOL)]
    tables = []
    try:
        for name in names:
            store.add_table(name, {"players": 2}, (name, f"w{name}", "o"), [(None, None, None)] * 2)
            tables.append(
                Table.create(
                    config, registry=registry, sink=partial(store.sink, name), table_id=name
                )
            )
        for table in tables:
            assert isinstance(table.play_bot_turn(), Accepted)
        with psycopg.connect(db) as probe:
            row = probe.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            ).fetchone()
        assert row is not None and row[0] <= POOL + 2  # the pool, the lobby's, the probe
        assert all(len(store.events(name)) >= 2 for name in names)
    finally:
        for table in tables:
            table.close()
        store.close()


# -- cinco serve on PostgreSQL ------------------------------------------------------------------


def test_two_bot_clients_play_a_whole_game(servers: list[Server], db: str, tmp_path: Path) -> None:
    server = servers[0]
    server.start()
    created = cinco("table", "create", "--server", server.url, "--players", "2", "--json")
    assert created.returncode == 0, created.stderr
    table = json.loads(created.stdout)
    bots = bot_clients(server.url, table["code"])
    try:
        outputs = [bot.communicate(timeout=90) for bot in bots]
    finally:
        for process in bots:
            process.kill()
    assert [bot.returncode for bot in bots] == [0, 0], outputs
    exported = cinco("table", "export", "--server", server.url, table["table"])
    assert exported.returncode == 0, exported.stderr
    record = tmp_path / "game.jsonl"
    record.write_text(exported.stdout)
    replayed = cinco("replay", str(record), "--json")
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["result"] is not None
    # The record is the database's log, event for event.
    store = PgStore(db)
    try:
        stored = [json.dumps(data, sort_keys=True) for data in store.events(table["table"])]
        assert [row.state for row in store.tables()] == ["over"]
    finally:
        store.close()
    lines = exported.stdout.splitlines()[1:]
    assert [json.dumps(json.loads(line), sort_keys=True) for line in lines] == stored


def test_kill_9_and_restart_the_game_goes_on(servers: list[Server], db: str) -> None:
    server = servers[0]
    server.start()
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "bots": {"2": "greedy"}})
    seat = lobby.join(table["code"], "Ann")
    session = Session(lobby, table=table["table"], token=seat["token"], seat=seat["seat"])
    session.connect()
    try:
        assert play(session, 3) == 3
        before = session.view.seq
        server.kill()  # mid-game: no goodbye, its leases left behind
        server.start()  # the same database and address: it takes its tables back at once
        play(session, None)  # the client connects again by itself, after=SEQ
    finally:
        session.close()
    assert session.view.over and session.view.seq > before
    check_whole_log(session, lobby, db, table["table"], seat["seat"])
    with psycopg.connect(db) as conn:
        holder = conn.execute(
            "SELECT owner FROM leases WHERE table_id = %s", (table["table"],)
        ).fetchone()
    assert holder == (f"{socket.gethostname()}:{server.port}",)  # the same name: no wait


def test_two_processes_a_table_is_held_by_one_then_taken_over(
    servers: list[Server], db: str
) -> None:
    first, second = servers
    first.start()
    second.start()
    lobby = Lobby(first.url)
    table = lobby.create({"players": 2, "bots": {"2": "greedy"}})
    waiting = lobby.create({"players": 2})
    seat = lobby.join(table["code"], "Ann")
    session = Session(lobby, table=table["table"], token=seat["token"], seat=seat["seat"])
    session.connect()
    try:
        assert play(session, 3) == 3
        seen = list(session.view.log)
    finally:
        session.close()

    # The second process lists every table, but sends requests about the first's away.
    listed = {entry["table"] for entry in Lobby(second.url).tables()}
    assert waiting["table"] in listed
    status, headers, body = get(f"{second.url}/api/tables/{table['table']}")
    assert status == 503 and body["error"] == "elsewhere"
    assert body["server"] == first.url and headers["cinco-server"] == first.url
    assert 1 <= int(headers["retry-after"]) <= LEASE_SECONDS
    with pytest.raises(InvalidStatus) as refused:
        websockets_sync.connect(
            f"ws://127.0.0.1:{second.port}/ws/tables/{table['table']}",
            additional_headers={"Authorization": f"Bearer {seat['token']}"},
            open_timeout=10,
        )
    assert refused.value.response.status_code == 503
    with pytest.raises(NetError, match="served by another server process"):
        Lobby(second.url).join(waiting["code"], "Eve")
    assert get(f"{first.url}/api/tables/{table['table']}")[0] == 200

    first.kill()
    killed = time.monotonic()
    status, _headers, _body = get(f"{second.url}/api/tables/{table['table']}")
    assert status == 503  # the dead process's lease has not run out yet
    while status == 503:
        assert time.monotonic() - killed < LEASE_SECONDS + 10, "no takeover"
        time.sleep(0.25)
        status, _headers, body = get(f"{second.url}/api/tables/{table['table']}")
    took = time.monotonic() - killed
    assert status == 200 and body["state"] == "playing", body
    print(f"takeover {took:.1f} s after kill -9 (lease {LEASE_SECONDS:.0f} s)")

    # The person goes on at the second process, from the start of the stream: nothing lost.
    other = Lobby(second.url)
    again = Session(other, table=table["table"], token=seat["token"], seat=seat["seat"])
    again.connect()
    try:
        play(again, None)
    finally:
        again.close()
    assert again.view.log[: len(seen)] == seen
    check_whole_log(again, other, db, table["table"], seat["seat"])
    assert Lobby(second.url).join(waiting["code"], "Eve")["seat"] == 0


def test_a_stopped_process_gives_its_tables_up_at_once(servers: list[Server]) -> None:
    first, second = servers
    first.start()
    second.start()
    table = Lobby(first.url).create({"players": 2})
    assert get(f"{second.url}/api/tables/{table['table']}")[0] == 503
    first.stop()  # Ctrl-C / SIGTERM: its leases are given up, not left to run out
    stopped = time.monotonic()
    status, _headers, body = get(f"{second.url}/api/tables/{table['table']}")
    assert status == 200 and body["state"] == "waiting"
    assert time.monotonic() - stopped < LEASE_SECONDS / 2
    assert Lobby(second.url).join(table["code"], "Ann")["seat"] == 0


def test_a_paused_holder_loses_its_table_and_writes_nothing(servers: list[Server], db: str) -> None:
    first, second = servers
    first.start()
    second.start()
    lobby = Lobby(first.url)
    table = lobby.create({"players": 2, "bots": {"2": "greedy"}})
    seat = lobby.join(table["code"], "Ann")
    session = Session(lobby, table=table["table"], token=seat["token"], seat=seat["seat"])
    session.connect()
    try:
        assert play(session, 2) == 2
    finally:
        session.close()
    watcher = websockets_sync.connect(
        f"ws://127.0.0.1:{first.port}/ws/watch",
        additional_headers={"Authorization": f"Bearer {table['watch']}"},
        open_timeout=10,
    )
    watcher.send(json.dumps(Subscribe(-1).to_dict()))
    assert first.process is not None
    first.process.send_signal(signal.SIGSTOP)  # hung: its leases are not renewed
    try:
        paused = time.monotonic()
        while get(f"{second.url}/api/tables/{table['table']}")[0] == 503:
            assert time.monotonic() - paused < LEASE_SECONDS + 10, "no takeover"
            time.sleep(0.25)
        other = Lobby(second.url)
        again = Session(other, table=table["table"], token=seat["token"], seat=seat["seat"])
        again.connect()
        assert play(again, 1) == 1
    finally:
        first.process.send_signal(signal.SIGCONT)
    # Awake again, the first process finds its lease gone: it drops the table and closes its
    # connections with 4503 (connect again: the table is elsewhere).
    deadline = time.monotonic() + LEASE_SECONDS
    with pytest.raises(ConnectionClosed) as closed:
        while time.monotonic() < deadline:
            watcher.recv(timeout=deadline - time.monotonic())
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4503
    status, _headers, body = get(f"{first.url}/api/tables/{table['table']}")
    assert status == 503 and body["server"] == second.url
    try:
        play(again, None)
    finally:
        again.close()
    check_whole_log(again, other, db, table["table"], seat["seat"])


def test_a_name_in_use_is_not_taken_twice(db: str) -> None:
    first = PgStore(db, owner="box:8765")
    second = PgStore(db, owner="box:8765")  # two machines of one name: the second is renamed
    try:
        assert first.owner == "box:8765" and second.owner != "box:8765"
        first.add_table("t1", {"players": 2}, ("i", "w", "o"), [(None, None, None)] * 2)
        held = second.claim("t1")
        assert held is not None and held.owner == "box:8765"
    finally:
        second.close()
    first.close()
    again = PgStore(db, owner="box:8765")  # the same process, restarted: its name back
    try:
        assert again.owner == "box:8765"
        held = again.claim("t1")
        assert held is not None and held.owner == "box:8765"
    finally:
        again.close()


def test_a_table_taken_over_meanwhile_is_refused_not_broken(db: str) -> None:
    from starlette.testclient import TestClient

    from cinco.frontends.net.server import create_app

    with TestClient(create_app(db)) as client:
        made = client.post("/api/tables", json={"players": 2}).json()
        assert client.get(f"/api/tables/{made['table']}").status_code == 200
        with psycopg.connect(db) as conn:  # another process takes the table (by force)
            conn.execute("INSERT INTO servers (id, address) VALUES ('b', 'http://b:8765')")
            conn.execute(
                "UPDATE leases SET owner = 'b', expires = now() + interval '1 minute'"
                " WHERE table_id = %s",
                (made["table"],),
            )
        answer = client.post("/api/join", json={"code": made["code"], "name": "Ann"})
        assert answer.status_code == 503, answer.text
        assert answer.json()["error"] == "elsewhere"
        assert answer.json()["server"] == "http://b:8765"
        assert answer.headers["cinco-server"] == "http://b:8765"
        assert client.get("/api/tables").json()["tables"][0]["table"] == made["table"]
    store = PgStore(db)
    try:
        assert [seat.name for seat in store.seats(made["table"])] == [None, None]
    finally:
        store.close()
