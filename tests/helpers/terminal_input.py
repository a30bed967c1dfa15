"""Driving ``cinco`` with typed input (click's CliRunner) and in
tmux, for the tests of bad input at the terminal and the command line.
"""

from __future__ import annotations

import sys
from pathlib import Path

from click.testing import CliRunner, Result

from cinco.frontends.main import main

# -- folded in from the hardening campaign's test_hardening_terminal.py (issue 26) ----------------


CINCO = Path(sys.executable).parent / "cinco"


def run_cli(args: list[str], text: str, data: Path) -> Result:
    return CliRunner().invoke(main, args, input=text, env={"CINCO_DATA_DIR": str(data)})


def hot_seat(seed: int, record: Path) -> list[str]:
    return ["--players", "2", "--name", "1=Ann", "--name", "2=Bob", "--seed", str(seed),
            "--delay", "0", "--record", str(record)]  # fmt: skip
