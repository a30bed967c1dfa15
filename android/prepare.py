"""Lay out the ``cinco`` package in ``android/`` for buildozer, as it is installed.

The repository maps ``core/``, ``plugins/`` and ``frontends/`` onto ``cinco.core``,
``cinco.plugins`` and ``cinco.frontends``; python-for-android packages a plain folder, so this
copies them into ``android/cinco/`` (run it before every ``buildozer android debug``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = Path(__file__).resolve().parent / "cinco"
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")


def main() -> None:
    if TARGET.exists():
        shutil.rmtree(TARGET)
    shutil.copytree(ROOT / "cinco", TARGET, ignore=IGNORE)
    for folder in ("core", "plugins", "frontends"):
        shutil.copytree(ROOT / folder, TARGET / folder, ignore=IGNORE)
    print(f"cinco package laid out in {TARGET}")


if __name__ == "__main__":
    main()
