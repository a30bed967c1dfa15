"""Game records (issue 2, item 7): JSONL written as the game goes; loading checks the format
version and every event, reports problems with their line number, and survives a cut-short
last line. ``cinco replay FILE --json`` prints the final state."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from positions import config_for

from cinco.core.engine.commands import Exchange
from cinco.core.engine.config import Seat
from cinco.core.engine.errors import RecordError
from cinco.core.engine.events import CardPlayed, GameEnded
from cinco.core.engine.state import fold
from cinco.core.game.game import Game
from cinco.core.host.registry import default_registry
from cinco.core.records.record import FORMAT, FORMAT_VERSION, dumps, header, load_record, loads
from cinco.frontends.main import main
from cinco.plugins.record_writer import RecordWriter


def finished_game(path: Path, players: int = 2, seed: int = 5, **kwargs) -> Game:
    config = default_registry().configure(
        players,
        seats=[Seat(f"b{i}", bot="random") for i in range(players)],
        seed=seed,
        turn_limit=kwargs.pop("turn_limit", 1000),
        **kwargs,
    )
    game = Game.new(config, plugins=[RecordWriter(path)])
    game.play_bots()
    assert game.is_over
    return game


@pytest.fixture
def record(tmp_path) -> tuple[Path, Game]:
    path = tmp_path / "game.jsonl"
    return path, finished_game(path)


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def write(path: Path, lines: list[str], newline: bool = True) -> Path:
    path.write_text("\n".join(lines) + ("\n" if newline else ""), encoding="utf-8")
    return path


# -- round trip -------------------------------------------------------------------------------


def test_record_round_trip(record):
    path, game = record
    lines = lines_of(path)
    head = json.loads(lines[0])
    assert head["format"] == FORMAT and head["version"] == FORMAT_VERSION
    assert len(lines) == 1 + len(game.events)
    loaded = load_record(path)
    assert loaded.events == list(game.events)
    assert not loaded.warnings and not loaded.truncated
    assert fold(loaded.events) == game.state
    assert Game.from_events(loaded.events).state == game.state
    # The configuration (players, layout, variants, bots) is in the first event.
    assert loaded.events[0].config == game.config


@pytest.mark.parametrize(
    ("players", "layout", "variants"), [(3, None, ["joker"]), (6, "3x2", []), (4, None, ["joker"])]
)
def test_record_round_trip_other_configurations(tmp_path, players, layout, variants):
    path = tmp_path / "g.jsonl"
    game = finished_game(path, players, seed=9, layout=layout, variants=variants)
    loaded = load_record(path)
    assert fold(loaded.events) == game.state
    assert loaded.events[0].config.variants == tuple(variants)


def test_record_is_flushed_after_every_event(tmp_path):
    """A killed process loses at most the event being written: while the game is still on,
    the file already holds every event so far."""
    path = tmp_path / "live.jsonl"
    game = Game.new(config_for(2, seed=3), plugins=[RecordWriter(path)])
    rng = random.Random(3)
    for _ in range(25):
        legal = game.legal_actions()
        game.execute(legal[rng.randrange(len(legal))])
        assert load_record(path).events == list(game.events)
    assert not game.is_over


def test_resumed_game_rewrites_and_continues_its_record(tmp_path):
    path = tmp_path / "resume.jsonl"
    game = Game.new(config_for(2, seed=3), plugins=[RecordWriter(path)])
    game.execute(Exchange(0))
    loaded = load_record(path)
    resumed = Game.from_events(loaded.events, plugins=[RecordWriter(path)])
    resumed.execute(Exchange(1))
    assert load_record(path).events == list(resumed.events)
    assert len(resumed.events) > len(loaded.events)


# -- corrupt, truncated, tampered -------------------------------------------------------------


def corrupt(record, line_number: int, text: str, tmp_path: Path) -> Path:
    path, _game = record
    lines = lines_of(path)
    lines[line_number - 1] = text
    return write(tmp_path / "bad.jsonl", lines)


def test_bad_json_line_reports_its_number(record, tmp_path):
    bad = corrupt(record, 7, '{"type": "card_drawn", "v": 1, "seat": 0,, }', tmp_path)
    with pytest.raises(RecordError) as info:
        load_record(bad)
    assert info.value.line == 7 and "line 7" in str(info.value) and "JSON" in str(info.value)


def test_unknown_event_type_reports_its_number(record, tmp_path):
    bad = corrupt(record, 5, '{"type": "teleported", "v": 1}', tmp_path)
    with pytest.raises(RecordError, match="teleported") as info:
        load_record(bad)
    assert info.value.line == 5


def test_wrong_field_type_reports_its_number(record, tmp_path):
    path, _ = record
    lines = lines_of(path)
    number = next(i for i, line in enumerate(lines, 1) if '"card_played"' in line)
    data = json.loads(lines[number - 1])
    data["card"] = "seventeen"
    bad = corrupt(record, number, json.dumps(data), tmp_path)
    with pytest.raises(RecordError, match="card") as info:
        load_record(bad)
    assert info.value.line == number


def test_card_not_in_hand_reports_its_number(record, tmp_path):
    """A tampered record (a card played that the player does not hold) is refused."""
    path, game = record
    lines = lines_of(path)
    number = next(i for i, line in enumerate(lines, 1) if '"card_played"' in line)
    data = json.loads(lines[number - 1])
    state = fold(list(game.events)[: number - 2])
    held = {c for hand in state.hands for c in hand}
    data["card"] = next(c for c in range(1, 91) if c not in held)
    bad = corrupt(record, number, json.dumps(data), tmp_path)
    with pytest.raises(RecordError, match="not in that hand") as info:
        load_record(bad)
    assert info.value.line == number


@pytest.mark.parametrize(
    ("change", "words"),
    [({"space": 95}, "space 95"), ({"space": 0}, "space 0"), ({"seat": 9}, "seat 9")],
)
def test_tampered_play_reports_its_number(record, tmp_path, change, words):
    """Out-of-range seats and spaces are reported, never a crash."""
    path, _ = record
    lines = lines_of(path)
    number = next(i for i, line in enumerate(lines, 1) if '"card_played"' in line)
    data = {**json.loads(lines[number - 1]), **change}
    bad = corrupt(record, number, json.dumps(data), tmp_path)
    with pytest.raises(RecordError, match=words) as info:
        load_record(bad)
    assert info.value.line == number


def test_duplicated_line_is_refused(record, tmp_path):
    """Replaying a play twice (a copied line) is inconsistent."""
    path, _ = record
    lines = lines_of(path)
    number = next(i for i, line in enumerate(lines, 1) if '"card_played"' in line)
    lines.insert(number, lines[number - 1])
    with pytest.raises(RecordError) as info:
        load_record(write(tmp_path / "dup.jsonl", lines))
    assert info.value.line == number + 1


def test_truncated_last_line_loads_the_valid_prefix_with_a_warning(record, tmp_path):
    path, game = record
    text = path.read_text(encoding="utf-8")
    cut = text.rstrip("\n")
    cut = cut[: cut.rfind("\n") + 1 + 12]  # 12 characters into the last line, no newline
    bad = tmp_path / "cut.jsonl"
    bad.write_text(cut, encoding="utf-8")
    loaded = load_record(bad)
    assert loaded.truncated and loaded.warnings
    assert str(len(lines_of(path))) in loaded.warnings[0]
    assert loaded.events == list(game.events)[:-1]
    # The same damage in the middle of a record is an error, not a warning.
    lines = lines_of(path)
    lines[3] = lines[3][:12]
    with pytest.raises(RecordError) as info:
        load_record(write(tmp_path / "mid.jsonl", lines))
    assert info.value.line == 4


def test_wrong_format_version_is_a_clear_error(record, tmp_path):
    head = json.dumps({"format": FORMAT, "version": 99})
    bad = corrupt(record, 1, head, tmp_path)
    with pytest.raises(RecordError, match="version 99") as info:
        load_record(bad)
    assert info.value.line == 1 and "Upgrade" in str(info.value)


def test_wrong_event_version_is_a_clear_error(record, tmp_path):
    path, _ = record
    data = json.loads(lines_of(path)[3])
    data["v"] = 7
    with pytest.raises(RecordError, match="version 7") as info:
        load_record(corrupt(record, 4, json.dumps(data), tmp_path))
    assert info.value.line == 4


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("", "empty"),
        ("\n", "empty"),
        ("hello, world\n", "JSON"),
        ('{"some": "json"}\n', "not a Cinco game record"),
        ("[1, 2, 3]\n", "not a Cinco game record"),
        (json.dumps(header()) + "\n", "no events"),
        (
            json.dumps(header()) + "\n" + '{"type":"turn_ended","v":1,"seat":0,"action":"draw",'
            '"next_seat":1}\n',
            "game_started",
        ),
        (json.dumps(header()) + "\n\n" + "{}\n", "empty line"),
    ],
)
def test_empty_or_non_record_files(tmp_path, content, words):
    path = tmp_path / "x.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(RecordError, match=words):
        load_record(path)


def test_missing_and_binary_files(tmp_path):
    with pytest.raises(RecordError, match="no such file"):
        load_record(tmp_path / "nope.jsonl")
    binary = tmp_path / "b.jsonl"
    binary.write_bytes(b"\xff\xfe\x00\x01garbage")
    with pytest.raises(RecordError, match="not a text file"):
        load_record(binary)
    with pytest.raises(RecordError):
        load_record(tmp_path)  # a directory


def test_loads_reads_text():
    game = Game.new(config_for(2, seed=1))
    text = json.dumps(header()) + "\n" + "\n".join(dumps(e) for e in game.events) + "\n"
    assert loads(text).events == list(game.events)


# -- cinco replay ------------------------------------------------------------------------------


def test_cli_replay_json_prints_the_final_state(record):
    path, game = record
    result = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    state = game.state
    assert data["occupied"] == {
        str(n): state.board[n] for n in range(1, 91) if state.owner(n) is not None
    }
    assert len(data["occupied"]) == sum(state.tokens)
    assert data["hands"] == [sorted(hand) for hand in state.hands]
    assert data["draw_pile"] == len(state.draw_pile)
    assert data["discard_pile"] == len(state.discard_pile)
    assert data["tokens"] == list(state.tokens)
    result_ = state.result
    assert isinstance(result_, GameEnded)
    assert data["result"] == ("draw" if result_.winner is None else "win")
    assert data["winner"] == result_.winner and data["reason"] == result_.reason
    assert data["turns"] == state.turn > 0
    plays = [e for e in game.events if isinstance(e, CardPlayed) and e.space is not None]
    assert {str(e.space) for e in plays} == set(data["occupied"])


def test_cli_replay_truncated_record_warns_and_prints(record, tmp_path):
    path, _game = record
    text = path.read_text(encoding="utf-8")
    bad = tmp_path / "cut.jsonl"
    bad.write_text(text[: len(text) - 5], encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(bad), "--json"])
    assert result.exit_code == 0
    assert "warning" in result.stderr and "cut short" in result.stderr
    assert json.loads(result.stdout)["result"] is None  # the GameEnded line was lost


@pytest.mark.parametrize("damage", ["json", "missing", "version"])
def test_cli_replay_corrupt_record_is_a_clean_error(record, tmp_path, damage):
    _path, _ = record
    if damage == "json":
        target = corrupt(record, 6, "{nope", tmp_path)
    elif damage == "version":
        target = corrupt(record, 1, json.dumps({"format": FORMAT, "version": 2}), tmp_path)
    else:
        target = tmp_path / "missing.jsonl"
    result = CliRunner().invoke(main, ["replay", str(target), "--json"])
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Error" in result.output and str(target.name) in result.output
    if damage == "json":
        assert "line 6" in result.output
