"""The app's own settings (its language, sounds and animations on or off), in
``app-settings.json`` in Cinco's data folder (on Android, the app's own storage). A missing or
damaged file is the defaults; writing goes through a temporary file, so a crash never leaves
half a file.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> read(folder)
{}
>>> write({"muted": True}, folder); write({"language": "it"}, folder)
>>> read(folder) == {"muted": True, "language": "it"}
True
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cinco.core.records.saves import data_dir

FILE = "app-settings.json"


def path(folder: Path | None = None) -> Path:
    return (folder or data_dir()) / FILE


def read(folder: Path | None = None) -> dict[str, Any]:
    try:
        data = json.loads(path(folder).read_text(encoding="utf-8"))
    except (OSError, ValueError):  # none yet, or a damaged file: the defaults
        return {}
    return data if isinstance(data, dict) else {}


def write(changes: Mapping[str, Any], folder: Path | None = None) -> None:
    """Change the settings in *changes*, keeping the others."""
    target = path(folder)
    data = {**read(folder), **changes}
    with contextlib.suppress(OSError):  # a read-only disk costs the setting, not the game
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".partial")
        partial.write_text(json.dumps(data), encoding="utf-8")
        os.replace(partial, target)
