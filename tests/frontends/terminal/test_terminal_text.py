"""The terminal game's pieces: reading input, moves in words, the board drawing, the table,
``cinco rules`` and ``cinco replay``."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from positions import position

from cinco.core.engine.board import SPACES, windows_through
from cinco.core.engine.commands import PlayCard
from cinco.core.engine.config import GameConfig
from cinco.core.engine.events import (
    SPECTATOR,
    CardDrawn,
    CardPlayed,
    DeckShuffled,
    GameEnded,
    HandDiscarded,
    TurnEnded,
)
from cinco.core.engine.state import FREE, fold
from cinco.core.records.record import load_record
from cinco.core.table.protocol import Accepted
from cinco.core.table.table import Table
from cinco.frontends.board_view import render_board
from cinco.frontends.main import main
from cinco.frontends.narration import Narrator, describe_result
from cinco.frontends.terminal import parsing
from cinco.frontends.terminal.hint import explain_move
from cinco.frontends.terminal.table import Style, TableView, render


@given(st.text())
def test_parse_never_fails(text: str) -> None:
    """Any input is understood or reported as not understood: never an exception."""
    assert isinstance(
        parsing.parse(text),
        parsing.Play
        | parsing.Draw
        | parsing.Exchange
        | parsing.Undo
        | parsing.Hint
        | parsing.Help
        | parsing.Quit
        | parsing.Empty
        | parsing.Unknown,
    )


@pytest.mark.parametrize(
    ("text", "card", "space"),
    [
        ("34", 34, None),
        ("34 36", 34, 36),
        ("34 on 36", 34, 36),
        ("34>36", 34, 36),
        ("34,36", 34, 36),
        ("34-36", 34, 36),
        ("play 34 36", 34, 36),
        (" 7  9 ", 7, 9),
    ],
)
def test_parse_plays(text: str, card: int, space: int | None) -> None:
    assert parsing.parse(text) == parsing.Play(card, space)


def narrated(config: GameConfig, viewer: object, events: list) -> list[str]:  # type: ignore[type-arg]
    narrator = Narrator(config, viewer, in_setup=False)  # type: ignore[arg-type]
    for event in events:
        narrator.feed(event)
    return [line.text for line in narrator.lines]


def test_moves_in_words_for_each_viewer() -> None:
    """A1/A2/A3/A4 in words; a drawn card is named only to the player who drew it (S2, A7)."""
    config = GameConfig.for_players(3)
    turn = [
        CardPlayed(seat=0, card=34, space=36),
        TurnEnded(seat=0, action="play", next_seat=1),
        HandDiscarded(seat=1, count=4, cards=(1, 2, 3, 4)),
        *(CardDrawn(seat=1, card=c) for c in (5, 6, 7, 8)),
        TurnEnded(seat=1, action="exchange", next_seat=2),
        CardPlayed(seat=2, card=88, space=None),
        TurnEnded(seat=2, action="play", next_seat=0),
        CardDrawn(seat=0, card=45),
        TurnEnded(seat=0, action="draw", next_seat=1),
    ]
    seen_by_bob = narrated(config, 1, [e.seen_by(1) for e in turn])
    assert seen_by_bob == [
        "Ann played 34 and placed on 36",
        "You exchanged your hand and got 5, 6, 7, 8",
        "Cid's 88 burned",
        "Ann drew a card",
    ]
    seen_by_ann = narrated(config, 0, [e.seen_by(0) for e in turn])
    assert seen_by_ann[1] == "Bob exchanged their hand"
    assert seen_by_ann[3] == "You drew 45"
    assert not any(
        "45" in line for line in narrated(config, SPECTATOR, [e.seen_by(SPECTATOR) for e in turn])
    )


def test_reshuffle_and_results_in_words() -> None:
    config = GameConfig.for_players(4)
    lines = narrated(config, SPECTATOR, [DeckShuffled(size=3, order=None, reshuffle=True)])
    assert "shuffled into a new draw pile" in lines[0]
    win = GameEnded(seat=2, action="play", winner=0, reason="line", line=(1, 2, 3, 4, 5))
    assert describe_result(config, win) == "Ann and Cid win with the line 1-2-3-4-5!"
    draw = GameEnded(seat=2, action="play", winner=None, reason="stalemate")
    assert "E2" in describe_result(config, draw)


def test_board_marks_in_plain_text() -> None:
    """Without colour, the marks carry the meaning: symbols per team, * < ! for legal, last
    move and winning line; the numbers stay readable."""
    board = [FREE] * (SPACES + 1)
    board[36], board[12] = 0, 1
    text = render_board(
        tuple(board), highlight=(40, 41), last=36, winning_line=(12,), color=False
    ).plain
    assert "●36<" in text and "▲12!" in text and " 40*" in text and " 41*" in text
    numbers = {int(n) for n in re.findall(r"\d+", text)}
    assert numbers == set(range(1, SPACES + 1))
    big = render_board(tuple(board), color=False, cell_width=6, row_gap=1).plain
    assert len(big.splitlines()) == 21


def test_table_fits_80_by_24() -> None:
    """Six players at 80×24: every line fits the width and the table leaves room below."""
    with Table.create(GameConfig.for_players(6, seed=1, first_seat=0)) as table:
        ann = table.seat(0)
        view = TableView(
            state=ann.view,
            viewer=0,
            log=Narrator(table.config, 0).lines,
            show_keys=True,
            message="hello",
            plays=dict(ann.legal().plays),
        )
    from rich.console import Console

    console = Console(width=80, height=24, record=True, file=io.StringIO())
    console.print(render(view, Style(color=False, width=80, height=24)))
    lines = console.export_text().splitlines()
    assert len(lines) <= 22
    assert all(len(line) <= 80 for line in lines)
    assert any(line.startswith("Ann's hand") for line in lines)
    assert "Bob's hand" not in "\n".join(lines)


def test_rules_command() -> None:
    result = CliRunner().invoke(main, ["rules"])
    assert result.exit_code == 0
    for words in ("90 numbered spaces", "Exchange", "burns", "Joker", "5 or more tokens"):
        assert words in result.output


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "g.jsonl"
    config = GameConfig.for_players(2, seed=4, bots=("greedy", "random"), turn_limit=300)
    with Table.create(config, record=path) as table:
        table.play_bots()
        assert table.status().is_over
    return path


def test_replay_json_is_unchanged(record: Path) -> None:
    result = CliRunner().invoke(main, ["replay", str(record), "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["result"] in ("win", "draw") and data["turns"] > 0


def test_replay_steps_through_moves(record: Path) -> None:
    """Next, previous, go to move N, last, quit; the referee's view shows every hand."""
    result = CliRunner().invoke(
        main, ["replay", str(record), "--interactive"], input="n\nn\np\n5\nfish\nl\nq\n"
    )
    assert result.exit_code == 0, result.output
    titles = re.findall(r"Replay · move (\d+) of (\d+)", result.output)
    assert [int(n) for n, _total in titles] == [0, 1, 2, 1, 5, 5, int(titles[0][1])]
    assert "Type n, p, f, l, q or a move number" in result.output
    assert "with the line" in result.output or "A draw" in result.output


def test_replay_without_terminal_prints_the_game(record: Path) -> None:
    result = CliRunner().invoke(main, ["replay", str(record)])
    assert result.exit_code == 0
    assert "Moves:" in result.output
    assert re.search(r"(Ann|Bob) played \d+ and placed on \d+", result.output)


def test_replay_leaves_out_undone_moves(tmp_path: Path) -> None:
    """A record with an undo in it: the replay's moves are the ones that count, and the last
    step is the game as it stands."""
    from cinco.core.engine.commands import PlayCard
    from cinco.frontends.terminal.replay import step_counts

    path = tmp_path / "undo.jsonl"
    config = GameConfig.for_players(2, seed=6, bots=(None, "greedy"), first_seat=0)
    with Table.create(config, record=path) as table:
        ann = table.seat(0)
        for move in range(2):
            card, spaces = ann.legal().plays[0]
            assert isinstance(ann.submit(PlayCard(0, card, spaces[0])), Accepted)
            if move == 0:  # the second play is taken back before the bot answers it (an
                table.play_bots()  # answer that showed a card could not be taken back)
        assert isinstance(ann.undo(), Accepted)
    events = load_record(path).events
    counts = step_counts(events)
    assert len(counts) == 1 + 2  # the deal, Ann's first play, greedy's answer
    assert fold(events[: counts[-1]]).board == fold(events).board
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Replay · move 2 of 2" in result.output
    moves = result.output.split("Moves:")[1]
    assert moves.count("Ann played") == 1  # the undone play is not a move


@pytest.mark.parametrize(
    "name",
    [
        "cinco.frontends.board_view",
        "cinco.frontends.terminal.parsing",
        "cinco.frontends.narration",
    ],
)
def test_terminal_doctests(name: str) -> None:
    import doctest
    import importlib

    results = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert results.attempted > 0 and results.failed == 0


@pytest.mark.parametrize(("players", "named", "verb"), [(2, 1, "holds"), (4, 2, "hold")])
def test_a_hints_reason_names_who_holds_the_line_it_blocks(
    players: int, named: int, verb: str
) -> None:
    """One opponent "holds" the line a hint blocks; a team of two "hold" it."""
    window = windows_through(60)[0]
    theirs = [space for space in window if space != 60][:3]
    state = position(players, {0: [60, 70, 80, 85]}, board=dict.fromkeys(theirs, 1))
    reason = explain_move(state, 0, PlayCard(0, 60, 60))
    found = re.fullmatch(r"it blocks a line where (.+) already (\w+) 3 of 5", reason)
    assert found is not None, reason
    assert len(found[1].split(" and ")) == named and found[2] == verb, reason
