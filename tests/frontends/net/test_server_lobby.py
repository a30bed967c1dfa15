"""The lobby's newer parts, in process: rematch (same settings, same people, each seat held
for its player), rate limits per client address (429 with Retry-After), the request size
limit, and the seat book that keeps a person's token on disk (mode 0600).

Networked play: issue 12, docs/server.md (the lobby API).
"""

from __future__ import annotations

import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from test_server import Frame, auth, is_answer, join, msg, new_table, play_out, until

from cinco.frontends.net.app import create_app
from cinco.frontends.net.connection import MAX_MESSAGE
from cinco.frontends.net.lobby import Buckets
from cinco.frontends.net.seats import SeatBook


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "server.db", rate=10_000)) as test_client:
        yield test_client


def finished_game(client: TestClient, **settings: object) -> tuple[dict[str, Any], dict[str, Any]]:
    table = new_table(client, bots={"2": "greedy"}, **settings)
    ann = join(client, table["code"], "Ann")
    frames: list[Frame] = []
    with client.websocket_connect(f"/ws/tables/{table['table']}", headers=auth(ann["token"])) as ws:
        ws.send_text(msg("subscribe", after=-1))
        until(ws, is_answer, frames)
        play_out(ws, 0, frames)
    return table, ann


def test_a_rematch_holds_each_seat_for_its_player(client: TestClient) -> None:
    table, ann = finished_game(client, timer="100+1", grace=5)
    info = client.get(f"/api/tables/{table['table']}").json()
    assert info["state"] == "over" and info["rematch"] is None
    again = client.post(f"/api/tables/{table['table']}/rematch", headers=auth(ann["token"]))
    assert again.status_code == 200, again.text
    seat = again.json()
    assert seat["seat"] == 0 and seat["name"] == "Ann" and seat["token"] != ann["token"]
    assert seat["rematch_of"] == table["table"] and {"code", "watch"} <= set(seat)
    new = client.get(f"/api/tables/{seat['table']}").json()
    assert new["rematch_of"] == table["table"] and new["timer"] == info["timer"]
    assert new["grace"] == 5 and [s["bot"] for s in new["seats"]] == [None, "greedy"]
    assert new["state"] == "playing"  # every person claimed a seat: dealt at once
    assert client.get(f"/api/tables/{table['table']}").json()["rematch"] == seat["table"]
    # The first table's token claims the seat once; a second ask finds it taken.
    twice = client.post(f"/api/tables/{table['table']}/rematch", headers=auth(ann["token"]))
    assert twice.status_code == 409 and twice.json()["error"] == "seat_taken"
    with client.websocket_connect(f"/ws/tables/{seat['table']}", headers=auth(seat["token"])) as ws:
        ws.send_text(msg("subscribe", after=-1))
        until(ws, lambda f: f["type"] == "event" and f["event"]["type"] == "game_started")
    # The owner keeps the same owner token for the rematch.
    early = client.get(f"/api/tables/{seat['table']}/record", headers=auth(table["owner"]))
    assert early.status_code == 200


def test_a_rematch_waits_for_every_player_and_only_after_the_end(client: TestClient) -> None:
    table = new_table(client, players=2, grace=0)  # nobody connects: bots play for both
    ann = join(client, table["code"], "Ann")
    bob = join(client, table["code"], "Bob")
    stranger = client.post(f"/api/tables/{table['table']}/rematch", headers=auth("nope"))
    assert stranger.status_code == 403
    deadline = time.monotonic() + 30
    while client.get(f"/api/tables/{table['table']}").json()["state"] != "over":
        early = client.post(f"/api/tables/{table['table']}/rematch", headers=auth(ann["token"]))
        assert early.status_code in (200, 409)
        if early.status_code == 409:
            assert early.json()["error"] == "not_over"
        assert time.monotonic() < deadline, "the stand-ins did not finish the game"
        time.sleep(0.05)
    first = client.post(f"/api/tables/{table['table']}/rematch", headers=auth(bob["token"]))
    new_id = first.json()["table"]
    waiting = client.get(f"/api/tables/{new_id}").json()
    if waiting["seats"][0]["held"]:  # Ann had not asked while the game was still on
        assert waiting["state"] == "waiting"
        assert [(s["name"], s["held"], s["free"]) for s in waiting["seats"]] == [
            ("Ann", True, False),
            ("Bob", False, False),
        ]
        # A held seat is not offered to the invite code.
        taken = client.post("/api/join", json={"code": first.json()["code"], "name": "Eve"})
        assert taken.status_code == 409
        second = client.post(f"/api/tables/{table['table']}/rematch", headers=auth(ann["token"]))
        assert second.json()["table"] == new_id and second.json()["seat"] == 0
    assert client.get(f"/api/tables/{new_id}").json()["state"] == "playing"


def test_the_lobby_is_rate_limited_per_address(tmp_path: Path) -> None:
    app = create_app(tmp_path / "server.db", lobby_rate=1, lobby_burst=3)
    with TestClient(app) as client:
        answers = [client.get("/api/tables") for _ in range(4)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        refused = answers[-1]
        assert refused.json()["error"] == "rate_limited"
        assert 1 <= int(refused.headers["Retry-After"]) <= 2
        assert client.post("/api/tables", json={"players": 2}).status_code == 429


def test_token_buckets_refill_and_forget_full_ones() -> None:
    now = [0.0]
    buckets = Buckets(2, 2, now=lambda: now[0])
    assert [buckets.take("a") for _ in range(3)] == [0, 0, 0.5]
    now[0] += 0.5
    assert buckets.take("a") == 0 and buckets.take("b") == 0
    for n in range(10_001):
        buckets.take(f"10.0.{n // 256}.{n % 256}")
    now[0] += 10
    buckets.take("c")  # over 10,000 addresses: those full again are forgotten
    assert len(buckets.buckets) < 100
    unlimited = Buckets(0, 40)  # cinco serve --lobby-rate 0: a load test from one address
    assert not any(unlimited.take("a") for _ in range(1000)) and not unlimited.buckets


def test_a_too_big_request_is_refused(client: TestClient) -> None:
    big = client.post("/api/join", content=b"{" + b" " * MAX_MESSAGE + b"}")
    assert big.status_code == 413


def test_the_seat_book_is_private_and_keyed_by_server_and_table(tmp_path: Path) -> None:
    book = SeatBook(tmp_path / "data" / "seats.json")
    book.remember("http://a:1/", "t1", 2, "secret-1", "abcd efgh")
    book.remember("http://b:1", "t1", 0, "secret-2", "ABCD-EFGH")
    mode = stat.S_IMODE(book.path.stat().st_mode)
    assert mode == 0o600
    assert book.find("http://a:1", "ABCDEFGH")["token"] == "secret-1"  # type: ignore[index]
    assert book.find("http://a:1", "ABCD-EFGX") is None  # another code
    assert book.get("http://b:1", "t1")["seat"] == 0  # type: ignore[index]
    assert "abcd" not in book.path.read_text().lower()  # the code itself is not stored
    book.forget("http://a:1", "t1")
    assert book.get("http://a:1", "t1") is None and book.get("http://b:1", "t1") is not None
    book.path.write_text("not json")
    assert book.find("http://b:1", "ABCD-EFGH") is None  # a damaged file is an empty book


def test_the_owner_may_ask_for_a_rematch_of_bots(client: TestClient) -> None:
    table = new_table(client, bots={"1": "random", "2": "random"})
    deadline = time.monotonic() + 30
    while client.get(f"/api/tables/{table['table']}").json()["state"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.02)
    again = client.post(f"/api/tables/{table['table']}/rematch", headers=auth(table["owner"]))
    assert again.status_code == 200 and "token" not in again.json()
    assert client.get(f"/api/tables/{again.json()['table']}").json()["state"] in ("playing", "over")
