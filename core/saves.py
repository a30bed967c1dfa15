"""Where games are saved: one folder for every frontend, and file names that give nothing away.

A saved game's name says when it was started and nothing more: never its seed, which fixes
every shuffle (S2).

>>> import os, tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     os.environ[DATA_DIR_ENV] = folder
...     path = new_record_path()
...     path.parent == games_dir(), path.suffix
(True, '.jsonl')
"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

#: Set this to keep games somewhere else than the user's data directory (tests, portable use).
DATA_DIR_ENV = "CINCO_DATA_DIR"


def data_dir() -> Path:
    """Where Cinco keeps the user's files: ``$CINCO_DATA_DIR``, else the platform's user data
    directory for ``cinco``."""
    configured = os.environ.get(DATA_DIR_ENV)
    if configured:
        return Path(configured)
    from platformdirs import user_data_dir

    return Path(user_data_dir("cinco"))


def games_dir() -> Path:
    """The folder of saved games (autosaves of every frontend)."""
    return data_dir() / "games"


def new_record_path(folder: Path | None = None) -> Path:
    """A fresh file name for a game started now: the date and time, and a few random letters
    so that two games started in the same second get two files."""
    folder = games_dir() if folder is None else folder
    stamp = time.strftime("%Y-%m-%d-%H%M%S")
    while True:
        path = folder / f"{stamp}-{secrets.token_hex(2)}.jsonl"
        if not path.exists():
            return path
