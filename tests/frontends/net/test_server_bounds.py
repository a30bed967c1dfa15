"""No request holds a table beyond a bound, on a real ``cinco serve`` (127.0.0.1, a free port).

A hint for NaN seconds, which once froze its table for good (the search never ended, the other
seat's requests and ``leave`` hung, SIGTERM no longer stopped the server), is refused and the
table goes on. SIGTERM while the longest hint a client may ask for is thinking stops the server
within a few seconds, and every move it had accepted is in its store after a restart.

Issue 23, docs/server.md ("Security model").
"""

from __future__ import annotations

import asyncio
import json
import math
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from live_server import Server, first_legal
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import cinco.frontends.net.service as service_module
from cinco.core.engine.commands import Command, Draw
from cinco.core.engine.events import TurnEnded, event_from_dict
from cinco.core.engine.legal import LegalActions
from cinco.core.engine.state import GameState
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host.declarations import BotSpec
from cinco.core.host.registry import Registry
from cinco.core.table.protocol import (
    MAX_HINT_SECONDS,
    Accepted,
    Check,
    Hint,
    Hinted,
    Refused,
    Submit,
    message_from_json,
)
from cinco.frontends.net.client import Lobby, Session
from cinco.frontends.net.service import TableService
from cinco.frontends.net.settings import ServerSettings

#: How long a stopping server may take, whatever it is doing (a generous bound for a loaded
#: machine: uvicorn gives connections three seconds, hints are called off at once).
STOP_BOUND = 15.0


def to_move(sessions: list[Session], timeout: float = 30) -> Session:
    """The session whose turn it is, once its prompt has come."""
    deadline = time.monotonic() + timeout
    while True:
        for session in sessions:
            if first_legal(session) is not None:
                return session
            session.receive(timeout=0.05)
        assert time.monotonic() < deadline, "nobody was prompted"


def test_a_nan_hint_is_refused_and_the_table_goes_on(server: Server) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2})
    seats = [lobby.join(table["code"], name) for name in ("Ann", "Bob")]
    sessions = [
        Session(lobby, table=table["table"], token=seat["token"], seat=seat["seat"])
        for seat in seats
    ]
    try:
        for session in sessions:
            session.connect()
        mover = to_move(sessions)
        moving = sessions.index(mover)
        other, other_seat = sessions[1 - moving], seats[1 - moving]["seat"]
        # The very frame of the issue: {"type":"hint","v":2,"bots":["ismcts"],"seconds":NaN}.
        answer = mover.request(Hint(("ismcts",), math.nan), timeout=30)
        assert isinstance(answer, Refused) and answer.code == "malformed_command", answer
        assert "'seconds'" in str(dict(answer.params)["problem"])
        # The other seat's request is answered (it is not their turn) ...
        answer = other.request(Check(Draw(other_seat)), timeout=30)
        assert isinstance(answer, Refused) and answer.code != "timeout", answer
        # ... the seat to move still plays ...
        command = first_legal(mover)
        assert command is not None
        assert isinstance(mover.request(Submit(command), timeout=30), Accepted)
        # ... and leaving works.
        left = lobby.leave(table["table"], seats[moving]["token"])
        assert left["left"] == seats[moving]["seat"]
    finally:
        for session in sessions:
            session.close()


def _prompted(lobby: Lobby, table: dict[str, str], token: str) -> ClientConnection:
    """A raw connection for the seat of *token*, once it is prompted."""
    ws = connect(
        lobby.ws_url(f"/ws/tables/{table['table']}"),
        additional_headers={"Authorization": f"Bearer {token}"},
        open_timeout=10,
    )
    ws.send(json.dumps({"type": "subscribe", "v": 2, "after": -1}))
    deadline = time.monotonic() + 30
    while message_from_json(ws.recv(timeout=30)).type != "prompt":
        assert time.monotonic() < deadline, "the seat was not prompted"
    return ws


def test_leaving_calls_off_the_hint_the_seat_asked_for(server: Server) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "bots": {"2": "greedy"}})
    seat = lobby.join(table["code"], "Ann")
    ws = _prompted(lobby, table, seat["token"])
    try:
        ws.send(json.dumps(Hint(("ismcts",), MAX_HINT_SECONDS).to_dict()))
        time.sleep(1.0)  # the table is thinking on it
        assert lobby.leave(table["table"], seat["token"])["left"] == seat["seat"]
        answers = []
        with pytest.raises(ConnectionClosed):  # closed for leaving, after the answer
            while True:
                message = message_from_json(ws.recv(timeout=30))
                if isinstance(message, Refused | Hinted):
                    answers.append(message)
        assert len(answers) == 1 and isinstance(answers[0], Refused), answers
        assert answers[0].code == "no_hint_bot" and "called off" in answers[0].message
    finally:
        ws.close()


def _stored(lobby: Lobby, table: dict[str, str]) -> list[object]:
    lines = lobby.record(table["table"], table["owner"]).splitlines()[1:]
    return [event_from_dict(json.loads(line)) for line in lines]


def test_sigterm_while_the_longest_hint_thinks_stops_the_server_and_keeps_every_move(
    server: Server,
) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "bots": {"2": "greedy"}})
    seat = lobby.join(table["code"], "Ann")
    session = Session(lobby, table=table["table"], token=seat["token"], seat=seat["seat"])
    accepted: list[int] = []
    try:
        session.connect()
        while len(accepted) < 3:
            command = first_legal(to_move([session]))
            assert command is not None
            answer = session.request(Submit(command))
            assert isinstance(answer, Accepted), answer
            accepted.append(answer.seq)
    finally:
        session.close()
    ws = _prompted(lobby, table, seat["token"])
    longest = Hint(("ismcts",), MAX_HINT_SECONDS)
    ws.send(json.dumps(longest.to_dict()))
    time.sleep(1.0)  # the table is thinking on it (the server gives a hint five seconds)
    assert server.process is not None
    server.process.send_signal(signal.SIGTERM)
    try:
        server.process.wait(STOP_BOUND)
    except subprocess.TimeoutExpired:
        pytest.fail(f"SIGTERM did not stop the server in {STOP_BOUND} s while a hint thought")
    with pytest.raises(ConnectionClosed):  # the server said goodbye to the connection
        while True:
            ws.recv(timeout=10)
    # The hint was called off at the signal: the connection ended within uvicorn's grace,
    # rather than being cancelled with the hint still thinking.
    log = server.log.read_text()
    assert "graceful shutdown exceeded" not in log and "Traceback" not in log, log[-3000:]
    server.start()  # the same database
    stored = _stored(lobby, table)
    for seq in accepted:  # every accepted move: its turn is in the store
        event = stored[seq]
        assert isinstance(event, TurnEnded) and event.seat == seat["seat"], (seq, event)
    # And the table goes on from there.
    session = Session(lobby, table=table["table"], token=seat["token"], seat=seat["seat"])
    try:
        session.connect()
        command = first_legal(to_move([session]))
        assert command is not None
        assert isinstance(session.request(Submit(command)), Accepted)
    finally:
        session.close()


class Stubborn:
    """A hint bot that heeds neither its budget nor its limit: it thinks until the test lets
    it go (a plugin's bot the table cannot interrupt)."""

    def __init__(self) -> None:
        self.started, self.release, self.finished = (threading.Event() for _ in range(3))

    @hookimpl
    def cinco_register_bots(self) -> list[BotSpec]:
        return [BotSpec("stubborn", "Thinks until let go.", create=lambda context: self)]

    def choose(self, view: GameState, legal: LegalActions) -> Command:
        self.started.set()
        self.release.wait(120)
        self.finished.set()
        return legal[0]


def test_a_bot_that_heeds_no_limit_does_not_hold_the_server_s_stop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "CLOSE_WAIT", 0.5)
    stubborn = Stubborn()
    registry = Registry(entry_points=False, plugins=[stubborn])

    async def scenario() -> None:
        service = TableService(ServerSettings(tmp_path / "server.db", registry=registry))
        await service.start()
        table = service.create({"players": 2, "bots": {"2": "greedy"}})
        await service.join({"code": table["code"], "name": "Ann"})
        hosted = service.tables[table["table"]]
        assert hosted.table is not None
        for _ in range(300):  # Ann's turn (the bot may move first)
            status = await asyncio.to_thread(hosted.table.status)
            if status.to_move == 0 and not status.bot_to_move:
                break
            await asyncio.sleep(0.1)
        asked = hosted.handles[0].send(Hint(("stubborn",), MAX_HINT_SECONDS))
        assert await asyncio.to_thread(stubborn.started.wait, 30)
        await service.stop()
        # The stop did not wait for the bot, which is thinking still.
        assert not stubborn.finished.is_set() and not asked.done()

    try:
        asyncio.run(scenario())
    finally:
        stubborn.release.set()
