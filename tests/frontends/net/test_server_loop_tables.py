"""The server's cost per move (issue 28): its tables are driven from the event loop, not a
thread each (:mod:`cinco.frontends.net.loop_tables`), their turns stored before anyone hears
of them; an event every viewer sees alike is encoded once for all of them
(:class:`cinco.frontends.net.connection.Frames`); and no round trip to a table asks for a bot
that is not to move. The figures are benchmarks/server_load.py's, not asserted here."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

from starlette.testclient import TestClient
from ws_frames import Frame, a_move, auth, is_answer, msg, until

from cinco.core.engine.commands import Command, Draw, PlayCard
from cinco.core.engine.config import GameConfig
from cinco.core.table.protocol import Envelope, Message
from cinco.core.table.table import Table
from cinco.frontends.net.connection import Frames, frame


def seated_table(client: TestClient) -> tuple[str, list[str]]:
    table = client.post("/api/tables", json={"players": 2}).json()
    tokens = [
        client.post("/api/join", json={"code": table["code"], "name": name}).json()["token"]
        for name in ("Ann", "Bob")
    ]
    return table["table"], tokens


def stored_seqs(db: Path, table: str) -> list[int]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT seq FROM events WHERE table_id = ? ORDER BY seq", (table,))
        return [seq for (seq,) in rows]


def prompted(frames: list[Frame], seq: int) -> Frame | None:
    """The prompt after event *seq* among *frames*, if there is one."""
    return next((f for f in frames if f["type"] == "prompt" and f["seq"] == seq), None)


def test_many_tables_are_played_without_a_thread_each(client: TestClient, db: Path) -> None:
    """Four tables of two people, each person's moves answered once stored: the server starts
    no thread of a table's own (it used to start one per table: 254 threads for 250)."""
    before = threading.active_count()
    for table, tokens in [seated_table(client) for _ in range(4)]:
        path = f"/ws/tables/{table}"
        with (
            client.websocket_connect(path, headers=auth(tokens[0])) as ann,
            client.websocket_connect(path, headers=auth(tokens[1])) as bob,
        ):
            sockets, frames = (ann, bob), ([], [])
            seqs = []
            for ws, into in zip(sockets, frames, strict=True):
                ws.send_text(msg("subscribe", after=-1))
                seqs.append(until(ws, is_answer, into)["seq"])
            seq = max(seqs)
            seat = 0 if prompted(frames[0], seq) else 1
            for _move in range(4):
                prompt = prompted(frames[seat], seq)
                assert prompt is not None
                sockets[seat].send_text(msg("submit", command=a_move(prompt)))
                answer = until(sockets[seat], is_answer, frames[seat])
                assert answer["type"] == "accepted", answer
                seq = answer["seq"]
                assert stored_seqs(db, table)[-1] == seq  # durable before confirmed
                if prompted(frames[seat], seq) is None:  # the other seat's turn
                    seat = 1 - seat
                    until(
                        sockets[seat],
                        lambda f, s=seq: f["type"] == "prompt" and f["seq"] == s,
                        frames[seat],
                    )
    names = [thread.name for thread in threading.enumerate()]
    assert "cinco-table" not in names, names
    assert threading.active_count() - before < 4  # not one a table


def test_a_shared_frame_is_the_frame_each_viewer_would_be_sent() -> None:
    """An event every viewer sees alike is encoded once; each viewer's frame is still, to
    the byte, what encoding its own envelope gives, secrets of other hands hidden."""
    config = GameConfig.for_players(4, seed=11, first_seat=0)
    with Table.create(config) as table:
        handles = [table.seat(seat) for seat in range(4)] + [table.spectator()]
        taken: list[list[Message]] = [[] for _ in handles]
        for handle, into in zip(handles, taken, strict=True):
            handle.listen(into.append)
        for _turn in range(12):
            seat = handles[-1].view.current_seat
            legal = handles[seat].legal()
            command: Command = Draw(seat=seat)
            if legal.plays:
                card, spaces = legal.plays[0]
                command = PlayCard(seat=seat, card=card, space=spaces[0] if spaces else None)
            handles[seat].submit(command)
            for handle in handles:
                handle.pump()
        frames = Frames()  # one for every viewer's messages, as a flush has it
        shared = 0
        for viewer, messages in enumerate(taken):
            for message in messages:
                assert frames.of(message) == frame(message)
                if isinstance(message, Envelope) and viewer:
                    first = next(
                        m for m in taken[0] if isinstance(m, Envelope) and m.seq == message.seq
                    )
                    shared += first.event is message.event
        assert shared > 0  # some events were one object for several viewers
        spectator = [m for m in taken[-1] if isinstance(m, Envelope)]
        assert all('"order":[' not in frames.of(m) for m in spectator)  # the deck stays secret
