"""A game being played in the terminal, and its record on disk.

Every event is written to the record as it happens (by :class:`RecordWriter`, which flushes each
line), so quitting, Ctrl-C or a killed process loses at most the move in progress. Resuming a
record drops a turn that was cut off halfway and continues from the last whole turn.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from platformdirs import user_data_dir

from cinco.core.events import SPECTATOR, Event, GameEnded, GameStarted, TurnEnded, Viewer
from cinco.core.game import Game
from cinco.core.i18n import _
from cinco.core.record import load_record
from cinco.core.registry import Registry
from cinco.core.state import HAND_LIMIT
from cinco.frontends.options import PlayOptions
from cinco.frontends.narration import Narrator
from cinco.plugins.record_writer import RecordWriter

#: Set this to keep games somewhere else than the user's data directory (tests do).
DATA_DIR_ENV = "CINCO_DATA_DIR"


def data_dir() -> Path:
    """Where Cinco keeps the user's games: ``$CINCO_DATA_DIR`` or the platform's data dir."""
    configured = os.environ.get(DATA_DIR_ENV)
    return Path(configured) if configured else Path(user_data_dir("cinco"))


def new_record_path(seed: int) -> Path:
    """A fresh file name in ``<data dir>/games`` for a game started now."""
    folder = data_dir() / "games"
    stamp = time.strftime("%Y-%m-%d-%H%M%S")
    path = folder / f"{stamp}-{seed}.jsonl"
    n = 2
    while path.exists():
        path = folder / f"{stamp}-{seed}-{n}.jsonl"
        n += 1
    return path


def setup_length(players: int) -> int:
    """Events before the first turn: game_started, the shuffle, and the deal (S1)."""
    return 2 + HAND_LIMIT * players


def whole_turns(events: Sequence[Event]) -> list[Event]:
    """*events* up to the end of the last whole turn: a turn cut off by a kill is dropped.

    A log that stops inside the deal is cut to its first event (the deal is replayed from the
    seed).
    """
    started = events[0] if events else None
    players = started.config.players if isinstance(started, GameStarted) else 0
    end = 0
    for index, event in enumerate(events):
        if isinstance(event, TurnEnded | GameEnded):
            end = index + 1
    if end == 0:
        start = setup_length(players)
        end = start if len(events) >= start else 1
    return list(events[:end])


def turn_starts(game: Game) -> list[tuple[int, int]]:
    """``(event count, seat)`` at the start of every turn so far, oldest first."""
    starts = [(setup_length(game.config.players), game.state.first_seat)]
    for index, event in enumerate(game.events):
        if isinstance(event, TurnEnded):
            starts.append((index + 1, event.next_seat))
    return starts


def _feeder(narrator: Narrator) -> Callable[[Event, Game], None]:
    def feed(event: Event, _game: Game) -> None:
        narrator.feed(event)

    return feed


class Session:
    """One terminal game: the :class:`Game`, its record, and a narrator per viewer.

    Narrators exist for every person at the table (each hears the stream as that seat sees
    it) and for a spectator (used when no single person owns the screen).
    """

    def __init__(
        self, game: Game, path: Path, writer: RecordWriter | None, header: dict[str, object]
    ) -> None:
        self.path = path
        self.header = header
        self.writer = writer
        self.game = game
        self.narrators: dict[Viewer, Narrator] = {}
        self._unsubscribe: list[Callable[[], None]] = []
        self._listen()

    # -- creating ----------------------------------------------------------------------------

    @classmethod
    def start(cls, registry: Registry, options: PlayOptions) -> Session:
        seed = options.seed if options.seed is not None else secrets.randbelow(2**31)
        config = options.config(registry, seed)
        path = options.record or new_record_path(seed)
        header: dict[str, object] = {"frontend": "cli"}
        writer = RecordWriter(path, **header)
        game = Game.new(config, registry=registry, plugins=[writer])
        return cls(game, path, writer, header)

    @classmethod
    def resume(
        cls, registry: Registry, source: Path, target: Path | None = None
    ) -> tuple[Session, list[str]]:
        """Continue the game recorded in *source*, writing on to *target* (default: the same
        file, rewritten atomically). Returns the session and warnings to show."""
        record = load_record(source)
        warnings = list(record.warnings)
        events = whole_turns(record.events)
        if len(events) < len(record.events):
            warnings.append(_("The last turn in the record was not finished; it was left out."))
        header = {k: v for k, v in record.header.items() if k not in ("format", "version", "cinco")}
        path = target or source
        if isinstance(events[-1], GameEnded):
            game = Game.from_events(events, registry=registry)
            return cls(game, path, None, header), warnings
        writer = RecordWriter(path, **header)
        started = events[0]
        if len(events) == 1 and isinstance(started, GameStarted):
            # Cut off inside the deal: deal again (it comes from the seed, so it is the same).
            game = Game.new(started.config, registry=registry, plugins=[writer])
        else:
            game = Game.from_events(events, registry=registry, plugins=[writer])
        return cls(game, path, writer, header), warnings

    # -- narrators ---------------------------------------------------------------------------

    def _listen(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []
        viewers: list[Viewer] = [*self.humans, SPECTATOR]
        self.narrators = {}
        for viewer in viewers:
            narrator = Narrator(self.game.config, viewer)
            for event in self.game.events_for(viewer):
                narrator.feed(event)
            self.narrators[viewer] = narrator
            self._unsubscribe.append(self.game.subscribe(_feeder(narrator), viewer))

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(i for i, seat in enumerate(self.game.config.seats) if not seat.is_bot)

    # -- undo --------------------------------------------------------------------------------

    def undo_target(self, seat: int) -> int | str:
        """The event count to rewind to so that *seat* plays its previous turn again, or a
        sentence saying why that cannot be done (nothing to undo; another person moved since,
        and undoing would take their move back too)."""
        now = len(self.game.events)
        earlier = [(count, who) for count, who in turn_starts(self.game) if count < now]
        mine = [count for count, who in earlier if who == seat]
        if not mine:
            return _("There is nothing to undo yet.")
        seats = self.game.config.seats
        for count, who in earlier:
            if count > mine[-1] and who != seat and not seats[who].is_bot:
                return _(
                    "{name} has moved since your last turn: undo would take that back too, "
                    "so it is not allowed."
                ).format(name=seats[who].name)
        return mine[-1]

    def rewind(self, count: int) -> None:
        """Go back to the state after *count* events; the record is rewritten to match."""
        if self.writer is not None:
            self.writer.close()
        self.writer = RecordWriter(self.path, **self.header)
        self.game = self.game.rewind(count, plugins=[self.writer])
        self._listen()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
