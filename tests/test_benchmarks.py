"""The benchmarks still run (their figures are for people: nothing here is timed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def run(script: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_engine_speed_prints_the_ratio_and_the_replay_speed() -> None:
    out = run("engine_speed.py", "--games", "3", "--rounds", "1", "--long-turns", "40")
    assert "ratio engine/bare:" in out and "the goal of at least 0.33" in out
    assert "rule code alone" in out and "design's fixed cost" in out
    assert "replay:" in out and "events/s" in out


def test_kernel_speed_prints_the_builds_side_by_side() -> None:
    out = run("kernel_speed.py", "--seconds", "0.05", "--rounds", "1")
    assert "pure kernel (random)" in out and "pure kernel (ismcts rollout policy)" in out
    assert "kernel / reference engine (random):" in out
    assert "compiled / pure (random):" in out and "(goal: at least 5x)" in out
    assert "compiled / pure (ismcts rollout policy):" in out and "(goal: at least 4x)" in out
    from cinco.plugins.bots import builds

    if builds.status() == "compiled":
        assert "compiled kernel (random)" in out and "turns/s" in out


def test_bot_strength_plays_compiled_against_pure() -> None:
    from cinco.plugins.bots import builds

    if builds.status() != "compiled":
        pytest.skip(f"no compiled build here ({builds.status()})")
    out = run("bot_strength.py", "--match", "compiled-pure", "--games", "2", "--iterations", "5")
    assert "compiled-pure" in out and "60%" in out


@pytest.mark.parametrize("match", ["greedy-random"])
def test_bot_strength_plays_a_match(match: str) -> None:
    out = run("bot_strength.py", "--games", "2", "--match", match, "--jobs", "1")
    assert "greedy" in out and "random" in out


def test_undo_replay_prints_the_load_time_by_undos() -> None:
    out = run("undo_replay.py", "--undos", "0,10", "--repeat", "1")
    rows = [line.split() for line in out.splitlines() if line.split()[:1] in (["0"], ["10"])]
    assert [row[0] for row in rows] == ["0", "10"] and "load µs/event" in out
