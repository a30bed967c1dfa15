"""Drops are visible in the terminal client (issue 24): ``cinco join`` in a real terminal
(tmux), at its own prompt, says "Connection lost: reconnecting…" as soon as the server stops,
with no key typed; it connects again by itself when the server is back, and shows the other
seat away with its grace counting down on the line above the prompt, until they are back.

Networked play: docs/seat-protocol.md (drops: presence).
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from live_server import CINCO, Server
from tmux_terminal import TMUX, Terminal

from cinco.core.table.protocol import Submit
from cinco.frontends.net.client import Lobby, Session

pytestmark = pytest.mark.tmux

AWAY = re.compile(r"Bob is not connected: the greedy bot plays for them in (\d+) s")


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    if TMUX is None:
        pytest.skip("tmux is not installed")
    term = Terminal(tmp_path / "tmux.sock")
    yield term
    subprocess.run([str(TMUX), "-S", str(term.socket), "kill-server"], check=False)


def until_anns_turn(bob: Session) -> None:
    """Bob plays until it is Ann's turn (she is prompted)."""
    for _ in range(200):
        bob.receive(timeout=0.1)
        state = bob.view.state
        if state is not None and state.current_seat == 0:
            return
        legal = bob.view.legal()
        if legal is not None:
            bob.request(Submit(next(iter(legal))))
    raise AssertionError("it never became Ann's turn")


def test_the_terminal_client_says_its_connection_dropped_without_a_key_typed(
    server: Server, terminal: Terminal, tmp_path: Path
) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "grace": 120})
    command = (
        f"env XDG_DATA_HOME={tmp_path / 'data'} CINCO_DATA_DIR={tmp_path / 'games'} "
        f"TERM=xterm-256color CINCO_LANG=en {CINCO} join {server.url} {table['code']} "
        "--name Ann; echo exit=$?; sleep 60"
    )
    terminal.tmux("new-session", "-d", "-s", "game", "-x", "100", "-y", "45", command)
    terminal.wait_for(lambda s: "Waiting for" in s or "Turn" in s, "Ann seated")
    seat = lobby.join(table["code"], "Bob")
    bob = Session(lobby, table=table["table"], token=seat["token"], seat=seat["seat"])
    bob.connect()
    try:
        until_anns_turn(bob)
        terminal.wait_for(lambda s: "Your move:" in s, "Ann's prompt")
        bob.close()
        server.stop()  # the server goes away while Ann looks at her prompt
        terminal.wait_for(
            lambda s: "Connection lost: reconnecting…" in s, "the drop, no key typed", 15
        )
        server.start()  # back: Ann's client connects again by itself (after=SEQ) ...
        screen = terminal.wait_for(lambda s: AWAY.search(s) is not None, "Bob away", 30)
        assert "Connection lost" not in screen
        first = int(AWAY.search(screen)[1])  # type: ignore[index]
        assert 100 < first <= 120
        # ... and the grace counts down on the line above the prompt.
        terminal.wait_for(
            lambda s: (found := AWAY.search(s)) is not None and int(found[1]) < first,
            "the grace counting down",
        )
        fresh = lobby.rejoin(table["table"], seat["token"])
        bob = Session(lobby, table=table["table"], token=fresh["token"], seat=seat["seat"])
        bob.connect()  # Bob is back: the line says nothing about him any more
        terminal.wait_for(lambda s: "Bob is not connected" not in s, "Bob back", 15)
        # The prompt still works: a draw is a move the server takes (or says why not).
        terminal.keys("d")
        terminal.wait_for(lambda s: "Ann drew" in s or "You drew" in s or "full" in s, "a move")
    finally:
        bob.close()
