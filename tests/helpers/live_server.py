"""A real ``cinco serve`` on 127.0.0.1, in a subprocess, for the tests that play over the
network (test_server_live.py, test_server_pg.py, kivy_online_scenarios.py)."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cinco.core.engine.commands import Command
from cinco.core.table.protocol import Accepted, Submit
from cinco.frontends.net.client import Lobby, NetError, Session

CINCO = Path(sys.executable).parent / "cinco"


def cinco(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run the ``cinco`` command line to its end (output captured as text)."""
    return subprocess.run(
        [str(CINCO), *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def bot_clients(url: str, code: str) -> list[subprocess.Popen[str]]:
    """Two ``cinco join URL CODE --bot`` processes, Gus (greedy) and Rita (random)."""
    return [
        subprocess.Popen(
            [CINCO, "join", url, code, "--bot", bot, "--name", name],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for bot, name in (("greedy", "Gus"), ("random", "Rita"))
    ]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """``cinco serve --db DB`` on a free port (or *port*), its output in *log*; bots move
    at once (``--bot-delay 0``). ``start`` waits until the lobby answers."""

    def __init__(
        self,
        db: str | Path,
        port: int | None = None,
        log: Path | None = None,
        extra: tuple[str, ...] = (),
    ) -> None:
        self.db = str(db)
        self.extra = extra
        self.port = port or free_port()
        self.log = log or Path(f"{self.db}.log")
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [
                    *(CINCO, "serve", "--port", str(self.port), "--db", self.db),
                    *("--bot-delay", "0", *self.extra),
                ],
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


def seated(
    lobby: Lobby, table: dict[str, Any], names: Sequence[str] = ("Ann", "Bob")
) -> list[Session]:
    """People called *names* who joined *table* (as the lobby created it), each with the
    connection of their seat open."""
    seats = [lobby.join(table["code"], name) for name in names]
    players = [
        Session(lobby, table=table["table"], token=s["token"], seat=s["seat"]) for s in seats
    ]
    for player in players:
        player.connect()
    return players


def first_legal(session: Session) -> Command | None:
    legal = session.view.legal()
    return None if legal is None else next(iter(legal))


def play(session: Session, moves: int | None, timeout: float = 90) -> int:
    """Make up to *moves* moves (``None``: to the end) as the server prompts them."""
    made = 0
    deadline = time.monotonic() + timeout
    while not session.view.over and (moves is None or made < moves):
        assert time.monotonic() < deadline
        command = first_legal(session)
        if command is None:
            session.receive(timeout=0.5)
            continue
        if isinstance(session.request(Submit(command)), Accepted):
            made += 1
    return made
