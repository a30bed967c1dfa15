"""A real terminal for the tests: a tmux server of a test's own (its socket given), with the
program in a window named ``game``, driven by send-keys and read by capture-pane."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

TMUX = shutil.which("tmux")


class Terminal:
    def __init__(self, socket: Path) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        return subprocess.run(
            [TMUX, "-S", str(self.socket), *args], check=True, capture_output=True, text=True
        ).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "game")

    def keys(self, *keys: str) -> None:
        """Type each of *keys*, then Enter (an empty one: Enter alone)."""
        for key in keys:
            if key:
                self.tmux("send-keys", "-t", "game", "-l", key)
            self.tmux("send-keys", "-t", "game", "Enter")

    def wait_for(self, check: Callable[[str], bool], what: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if check(screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"the screen never showed {what}:\n{self.screen()}")
