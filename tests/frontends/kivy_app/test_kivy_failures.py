"""An error in the app never ends it silently (issue 22: a missing websockets once made
``cinco --frontend kivy`` exit 1 with no word, Kivy's logger having swallowed the traceback).

At start-up the traceback goes to standard error and the log, and a window says the app could
not start and where the log is; during play a popup says what went wrong over the game, which
goes on. Each case runs the real app under Xvfb, in a process of its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_kivy_app import display  # noqa: F401  (the Xvfb fixture of the Kivy tests)

pytestmark = pytest.mark.kivy

ROOT = Path(__file__).resolve().parents[3]

#: Closes the window that says why the app could not start, printing what it says.
START_UP = """
import sys
sys.modules['cinco.frontends.kivy_app.board'] = None  # an import that fails at start-up
from cinco.frontends.kivy_app import prepare_environment, run_app
prepare_environment()
from kivy.app import App
from kivy.clock import Clock
from cinco.frontends.options import PlayOptions

def watch(_dt):
    app = App.get_running_app()
    if type(app).__name__ != 'FailureApp' or app.root is None:
        return True
    words = [w.text for w in app.root.walk() if hasattr(w, 'text')]
    print('SHOWN', ' | '.join(words).replace(chr(10), ' '), flush=True)
    app.stop()
    return False

Clock.schedule_interval(watch, 0.1)
run_app(PlayOptions())
"""

#: A callback that fails during a game; the popup's Back to the start is pressed.
DURING_PLAY = """
from cinco.frontends.kivy_app import prepare_environment, run_app
prepare_environment()
from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.tests.common import UnitTestTouch
from cinco.frontends.options import PlayOptions

def fail(_dt):
    raise RuntimeError('a failure in a frame')

def watch(_dt):
    app = App.get_running_app()
    popups = [w for w in Window.children if type(w).__name__ == 'FailurePopup']
    if not popups:
        return True
    popup = popups[0]
    words = [w.text for w in popup.walk() if hasattr(w, 'text')]
    print('SHOWN', ' | '.join(words).replace(chr(10), ' '), flush=True)
    button = next(w for w in popup.walk() if getattr(w, 'text', '') == 'Back to the start')
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    touch.touch_up()
    Clock.schedule_once(lambda _dt: done(app), 0.5)
    return False

def done(app):
    print('NOW', app.manager.current, 'FAILURES', len(app.failures), flush=True)
    app.stop()

Clock.schedule_once(fail, 1.5)
Clock.schedule_interval(watch, 0.1)
run_app(PlayOptions(players=2, seed=3))
"""


def run(script: str, screen: str, data: Path) -> subprocess.CompletedProcess[str]:
    (data / "kivy-home").mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "DISPLAY": screen,
        "CINCO_DATA_DIR": str(data),
        "KIVY_HOME": str(data / "kivy-home"),
        "CINCO_LANG": "en",
    }
    return subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        cwd=data,
    )


def test_a_start_up_failure_is_reported_and_shown(display: str, tmp_path: Path) -> None:  # noqa: F811
    result = run(START_UP, display, tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    log = tmp_path / "cinco-app-errors.log"
    assert f"Cinco app: an error starting the app (logged in {log})" in result.stderr
    assert "cinco.frontends.kivy_app.board" in result.stderr  # the traceback, on stderr
    assert "cinco.frontends.kivy_app.board" in log.read_text()  # and in the log
    shown = next(line for line in result.stdout.splitlines() if line.startswith("SHOWN"))
    assert "Cinco could not start" in shown and str(log) in shown, shown
    assert "Close the app" in shown


def test_a_failure_during_play_is_shown_and_the_game_goes_on(display: str, tmp_path: Path) -> None:  # noqa: F811
    result = run(DURING_PLAY, display, tmp_path)
    log = tmp_path / "cinco-app-errors.log"
    assert "RuntimeError: a failure in a frame" in result.stderr, result.stdout + result.stderr
    assert "a failure in a frame" in log.read_text()
    shown = next(line for line in result.stdout.splitlines() if line.startswith("SHOWN"))
    assert "Something went wrong" in shown and str(log) in shown, shown
    assert "RuntimeError: a failure in a frame" in shown
    assert "NOW start FAILURES 1" in result.stdout, result.stdout  # the app went on
    assert result.returncode == 1, "closed after a failure: exit status 1"
