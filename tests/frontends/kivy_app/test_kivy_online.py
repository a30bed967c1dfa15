"""The Kivy app's "Play online" screen with a real ``cinco serve`` on 127.0.0.1, under Xvfb.

Each scenario of ``kivy_online_scenarios.py`` runs in a process of its own (one Kivy window
per process) and starts its own server (``--bot-delay 0``); every wait in it is bounded.
Networked play: issue 12, docs/kivy.md ("Play online").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_kivy_app import display  # noqa: F401  (the fixture: a private Xvfb)

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
pytestmark = pytest.mark.kivy

SCENARIOS = Path(__file__).resolve().parents[2] / "helpers" / "kivy_online_scenarios.py"
ROOT = Path(__file__).resolve().parents[3]
CINCO = Path(sys.executable).parent / "cinco"

PHONE = {
    "KCFG_GRAPHICS_WIDTH": "1080",
    "KCFG_GRAPHICS_HEIGHT": "2340",
    "KIVY_METRICS_DENSITY": "2.75",
}
TABLET = {
    "KCFG_GRAPHICS_WIDTH": "2048",
    "KCFG_GRAPHICS_HEIGHT": "1536",
    "KIVY_METRICS_DENSITY": "2",
}


def run(scenario: str, display: str, data: Path, size: dict[str, str]) -> str:  # noqa: F811
    env = {
        **os.environ,
        "DISPLAY": display,
        "CINCO_DATA_DIR": str(data),
        "XDG_DATA_HOME": str(data / "xdg"),
        "KIVY_HOME": str(data / "kivy-home"),
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_CONSOLELOG": "1",
        "KIVY_NO_FILELOG": "1",
        **size,
    }
    command = [sys.executable, str(SCENARIOS), scenario]
    shots = os.environ.get("CINCO_ONLINE_SHOTS")  # to draw the docs' pictures
    if shots:
        command.append(shots)
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, f"{scenario} failed:\n{result.stdout}\n{result.stderr}"
    assert f"{scenario} OK" in result.stdout
    return result.stdout


def table_line(out: str) -> tuple[str, str]:
    line = next(line for line in out.splitlines() if line.startswith("TABLE "))
    _word, table, url, _events = line.split()
    return table, url


def test_a_game_against_a_server_bot_by_touch(display: str, tmp_path: Path) -> None:  # noqa: F811
    """Phone-sized: an unreachable server gets a clear message; a table with the server's
    greedy bot is created by touch and played to its end by taps, the server killed (-9) and
    started again mid-game ("Reconnecting…", then on); the server's exported record is a
    whole game and the very one the app showed; the address is remembered."""
    out = run("against_a_bot", display, tmp_path, PHONE)
    assert "Cannot reach a Cinco server" in out
    assert "refused:" in out  # a tap on a wrong space: the server's reason
    _table, url = table_line(out)
    settings = json.loads((tmp_path / "app-settings.json").read_text())
    assert settings["online"] == {"server": url, "name": "Ann"}


def test_the_app_and_a_terminal_client_play_each_other(display: str, tmp_path: Path) -> None:  # noqa: F811
    """Tablet-sized: the codes shown after create; ``cinco join --bot greedy`` takes the free
    seat with the invite code read off the screen, and the two clients play a whole game,
    which the server's exported record holds, as the app showed it."""
    out = run("against_a_terminal_bot", display, tmp_path, TABLET)
    assert "events=" in out
