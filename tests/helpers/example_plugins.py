"""The example plugin distributions of docs/examples, installed with pip into a throwaway
folder that the commands of a test find on ``PYTHONPATH`` (the test environment itself is never
changed): tests/core/host/test_plugins_examples.py, tests/frontends/net/
test_declared_actions_online.py, tests/frontends/web/test_browser_actions.py.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The folder of the example distributions (``cinco-capture``, ``cinco-lucky7``, ...).
EXAMPLES = ROOT / "docs" / "examples"


def pip_install(sources: Sequence[Path], target: Path) -> None:
    """Install *sources* into *target*: offline first (setuptools from this environment), then
    with pip's usual isolated build (which fetches setuptools from PyPI)."""
    base = [
        *(sys.executable, "-m", "pip", "install", "--no-deps", "--quiet"),
        *("--disable-pip-version-check", "--no-input", "--target", str(target)),
    ]
    offline = subprocess.run(
        [*base, "--no-build-isolation", *map(str, sources)], capture_output=True, text=True
    )
    if offline.returncode == 0:
        return
    isolated = subprocess.run([*base, *map(str, sources)], capture_output=True, text=True)
    assert isolated.returncode == 0, offline.stderr + isolated.stderr


def install_examples(names: Iterable[str], sources: Path, target: Path) -> Path:
    """Install the examples *names* (``"cinco-capture"``) into *target*, built from copies made
    in *sources*: pip builds in place and would leave build/ and *.egg-info behind. Returns
    *target*."""
    copies = []
    for name in names:
        copy = sources / name
        shutil.copytree(
            EXAMPLES / name,
            copy,
            ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"),
        )
        copies.append(copy)
    pip_install(copies, target)
    return target


def with_site(*sites: Path) -> dict[str, str]:
    """This process's environment with *sites* first on ``PYTHONPATH``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*map(str, sites), *filter(None, [env.get("PYTHONPATH")])])
    return env


def module_plugin(site: Path, name: str, source: str) -> dict[str, str]:
    """A plugin of one module, ``cinco_NAME.py`` holding *source*, installed in *site* as pip
    leaves a distribution (``cinco-NAME`` 1.0, its entry point in the ``cinco`` group); returns
    this process's environment with *site* first on ``PYTHONPATH``."""
    site.mkdir(parents=True, exist_ok=True)
    module = f"cinco_{name}"
    (site / f"{module}.py").write_text(source)
    info = site / f"{module}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: cinco-{name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[cinco]\n{name} = {module}\n")
    return with_site(site)


#: The ``cinco`` command of this environment.
CINCO = Path(sys.executable).parent / "cinco"


def run_cinco(env: dict[str, str], *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    """``cinco ARGS`` in *env*, to its end (at most 5 minutes, no input); its exit status must
    be *code*."""
    result = subprocess.run(
        [str(CINCO), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == code, result.stdout + result.stderr
    return result
