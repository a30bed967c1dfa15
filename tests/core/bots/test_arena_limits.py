"""``cinco arena`` under bad input and at its limits: no
markup read from names, a huge tournament not built at once, streamed games, SIGTERM.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from terminal_input import CINCO

from cinco.core.bots.matches import ArenaSpec, Entrant, parse_entrants
from cinco.core.bots.statistics import Report
from cinco.core.bots.tournament import run
from cinco.frontends import arena as arena_module

# -- folded in from the hardening campaign's test_hardening_terminal.py (issue 26) ----------------


def test_the_arena_table_reads_no_markup_and_no_escapes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    label = "[bold red]evil[/bold red]\x1b]0;pwned\x07"
    spec = ArenaSpec(entrants=(Entrant(label), Entrant("random")), players=2, games=0)
    report = Report.of(spec, 2, [], 0.0)
    arena_module._print_report(report)
    out = capsys.readouterr().out
    assert "[bold red]evil[/bold red]" in out
    assert "\x1b" not in out and "\x07" not in out


STREAM = textwrap.dedent(
    """
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
    from click.testing import CliRunner
    from cinco.core.bots import tournament
    from cinco.frontends.main import main
    played = []
    def play_one(spec, index, seed, arrangement):
        played.append(index)
        if len(played) == 5:
            raise KeyboardInterrupt
        return tournament.GameResult(index, seed, arrangement, 0, "line", 10, 0)
    tournament.play_one = play_one
    result = CliRunner().invoke(
        main, ["arena", "--bots", "greedy,random", "--games", "100000000", "--jobs", "1"]
    )
    print("PLAYED", len(played), type(result.exception).__name__)
    """
)


def test_a_huge_arena_does_not_build_every_deal() -> None:
    """--games 100,000,000 starts at once, in bounded memory (1.5 GB of address space)."""
    done = subprocess.run(
        [sys.executable, "-c", STREAM], capture_output=True, text=True, timeout=120
    )
    assert "PLAYED 5" in done.stdout, done.stdout + done.stderr[-2000:]


def test_streamed_games_are_the_tournaments_games() -> None:
    spec = ArenaSpec(entrants=parse_entrants("greedy,random"), players=2, games=5, seed=3)
    expected = run(spec, jobs=1).results
    assert arena_module.play_games(spec, jobs=2).results == expected
    assert arena_module.play_games(spec, jobs=1).results == expected


def children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(n) for n in text.split()]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc")
def test_sigterm_ends_the_arenas_workers(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [str(CINCO), "arena", "--bots", "greedy,random", "--games", "1000000", "--jobs", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(workers) < 2:
            workers = [pid for pid in children(process.pid) if alive(pid)]
            time.sleep(0.1)
        assert len(workers) >= 2, "the workers never started"
        time.sleep(1)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(alive(pid) for pid in workers):
            time.sleep(0.1)
        assert not [pid for pid in workers if alive(pid)]
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for pid in {*children(process.pid), *workers}:  # never leave a worker behind
            if alive(pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
