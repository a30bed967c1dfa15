"""The server in process (Starlette's TestClient): the lobby, the seat protocol over a
WebSocket, seat security, what each connection is sent, and a restart on the same database.

Networked play: issue 12, docs/server.md.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from ws_frames import Frame, a_move, auth, is_answer, msg, until

from cinco.core.engine.events import event_from_dict
from cinco.frontends.net.app import create_app
from cinco.frontends.net.connection import MAX_MESSAGE
from cinco.frontends.net.store import digest


def new_table(client: TestClient, **settings: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"players": 2, **settings})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def join(client: TestClient, code: str, name: str = "Ann") -> dict[str, Any]:
    response = client.post("/api/join", json={"code": code, "name": name})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def play_out(ws: Any, seat: int, frames: list[Frame], *, moves: int | None = None) -> None:
    """Answer every prompt with a legal move until the game ends (or *moves* are made)."""
    made = 0
    while moves is None or made < moves:
        if any(f["type"] == "event" and f["event"]["type"] == "game_ended" for f in frames):
            return
        prompts = [f for f in frames if f["type"] == "prompt"]
        last_event = max((f["seq"] for f in frames if f["type"] == "event"), default=-1)
        if not prompts or prompts[-1]["seq"] != last_event:
            until(ws, lambda f: f["type"] == "prompt" or _ended(f), frames)
            continue
        assert prompts[-1]["seat"] == seat
        ws.send_text(msg("submit", command=a_move(prompts[-1])))
        answer = until(ws, is_answer, frames)
        assert answer["type"] == "accepted", answer
        made += 1


def _ended(frame: Frame) -> bool:
    return frame["type"] == "event" and frame["event"]["type"] == "game_ended"


# -- the lobby ----------------------------------------------------------------------------------


def test_create_list_join_leave(client: TestClient) -> None:
    table = new_table(client, players=4, bots={"2": "greedy", "4": "random"})
    assert set(table) >= {"table", "code", "watch", "owner"}
    listed = client.get("/api/tables").json()["tables"]
    assert [t["table"] for t in listed] == [table["table"]]
    assert "code" not in json.dumps(listed) and table["code"] not in json.dumps(listed)
    first = join(client, table["code"], "Ann")
    second = join(client, table["code"].lower(), "Cid")  # codes are read out: any case
    assert (first["seat"], second["seat"]) == (0, 2)
    assert client.get("/api/tables").json()["tables"] == []  # full: the game has started
    assert client.post("/api/join", json={"code": table["code"]}).status_code == 409
    assert client.post("/api/join", json={"code": "NOPE-NOPE-NOPE"}).status_code == 404
    left = client.post(f"/api/tables/{table['table']}/leave", headers=auth(first["token"]))
    assert left.json()["left"] == 0
    again = join(client, table["code"], "Eve")
    assert again["seat"] == 0 and again["token"] != first["token"]  # rotated at rejoin


def test_bad_tables_are_refused(client: TestClient) -> None:
    assert client.post("/api/tables", json={"players": 5}).status_code == 400
    assert (
        client.post("/api/tables", json={"players": 2, "bots": {"2": "nobot"}}).status_code == 400
    )
    assert (
        client.post("/api/tables", json={"players": 2, "bots": {"3": "greedy"}}).status_code == 400
    )
    assert client.post("/api/tables", content=b"[1]").status_code == 400
    big = client.post("/api/tables", content=b"{" + b" " * (MAX_MESSAGE + 10) + b"}")
    assert big.status_code == 413


def test_a_whole_game_against_a_server_bot_and_its_record(client: TestClient) -> None:
    table = new_table(client, bots={"2": "greedy"})
    seat = join(client, table["code"])
    path = f"/ws/tables/{table['table']}"
    with client.websocket_connect(path, headers=auth(seat["token"])) as ws:
        ws.send_text(msg("subscribe", after=-1))
        frames: list[Frame] = []
        until(ws, is_answer, frames)
        assert client.get(f"/api/tables/{table['table']}/record").status_code == 403  # not over
        play_out(ws, 0, frames)
    seqs = [f["seq"] for f in frames if f["type"] == "event"]
    assert seqs == list(range(len(seqs)))  # in order, none missed or repeated
    record = client.get(f"/api/tables/{table['table']}/record")
    assert record.status_code == 200
    lines = record.text.splitlines()
    assert json.loads(lines[0])["format"] == "cinco-record"
    events = [event_from_dict(json.loads(line)) for line in lines[1:]]
    assert len(events) == len(seqs) and type(events[-1]).__name__ == "GameEnded"


def test_the_owner_may_export_before_the_end(client: TestClient) -> None:
    table = new_table(client, bots={"2": "greedy"})
    join(client, table["code"])
    url = f"/api/tables/{table['table']}/record"
    assert client.get(url, headers=auth("not-the-owner")).status_code == 403
    assert client.get(url, headers=auth(table["owner"])).status_code == 200


# -- security ---------------------------------------------------------------------------------


def test_no_connection_acts_for_another_seat(client: TestClient, db: Path) -> None:
    table = new_table(client, players=2)
    ann, bob = join(client, table["code"], "Ann"), join(client, table["code"], "Bob")
    path = f"/ws/tables/{table['table']}"
    # No token, a forged one, or one in the URL: the handshake is refused.
    for headers, url in [
        ({}, path),
        (auth("forged"), path),
        (auth(ann["token"]), "/ws/tables/000000000000"),
        ({}, f"{path}?token={ann['token']}"),
        ({"Authorization": f"Basic {ann['token']}"}, path),
        (auth(table["watch"]), path),  # a watch code is not a seat token
        (auth(ann["token"]), "/ws/watch"),  # nor is a seat token a watch code
    ]:
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(url, headers=headers):
            pass
    # Tokens are stored hashed, never in clear.
    with sqlite3.connect(db) as raw:
        dump = "\n".join(raw.iterdump())
    assert ann["token"] not in dump and bob["token"] not in dump and table["code"] not in dump
    assert digest(ann["token"]) in dump
    with client.websocket_connect(path, headers=auth(ann["token"])) as ws:
        ws.send_text(msg("subscribe", after=-1))
        frames: list[Frame] = []
        until(ws, is_answer, frames)
        # A command for seat 1 sent on seat 0's connection: refused, whoever is to move.
        ws.send_text(msg("submit", command={"kind": "draw", "seat": 1}))
        assert until(ws, is_answer)["code"] == "wrong_seat"
        ws.send_text(msg("submit", command={"kind": "draw", "seat": True}))
        assert until(ws, is_answer)["code"] in ("wrong_seat", "malformed_command")
        # A request's schema knows no top-level seat: refused, saying which field it is.
        ws.send_text(msg("submit", command={"kind": "exchange", "seat": 1}, seat=1))
        refused = until(ws, is_answer)
        assert refused["code"] == "malformed_command" and "'seat'" in refused["params"]["problem"]
        ws.send_text("not json")
        assert until(ws, is_answer)["code"] == "malformed_command"
        ws.send_text(json.dumps({"type": "subscribe", "v": 99, "after": -1}))
        assert until(ws, is_answer)["code"] == "malformed_command"
        # Leaving revokes the token: the connection is closed, the token no longer opens one.
        response = client.post(f"/api/tables/{table['table']}/leave", headers=auth(ann["token"]))
        assert response.status_code == 200
        with pytest.raises(WebSocketDisconnect):
            until(ws, lambda f: False)
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(path, headers=auth(ann["token"])),
    ):
        pass
    leave = client.post(f"/api/tables/{table['table']}/leave", headers=auth(ann["token"]))
    assert leave.status_code == 403


def test_a_spectator_cannot_act(client: TestClient) -> None:
    table = new_table(client, players=2, bots={"1": "greedy", "2": "greedy"})
    with client.websocket_connect("/ws/watch", headers=auth(table["watch"])) as ws:
        ws.send_text(msg("subscribe", after=-1))
        until(ws, is_answer)
        for request in (
            msg("submit", command={"kind": "draw", "seat": 0}),
            msg("undo", check=False),
            msg("hint", bots=["greedy"], seconds=0.1),
        ):
            ws.send_text(request)
            assert until(ws, is_answer)["code"] == "not_seated"


def test_an_oversized_message_closes_the_connection(client: TestClient) -> None:
    table = new_table(client, bots={"2": "greedy"})
    seat = join(client, table["code"])
    with client.websocket_connect(
        f"/ws/tables/{table['table']}", headers=auth(seat["token"])
    ) as ws:
        ws.send_text(msg("subscribe", after=-1))
        until(ws, is_answer)
        ws.send_text(" " * (MAX_MESSAGE + 1))
        with pytest.raises(WebSocketDisconnect):
            until(ws, lambda f: False)


def test_frames_hide_other_hands_the_deck_and_the_seed(client: TestClient) -> None:
    """Every frame sent to a seat is exactly the referee's event as that seat may see it."""
    table = new_table(client, players=2, bots={"2": "greedy"})
    seat = join(client, table["code"])
    frames: list[Frame] = []
    watched: list[Frame] = []
    with (
        client.websocket_connect(f"/ws/tables/{table['table']}", headers=auth(seat["token"])) as ws,
        client.websocket_connect("/ws/watch", headers=auth(table["watch"])) as spectator,
    ):
        ws.send_text(msg("subscribe", after=-1))
        spectator.send_text(msg("subscribe", after=-1))
        until(ws, is_answer, frames)
        play_out(ws, 0, frames)
        until(spectator, _ended, watched)
    record = client.get(f"/api/tables/{table['table']}/record").text.splitlines()[1:]
    referee = [event_from_dict(json.loads(line)) for line in record]
    assert referee[0].config.seed is not None  # type: ignore[attr-defined]
    for frames_of, viewer in ((frames, 0), (watched, None)):
        events = [f for f in frames_of if f["type"] == "event"]
        assert len(events) == len(referee)
        for frame in events:
            assert frame["event"] == referee[frame["seq"]].seen_by(viewer).to_dict()
            event = frame["event"]
            assert event.get("config", {}).get("seed") is None
            assert event.get("order") is None
            if event["type"] == "card_drawn" and event["seat"] != viewer:
                assert event["card"] is None
    hidden = sum(1 for f in frames if f["type"] == "event" and f["event"].get("card") is None)
    assert hidden > 0  # the other seat's draws were sent, without their cards
    assert all(f["seat"] == 0 for f in frames if f["type"] == "prompt")


# -- storage and restart ----------------------------------------------------------------------


def test_a_restarted_server_resumes_every_table(db: Path) -> None:
    with TestClient(create_app(db)) as first:
        table = new_table(first, bots={"2": "greedy"})
        seat = join(first, table["code"])
        waiting = new_table(first, players=2)
        path = f"/ws/tables/{table['table']}"
        frames: list[Frame] = []
        with first.websocket_connect(path, headers=auth(seat["token"])) as ws:
            ws.send_text(msg("subscribe", after=-1))
            until(ws, is_answer, frames)
            play_out(ws, 0, frames, moves=3)
    last = max(f["seq"] for f in frames if f["type"] == "event")
    with TestClient(create_app(db)) as second:
        listed = [t["table"] for t in second.get("/api/tables").json()["tables"]]
        assert listed == [waiting["table"]]  # the open table is still open
        with second.websocket_connect(path, headers=auth(seat["token"])) as ws:
            ws.send_text(msg("subscribe", after=last))
            resumed: list[Frame] = []
            until(ws, is_answer, resumed)
            assert all(f["seq"] > last for f in resumed if f["type"] == "event")
            play_out(ws, 0, resumed)
        seqs = [f["seq"] for f in frames + resumed if f["type"] == "event"]
        assert seqs == list(range(len(seqs)))
        lines = second.get(f"/api/tables/{table['table']}/record").text.splitlines()
        assert len(lines) - 1 == len(seqs)


# -- limits -------------------------------------------------------------------------------------


def test_a_slow_client_is_dropped_not_waited_for() -> None:
    from cinco.core.table.protocol import Accepted
    from cinco.frontends.net.connection import CLOSE_TOO_SLOW, QUEUE_LIMIT, Connection

    connection = Connection(websocket=None, viewer=0)  # type: ignore[arg-type]  # never sent to
    connection.subscribed = True
    for _ in range(QUEUE_LIMIT + 5):
        connection.deliver(Accepted(-1))  # nothing reads: the queue fills
    assert connection.closed and connection.close_code == CLOSE_TOO_SLOW
    assert connection.queue.qsize() <= QUEUE_LIMIT


def test_requests_are_rate_limited(client: TestClient) -> None:
    from cinco.frontends.net.connection import RATE_BURST

    table = new_table(client, bots={"2": "greedy"})
    seat = join(client, table["code"])
    with client.websocket_connect(
        f"/ws/tables/{table['table']}", headers=auth(seat["token"])
    ) as ws:
        ws.send_text(msg("subscribe", after=-1))
        until(ws, is_answer)
        count = int(RATE_BURST) + 10
        for _ in range(count):
            ws.send_text(msg("undo", check=True))
        codes = [until(ws, is_answer).get("code") for _ in range(count)]
    assert "rate_limited" in codes and codes.count("rate_limited") < count


def test_store_doctests() -> None:
    import doctest

    from cinco.frontends.net import store

    assert doctest.testmod(store).failed == 0


def test_a_finished_game_can_be_watched_after_a_restart(db: Path) -> None:
    with TestClient(create_app(db)) as first:
        table = new_table(first, bots={"1": "greedy", "2": "random"})  # bots only: starts now
        with first.websocket_connect("/ws/watch", headers=auth(table["watch"])) as ws:
            ws.send_text(msg("subscribe", after=-1))
            live: list[Frame] = []
            until(ws, _ended, live)
    with TestClient(create_app(db)) as second:
        with second.websocket_connect("/ws/watch", headers=auth(table["watch"])) as ws:
            ws.send_text(msg("subscribe", after=-1))
            again: list[Frame] = []
            until(ws, _ended, again)
            assert until(ws, is_answer)["type"] == "accepted"  # the subscription's answer
            ws.send_text(msg("submit", command={"kind": "draw", "seat": 0}))
            assert until(ws, is_answer)["code"] == "not_seated"
        events = [f for f in again if f["type"] == "event"]
        assert events == [f for f in live if f["type"] == "event"]
