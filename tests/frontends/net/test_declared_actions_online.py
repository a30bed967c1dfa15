"""A variant's own actions (hook API 3) in networked play: the prompt carries the legal
commands of the declared actions (``acts``), a client submits one as a command of the
action's own kind, and the table refuses one its game does not have, keeping the connection.

Live: a real ``cinco serve`` on 127.0.0.1 with the example plugin cinco-capture installed
(``pip install --target`` into a throwaway folder on ``PYTHONPATH``:
tests/helpers/example_plugins.py), a table of the capture variant played to its
end by two ``cinco join --bot`` clients; their records hold captures and replay with the rules
checked. Unit level: the protocol's round trips and bounds, and the terminal seat of
``cinco join`` reading a capture typed by its name when the plugin is not installed here.

docs/seat-protocol.md ("prompt", "Commands"), docs/plugins.md ("Adding an action").
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from example_plugins import install_examples, with_site

from cinco.core.engine.commands import Act, Draw, PlayCard
from cinco.core.engine.errors import EventError
from cinco.core.engine.legal import LegalActions
from cinco.core.table.protocol import (
    MAX_ACT_FIELDS,
    Accepted,
    Check,
    Hinted,
    Prompt,
    Refused,
    Submit,
    message_from_dict,
    message_from_json,
    request_from_json,
)
from cinco.frontends.terminal import parsing
from cinco.frontends.terminal.help import help_text

CAPTURE_ACT = Act(0, "capture", (("card", 1), ("space", 34)))
LEGAL = LegalActions(0, ((1, (3, 4)), (60, ())), True, False, (CAPTURE_ACT,))

# -- the protocol ------------------------------------------------------------------------------


def test_a_prompt_carries_the_declared_actions_and_reads_back() -> None:
    prompt = Prompt("t1", 7, LEGAL)
    data = prompt.to_dict()
    assert data["acts"] == [{"kind": "capture", "seat": 0, "card": 1, "space": 34}]
    read = message_from_json(json.dumps(data))
    assert read == prompt and isinstance(read, Prompt)
    assert list(read.legal)[-1] == CAPTURE_ACT and CAPTURE_ACT in read.legal


def test_a_prompt_without_acts_is_written_and_read_as_before() -> None:
    plain = Prompt("t1", 7, LegalActions(0, ((5, (5, 6)),), True, False))
    assert "acts" not in plain.to_dict()  # a game without declared actions: the same frames
    read = message_from_dict(plain.to_dict())
    assert read == plain and isinstance(read, Prompt) and read.legal.acts == ()


def test_a_prompt_offers_only_declared_actions_in_acts() -> None:
    data = Prompt("t1", 7, LEGAL).to_dict()
    data["acts"] = [{"kind": "draw", "seat": 0}]
    with pytest.raises(EventError, match="acts"):
        message_from_dict(data)


def test_a_declared_action_is_submitted_as_its_own_kind() -> None:
    frame = json.dumps(Submit(CAPTURE_ACT).to_dict())
    assert json.loads(frame)["command"] == {"kind": "capture", "seat": 0, "card": 1, "space": 34}
    assert request_from_json(frame) == Submit(CAPTURE_ACT)
    # a hint may be one too
    hinted = Hinted(CAPTURE_ACT, "greedy", "a capture")
    assert message_from_json(json.dumps(hinted.to_dict())) == hinted
    # the built-in commands are read as before
    for command in (PlayCard(0, 3, None), PlayCard(1, 3, 4), Draw(1)):
        assert request_from_json(json.dumps(Submit(command).to_dict())) == Submit(command)


HOSTILE_COMMANDS: list[dict[str, Any]] = [
    {"kind": "x" * 1000, "seat": 0},
    {"kind": "capture", "seat": 0, **{f"f{i}": 1 for i in range(100)}},
    {"kind": "capture", "seat": 0, "card": 1.0, "space": 34},
    {"kind": "capture", "seat": 0, "card": True, "space": 34},
    {"kind": "capture", "seat": 0, "card": 1, "space": None},
    {"kind": "capture", "seat": 0, "card": 10**6, "space": 34},
    {"kind": "capture", "seat": 0, "card": [1], "space": 34},
    {"kind": "capture", "seat": 0, "y" * 200: 1},
    {"kind": "capture", "seat": 0, "not a name": 1},
    {"kind": "capture", "card": 1, "space": 34},
    {"kind": "Capture", "seat": 0},
    {"kind": "cap ture", "seat": 0},
    {"kind": "", "seat": 0},
    {"kind": 7, "seat": 0},
]


@pytest.mark.parametrize("command", HOSTILE_COMMANDS)
def test_a_hostile_command_is_refused_in_few_words(command: dict[str, Any]) -> None:
    with pytest.raises(EventError) as refused:
        request_from_json(json.dumps({"type": "submit", "v": 2, "command": command}))
    assert len(str(refused.value)) < 300


def test_an_action_of_eight_fields_is_read() -> None:
    fields = {f"f{i}": i for i in range(MAX_ACT_FIELDS)}
    read = request_from_json(
        json.dumps({"type": "check", "v": 2, "command": {"kind": "jump", "seat": 1, **fields}})
    )
    assert isinstance(read, Check) and read.command == Act(1, "jump", tuple(fields.items()))


# -- the terminal seat of ``cinco join``, without the variant's plugin --------------------------


def test_a_capture_typed_by_its_name_is_read_from_the_prompt() -> None:
    """No spec of ``leap`` is known here: the prompt names it, and its fields."""
    leap = Act(0, "leap", (("card", 2), ("space", 40)))
    legal = LegalActions(0, ((2, (2, 3)),), True, False, (leap,))
    actions = parsing.actions_for(legal)
    intent = parsing.parse("leap 2 40", actions)
    assert isinstance(intent, parsing.Declared) and intent.command(0) == leap
    wrong = parsing.parse("leap 2", actions)
    assert isinstance(wrong, parsing.Declared) and wrong.command(0) is None
    assert "leap CARD SPACE" in wrong.problem
    assert parsing.action_keys(legal) == [("leap", "leap")]
    help_lines = help_text(actions=actions)
    assert "leap CARD SPACE" in help_lines and "typed as its name" in help_lines
    # the built-in words still win
    assert parsing.parse("d", actions) == parsing.Draw()


def test_the_terminal_seat_submits_the_action_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    from cinco.frontends.net.client import Lobby, Session
    from cinco.frontends.net.terminal_seat import TerminalSeat
    from cinco.frontends.terminal.screen import Screen

    leap = Act(0, "leap", (("card", 2), ("space", 40)))
    legal = LegalActions(0, ((2, (2, 3)),), True, False, (leap,))
    session = Session(Lobby("http://127.0.0.1:9"), table="t", token="secret", seat=0)
    monkeypatch.setattr(session.view, "legal", lambda: legal)
    seat = TerminalSeat(Screen(), session)
    assert seat.command_for(parsing.parse("leap 2 40", seat.typed_actions())) == leap
    told = seat.command_for(parsing.parse("leap two", seat.typed_actions()))
    assert isinstance(told, str) and "leap CARD SPACE" in told
    assert "fish" in str(seat.command_for(parsing.parse("fish", seat.typed_actions())))


# -- live: a table of the capture variant, two ``cinco join --bot`` clients --------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding cinco-capture, installed by pip (built from a copy: pip builds in
    place and would leave build/ and *.egg-info behind)."""
    return install_examples(
        ["cinco-capture"],
        tmp_path_factory.mktemp("capture-source"),
        tmp_path_factory.mktemp("capture-site"),
    )


@pytest.fixture
def capture_server(site: Path, tmp_path: Path) -> Iterator[Any]:
    pytest.importorskip("uvicorn")
    pytest.importorskip("websockets")
    from live_server import Server

    server = Server(tmp_path / "tables.sqlite", log=tmp_path / "server.log")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", with_site(site)["PYTHONPATH"])  # the server's plugins
        server.start()
    try:
        yield server
    finally:
        server.stop()


#: Tables played at once, and at most this many rounds of them until one holds a capture
#: (greedy against ismcts captures in about half of the games).
TABLES = 3
ROUNDS = 4


def test_bots_joined_over_the_network_capture_and_the_records_replay(
    capture_server: Any, site: Path, tmp_path: Path
) -> None:
    from live_server import CINCO

    from cinco.frontends.net.client import Lobby

    lobby = Lobby(capture_server.url)
    env = with_site(site)
    captures: dict[str, int] = {}
    for _round in range(ROUNDS):
        tables = [lobby.create({"players": 2, "variants": ["capture"]}) for _ in range(TABLES)]
        clients = [
            subprocess.Popen(
                [
                    str(CINCO),
                    "join",
                    capture_server.url,
                    table["code"],
                    "--bot",
                    bot,
                    "--name",
                    name,
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
            for table in tables
            for bot, name in (("greedy", "Gus"), ("ismcts", "Iris"))
        ]
        deadline = time.monotonic() + 240
        for client in clients:
            out, err = client.communicate(timeout=max(1.0, deadline - time.monotonic()))
            assert client.returncode == 0, out + err
            assert "refused" not in out + err and "failed" not in out + err, out + err
            assert "wins" in out or "draw" in out.lower(), out
        for table in tables:
            record = tmp_path / f"{table['table']}.jsonl"
            record.write_text(lobby.record(table["table"], table["owner"]), encoding="utf-8")
            lines = [json.loads(line) for line in record.read_text().splitlines()[1:]]
            taken = [e for e in lines if e["type"] == "action_taken"]
            assert all(e["action"] == "capture" for e in taken)
            captures[table["table"]] = len(taken)
            replay = subprocess.run(
                [str(CINCO), "replay", str(record), "--json"],
                capture_output=True,
                text=True,
                env=env,
                timeout=120,
            )
            assert replay.returncode == 0, replay.stdout + replay.stderr
            assert json.loads(replay.stdout)["result"] is not None
        if sum(captures.values()):
            break
    assert sum(captures.values()) > 0, captures


def test_an_action_the_game_lacks_is_refused_and_the_connection_stays(
    capture_server: Any,
) -> None:
    """A standard table: a capture (a plausible action's name) is refused through the rules'
    refusal, a hostile command by the schema; the seat then plays on."""
    from live_server import first_legal, seated

    from cinco.frontends.net.client import Lobby

    lobby = Lobby(capture_server.url)
    table = lobby.create({"players": 2})
    players = seated(lobby, table)
    try:
        deadline = time.monotonic() + 30
        while not any(player.view.legal() for player in players):
            assert time.monotonic() < deadline
            for player in players:
                player.receive(timeout=0.2)
        mover = next(player for player in players if player.view.legal())
        seat = mover.view.seat
        assert seat is not None
        answer = mover.request(Submit(Act(seat, "capture", (("card", 1), ("space", 34)))))
        assert isinstance(answer, Refused) and answer.code == "malformed_command", answer
        assert "no action 'capture'" in answer.message
        ws = mover._ws  # the connection was kept: hostile frames go on the same one
        assert ws is not None
        for command in HOSTILE_COMMANDS[:4]:
            ws.send(json.dumps({"type": "submit", "v": 2, "command": command}))
            refused = None
            while refused is None:
                message = mover.receive(timeout=10)
                assert message is not None
                if isinstance(message, Refused | Accepted):
                    refused = message
            assert isinstance(refused, Refused) and refused.code == "malformed_command"
            assert len(refused.message) < 600
        # both play on to the end over the same connections
        deadline = time.monotonic() + 90
        while not all(player.view.over for player in players):
            assert time.monotonic() < deadline
            for player in players:
                player.receive(timeout=0.05)
                command = first_legal(player)
                if command is not None:
                    assert isinstance(player.request(Submit(command)), Accepted)
    finally:
        for player in players:
            player.close()
