"""The terminal game in a real terminal
(tmux) under hurried keys: a move typed while a bot thinks, a double Enter.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from terminal_input import CINCO, hot_seat
from tmux_terminal import TMUX, Terminal

from cinco.core.engine.events import TurnEnded
from cinco.core.records.record import load_record

# -- folded in from the hardening campaign's test_hardening_terminal.py (issue 26) ----------------


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    if TMUX is None:
        pytest.skip("tmux is not installed")
    folder = Path(tempfile.mkdtemp(prefix="cinco-tmux-"))
    term = Terminal(folder / "sock")
    yield term
    subprocess.run([TMUX, "-S", str(term.socket), "kill-server"], capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)


def start(terminal: Terminal, tmp_path: Path, args: str) -> None:
    command = f"env CINCO_DATA_DIR={tmp_path} TERM=xterm-256color {CINCO} {args}; sleep 60"
    terminal.tmux("new-session", "-d", "-s", "game", "-x", "80", "-y", "24", command)


def turns_of(record: Path, seat: int) -> int:
    return sum(1 for e in load_record(record).events if isinstance(e, TurnEnded) and e.seat == seat)


@pytest.mark.tmux
def test_a_move_typed_while_a_bot_thinks_is_not_played(terminal: Terminal, tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    start(terminal, tmp_path, f"--players 2 --bot 2=greedy --seed 7 --delay 2 --record {record}")
    terminal.wait_for(lambda s: "Ann, your move:" in s, "Ann's prompt")
    terminal.keys("x")  # a full hand: the exchange is legal
    terminal.wait_for(lambda s: "thinking" in s, "the bot thinking")
    terminal.keys("x")  # typed while the bot thinks: forgotten
    terminal.wait_for(
        lambda s: (
            "Greedy 2 " in s.split("Recent moves")[-1]
            and "Ann, your move:" in s
            and "thinking" not in s
        ),
        "the bot's answer",
    )
    time.sleep(1.0)
    assert turns_of(record, 0) == 1
    assert turns_of(record, 1) == 1


@pytest.mark.tmux
def test_a_double_enter_does_not_show_the_next_hand(terminal: Terminal, tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    start(terminal, tmp_path, f"{' '.join(hot_seat(5, record))}")
    screen = terminal.wait_for(lambda s: "Pass to " in s, "the first pass screen")
    first, second = ("Ann", "Bob") if "Pass to Ann" in screen else ("Bob", "Ann")
    assert "'s hand" not in screen
    terminal.keys("")  # Enter: not an answer
    time.sleep(0.5)
    assert "'s hand" not in terminal.screen()
    terminal.keys("y")
    terminal.wait_for(lambda s: f"{first}, your move:" in s, "the first prompt")
    terminal.keys("x", "", "")  # a move, and two Enters too many
    screen = terminal.wait_for(lambda s: f"Pass to {second}" in s, "the pass screen")
    time.sleep(1.0)
    screen = terminal.screen()
    assert f"Pass to {second}" in screen and "'s hand" not in screen
    terminal.keys("q")
    terminal.wait_for(lambda s: "Game saved in" in s, "the save")
    seat = 0 if first == "Ann" else 1
    assert turns_of(record, seat) == 1 and turns_of(record, 1 - seat) == 0
