"""Every screen fits: each view of the app, at eight real screens, in English and Ukrainian
(the longest words), checked by ``kivy_fit.misfits`` (nothing outside the window, no text
under another control, no name, count or status cut or ellipsised, controls at least 48 dp).

Starting Kivy is slow, so one process runs every size at a density, resizing its window
between them (``kivy_fit_views.py``): four processes for the eight screens. The window is real
(SDL2 on Xvfb) but, unless screenshots are asked for (``CINCO_FIT_SHOTS=DIR``), drawn with
Kivy's ``mock`` GL backend: layout and text measurement do not draw, and drawing 2560x1600 in
software is most of the cost (the density-2 run: about 200 s drawn, 40 s not). The checker's
own self-check runs in the same process, so a backend that hid faults would fail it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_kivy_app import display  # noqa: F401  (the fixture: a private Xvfb)

pytestmark = pytest.mark.kivy

VIEWS = Path(__file__).resolve().parents[2] / "helpers" / "kivy_fit_views.py"
ROOT = Path(__file__).resolve().parents[3]

#: Density → window sizes in pixels. Phones: 720x1280 at 2.625 and 1080x2400 at 3 upright,
#: 2400x1080 at 3 on its side; small tablets: 800x1280 at 2, 1280x800 at 1.5, 1280x720 at 2;
#: large tablets: 2048x1536 and 2560x1600 at 2.
SCREENS = {
    "2.625": "720x1280",
    "3": "1080x2400,2400x1080",
    "1.5": "1280x800",
    "2": "800x1280,1280x720,2048x1536,2560x1600",
}


@pytest.mark.parametrize("density", sorted(SCREENS))
def test_every_view_fits_every_screen(display: str, tmp_path: Path, density: str) -> None:  # noqa: F811
    """Start, the language and seat lists, the online form and codes, the pass screen,
    games of 2, 4 and 6 (with Joker) with a card chosen and a space tapped, Leave?, game
    over, replay and Open file…, in English and Ukrainian, at every size of this density;
    at 1280x800 a tablet turned mid-game keeps the game, the card chosen and the space shown."""
    sizes = SCREENS[density]
    width, height = sizes.split(",")[0].split("x")
    shots = Path(os.environ["CINCO_FIT_SHOTS"]) if os.environ.get("CINCO_FIT_SHOTS") else None
    env = {
        **os.environ,
        "DISPLAY": display,
        "CINCO_DATA_DIR": str(tmp_path),
        "KIVY_HOME": str(tmp_path / "kivy-home"),
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_CONSOLELOG": "1",
        "KIVY_NO_FILELOG": "1",
        "KIVY_METRICS_DENSITY": density,
        "KCFG_GRAPHICS_WIDTH": width,
        "KCFG_GRAPHICS_HEIGHT": height,
        "CINCO_FIT_SIZES": sizes,
        # At 1280x800: turned to 800x1280 mid-game and back, the game and the card kept.
        "CINCO_FIT_ROTATE": "1" if density == "1.5" else "",
    }
    if shots is None:
        env["KIVY_GL_BACKEND"] = "mock"
    command = [sys.executable, str(VIEWS)]
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
        command.append(str(shots))
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600, cwd=ROOT)
    faults = [line[5:] for line in result.stdout.splitlines() if line.startswith("FIT: ")]
    assert not faults, f"{len(faults)} views do not fit:\n" + "\n".join(faults)
    assert result.returncode == 0 and "fit OK" in result.stdout, result.stdout + result.stderr
