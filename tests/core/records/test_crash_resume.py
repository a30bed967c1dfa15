"""A bot game writing its record is killed (SIGKILL) at random moments; each record resumes
losing no completed turn, plays on, and closes as a record that loads.

The games run in children forked by ``tests/helpers/crash_game.py`` (Cinco is imported once, so a
kill costs a fork, not an interpreter). The kills are seeded and bounded: thirty games, each
killed at a moment drawn over the length of a whole game.
"""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cinco.core.engine.errors import RecordError
from cinco.core.engine.events import (
    SPECTATOR,
    Event,
    GameEnded,
    GameStarted,
    TurnEnded,
    event_from_dict,
)
from cinco.core.records.record import load_record
from cinco.core.table.table import Table

KILLS = 30
SEED = 20261201
SERVER = Path(__file__).resolve().parents[2] / "helpers" / "crash_game.py"

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork (POSIX)")


class Server:
    """The fork server, with a reader thread so that no answer is waited for for ever."""

    def __init__(self, cwd: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(SERVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=cwd,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.answer(timeout=60) == "ready"

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.strip())

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def answer(self, timeout: float = 30) -> str:
        return self.lines.get(timeout=timeout)

    def start(self, path: Path, seed: int) -> int:
        self.send(f"play {path} {seed}")
        kind, pid = self.answer().split()
        assert kind == "pid"
        return int(pid)

    def reap(self) -> int:
        self.send("reap")
        kind, status = self.answer(timeout=60).split()
        assert kind == "exit"
        return int(status)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


def on_disk(path: Path) -> list[Event]:
    """The events whose lines were written whole before the kill (a last line cut halfway,
    without its newline, is no event)."""
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").split("\n")[:-1]  # the last: "" or cut off
    return [event_from_dict(json.loads(line)) for line in lines[1:]]  # after the header


def test_killed_games_resume_losing_no_completed_turn(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    server = Server(tmp_path)
    try:
        # Whole games first: how long a game takes, so that the kills spread over one.
        lengths = []
        for game in range(3):
            began = time.perf_counter()
            server.start(tmp_path / f"whole-{game}.jsonl", game + 1)
            assert server.reap() == 0
            lengths.append(time.perf_counter() - began)
            whole = load_record(tmp_path / f"whole-{game}.jsonl")
            assert isinstance(whole.events[-1], GameEnded)
        length = sorted(lengths)[1]

        mid_game = 0
        for kill in range(KILLS):
            path = tmp_path / f"killed-{kill:02d}.jsonl"
            pid = server.start(path, rng.randrange(2**31))
            time.sleep(rng.uniform(0, length))
            os.kill(pid, signal.SIGKILL)
            server.reap()
            written = on_disk(path)
            if not written or not isinstance(written[0], GameStarted):
                # Killed before the first event was whole: there is no game to resume.
                with pytest.raises(RecordError):
                    Table.resume(path).close()
                continue
            ends = [i for i, e in enumerate(written) if isinstance(e, TurnEnded | GameEnded)]
            finished = isinstance(written[-1], GameEnded)
            mid_game += bool(ends) and not finished
            with Table.resume(path) as table:
                watcher = table.spectator()
                resumed = [envelope.event for envelope in watcher.events()]
                kept = ends[-1] + 1 if ends else 0
                # Every completed turn on disk is still there, event for event.
                assert len(resumed) >= kept, f"kill {kill}: turns were lost"
                for index in range(kept):
                    assert resumed[index] == written[index].seen_by(SPECTATOR), (kill, index)
                assert table.status().is_over == finished
                table.play_bots(max_turns=5)  # play on for a bit
                played = len(watcher.events())
            again = load_record(path)  # closed: a record that loads, with what was played
            assert len(again.events) == played
            assert [e.seen_by(SPECTATOR) for e in again.events[:kept]] == resumed[:kept]
        # Many kills landed in the middle of a game (not before it, not after its end).
        assert mid_game >= KILLS // 3, f"only {mid_game} of {KILLS} kills were mid-game"
    finally:
        server.close()
