"""Hostile frames: every message a client may send, with wrong values in every field.

Unit level: :func:`message_from_dict` turns any JSON value into a message or an ``EventError``,
and :func:`message_from_json` any text or bytes, never another exception. Live: a real
``cinco serve`` on 127.0.0.1 (one for the module) is sent a few hundred fuzzed frames on the
connections of a table's two seats and its spectator. Every answer is a well-formed
``refused`` (a frame the protocol's schema refuses: ``malformed_command`` saying what the
schema says) or a legitimate answer, every connection stays open, and the table then plays
to its end, as does a new table of two ``cinco join --bot`` clients.

Issue 23, docs/seat-protocol.md ("Limits"), docs/server.md ("Security model").
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cinco.core.engine.commands import Draw, PlayCard
from cinco.core.engine.config import GameConfig
from cinco.core.engine.errors import EventError
from cinco.core.engine.events import CardPlayed
from cinco.core.engine.legal import LegalActions
from cinco.core.table.protocol import (
    MAX_DEPTH,
    MAX_HINT_SECONDS,
    REQUESTS,
    SCHEMAS,
    Accepted,
    Clock,
    Envelope,
    Hint,
    Hinted,
    Message,
    Presence,
    Prompt,
    Refused,
    Submit,
    message_from_dict,
    message_from_json,
    request_from_json,
)
from cinco.core.table.table import Table
from cinco.core.words.messages import TEMPLATES, render

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from live_server import Server, bot_clients, first_legal, free_port
from websockets.sync.client import ClientConnection, connect

from cinco.frontends.net.client import Lobby, Session

# -- what a client may send, and ways to spoil it ---------------------------------------------

#: One valid example of each request a client sends (hints ask fast bots: a valid hint thinks).
REQUEST_EXAMPLES: dict[str, dict[str, Any]] = {
    "submit": {"type": "submit", "v": 2, "command": {"kind": "play", "seat": 0, "card": 9}},
    "check": {"type": "check", "v": 2, "command": {"kind": "draw", "seat": 0}},
    "undo": {"type": "undo", "v": 2, "check": True},
    "subscribe": {"type": "subscribe", "v": 2, "after": -1},
    "hint": {"type": "hint", "v": 2, "bots": ["greedy"], "seconds": 0.2},
}
#: One of each message only a table sends, as a client might send it back.
SERVER_EXAMPLES: dict[str, dict[str, Any]] = {
    "event": Envelope("t", 3, CardPlayed(seat=0, card=34, space=36)).to_dict(),
    "prompt": {
        "type": "prompt",
        "v": 2,
        "table": "t",
        "seq": 9,
        "seat": 0,
        "plays": [[12, [3, 4]]],
        "can_draw": True,
        "can_exchange": False,
    },
    "accepted": Accepted(4).to_dict(),
    "refused": Refused("busy").to_dict(),
    "hinted": Hinted(Draw(0), "greedy", None).to_dict(),
    "clock": Clock("t", 3, (10.0, 12.5), 0, 60.0, 5.0).to_dict(),
    "presence": Presence("t", 1, "seat_away", (("name", "Bob"), ("seconds", 60))).to_dict(),
}
assert set(REQUEST_EXAMPLES) == REQUESTS and set(SERVER_EXAMPLES) | REQUESTS == set(SCHEMAS)

#: Raw JSON for numbers ``json.dumps`` cannot write: out of a float's range, too many digits.
HUGE = {"__huge__": "1e400", "__-huge__": "-1e400", "__digits__": "9" * 5000}

NUMBERS = st.sampled_from(
    [math.nan, math.inf, -math.inf, -1, -1.5, 0, -0.0, 1e-320, 2**63, 10**400, 1e300, *HUGE]
) | st.integers(min_value=-(2**70), max_value=2**70)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**40), max_value=2**40)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["1.5", "NaN", "-1", "ismcts", "greedy", "draw", "play"])
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=10,
)
HOSTILE = NUMBERS | JSON_VALUES


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


@st.composite
def spoiled(draw: st.DrawFn) -> dict[str, Any]:
    """A message of any type with one thing wrong (or, by chance, nothing)."""
    examples = {**REQUEST_EXAMPLES, **SERVER_EXAMPLES}
    data = json.loads(json.dumps(examples[draw(st.sampled_from(sorted(examples)))]))
    how = draw(st.sampled_from(["value", "command", "extra", "drop", "deep", "version"]))
    fields = sorted(key for key in data if key not in ("type", "v"))
    if how == "value" and fields:
        data[draw(st.sampled_from(fields))] = draw(HOSTILE)
    elif how == "command" and isinstance(data.get("command"), dict):
        command = data["command"]
        command[draw(st.sampled_from([*sorted(command), "extra"]))] = draw(HOSTILE)
    elif how == "extra":
        data[draw(st.text(min_size=1, max_size=10))] = draw(HOSTILE)
    elif how == "drop" and fields:
        del data[draw(st.sampled_from(fields))]
    elif how == "deep":
        data[draw(st.sampled_from(fields or ["x"]))] = nested(draw(st.integers(10, 40)))
    elif how == "version":
        data["v"] = draw(HOSTILE)
    return data


def dumps(data: Any) -> str:
    """JSON text, NaN and infinities included, and the raw numbers of :data:`HUGE`."""
    text = json.dumps(data)
    for mark, raw in HUGE.items():
        text = text.replace(json.dumps(mark), raw)
    return text


FRAMES = (
    spoiled().map(dumps)
    | st.sampled_from(sorted(REQUEST_EXAMPLES)).map(lambda kind: dumps(REQUEST_EXAMPLES[kind]))
    | st.integers(17, 5000).map(lambda n: "[" * n + "]" * n)
    | st.integers(17, 3000).map(lambda n: '{"type": "hint", "v": 2, "bots": ' + "[" * n)
    | st.text(max_size=40)
    | JSON_VALUES.map(dumps)
    | st.binary(max_size=40)
    | spoiled().map(lambda data: dumps(data).encode("utf-8"))
)

# -- unit level --------------------------------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(JSON_VALUES | spoiled())
def test_any_json_value_is_a_message_or_an_event_error(data: Any) -> None:
    try:
        message = message_from_dict(data)
    except EventError as exc:
        assert str(exc)
        return
    assert isinstance(message, Message)
    # What is read is what its JSON form says, so it reads back the same.
    assert message_from_json(json.dumps(message.to_dict())) == message


@settings(max_examples=300, deadline=None)
@given(FRAMES)
def test_any_frame_is_a_request_or_an_event_error(frame: str | bytes) -> None:
    try:
        message = request_from_json(frame)
    except EventError as exc:
        assert str(exc)
        return
    assert message.type in REQUESTS


@pytest.mark.parametrize(
    "seconds", [math.nan, math.inf, -math.inf, 0, -1, MAX_HINT_SECONDS * 1.01, 1e300, "1.5", True]
)
def test_a_hint_for_no_number_of_seconds_is_refused(seconds: object) -> None:
    frame = dumps({"type": "hint", "v": 2, "bots": ["ismcts"], "seconds": seconds})
    with pytest.raises(EventError, match="seconds"):
        message_from_json(frame)


def test_numbers_out_of_a_float_s_range_and_deep_nesting_are_refused() -> None:
    with pytest.raises(EventError, match="'seconds' must be a number"):
        message_from_json('{"type": "hint", "v": 2, "seconds": 1e400}')
    with Table.create(GameConfig.for_players(2, seed=5, first_seat=0)) as table:
        dealt = table.seat(0).events()[0].to_dict()
    dealt["event"]["config"]["options"] = {"bot_time_budget": math.nan}
    with pytest.raises(EventError, match="finite"):  # where the schema reads no number
        message_from_json(dumps(dealt))
    with pytest.raises(EventError, match=f"at most {MAX_DEPTH} deep"):
        message_from_json("[" * 10_000 + "]" * 10_000)
    with pytest.raises(EventError, match="deep"):
        message_from_json('{"type": "hint", "bots": ' + "[" * 10_000)
    # Brackets inside text are text: a deep-looking string is no deep message.
    name = "[" * 100
    assert message_from_json(dumps(REQUEST_EXAMPLES["hint"] | {"bots": [name[:60]]})) == Hint(
        (name[:60],), 0.2
    )


def test_a_client_may_not_send_what_only_a_table_sends() -> None:
    for kind, data in SERVER_EXAMPLES.items():
        assert message_from_dict(data).type == kind  # a client reads it ...
        with pytest.raises(EventError, match="only a table sends"):
            request_from_json(json.dumps(data))  # ... and may not send it


def test_a_request_with_a_field_its_schema_does_not_know_is_refused() -> None:
    with pytest.raises(EventError, match="'secs'"):
        message_from_dict({"type": "hint", "v": 2, "secs": 1})
    with pytest.raises(EventError, match="card"):
        message_from_dict(
            {"type": "submit", "v": 2, "command": {"kind": "play", "seat": 0, "card": -4}}
        )


def test_a_local_hint_for_nan_seconds_is_refused_and_the_table_goes_on() -> None:
    """A handle's Hint skips the JSON schema: the table checks the seconds itself."""
    with Table.create(GameConfig.for_players(2, seed=5, first_seat=0)) as table:
        ann, bob = table.seat(0), table.seat(1)
        answer = ann.send(Hint(("ismcts",), math.nan)).result(60)
        assert isinstance(answer, Refused) and answer.code == "malformed_command"
        assert bob.check(Draw(1)) is not None  # answered (not Bob's turn)
        assert isinstance(ann.hint(("greedy",), 0.2), Hinted)


def test_closing_a_table_calls_off_the_hint_it_is_thinking_on() -> None:
    table = Table.create(GameConfig.for_players(2, seed=5, first_seat=0))
    ann = table.seat(0)
    asked = ann.send(Hint(("ismcts",), MAX_HINT_SECONDS))
    table.close()  # does not wait for the hint to think its ten seconds
    answer = asked.result(60)
    assert isinstance(answer, Refused) and "called off" in answer.message


# -- live: a real server -----------------------------------------------------------------------


class Bucket:
    """The server's rate limit (10 requests a second, bursts of 30), kept to from this side."""

    def __init__(self) -> None:
        self.tokens, self.stamp = 25.0, time.monotonic()

    def take(self) -> None:
        now = time.monotonic()
        self.tokens = min(25.0, self.tokens + (now - self.stamp) * 9.0)
        self.stamp = now
        if self.tokens < 1:
            time.sleep((1 - self.tokens) / 9.0)
            # The bucket stands at one token at the end of the sleep: counting from before
            # it would credit the sleep twice (up to twice the rate, and a rate_limited).
            self.tokens, self.stamp = 1.0, time.monotonic()
        self.tokens -= 1


class Live:
    """A table of two people on a live server, with a connection per seat and a spectator's."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.lobby = Lobby(server.url)
        self.table = self.lobby.create({"players": 2})
        self.seats = [self.lobby.join(self.table["code"], name) for name in ("Ann", "Bob")]
        secrets = [seat["token"] for seat in self.seats] + [self.table["watch"]]
        paths = [f"/ws/tables/{self.table['table']}"] * 2 + ["/ws/watch"]
        self.connections: list[ClientConnection] = []
        for path, secret in zip(paths, secrets, strict=True):
            ws = connect(
                self.lobby.ws_url(path),
                additional_headers={"Authorization": f"Bearer {secret}"},
                open_timeout=10,
            )
            self.connections.append(ws)
        self.buckets = [Bucket() for _ in self.connections]
        self.sent = 0
        for index in range(len(self.connections)):
            self.ask(index, dumps(REQUEST_EXAMPLES["subscribe"]))

    def ask(self, index: int, frame: str | bytes) -> Message:
        """Send *frame* on connection *index*; its answer (every frame on the way is read
        with the client's schema)."""
        self.buckets[index].take()
        ws = self.connections[index]
        ws.send(frame)
        while True:
            message = message_from_json(ws.recv(timeout=30))
            if isinstance(message, Accepted | Refused | Hinted):
                return message

    def close(self) -> None:
        for ws in self.connections:
            ws.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("fuzz")
    running = Server(folder / "server.db", free_port(), folder / "server.log")
    running.start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def live(server: Server) -> Iterator[Live]:
    table = Live(server)
    try:
        yield table
    finally:
        table.close()


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(frame=FRAMES)
def test_fuzzed_frames_get_well_formed_answers_on_open_connections(
    live: Live, frame: str | bytes
) -> None:
    index = live.sent % len(live.connections)
    live.sent += 1
    answer = live.ask(index, frame)
    try:
        request_from_json(frame)
    except EventError as exc:  # the schema refuses it: the server says so, in its words
        assert answer == Refused("malformed_command", (("problem", str(exc)[:500]),))
        return
    if isinstance(answer, Refused):
        assert answer.code in TEMPLATES, answer
        assert render(answer.code, dict(answer.params))
    else:
        assert isinstance(answer, Accepted | Hinted)


def test_after_the_fuzzing_the_tables_play_to_their_ends(live: Live, server: Server) -> None:
    for index in range(len(live.connections)):  # each connection is still open and answers
        assert isinstance(live.ask(index, dumps(REQUEST_EXAMPLES["subscribe"])), Accepted)
    live.close()
    sessions = [
        Session(live.lobby, table=live.table["table"], token=seat["token"], seat=seat["seat"])
        for seat in live.seats
    ]
    try:
        for session in sessions:
            session.connect()
        deadline = time.monotonic() + 120
        while not all(session.view.over for session in sessions):
            assert time.monotonic() < deadline, "the fuzzed table did not play to its end"
            for session in sessions:
                command = first_legal(session)
                if command is None:
                    session.receive(timeout=0.01)
                elif not isinstance(answer := session.request(Submit(command)), Accepted):
                    assert answer.code in TEMPLATES, answer
    finally:
        for session in sessions:
            session.close()
    # A new table: two bot clients play a whole game.
    reference = live.lobby.create({"players": 2})
    bots = bot_clients(server.url, reference["code"])
    try:
        outputs = [bot.communicate(timeout=120) for bot in bots]
    finally:
        for bot in bots:
            bot.kill()
    assert [bot.returncode for bot in bots] == [0, 0], outputs
    log = Path(server.log).read_text()
    assert "Traceback" not in log, log[-3000:]


def test_the_legal_actions_a_prompt_carries_are_checked() -> None:
    legal = LegalActions(0, ((12, (3, 4)),), True, False)
    prompt = message_from_dict(SERVER_EXAMPLES["prompt"])
    assert isinstance(prompt, Prompt) and prompt.legal == legal
    with pytest.raises(EventError, match="plays"):
        message_from_dict(SERVER_EXAMPLES["prompt"] | {"plays": [[12, [3, math.nan]]]})
    assert PlayCard(0, 12, 3) in legal
