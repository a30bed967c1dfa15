"""The import contracts hold (pyproject.toml, ``[tool.importlinter]``): no import cycles; core is
layered, each folder importing only those below it (the engine pure, the tools on top); core
imports neither the plugins nor the frontends; the plugins never import the frontends; the
frontends are layered.

import-linter finds a package's modules in the package's folder, but this repository's folders
are mapped onto ``cinco`` (``core/`` is ``cinco.core``: package-dir in pyproject.toml), so an
installed ``cinco`` shows it none of them. The test lays the package out as it is imported, a
folder ``cinco`` of links to the source folders, and runs ``lint-imports`` from beside it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lay_out(where: Path) -> Path:
    """A folder ``cinco`` in *where* holding the package as it is imported: the files of
    ``cinco/`` and a link to the folder of each sub-package mapped in package-dir."""
    mapping: dict[str, str] = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]["package-dir"]
    package = where / "cinco"
    package.mkdir()
    for path in (ROOT / mapping["cinco"]).iterdir():
        (package / path.name).symlink_to(path)
    for name, folder in mapping.items():
        if name != "cinco":
            (package / name.removeprefix("cinco.")).symlink_to(ROOT / folder)
    return package


def test_the_import_contracts_hold(tmp_path: Path) -> None:
    assert LINT_IMPORTS.exists(), "import-linter is in the test extra: pip install -e '.[test]'"
    lay_out(tmp_path)
    # From tmp_path, and with it first on the path: the laid-out package, not the source's
    # cinco/ (which lint-imports would find in the current folder) nor the editable install.
    env = os.environ | {"PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [str(LINT_IMPORTS), str(PYPROJECT), "--no-cache", "--no-logo"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
