"""A real ``cinco serve`` on 127.0.0.1, in a subprocess, for the tests that play over the
network (test_server_live.py, test_server_pg.py, kivy_online_scenarios.py)."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from cinco.frontends.net.client import Lobby, NetError

CINCO = Path(sys.executable).parent / "cinco"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """``cinco serve --db DB`` on a free port (or *port*), its output in *log*; bots move
    at once (``--bot-delay 0``). ``start`` waits until the lobby answers."""

    def __init__(self, db: str | Path, port: int | None = None, log: Path | None = None) -> None:
        self.db = str(db)
        self.port = port or free_port()
        self.log = log or Path(f"{self.db}.log")
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [CINCO, "serve", "--port", str(self.port), "--db", self.db, "--bot-delay", "0"],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                Lobby(self.url, timeout=1).tables()
                return
            except NetError:
                assert self.process.poll() is None, self.log.read_text()
                time.sleep(0.1)
        raise AssertionError(f"the server did not start: {self.log.read_text()}")

    def kill(self) -> None:
        """``kill -9``: no goodbye."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
