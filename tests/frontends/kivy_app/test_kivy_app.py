"""The Kivy app, driven by simulated touches under a virtual display (Xvfb).

Kivy allows one window per process, so each scenario of ``kivy_scenarios.py`` runs in a
process of its own; this module starts Xvfb once when there is no display, and skips with the
reason when Xvfb or Kivy is missing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from example_plugins import install_examples, with_site

pytestmark = pytest.mark.kivy

SCENARIOS = Path(__file__).resolve().parents[2] / "helpers" / "kivy_scenarios.py"
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def display(display: str) -> str:
    """The session's display (tests/conftest.py), once Kivy is known to be installed."""
    pytest.importorskip("kivy", reason="the Kivy app needs Kivy: pip install 'cinco[kivy]'")
    return display


def run(
    scenario: str,
    display: str,
    data: Path,
    shots: Path | None = None,
    extra: dict[str, str] | None = None,
) -> None:
    env = {
        **os.environ,
        "DISPLAY": display,
        "CINCO_DATA_DIR": str(data),
        "KIVY_HOME": str(data / "kivy-home"),
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_CONSOLELOG": "1",
        "KIVY_NO_FILELOG": "1",
        **(extra or {}),
    }
    command = [sys.executable, str(SCENARIOS), scenario]
    if shots is not None:
        command.append(str(shots))
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert result.returncode == 0, f"{scenario} failed:\n{result.stdout}\n{result.stderr}"
    assert f"{scenario} OK" in result.stdout
    print(result.stdout)


#: (density, window sizes in pixels): the first size opens the window; the others are the
#: window turned or resized while the app runs (a rotation). Phone, 8" and 10–12" tablets.
LAYOUTS = {
    "phone-and-tablet@2": ("2", "720x1280,1280x720,2048x1536"),
    "tablet@1.5": ("1.5", "1280x800,800x1280"),
    "tablet@3": ("3", "2560x1600"),
}


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_screen_fits_the_window(display: str, tmp_path: Path, name: str) -> None:
    """At each size and density, and after the window turns mid-game: every button, toggle,
    spinner and card of every screen inside the window (or inside a panel that scrolls),
    at least 48 dp, never under the board; the whole hand on screen; in portrait the start
    screen shows players, teams, variants and Start at once, below the title; on a phone the
    board's cells are at least 35 dp wide upright (32 on its side)."""
    density, sizes = LAYOUTS[name]
    first = sizes.split(",")[0].split("x")
    extra = {
        "KIVY_METRICS_DENSITY": density,
        "KCFG_GRAPHICS_WIDTH": first[0],
        "KCFG_GRAPHICS_HEIGHT": first[1],
        "CINCO_LAYOUT_SIZES": sizes,
    }
    run("layout", display, tmp_path, extra=extra)


def test_touch_forgives_and_keeps_privacy(display: str, tmp_path: Path) -> None:
    """Touch-up, preview and confirm, cancel; the privacy screen reveals only on a tap that
    began on it after its guard time (a held finger, a resting one, a quick tap never do);
    Back asks before leaving a game; pause hides the hand and resume passes the tablet;
    Take back is not offered once the other person saw the play; Hide hides; Burn leaves
    Draw and Exchange their width."""
    run("touches", display, tmp_path)


def test_back_on_the_start_screen_twice_leaves(display: str, tmp_path: Path) -> None:
    """Back once on the start screen warns and stays; twice within two seconds leaves."""
    run("back_on_start", display, tmp_path)


def test_complete_game_by_touch(display: str, tmp_path: Path) -> None:
    """A person plays a whole game against the greedy bot by tapping cards, spaces and
    buttons; lit spaces and disabled buttons match the engine (A1–A5) after every move; the
    autosave replays to the final state; Rematch starts a new game at the same table."""
    run("full_game", display, tmp_path)


def test_privacy_screen_between_people(display: str, tmp_path: Path) -> None:
    """S2: between two people the privacy screen comes first and no hand is on screen."""
    run("hot_seat", display, tmp_path)


def test_undo_against_a_bot(display: str, tmp_path: Path) -> None:
    """Undo takes back the person's play and the bot's reply (an event, in the autosave),
    once the reply showed no card; before, it is disabled and the table says why."""
    run("undo", display, tmp_path)


def test_undo_between_people(display: str, tmp_path: Path) -> None:
    """The table's policy: the other person saw the card played, so Undo is not offered
    (it would show them a card in the player's hand), and a tap changes nothing."""
    run("hot_seat_undo", display, tmp_path)


def test_a_plugins_layout_is_offered(display: str, tmp_path: Path) -> None:
    """Player counts and layouts on the start screen come from the registry's plugins."""
    run("plugin_layout", display, tmp_path)


def test_variants_from_plugins_in_the_app(display: str, tmp_path: Path) -> None:
    """Incompatible variants are greyed out in the chooser; Exchange is never offered in a
    game without it; a fourth team's style (colour, shape) comes from its plugin."""
    run("variant_plugins", display, tmp_path)


def test_a_variants_own_action_has_a_button(
    display: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Hook API 3: the capture of docs/examples/cinco-capture, installed with pip, is offered by
    a button once the card and the opponent's token are chosen, and tapping it captures."""
    site = install_examples(
        ["cinco-capture"],
        tmp_path_factory.mktemp("capture-source"),
        tmp_path_factory.mktemp("capture-site"),
    )
    run("capture", display, tmp_path, extra={"PYTHONPATH": with_site(site)["PYTHONPATH"]})


def test_resume_after_a_killed_app(display: str, tmp_path: Path) -> None:
    """The app dies mid-game; started again, Continue brings the game back and goes on."""
    run("resume_start", display, tmp_path)
    run("resume_continue", display, tmp_path)


def test_start_screen_sets_up_a_game(display: str, tmp_path: Path) -> None:
    """Six players as 3×2 with Joker (V1, V2), names and bots, all chosen by touch."""
    run("start_screen", display, tmp_path)


def test_replay_steps_through_a_game(display: str, tmp_path: Path) -> None:
    """Step through a finished game; Export puts copies of its record in Downloads."""
    downloads = tmp_path / "Downloads"
    run("replay", display, tmp_path, extra={"XDG_DOWNLOAD_DIR": str(downloads)})
    assert len(list(downloads.glob("*.jsonl"))) == 2


def test_replay_with_no_saved_game_offers_open_file(display: str, tmp_path: Path) -> None:
    """An empty autosave folder: "Replay a saved game" still opens the replay screen, which
    says there is nothing saved there and offers "Open file…" (Cancel changes nothing)."""
    run("replay_no_saves", display, tmp_path)


def test_open_a_record_from_another_folder(display: str, tmp_path: Path) -> None:
    """A record written outside the autosave folder (as by ``cinco --record``) is opened with
    the file chooser and shown at its last turn; a double tap opens one at once; an unfinished
    one is played on with "Continue this game", in its own file."""
    run("open_record_file", display, tmp_path)


def test_open_a_bad_file_says_why_and_the_app_goes_on(display: str, tmp_path: Path) -> None:
    """A corrupt record shows the record's own error (RecordError, with its line), as do a
    binary file, a folder and a missing file; then a good record opens and a game starts."""
    run("open_bad_files", display, tmp_path)


def test_screenshot_option_writes_a_png(display: str, tmp_path: Path) -> None:
    """``cinco --frontend kivy --screenshot FILE`` renders the configured game and exits."""
    target = tmp_path / "shot.png"
    env = {
        **os.environ,
        "DISPLAY": display,
        "CINCO_DATA_DIR": str(tmp_path),
        "KIVY_HOME": str(tmp_path / "kivy-home"),
    }
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "from cinco.frontends.main import main; main()",
            "--frontend",
            "kivy",
            "--players",
            "2",
            "--bot",
            "2=greedy",
            "--seed",
            "5",
            "--screenshot",
            str(target),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    data = target.read_bytes()
    assert data.startswith(b"\x89PNG"), "a PNG was written"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1280, 800)
    games = tmp_path / "games"
    assert not games.exists() or not any(games.iterdir()), "a screenshot leaves no autosave"


def test_the_language_switches_at_once_and_is_remembered(display: str, tmp_path: Path) -> None:
    """Čeština chosen on the start screen: every screen built again in Czech at once (no
    restart), the players chosen kept, the choice saved for the next start."""
    run("language", display, tmp_path)
    saved = json.loads((tmp_path / "app-settings.json").read_text(encoding="utf-8"))
    assert saved == {"language": "cs"}


def test_sounds_and_cues_over_a_whole_game(display: str, tmp_path: Path) -> None:
    """A knock per token, a chime when the bot has moved, a buzz for a refusal, a fanfare and
    the winning line drawn in at the end, through a real (silent) SDL audio device; the Sounds
    toggle mutes them and is remembered."""
    run("feel", display, tmp_path, extra={"SDL_AUDIODRIVER": "dummy"})
    assert json.loads((tmp_path / "app-settings.json").read_text(encoding="utf-8")) == {
        "muted": True
    }
