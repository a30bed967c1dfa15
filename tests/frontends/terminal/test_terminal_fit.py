"""The table fits its window in every language (issue 27): the board whole, the legend broken
between its items, the turn line, the hand and room for the prompt at 80×24; the log keeps its
newest lines in the room left, bounded, with the moves an undo took back marked; a bigger
window gets the bigger board and a longer log. Drawn here into a console of that size; the
tmux tests (test_terminal_tmux_fit.py) look at the real terminal."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.cells import cell_len
from rich.console import Console

from cinco.core.engine.commands import PlayCard
from cinco.core.engine.config import GameConfig
from cinco.core.engine.events import CardPlayed, TurnEnded
from cinco.core.host.registry import default_registry
from cinco.core.table.protocol import Accepted
from cinco.core.table.table import Table
from cinco.core.words.i18n import _, speaking
from cinco.frontends.board_view import board_width, legend, render_board
from cinco.frontends.main import main
from cinco.frontends.narration import LogLine, Narrator
from cinco.frontends.options import PlayOptions
from cinco.frontends.terminal.move_log import MoveLog
from cinco.frontends.terminal.table import Style, TableView, render

LANGUAGES = ("en", "uk", "ru", "cs", "it")
BOARD_ROWS = [re.findall(r"\d+", row) for row in render_board(color=False).plain.splitlines()]
#: A message as long as the longest the game shows (two or three lines at 80 columns).
LONG = "“fish” is not a move. " * 8


def drawn(view: TableView, width: int, height: int, color: bool = False) -> list[str]:
    console = Console(width=width, height=height, record=True, file=io.StringIO())
    console.print(render(view, Style(color=color, width=width, height=height)))
    return console.export_text().splitlines()


def table_after_bots(players: int, seed: int, record: Path | None = None) -> Table:
    """Ann against greedy bots, up to her first turn (the bots move first when they begin)."""
    registry = default_registry()
    options = PlayOptions(
        players=players, bots={seat: ("greedy", None) for seat in range(1, players)}, seed=seed
    )
    table = Table.create(options.config(registry), registry=registry, record=record)
    while table.status().bot_to_move:
        table.play_bot_turn()
    return table


def ann_view(table: Table, log: MoveLog, message: str = "") -> TableView:
    ann = table.seat(0)
    return TableView(
        state=ann.view,
        viewer=0,
        log=log.lines,
        taken_back=log.taken_back(),
        message=message,
        show_keys=True,
        plays=dict(ann.legal().plays),
    )


def panel_text(lines: list[str]) -> str:
    """The side panel's text at 80 columns, its lines joined, spaces made single."""
    return " ".join(" ".join(line[board_width() + 1 :] for line in lines).split())


def board_is_whole(lines: list[str], cell: int = 4) -> bool:
    """The board's rows, every number in place, are the first lines (the big board has an
    empty line between rows)."""
    step = 1 if cell == 4 else 2
    rows = lines[: len(BOARD_ROWS) * step : step]
    return [re.findall(r"\d+", line[: board_width(cell)]) for line in rows] == BOARD_ROWS


@pytest.mark.parametrize("width", [20, 30, 44, 60])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_legend_breaks_between_its_items(lang: str, width: int) -> None:
    with speaking(lang):
        one_line = legend(color=False).plain
        text = legend(teams=2, color=False, width=width).plain
        marks = legend(color=False, width=width).plain
        names = [_("blue"), _("orange")]
    lines = text.splitlines()
    # No line wider than asked, unless one item alone is; no item broken.
    assert all(cell_len(line) <= width or "  " not in line for line in lines)
    assert " ".join(text.split()).endswith(" ".join(one_line.split()))
    assert all(name in text for name in names)
    for mark in "<*!":
        assert sum(line.count(mark) for line in lines) == 1
    if cell_len(one_line) <= width:
        assert marks == one_line  # on one line when they fit
    else:
        assert len(marks.splitlines()) > 1


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_fits_80_by_24(lang: str, players: int) -> None:
    """The board whole at the top, the turn line, the hand, the message, the keys, room for
    the prompt, the newest move: in every language, with a message of three lines too."""
    with table_after_bots(players, seed=players) as table, speaking(lang):
        log = MoveLog.following(table.seat(0), table.config, 0)
        for message in ("", LONG):
            lines = drawn(ann_view(table, log, message), 80, 24)
            assert len(lines) <= 22 and all(cell_len(line) <= 80 for line in lines)
            assert board_is_whole(lines)
            assert (
                lines[0]
                .rstrip()
                .endswith(
                    _("Turn {n} · {name} to move").format(n=table.seat(0).view.turn + 1, name="Ann")
                )
            )
            assert any(line.startswith(_("{name}'s hand").format(name="Ann")) for line in lines)
            assert log.lines[-1].text in panel_text(lines)


def test_a_bigger_window_gets_a_bigger_board_and_a_longer_log() -> None:
    log = [LogLine(f"Bob played {n} and placed on {n}", 1) for n in range(1, 80)]
    with table_after_bots(2, seed=2) as table:
        view = TableView(state=table.seat(0).view, viewer=0, log=log, show_keys=True)
    small, big = drawn(view, 80, 24), drawn(view, 120, 40)
    assert board_is_whole(small) and board_is_whole(big, cell=6)
    assert len(big) <= 38 and all(cell_len(line) <= 120 for line in big)
    shown = [sum("Bob played" in line for line in lines) for lines in (small, big)]
    assert shown[1] > shown[0] + 15  # the room is used
    for lines in (small, big):  # the newest lines, up to the last
        assert "Bob played 79 and placed on 79" in "\n".join(lines)
        assert "Bob played 1 and placed on 1" not in "\n".join(lines)


def test_the_board_keeps_its_size_from_one_screen_to_the_next() -> None:
    """The big board is chosen for the window, not for what is under it now: a message of
    three lines does not shrink it (at 102×30, the smallest window that gets it)."""
    with table_after_bots(2, seed=2) as table:
        view = TableView(state=table.seat(0).view, viewer=0, show_keys=True)
        with_message = TableView(
            state=table.seat(0).view, viewer=0, show_keys=True, message=LONG[:250]
        )
    assert board_is_whole(drawn(view, 102, 30), cell=6)
    lines = drawn(with_message, 102, 30)
    assert board_is_whole(lines, cell=6) and len(lines) <= 28
    assert board_is_whole(drawn(view, 102, 29), cell=4)


def test_room_is_left_for_what_is_said_under_the_table() -> None:
    """The end of a game says where it is recorded, how to replay it and asks a question:
    the table leaves those lines (and one more) free, the board whole."""
    log = [LogLine(f"Bob played {n} and placed on {n}", 1) for n in range(1, 80)]
    with table_after_bots(6, seed=6) as table:
        state = table.seat(0).view
    said = "The game is recorded in /tmp/x\nReplay it with: cinco replay /tmp/x\nu takes: "
    lines = drawn(TableView(state=state, viewer=0, log=log, prompt=said), 80, 24)
    assert len(lines) <= 24 - 4 and board_is_whole(lines)
    assert len(drawn(TableView(state=state, viewer=0, log=log), 80, 24)) == 24 - 2


def test_a_long_entry_is_cut_and_the_panel_keeps_its_height() -> None:
    """One entry takes at most three lines; the newest is shown even when it is longer than
    the room, cut short."""
    log = [LogLine("word " * 200, None), LogLine("Bob drew a card", 1), LogLine("x " * 300)]
    with table_after_bots(6, seed=6) as table:
        view = TableView(state=table.seat(0).view, viewer=0, log=log, show_keys=True)
    lines = drawn(view, 80, 24)
    assert len(lines) <= 22 and board_is_whole(lines)
    cut = [line for line in lines if line.rstrip().endswith("…")]
    assert cut and sum(" x x x" in line for line in lines) == 3


def test_the_move_log_is_bounded() -> None:
    config = GameConfig.for_players(2)
    log = MoveLog(Narrator(config, viewer=0, in_setup=False), limit=50)
    for n in range(300):
        log.feed(2 * n, CardPlayed(seat=n % 2, card=1 + n % 90, space=1 + n % 90))
        log.feed(2 * n + 1, TurnEnded(seat=n % 2, action="play", next_seat=1 - n % 2))
    assert len(log.lines) == 50 and log.told == 300
    assert log.lines[-1].text == "Bob played 30 and placed on 30"
    assert [entry.line for entry in log.since(297)] == log.lines[-3:]
    assert not log.narrator.lines  # nothing piles up in the narrator either


def play_bots(table: Table) -> None:
    while table.status().bot_to_move:
        table.play_bot_turn()


def undone_game(record: Path) -> Table:
    """Seed 8: Ann's first play (41 on 67) may be taken back; she takes it back."""
    table = table_after_bots(2, seed=8, record=record)
    ann = table.seat(0)
    assert isinstance(ann.submit(PlayCard(0, 41, 67)), Accepted)
    play_bots(table)
    assert isinstance(ann.undo(), Accepted)
    return table


def test_moves_taken_back_are_shown_so(tmp_path: Path) -> None:
    """The moves an undo took back stay in the log, marked (in colour also dimmed and struck
    through); the notice of the undo is not a move and is not marked; a replay marks them
    too."""
    record = tmp_path / "game.jsonl"
    with undone_game(record) as table:
        log = MoveLog.following(table.seat(0), table.config, 0)
        view = ann_view(table, log)
        plain, coloured = drawn(view, 80, 24), render(view, Style(color=True))
        # She plays again (a move that counts, so the replay's last step is after the undo).
        card, spaces = table.seat(0).legal().plays[0]
        assert isinstance(table.seat(0).submit(PlayCard(0, card, spaces[0])), Accepted)
        play_bots(table)
    taken = [entry.line.text for entry in log.entries if entry.taken_back]
    assert taken[0] == "You played 41 and placed on 67" and len(taken) == 2
    notice = log.entries[-1]
    assert notice.line.text == "You took back your last move." and not notice.taken_back
    text = panel_text(plain)
    assert "You played 41 and placed on 67 (taken back)" in text
    assert "(taken back) You took back your last move." in text
    console = Console(
        width=80, height=24, record=True, file=io.StringIO(), color_system="truecolor"
    )
    console.print(coloured)
    styled = console.export_text(styles=True)
    assert "\x1b[2;9m" in styled or "\x1b[9;2m" in styled  # dim and struck through

    replayed = CliRunner().invoke(main, ["replay", str(record), "--no-interactive"])
    assert replayed.exit_code == 0, replayed.output
    assert "You played" not in replayed.output  # the referee's words
    moves = replayed.output.split("Moves:")[1]
    assert "Ann played 41 and placed on 67 (taken back)" in moves
    assert f"Ann played {card} and placed on {spaces[0]}\n" in moves
