"""Pass-and-play privacy by construction (issue 22): after a move, no touch of the one who
moved — tap, double tap, long press or drag, from 0 to 3 s after the move, where they touched
during it — shows the next hand in any frame; the next player's deliberate act (holding the
button with their name for a second) does. The sweep runs in the real app under Xvfb
(tests/helpers/kivy_privacy_scenarios.py), its touches through Kivy's own input dispatch.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_kivy_app import display  # noqa: F401  (the Xvfb fixture of the Kivy tests)

pytestmark = pytest.mark.kivy

SCENARIOS = Path(__file__).resolve().parents[2] / "helpers" / "kivy_privacy_scenarios.py"
ROOT = Path(__file__).resolve().parents[3]


def test_no_touch_of_the_mover_reveals_the_next_hand(display: str, tmp_path: Path) -> None:  # noqa: F811
    env = {
        **os.environ,
        "DISPLAY": display,
        "CINCO_DATA_DIR": str(tmp_path),
        "KIVY_HOME": str(tmp_path / "kivy-home"),
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_CONSOLELOG": "1",
        "KIVY_NO_FILELOG": "1",
    }
    result = subprocess.run(
        [sys.executable, str(SCENARIOS), "pass_privacy"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr}"
    assert "pass_privacy OK" in result.stdout
