"""The terminal game plays complete games from typed input (click's CliRunner).

Each game is first played at a table by a seeded policy (tests/helpers/terminal_script.py); the same
keys typed into ``cinco`` must give the very same record, move for move.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from terminal_script import Played, play_script, resume

from cinco.core.engine.events import (
    CardDrawn,
    CardPlayed,
    GameEnded,
    HandDiscarded,
    TurnEnded,
    Undone,
)
from cinco.core.engine.state import fold
from cinco.core.records.record import load_record
from cinco.core.table.protocol import Accepted
from cinco.core.table.table import Table
from cinco.frontends.main import main
from cinco.frontends.options import PlayOptions


def run(args: list[str], text: str, data: Path) -> Result:
    return CliRunner().invoke(main, args, input=text, env={"CINCO_DATA_DIR": str(data)})


def dicts(events: list) -> list[dict]:  # type: ignore[type-arg]
    return [event.to_dict() for event in events]


CONFIGURATIONS = [
    # (players, layout, variants, bots by seat index)
    pytest.param(2, None, (), {1: "greedy"}, id="2p"),
    pytest.param(3, None, (), {1: "greedy", 2: "random"}, id="3p"),
    pytest.param(4, None, (), {1: "greedy", 2: "random", 3: "greedy"}, id="4p"),
    pytest.param(6, "2x3", (), {s: "greedy" for s in range(1, 6)}, id="6p-2x3"),
    pytest.param(6, "3x2", (), {s: "greedy" for s in range(1, 6)}, id="6p-3x2"),
    pytest.param(2, None, ("joker",), {1: "greedy"}, id="2p-joker"),
    pytest.param(3, None, ("joker",), {1: "random", 2: "greedy"}, id="3p-joker"),
]


def cli_args(
    players: int,
    layout: str | None,
    variants: tuple[str, ...],
    bots: dict[int, str],
    seed: int,
    record: Path,
) -> list[str]:
    args = ["--players", str(players), "--seed", str(seed), "--delay", "0", "--record", str(record)]
    if layout:
        args += ["--layout", layout]
    for variant in variants:
        args += ["--variant", variant]
    for seat, bot in bots.items():
        args += ["--bot", f"{seat + 1}={bot}"]
    return args


def options_for(
    players: int, layout: str | None, variants: tuple[str, ...], bots: dict[int, str], seed: int
) -> PlayOptions:
    return PlayOptions(
        players=players,
        layout=layout,
        variants=variants,
        bots={seat: (bot, None) for seat, bot in bots.items()},
        seed=seed,
    )


@pytest.mark.parametrize(("players", "layout", "variants", "bots"), CONFIGURATIONS)
def test_complete_game_against_bots(
    players: int,
    layout: str | None,
    variants: tuple[str, ...],
    bots: dict[int, str],
    tmp_path: Path,
) -> None:
    """A person plays a whole game against bots; the record is the engine's game exactly,
    refused input (with the engine's reasons) changed nothing, and the end is announced."""
    seed = 11 + players
    script, game = play_script(
        options_for(players, layout, variants, bots, seed), policy_seed=players
    )
    assert game.is_over
    record = tmp_path / "game.jsonl"
    result = run(cli_args(players, layout, variants, bots, seed, record), script.text, tmp_path)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert dicts(load_record(record).events) == dicts(script.events)
    assert f"The game is recorded in {record}" in result.output
    end = game.state.result
    assert isinstance(end, GameEnded)
    assert "Replay it with" in result.output
    if end.winner is not None:
        assert "with the line" in result.output
    else:
        assert "A draw" in result.output
    if "fish" in script.lines:
        assert "“fish” is not a move" in result.output
    if "91 91" in script.lines:
        assert "You have no 91" in result.output


def test_moves_in_words(tmp_path: Path) -> None:
    """The log tells moves in words: plays, exchanges, draws (your own card only)."""
    options = options_for(2, None, (), {1: "greedy"}, 5)
    script, game = play_script(options, policy_seed=3, random_share=0.6)
    result = run(
        cli_args(2, None, (), {1: "greedy"}, 5, tmp_path / "g.jsonl"), script.text, tmp_path
    )
    assert result.exit_code == 0, result.output
    events = game.events
    for event, nxt in itertools.pairwise(events):
        if isinstance(nxt, TurnEnded | GameEnded) and nxt.seat == 1 and nxt.action == "play":
            assert re.search(
                r"Greedy 2 played \d+ and placed on \d+|Greedy 2's \d+ burned", result.output
            )
        if (
            isinstance(event, CardDrawn)
            and event.seat == 0
            and isinstance(nxt, TurnEnded)
            and nxt.action == "draw"
        ):
            assert f"You drew {event.card}" in result.output


def test_hot_seat_privacy(tmp_path: Path) -> None:
    """S2: with two people at one screen, each screen between two "Pass to" pauses shows
    only the hand of the person to move, as the referee holds it, and nobody else's."""
    bots = {2: "greedy", 3: "greedy"}
    options = options_for(4, None, (), bots, 21)
    script, game = play_script(options, policy_seed=8)
    assert game.is_over
    record = tmp_path / "g.jsonl"
    result = run(cli_args(4, None, (), bots, 21, record), script.text, tmp_path)
    assert result.exit_code == 0, result.output
    assert dicts(load_record(record).events) == dicts(script.events)
    names = {0: "Ann", 1: "Bob"}
    parts = re.split(r"Pass to (Ann|Bob)\n", result.output)
    screens = list(zip(parts[1::2], parts[2::2], strict=True))
    assert len(screens) == len(script.hands)
    for (name, screen), (seat, hand) in zip(screens, script.hands, strict=True):
        assert name == names[seat]
        other = names[1 - seat]
        assert f"{other}'s hand" not in screen
        shown = [line for line in screen.splitlines() if line.startswith(f"{name}'s hand")]
        assert shown, screen
        assert tuple(int(n) for n in re.findall(r"\d+", shown[0])) == hand
        for line in screen.splitlines():
            if "You drew" in line or "You exchanged" in line:
                assert other not in line


def plays_until_undoable(
    options: PlayOptions, *, first: int = 0, times: int = 1
) -> tuple[str, Played]:
    """One play by the person at a time (each with its own policy seed, from *first*), with
    the bot's answers, until the table would let them take back their last *times* plays
    one after the other: the keys typed, and the game. Each time it would not (the bot
    played a card they saw, or they drew), ``u`` is typed too, and refused."""
    text, played, in_a_row = "", None, 0
    for policy_seed in range(first, first + 60):
        script, played = play_script(
            options, policy_seed=policy_seed, moves=1, played=played, plays_only=True
        )
        text += script.text
        assert not played.is_over, "no undoable turn before the end: try another seed"
        in_a_row = in_a_row + 1 if played.seat(0).undo_refusal() is None else 0
        if in_a_row == times:
            return text, played
        if in_a_row == 0:
            text += "u\n"
    raise AssertionError("no undoable turn")


def test_undo_goes_back_to_the_previous_turn(tmp_path: Path) -> None:
    """``u`` takes back the person's last play and the bots' answers, as the table's undo
    does, when those answers showed no card: twice in a row goes back two plays. Otherwise it
    says why not. The record keeps everything and says so."""
    options = options_for(2, None, (), {1: "greedy"}, 9)
    text, played = plays_until_undoable(options, times=2)
    ann = played.seat(0)
    assert isinstance(ann.undo(), Accepted) and isinstance(ann.undo(), Accepted)
    again, played = play_script(options, policy_seed=2, moves=1, played=played)
    # Plays (with refused undos between), undo, undo again, one different move, then quit.
    text = "u\n" + text + "u\nu\n" + again.text + "q\n"
    record = tmp_path / "g.jsonl"
    result = run(cli_args(2, None, (), {1: "greedy"}, 9, record), text, tmp_path)
    assert result.exit_code == 0, result.output
    assert "There is nothing to undo yet." in result.output
    assert "Greedy 2 has played a card since your move" in result.output
    assert result.output.count("Undone: it is your turn again.") == 2
    assert result.output.count("You took back your last move.") == 2
    events = load_record(record).events
    assert dicts(events) == dicts(played.events)
    assert sum(isinstance(e, Undone) for e in events) == 2
    assert f"Game saved in {record}" in result.output


def test_undo_is_refused_after_an_exchange(tmp_path: Path) -> None:
    """An exchange showed the person new cards: the table refuses to take it back, and the
    terminal says why."""
    record = tmp_path / "g.jsonl"
    args = cli_args(2, None, (), {1: "greedy"}, 3, record)
    result = run(args, "x\nu\nq\n", tmp_path)
    assert result.exit_code == 0, result.output
    assert "Your last exchange showed you new cards, so it cannot be taken back" in result.output
    assert not any(isinstance(e, Undone) for e in load_record(record).events)


def test_undo_and_resume_through_the_table(tmp_path: Path) -> None:
    """Play until a play may be taken back, quit; resume, undo it, play on, quit: the record
    is the one a table gives for the same requests through a seat handle."""
    options = options_for(2, None, (), {1: "greedy"}, 13)
    text, played = plays_until_undoable(options, first=3)
    record = tmp_path / "g.jsonl"
    args = cli_args(2, None, (), {1: "greedy"}, 13, record)
    result = run(args, text + "q\n", tmp_path)
    assert result.exit_code == 0, result.output
    assert dicts(load_record(record).events) == dicts(played.events)

    ann = played.seat(0)
    assert isinstance(ann.undo(), Accepted)  # right after resuming
    again, played = play_script(options, policy_seed=4, moves=2, played=played, owner=0)
    text = "u\n" + again.text + "q\n"
    result = run(["--resume", str(record), "--delay", "0"], text, tmp_path)
    assert result.exit_code == 0, result.output
    assert "Resumed from" in result.output
    assert "Undone: it is your turn again." in result.output
    assert f"Game saved in {record}" in result.output
    assert dicts(load_record(record).events) == dicts(played.events)


def test_undo_after_the_end_is_refused(tmp_path: Path) -> None:
    """Once a game is over nothing is taken back (the table refuses, ``undo_game_over``), so
    the terminal does not offer it: typing ``u`` then changes nothing, and the record ends
    with the game."""
    options = options_for(2, None, (), {1: "greedy"}, 13)
    script, game = play_script(options, policy_seed=9, plays_only=True)
    assert game.is_over
    refusal = game.seat(0).undo_refusal()
    assert refusal is not None and refusal.code == "undo_game_over"
    finished = game.events
    record = tmp_path / "g.jsonl"

    args = cli_args(2, None, (), {1: "greedy"}, 13, record)
    result = run(args, script.text + "u\nq\n", tmp_path)
    assert result.exit_code == 0, result.output
    assert "u takes your last move back" not in result.output
    assert "Undone" not in result.output
    assert dicts(load_record(record).events) == dicts(finished)

    other = tmp_path / "left.jsonl"
    left = run(cli_args(2, None, (), {1: "greedy"}, 13, other), script.text + "\n", tmp_path)
    assert left.exit_code == 0, left.output
    assert "Undone" not in left.output
    assert dicts(load_record(other).events) == dicts(finished)


def test_record_names_never_show_the_seed(tmp_path: Path) -> None:
    """S2: the seed fixes every shuffle, so the record's name (shown on quit and on resume)
    and everything printed leave it out."""
    seed = "123456789"
    args = ["--players", "2", "--bot", "2=greedy", "--seed", seed, "--delay", "0"]
    result = run(args, "q\n", tmp_path)
    assert result.exit_code == 0, result.output
    (path,) = (tmp_path / "games").glob("*.jsonl")
    assert seed not in path.name
    assert f"Game saved in {path}" in result.output
    assert seed not in result.output
    again = run(["--resume", str(path), "--delay", "0"], "q\n", tmp_path)
    assert again.exit_code == 0, again.output
    assert "Resumed from" in again.output
    assert f"Game saved in {path}" in again.output
    assert seed not in again.output


def test_a_record_that_cannot_be_written_is_saved_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fails mid-game: the table stops the game, the terminal says why and saves
    the whole game in another file, which resumes."""
    from cinco.core.records.recording import RecordFile

    real = RecordFile.append
    calls = {"n": 0}

    def failing(self: RecordFile, event: object) -> None:
        calls["n"] += 1
        if self.path.name == "g.jsonl" and calls["n"] > 14:
            raise OSError(28, "No space left on device")
        real(self, event)  # type: ignore[arg-type]

    monkeypatch.setattr(RecordFile, "append", failing)
    record = tmp_path / "g.jsonl"
    elsewhere = tmp_path / "elsewhere.jsonl"
    text = f"x\nx\n{elsewhere}\nq\n"
    result = run(cli_args(2, None, (), {1: "greedy"}, 3, record), text, tmp_path)
    assert result.exit_code == 0, result.output
    assert "The game record could not be written" in result.output
    assert "No space left on device" in result.output
    assert f"Game saved in {elsewhere}" in result.output
    assert f"Game saved in {record}" not in result.output
    monkeypatch.setattr(RecordFile, "append", real)
    events = load_record(elsewhere).events
    assert sum(isinstance(e, TurnEnded) and e.seat == 0 for e in events) >= 1
    resumed = run(["--resume", str(elsewhere), "--delay", "0"], "q\n", tmp_path)
    assert resumed.exit_code == 0, resumed.output


def test_quit_saves_and_resume_continues(tmp_path: Path) -> None:
    """``q`` saves; ``--resume`` continues the same game to the end."""
    options = options_for(3, None, (), {1: "greedy", 2: "greedy"}, 4)
    whole, game = play_script(options, policy_seed=5)
    part, _g = play_script(options, policy_seed=5, moves=3)
    record = tmp_path / "g.jsonl"
    result = run(
        cli_args(3, None, (), {1: "greedy", 2: "greedy"}, 4, record), part.text + "q\n", tmp_path
    )
    assert result.exit_code == 0, result.output
    assert f"cinco --resume {record}" in result.output
    rest = whole.lines[len(part.lines) :]
    result = run(["--resume", str(record), "--delay", "0"], "\n".join(rest) + "\n", tmp_path)
    assert result.exit_code == 0, result.output
    assert dicts(load_record(record).events) == dicts(game.events)
    assert f"The game is recorded in {record}" in result.output


def test_resume_after_a_killed_process(tmp_path: Path) -> None:
    """A process killed while writing leaves a cut-off last line and maybe half a turn; the
    game resumes from the last whole turn and finishes as a resumed table would."""
    options = options_for(2, None, (), {1: "greedy"}, 17)
    part, _g = play_script(options, policy_seed=6, moves=4)
    record = tmp_path / "g.jsonl"
    result = run(cli_args(2, None, (), {1: "greedy"}, 17, record), part.text, tmp_path)
    assert result.exit_code == 0  # the input ended: saved
    lines = record.read_text().splitlines(keepends=True)
    # Kill mid-turn: keep a partial turn and cut the line after it in half.
    cut = next(i for i in range(len(lines) - 1, 0, -1) if '"turn_ended"' in lines[i])
    damaged = "".join(lines[:cut]) + lines[cut][: len(lines[cut]) // 2]
    record.write_text(damaged)
    loaded = load_record(record)
    assert loaded.truncated
    resumed = resume(record)
    rest, game = play_script(options, policy_seed=7, played=resumed, owner=0)
    result = run(["--resume", str(record), "--delay", "0"], rest.text, tmp_path)
    assert result.exit_code == 0, result.output
    assert "cut short" in result.output
    assert "was not finished" in result.output
    final = load_record(record)
    assert not final.truncated
    assert dicts(final.events) == dicts(game.events)
    assert fold(final.events).is_over


def test_ctrl_c_saves_and_exits_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cinco.frontends.terminal import screen

    calls = {"n": 0}
    real = screen.Screen.ask

    def ask(self: screen.Screen, prompt: str) -> str:
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(self, prompt)

    monkeypatch.setattr(screen.Screen, "ask", ask)
    record = tmp_path / "g.jsonl"
    result = run(cli_args(2, None, (), {1: "greedy"}, 3, record), "x\nx\nx\n", tmp_path)
    assert result.exit_code == 130
    assert "Traceback" not in result.output
    assert f"Game saved in {record}" in result.output
    events = load_record(record).events
    mine = [e for e in events if isinstance(e, TurnEnded) and e.seat == 0]
    assert [e.action for e in mine] == ["exchange", "exchange"]  # the third ask was Ctrl-C
    assert not fold(events).is_over


def test_records_go_to_the_data_directory(tmp_path: Path) -> None:
    """With no --record the game is written under $CINCO_DATA_DIR/games and named at the end."""
    result = run(["--players", "2", "--bot", "2=greedy", "--delay", "0"], "q\n", tmp_path)
    assert result.exit_code == 0, result.output
    files = list((tmp_path / "games").glob("*.jsonl"))
    assert len(files) == 1
    assert str(files[0]) in result.output
    assert fold(load_record(files[0]).events).config.seats[1].bot == "greedy"


def test_quick_game_with_no_options(tmp_path: Path) -> None:
    """``cinco`` alone: Enter at the first question starts one person against greedy."""
    result = run(["--delay", "0"], "\nq\n", tmp_path)
    assert result.exit_code == 0, result.output
    assert "Ann's hand" in result.output
    (path,) = (tmp_path / "games").glob("*.jsonl")
    seats = fold(load_record(path).events).config.seats
    assert [(s.name, s.bot) for s in seats] == [("Ann", None), ("Greedy 2", "greedy")]


def test_setup_questions(tmp_path: Path) -> None:
    """The setup asks players, seats (people or bots) and the Joker; bad answers re-ask."""
    answers = ["s", "5", "3", "Zoe", "random", "nobot:x", "y", "q"]
    result = run(["--delay", "0"], "\n".join(answers) + "\n", tmp_path)
    assert result.exit_code == 0, result.output
    assert "Please answer one of: 2, 3, 4, 6." in result.output
    (path,) = (tmp_path / "games").glob("*.jsonl")
    config = fold(load_record(path).events).config
    assert config.players == 3
    assert [(s.name, s.bot) for s in config.seats] == [
        ("Zoe", None),
        ("Random 2", "random"),
        ("nobot:x", None),
    ]
    assert config.variants == ("joker",)


def test_hint_then_enter_plays_it(tmp_path: Path) -> None:
    """``h`` names a move with a reason; Enter plays exactly that move."""
    record = tmp_path / "g.jsonl"
    result = run(cli_args(2, None, (), {1: "greedy"}, 2, record), "h\n\nq\n", tmp_path)
    assert result.exit_code == 0, result.output
    match = re.search(
        r"Hint \((\w+)\): (.+?) — (.+?)\. Enter plays it \(([^)]*)\)",
        " ".join(result.output.split()),
    )
    assert match, result.output
    keys = match.group(4).split()
    events = load_record(record).events
    start = fold(events[:1]).first_seat
    first = [e for e in events[10:] if getattr(e, "seat", None) == 0]
    if start != 0:  # greedy moved first: Ann's move comes after its turn
        assert any(isinstance(e, TurnEnded) and e.seat == 1 for e in events)
    mine = first[0]
    if keys == ["d"]:
        assert isinstance(mine, CardDrawn)
    elif keys == ["x"]:
        assert isinstance(mine, HandDiscarded)
    else:
        assert isinstance(mine, CardPlayed)
        assert (mine.card, mine.space) == (int(keys[0]), int(keys[1]) if len(keys) > 1 else None)


def test_bad_options_are_clear(tmp_path: Path) -> None:
    result = run(["--players", "2", "--bot", "3=greedy"], "", tmp_path)
    assert result.exit_code != 0
    assert "no seat 3" in result.output
    result = run(["--resume", str(tmp_path / "missing.jsonl")], "", tmp_path)
    assert result.exit_code != 0
    assert "no such file" in result.output
    assert "Traceback" not in result.output


def test_show_where_a_card_may_go(tmp_path: Path) -> None:
    """``N?`` marks the legal spaces of card N on the board (from the game's legal actions)."""
    from cinco.core.host.registry import default_registry

    options = options_for(2, None, (), {1: "greedy"}, 2)
    with Table.create(options.config(default_registry())) as table:
        table.play_bots()
        ann = table.seat(0)
        card = ann.view.hand(0)[-1]
        spaces = ann.legal().spaces_for(card)
    result = run(
        cli_args(2, None, (), {1: "greedy"}, 2, tmp_path / "g.jsonl"), f"{card}?\nq\n", tmp_path
    )
    assert result.exit_code == 0, result.output
    assert f"Your {card} may go on the {len(spaces)} marked spaces." in result.output
    board = result.output.split(f"{card}?")[1]
    marked = {int(n) for n in re.findall(r"(\d+)\*", board)}
    assert marked == set(spaces)


def test_a_bug_still_saves_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cinco.core.game.game import Game

    def broken(self: Game) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(Game, "play_bot_turn", broken)
    record = tmp_path / "g.jsonl"
    result = run(cli_args(2, None, (), {1: "greedy"}, 2, record), "x\nx\n", tmp_path)
    assert result.exit_code == 1
    assert "Something went wrong (RuntimeError: boom)" in result.output
    assert f"Game saved in {record}" in result.output
    assert load_record(record).events


def test_resume_a_record_cut_inside_the_deal(tmp_path: Path) -> None:
    """Killed while dealing: the deal comes from the seed, so resuming deals the same cards."""
    options = options_for(2, None, (), {1: "greedy"}, 31)
    record = tmp_path / "g.jsonl"
    result = run(cli_args(2, None, (), {1: "greedy"}, 31, record), "q\n", tmp_path)
    assert result.exit_code == 0
    complete = load_record(record).events
    lines = record.read_text().splitlines(keepends=True)
    record.write_text("".join(lines[:5]))  # header, game_started, shuffle, two cards
    script, _game = play_script(options, policy_seed=4)
    result = run(["--resume", str(record), "--delay", "0"], script.text, tmp_path)
    assert result.exit_code == 0, result.output
    final = load_record(record).events
    assert dicts(final[: len(complete)]) == dicts(complete[: len(final)])
    assert dicts(final) == dicts(script.events)


class DuelLayout:
    """A third-party plugin's layout: a second way for two to play."""

    @staticmethod
    def cinco_register_layouts() -> list[object]:
        from cinco.core.engine.config import Layout

        return [Layout("duel", players=2, teams=2, description="two, face to face")]


@pytest.fixture
def duel(monkeypatch: pytest.MonkeyPatch) -> None:
    from cinco.core.hooks.hookspecs import hookimpl
    from cinco.core.host.registry import Registry
    from cinco.frontends import options
    from cinco.frontends.terminal import app

    plugin = DuelLayout()
    plugin.cinco_register_layouts = hookimpl(DuelLayout.cinco_register_layouts)  # type: ignore[method-assign]
    registry = Registry(plugins=[plugin])
    monkeypatch.setattr(app, "default_registry", lambda: registry)
    monkeypatch.setattr(options, "default_registry", lambda: registry)


@pytest.mark.usefixtures("duel")
def test_a_plugins_layout_is_offered_and_accepted(tmp_path: Path) -> None:
    """The set-up offers the layouts the registry has (a plugin's too), and --layout takes
    them; the player count follows from the layout."""
    answers = ["s", "2", "duel", "Zoe", "greedy", "n", "q"]
    result = run(["--delay", "0"], "\n".join(answers) + "\n", tmp_path)
    assert result.exit_code == 0, result.output
    assert "duel" in result.output and "two, face to face" in result.output
    (path,) = (tmp_path / "games").glob("*.jsonl")
    assert fold(load_record(path).events).config.layout == "duel"

    record = tmp_path / "cli.jsonl"
    result = run(["--layout", "duel", "--delay", "0", "--record", str(record)], "q\n", tmp_path)
    assert result.exit_code == 0, result.output
    config = fold(load_record(record).events).config
    assert (config.players, config.layout) == (2, "duel")
    result = run(["--layout", "nope"], "", tmp_path)
    assert result.exit_code != 0 and "'nope' is not one of" in result.output
