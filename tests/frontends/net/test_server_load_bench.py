"""``benchmarks/server_load.py`` still runs against a real ``cinco serve`` (its figures are for
people: nothing here is timed). A small step: 3 tables of 4 clients for two seconds, two of each
table's four connecting as the web client's pages do."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "server_load.py"


def test_server_load_plays_tables_and_prints_latencies() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--tables",
            "3",
            "--seconds",
            "2",
            "--warmup",
            "2.5",
            "--arrive",
            "0.5",
            "--rate",
            "4",
            "--idle",
            "3",
            "--web",
            "0.5",
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    row = next(line for line in result.stdout.splitlines() if line.split()[:2] == ["3", "12"])
    # tables conns act/s confirm fan-out refused dropped lag cpu-ms/act sys srv-cores
    # gen-cores KiB/table threads
    cells = row.split()
    actions_per_second, refused, dropped = float(cells[2]), cells[5], cells[6]
    # 3 tables at 4 actions a second: the server carried out moves, refused none, dropped nobody
    assert actions_per_second > 0
    assert (refused, dropped) == ("0", "0")
    # the server's own CPU time over the window, per action, and its threads: measured
    cpu_per_action, threads = float(cells[8]), int(cells[13])
    assert cpu_per_action > 0 and threads > 0
    # two seats a table were web pages (subprotocol, ?lang=): they played, and every file of
    # the page they fetched a second time with its ETag was answered 304
    web = re.search(r"web pages: 6 of 12 .* (\d+) revalidated \(304\), (\d+) failed", result.stdout)
    assert web is not None, result.stdout
    assert int(web[1]) > 0 and web[2] == "0"
    assert re.search(r"memory per idle table: -?\d+ KiB", result.stdout)
    assert "largest step with p99 <= 50 ms: " in result.stdout
