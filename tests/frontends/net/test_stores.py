"""The server's two stores keep one contract: every test here runs against the SQLite store
(frontends/net/store.py, a file in the test's folder) and against the PostgreSQL store
(frontends/net/store_pg.py, a new database on the session's own PostgreSQL server, the
``postgres`` fixture; skipped where there is none), both opened as ``cinco serve --db`` opens
them (:func:`cinco.frontends.net.storage.open_store`).

The contract (:class:`cinco.frontends.net.storage.LobbyStore`): the schema is made at the first
open and brought up to date at a later one; a table keeps its settings, code hashes, state and
rematch; a seat its player, bot, token hash and held seat; the turn timers' readings are kept;
a table's events are appended by its sink one turn at a time, stored at the turn's commit and
not before, with sequence numbers 0, 1, 2 … and nothing of a turn that failed; a store reopened
goes on from what it has. What only one store does (SQLite's file lock and writer, PostgreSQL's
leases) is tested in test_server_writer.py, test_server_faults.py and test_server_pg.py.

Networked play: issue 12, docs/server.md ("Storage", "Several server processes").
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cinco import Seat, Table, default_registry
from cinco.core.engine.events import GameEnded, TurnEnded, event_from_dict
from cinco.core.table.protocol import Accepted
from cinco.frontends.net.storage import LobbyStore, open_store

#: The first schema, before the columns the stores add at open (``store.ADDED``).
FIRST_SCHEMA = (
    "CREATE TABLE tables (id TEXT PRIMARY KEY, created DOUBLE PRECISION NOT NULL,"
    " settings TEXT NOT NULL, invite_hash TEXT NOT NULL UNIQUE, watch_hash TEXT NOT NULL UNIQUE,"
    " owner_hash TEXT NOT NULL, state TEXT NOT NULL DEFAULT 'waiting')",
    "CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL,"
    " name TEXT, bot TEXT, level TEXT, token_hash TEXT, PRIMARY KEY (table_id, seat))",
    "CREATE TABLE events (table_id TEXT NOT NULL REFERENCES tables(id), seq INTEGER NOT NULL,"
    " data TEXT NOT NULL, PRIMARY KEY (table_id, seq))",
)
#: Inserting an event fails while ``fault`` has a row (a store refusing a write mid-turn).
FAULT = {
    "sqlite": (
        "CREATE TABLE fault (why TEXT)",
        "CREATE TRIGGER refuse BEFORE INSERT ON events WHEN EXISTS (SELECT 1 FROM fault)"
        " BEGIN SELECT RAISE(ABORT, 'disk I/O error (injected by the test)'); END",
    ),
    "postgresql": (
        "CREATE TABLE fault (why TEXT)",
        "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        " IF EXISTS (SELECT 1 FROM fault) THEN RAISE EXCEPTION 'no space left (injected)';"
        " END IF; RETURN NEW; END $$",
        "CREATE TRIGGER refuse BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION refuse()",
    ),
}
TWO_SEATS: list[tuple[str | None, str | None, str | None]] = [(None, None, None)] * 2


@dataclass(frozen=True)
class Backend:
    """One kind of store: its name and its ``--db`` (a file's path or a database's URL)."""

    kind: str
    db: str

    def open(self) -> LobbyStore:
        return open_store(self.db)

    def sql(self, *statements: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run *statements* on a connection of their own, committed; the last one's rows.
        Parameters are written ``?`` (PostgreSQL's ``%s`` is put in for it)."""
        if self.kind == "sqlite":
            with sqlite3.connect(self.db) as lite:
                rows = [lite.execute(s, params).fetchall() for s in statements]
            lite.close()
            return rows[-1]
        import psycopg

        with psycopg.connect(self.db, autocommit=True) as connection:
            rows = []
            for statement in statements:
                if params:
                    cursor = connection.execute(statement.replace("?", "%s"), params)
                else:  # no parameters: a '%' in the statement is no placeholder
                    cursor = connection.execute(statement)
                rows.append(cursor.fetchall() if cursor.description else [])
        return rows[-1]

    def hold(self, store: LobbyStore, table_id: str) -> None:
        """Make *store* the table's holder (PostgreSQL: take its lease; SQLite: one process
        holds every table)."""
        claim = getattr(store, "claim", None)
        if claim is not None:
            claim(table_id)

    def seqs(self, table_id: str) -> list[int]:
        """The stored events' sequence numbers, read from the database itself."""
        rows = self.sql(
            "SELECT seq FROM events WHERE table_id = ? ORDER BY seq", params=(table_id,)
        )
        return [row[0] for row in rows]


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "sqlite":
        return Backend("sqlite", str(tmp_path / "server.db"))
    server: Any = request.getfixturevalue("postgres")  # skips where there is none
    return Backend("postgresql", server.new_database())


@pytest.fixture
def store(backend: Backend) -> Iterator[LobbyStore]:
    opened = backend.open()
    try:
        yield opened
    finally:
        opened.close()


def play_until_over(table: Table) -> None:
    while not table.status().is_over:
        assert isinstance(table.play_bot_turn(), Accepted)


# -- the lobby ------------------------------------------------------------------------------------


def test_tables_keep_their_settings_codes_state_and_rematch(store: LobbyStore) -> None:
    settings = {"players": 2, "names": ["Ann", "Účet"], "timers": {"turn": 30.5}}
    store.add_table("t1", settings, ("i1", "w1", "o1"), [("Ann", None, None)] * 2)
    store.add_table("t2", {"players": 2}, ("i2", "w2", "o1"), TWO_SEATS)
    first, second = store.tables()  # in the order they were made
    assert (first.id, first.settings, first.state, first.rematch) == (
        "t1",
        settings,
        "waiting",
        None,
    )
    assert (first.invite_hash, first.watch_hash, first.owner_hash) == ("i1", "w1", "o1")
    assert second.id == "t2" and second.created >= first.created
    store.set_state("t1", "playing")
    store.set_rematch("t1", "t2")
    assert [(row.id, row.state, row.rematch) for row in store.tables()] == [
        ("t1", "playing", "t2"),
        ("t2", "waiting", None),
    ]


def test_seats_keep_their_player_bot_token_hash_and_held_seat(store: LobbyStore) -> None:
    store.add_table(
        "t1",
        {"players": 3},
        ("i", "w", "o"),
        [("Ann", None, None), ("Gus", "greedy", "hard"), (None, None, None)],
        held=[None, None, "h"],
    )
    seats = store.seats("t1")
    assert [(s.seat, s.name, s.bot, s.level) for s in seats] == [
        (0, "Ann", None, None),
        (1, "Gus", "greedy", "hard"),
        (2, None, None, None),
    ]
    assert [s.token_hash for s in seats] == [None] * 3 and [s.held for s in seats] == [
        None,
        None,
        "h",
    ]
    store.set_seat("t1", 2, "Bob", "tokenhash")  # taken: not held any more
    store.set_seat("t1", 0, None, None, held="ann's")  # freed, and kept for its player
    assert [(s.name, s.token_hash, s.held) for s in store.seats("t1")] == [
        (None, None, "ann's"),
        ("Gus", None, None),
        ("Bob", "tokenhash", None),
    ]


def test_a_table_whose_code_is_taken_is_not_added_at_all(store: LobbyStore) -> None:
    store.add_table("t1", {"players": 2}, ("i", "w", "o"), TWO_SEATS)
    for hashes in [("i", "w2", "o"), ("i2", "w", "o")]:
        with pytest.raises(OSError):
            store.add_table("t2", {"players": 2}, hashes, TWO_SEATS)
        assert [row.id for row in store.tables()] == ["t1"] and store.seats("t2") == []


def test_an_unknown_table_has_no_seats_events_or_clocks(store: LobbyStore) -> None:
    assert store.tables() == []
    assert store.seats("nope") == [] and store.events("nope") == []
    assert store.clocks("nope") is None


def test_the_clocks_readings_are_kept_and_one_not_waited_for_is_stored_by_the_close(
    backend: Backend,
) -> None:
    store = backend.open()
    try:
        store.add_table("t1", {"players": 2}, ("i", "w", "o"), TWO_SEATS)
        assert store.clocks("t1") is None
        store.set_clocks("t1", {"turn": 4, "left": [12.5, 30.0], "running": 1})
        assert store.clocks("t1") == {"turn": 4, "left": [12.5, 30.0], "running": 1}
        store.set_clocks("t1", {"turn": 5, "left": [12.5, 29.0], "running": 0}, wait=False)
    finally:
        store.close()
    again = backend.open()
    try:
        assert again.clocks("t1") == {"turn": 5, "left": [12.5, 29.0], "running": 0}
    finally:
        again.close()


def test_the_lobby_s_side_may_be_used_from_several_threads(store: LobbyStore) -> None:
    def make(index: int) -> None:
        store.add_table(f"t{index}", {"players": 2}, (f"i{index}", f"w{index}", "o"), TWO_SEATS)
        store.set_seat(f"t{index}", 1, f"P{index}", f"h{index}")

    threads = [threading.Thread(target=make, args=(index,)) for index in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(row.id for row in store.tables()) == [f"t{index}" for index in range(8)]
    assert all(store.seats(f"t{index}")[1].name == f"P{index}" for index in range(8))


# -- the schema -----------------------------------------------------------------------------------


def test_a_reopened_store_has_what_was_stored(backend: Backend) -> None:
    store = backend.open()
    try:
        store.add_table("t1", {"players": 2}, ("i", "w", "o"), [("Ann", None, None)] * 2)
        store.set_seat("t1", 1, "Bob", "tokenhash")
        sink = store.sink("t1")
        sink.append(TurnEnded(0, "draw", 1))
        sink.close()
    finally:
        store.close()
    again = backend.open()  # the schema is there: made again, it changes nothing
    try:
        assert [row.id for row in again.tables()] == ["t1"]
        assert [(s.name, s.token_hash) for s in again.seats("t1")] == [
            ("Ann", None),
            ("Bob", "tokenhash"),
        ]
        assert [event_from_dict(data) for data in again.events("t1")] == [TurnEnded(0, "draw", 1)]
    finally:
        again.close()


def test_a_database_of_the_first_schema_gets_the_columns_added_since(backend: Backend) -> None:
    backend.sql(
        *FIRST_SCHEMA,
        "INSERT INTO tables (id, created, settings, invite_hash, watch_hash, owner_hash)"
        " VALUES ('old', 1.0, '{\"players\": 2}', 'i', 'w', 'o')",
    )
    backend.sql(
        "INSERT INTO seats (table_id, seat, name) VALUES ('old', 0, 'Ann'), ('old', 1, NULL)"
    )
    store = backend.open()
    try:
        backend.hold(store, "old")
        [old] = store.tables()
        assert (old.id, old.settings, old.state, old.rematch) == (
            "old",
            {"players": 2},
            "waiting",
            None,
        )
        assert [(s.name, s.held) for s in store.seats("old")] == [("Ann", None), (None, None)]
        assert store.clocks("old") is None
        store.add_table("new", {"players": 2}, ("i2", "w2", "o"), TWO_SEATS, held=["h", None])
        store.set_rematch("old", "new")
        store.set_seat("old", 1, None, None, held="h")
        store.set_clocks("old", {"turn": 0, "left": [1.0, 2.0], "running": None})
        assert store.tables()[0].rematch == "new" and store.seats("old")[1].held == "h"
        assert store.clocks("old") == {"turn": 0, "left": [1.0, 2.0], "running": None}
    finally:
        store.close()


# -- a table's events -----------------------------------------------------------------------------


def test_a_table_s_turn_is_stored_at_its_commit_and_not_before(
    store: LobbyStore, backend: Backend
) -> None:
    store.add_table("t1", {"players": 2}, ("i", "w", "o"), [("Ann", None, None)] * 2)
    sink = store.sink("t1")
    assert sink.path is None  # a database, not a record file
    turn = [TurnEnded(0, "draw", 1), TurnEnded(1, "play", 0)]
    for event in turn:
        sink.append(event)
    assert store.events("t1") == []  # a turn is written whole, at its commit
    sink.commit()
    assert [event_from_dict(data) for data in store.events("t1")] == turn
    sink.append(TurnEnded(0, "exchange", 1))
    sink.close()  # what was appended is committed at the close
    assert len(store.events("t1")) == 3 and backend.seqs("t1") == [0, 1, 2]
    again = store.sink("t1", keep=2)  # a restart that kept two events: the rest goes
    again.close()
    assert [event_from_dict(data) for data in store.events("t1")] == turn


def test_a_turn_that_cannot_be_stored_is_not_stored_and_is_written_whole_later(
    store: LobbyStore, backend: Backend
) -> None:
    store.add_table("t1", {"players": 2}, ("i", "w", "o"), TWO_SEATS)
    sink = store.sink("t1")
    sink.append(TurnEnded(0, "draw", 1))
    sink.commit()
    backend.sql(*FAULT[backend.kind], "INSERT INTO fault VALUES ('full')")
    turn = [TurnEnded(1, "play", 0), TurnEnded(0, "draw", 1)]
    for event in turn:
        sink.append(event)
    with pytest.raises(OSError):
        sink.commit()
    assert backend.seqs("t1") == [0]  # none of the turn
    backend.sql("DELETE FROM fault")
    for event in turn:  # the table plays the turn again
        sink.append(event)
    sink.commit()
    assert backend.seqs("t1") == [0, 1, 2]
    assert [event_from_dict(data) for data in store.events("t1")][1:] == turn
    sink.close()


def test_a_game_played_stopped_and_restored_keeps_one_log(
    store: LobbyStore, backend: Backend
) -> None:
    """A table writes its events to the store; a restart goes on from them, and the log only
    grows, to the game's end."""
    registry = default_registry()
    config = registry.configure(2, seats=[Seat("Gus", bot="greedy"), Seat("Rita", bot="random")])
    store.add_table("t1", {"players": 2}, ("i", "w", "o"), [("Gus", "greedy", None)] * 2)
    table = Table.create(config, registry=registry, sink=lambda: store.sink("t1"), table_id="t1")
    for _ in range(6):
        assert isinstance(table.play_bot_turn(), Accepted)
    seq = table.status().seq
    table.close()
    first = store.events("t1")
    assert len(first) == seq + 1 and backend.seqs("t1") == list(range(seq + 1))

    events = [event_from_dict(data) for data in first]
    again = Table.restore(
        events, lambda keep: store.sink("t1", keep), table_id="t1", registry=registry
    )
    assert again.status().seq == seq
    play_until_over(again)
    again.close()
    whole = store.events("t1")
    assert whole[: len(first)] == first and len(whole) > len(first)
    assert backend.seqs("t1") == list(range(len(whole)))
    assert whole[-1]["type"] == event_from_dict(whole[-1]).type
    assert isinstance(event_from_dict(whole[-1]), GameEnded)
