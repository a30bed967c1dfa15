"""The replay screen: a saved game stepped through turn by turn, as a spectator saw it (from
the autosave folder, or any record file). Behaviour only (its layout is in ``cinco.kv``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from cinco.core.engine.errors import CincoError
from cinco.core.engine.events import SPECTATOR, Event, GameStarted
from cinco.core.engine.state import FREE, fold
from cinco.core.records.record import load_record
from cinco.core.words.i18n import _
from cinco.frontends.narration import Narrator

from . import device
from .board_screen import BoardScreen
from .chooser import OpenRecordPopup, start_folder
from .running import app
from .session import autosave_dir, record_label, saved_games, turn_boundaries


class ReplayScreen(BoardScreen):
    """Step through a saved game, turn by turn, as the referee saw it: one from the autosave
    folder, or any record file chosen with "Open file…"."""

    record_names = ListProperty([])
    record_name = StringProperty("")
    position = StringProperty("")
    move = StringProperty("")
    log = StringProperty("")
    step = NumericProperty(0)
    steps = NumericProperty(0)
    #: What to tell about the list or the file (no saved games, why a file cannot be read).
    message = StringProperty("")
    message_is_error = BooleanProperty(False)
    #: A game is loaded: the step buttons work.
    has_game = BooleanProperty(False)
    #: The game loaded is not over: it can be played on.
    can_continue = BooleanProperty(False)
    #: The record shown, and the folder the file chooser used last.
    current: Path | None = None
    last_folder: Path | None = None

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: The records listed, by label.
        self.paths: dict[str, Path] = {}

    def load_list(self, selected: Path | None = None) -> None:
        """List the autosave folder, newest first, with *selected* (a record from anywhere)
        at the top, and show *selected*, else the newest saved game."""
        folder = autosave_dir()
        paths = saved_games(folder, newest=40)  # none if it cannot be read: the picker works
        outside = None
        if selected is not None:
            selected = Path(selected).expanduser().absolute()
            same = [p for p in paths if p.absolute() == selected]
            if same:
                selected = same[0]
            else:
                paths.insert(0, selected)
                outside = selected
        labels = unique_labels(paths, outside)
        self.paths = {label: path for path, label in labels.items()}
        self.record_names = list(self.paths)
        self.current = None
        chosen = selected if selected is not None else (paths[0] if paths else None)
        if chosen is None:
            self.clear()
            self.record_name = ""
            self.message = _("No saved games in {folder} yet — open a record file.").format(
                folder=folder
            )
            self.message_is_error = False
            return
        if self.record_name == labels[chosen]:
            self.load(chosen)
        self.record_name = labels[chosen]

    def choose(self, name: str) -> None:
        path = self.paths.get(name)
        if path is not None:
            self.load(path)

    def clear(self) -> None:
        """Nothing loaded: an empty board and no steps."""
        self.events: list[Event] = []
        self.public: list[Event] = []
        self.bounds: list[int] = []
        self.lines: list[str] = []
        self.said: list[int] = []
        self.has_game = False
        self.can_continue = False
        self.steps = 0
        self.step = 0
        self.position = ""
        self.move = ""
        self.log = ""
        board = self.ids.board
        board.board = [FREE] * len(board.board)
        board.line = []
        board.last = 0

    def load(self, path: Path) -> None:
        self.current = path
        self.message = ""
        try:
            record = load_record(path)
            self.events = list(record.events)
            first = self.events[0]
            if not isinstance(first, GameStarted):  # load_record checks it; never crash
                raise CincoError(_("the first event must be game_started"))
            self.bounds = turn_boundaries(self.events)
            # Shown as a spectator saw it: the board and public moves, never a hand.
            self.public = [event.seen_by(SPECTATOR) for event in self.events]
            over = fold(self.public).is_over
        except Exception as exc:  # a damaged or foreign file: say why, never crash
            self.clear()
            reason = str(exc) if isinstance(exc, CincoError | OSError) else repr(exc)
            self.message = _("Cannot open {name}: {reason}").format(name=path.name, reason=reason)
            self.message_is_error = True
            return
        self.config = first.config
        narrator = Narrator(self.config, SPECTATOR)
        self.said = []  # how many log lines were said after each event
        for event in self.public:
            narrator.feed(event)
            self.said.append(len(narrator.lines))
        self.lines = [line.text for line in narrator.lines]
        # Worth telling, not an error: a last line cut short, a variant not installed here.
        self.message = " ".join(record.warnings)
        self.message_is_error = False
        self.has_game = True
        self.can_continue = not over
        self.steps = len(self.bounds) - 1
        self.step = -1
        self.go(self.steps)

    def export(self) -> None:
        """A copy of the record shown, where other apps can reach it (Downloads)."""
        if self.current is None:
            return
        try:
            where = device.export_record(self.current)
        except OSError as exc:
            self.message, self.message_is_error = (
                _("The record could not be exported: {error}").format(error=exc),
                True,
            )
            return
        self.message, self.message_is_error = _("Exported to {path}").format(path=where), False

    def open_file(self, path: Path) -> None:
        """Show the record at *path* (from the file chooser), remembering its folder."""
        self.last_folder = Path(path).expanduser().absolute().parent
        self.load_list(selected=path)

    def pick_file(self) -> None:
        """Open the file chooser, in the folder used last or the home folder."""
        popup = OpenRecordPopup(start_folder(self.last_folder), self.open_file)
        self.popup = popup
        popup.open()

    def continue_game(self) -> None:
        """Play on from the end of the game shown (it goes on in the same file)."""
        path = self.current
        if path is None or not self.can_continue:
            return
        try:
            app().resume(path)
        except (CincoError, OSError) as exc:
            self.message = _("Cannot continue {name}: {reason}").format(name=path.name, reason=exc)
            self.message_is_error = True

    def go(self, step: int) -> None:
        if not getattr(self, "events", None):
            return
        step = max(0, min(int(step), self.steps))
        if step == self.step:
            return
        self.step = step
        count = self.bounds[step]
        shown = fold(self.public[:count])
        board = self.ids.board
        board.board = list(shown.board)
        board.line = list(shown.result.line or ()) if shown.result else []
        board.last = shown.last_play.space if shown.last_play and shown.last_play.space else 0
        self.position = _("Turn {n} of {total}").format(n=step, total=self.steps)
        previous = self.bounds[step - 1] if step else 0
        before = self.said[previous - 1] if previous else 0
        upto = self.said[count - 1]
        self.move = "\n".join(self.lines[before:upto]) or _("The cards are dealt.")
        self.log = "\n".join(self.lines[:upto][-40:])
        self.ids.log_scroll.scroll_y = 0


def unique_labels(paths: list[Path], outside: Path | None = None) -> dict[Path, str]:
    """How each record is listed; a file from outside the autosave folder by its name, and
    two records that would read the same are told apart by a number."""
    labels: dict[Path, str] = {}
    seen: set[str] = set()
    for path in paths:
        label = record_label(path, by_name=path == outside)
        base, n = label, 2
        while label in seen:
            label = f"{base} ({n})"
            n += 1
        seen.add(label)
        labels[path] = label
    return labels
