"""The one interface the game screens talk to: a game at this device, or a seat at a server.

:class:`~.session.TableSession` (a local :class:`~cinco.core.table.table.Table` and its seat
handles) and :class:`~.remote_session.RemoteSession` (one seat's, or a spectator's, stream from
``cinco serve``) both implement :class:`GameSession`; :class:`~.app.CincoApp` and the
screens use nothing else. Plain Python: no Kivy here.

The contract that lets one screen serve both: every question is answered from what the
session holds now (a view projected for the viewer, never the referee's game); an action
(:meth:`GameSession.submit`, :meth:`GameSession.undo`) returns at once with ``None`` (taken:
its events come in the stream, which :meth:`GameSession.pump` takes in) or a refusal; a
refusal that comes later (a server's) is handed over once by
:meth:`GameSession.take_problem`.
"""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path
from typing import Protocol

from cinco.core.engine.commands import Command
from cinco.core.engine.config import GameConfig
from cinco.core.engine.events import Viewer
from cinco.core.engine.legal import LegalActions
from cinco.core.engine.state import GameState
from cinco.core.table.protocol import Accepted, Refused


class GameSession(Protocol):
    """What a game screen may ask of the game it shows, and the actions it may take."""

    @property
    def config(self) -> GameConfig:
        """The game's settings, as everyone may see them (no seed)."""

    @property
    def path(self) -> Path | None:
        """The record on this device (``None``: it is kept elsewhere, or nowhere)."""

    @property
    def warnings(self) -> list[str]:
        """Things worth telling when the game opens."""

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats people play on this device."""

    @property
    def public_view(self) -> GameState: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def to_move(self) -> int: ...

    @property
    def bot_to_move(self) -> bool:
        """A bot of this device's table is to move: the app lets it play."""

    @property
    def event_count(self) -> int: ...

    @property
    def can_undo(self) -> bool: ...

    def view(self) -> GameState:
        """The game as the viewer of the moment sees it."""

    def viewer(self) -> Viewer: ...

    def needs_privacy(self, shown: Viewer) -> bool: ...

    def legal(self) -> LegalActions: ...

    def refusal(self, command: Command) -> str | None: ...

    def draw_refusal(self) -> str | None: ...

    def exchange_refusal(self) -> str | None: ...

    def undo_seat(self) -> int | None: ...

    def undo_refusal(self) -> str | None: ...

    def log(self, limit: int | None = None, viewer: Viewer | str = "now") -> list[str]: ...

    def result(self) -> str | None: ...

    def pump(self) -> bool:
        """Take in what the stream brought; whether anything new came."""

    def take_landed(self) -> int | None: ...

    def take_problem(self) -> str | None:
        """Words about an answer that came after its request (a refused move), once;
        ``""`` takes back the last words (they no longer hold), ``None``: nothing new."""

    def banner(self) -> str:
        """A line that matters more than whose turn it is ("Reconnecting…"), or ``""``."""

    def clock(self, seat: int) -> str:
        """What is left on *seat*'s turn timer (``"2:58"``), or ``""`` (no timer)."""

    def submit(self, command: Command) -> Refused | None: ...

    def undo(self) -> Refused | None: ...

    def start_bot_turn(self) -> Future[Accepted | Refused]: ...

    def rematch(self) -> GameSession | None:
        """A new game at the same table, or ``None`` when it comes later (a server's)."""

    def close(self) -> None: ...
