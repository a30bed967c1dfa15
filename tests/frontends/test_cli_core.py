"""The core commands: ``cinco board`` and ``cinco simulate`` (``replay`` is in test_records)."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from cinco.core.engine.board import COORDINATES
from cinco.core.records.record import load_record
from cinco.frontends.main import main


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def test_board_json_lists_90_spaces_with_axial_coordinates():
    """B1/B6: ``cinco board --json`` gives every space's number and (q, r)."""
    result = invoke("board", "--json")
    assert result.exit_code == 0, result.output
    spaces = json.loads(result.stdout)["spaces"]
    assert len(spaces) == 90
    assert sorted(s["number"] for s in spaces) == list(range(1, 91))
    for space in spaces:
        assert (space["q"], space["r"]) == COORDINATES[space["number"] - 1]
    assert {(s["q"], s["r"]) for s in spaces}.isdisjoint({(0, 0)})


def test_board_draws_all_90_numbers_in_its_shape():
    """``cinco board`` draws the hexagon: 11 rows, every number from 1 to 90 once."""
    result = invoke("board")
    assert result.exit_code == 0, result.output
    numbers = [int(n) for n in re.findall(r"\d+", result.stdout)]
    assert sorted(numbers) == list(range(1, 91))
    rows = [line for line in result.stdout.splitlines() if re.search(r"\d", line)]
    assert len(rows) == 11
    widths = [len(re.findall(r"\d+", row)) for row in rows]
    assert widths == [6, 7, 8, 9, 10, 10, 10, 9, 8, 7, 6]  # the centre row lacks one: (0, 0)


SIM = ("simulate", "--bots", "random,greedy", "--games", "4", "--seed", "7", "--json")


def test_simulate_json_summary():
    result = invoke(*SIM)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= {"games", "actions", "wins", "draws", "seconds"}
    assert data["games"] == 4
    assert data["actions"] > 0 and isinstance(data["seconds"], int | float)
    assert sum(data["wins"].values()) + data["draws"] == 4
    assert set(data["wins"]) <= {"0", "1"}


def test_simulate_same_seed_same_result_other_seed_other_games():
    first, second = (json.loads(invoke(*SIM).stdout) for _ in range(2))
    first.pop("seconds"), second.pop("seconds")
    assert first == second
    other = list(SIM)
    other[other.index("7")] = "8"
    third = json.loads(invoke(*other).stdout)
    third.pop("seconds")
    assert third["actions"] != first["actions"] or third["wins"] != first["wins"]


@pytest.mark.parametrize(
    "options",
    [
        ("--players", "3", "--variant", "joker"),
        ("--players", "6", "--layout", "3x2"),
        ("--players", "6", "--layout", "2x3", "--variant", "joker"),
        ("--players", "4"),
    ],
)
def test_simulate_every_configuration(options):
    result = invoke("simulate", "--bots", "random", "--games", "2", "--json", *options)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 2
    teams = {"3": 3, "4": 2, "6": 3 if "3x2" in options else 2}[options[1]]
    assert all(int(team) < teams for team in data["wins"])


def test_simulate_turn_limit_ends_games_in_draws():
    """E4: bot games stop at the turn limit, as draws."""
    result = invoke("simulate", "--bots", "random", "-n", "3", "--turn-limit", "5", "--json")
    data = json.loads(result.stdout)
    assert data["draws"] == 3 and data["actions"] == 15


def test_simulate_records(tmp_path):
    result = invoke(
        "simulate", "--bots", "greedy", "-n", "2", "--records", str(tmp_path), "--seed", "3"
    )
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("*.jsonl"))
    assert len(files) == 2
    for path in files:
        assert load_record(path).events[-1].type == "game_ended"


def test_simulate_text_summary():
    result = invoke("simulate", "--bots", "random", "-n", "2")
    assert result.exit_code == 0
    assert "2 games" in result.stdout and "draws" in result.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--bots", "nope"), "Unknown bot 'nope'"),
        (("--bots", "random", "--variant", "bogus"), "Unknown variant 'bogus'"),
        (("--bots", "random", "--players", "5"), "'5' is not one of"),
        (("--bots", "random", "--layout", "3x2"), "--layout 3x2 is for six players, not 2"),
        (("--bots", " , "), "Name at least one bot"),
        (("--bots", "random", "--games", "0"), "--games"),
        (("--bots", "random", "--layout", "9x9", "-p", "6"), "'9x9' is not one of"),
        ((), "--bots"),
    ],
)
def test_simulate_bad_options_are_clear_errors(args, words):
    result = (
        invoke("simulate", "-n", "1", *args) if "--games" not in args else invoke("simulate", *args)
    )
    assert result.exit_code != 0
    assert words in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_help_and_version():
    assert invoke("--help").exit_code == 0
    assert "cinco" in invoke("--version").output
    assert invoke("board", "--nope").exit_code == 2
