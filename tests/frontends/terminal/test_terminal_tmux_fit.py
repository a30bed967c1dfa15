"""The game fits 80×24 in every language, with 2, 4 and 6 players: in a real terminal (tmux)
the whole board, the turn line, the hand, the newest move of the log and the prompt are all on
screen at the first turn of the person, and still after a long message; ``q`` then saves.

What the screen should say is worked out here in the game's own words (:func:`speaking`), so
the checks hold whatever the catalogs say, translated or not yet. One tmux server runs every
game, a session each; each game is a few bot moves and a quit.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from english_terms import english_terms
from tmux_terminal import TMUX, Terminal

from cinco.core.engine.events import Event
from cinco.core.records.record import load_record
from cinco.core.words.i18n import _, speaking
from cinco.frontends.board_view import board_width, render_board
from cinco.frontends.terminal.move_log import MoveLog

pytestmark = pytest.mark.tmux

CINCO = Path(sys.executable).parent / "cinco"
LANGUAGES = ("en", "uk", "ru", "cs", "it")
#: The board's rows, as numbers: drawn whole, they are the first lines of the screen.
BOARD_ROWS = [re.findall(r"\d+", row) for row in render_board(color=False).plain.splitlines()]
#: The side panel's width at 80 columns (the log is wrapped to it).
PANEL = 80 - board_width() - 1


@pytest.fixture(scope="module")
def server() -> Iterator[Path]:
    """The socket of a tmux server that every test of this module starts its game in."""
    if TMUX is None:
        pytest.skip("tmux is not installed (.ci/run installs it)")
    folder = Path(tempfile.mkdtemp(prefix="cinco-fit-"))
    socket = folder / "sock"
    yield socket
    subprocess.run([TMUX, "-S", str(socket), "kill-server"], capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)


def start_game(
    terminal: Terminal, data: Path, lang: str, players: int, seed: int | None = None
) -> Path:
    """``cinco`` in *lang* with Ann against greedy bots, in an 80×24 session. Two-player
    games take the language from ``LANG`` (the system locale), the others from ``--lang``."""
    record = data / "game.jsonl"
    bots = " ".join(f"--bot {seat}=greedy" for seat in range(2, players + 1))
    if players == 2:
        language = f"LANG={lang}_XX.UTF-8" if lang != "en" else "LANG=C.UTF-8"
        env = f"env -u CINCO_LANG -u LANGUAGE -u LC_ALL -u LC_MESSAGES {language}"
        options = ""
    else:
        env, options = "env", f"--lang {lang}"
    terminal.start(
        f"{env} TERM=xterm-256color CINCO_DATA_DIR={data} {CINCO} {options} "
        f"--players {players} {bots} --seed {seed or players} --delay 0 --record {record}; "
        "sleep 60"
    )
    return record


def newest_line(record: Path, lang: str) -> str:
    """The log's newest line as Ann is told it, in *lang*: its first line as wrapped in the
    panel."""
    events: list[Event] = [event.seen_by(0) for event in load_record(record).events]
    with speaking(lang):
        log = MoveLog.of(events[0].config, 0, events)  # type: ignore[attr-defined]
    return textwrap.wrap(log.lines[-1].text, PANEL)[0]


def last_line(screen: str) -> str:
    return ([line.strip() for line in screen.splitlines() if line.strip()] or [""])[-1]


def check_fits(screen: str, prompt: str, turn: re.Pattern[str], hand: str) -> None:
    """Everything is on an 80×24 screen: the board whole at the top, the legend's marks, the
    turn line, the hand and, last, the prompt."""
    lines = screen.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines), screen
    board = [re.findall(r"\d+", line[: board_width()]) for line in lines[: len(BOARD_ROWS)]]
    assert board == BOARD_ROWS, screen
    legend = " ".join(line[: board_width()] for line in lines[len(BOARD_ROWS) : 14])
    assert all(mark in legend for mark in "<*!"), screen
    assert turn.search(lines[0]), screen
    assert any(line.startswith(hand) for line in lines), screen
    assert last_line(screen) == prompt, screen


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_game_fits_80x24(server: Path, tmp_path: Path, lang: str, players: int) -> None:
    terminal = Terminal(server, target=f"{lang}{players}")
    record = start_game(terminal, tmp_path, lang, players)
    with speaking(lang):
        prompt = _("{name}, your move: ").format(name="Ann").strip()
        parts = _("Turn {n} · {name} to move").split("{n}")
        turn = re.compile(
            re.escape(parts[0]) + r"\d+" + re.escape(parts[1]).replace(r"\{name\}", "Ann")
        )
        hand = _("{name}'s hand").format(name="Ann")
        saved = _("Game saved in {path}").split("{path}")[0].strip()
        wrong = _(
            "“{text}” is not a move. Type a card (34), a card and a space "
            "(34 36), d, x, u, h, or ? for help."
        ).format(text="fish")
    screen = terminal.wait_for(lambda s: last_line(s) == prompt, "Ann's prompt")
    check_fits(screen, prompt, turn, hand)
    newest = newest_line(record, lang)
    assert newest in screen, screen  # the log keeps its last lines
    if lang != "en":  # a played game, as the player reads it: no English game term left
        assert english_terms(screen, lang) == [], screen

    # A long message (two lines at 80 columns) takes the log's room, not the board's.
    terminal.keys("fish")
    screen = terminal.wait_for(
        lambda s: wrong[:20] in s and last_line(s) == prompt, "the message and the prompt"
    )
    check_fits(screen, prompt, turn, hand)
    assert " ".join(wrong.split()) in " ".join(screen.split())
    assert newest in screen, screen

    terminal.keys("q")
    terminal.wait_for(lambda s: saved in s, "the game saved")


@pytest.mark.parametrize("lang", ["en", "uk"])
def test_a_move_taken_back_is_shown_so(server: Path, tmp_path: Path, lang: str) -> None:
    """Seed 8: Ann's first play (41 on 67) may be taken back (the bot's answer showed her no
    card). After ``u`` the play and the answer are still in the log, marked as taken back,
    and the notice of the undo follows; the screen still fits."""
    terminal = Terminal(server, target=f"undo-{lang}")
    start_game(terminal, tmp_path, lang, 2, seed=8)
    with speaking(lang):
        prompt = _("{name}, your move: ").format(name="Ann").strip()
        mark = _("{move} (taken back)").replace("{move}", "").strip()
        notice = _("You took back your last move.")
        undone = _("Undone: it is your turn again.")
        played = _("You played {card} and placed on {space}").format(card=41, space=67)
    terminal.wait_for(lambda s: last_line(s) == prompt, "Ann's prompt")
    terminal.keys("41 67")
    terminal.wait_for(lambda s: played[:20] in s and last_line(s) == prompt, "the play")
    assert mark not in terminal.screen()
    terminal.keys("u")
    screen = terminal.wait_for(lambda s: undone in s and last_line(s) == prompt, "the undo")
    panel = " ".join(" ".join(line[board_width() + 1 :] for line in screen.splitlines()).split())
    assert f"{played} {mark}" in panel, screen
    assert panel.count(mark) == 2 and panel.index(mark) < panel.index(notice), screen
    lines = screen.splitlines()
    board = [re.findall(r"\d+", line[: board_width()]) for line in lines[: len(BOARD_ROWS)]]
    assert board == BOARD_ROWS, screen
    terminal.keys("q")
