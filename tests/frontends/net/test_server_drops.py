"""Drops are visible (issue 24): against a real ``cinco serve`` on 127.0.0.1, the moment a
seat's connection drops (closed, killed, or gone silent past the keepalive's timeout) every
other viewer, spectators too, is sent a ``presence`` message with the grace period; then that
the person is back, or that a stand-in plays for them, whose moves every narrator tells as
the stand-in's. Bounded: each wait has a deadline.

Networked play: docs/seat-protocol.md (``presence``), docs/server.md (zombie mode).
"""

from __future__ import annotations

import base64
import os
import socket
import time
from collections.abc import Callable

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from live_server import Server

from cinco.core.engine.errors import EventError
from cinco.core.engine.events import Notice, TurnEnded
from cinco.core.table.protocol import Presence, Submit
from cinco.core.words.messages import render
from cinco.frontends.narration import Narrator
from cinco.frontends.net.client import Lobby, RemoteView, Session
from cinco.frontends.net.connection import PING_INTERVAL, PING_TIMEOUT
from cinco.frontends.net.stand_ins import ARRIVAL


def heard(session: Session) -> list[Presence]:
    """A listener's list of the ``presence`` messages *session* is sent."""
    got: list[Presence] = []
    session.listeners.append(lambda m: got.append(m) if isinstance(m, Presence) else None)
    return got


def wait_for(sessions: list[Session], done: Callable[[], bool], seconds: float) -> float:
    """Read *sessions* (each prompted seat plays its first legal move) until *done*; the time
    it took. Fails after *seconds*."""
    start = time.monotonic()
    while not done():
        assert time.monotonic() - start < seconds, "not in time"
        for session in sessions:
            while session.receive(timeout=0.02) is not None:
                pass
            legal = session.view.legal()
            if legal is not None and not session.view.over:
                session.request(Submit(next(iter(legal))))
    return time.monotonic() - start


def seated(lobby: Lobby, grace: float) -> tuple[dict[str, str], list[dict[str, str]]]:
    table = lobby.create({"players": 2, "grace": grace})
    return table, [lobby.join(table["code"], name) for name in ("Ann", "Bob")]


def session(lobby: Lobby, table: dict[str, str], seat: dict[str, str] | None = None) -> Session:
    if seat is None:
        return Session(lobby, watch=table["watch"])
    return Session(lobby, table=table["table"], token=seat["token"], seat=int(seat["seat"]))


def test_a_killed_connection_is_told_to_the_others_at_once_and_so_is_the_return(
    server: Server,
) -> None:
    lobby = Lobby(server.url)
    table, seats = seated(lobby, grace=30)
    ann, bob = session(lobby, table, seats[0]), session(lobby, table, seats[1])
    watcher = session(lobby, table)
    told = {"bob": heard(bob), "watcher": heard(watcher)}
    for each in (ann, bob, watcher):
        each.connect()
    wait_for([ann, bob, watcher], lambda: watcher.view.state is not None, 20)
    assert not told["bob"] and not told["watcher"]  # everyone is here
    assert ann._ws is not None
    ann._ws.socket.shutdown(socket.SHUT_RDWR)  # killed: no closing handshake
    ann._ws.socket.close()
    took = wait_for([bob, watcher], lambda: bool(told["bob"] and told["watcher"]), 5)
    assert took < 5
    for messages in told.values():
        away = messages[0]
        assert (away.seat, away.code) == (0, "seat_away")
        params = dict(away.params)
        assert params["name"] == "Ann" and params["grace"] == 30 and params["bot"] == "greedy"
        assert 25 <= float(params["seconds"]) <= 30
        assert render(away.code, params) == (
            f"Ann is not connected: the greedy bot plays for them in {params['seconds']} s "
            "unless they connect."
        )
    assert bob.view.presence_text().startswith("Ann is not connected")
    # A spectator who comes now is told too, with what is left of the grace.
    late = session(lobby, table)
    told["late"] = heard(late)
    late.connect()
    wait_for([late], lambda: bool(told["late"]), 5)
    assert told["late"][0].code == "seat_away" and told["late"][0].seat == 0
    # Ann is back: everyone is told, and nobody shows her as away any more.
    back = session(lobby, table, {**seats[0], **lobby.rejoin(table["table"], seats[0]["token"])})
    back.connect()
    wait_for([bob, watcher, late], lambda: all(m[-1].code == "seat_back" for m in told.values()), 5)
    assert render("seat_back", dict(told["bob"][-1].params)) == "Ann is connected again."
    assert bob.view.presence_text() == "" and late.view.away == {}
    for each in (back, bob, watcher, late):
        each.close()


def _half_open(server: Server, table: str, token: str) -> socket.socket:
    """A seat's WebSocket whose client then goes silent: it never reads again, so it never
    answers the server's pings (a laptop shut, a cable pulled)."""
    raw = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        (
            f"GET /ws/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Authorization: Bearer {token}\r\n\r\n"
        ).encode()
    )
    answer = raw.recv(4096)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return raw


def test_a_silent_connection_is_noticed_within_the_ping_timeout(server: Server) -> None:
    lobby = Lobby(server.url)
    table, seats = seated(lobby, grace=60)
    bob = session(lobby, table, seats[1])
    told = heard(bob)
    silent = _half_open(server, table["table"], seats[0]["token"])
    try:
        bob.connect()
        # Bob is told Ann's seat is away only once the server has given her socket up.
        wait_for([bob], lambda: bob.view.state is not None and not told, 3)
        took = wait_for([bob], lambda: any(m.code == "seat_away" for m in told), 30)
        assert took <= PING_INTERVAL + PING_TIMEOUT + 3
        assert dict(told[-1].params)["name"] == "Ann"
    finally:
        silent.close()
        bob.close()


def test_a_stand_ins_moves_are_told_as_its_own_to_the_returning_player_and_the_others(
    server: Server,
) -> None:
    lobby = Lobby(server.url)
    table, seats = seated(lobby, grace=0.5)
    ann, bob = session(lobby, table, seats[0]), session(lobby, table, seats[1])
    told = heard(bob)
    ann.connect()
    bob.connect()
    wait_for([ann, bob], lambda: bob.view.state is not None, 20)
    ann.close()

    def stand_in_moved() -> bool:
        log = [e.event for e in bob.view.log]
        start = [i for i, e in enumerate(log) if isinstance(e, Notice) and e.code == "stand_in"]
        return bool(start) and any(
            isinstance(e, TurnEnded) and e.seat == 0 for e in log[start[0] :]
        )

    wait_for([bob], stand_in_moved, 30)
    assert [m.code for m in told][:2] == ["seat_away", "seat_stand_in"]
    back = session(lobby, table, {**seats[0], **lobby.rejoin(table["table"], seats[0]["token"])})
    back.connect()
    wait_for([back, bob], lambda: bool(told) and told[-1].code == "seat_back", 10)
    state = back.view.state
    assert state is not None
    for viewer, reader, who in (
        (0, back, "Your stand-in (greedy) "),
        (1, bob, "Ann's stand-in (greedy) "),
    ):
        narrator = Narrator(state.config, viewer)
        for envelope in reader.view.log:
            narrator.feed(envelope.event)
        texts = [line.text for line in narrator.lines]
        away = texts.index("Ann is away: the greedy bot plays for them until they come back.")
        ended = texts.index("Ann is back and plays again.")
        lines = [line.text for line in narrator.lines[away + 1 : ended] if line.seat == 0]
        assert lines and all(text.startswith(who) for text in lines), lines
    back.close()
    bob.close()


def test_a_client_counts_the_grace_down_and_forgets_a_seat_once_it_is_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    view = RemoteView(seat=1)
    params = (("bot", "greedy"), ("grace", 60.0), ("name", "Ann"), ("seconds", 58))
    assert view.take(Presence("t", 0, "seat_away", params))
    now[0] += 10.2
    assert view.presence_text() == (
        "Ann is not connected: the greedy bot plays for them in 48 s unless they connect."
    )
    now[0] += 100
    assert dict(view.presences()[0].params)["seconds"] == 0  # never below nothing
    view.take(Presence("t", 0, "seat_stand_in", (("bot", "greedy"), ("name", "Ann"))))
    assert view.presence_text() == "Ann has not come back: the greedy bot plays for them."
    view.take(Presence("t", 0, "seat_back", (("name", "Ann"),)))
    assert view.presence_text() == "" and view.away == {}


def test_a_message_type_from_a_newer_server_is_skipped_not_fatal() -> None:
    session = Session(Lobby("http://127.0.0.1:9"), watch="CODE")
    assert session._take_text('{"type": "something_new", "v": 2, "x": 1}') is None
    with pytest.raises(EventError, match="clock: field 'table' is missing"):
        session._take_text('{"type": "clock", "v": 2}')  # a known type, malformed: said


def test_a_seat_taken_as_the_game_starts_is_no_news_unless_it_stays_empty(
    server: Server,
) -> None:
    """Ann waits at her table; Bob and Cid take the last seats, which starts the game. Bob's
    client connects at once: nobody is told he was away, or that he is back. Cid's never
    does: after :data:`ARRIVAL` everyone is told, with the grace left."""
    lobby = Lobby(server.url)
    table = lobby.create({"players": 3, "grace": 30})
    ann = session(lobby, table, lobby.join(table["code"], "Ann"))
    told = heard(ann)
    ann.connect()
    bob_seat = lobby.join(table["code"], "Bob")
    lobby.join(table["code"], "Cid")  # the last seat: the game starts
    bob = session(lobby, table, bob_seat)
    bob.connect()
    wait_for([ann, bob], lambda: ann.view.state is not None and bob.view.state is not None, 10)
    took = wait_for([ann, bob], lambda: bool(told), ARRIVAL + 10)
    assert took >= ARRIVAL - 2  # measured from when Ann's client first saw the game
    assert [(m.seat, m.code) for m in told] == [(2, "seat_away")], told
    params = dict(told[0].params)
    assert params["name"] == "Cid" and 30 - ARRIVAL - 3 <= float(params["seconds"]) <= 30
    for each in (ann, bob):
        each.close()
