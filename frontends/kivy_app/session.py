"""What happens at the table, without any Kivy: plain Python, tested without a display.

A :class:`TableSession` holds one :class:`~cinco.core.table.table.Table` and the seat handles of the
people at it (and a spectator's), and answers the questions a screen asks: whose cards may be
shown now, whether the tablet must be passed first, what the table says about Draw, Exchange
and Undo (asked of the table, never worked out here), and what happened so far in words (the
shared :class:`~cinco.frontends.narration.Narrator`, fed by each handle's stream). It never
sees the referee's game: only the handles' projected views. The table saves every event to
the game's record as it goes, so "Continue" finds it again.

>>> from cinco.core.engine.config import GameConfig, Seat
>>> config = GameConfig.for_players(2, seed=4, first_seat=0)
>>> session = TableSession.new(config, path=None)
>>> session.humans, session.needs_privacy(shown=None)
((0, 1), True)
>>> session.viewer()
0
>>> session.close()
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path

from cinco.core.engine.commands import Command, Draw, Exchange
from cinco.core.engine.config import GameConfig
from cinco.core.engine.events import (
    SPECTATOR,
    CardPlayed,
    Event,
    GameEnded,
    GameStarted,
    TurnEnded,
    Undone,
    Viewer,
)
from cinco.core.engine.legal import LegalActions
from cinco.core.engine.state import GameState
from cinco.core.host.registry import Registry
from cinco.core.records.record import load_record
from cinco.core.records.saves import (
    DATA_DIR_ENV,
    data_dir,
    games_dir,
    new_record_path,
    saved_games,
    unfinished_games,
)
from cinco.core.table.handle import SeatHandle
from cinco.core.table.log import turns
from cinco.core.table.protocol import Accepted, Envelope, Message, Refused
from cinco.core.table.requests import TableStatus
from cinco.core.table.table import Table
from cinco.core.words.i18n import _
from cinco.frontends.narration import LogLine, Narrator, describe_result

__all__ = [
    "DATA_DIR_ENV",
    "TableSession",
    "autosave_dir",
    "data_dir",
    "new_record_path",
    "record_label",
    "saved_games",
    "turn_boundaries",
    "unfinished_games",
]


def autosave_dir() -> Path:
    """The folder of saved games (shared with the terminal game)."""
    return games_dir()


def record_label(path: Path, by_name: bool = False) -> str:
    """How a saved game is listed: when (or, *by_name*, its file's name), who, and whether it
    is over.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     damaged = Path(folder) / "mine.jsonl"
    ...     _ = damaged.write_text("nonsense")
    ...     record_label(damaged, by_name=True)
    'mine.jsonl'
    """
    try:
        stamp = time.strftime("%d %b %H:%M", time.localtime(path.stat().st_mtime))
    except OSError:  # gone or unreadable: still listed, and opening it says why
        return path.name if by_name else path.stem
    first_part = path.name if by_name else stamp
    try:
        events = load_record(path).events
    except Exception:  # a damaged file is still listed, by name
        return path.name if by_name else f"{stamp} · {path.stem}"
    first = events[0]
    names = (
        ", ".join(seat.name for seat in first.config.seats)
        if isinstance(first, GameStarted)
        else "?"
    )
    over = any(isinstance(event, GameEnded) for event in events)
    status = _("finished") if over else _("unfinished")
    return f"{first_part} · {names} · {status}"


class TableSession:
    """One game at the table: its :class:`Table`, a handle for each person and one for a
    spectator, and a narrator for each of them. ``path`` is the record (``None``: not saved).
    """

    def __init__(self, table: Table, path: Path | None, registry: Registry | None = None):
        self.table = table
        self.path = path
        self.registry = registry
        #: The configuration everyone may see (no seed).
        self.config: GameConfig = table.config
        #: Things worth telling about a resumed record (a cut-off last turn, ...).
        self.warnings: list[str] = list(table.warnings)
        self.public = table.spectator()
        self.seats: dict[int, SeatHandle] = {seat: table.seat(seat) for seat in table.humans}
        #: The public events so far (as a spectator sees them), from the spectator's stream.
        self.events: list[Event] = []
        self.narrators: dict[Viewer, Narrator] = {}
        self._landed: int | None = None
        self._fresh = False
        for viewer, handle in ((SPECTATOR, self.public), *self.seats.items()):
            self.narrators[viewer] = Narrator.following(handle, self.config, viewer)
        self.events = [envelope.event for envelope in self.public.events()]
        self.public.listen(self._heard)

    # -- creating -----------------------------------------------------------------------------

    @classmethod
    def new(
        cls, config: GameConfig, path: Path | None, registry: Registry | None = None
    ) -> TableSession:
        """A new table for *config*, recorded in *path* (a new file; ``None``: not saved)."""
        table = Table.create(config, registry=registry, record=path, frontend="kivy")
        return cls(table, path, registry)

    @classmethod
    def resume(
        cls, path: Path, registry: Registry | None = None, *, record: bool = True
    ) -> TableSession:
        """Continue the game saved in *path*, in that file (*record* false: only read it).
        Raises :class:`RecordError` with the reason."""
        table = Table.resume(Path(path), registry=registry, record=record)
        return cls(table, Path(path) if record else None, registry)

    def rematch(self, folder: Path | None = None) -> TableSession:
        """A new game at the same table: a new shuffle (from the operating system), the first
        seat drawn again, a new record beside the last one."""
        config = replace(self.config, first_seat=None)
        path = None
        if self.path is not None:
            path = new_record_path(folder or self.path.parent)
        return TableSession.new(config, path, registry=self.registry)

    def close(self) -> None:
        self.table.close()

    # -- the stream ---------------------------------------------------------------------------

    def _heard(self, message: Message) -> None:
        if not isinstance(message, Envelope):
            return
        event = message.event
        self.events.append(event)
        self._fresh = True
        if isinstance(event, CardPlayed) and event.space is not None:
            self._landed = event.space
        elif isinstance(event, Undone):
            self._landed = None

    def pump(self) -> bool:
        """Take in what every handle's stream brought; whether any new event came."""
        for handle in (self.public, *self.seats.values()):
            handle.pump()
        fresh, self._fresh = self._fresh, False
        return fresh

    def take_landed(self) -> int | None:
        """The space the last token went on since this was last asked (for the animation)."""
        landed, self._landed = self._landed, None
        return landed

    # A local table answers every request at once: nothing comes later, no connection, no
    # clocks (see :class:`~.game_session.GameSession`).
    def take_problem(self) -> str | None:
        return None

    def banner(self) -> str:
        return ""

    def clock(self, seat: int) -> str:
        return ""

    def status(self) -> TableStatus:
        return self.table.status()

    # -- who sees what ------------------------------------------------------------------------

    @property
    def humans(self) -> tuple[int, ...]:
        return self.table.humans

    @property
    def public_view(self) -> GameState:
        """The game as everyone may see it."""
        return self.public.view

    @property
    def is_over(self) -> bool:
        return self.public.view.is_over

    @property
    def to_move(self) -> int:
        return self.public.view.current_seat

    @property
    def bot_to_move(self) -> bool:
        return not self.is_over and self.config.seats[self.to_move].is_bot

    @property
    def event_count(self) -> int:
        """How many events the game's log holds (undone ones included)."""
        return self.public.seq + 1

    def viewer(self) -> Viewer:
        """Whose cards the screen may show now (S2): the person to move; with a single person
        at the table, always them; otherwise nobody (a spectator's view)."""
        humans = self.humans
        if not self.is_over and self.to_move in humans:
            return self.to_move
        if len(humans) == 1:
            return humans[0]
        return SPECTATOR

    def needs_privacy(self, shown: Viewer) -> bool:
        """Whether the tablet must be passed before the hand of the person to move is shown:
        another person's cards were on screen last (or none were), and several people play."""
        viewer = self.viewer()
        return len(self.humans) > 1 and viewer is not SPECTATOR and viewer != shown

    def handle(self, viewer: Viewer) -> SeatHandle:
        """The handle of *viewer*: a person's seat, else the spectator's."""
        if viewer is not None and viewer in self.seats:
            return self.seats[viewer]
        return self.public

    def view(self) -> GameState:
        """The game as the viewer of the moment (:meth:`viewer`) sees it."""
        return self.handle(self.viewer()).view

    def legal(self) -> LegalActions:
        """What the person to move may do (nothing while a bot moves or once it is over)."""
        seat = self.to_move
        handle = self.seats.get(seat)
        if handle is None or self.is_over:
            return LegalActions(seat, (), False, False)
        return handle.legal()

    def refusal(self, command: Command) -> str | None:
        """The table's reason for refusing *command* now, or ``None`` if it is allowed (a dry
        run: nothing changes)."""
        handle = self.seats.get(command.seat)
        if handle is None:
            return Refused("not_seated").message
        refused = handle.check(command)
        return None if refused is None else refused.message

    def draw_refusal(self) -> str | None:
        return self.refusal(Draw(self.to_move))

    def exchange_refusal(self) -> str | None:
        return self.refusal(Exchange(self.to_move))

    # -- acting -------------------------------------------------------------------------------

    def submit(self, command: Command) -> Refused | None:
        """Carry out a person's command: ``None`` when accepted, else the refusal."""
        handle = self.seats.get(command.seat)
        if handle is None:
            return Refused("not_seated")
        answer = handle.submit(command)
        self.pump()
        return answer if isinstance(answer, Refused) else None

    def start_bot_turn(self) -> Future[Accepted | Refused]:
        """Let the bot to move play, in the table's own thread: the answer comes in the
        future, the events in the streams (:meth:`pump` takes them in)."""
        return self.table.start_bot_turn()

    def play_bot_turn(self) -> Refused | None:
        """Let the bot to move play, waiting for it."""
        answer = self.table.play_bot_turn()
        self.pump()
        return answer if isinstance(answer, Refused) else None

    def undo_seat(self) -> int | None:
        """Whose move Undo would take back: the one person at the table, or else the person
        who moved last (the table decides whether they may)."""
        if len(self.humans) == 1:
            return self.humans[0]
        for turn in reversed(turns(self.events)):
            if turn.seat in self.seats:
                return turn.seat
        return None

    def undo_refusal(self) -> str | None:
        """Why Undo is not possible now (the table's policy, in its words), or ``None``."""
        seat = self.undo_seat()
        if seat is None:
            return Refused("nothing_to_undo").message
        refused = self.seats[seat].undo_refusal()
        return None if refused is None else refused.message

    @property
    def can_undo(self) -> bool:
        return self.undo_refusal() is None

    def undo(self) -> Refused | None:
        """Take back the last move of :meth:`undo_seat` (and the bots' replies since)."""
        seat = self.undo_seat()
        if seat is None:
            return Refused("nothing_to_undo")
        answer = self.seats[seat].undo()
        self.pump()
        self._landed = None
        return answer if isinstance(answer, Refused) else None

    # -- telling ------------------------------------------------------------------------------

    def log(self, limit: int | None = None, viewer: Viewer | str = "now") -> list[str]:
        """The move log as *viewer* is told it (by default the viewer of the moment; a
        spectator's is public information only), oldest first."""
        who = self.viewer() if viewer == "now" else viewer
        narrator = self.narrators.get(who if isinstance(who, int) else SPECTATOR)
        lines: list[LogLine] = narrator.lines if narrator is not None else []
        texts = [line.text for line in lines]
        return texts if limit is None else texts[-limit:]

    def result(self) -> str | None:
        result = self.public.view.result
        return None if result is None else describe_result(self.config, result)


def turn_boundaries(events: Sequence[Event]) -> list[int]:
    """Event counts after which a turn is complete, for stepping through a record:
    the deal first, then the end of every turn (and every undo)."""
    counts: list[int] = []
    first = events[0] if events else None
    dealt = (
        2 + first.config.params.deal * first.config.players if isinstance(first, GameStarted) else 0
    )
    for count, event in enumerate(events, start=1):
        if isinstance(event, TurnEnded | GameEnded | Undone) or count == dealt:
            counts.append(count)
    return counts
