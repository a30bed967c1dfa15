"""How long the command line takes to start, against ``python -c "import click, rich"``.

Shell completion runs the program at every Tab, so ``cinco --help`` (and a completion) should
cost little more than the two libraries it is built on. The goal: at most 1.5x.

Each command runs as a whole process, in turn (A B A B ...), after one unmeasured round; the
ratio is taken pair by pair and its median printed, so that a machine whose speed drifts still
gives a fair figure.

Run: ``python benchmarks/cli_startup.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

CINCO = str(Path(sys.executable).with_name("cinco"))
BASELINE = [sys.executable, "-c", "import click, rich"]
COMMANDS = {
    "cinco --help": [CINCO, "--help"],
    "cinco --version": [CINCO, "--version"],
    "completion (cinco s<Tab>)": [CINCO],
}
COMPLETION_ENV = {"_CINCO_COMPLETE": "bash_complete", "COMP_WORDS": "cinco s", "COMP_CWORD": "1"}


def wall(command: list[str], env: dict[str, str] | None = None) -> float:
    started = time.perf_counter()
    subprocess.run(
        command, stdout=subprocess.DEVNULL, env={**os.environ, **(env or {})}, check=True
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="measured pairs a command")
    args = parser.parse_args()
    print(f"{'command':<28} {'median ms':>9} {'baseline ms':>11} {'ratio':>6}")
    for label, command in COMMANDS.items():
        env = COMPLETION_ENV if command == [CINCO] else None
        wall(command, env), wall(BASELINE)  # warm the file cache
        pairs = [(wall(command, env), wall(BASELINE)) for _ in range(args.runs)]
        ratio = statistics.median(a / b for a, b in pairs)
        ours = statistics.median(a for a, _ in pairs) * 1e3
        base = statistics.median(b for _, b in pairs) * 1e3
        print(f"{label:<28} {ours:>9.0f} {base:>11.0f} {ratio:>6.2f}", flush=True)
    print("goal: cinco --help at most 1.5x `python -c 'import click, rich'`")


if __name__ == "__main__":
    main()
