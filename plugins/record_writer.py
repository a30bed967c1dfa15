"""The game-record writer: appends each event to a JSON Lines record as it happens.

Each line is flushed as soon as it is written, so a killed process loses at most the event it
was writing. Register one per game::

    game = Game.new(config, plugins=[RecordWriter("game.jsonl")])
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from cinco.core.events import Event
from cinco.core.hookspecs import hookimpl
from cinco.core.record import dumps, header

if TYPE_CHECKING:
    from cinco.core.game import Game


class RecordWriter:
    """Writes one game's record to *path*.

    A new game's events arrive through ``cinco_event``. A game rebuilt from a record (resume)
    calls ``cinco_game_started`` with its events already in place: the writer then rewrites the
    record from them, atomically, and goes on appending.
    """

    def __init__(self, path: str | Path, **header_fields: Any) -> None:
        self.path = Path(path)
        self.header_fields = header_fields
        self._file: IO[str] | None = None

    def _open(self) -> IO[str]:
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("w", encoding="utf-8")
            self._write_line(json.dumps(header(**self.header_fields)))
        elif self._file.closed:
            self._file = self.path.open("a", encoding="utf-8")
        return self._file

    def _write_line(self, line: str) -> None:
        assert self._file is not None
        self._file.write(line + "\n")
        self._file.flush()

    @hookimpl
    def cinco_game_started(self, game: Game) -> None:
        if self._file is not None:
            return  # a new game: its opening events are already written
        # Rebuilt from events: write them all to a fresh file, then swap it in.
        temporary = self.path.with_name(self.path.name + ".tmp")
        temporary.parent.mkdir(parents=True, exist_ok=True)
        with temporary.open("w", encoding="utf-8") as out:
            out.write(json.dumps(header(**self.header_fields)) + "\n")
            for event in game.events:
                out.write(dumps(event) + "\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, self.path)
        self._file = self.path.open("a", encoding="utf-8")

    @hookimpl
    def cinco_event(self, game: Game, event: Event) -> None:
        self._open()
        self._write_line(dumps(event))

    @hookimpl
    def cinco_game_ended(self, game: Game) -> None:
        self.close()

    def close(self) -> None:
        if self._file is not None and not self._file.closed:
            self._file.close()
