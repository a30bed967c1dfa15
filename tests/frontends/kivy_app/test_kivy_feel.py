"""The app's feel, by real touches under a virtual display: forgiving touch on a phone (drag to
place, a magnifier, near taps), the card's flight and the Animations setting, and a board that
builds nothing again while nothing changes. Scenarios in ``kivy_feel_scenarios.py``, each in a
process of its own (Kivy has one window per process); the display comes from
``test_kivy_app.py``'s fixture (a private Xvfb when there is none).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_kivy_app import display  # noqa: F401  (the fixture)

pytestmark = pytest.mark.kivy

SCENARIOS = Path(__file__).resolve().parents[2] / "helpers" / "kivy_feel_scenarios.py"
ROOT = Path(__file__).resolve().parents[3]
#: A phone held upright: 720×1280 at density 2.625 (cells about 32 dp, under a fingertip).
PHONE = {
    "KIVY_METRICS_DENSITY": "2.625",
    "KCFG_GRAPHICS_WIDTH": "720",
    "KCFG_GRAPHICS_HEIGHT": "1280",
}


def run(scenario: str, screen: str, data: Path, extra: dict[str, str] | None = None) -> None:
    env = {
        **os.environ,
        "DISPLAY": screen,
        "CINCO_DATA_DIR": str(data),
        "KIVY_HOME": str(data / "kivy-home"),
        **(extra or {}),
    }
    result = subprocess.run(
        [sys.executable, str(SCENARIOS), scenario],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert result.returncode == 0, f"{scenario} failed:\n{result.stdout}\n{result.stderr}"
    assert f"{scenario} OK" in result.stdout


def test_touch_forgives_on_a_phone(display: str, tmp_path: Path) -> None:  # noqa: F811
    """At 720×1280 (density 2.625): small cells are magnified under the finger; a drag shows
    the card's ghost on the nearest lit space and plays it there on release; a drag off the
    board, or to no lit space, plays nothing; a tap that lands on an unlit neighbour of a lit
    space, a little off, chooses the lit space and a second such tap plays it."""
    run("forgiving_touch", display, tmp_path, PHONE)


def test_card_flies_without_delaying_the_game(display: str, tmp_path: Path) -> None:  # noqa: F811
    """A played card flies to its space while the table already has the move; the bot's
    reply cancels the flight; Animations off (remembered) plays moves with no motion."""
    run("motion_and_setting", display, tmp_path)


def test_idle_frames_build_nothing(display: str, tmp_path: Path) -> None:  # noqa: F811
    """A tap's effect is built before the next frame; while a bot thinks the board's canvas
    is never built again."""
    run("quiet_frames", display, tmp_path)
