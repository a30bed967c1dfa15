"""Random games over the server: every frame sent to each connection (every seat's, and a
spectator's) is the referee's event exactly as that viewer may see it, so no connection ever
gets another seat's cards, the deck's order or the seed. The tables have turn timers (their
``clock`` frames carry only seconds), and in some games a person never comes, so that a
stand-in bot plays their seat (zombie mode): its moves reach everyone projected too.

Networked play: issue 12, docs/server.md (the security model).
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from cinco.core.engine.events import Notice, event_from_dict
from cinco.core.table.protocol import PROTOCOL_VERSION
from cinco.frontends.net.app import create_app

Frame = dict[str, Any]


def msg(kind: str, **fields: Any) -> str:
    return json.dumps({"type": kind, "v": PROTOCOL_VERSION, **fields})


def read_until(ws: Any, frames: list[Frame], done: Any) -> Frame:
    for _ in range(20000):
        frame = json.loads(ws.receive_text())
        frames.append(frame)
        if done(frame):
            return frame
    raise AssertionError("no such frame came")


def commands(prompt: Frame) -> list[Frame]:
    seat = prompt["seat"]
    found = [
        {"kind": "play", "seat": seat, "card": card, "space": space}
        for card, spaces in prompt["plays"]
        for space in (spaces or [None])
    ]
    if prompt["can_draw"]:
        found.append({"kind": "draw", "seat": seat})
    if prompt["can_exchange"]:
        found.append({"kind": "exchange", "seat": seat})
    return found


def ended(frame: Frame) -> bool:
    return frame["type"] == "event" and frame["event"]["type"] == "game_ended"


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([2, 3, 4]),
    bot_seats=st.sets(st.integers(1, 3), max_size=2),
    seed=st.integers(0, 2**16),
    away=st.booleans(),
)
def test_every_frame_is_its_viewers_projection(
    players: int, bot_seats: set[int], seed: int, away: bool
) -> None:
    chooser = random.Random(seed)
    bots = {str(seat + 1): "random" for seat in bot_seats if seat < players}
    with (
        tempfile.TemporaryDirectory() as folder,
        TestClient(create_app(Path(folder) / "server.db", rate=10_000)) as client,
    ):
        everyone = [seat for seat in range(players) if str(seat + 1) not in bots]
        away = away and len(everyone) > 1
        settings = {"players": players, "bots": bots, "timer": "1000+1"}
        settings["grace"] = 1.0 if away else 60  # the others connect well within it
        table = client.post("/api/tables", json=settings).json()
        humans = everyone[:-1] if away else everyone
        tokens = {}
        for seat in everyone:
            joined = client.post("/api/join", json={"code": table["code"]}).json()
            assert joined["seat"] == seat
            tokens[seat] = joined["token"]
        viewers = Viewers(humans)
        with client.websocket_connect(
            "/ws/watch", headers={"Authorization": f"Bearer {table['watch']}"}
        ) as watcher:
            viewers.sockets[None] = watcher
            opened = [
                client.websocket_connect(
                    f"/ws/tables/{table['table']}",
                    headers={"Authorization": f"Bearer {tokens[seat]}"},
                )
                for seat in humans
            ]
            for seat, context in zip(humans, opened, strict=True):
                viewers.sockets[seat] = context.__enter__()
            try:
                viewers.play_to_the_end(humans, chooser)
            finally:
                for context in opened:
                    context.__exit__(None, None, None)
        lines = client.get(f"/api/tables/{table['table']}/record").text.splitlines()[1:]
        referee = [event_from_dict(json.loads(line)) for line in lines]
    codes = {e.code for e in referee if isinstance(e, Notice)}
    assert ("stand_in" in codes) == away
    for viewer, got in viewers.frames.items():
        events = [f for f in got if f["type"] == "event"]
        assert [f["seq"] for f in events] == list(range(len(referee)))
        for frame in events:
            assert frame["event"] == referee[frame["seq"]].seen_by(viewer).to_dict()
        assert all(f["seat"] == viewer for f in got if f["type"] == "prompt")
        assert {f["type"] for f in got} <= {"event", "prompt", "accepted", "clock", "presence"}
        for frame in (f for f in got if f["type"] == "presence"):  # a seat away: public words
            assert frame["seat"] != viewer
            assert set(frame["params"]) <= {"name", "seconds", "grace", "bot"}
        check_clocks([f for f in got if f["type"] == "clock"], players, everyone)


class Viewers:
    """The connections of a game: the people's (*humans*, by seat) and the spectator's
    (``None``), every frame each one got, and how far each has been read."""

    def __init__(self, humans: list[int]) -> None:
        self.frames: dict[int | None, list[Frame]] = {viewer: [] for viewer in [*humans, None]}
        self.sockets: dict[int | None, Any] = {}
        self.cursors = {viewer: 0 for viewer in self.frames}

    def scan(self, viewer: int | None, done: Any) -> Frame:
        """The first frame after the last one scanned that is *done*, read from the socket if
        it has not come yet."""
        got = self.frames[viewer]
        while True:
            while self.cursors[viewer] < len(got):
                frame = got[self.cursors[viewer]]
                self.cursors[viewer] += 1
                if done(frame):
                    return frame
            got.append(json.loads(self.sockets[viewer].receive_text()))

    def play_to_the_end(self, humans: list[int], chooser: random.Random) -> None:
        """Subscribe every connection, then play the people's turns with moves *chooser*
        picks, until the game ends and every person has seen its end."""
        for viewer, ws in self.sockets.items():
            ws.send_text(msg("subscribe", after=-1))
            read_until(ws, self.frames[viewer], lambda f: f["type"] == "accepted")
        for _turn in range(3000):
            # The spectator tells whose turn it is (a person's, after the bots').
            last = self.scan(
                None,
                lambda f: (
                    ended(f)
                    or (
                        f["type"] == "event"
                        and f["event"]["type"] in ("turn_ended", "game_started")
                        and _next(f) in humans
                    )
                ),
            )
            if ended(last):
                break
            seat = _next(last)
            prompt = self.scan(
                seat, lambda f, s=last["seq"]: f["type"] == "prompt" and f["seq"] >= s
            )
            self.sockets[seat].send_text(msg("submit", command=chooser.choice(commands(prompt))))
            answer = self.scan(seat, lambda f: f["type"] in ("accepted", "refused"))
            assert answer["type"] == "accepted", answer
        for viewer in humans:
            if not any(ended(f) for f in self.frames[viewer]):
                read_until(self.sockets[viewer], self.frames[viewer], ended)


def check_clocks(clocks: list[Frame], players: int, everyone: list[int]) -> None:
    """A viewer's clock frames: there are some, and they hold seconds and a seat only."""
    assert clocks, "a table with a timer sends clocks"
    for clock in clocks:  # seconds and a seat, nothing else
        assert set(clock) == {
            "type",
            "v",
            "table",
            "seq",
            "remaining",
            "running",
            "reserve",
            "increment",
        }
        assert len(clock["remaining"]) == players
        assert all(isinstance(left, float) for left in clock["remaining"])
        assert clock["running"] in (None, *everyone)  # the away one's, in its grace


def _next(frame: Frame) -> int:
    event = frame["event"]
    if event["type"] == "turn_ended":
        seat: int = event["next_seat"]
        return seat
    first: int = event["first_seat"]
    return first
