"""The code stays linted, formatted and type-checked (ruff, mypy --strict)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ["cinco", "core", "plugins", "frontends", "tests", "benchmarks"]


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[test]'")
    return found


def test_ruff_lint() -> None:
    result = subprocess.run(
        [_tool("ruff"), "check", *SOURCES], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = subprocess.run(
        [_tool("ruff"), "format", "--check", *SOURCES], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict(tmp_path: Path) -> None:
    """mypy cannot follow setuptools' editable-install mapping of ``core/`` onto
    ``cinco.core``, so it checks a tree of links laid out as the installed package."""
    package = tmp_path / "cinco"
    package.mkdir()
    for item in (ROOT / "cinco").iterdir():
        (package / item.name).symlink_to(item)
    for folder in ("core", "plugins", "frontends"):
        (package / folder).symlink_to(ROOT / folder, target_is_directory=True)
    result = subprocess.run(
        [
            _tool("mypy"),
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(tmp_path / ".mypy_cache"),
            "-p",
            "cinco",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
