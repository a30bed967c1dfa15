"""``cinco arena``: fair seating, statistics, parallel games, reports, records, bad input."""

from __future__ import annotations

import csv
import json
import math
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from cinco.core.bots.matches import ArenaSpec, Entrant, arrangements, parse_entrants
from cinco.core.bots.statistics import elo_ratings, wilson
from cinco.core.bots.tournament import run
from cinco.core.records.record import load_record
from cinco.frontends.main import main


def arena(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["arena", *args])
    return result.exit_code, result.output


@pytest.mark.parametrize(("bots", "teams"), [(2, 2), (3, 3), (2, 3), (1, 2)])
def test_every_bot_sits_at_every_team_place_equally_often(bots: int, teams: int) -> None:
    """One round gives every team place (first to move, second, ...) the same bots, as often
    (with fewer bots than teams, some bots play for more than one team)."""
    entrants = [Entrant(f"b{i}") for i in range(bots)]
    ways = arrangements(entrants, teams)
    per_place = [Counter(way[team] for way in ways) for team in range(teams)]
    assert all(place == per_place[0] for place in per_place)
    assert set(per_place[0]) == set(range(bots))
    if bots == teams:
        assert len(set(per_place[0].values())) == 1


def test_more_bots_than_teams_is_refused() -> None:
    code, output = arena("--bots", "greedy,random,greedy", "--games", "2")
    assert code != 0 and "at most 2 bots" in output and "Traceback" not in output


@given(st.integers(0, 200), st.integers(1, 200))
def test_wilson_interval_holds_the_observed_rate(successes: int, trials: int) -> None:
    successes = min(successes, trials)
    low, high = wilson(successes, trials)
    assert 0 <= low <= successes / trials <= high <= 1


def test_elo_is_symmetric_and_orders_by_score() -> None:
    pairs = [(0, 1, 1.0)] * 7 + [(0, 1, 0.0)] * 3 + [(1, 2, 1.0)] * 6 + [(1, 2, 0.5)] * 4
    a, b, c = elo_ratings(3, pairs)
    assert a > b > c
    assert math.isclose((a + b + c) / 3, 1500)
    x, y = elo_ratings(2, [(0, 1, 0.5)] * 10)
    assert math.isclose(x, y)


def test_json_report_has_every_figure() -> None:
    code, output = arena("--bots", "greedy,random", "--games", "6", "--jobs", "1", "--json")
    assert code == 0, output
    report = json.loads(output)
    assert report["games"] == 6
    standings = {s["entrant"]: s for s in report["standings"]}
    assert standings["greedy"]["games"] == standings["random"]["games"] == 6
    greedy = standings["greedy"]
    assert greedy["wins"] + greedy["draws"] + greedy["losses"] == 6
    assert greedy["ci_low"] <= greedy["win_rate"] <= greedy["ci_high"]
    assert greedy["elo"] > standings["random"]["elo"]
    assert report["mean_turns"] > 0
    assert set(report["first_seat"]) == {"wins", "ci_low", "ci_high", "fair_share"}
    assert report["draws"] == sum(s["draws"] for s in report["standings"]) // 2
    # Without --seed the deals start at seed 0; no sequential test, no isolation.
    assert report["seed"] == 0 and report["sprt"] is None and report["isolated"] is False


def test_parallel_workers_play_the_same_games(tmp_path: Path) -> None:
    """--jobs only changes how fast: the same seed gives the same results."""
    spec = ArenaSpec(entrants=parse_entrants("greedy,random"), players=4, games=4, seed=3)
    alone = run(spec, jobs=1)
    together = run(spec, jobs=2)
    assert alone.results == together.results


def test_csv_and_records(tmp_path: Path) -> None:
    records = tmp_path / "games"
    table = tmp_path / "standings.csv"
    code, output = arena(
        "--bots",
        "ismcts:easy,random",
        "--players",
        "3",
        "--variant",
        "joker",
        "--games",
        "3",
        "--iterations",
        "5",
        "--jobs",
        "1",
        "--records",
        str(records),
        "--csv",
        str(table),
    )
    assert code == 0, output
    assert "ismcts:easy" in output and "Elo" in output and "First seat" in output
    with table.open() as handle:
        rows = list(csv.DictReader(handle))
    assert [row["entrant"] for row in rows] == ["ismcts:easy", "random"]
    saved = sorted(records.glob("*.jsonl"))
    assert len(saved) == 3
    first = load_record(saved[0]).events[0]
    assert first.config.options == {"bot_iterations": 5}  # type: ignore[attr-defined]


def test_records_folder_that_cannot_be_made_is_explained(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code, output = arena("--bots", "greedy,random", "--games", "1", "--records", str(blocker / "x"))
    assert code != 0 and "Cannot save records" in output and "Traceback" not in output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bots", "nobody,greedy"), "Unknown bot"),
        (("--bots", "greedy,random", "--budget", "1", "--iterations", "5"), "not both"),
        (("--bots", "greedy,random", "--layout", "2x3"), "six players"),
        (("--bots", "ismcts:impossible,random"), "no level"),
        (("--bots", "greedy,random", "--variant", "nope"), "Unknown variant"),
    ],
)
def test_bad_input_is_explained(args: tuple[str, ...], message: str) -> None:
    code, output = arena(*args, "--games", "2")
    assert code != 0
    assert message in output and "Traceback" not in output
