"""A real terminal for the tests: a tmux server (its socket given), with the program in a
session named ``game`` (or *target*: several tests may share one server, a session each),
driven by send-keys and read by capture-pane."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

TMUX = shutil.which("tmux")


class Terminal:
    def __init__(self, socket: Path, target: str = "game") -> None:
        self.socket = socket
        self.target = target

    def start(self, command: str, width: int = 80, height: int = 24) -> None:
        """Run *command* (a shell command) in a new session *width* × *height*."""
        self.tmux(
            "new-session", "-d", "-s", self.target, "-x", str(width), "-y", str(height), command
        )

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        return subprocess.run(
            [TMUX, "-S", str(self.socket), *args], check=True, capture_output=True, text=True
        ).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.target)

    def keys(self, *keys: str) -> None:
        """Type each of *keys*, then Enter (an empty one: Enter alone)."""
        for key in keys:
            if key:
                self.tmux("send-keys", "-t", self.target, "-l", key)
            self.tmux("send-keys", "-t", self.target, "Enter")

    def wait_for(self, check: Callable[[str], bool], what: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if check(screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"the screen never showed {what}:\n{self.screen()}")
