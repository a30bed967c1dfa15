"""Zombie mode: a bot plays for a person who left or whose connection dropped, after the
table's grace, and the person may come back (the token rotates on rejoin). The table's side
(:meth:`Table.stand_in`, :meth:`Table.play_for`) and the server's, in process.

Networked play: issue 12, docs/server.md (zombie mode).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cinco
from cinco.core.engine.config import Seat
from cinco.core.engine.events import Event, Notice
from cinco.core.table.log import stand_ins
from cinco.core.table.protocol import Accepted, Refused
from cinco.core.table.table import Table
from cinco.core.words.messages import render

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_server import Frame, a_move, auth, is_answer, join, msg, new_table, until

from cinco.frontends.net.app import create_app


def two_people() -> Table:
    config = cinco.default_registry().configure(2, seats=[Seat("Ann"), Seat("Bob")])
    return Table.create(config)


# -- the table ----------------------------------------------------------------------------------


def test_a_stand_in_plays_a_persons_seat_until_they_are_back() -> None:
    with two_people() as table:
        first = table.status().to_move
        handle = table.seat(first)
        assert handle.legal().plays or handle.legal().can_draw  # prompted: their turn
        before = len(handle.events())
        assert table.stand_in(first, "greedy", reason="left") == Accepted(before)  # its seq
        status = table.status()
        assert status.bot_to_move and status.stand_ins == ((first, "greedy"),)
        notice = handle.events()[-1].event
        assert isinstance(notice, Notice) and notice.code == "stand_in" and notice.seat == first
        assert render(notice.code, dict(notice.params)) == (
            f"{'Ann' if first == 0 else 'Bob'} is away: the greedy bot plays for them until "
            "they come back."
        )
        assert isinstance(table.play_bot_turn(), Accepted)  # the bot moved for the person
        turn = table.status()
        assert turn.to_move == 1 - first and not turn.bot_to_move
        other = table.seat(1 - first)
        assert isinstance(other.submit(next(iter(other.legal()))), Accepted)
        assert table.status().bot_to_move  # the stand-in plays on
        table.play_bot_turn()
        assert isinstance(table.stand_in(first, None, reason="back"), Accepted)
        assert not table.status().stand_ins
        other.submit(next(iter(other.legal())))
        assert handle.legal()  # the person is prompted again
        # A move a bot made for them is not theirs to take back.
        log = [envelope.event for envelope in handle.events()]
        assert stand_ins(log) == {}


def test_a_bot_moves_once_for_a_person_out_of_time() -> None:
    with two_people() as table:
        first = table.status().to_move
        handle = table.seat(first)
        assert table.play_for(1 - first, "greedy") == Refused("no_bot_to_move")  # not their turn
        answer = table.play_for(first, "greedy", reason="timeout")
        assert isinstance(answer, Accepted)
        codes = [e.event.code for e in handle.events() if isinstance(e.event, Notice)]
        assert codes == ["played_for"]
        status = table.status()
        assert status.to_move == 1 - first and not status.stand_ins and not status.bot_to_move
        other = table.seat(1 - first)
        other.submit(next(iter(other.legal())))
        assert handle.legal()
        # undo may not take back a move the bot played for you
        refusal = handle.undo_refusal()
        assert refusal is not None and refusal.code == "undo_stand_in"


def test_undo_refuses_a_move_the_stand_in_made() -> None:
    config = cinco.default_registry().configure(
        2, seats=[Seat("Ann"), Seat("Bot", bot="greedy")], first_seat=0
    )
    with Table.create(config) as table:
        ann = table.seat(0)
        table.play_for(0, "greedy")
        table.play_bots()
        refusal = ann.undo_refusal()
        assert refusal is not None and refusal.code == "undo_stand_in", refusal


@pytest.mark.parametrize("turns", [0, 3])
def test_stand_ins_survive_a_restore(turns: int) -> None:
    config = cinco.default_registry().configure(2, seats=[Seat("Ann"), Seat("Bob")])
    sink = _ListSink()
    with Table.create(config, sink=lambda: sink) as table:
        for _turn in range(turns):
            table.play_for(table.status().to_move, "random")
        first = table.status().to_move
        table.stand_in(1 - first, "random", reason="disconnected")  # a notice between turns
    restored = Table.restore(sink.events, lambda keep: _ListSink(), table_id="t")
    with restored:
        assert restored.status().stand_ins == ((1 - first, "random"),)
        assert restored.status().seq == len(sink.events) - 1  # nothing was cut


class _ListSink:
    path = None

    def __init__(self) -> None:
        self.events: list[Event] = []

    def append(self, event: Event) -> None:
        self.events.append(event)

    def commit(self) -> None: ...

    def sync(self) -> None: ...

    def close(self) -> None: ...


def test_a_bot_seat_or_a_missing_bot_cannot_stand_in() -> None:
    config = cinco.default_registry().configure(2, seats=[Seat("Ann"), Seat("B", bot="random")])
    with Table.create(config) as table:
        assert table.stand_in(1, "greedy") == Refused("not_seated")
        with pytest.raises(cinco.CincoError, match="no bot 'nope'"):
            table.stand_in(0, "nope")


# -- the server ---------------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "server.db", rate=10_000)) as test_client:
        yield test_client


def notice(frame: Frame, code: str) -> bool:
    return (
        frame["type"] == "event"
        and frame["event"]["type"] == "notice"
        and frame["event"]["code"] == code
    )


def play_until(ws: Any, seat: int, frames: list[Frame], done: Any, limit: int = 400) -> Frame:
    """Answer this seat's prompts with legal moves until a frame satisfies *done*."""
    for _ in range(limit):
        frame = until(ws, lambda f: f["type"] == "prompt" or done(f), frames)
        if done(frame):
            return frame
        ws.send_text(msg("submit", command=a_move(frame)))
        answer = until(ws, lambda f: is_answer(f) or done(f), frames)
        if done(answer):
            return answer
    raise AssertionError("it never came")


def test_a_dropped_person_is_replaced_after_the_grace_and_comes_back(client: TestClient) -> None:
    table = new_table(client, grace=0.2)
    ann = join(client, table["code"], "Ann")
    bob = join(client, table["code"], "Bob")
    frames: list[Frame] = []
    with client.websocket_connect(f"/ws/tables/{table['table']}", headers=auth(bob["token"])) as ws:
        ws.send_text(msg("subscribe", after=-1))
        # Ann never connects: after the grace, a bot plays for her; Bob plays on.
        stood = play_until(ws, 1, frames, lambda f: notice(f, "stand_in"))
        assert stood["event"]["seat"] == 0 and stood["event"]["params"]["reason"] == "disconnected"
        summary = client.get(f"/api/tables/{table['table']}").json()
        assert summary["seats"][0]["stand_in"] is True
        play_until(
            ws,
            1,
            frames,
            lambda f: (
                f["type"] == "event"
                and f["event"]["type"] == "turn_ended"
                and f["event"]["seat"] == 0
                and f["seq"] > stood["seq"]
            ),
        )
        # Ann comes back: her token rotates, the old one opens nothing any more.
        back = client.post(f"/api/tables/{table['table']}/rejoin", headers=auth(ann["token"]))
        assert back.status_code == 200, back.text
        fresh = back.json()
        assert fresh["seat"] == 0 and fresh["token"] != ann["token"]
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(
                f"/ws/tables/{table['table']}", headers=auth(ann["token"])
            ) as stale,
        ):
            stale.receive_text()
        with client.websocket_connect(
            f"/ws/tables/{table['table']}", headers=auth(fresh["token"])
        ) as again:
            again.send_text(msg("subscribe", after=-1))
            ended = play_until(ws, 1, frames, lambda f: notice(f, "stand_in_ended"))
            assert ended["event"]["seat"] == 0
            assert not client.get(f"/api/tables/{table['table']}").json()["seats"][0]["stand_in"]
            mine: list[Frame] = []
            prompt = until(again, lambda f: f["type"] == "prompt" and f["seat"] == 0, mine)
            again.send_text(msg("submit", command=a_move(prompt)))
            assert until(again, is_answer, mine)["type"] == "accepted"


def test_a_leaver_is_replaced_and_may_take_the_seat_back(client: TestClient) -> None:
    table = new_table(client, grace=0.1, stand_in="random")
    ann = join(client, table["code"], "Ann")
    bob = join(client, table["code"], "Bob")
    frames: list[Frame] = []
    with client.websocket_connect(f"/ws/tables/{table['table']}", headers=auth(bob["token"])) as ws:
        ws.send_text(msg("subscribe", after=-1))
        with client.websocket_connect(
            f"/ws/tables/{table['table']}", headers=auth(ann["token"])
        ) as annws:
            annws.send_text(msg("subscribe", after=-1))
            until(annws, lambda f: f["type"] == "accepted")
            left = client.post(f"/api/tables/{table['table']}/leave", headers=auth(ann["token"]))
            assert left.json() == {"table": table["table"], "left": 0}
        stood = play_until(ws, 1, frames, lambda f: notice(f, "stand_in"))
        assert stood["event"]["params"] == {"name": "Ann", "bot": "random", "reason": "left"}
        again = join(client, table["code"], "Ann")  # the invite code: her seat is free
        assert again["seat"] == 0 and again["token"] != ann["token"]
        with client.websocket_connect(
            f"/ws/tables/{table['table']}", headers=auth(again["token"])
        ) as back:
            back.send_text(msg("subscribe", after=-1))
            play_until(ws, 1, frames, lambda f: notice(f, "stand_in_ended"))


def test_the_grace_and_the_stand_in_are_checked(client: TestClient) -> None:
    for bad in ({"grace": -1}, {"grace": "soon"}, {"stand_in": "nobody"}, {"stand_in": 3}):
        response = client.post("/api/tables", json={"players": 2, **bad})
        assert response.status_code == 400, bad
        assert response.json()["error"] == "bad_request"
    summary = client.get(f"/api/tables/{new_table(client)['table']}").json()
    assert summary["grace"] == 60.0


def test_a_restarted_server_gives_a_stand_in_back_on_reconnect(tmp_path: Path) -> None:
    db = tmp_path / "server.db"
    # The bots wait between moves, so that the game is still on after the restart.
    with TestClient(create_app(db, rate=10_000, bot_delay=30)) as client:
        table = new_table(client, grace=0.1)
        ann = join(client, table["code"], "Ann")
        join(client, table["code"], "Bob")
        deadline = time.monotonic() + 10
        while not all(
            s["stand_in"] for s in client.get(f"/api/tables/{table['table']}").json()["seats"]
        ):
            assert time.monotonic() < deadline, "nobody stood in"
            time.sleep(0.05)
    with TestClient(create_app(db, rate=10_000, bot_delay=30)) as client:
        seats = client.get(f"/api/tables/{table['table']}").json()["seats"]
        assert [s["stand_in"] for s in seats] == [True, True]  # from the log
        frames: list[Frame] = []
        with client.websocket_connect(
            f"/ws/tables/{table['table']}", headers=auth(ann["token"])
        ) as ws:
            ws.send_text(msg("subscribe", after=-1))
            until(ws, lambda f: notice(f, "stand_in_ended") and f["event"]["seat"] == 0, frames)
        assert json.dumps(frames).count('"stand_in_ended"') == 1


def test_rejoin_and_rematch_need_this_tables_live_token(client: TestClient) -> None:
    table = new_table(client, grace=60)
    other = new_table(client, grace=60)
    ann = join(client, table["code"], "Ann")
    eve = join(client, other["code"], "Eve")
    rejoin = f"/api/tables/{table['table']}/rejoin"
    assert client.post(rejoin).status_code == 401  # no token
    assert client.post(rejoin, headers=auth(eve["token"])).status_code == 403  # another table's
    assert client.post(rejoin, headers=auth(table["owner"])).status_code == 403  # not a seat's
    fresh = client.post(rejoin, headers=auth(ann["token"])).json()
    assert client.post(rejoin, headers=auth(ann["token"])).status_code == 403  # rotated away
    left = client.post(f"/api/tables/{table['table']}/leave", headers=auth(fresh["token"]))
    assert left.status_code == 200
    assert client.post(rejoin, headers=auth(fresh["token"])).status_code == 403  # revoked
    rematch = f"/api/tables/{other['table']}/rematch"
    assert client.post(rematch, headers=auth(ann["token"])).status_code == 403
    assert client.post(rematch, headers=auth(eve["token"])).json()["error"] == "not_over"
