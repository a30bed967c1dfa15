"""The terminal clients against a real ``cinco serve`` on 127.0.0.1, in a real terminal (tmux):
``cinco watch`` draws the table (board, seats, clocks counting down, the log) and Ctrl-C
leaves with one clean line; an online hint gives its reason; a line typed while it is not the
person's turn is thrown away, and ``q`` leaves at once (online and locally).

Issue 24, docs/server.md.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from live_server import CINCO, Server, first_legal, seated
from tmux_terminal import TMUX, Terminal

from cinco.core.engine.events import TurnEnded
from cinco.core.records.record import load_record
from cinco.core.table.protocol import Submit
from cinco.frontends.net.client import Lobby, Session

pytestmark = pytest.mark.tmux

CLOCKS = re.compile(r"Clocks: .*?(\w+) (\d+):(\d\d) ◀")  # the running one


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    if TMUX is None:
        pytest.skip("tmux is not installed")
    term = Terminal(tmp_path / "tmux.sock")
    yield term
    subprocess.run([str(TMUX), "-S", str(term.socket), "kill-server"], check=False)


def run_in(terminal: Terminal, tmp_path: Path, args: str, *, then: str = "sleep 60") -> None:
    """``cinco ARGS`` in the terminal's window ``game`` (100 × 40), its exit status shown."""
    command = (
        f"env XDG_DATA_HOME={tmp_path / 'data'} CINCO_DATA_DIR={tmp_path / 'games'} "
        f"TERM=xterm-256color CINCO_LANG=en {CINCO} {args}; echo exit=$?; {then}"
    )
    terminal.tmux("new-session", "-d", "-s", "game", "-x", "100", "-y", "40", command)


def seconds_left(screen: str) -> int:
    found = CLOCKS.search(screen)
    assert found, screen
    return int(found[2]) * 60 + int(found[3])


def test_watch_draws_the_table_with_running_clocks_and_ctrl_c_leaves_cleanly(
    server: Server, terminal: Terminal, tmp_path: Path
) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "timer": "300+5"})
    players = seated(lobby, table)
    try:
        run_in(terminal, tmp_path, f"watch {server.url} {table['watch']}")
        screen = terminal.wait_for(lambda s: CLOCKS.search(s) is not None, "the clocks")
        # the board, the seats with their cards, the log: as a player sees the table
        assert " 63  64  65  66  67  68" in screen and "Tokens" in screen
        assert re.search(r"Ann +4 cards", screen) and re.search(r"Bob +4 cards", screen)
        assert "Recent moves" in screen and "were dealt" in screen
        assert "hand" not in screen  # nobody's hand
        first = seconds_left(screen)
        terminal.wait_for(lambda s: CLOCKS.search(s) and seconds_left(s) < first, "a tick")
        # a move: drawn again as it comes, and the other clock runs
        while not any(player.view.legal() for player in players):
            for player in players:
                player.receive(timeout=0.2)
        mover = next(player for player in players if player.view.legal())
        move = first_legal(mover)
        assert move is not None
        mover.request(Submit(move))
        other = "Bob" if mover is players[0] else "Ann"
        terminal.wait_for(lambda s: "Turn 2" in s and f"{other} 5:00 ◀" in s, "the move")
        terminal.tmux("send-keys", "-t", "game", "C-c")
        screen = terminal.wait_for(lambda s: "exit=" in s, "the end")
    finally:
        for player in players:
            player.close()
    tail = screen.rstrip().splitlines()[-3:]
    assert tail[0].strip() in ("^C", "")
    assert tail[1].startswith("You stopped watching. To watch again: cinco watch"), screen
    assert tail[2] == "exit=130"
    assert "Aborted" not in screen and "Traceback" not in screen


def test_online_hint_gives_its_reason(server: Server, terminal: Terminal, tmp_path: Path) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "bots": {"2": "greedy"}})
    run_in(terminal, tmp_path, f"join {server.url} {table['code']} --name Ann")
    terminal.wait_for(lambda s: "Your move:" in s, "Ann's prompt")
    terminal.keys("h")
    screen = terminal.wait_for(lambda s: "Enter plays it" in " ".join(s.split()), "the hint")
    hint = " ".join(screen.split("Hint (", 1)[1].split())
    assert re.match(r"\w+\): .+ — \w.{10,}\. Enter plays it \(", hint), hint


def test_online_keys_typed_ahead_are_thrown_away_and_q_leaves_at_once(
    server: Server, terminal: Terminal, tmp_path: Path
) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2})
    run_in(terminal, tmp_path, f"join {server.url} {table['code']} --name Ann")
    terminal.wait_for(lambda s: "Waiting for the other players" in s, "Ann seated")
    seat = lobby.join(table["code"], "Bob")
    bob = Session(lobby, table=table["table"], token=seat["token"], seat=seat["seat"])
    bob.connect()
    try:
        screen = terminal.wait_for(lambda s: "to move" in s, "the game")
        if "Ann to move" in screen:
            terminal.wait_for(lambda s: "Your move:" in s, "Ann's prompt")
            terminal.keys("x")  # a full hand: she exchanges it
        terminal.wait_for(lambda s: "Bob to move" in s, "Bob's turn")
        terminal.keys("h")  # while it is not her turn: thrown away, not run later
        while bob.view.legal() is None:
            bob.receive(timeout=1.0)
        move = first_legal(bob)
        assert move is not None
        bob.request(Submit(move))
        screen = terminal.wait_for(lambda s: "Your move:" in s and "Ann to move" in s, "her turn")
        assert "Hint (" not in screen
        terminal.keys("x")
        terminal.wait_for(lambda s: "Bob to move" in s, "Bob's turn again")
        terminal.keys("q")  # during Bob's turn: she leaves at once
        screen = terminal.wait_for(lambda s: "exit=" in s, "the end")
    finally:
        bob.close()
    assert "You left the table" in screen and "exit=0" in screen
    assert "Traceback" not in screen
    assert any(s["free"] for s in lobby.table(table["table"])["seats"])  # hers, for the code


def test_local_q_while_a_bot_thinks_saves_and_quits(terminal: Terminal, tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    run_in(terminal, tmp_path, f"--players 2 --bot 2=greedy --seed 7 --delay 30 --record {record}")
    terminal.wait_for(lambda s: "Ann, your move:" in s, "Ann's prompt")
    terminal.keys("x")
    terminal.wait_for(lambda s: "thinking" in s, "the bot thinking")
    terminal.keys("q")  # the bot's turn lasts 30 s: q answers now
    screen = terminal.wait_for(lambda s: "exit=" in s, "the end", timeout=10)
    assert "Game saved in" in screen and "exit=0" in screen
    assert sum(isinstance(e, TurnEnded) for e in load_record(record).events) >= 1
