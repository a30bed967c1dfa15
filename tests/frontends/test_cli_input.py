"""The command line under bad input: numbers, seats and
levels refused cleanly, and a missing Kivy said in one line.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from terminal_input import run_cli

from cinco.frontends.main import main

# -- folded in from the hardening campaign's test_hardening_terminal.py (issue 26) ----------------


@pytest.mark.parametrize(
    "args",
    [
        ["--seed", "9" * 300],
        ["simulate", "--bots", "greedy", "-n", "1", "--seed", "9" * 300],
        ["arena", "--bots", "greedy,random", "-n", "1", "--seed", "9" * 300],
        ["--delay", "inf"],
        ["--delay", "nan"],
        ["--delay", "-1"],
        ["--delay", "1e400"],
        ["arena", "--bots", "greedy,random", "-n", "1", "--budget", "inf"],
        ["arena", "--bots", "greedy,random", "-n", "1", "--budget", "nan"],
        ["--screenshot", "shot.png", "--players", "2"],
    ],
    ids=lambda args: " ".join(a[:12] for a in args),
)
def test_bad_numbers_are_refused_cleanly(args: list[str], tmp_path: Path) -> None:
    result = run_cli([*args, "--bot", "2=greedy"] if args[0].startswith("--") else args, "q\n",
                     tmp_path)  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "Error:" in result.output
    assert not list(tmp_path.rglob("*.jsonl"))


def test_kivy_missing_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "kivy", None)  # import kivy fails, as without the extra
    for name in [n for n in sys.modules if n.startswith("cinco.frontends.kivy_app.")]:
        monkeypatch.delitem(sys.modules, name)
    for missing in (True, False):
        monkeypatch.setattr("cinco.frontends.launch._kivy_missing", lambda m=missing: m)
        result = run_cli(["--frontend", "kivy"], "", tmp_path)
        assert result.exit_code in (1, 2), result.output
        assert "Traceback" not in result.output
        assert result.output.strip().count("\n") == 0, result.output
        assert "cinco[kivy]" in result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--bot", "2=gredy"], "Installed bots: greedy, ismcts, random"),
        (["--bot", "2=greedy:hrad"], "no level"),
        (["--bot", "2=greedy", "--bot", "2=random"], "Seat 2 is given twice"),
        (["--bot", "2=greedy", "--name", "1=Ann", "--name", "1=Bo"], "Seat 1 is given twice"),
    ],
)
def test_bad_seats_are_refused(args: list[str], words: str, tmp_path: Path) -> None:
    result = run_cli(["--players", "2", *args], "q\n", tmp_path)
    assert result.exit_code == 2, result.output
    assert words in result.output
    assert not list(tmp_path.rglob("*.jsonl"))


def test_simulate_takes_levels() -> None:
    result = CliRunner().invoke(
        main, ["simulate", "--bots", "ismcts:easy,greedy", "-n", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    bad = CliRunner().invoke(main, ["simulate", "--bots", "ismcts:eassy", "-n", "1"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output and "easy" in bad.output
