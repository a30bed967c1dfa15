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

from platformdirs import user_data_dir

from cinco.core.engine.events import GameEnded
from cinco.core.records.record import load_record

#: Set this to keep games somewhere else than the user's data directory (tests, portable use).
DATA_DIR_ENV = "CINCO_DATA_DIR"


def data_dir() -> Path:
    """Where Cinco keeps the user's files: ``$CINCO_DATA_DIR``, else the platform's user data
    directory for ``cinco``."""
    configured = os.environ.get(DATA_DIR_ENV)
    if configured:
        return Path(configured)
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


def saved_games(folder: Path | None = None, newest: int | None = None) -> list[Path]:
    """The records in *folder* (the saved games' folder), newest first; *newest*: only that
    many. A folder that is missing or cannot be read has none."""
    folder = games_dir() if folder is None else folder
    try:
        paths = [(path.stat().st_mtime, path) for path in folder.glob("*.jsonl") if path.is_file()]
    except OSError:
        return []
    ordered = [path for _mtime, path in sorted(paths, key=lambda item: item[0], reverse=True)]
    return ordered if newest is None else ordered[:newest]


def is_finished(path: Path) -> bool:
    """Whether the record at *path* holds a finished game (it has a ``GameEnded`` event).
    Raises :class:`~cinco.core.engine.errors.RecordError` for a file that is not a record."""
    return any(isinstance(event, GameEnded) for event in load_record(path).events)


def unfinished_games(folder: Path | None = None, newest: int = 20) -> list[Path]:
    """Saved games that are not over, newest first, among the *newest* records in *folder*
    (for a "Continue" button). Files that are not readable records are skipped: a bad file
    must never stop a frontend from starting. Only public facts are read (whether the game
    ended); no game is rebuilt.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = (Path(folder) / "junk.jsonl").write_text("not a record")
    ...     unfinished_games(Path(folder))
    []
    """
    found = []
    for path in saved_games(folder, newest):
        try:
            if not is_finished(path):
                found.append(path)
        except Exception:  # a damaged or foreign file: skip it, never crash
            continue
    return found
