"""The "Open file…" popup: choose a game record anywhere on the device (layout in ``cinco.kv``).

It lists folders and ``*.jsonl`` files, starting in the folder used last (or the home folder).
A tap chooses a file and **Open** opens it; a double tap opens it at once. What the file holds
is checked by whoever receives it (the replay screen reads it with ``load_record``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.properties import StringProperty
from kivy.uix.popup import Popup

from .session import autosave_dir


def start_folder(last: Path | None) -> Path:
    """Where the chooser opens: the folder used last if it is still there, else the home
    folder, else the autosave folder, else the current folder."""
    for folder in (last, Path.home(), autosave_dir()):
        if folder is not None and folder.is_dir():
            return folder
    return Path.cwd()


class OpenRecordPopup(Popup):  # type: ignore[misc]
    """A file chooser for game records, with Cancel and Open."""

    #: The folder shown (the file chooser's path).
    folder = StringProperty("")

    def __init__(self, start: Path, on_open: Callable[[Path], None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.opener = on_open
        self.folder = str(start)
        self.ids.chooser.path = str(start)

    def go_to(self, folder: Path) -> None:
        """Jump to *folder* (the Home and Saved games buttons)."""
        if folder.is_dir():
            self.ids.chooser.selection = []
            self.ids.chooser.path = str(folder)

    def home(self) -> None:
        self.go_to(Path.home())

    def saved_games(self) -> None:
        self.go_to(autosave_dir())

    def open_selected(self, selection: list[str] | None = None) -> None:
        """Open the chosen file (Open, or a double tap, which passes the selection)."""
        chosen = list(selection if selection is not None else self.ids.chooser.selection)
        if not chosen:
            return
        path = Path(chosen[0])
        if path.is_dir():  # a folder named like a record: go into it rather than fail
            self.go_to(path)
            return
        self.dismiss()
        self.opener(path)
