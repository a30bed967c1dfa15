"""Turn timers: a reserve per player plus an increment per turn, kept by the server (its
clock is injected: time runs out here without sleeping), sent to every connection as
``clock`` messages; when a person's time runs out a bot moves for them and everyone is told.

Networked play: issue 12, docs/server.md (turn timers), docs/seat-protocol.md (``clock``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from time import monotonic, sleep
from typing import Any

import pytest

from cinco.core.engine.errors import CincoError, EventError
from cinco.core.table.protocol import Clock, Subscribe, message_from_dict

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from test_server import Frame, a_move, auth, is_answer, join, msg, new_table, until

from cinco.frontends.net.app import create_app
from cinco.frontends.net.client import RemoteView
from cinco.frontends.net.clock import Clocks, TimeControl
from cinco.frontends.net.play import clock_line
from cinco.frontends.net.store import Store


class FakeTime:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_reserve_runs_down_and_the_increment_is_added() -> None:
    time = FakeTime()
    clocks = Clocks(TimeControl(60, 5), 3, now=time)
    assert clocks.until_expiry() is None and clocks.expired() is None
    clocks.start(1)
    time.now += 20
    assert clocks.snapshot() == (60.0, 40.0, 60.0) and clocks.until_expiry() == 40
    clocks.start(2)  # seat 1 moved
    assert clocks.remaining(1) == 45.0 and clocks.running == 2
    clocks.stop(moved=False)  # a bot took the seat over: no increment
    time.now += 100
    assert clocks.remaining(2) == 60.0 and clocks.expired() is None
    clocks.start(0)
    time.now += 61
    assert clocks.expired() == 0 and clocks.remaining(0) == 0.0
    clocks.run_out()  # a bot moved for seat 0: it has the increment for its next turn
    assert clocks.remaining(0) == 5.0 and clocks.running is None


@pytest.mark.parametrize(
    ("text", "control"),
    [("300+10", TimeControl(300, 10)), ("90", TimeControl(90, 0)), (" 0.5 + 0.1 ", None)],
)
def test_a_time_control_is_read_from_text(text: str, control: TimeControl | None) -> None:
    parsed = TimeControl.parse(text)
    assert parsed == (control or TimeControl(0.5, 0.1))


@pytest.mark.parametrize("text", ["", "5m", "300+", "-3", "0", "1+2+3", "100000"])
def test_a_bad_time_control_says_what_is_wrong(text: str) -> None:
    with pytest.raises(CincoError, match="turn timer"):
        TimeControl.parse(text)


def test_the_clock_message_round_trips_and_is_version_2() -> None:
    clock = Clock("t1", 12, (250.5, 300.0), 0, 300.0, 10.0)
    data = json.loads(json.dumps(clock.to_dict()))
    assert data["v"] == 2 and message_from_dict(data) == clock
    with pytest.raises(EventError, match="version"):
        message_from_dict({**data, "v": 1})  # version 1 had no clock
    assert message_from_dict({"type": "subscribe", "v": 1, "after": 3}) == Subscribe(3)
    for bad in ({"remaining": "x"}, {"running": "0"}, {"reserve": None}, {"table": 3}):
        with pytest.raises(EventError):
            message_from_dict({**data, **bad})


def test_the_terminal_shows_the_clocks() -> None:
    import cinco
    from cinco.core.engine.config import Seat
    from cinco.core.table.table import Table

    config = cinco.default_registry().configure(2, seats=[Seat("Ann"), Seat("Bob")])
    with Table.create(config) as table:
        handle = table.seat(0)
        view = RemoteView(0)
        for envelope in handle.events():
            view.take(envelope)
    assert clock_line(view) == ""  # no timer
    view.take(Clock("t", view.seq, (125.2, 3.0), 1, 300, 10))
    line = clock_line(view)
    assert line.startswith("Clocks: Ann 2:06 · Bob 0:0") and line.endswith("◀")


@pytest.fixture
def fake() -> FakeTime:
    return FakeTime()


@pytest.fixture
def client(tmp_path: Path, fake: FakeTime) -> Iterator[TestClient]:
    app = create_app(tmp_path / "server.db", rate=10_000, now=fake, clock_tick=0.01)
    with TestClient(app) as test_client:
        yield test_client


def seek(ws: object, done: object, frames: list[Frame]) -> Frame:
    """The last frame already read that satisfies *done*, or the next one that does."""
    for frame in reversed(frames):
        if done(frame):  # type: ignore[operator]
            return frame
    return until(ws, done, frames)  # type: ignore[arg-type]


def is_clock(frame: Frame) -> bool:
    return frame["type"] == "clock"


def is_prompt_after(frame: Frame, seq: int) -> bool:
    return frame["type"] == "prompt" and frame["seq"] > seq


def is_end(frame: Frame) -> bool:
    return frame["type"] == "event" and frame["event"]["type"] == "game_ended"


def test_clocks_are_sent_and_a_bot_moves_for_a_person_out_of_time(
    client: TestClient, fake: FakeTime
) -> None:
    table = new_table(client, bots={"2": "greedy"}, timer="10+2")
    assert client.get(f"/api/tables/{table['table']}").json()["timer"] == {
        "reserve": 10.0,
        "increment": 2.0,
    }
    ann = join(client, table["code"], "Ann")
    frames: list[Frame] = []
    with (
        client.websocket_connect("/ws/watch", headers=auth(table["watch"])) as watcher,
        client.websocket_connect(f"/ws/tables/{table['table']}", headers=auth(ann["token"])) as ws,
    ):
        ws.send_text(msg("subscribe", after=-1))
        watcher.send_text(msg("subscribe", after=-1))
        until(ws, is_answer, frames)  # the subscription's answer
        # Whoever starts, Ann's clock runs at her first prompt.
        prompt = seek(ws, lambda f: f["type"] == "prompt", frames)
        clock = seek(ws, lambda f: is_clock(f) and f["running"] == 0, frames)
        assert clock["remaining"] == [10.0, 10.0] and clock["increment"] == 2.0
        fake.now += 3
        ws.send_text(msg("submit", command=a_move(prompt)))
        assert until(ws, is_answer, frames)["type"] == "accepted"
        # The bot moves; Ann's clock runs again, with 10 - 3 + 2 seconds.
        clock = until(ws, lambda f: is_clock(f) and f["running"] == 0, frames)
        assert clock["remaining"][0] == pytest.approx(9.0)
        prompt = seek(ws, lambda f: f["type"] == "prompt", frames)
        fake.now += 9.5  # Ann thinks too long: the server's watcher sees her clock at zero
        told = until(
            ws,
            lambda f: (
                f["type"] == "event"
                and f["event"]["type"] == "notice"
                and f["event"]["code"] == "played_for"
            ),
            frames,
        )
        assert told["event"]["params"] == {"name": "Ann", "bot": "greedy", "reason": "timeout"}
        moved = until(ws, lambda f: f["type"] == "event" and f["event"]["type"] == "turn_ended")
        assert moved["event"]["seat"] == 0
        clock = until(ws, lambda f: is_clock(f) and f["running"] == 0, frames)
        assert clock["remaining"][0] == pytest.approx(2.0)  # zero, plus the increment
        # The spectator was told too, and sees the same clocks.
        seen: list[Frame] = []
        until(watcher, lambda f: f["type"] == "event" and f["seq"] == told["seq"], seen)
        assert any(is_clock(f) for f in seen)
        # Ann is prompted again, on her own clock's 2 seconds.
        prompt = seek(ws, lambda f: f["type"] == "prompt" and f["seq"] > told["seq"], frames)
        assert prompt["seat"] == 0


def test_a_stand_in_stops_the_persons_clock(client: TestClient, fake: FakeTime) -> None:
    table = new_table(client, players=2, timer="30+0", grace=0)
    ann = join(client, table["code"], "Ann")
    bob = join(client, table["code"], "Bob")
    frames: list[Frame] = []
    with client.websocket_connect(f"/ws/tables/{table['table']}", headers=auth(bob["token"])) as ws:
        ws.send_text(msg("subscribe", after=-1))
        until(ws, is_answer, frames)
        # Ann never comes: a bot plays for her at once (grace 0), and her clock never runs.
        # Bob makes up to six moves: her stand-in may win the game before (a quick game is
        # no fault of the server's; waiting for a seventh prompt then would wait for ever).
        answered, moves = -1, 0
        while moves < 6:
            turn = seek(ws, lambda f, a=answered: is_prompt_after(f, a) or is_end(f), frames)
            if is_end(turn):
                break
            fake.now += 1
            ws.send_text(msg("submit", command=a_move(turn)))
            answered = until(ws, is_answer, frames)["seq"]
            moves += 1
        clocks = [f for f in frames if is_clock(f)]
        assert all(f["running"] in (1, None) for f in clocks)
        assert clocks[-1]["remaining"][0] == 30.0
        assert clocks[-1]["remaining"][1] == pytest.approx(30.0 - moves, abs=1.01)
    assert ann["seat"] == 0


def test_a_bad_timer_is_refused(client: TestClient) -> None:
    for bad in ("soon", "0+1", {"reserve": "x"}, 300, {"reserve": 1e9}):
        response = client.post("/api/tables", json={"players": 2, "timer": bad})
        assert response.status_code == 400, bad
        assert "timer" in response.json()["message"]


def _ann_spends_time_then_the_server_stops(
    db: Path, fake: FakeTime, *, crash: bool
) -> tuple[str, str, dict[str, Any]]:
    """Ann (a person, against a bot) spends 3 s on a move, then 4 s on the next, and the
    server stops (``crash``: the store is left as ``kill -9`` would leave it, as it was
    before the stop). The table's id, Ann's token, and the stored readings."""
    app = create_app(db, rate=10_000, now=fake, clock_tick=0.01)
    with TestClient(app) as client:
        table = new_table(client, bots={"2": "greedy"}, timer="10+2")
        ann = join(client, table["code"], "Ann")
        frames: list[Frame] = []
        url = f"/ws/tables/{table['table']}"
        with client.websocket_connect(url, headers=auth(ann["token"])) as ws:
            ws.send_text(msg("subscribe", after=-1))
            until(ws, is_answer, frames)
            prompt = seek(ws, lambda f: f["type"] == "prompt", frames)
            seek(ws, lambda f: is_clock(f) and f["running"] == 0, frames)
            fake.now += 3
            ws.send_text(msg("submit", command=a_move(prompt)))
            assert until(ws, is_answer, frames)["type"] == "accepted"
            clock = until(ws, lambda f: is_clock(f) and f["running"] == 0, frames)
            assert clock["remaining"][0] == pytest.approx(9.0)
            fake.now += 4  # Ann is thinking when the server stops
        # The server queues the readings of her turn's start for its writer (it does not
        # wait for the disk): they are stored within moments.
        deadline = monotonic() + 10
        while (during := Store(db).clocks(table["table"])) is None or during["running"] != 0:
            assert monotonic() < deadline, during
            sleep(0.01)
    if crash:
        Store(db).set_clocks(table["table"], during)
    stored = Store(db).clocks(table["table"])
    assert stored is not None
    return table["table"], ann["token"], stored


def _clocks_after_restart(db: Path, fake: FakeTime, table: str, token: str) -> Frame:
    fake.now += 600  # the server is down for ten minutes: nobody's time
    app = create_app(db, rate=10_000, now=fake, clock_tick=0.01)
    with TestClient(app) as client:
        frames: list[Frame] = []
        with client.websocket_connect(f"/ws/tables/{table}", headers=auth(token)) as ws:
            ws.send_text(msg("subscribe", after=-1))
            until(ws, is_answer, frames)
            return seek(ws, lambda f: is_clock(f) and f["running"] == 0, frames)


@pytest.mark.parametrize(
    ("crash", "left"),
    [
        # A server that stops cleanly stores the running clock as it is: 9 - 4 seconds.
        (False, 5.0),
        # After kill -9, the readings stored when Ann's turn began: she gets that turn's
        # 4 seconds back.
        (True, 9.0),
    ],
    ids=["clean stop", "kill -9"],
)
def test_the_clocks_outlive_a_restart_of_the_server(
    tmp_path: Path, fake: FakeTime, crash: bool, left: float
) -> None:
    db = tmp_path / "server.db"
    table, token, stored = _ann_spends_time_then_the_server_stops(db, fake, crash=crash)
    assert stored["running"] == 0 and stored["left"] == [pytest.approx(left), 10.0]
    clock = _clocks_after_restart(db, fake, table, token)
    assert clock["remaining"] == [pytest.approx(left), 10.0]


def test_clocks_stored_before_a_move_give_its_player_the_increment(
    tmp_path: Path, fake: FakeTime
) -> None:
    db = tmp_path / "server.db"
    table, token, stored = _ann_spends_time_then_the_server_stops(db, fake, crash=False)
    # Readings from a turn before (Ann moved, and the server died before it stored them):
    assert isinstance(stored["turn"], int)
    Store(db).set_clocks(table, {**stored, "turn": stored["turn"] - 2, "left": [6.0, 10.0]})
    clock = _clocks_after_restart(db, fake, table, token)
    assert clock["remaining"] == [pytest.approx(8.0), 10.0]


@pytest.mark.parametrize(
    "bad", ["not json", '{"left": [1.0]}', '{"left": [1, "x"]}', '{"left": [5, 5], "running": 7}']
)
def test_bad_stored_clocks_start_again_from_the_reserve(
    tmp_path: Path, fake: FakeTime, bad: str
) -> None:
    db = tmp_path / "server.db"
    table, token, _stored = _ann_spends_time_then_the_server_stops(db, fake, crash=False)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE tables SET clocks = ? WHERE id = ?", (bad, table))
    clock = _clocks_after_restart(db, fake, table, token)
    assert clock["remaining"] == [10.0, 10.0]


def test_clock_doctests() -> None:
    import doctest

    from cinco.frontends.net import clock

    results = doctest.testmod(clock, optionflags=doctest.ELLIPSIS)
    assert results.attempted >= 10 and results.failed == 0
