"""Every way Cinco is installed runs its own entry points, in a clean virtual environment.

Each profile is a fresh ``python -m venv`` (no system site packages, no pip of its own: this
environment's pip installs into it with ``--python``) holding exactly what the profile brings:

- base (``pip install cinco``): a bot-only game in the terminal, and ``cinco simulate``;
- ``[kivy]``: the app's ``--screenshot`` under Xvfb;
- ``[server]``: ``cinco serve`` on 127.0.0.1 and a ``cinco join --bot`` client that plays a
  whole game against a server-side bot;
- buildozer.spec's ``requirements`` with ``android/prepare.py``'s layout, filtered by
  ``source.include_exts`` as buildozer packs it: ``android/main.py`` runs, shows the start
  screen and keeps running for a few seconds under Xvfb.

A dependency missing from a profile fails its test (issue 22: the app did not start from
``pip install '.[kivy]'`` because websockets was only in the test extra). Quick with pip's
cache warm: the project is built into one wheel per session (pure Python,
``CINCO_PURE_PYTHON=1``: the compiled kernel is tested by test_kernel_compiled.py), from a
copy of the source, so the shared tree is never written to.
"""

from __future__ import annotations

import configparser
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: What building the project needs from the checkout (tests, docs and caches are left out).
SOURCES = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "buildozer.spec")
PACKAGES = ("cinco", "core", "plugins", "frontends", "android")
IGNORE = shutil.ignore_patterns(
    "__pycache__", "*.pyc", "*.so", "*.pyd", "compiled.sha256", "*.egg-info"
)

#: The bots' kernel is not compiled for these installs (quicker; test_kernel_compiled.py).
PURE = {"CINCO_PURE_PYTHON": "1"}
#: python-for-android's requirement names that are not PyPI packages for Linux, and why.
ANDROID_ONLY = {
    "python3": "the interpreter itself (p4a's recipe builds CPython for Android)",
    "pyjnius": "Java's classes from Python: it needs Android's JVM (device.py uses it there only)",
    "android": "p4a's own module of Android calls (imported only when platform == 'android')",
}
#: Requirements that p4a builds from a recipe, which brings the recipe's own Python
#: dependencies (kivy's: requests, filetype…); the others are installed exactly as listed.
RECIPES = {"kivy"}


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project built once, as a wheel, from a clean copy of the checkout."""
    work = tmp_path_factory.mktemp("build")
    source = work / "source"
    source.mkdir()
    for name in SOURCES:
        shutil.copy2(ROOT / name, source / name)
    for name in PACKAGES:
        shutil.copytree(ROOT / name, source / name, ignore=IGNORE)
    shutil.rmtree(source / "android" / "cinco", ignore_errors=True)
    out = work / "wheel"
    built = pip(
        "wheel", "--no-deps", "--no-build-isolation", "--wheel-dir", str(out), str(source),
        env=PURE,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout + built.stderr
    (found,) = out.glob("cinco-*.whl")
    return found


@pytest.fixture(scope="session")
def wheelhouse(wheel: Path) -> Path:
    """Every profile's distributions, fetched in one go (from pip's cache when it is warm):
    the profiles then install from here alone (``--no-index``), each only what it asks for."""
    house = wheel.parent.parent / "wheelhouse"
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    wanted = [f"cinco[kivy,server] @ {wheel.as_uri()}", *build] + [
        name for name in buildozer_requirements() if name.split("==")[0] not in ANDROID_ONLY
    ]
    fetched = pip("download", "--quiet", "--dest", str(house), *wanted)
    assert fetched.returncode == 0, fetched.stdout + fetched.stderr
    return house


def pip(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """This environment's pip (its cache and configuration: the wheels are reused)."""
    return subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **(env or {})},
        check=False,
    )


def venv(folder: Path) -> Path:
    """A clean virtual environment (no system site packages); its python."""
    made = subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    python = folder / "bin" / "python"
    assert python.exists()
    return python


def install(
    python: Path,
    house: Path,
    *requirements: str,
    no_deps: bool = False,
    env: dict[str, str] | None = None,
) -> None:
    # --no-compile: byte-compiling Kivy's files is most of an install's time.
    args = ["--python", str(python), "install", "--no-input", "--quiet", "--no-compile"]
    args += ["--no-index", "--find-links", str(house)]
    done = pip(*args, *(["--no-deps"] if no_deps else []), *requirements, env=env)
    assert done.returncode == 0, f"pip install {requirements}:\n{done.stdout}\n{done.stderr}"


def profile(tmp_path: Path, house: Path, extra: str = "") -> Path:
    """A venv holding cinco (the wheel in *house*) with *extra*; its ``bin`` folder."""
    python = venv(tmp_path / "venv")
    (wheel,) = house.glob("cinco-*.whl")
    install(python, house, f"cinco{extra} @ {wheel.as_uri()}")
    return python.parent


def importable(python: Path, module: str) -> bool:
    found = subprocess.run(
        [str(python), "-c", f"import importlib.util as u; print(u.find_spec({module!r}))"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        cwd=python.parent,  # not the checkout, whose cinco/ folder is importable from there
    )
    return found.stdout.strip() != "None"


def clean_env(data: Path, display: str | None = None) -> dict[str, str]:
    """The environment a new user's shell gives: none of this venv's paths; Cinco's and
    Kivy's files in *data*."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")
    }
    (data / "kivy-home").mkdir(parents=True, exist_ok=True)
    env.update(CINCO_DATA_DIR=str(data), KIVY_HOME=str(data / "kivy-home"), CINCO_LANG="en")
    if display is not None:
        env["DISPLAY"] = display
    return env


def run(
    command: list[str], env: dict[str, str], cwd: Path, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd, check=False
    )


# -- the profiles -----------------------------------------------------------------------------


def test_base_install_plays_a_bot_game_in_the_terminal(tmp_path: Path, wheelhouse: Path) -> None:
    bin_ = profile(tmp_path, wheelhouse)
    python = bin_ / "python"
    for extra in ("kivy", "websockets", "starlette", "uvicorn"):
        assert not importable(python, extra), f"{extra} is not in the base install"
    env = clean_env(tmp_path / "data")
    record = tmp_path / "game.jsonl"
    game = run(
        [str(bin_ / "cinco"), "--bot", "1=random", "--bot", "2=greedy", "--delay", "0",
         "--seed", "3", "--record", str(record)],
        env, tmp_path,
    )  # fmt: skip
    assert game.returncode == 0, game.stdout + game.stderr
    assert re.search(r"wins|draw", game.stdout), game.stdout
    replayed = run([str(bin_ / "cinco"), "replay", str(record), "--json"], env, tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["result"] in ("win", "draw"), "the game was played out"
    simulated = run(
        [str(bin_ / "cinco"), "simulate", "--bots", "random,greedy", "-n", "3", "--json"],
        env,
        tmp_path,
    )
    assert simulated.returncode == 0 and '"games": 3' in simulated.stdout, simulated.stderr


@pytest.mark.parametrize("how", ["wheel", "editable"])
def test_kivy_install_starts_the_app(
    tmp_path: Path, wheelhouse: Path, display: str, how: str
) -> None:
    """``pip install '.[kivy]'`` (the wheel: its package data, the .kv files, must be there)
    and the README's ``pip install -e '.[kivy]'`` (built in isolation, as a new user's is)."""
    if how == "wheel":
        bin_ = profile(tmp_path, wheelhouse, "[kivy]")
    else:
        python = venv(tmp_path / "venv")
        source = wheelhouse.parent / "source"
        install(python, wheelhouse, "--editable", f"{source}[kivy]", env=PURE)
        bin_ = python.parent
    assert not importable(bin_ / "python", "starlette"), "the server is not in [kivy]"
    shot = tmp_path / "start.png"
    env = clean_env(tmp_path / "data", display)
    started = run([str(bin_ / "cinco"), "--frontend", "kivy", "--screenshot", str(shot)], env,
                  tmp_path)  # fmt: skip
    assert started.returncode == 0, f"the app did not start:\n{started.stdout}\n{started.stderr}"
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", "the start screen was saved"
    # The online screen's client (imported lazily) is there too.
    client = run([str(bin_ / "python"), "-c", "import cinco.frontends.net.client"], env, tmp_path)
    assert client.returncode == 0, client.stderr


def test_server_install_serves_a_game_to_a_bot_client(tmp_path: Path, wheelhouse: Path) -> None:
    bin_ = profile(tmp_path, wheelhouse, "[server]")
    assert not importable(bin_ / "python", "kivy"), "Kivy is not in [server]"
    env = clean_env(tmp_path / "data")
    cinco = str(bin_ / "cinco")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [cinco, "serve", "--host", "127.0.0.1", "--port", str(port), "--bot-delay", "0",
             "--db", str(tmp_path / "server.db")],
            stdout=out, stderr=subprocess.STDOUT, env=env, cwd=tmp_path,
        )  # fmt: skip
    try:
        wait_for_lobby(url, server, log)
        created = run(
            [cinco, "table", "create", "--server", url, "--players", "2", "--bot", "2=greedy",
             "--json"],
            env, tmp_path, timeout=60,
        )  # fmt: skip
        assert created.returncode == 0, created.stderr
        code = re.search(r'"code": "([^"]+)"', created.stdout)
        assert code is not None, created.stdout
        joined = run(
            [cinco, "join", url, code.group(1), "--bot", "greedy", "--name", "Gus", "--wait",
             "30"],
            env, tmp_path, timeout=120,
        )  # fmt: skip
        assert joined.returncode == 0, joined.stdout + joined.stderr
        assert re.search(r"wins|draw", joined.stdout), joined.stdout
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_android_requirements_run_android_main(
    tmp_path: Path, wheelhouse: Path, display: str
) -> None:
    requirements = buildozer_requirements()
    assert set(ANDROID_ONLY) <= set(requirements), "the spec still names them"
    python = venv(tmp_path / "venv")
    wanted = [name for name in requirements if name.split("==")[0] not in ANDROID_ONLY]
    recipes = [name for name in wanted if name.split("==")[0] in RECIPES]
    install(python, wheelhouse, *recipes)
    install(python, wheelhouse, *(name for name in wanted if name not in recipes), no_deps=True)
    app = android_app(tmp_path / "app")
    env = clean_env(tmp_path / "data", display)
    # Buildozer's layout has no installed cinco: only main.py's folder on the path.
    assert not importable(python, "cinco"), "cinco comes from the app folder only"
    ran = run([str(python), "-c", WATCH_MAIN], env, app, timeout=240)
    assert ran.returncode == 0, f"android/main.py died:\n{ran.stdout}\n{ran.stderr}"
    assert "start screen shown" in ran.stdout, ran.stdout + ran.stderr


#: Runs android/main.py as python-for-android does (``__main__``, its folder first on the
#: path); once the start screen is shown, lets the app run SECONDS more, then closes it (or
#: closes the window that says the app could not start: main.py then exits with status 1).
WATCH_MAIN = """
import runpy, sys, time
sys.path.insert(0, '.')
from cinco.frontends.kivy_app import prepare_environment
prepare_environment()
from kivy.app import App
from kivy.clock import Clock
SECONDS = 4.0
seen = []
def watch(_dt):
    app = App.get_running_app()
    if type(app).__name__ == 'FailureApp':  # it could not start, and says why: close that
        print('failure screen shown', flush=True)
        app.stop()
        return False
    manager = getattr(app, 'manager', None)
    if manager is None or manager.current != 'start':
        return True
    if not seen:
        seen.append(time.monotonic())
        print('start screen shown', flush=True)
    if time.monotonic() - seen[0] < SECONDS:
        return True
    app.stop()
    return False
Clock.schedule_interval(watch, 0.1)
runpy.run_path('main.py', run_name='__main__')
"""


# -- buildozer --------------------------------------------------------------------------------


def buildozer_spec() -> configparser.ConfigParser:
    spec = configparser.ConfigParser(interpolation=None)
    spec.read(ROOT / "buildozer.spec", encoding="utf-8")
    return spec


def buildozer_requirements() -> list[str]:
    """``[app] requirements``, as PyPI requirement strings (p4a spells ``==`` the same)."""
    return [name.strip() for name in buildozer_spec()["app"]["requirements"].split(",")]


def android_app(target: Path) -> Path:
    """What buildozer packs: ``android/`` after prepare.py (in a copy of the checkout),
    keeping only ``source.include_exts`` and leaving out ``source.exclude_dirs``."""
    app = buildozer_spec()["app"]
    keep = {ext.strip() for ext in app["source.include_exts"].split(",")}
    skip = {name.strip() for name in app.get("source.exclude_dirs", "").split(",") if name}
    checkout = target.parent / "checkout"
    for name in PACKAGES:
        shutil.copytree(ROOT / name, checkout / name, ignore=IGNORE)
    shutil.rmtree(checkout / "android" / "cinco", ignore_errors=True)
    prepared = subprocess.run(
        [sys.executable, str(checkout / "android" / "prepare.py")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert prepared.returncode == 0, prepared.stderr
    source = checkout / "android"
    for path in source.rglob("*"):
        relative = path.relative_to(source)
        if path.is_dir() or skip & set(relative.parts[:-1]):
            continue
        if path.suffix.lstrip(".") in keep:
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target / relative)
    for picture in ("icon.filename", "presplash.filename"):
        named = app[picture].replace("%(source.dir)s", str(target))
        assert Path(named).is_file(), f"{picture} names {named}, which is not packed"
    return target


# -- helpers ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for_lobby(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert server.poll() is None, f"cinco serve stopped:\n{log.read_text()}"
        try:
            with urllib.request.urlopen(f"{url}/api/tables", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"the lobby did not answer:\n{log.read_text()}")
