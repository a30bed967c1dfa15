"""The PostgreSQL store (``cinco serve --db postgresql://…``) against a real PostgreSQL server
that the session starts (the ``postgres`` fixture, pg_server.py): what the SQLite store
does not have (codes found by hash, leases, the tables' shared connections; the contract both
keep is test_stores.py), a whole game through ``cinco serve``, ``kill -9`` and a restart,
and two server processes sharing the tables by leases. Skipped when no PostgreSQL binaries are
installed (Debian: ``apt-get install postgresql``).

Networked play: issue 12, docs/server.md ("Several server processes").
"""

from __future__ import annotations

import json
import signal
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

psycopg = pytest.importorskip("psycopg")
pytest.importorskip("uvicorn")
websockets_sync = pytest.importorskip("websockets.sync.client")

from live_server import Server, bot_clients, cinco, free_port, play  # noqa: E402
from pg_server import Postgres  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402

from cinco.core.engine.config import Seat  # noqa: E402
from cinco.core.engine.events import GameEnded, event_from_dict  # noqa: E402
from cinco.core.host.registry import default_registry  # noqa: E402
from cinco.core.table.protocol import Accepted, Subscribe  # noqa: E402
from cinco.core.table.table import Table  # noqa: E402
from cinco.frontends.net.client import Lobby, NetError, Session  # noqa: E402
from cinco.frontends.net.storage import open_store  # noqa: E402
from cinco.frontends.net.store_pg import LEASE_SECONDS, POOL, LeaseLost, PgStore  # noqa: E402


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


def test_open_store_gives_a_postgresql_store_that_finds_tables_by_their_codes(db: str) -> None:
    """What only this store has beside the contract both keep (test_stores.py): a
    table found by its invite or watch code's hash (one process may not hold every table)."""
    store = open_store(db)
    assert isinstance(store, PgStore)
    try:
        store.add_table("t1", {"players": 2}, ("i1", "w1", "o1"), [("Ann", None, None)] * 2)
        store.add_table("t2", {"players": 2}, ("i2", "w2", "o1"), [(None, None, None)] * 2)
        assert store.find("w2", "watch") == "t2" and store.find("i1", "invite") == "t1"
        assert store.find("nope", "invite") is None
        row = store.table("t2")
        assert row is not None and row.id == "t2" and store.table("nope") is None
        assert [seat.name for seat in store.all_seats()["t1"]] == ["Ann", "Ann"]
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

    from cinco.frontends.net.app import create_app

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
