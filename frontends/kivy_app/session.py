"""What happens at the table, without any Kivy: plain Python, tested without a display.

A :class:`TableSession` owns one :class:`~cinco.core.game.Game` and answers the questions a
screen asks: whose cards may be shown now, whether the tablet must be passed first, what the
rules say about Draw and Exchange (asked of the engine, never worked out here), what undo goes
back to, and what happened so far in words. Every game is saved as it goes (a record written by
:class:`~cinco.plugins.record_writer.RecordWriter`), so "Continue" finds it again.

>>> from cinco.core.config import GameConfig, Seat
>>> config = GameConfig.for_players(2, seed=4, first_seat=0)
>>> session = TableSession.new(config, path=None)
>>> session.humans, session.needs_privacy(shown=None)
((0, 1), True)
>>> session.viewer()
0
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from cinco.core.commands import Command, Draw, Exchange
from cinco.core.config import GameConfig
from cinco.core.errors import IllegalCommand
from cinco.core.events import (
    SPECTATOR,
    CardPlayed,
    Event,
    GameEnded,
    GameStarted,
    HandDiscarded,
    Notice,
    TurnEnded,
    Viewer,
)
from cinco.core.game import Game
from cinco.core.i18n import _
from cinco.core.record import load_record
from cinco.core.registry import Registry
from cinco.core.rules import LegalActions, decide
from cinco.core.state import HAND_LIMIT, GameState
from cinco.plugins.record_writer import RecordWriter

#: Overrides where games are saved (tests, portable installs).
DATA_DIR_ENV = "CINCO_DATA_DIR"


def data_dir() -> Path:
    """Where the app keeps its files: ``$CINCO_DATA_DIR``, else the platform's user data
    directory for ``cinco``."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("cinco"))


def autosave_dir() -> Path:
    return data_dir() / "games"


def new_record_path(seed: int) -> Path:
    """A fresh record file in the autosave folder, named by date so the newest sorts last."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return autosave_dir() / f"game-{stamp}-{seed}.jsonl"


def unfinished_games(folder: Path | None = None, newest: int = 20) -> list[Path]:
    """Saved games that are not over, newest first, among the *newest* saved files (the start
    screen asks each time it opens). Unreadable files are skipped: a bad file must never stop
    the app from starting."""
    folder = autosave_dir() if folder is None else folder
    if not folder.is_dir():
        return []
    found = []
    paths = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True)
    for path in paths[:newest]:
        try:
            record = load_record(path)
            state = Game.from_events(record.events).state
        except Exception:  # a damaged or foreign file: skip it, never crash
            continue
        if not state.is_over:
            found.append((path.stat().st_mtime, path))
    return [path for _mtime, path in sorted(found, reverse=True)]


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


def describe(event: Event, config: GameConfig) -> str | None:
    """One line of the move log for a public event (``None``: nothing worth saying).

    >>> config = GameConfig.for_players(2)
    >>> describe(CardPlayed(seat=0, card=34, space=36), config)
    'Ann played 34 on 36'
    >>> describe(CardPlayed(seat=1, card=88, space=None), config)
    "Bob's 88 burned"
    """

    def name(seat: int) -> str:
        return config.seats[seat].name

    if isinstance(event, CardPlayed):
        if event.space is None:
            return _("{name}'s {card} burned").format(name=name(event.seat), card=event.card)
        return _("{name} played {card} on {space}").format(
            name=name(event.seat), card=event.card, space=event.space
        )
    if isinstance(event, HandDiscarded):
        return _("{name} exchanged their hand").format(name=name(event.seat))
    if isinstance(event, TurnEnded) and event.action == "draw":
        return _("{name} drew a card").format(name=name(event.seat))
    if isinstance(event, GameEnded):
        if event.action == "draw":
            return (
                _("{name} drew a card").format(name=name(event.seat))
                + "\n"
                + result_text(event, config)
            )
        return result_text(event, config)
    if isinstance(event, Notice):
        return event.text
    return None


def team_name(team: int, config: GameConfig) -> str:
    """A team by its players' names ("Ann" or "Ann & Cid")."""
    return " & ".join(config.seats[seat].name for seat in config.seats_of(team))


def result_text(result: GameEnded, config: GameConfig) -> str:
    """How the game ended, in words."""
    if result.winner is not None:
        team = team_name(result.winner, config)
        if len(config.seats_of(result.winner)) == 1:
            return _("{team} wins with five in a row!").format(team=team)
        return _("{team} win with five in a row!").format(team=team)
    reasons = {
        "stalemate": _("A draw: a team placed its last token without making a line."),
        "board_full": _("A draw: the board is full."),
        "turn_limit": _("A draw: the turn limit was reached."),
    }
    return reasons.get(result.reason, _("A draw ({reason}).").format(reason=result.reason))


class TableSession:
    """One game at the table, with its record on disk (``path``; ``None``: not saved)."""

    def __init__(self, game: Game, path: Path | None, writer: RecordWriter | None) -> None:
        self.game = game
        self.path = path
        self._writer = writer

    # -- creating -----------------------------------------------------------------------------

    @classmethod
    def new(
        cls, config: GameConfig, path: Path | None, registry: Registry | None = None
    ) -> TableSession:
        writer = RecordWriter(path, frontend="kivy") if path is not None else None
        plugins = [writer] if writer is not None else []
        game = Game.new(config, registry=registry, plugins=plugins)
        return cls(game, path, writer)

    @classmethod
    def resume(cls, path: Path, registry: Registry | None = None) -> TableSession:
        """Continue the game saved in *path* (raises :class:`RecordError` with the reason)."""
        record = load_record(path)
        writer = RecordWriter(path, frontend="kivy")
        # A turn cut short by a kill is left out: that player moves again from its start.
        game = Game.from_events(
            record.events, registry=registry, plugins=[writer], complete_turns=True
        )
        return cls(game, path, writer)

    def rematch(self, seed: int | None = None, folder: Path | None = None) -> TableSession:
        """A new game with the same table and a new shuffle."""
        seed = random.randrange(2**31) if seed is None else seed
        config = replace(self.game.config, seed=seed, first_seat=None)
        path = None
        if self.path is not None:
            path = (folder or self.path.parent) / new_record_path(seed).name
        return TableSession.new(config, path, registry=self.game.registry)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()

    # -- who sees what ------------------------------------------------------------------------

    @property
    def config(self) -> GameConfig:
        return self.game.config

    @property
    def state(self) -> GameState:
        """The referee's state: for the engine's answers only, never drawn on screen."""
        return self.game.state

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(i for i, seat in enumerate(self.config.seats) if not seat.is_bot)

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def to_move(self) -> int:
        return self.state.current_seat

    @property
    def bot_to_move(self) -> bool:
        return not self.is_over and self.config.seats[self.to_move].is_bot

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

    def view(self, viewer: Viewer | None = None) -> GameState:
        return self.game.view(self.viewer() if viewer is None else viewer)

    def legal(self) -> LegalActions:
        """What the person to move may do (nothing while a bot moves or once it is over)."""
        if self.is_over or self.bot_to_move:
            return LegalActions(self.to_move, (), False, False)
        return self.game.legal_actions(self.to_move)

    def refusal(self, command: Command) -> str | None:
        """The engine's reason for refusing *command* now, or ``None`` if it is allowed. Asked of
        :func:`decide` (pure), so nothing changes."""
        try:
            decide(self.state, command, self.game.rules)
        except IllegalCommand as exc:
            return exc.message
        return None

    def draw_refusal(self) -> str | None:
        return self.refusal(Draw(self.to_move))

    def exchange_refusal(self) -> str | None:
        return self.refusal(Exchange(self.to_move))

    # -- acting -------------------------------------------------------------------------------

    def execute(self, command: Command) -> tuple[Event, ...]:
        """Carry out a person's command; ``IllegalCommand`` says why not."""
        return self.game.execute(command)

    def play_bot_turn(self) -> tuple[Event, ...]:
        """Let the bot to move play (may be called off the UI thread; nothing else may touch
        the game meanwhile)."""
        return self.game.play_bot_turn()

    def undo_target(self) -> int | None:
        """Undo goes back to the start of the person's previous turn, taking back the bots'
        moves since. Only in games of one person against bots (with more people, one must not
        take back another's move)."""
        if len(self.humans) != 1 or len(self.humans) == self.config.players:
            return None
        human = self.humans[0]
        now = len(self.game.events)
        for count in reversed(turn_boundaries(self.game.events)):
            if count < now and self.game.state_at(count).current_seat == human:
                return count
        return None

    @property
    def can_undo(self) -> bool:
        return self.undo_target() is not None

    def undo(self) -> None:
        target = self.undo_target()
        if target is None:
            raise ValueError("nothing to undo")
        self.close()
        writer = RecordWriter(self.path, frontend="kivy") if self.path is not None else None
        self.game = self.game.rewind(target, plugins=[writer] if writer else [])
        self._writer = writer

    # -- telling ------------------------------------------------------------------------------

    def log(self, limit: int | None = None) -> list[str]:
        """The move log, oldest first, from public information only."""
        return log_lines(self.game.events_for(SPECTATOR), self.config, limit)

    def result(self) -> str | None:
        result = self.state.result
        return None if result is None else result_text(result, self.config)


def log_lines(events: Sequence[Event], config: GameConfig, limit: int | None = None) -> list[str]:
    lines = [text for event in events if (text := describe(event, config))]
    return lines if limit is None else lines[-limit:]


def turn_boundaries(events: Sequence[Event]) -> list[int]:
    """Event counts after which a turn is complete, for stepping through a record:
    the deal first, then the end of every turn."""
    counts: list[int] = []
    first = events[0] if events else None
    dealt = 2 + HAND_LIMIT * first.config.players if isinstance(first, GameStarted) else 0
    for count, event in enumerate(events, start=1):
        if isinstance(event, TurnEnded | GameEnded) or count == dealt:
            counts.append(count)
    return counts
