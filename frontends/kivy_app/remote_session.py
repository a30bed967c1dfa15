"""A seat at a ``cinco serve`` table, as the game screens see a game: :class:`RemoteSession`
(a :class:`~.game_session.GameSession`). Plain Python: no Kivy here, so it is tested without a
display; the app hands it the one thing it needs from Kivy, a way to run a callable on the UI
thread.

The server is the referee. A :class:`RemoteSession` sends a request and changes nothing: the
screen moves on when the events come back, and a refused move shows the server's reason. All
network input and output happens on a worker thread (the websockets client is synchronous),
which hands every message to the UI thread (:class:`_FromWorker` items, in order); the UI
thread keeps its own fold of the stream (a :class:`~cinco.frontends.net.client.RemoteView`),
so no state is shared between the threads but a queue each way.

One seat on this device: no pass-the-tablet screen. A spectator (a watch code) has no seat.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cinco.core.engine.commands import Command, Draw, Exchange
from cinco.core.engine.config import GameConfig
from cinco.core.engine.errors import CincoError
from cinco.core.engine.events import SPECTATOR, CardPlayed, Event, GameEnded, Undone, Viewer
from cinco.core.engine.legal import LegalActions
from cinco.core.engine.state import GameState
from cinco.core.table.protocol import (
    Accepted,
    Check,
    Envelope,
    Hinted,
    Message,
    Prompt,
    Refused,
    Submit,
    Undo,
)
from cinco.core.words.i18n import N_, _
from cinco.frontends.narration import Narrator, describe_result
from cinco.frontends.net.client import Lobby, NetError, RemoteView, Session
from cinco.frontends.net.clock import clock_text
from cinco.frontends.net.play import SERVER_WORDS, refusal_text
from cinco.frontends.net.seats import SeatBook

#: Runs a callable on the UI thread, soon (the app: ``Clock.schedule_once``).
OnUiThread = Callable[[Callable[[], None]], None]

#: What the connection's state is shown as on the game screen (``online``: nothing).
LINK_WORDS = {
    "connecting": N_("Connecting to the server…"),
    "reconnecting": N_("Reconnecting…"),
}


# -- what the worker thread hands to the UI thread --------------------------------------------


@dataclass(frozen=True)
class _LinkChanged:
    """The connection is being made (``connecting``, ``reconnecting``) or is made
    (``online``)."""

    link: str


@dataclass(frozen=True)
class _LinkLost:
    """The connection is lost for good: *reason*, in words."""

    reason: str


@dataclass(frozen=True)
class _Answered:
    """The server's *answer* to the request of *kind* sent at event *seq*."""

    kind: str
    seq: int
    answer: Accepted | Refused | Hinted


@dataclass(frozen=True)
class _StreamMessage:
    """A message of the stream (an envelope, a prompt, a clock...)."""

    message: Message


_FromWorker = _LinkChanged | _LinkLost | _Answered | _StreamMessage


@dataclass(frozen=True)
class _Request:
    """A request for the worker to send: *kind* says what its answer is for, *seq* the last
    event the UI thread had seen when it asked."""

    kind: str
    seq: int
    message: Message


# -- the worker thread's connection ----------------------------------------------------------


class _Stopped(Exception):
    """The session was closed: the worker stops instead of connecting again."""


class _ReportingConnection(Session):
    """The worker's connection: a :class:`Session` that says when it (re)connects and stops
    trying once the session is closed."""

    def __init__(
        self,
        to_ui: Callable[[_FromWorker], None],
        closed: threading.Event,
        lobby: Lobby,
        **kw: Any,
    ) -> None:
        super().__init__(lobby, **kw)
        self._to_ui = to_ui
        self._closed = closed
        self._connected_before = False

    def connect(self) -> None:
        if self._closed.is_set():
            raise _Stopped
        self._to_ui(_LinkChanged("reconnecting" if self._connected_before else "connecting"))
        super().connect()
        self._connected_before = True
        self._to_ui(_LinkChanged("online"))


# -- the session -----------------------------------------------------------------------------


class RemoteSession:
    """One seat's (*token*) or a spectator's (*watch*) game at a server, as a
    :class:`~.game_session.GameSession`. :meth:`start` opens it; :attr:`listeners` are called
    on the UI thread (by *on_ui_thread*) whenever something came."""

    def __init__(
        self,
        lobby: Lobby,
        *,
        on_ui_thread: OnUiThread,
        table: str | None = None,
        token: str | None = None,
        watch: str | None = None,
        seat: int | None = None,
        code: str = "",
        book: SeatBook | None = None,
    ) -> None:
        self.lobby = lobby
        self.table = table
        self.token = token
        self.seat = seat
        #: The invite code this seat came in with (kept in *book*, for a rejoin).
        self.code = code
        self.book = book
        self.remote = RemoteView(seat)
        self.path: Path | None = None
        self.warnings: list[str] = []
        self.events: list[Event] = []
        self.narrator: Narrator | None = None
        self.listeners: list[Callable[[], None]] = []
        #: Asked for a rematch (the screen that knows how to wait for one).
        self.on_rematch: Callable[[RemoteSession], None] | None = None
        #: ``connecting``, ``online``, ``reconnecting``, ``lost`` or ``closed``.
        self.link = "connecting"
        self.lost_reason = ""
        self._on_ui_thread = on_ui_thread
        #: Something changed since the screen last asked (:meth:`pump`).
        self._changed = False
        self._landed_space: int | None = None
        self._problem: str | None = None
        #: A move or an undo is sent and its answer has not come yet.
        self._awaiting_answer = False
        #: Why Undo is refused now (``None``: allowed), for the last event the server checked.
        self._undo_refusal: str | None = _("There is nothing to undo.")
        #: Why Draw and Exchange are refused (the server's words), for this prompt, by check.
        self._check_refusals: dict[str, str] = {}
        self._from_worker: deque[_FromWorker] = deque()
        self._requests: queue.Queue[_Request] = queue.Queue()
        self._closed = threading.Event()
        #: Closed before the game's end: the worker leaves the seat as it stops.
        self._leave_seat = False
        self._connection = _ReportingConnection(
            self._to_ui, self._closed, lobby, table=table, token=token, watch=watch, seat=seat
        )
        self._connection.listeners.append(self._heard)
        self._thread: threading.Thread | None = None

    # -- the worker thread ------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="cinco-remote", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        connection = self._connection
        try:
            connection.connect()
            while not self._closed.is_set():
                try:
                    request = self._requests.get_nowait()
                except queue.Empty:
                    connection.receive(timeout=0.05)
                    continue
                answer = connection.request(request.message, timeout=30.0)
                self._to_ui(_Answered(request.kind, request.seq, answer))
        except _Stopped:
            pass
        except NetError as exc:
            self._to_ui(_LinkLost(str(exc)))
        except Exception as exc:  # shown on the screen; the app goes on
            self._to_ui(_LinkLost(f"{type(exc).__name__}: {exc}"))
        finally:
            with contextlib.suppress(Exception):
                connection.close()
            if self._leave_seat and self.table is not None and self.token is not None:
                with contextlib.suppress(NetError):
                    Lobby(self.lobby.base, timeout=3.0).leave(self.table, self.token)

    def _heard(self, message: Message) -> None:
        """On the worker thread: the stream's messages (a request's answer comes with it)."""
        if not isinstance(message, Accepted | Refused | Hinted):
            self._to_ui(_StreamMessage(message))

    def _to_ui(self, item: _FromWorker) -> None:
        """Hand *item* to the UI thread, in order."""
        self._from_worker.append(item)
        self._on_ui_thread(self._take_all)

    # -- the UI thread ----------------------------------------------------------------------

    def _take_all(self) -> None:
        changed = False
        while self._from_worker:
            changed = self._take(self._from_worker.popleft()) or changed
        if changed:
            self._changed = True
            for listener in list(self.listeners):
                listener()

    def _take(self, item: _FromWorker) -> bool:
        if self.link == "closed":
            return False
        if isinstance(item, _LinkChanged):
            if item.link == "online" and self.link == "reconnecting":
                self._problem = ""  # "the connection was lost" is over
            self.link = item.link
            return True
        if isinstance(item, _LinkLost):
            self.link, self.lost_reason = "lost", item.reason
            self._problem = _("Connection lost: {reason}").format(reason=item.reason)
            self._awaiting_answer = False
            return True
        if isinstance(item, _Answered):
            self._answered(item)
            return True
        message = item.message
        if not self.remote.take(message):
            return False
        if isinstance(message, Envelope):
            self._event(message.event)
        elif isinstance(message, Prompt) and self.remote.legal() is not None:
            self._ask_about_prompt()
        return True

    def _event(self, event: Event) -> None:
        state = self.remote.state
        assert state is not None
        if self.narrator is None:
            viewer: Viewer = self.seat if self.seat is not None else SPECTATOR
            self.narrator = Narrator(state.config, viewer)
        self.narrator.feed(event)
        self.events.append(event)
        self._undo_refusal = _("Wait for the server.")
        self._check_refusals = {}
        if isinstance(event, CardPlayed) and event.space is not None:
            self._landed_space = event.space
        elif isinstance(event, Undone):
            self._landed_space = None
        if isinstance(event, GameEnded) and self.seat is not None:
            self._send("undo_check", Undo(check=True))

    def _ask_about_prompt(self) -> None:
        """It is this seat's turn: ask the server whether Undo is possible and why Draw or
        Exchange is not (it decides; the screen shows its words)."""
        legal = self.remote.legal()
        assert legal is not None and self.seat is not None
        self._send("undo_check", Undo(check=True))
        if not legal.can_draw:
            self._send("draw_check", Check(Draw(self.seat)))
        if not legal.can_exchange:
            self._send("exchange_check", Check(Exchange(self.seat)))

    def _send(self, kind: str, message: Message) -> None:
        self._requests.put(_Request(kind, self.remote.seq, message))

    def _answered(self, item: _Answered) -> None:
        answer = item.answer
        words = refusal_text(answer) if isinstance(answer, Refused) else None
        if item.kind in ("submit", "undo"):
            self._awaiting_answer = False
            if words is not None:
                self._problem = words
            return
        if item.seq != self.remote.seq:
            return  # about an earlier position: a newer question is on its way
        if item.kind == "undo_check":
            self._undo_refusal = words
        elif item.kind == "space_check":
            if words is not None:
                self._problem = words
        elif words is not None:
            self._check_refusals[item.kind] = words

    # -- the GameSession interface ------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self.remote.state is not None

    def _state(self) -> GameState:
        state = self.remote.state
        if state is None:
            raise CincoError(_("The game has not started yet."))
        return state

    @property
    def config(self) -> GameConfig:
        return self._state().config

    @property
    def humans(self) -> tuple[int, ...]:
        return () if self.seat is None else (self.seat,)

    @property
    def public_view(self) -> GameState:
        return self._state()

    @property
    def is_over(self) -> bool:
        return self._state().is_over

    @property
    def to_move(self) -> int:
        return self._state().current_seat

    @property
    def bot_to_move(self) -> bool:
        return False  # the server's bots play in the server

    @property
    def event_count(self) -> int:
        return self.remote.seq + 1

    @property
    def can_undo(self) -> bool:
        return self.undo_refusal() is None

    def view(self) -> GameState:
        return self._state()

    def viewer(self) -> Viewer:
        return self.seat

    def needs_privacy(self, shown: Viewer) -> bool:
        return False  # one seat on this device

    def legal(self) -> LegalActions:
        """The last prompt's actions (kept while the connection is made again, so that the
        hand stays as it was; a move is sent only once it is back)."""
        legal = self.remote.legal()
        return LegalActions(self.to_move, (), False, False) if legal is None else legal

    def refusal(self, command: Command) -> str | None:
        """Asked of the server: its answer comes by :meth:`take_problem`."""
        if self.seat is None:
            return Refused("not_seated").message
        self._send("space_check", Check(command))
        return None

    def draw_refusal(self) -> str | None:
        return self._check_refusals.get("draw_check")

    def exchange_refusal(self) -> str | None:
        return self._check_refusals.get("exchange_check")

    def undo_seat(self) -> int | None:
        return self.seat

    def undo_refusal(self) -> str | None:
        if self.seat is None:
            return Refused("not_seated").message
        if self._awaiting_answer or self.link != "online":
            return _("Wait for the server.")
        return self._undo_refusal

    def log(self, limit: int | None = None, viewer: Viewer | str = "now") -> list[str]:
        lines = [line.text for line in self.narrator.lines] if self.narrator else []
        return lines if limit is None else lines[-limit:]

    def result(self) -> str | None:
        state = self._state()
        return None if state.result is None else describe_result(state.config, state.result)

    def pump(self) -> bool:
        changed, self._changed = self._changed, False
        return changed

    def take_landed(self) -> int | None:
        landed, self._landed_space = self._landed_space, None
        return landed

    def take_problem(self) -> str | None:
        problem, self._problem = self._problem, None
        return problem

    def banner(self) -> str:
        if self.link == "lost":
            return _("Connection lost: {reason}").format(reason=self.lost_reason)
        words = LINK_WORDS.get(self.link)
        if words:
            return _(words)
        # Online: who else is away (their grace counting down), the server's word on it.
        return self.remote.presence_text()

    def clock(self, seat: int) -> str:
        remaining = self.remote.remaining()
        state = self.remote.state
        if seat >= len(remaining) or state is None or state.config.seats[seat].is_bot:
            return ""
        return clock_text(remaining[seat])

    def _not_now(self) -> bool:
        """Whether a request must wait: the last is unanswered, or the connection is
        being made again (then the words come by :meth:`take_problem`)."""
        if self.link != "online":
            self._problem = _(SERVER_WORDS["connection_lost"])
        elif self._awaiting_answer:
            self._problem = _("Wait for the server to answer your last move.")
        else:
            return False
        self._changed = True
        return True

    def submit(self, command: Command) -> Refused | None:
        """Send *command*; nothing changes until the server's events come back."""
        if self.seat is None:
            return Refused("not_seated")
        if not self._not_now():
            self._awaiting_answer = True
            self._send("submit", Submit(command))
        return None

    def undo(self) -> Refused | None:
        if self.seat is None:
            return Refused("not_seated")
        if not self._not_now():
            self._awaiting_answer = True
            self._send("undo", Undo())
        return None

    def start_bot_turn(self) -> Future[Accepted | Refused]:
        future: Future[Accepted | Refused] = Future()
        future.set_result(Refused("no_bot_to_move"))
        return future

    def rematch(self) -> None:
        if self.on_rematch is not None and self.seat is not None:
            self.on_rematch(self)

    def close(self) -> None:
        """Disconnect. Before the game's end the seat is left too (its token revoked, the
        seat free for the invite code; the server's bot plays it meanwhile)."""
        if self.link == "closed":
            return
        over = self.remote.over
        self._leave_seat = self.seat is not None and self.started and not over
        if self._leave_seat and self.book is not None and self.table is not None:
            self.book.forget(self.lobby.base, self.table)
        self.link = "closed"
        self._closed.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
