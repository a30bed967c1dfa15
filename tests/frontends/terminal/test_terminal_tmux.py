"""The terminal game in a real terminal: tmux runs ``cinco`` at 80×24, keys are sent with
``send-keys`` and the screen is read back with ``capture-pane``."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from tmux_terminal import TMUX, Terminal

from cinco.core.engine.events import CardPlayed, TurnEnded, Undone
from cinco.core.engine.state import fold
from cinco.core.records.record import load_record

pytestmark = pytest.mark.tmux

CINCO = Path(sys.executable).parent / "cinco"


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    if TMUX is None:
        pytest.skip("tmux is not installed (.ci/run installs it)")
    # A tmux server of our own; its socket in a short private folder (sockets have a length
    # limit), removed afterwards.
    folder = Path(tempfile.mkdtemp(prefix="cinco-tmux-"))
    term = Terminal(folder / "sock")
    yield term
    subprocess.run([TMUX, "-S", str(term.socket), "kill-server"], capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)


def hand_on(screen: str) -> tuple[int, ...]:
    line = next(line for line in screen.splitlines() if line.startswith("Ann's hand"))
    return tuple(int(n) for n in re.findall(r"\d+", line))


def test_play_in_a_real_terminal(terminal: Terminal, tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    command = (
        f"env CINCO_DATA_DIR={tmp_path} TERM=xterm-256color {CINCO} --players 2 "
        f"--bot 2=greedy --seed 7 --delay 0 --record {record}; sleep 60"
    )
    terminal.tmux("new-session", "-d", "-s", "game", "-x", "80", "-y", "24", command)
    screen = terminal.wait_for(lambda s: "Ann, your move:" in s, "Ann's prompt")
    lines = screen.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    assert "Turn " in screen and "Greedy 2" in screen and "Draw pile" in screen
    assert hand_on(screen) == fold(load_record(record).events).hand(0)

    # A refused move shows the engine's reason and changes nothing.
    terminal.keys("d")
    terminal.wait_for(lambda s: "Your hand is full" in s, "the engine's reason")

    # Play the lowest card by its number alone (asked where if its space is taken).
    card = hand_on(terminal.screen())[0]
    terminal.keys(str(card))
    screen = terminal.wait_for(
        lambda s: f"Space for {card}:" in s or "Turn 3" in s or "Turn 4" in s, "the move"
    )
    if f"Space for {card}:" in screen:
        assert "*" in screen  # the legal spaces are marked on the board
        space = int(re.search(r"(\d+)\*", screen).group(1))  # type: ignore[union-attr]
        terminal.keys(str(space))
    screen = terminal.wait_for(lambda s: "You played" in s and "your move" in s, "the log")
    events = load_record(record).events
    mine = [e for e in events if isinstance(e, CardPlayed) and e.seat == 0]
    assert mine and mine[-1].card == card
    assert f"You played {card} and placed on {mine[-1].space}" in screen

    # Undo is refused, in the table's words: Greedy has played a card Ann saw since, which
    # would go back into its hand. Nothing changes.
    terminal.keys("u")
    screen = terminal.wait_for(lambda s: "Greedy 2 has played a card" in s, "the refusal")
    assert "not allowed" in " ".join(screen.split())
    assert load_record(record).events == events
    assert not any(isinstance(e, Undone) for e in events)
    assert hand_on(screen) == fold(events).hand(0)

    # Help, then quit: the game is saved and named.
    terminal.keys("?")
    terminal.wait_for(lambda s: "What to type" in s, "the help")
    terminal.keys("")
    terminal.keys("q")
    screen = terminal.wait_for(lambda s: "Game saved in" in s, "the saved message")
    assert "cinco --resume" in screen
    assert str(record) in " ".join(screen.split()) or record.name in screen
    assert not fold(load_record(record).events).is_over
    assert all(not isinstance(e, TurnEnded) or e.seat in (0, 1) for e in events)


def test_ctrl_c_in_a_real_terminal(terminal: Terminal, tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    command = (
        f"env CINCO_DATA_DIR={tmp_path} {CINCO} --players 2 --bot 2=greedy "
        f"--seed 3 --delay 0 --record {record}; echo EXIT=$?; sleep 60"
    )
    terminal.tmux("new-session", "-d", "-s", "game", "-x", "80", "-y", "24", command)
    terminal.wait_for(lambda s: "Ann, your move:" in s, "Ann's prompt")
    terminal.tmux("send-keys", "-t", "game", "C-c")
    screen = terminal.wait_for(lambda s: "EXIT=" in s, "the exit")
    assert "Traceback" not in screen
    assert "Game saved in" in screen and "EXIT=130" in screen
    assert load_record(record).events


@pytest.mark.parametrize("no_color", [False, True])
def test_colour_and_no_color(terminal: Terminal, tmp_path: Path, no_color: bool) -> None:
    """Colour in a colour terminal; with NO_COLOR not one escape sequence, and the hex
    board, hand and marks are all still there."""
    env = "NO_COLOR=1" if no_color else ""
    command = (
        f"env {env} TERM=xterm-256color CINCO_DATA_DIR={tmp_path} {CINCO} --players 2 "
        f"--bot 2=greedy --seed 5 --delay 0; sleep 60"
    )
    terminal.tmux("new-session", "-d", "-s", "game", "-x", "80", "-y", "24", command)
    terminal.wait_for(lambda s: "Ann, your move:" in s, "Ann's prompt")
    styled = terminal.tmux("capture-pane", "-p", "-e", "-t", "game")
    assert ("\x1b[" in styled) is not no_color
    plain = terminal.screen()
    assert "< last move  * legal space  ! winning line" in plain
    assert "Ann's hand" in plain
