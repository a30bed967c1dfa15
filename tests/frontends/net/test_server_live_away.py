"""A real ``cinco serve`` on 127.0.0.1: a person whose connection drops is replaced by a bot
after the table's grace and takes the seat back on rejoin; a person out of time has a bot
move for them; ``cinco join`` killed with ``kill -9`` comes back to its seat from the token
it keeps on disk. Bounded: one server, a few clients, each with a timeout.

Networked play: issue 12, docs/server.md (zombie mode, turn timers).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from live_server import CINCO, Server
from test_server_live import cinco

from cinco.core.engine.events import GameEnded, Notice, TurnEnded, event_from_dict
from cinco.core.table.protocol import Clock, Submit
from cinco.frontends.net.client import Lobby, Session


def notices(session: Session, code: str) -> list[Notice]:
    return [
        e.event for e in session.view.log if isinstance(e.event, Notice) and e.event.code == code
    ]


def step(session: Session) -> None:
    """Take in what came; on this seat's turn, play its first legal move."""
    while session.receive(timeout=0.005) is not None:
        pass
    legal = session.view.legal()
    if legal is not None:
        session.request(Submit(next(iter(legal))))


def test_a_dropped_player_is_replaced_then_takes_the_seat_back(server: Server) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "grace": 0.5})
    seats = [lobby.join(table["code"], name) for name in ("Ann", "Bob")]
    ann, bob = (
        Session(lobby, table=table["table"], token=seat["token"], seat=seat["seat"])
        for seat in seats
    )
    ann.connect()
    bob.connect()
    deadline = time.monotonic() + 60
    while not any(isinstance(e.event, TurnEnded) and e.event.seat == 0 for e in ann.view.log):
        step(ann)
        step(bob)
        assert time.monotonic() < deadline
    ann.close()  # Ann's connection drops
    dropped = time.monotonic()
    while not notices(bob, "stand_in"):
        step(bob)
        assert time.monotonic() < deadline
    assert time.monotonic() - dropped >= 0.4  # the grace
    stood = len(bob.view.log)
    while not any(
        isinstance(e.event, TurnEnded) and e.event.seat == 0 for e in bob.view.log[stood:]
    ):
        step(bob)  # the stand-in plays Ann's turns
        assert time.monotonic() < deadline
    # Ann comes back (a new client: its token rotates) and plays to the end.
    fresh = lobby.rejoin(table["table"], seats[0]["token"])
    assert fresh["seat"] == 0 and fresh["token"] != seats[0]["token"]
    back = Session(lobby, table=table["table"], token=fresh["token"], seat=0)
    back.connect()
    while not (back.view.over and bob.view.over):
        step(back)
        step(bob)
        assert time.monotonic() < deadline
    assert [n.seat for n in notices(bob, "stand_in_ended")] == [0]
    assert notices(back, "stand_in") == notices(bob, "stand_in")
    lines = lobby.record(table["table"]).splitlines()[1:]
    referee = [event_from_dict(json.loads(line)) for line in lines]
    assert isinstance(referee[-1], GameEnded)
    assert [e.event for e in back.view.log] == [e.seen_by(0) for e in referee]
    back.close()
    bob.close()


def test_a_player_out_of_time_has_a_bot_move_for_them(server: Server) -> None:
    made = cinco(
        "table", "create", "--server", server.url, "--bot", "2=greedy", "--timer", "1+0.5",
        "--json",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    table = json.loads(made.stdout)
    lobby = Lobby(server.url)
    seat = lobby.join(table["code"], "Ann")
    ann = Session(lobby, table=table["table"], token=seat["token"], seat=0)
    ann.connect()
    clocks: list[Clock] = []
    ann.listeners.append(lambda m: clocks.append(m) if isinstance(m, Clock) else None)
    started = time.monotonic()
    deadline = started + 30
    while len(notices(ann, "played_for")) < 2:  # Ann never moves
        ann.receive(timeout=0.1)
        assert time.monotonic() < deadline
    waited = time.monotonic() - started
    assert 1.0 + 0.5 <= waited < 20  # the reserve, then the increment
    assert notices(ann, "played_for")[0].params == (
        ("bot", "greedy"),
        ("name", "Ann"),
        ("reason", "timeout"),
    )
    assert clocks and clocks[0].reserve == 1.0 and clocks[0].increment == 0.5
    assert any(c.running == 0 for c in clocks) and any(c.running is None for c in clocks)
    ann.close()


def test_cinco_join_comes_back_to_its_seat_after_kill_9(server: Server, tmp_path: Path) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "bots": {"2": "greedy"}})
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    book = tmp_path / "data" / "cinco" / "seats.json"
    join = [str(CINCO), "join", server.url, table["code"], "--name", "Ann"]

    def token() -> str | None:
        try:
            entries = json.loads(book.read_text())
        except (OSError, ValueError):
            return None
        found = [e["token"] for e in entries.values() if e["table"] == table["table"]]
        return found[0] if found else None

    first = subprocess.Popen(
        join, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env
    )
    try:
        deadline = time.monotonic() + 30
        while token() is None:
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        assert (book.stat().st_mode & 0o777) == 0o600
        old = token()
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    finally:
        if first.poll() is None:
            first.kill()
    assert not lobby.table(table["table"])["seats"][0]["free"]  # still Ann's
    again = subprocess.run(
        join, input="q\n", capture_output=True, text=True, timeout=60, check=False, env=env
    )
    assert again.returncode == 0, again.stderr  # the only person's seat: it came back to it
    assert "Ann's hand" in again.stdout and "You left the table" in again.stdout
    assert token() is None and old is not None  # left: forgotten


def test_the_clients_rematch_offer_takes_the_same_seat(server: Server, tmp_path: Path) -> None:
    from cinco.frontends.net.play import offer_rematch
    from cinco.frontends.net.seats import SeatBook

    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "bots": {"2": "greedy"}, "timer": "600+5"})
    seat = lobby.join(table["code"], "Ann")
    ann = Session(lobby, table=table["table"], token=seat["token"], seat=0)
    ann.connect()
    deadline = time.monotonic() + 60
    while not ann.view.over:
        step(ann)
        assert time.monotonic() < deadline
    book = SeatBook(tmp_path / "seats.json")
    asked: list[str] = []
    assert offer_rematch(lobby, ann, lambda text: asked.append(text) or "", book) is None
    assert asked and "Rematch?" in asked[0]
    again = offer_rematch(lobby, ann, lambda text: "r", book)
    assert again is not None and again.table != table["table"] and again.view.seat == 0
    try:
        while again.view.state is None or again.view.clock is None:
            again.receive(timeout=0.1)
            assert time.monotonic() < deadline
        assert [s.name for s in again.view.state.config.seats] == ["Ann", "Greedy 2"]
        assert again.view.clock is not None and again.view.clock.reserve == 600
        kept = book.get(lobby.base, str(again.table))
        assert kept is not None and kept["token"] == again.token != seat["token"]
    finally:
        again.close()
        ann.close()
