"""Play online: the "Play online" screen, and :class:`RemoteSession`, a seat at a
``cinco serve`` table that the game screens show as they show a local game.

The server is the referee. A :class:`RemoteSession` sends a request and changes nothing: the
screen moves on when the events come back, and a refused move shows the server's reason. All
network input and output happens on a worker thread (the websockets client is synchronous),
which hands every message to the UI thread with ``Clock.schedule_once``; the UI thread keeps
its own fold of the stream (a :class:`~cinco.frontends.net.client.RemoteView`), so no state is
shared between the threads but a queue each way.

One seat on this device: no pass-the-tablet screen. A spectator (a watch code) has no seat.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from cinco.core.engine.commands import Command, Draw, Exchange
from cinco.core.engine.config import GameConfig
from cinco.core.engine.errors import CincoError
from cinco.core.engine.events import SPECTATOR, CardPlayed, Event, GameEnded, Undone, Viewer
from cinco.core.engine.rules import LegalActions
from cinco.core.engine.state import GameState
from cinco.core.host.registry import Registry
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
from cinco.frontends.net.play import SERVER_WORDS, refusal_text
from cinco.frontends.net.seats import SeatBook
from cinco.frontends.options import DEFAULT_BOT

from . import settings as app_settings
from .table_choice import TableChoice
from .widgets import SeatRow

if TYPE_CHECKING:
    from .app import CincoApp

Builder.load_file(str(Path(__file__).with_name("online.kv")))

T = TypeVar("T")

#: The turn timers offered at create: (label, the server's ``timer`` setting).
TIMERS: tuple[tuple[str, str | None], ...] = (
    (N_("No turn timer"), None),
    (N_("3 min + 5 s a turn"), "180+5"),
    (N_("10 min + 10 s a turn"), "600+10"),
)
DEFAULT_SERVER = "http://127.0.0.1:8765"


def app() -> CincoApp:
    return App.get_running_app()  # type: ignore[no-any-return]


# -- what is remembered between runs ---------------------------------------------------------


def load_settings() -> dict[str, str]:
    """The server address and name used last (``{}`` the first time): ``online`` in the
    app's settings file (:mod:`.settings`)."""
    remembered = app_settings.read().get("online")
    if not isinstance(remembered, dict):
        return {}
    return {key: value for key, value in remembered.items() if isinstance(value, str)}


def save_settings(**values: str) -> None:
    app_settings.write({"online": {**load_settings(), **values}})


def unreachable(base: str, exc: NetError) -> str:
    """What to say when the server did not answer, or said no."""
    if exc.status == 0:
        return _(
            "Cannot reach a Cinco server at {server}. Check the address (host and port, as "
            "`cinco serve` printed it) and that the server runs and this device is on its "
            "network."
        ).format(server=base)
    return str(exc)


def in_background(
    work: Callable[[], T], done: Callable[[T], None], failed: Callable[[Exception], None]
) -> None:
    """Run *work* on a thread of its own, then *done(result)* or *failed(error)* on the UI
    thread: the lobby's HTTP calls never hold up the screen."""

    def run() -> None:
        try:
            result = work()
        except Exception as exc:  # handed to the UI thread, which says what went wrong
            error = exc
            Clock.schedule_once(lambda _dt: failed(error), 0)
            return
        Clock.schedule_once(lambda _dt: done(result), 0)

    threading.Thread(target=run, name="cinco-lobby", daemon=True).start()


# -- a seat at a server ----------------------------------------------------------------------


class _Stopped(Exception):
    """The session was closed: the worker stops instead of connecting again."""


class _Link(Session):
    """The worker's connection: a :class:`Session` that says when it (re)connects and stops
    trying once the session is closed."""

    def __init__(
        self,
        post: Callable[[tuple[Any, ...]], None],
        stop: threading.Event,
        lobby: Lobby,
        **kw: Any,
    ) -> None:
        super().__init__(lobby, **kw)
        self._post = post
        self._stop = stop
        self._ever = False

    def connect(self) -> None:
        if self._stop.is_set():
            raise _Stopped
        self._post(("link", "reconnecting" if self._ever else "connecting"))
        super().connect()
        self._ever = True
        self._post(("link", "online"))


#: What the connection's state is shown as on the game screen (``online``: nothing).
LINK_WORDS = {
    "connecting": N_("Connecting to the server…"),
    "reconnecting": N_("Reconnecting…"),
}


class RemoteSession:
    """One seat's (*token*) or a spectator's (*watch*) game at a server, as a
    :class:`~.game_session.GameSession`. :meth:`start` opens it; :attr:`listeners` are called
    on the UI thread whenever something came."""

    def __init__(
        self,
        lobby: Lobby,
        *,
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
        self._fresh = False
        self._landed: int | None = None
        self._problem: str | None = None
        self._busy = False
        #: Why Undo is refused now (``None``: allowed), for the last event the server checked.
        self._undo: str | None = _("There is nothing to undo.")
        #: Why Draw and Exchange are refused (the server's words), for this prompt.
        self._reasons: dict[str, str] = {}
        self._inbox: deque[tuple[Any, ...]] = deque()
        self._outbox: queue.Queue[tuple[str, int, Message]] = queue.Queue()
        self._stop = threading.Event()
        self._leave = False
        self._link = _Link(
            self._post, self._stop, lobby, table=table, token=token, watch=watch, seat=seat
        )
        self._link.listeners.append(self._heard)
        self._thread: threading.Thread | None = None

    # -- the worker thread ------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="cinco-remote", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        link = self._link
        try:
            link.connect()
            while not self._stop.is_set():
                try:
                    kind, seq, message = self._outbox.get_nowait()
                except queue.Empty:
                    link.receive(timeout=0.05)
                    continue
                answer = link.request(message, timeout=30.0)
                self._post(("answer", kind, seq, answer))
        except _Stopped:
            pass
        except NetError as exc:
            self._post(("lost", str(exc)))
        except Exception as exc:  # shown on the screen; the app goes on
            self._post(("lost", f"{type(exc).__name__}: {exc}"))
        finally:
            with contextlib.suppress(Exception):
                link.close()
            if self._leave and self.table is not None and self.token is not None:
                with contextlib.suppress(NetError):
                    Lobby(self.lobby.base, timeout=3.0).leave(self.table, self.token)

    def _heard(self, message: Message) -> None:
        """On the worker thread: the stream's messages (a request's answer comes with it)."""
        if not isinstance(message, Accepted | Refused | Hinted):
            self._post(("message", message))

    def _post(self, item: tuple[Any, ...]) -> None:
        """Hand *item* to the UI thread, in order."""
        self._inbox.append(item)
        Clock.schedule_once(self._drain, 0)

    # -- the UI thread ----------------------------------------------------------------------

    def _drain(self, _dt: float = 0.0) -> None:
        changed = False
        while self._inbox:
            changed = self._take(self._inbox.popleft()) or changed
        if changed:
            self._fresh = True
            for listener in list(self.listeners):
                listener()

    def _take(self, item: tuple[Any, ...]) -> bool:
        what = item[0]
        if self.link == "closed":
            return False
        if what == "link":
            if item[1] == "online" and self.link == "reconnecting":
                self._problem = ""  # "the connection was lost" is over
            self.link = item[1]
            return True
        if what == "lost":
            self.link, self.lost_reason = "lost", item[1]
            self._problem = _("Connection lost: {reason}").format(reason=item[1])
            self._busy = False
            return True
        if what == "answer":
            self._answered(item[1], item[2], item[3])
            return True
        message: Message = item[1]
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
        self._undo = _("Wait for the server.")
        self._reasons = {}
        if isinstance(event, CardPlayed) and event.space is not None:
            self._landed = event.space
        elif isinstance(event, Undone):
            self._landed = None
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
        self._outbox.put((kind, self.remote.seq, message))

    def _answered(self, kind: str, seq: int, answer: Accepted | Refused | Hinted) -> None:
        words = refusal_text(answer) if isinstance(answer, Refused) else None
        if kind in ("submit", "undo"):
            self._busy = False
            if words is not None:
                self._problem = words
            return
        if seq != self.remote.seq:
            return  # about an earlier position: a newer question is on its way
        if kind == "undo_check":
            self._undo = words
        elif kind == "space_check":
            if words is not None:
                self._problem = words
        elif words is not None:
            self._reasons[kind] = words

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
        return self._reasons.get("draw_check")

    def exchange_refusal(self) -> str | None:
        return self._reasons.get("exchange_check")

    def undo_seat(self) -> int | None:
        return self.seat

    def undo_refusal(self) -> str | None:
        if self.seat is None:
            return Refused("not_seated").message
        if self._busy or self.link != "online":
            return _("Wait for the server.")
        return self._undo

    def log(self, limit: int | None = None, viewer: Viewer | str = "now") -> list[str]:
        lines = [line.text for line in self.narrator.lines] if self.narrator else []
        return lines if limit is None else lines[-limit:]

    def result(self) -> str | None:
        state = self._state()
        return None if state.result is None else describe_result(state.config, state.result)

    def pump(self) -> bool:
        fresh, self._fresh = self._fresh, False
        return fresh

    def take_landed(self) -> int | None:
        landed, self._landed = self._landed, None
        return landed

    def take_problem(self) -> str | None:
        problem, self._problem = self._problem, None
        return problem

    def banner(self) -> str:
        if self.link == "lost":
            return _("Connection lost: {reason}").format(reason=self.lost_reason)
        words = LINK_WORDS.get(self.link)
        return _(words) if words else ""

    def clock(self, seat: int) -> str:
        remaining = self.remote.remaining()
        state = self.remote.state
        if seat >= len(remaining) or state is None or state.config.seats[seat].is_bot:
            return ""
        left = remaining[seat]
        whole = int(left + 0.999) if left > 0 else 0  # 0:00 only once it has run out
        return f"{whole // 60}:{whole % 60:02d}"

    def _not_now(self) -> bool:
        """Whether a request must wait: the last is unanswered, or the connection is
        being made again (then the words come by :meth:`take_problem`)."""
        if self.link != "online":
            self._problem = _(SERVER_WORDS["connection_lost"])
        elif self._busy:
            self._problem = _("Wait for the server to answer your last move.")
        else:
            return False
        self._fresh = True
        return True

    def submit(self, command: Command) -> Refused | None:
        """Send *command*; nothing changes until the server's events come back."""
        if self.seat is None:
            return Refused("not_seated")
        if not self._not_now():
            self._busy = True
            self._send("submit", Submit(command))
        return None

    def undo(self) -> Refused | None:
        if self.seat is None:
            return Refused("not_seated")
        if not self._not_now():
            self._busy = True
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
        self._leave = self.seat is not None and self.started and not over
        if self._leave and self.book is not None and self.table is not None:
            self.book.forget(self.lobby.base, self.table)
        self.link = "closed"
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)


# -- the screen ------------------------------------------------------------------------------


class OnlineScreen(TableChoice, Screen):  # type: ignore[misc]
    """Server address and name; create a table, join one with an invite code, or watch one
    with a watch code; after create, the codes to read out while the seats fill."""

    group = "online"
    portrait = BooleanProperty(False)
    #: ``form`` (choose), ``waiting`` (the codes, until the game starts).
    phase = StringProperty("form")
    problem = StringProperty("")
    progress = StringProperty("")
    invite_code = StringProperty("")
    watch_code = StringProperty("")
    waiting_text = StringProperty("")
    #: How the others take a seat, with this server's address.
    how_to_join = StringProperty("")
    #: A game at a server is open: "Back to your game" is offered.
    playing = BooleanProperty(False)
    working = BooleanProperty(False)

    def on_phase(self, _screen: Any, phase: str) -> None:
        """Show the form or the codes: the other is taken out of the screen (a hidden
        widget would still catch taps)."""
        ids = self.ids
        if "body" not in ids:
            return  # still being built; setup() places them
        if not hasattr(self, "_panels"):
            # ids are weak: hold both panels, since one of them is always out of the tree.
            self._panels = (ids.form_scroll.__self__, ids.waiting_panel.__self__)
        form, waiting = self._panels
        shown, hidden = (form, waiting) if phase == "form" else (waiting, form)
        if hidden.parent is not None:
            hidden.parent.remove_widget(hidden)
        if shown.parent is None:
            ids.body.add_widget(shown)

    def setup(self, registry: Registry) -> None:
        self.waiting: RemoteSession | None = None
        self.table_id = ""
        self.setup_choice(registry, players=2, bots={1: (DEFAULT_BOT, None)})
        ids = self.ids
        ids.timer.values = [_(label) for label, _setting in TIMERS]
        ids.timer.text = ids.timer.values[0]
        self.on_phase(self, self.phase)
        Clock.schedule_interval(self._tick, 1.0)
        self._poll: Any = None

    def on_pre_enter(self, *_args: Any) -> None:
        remembered = load_settings()
        ids = self.ids
        if not ids.server.text:
            ids.server.text = remembered.get("server", DEFAULT_SERVER)
        if not ids.name.text:
            ids.name.text = remembered.get("name", "")
        session = app().session
        self.playing = isinstance(session, RemoteSession) and session.link != "closed"
        self.refresh_seats()

    # -- the table's settings (chosen as on the start screen: TableChoice) ---------------------

    def prepare_row(self, row: SeatRow) -> None:
        """Seat 1 is you; every other seat a person (who joins with the invite code) or a
        bot that plays in the server."""
        row.ids.name.disabled = True
        if row.seat == 0:
            row.ids.kind.text = row.kinds[0]
            row.ids.kind.disabled = True

    def seats_changed(self, teams: int) -> None:
        self.refresh_seats()

    def kind_changed(self, row: SeatRow) -> None:
        super().kind_changed(row)
        if row.seat:
            row.ids.name.hint_text = self.seat_hint(row)

    def refresh_seats(self) -> None:
        for row in self.seat_rows:
            if row.seat == 0:
                name = str(self.ids.name.text).strip()
                row.ids.name.text = _("{name} (you)").format(name=name) if name else _("You")
            else:
                row.ids.name.text = ""
                row.ids.name.hint_text = self.seat_hint(row)

    def seat_hint(self, row: SeatRow) -> str:
        """Who plays a seat other than yours, in its (greyed) name field."""
        if self.row_bot(row) is None:
            return _("joins with the code")
        return _("plays in the server")

    def table_settings(self) -> dict[str, Any]:
        """The lobby's ``POST /api/tables`` body (seats numbered from 1)."""
        self.save_rows()
        bots = {
            str(seat + 1): f"{bot}:{level}" if level else bot
            for seat, (bot, level) in sorted(self.bots.items())
            if 0 < seat < self.players
        }
        timer = dict((_(label), setting) for label, setting in TIMERS).get(self.ids.timer.text)
        settings: dict[str, Any] = {
            "players": self.players,
            "layout": self.layout_name,
            "variants": list(self.chosen_variants),
            "bots": bots,
            "undo": True,
        }
        if timer is not None:
            settings["timer"] = timer
        return settings

    # -- the three actions ----------------------------------------------------------------------

    def lobby(self) -> Lobby | None:
        address = self.ids.server.text.strip()
        if not address:
            self.problem = _("Type the server's address, as `cinco serve` printed it.")
            return None
        return Lobby(address, timeout=8.0)

    def my_name(self) -> str | None:
        name = str(self.ids.name.text).strip()
        if not name:
            self.problem = _("Type your name: the other players see it.")
            return None
        return name

    def begin_work(self, words: str) -> None:
        self.problem = ""
        self.progress = words
        self.working = True

    def failed(self, lobby: Lobby) -> Callable[[Exception], None]:
        def say(exc: Exception) -> None:
            self.working = False
            self.progress = ""
            self.phase = "form"
            if isinstance(exc, NetError):
                self.problem = unreachable(lobby.base, exc)
            else:
                self.problem = f"{type(exc).__name__}: {exc}"

        return say

    def create(self) -> None:
        lobby, name = self.lobby(), self.my_name()
        if lobby is None or name is None:
            return
        settings = self.table_settings()
        book = SeatBook()
        self.begin_work(_("Creating a table at {server}…").format(server=lobby.base))

        def work() -> tuple[dict[str, Any], dict[str, Any]]:
            table = lobby.create(settings)
            seat = lobby.join(str(table["code"]), name)
            book.remember(
                lobby.base, str(seat["table"]), int(seat["seat"]), str(seat["token"]), table["code"]
            )
            return table, seat

        def done(result: tuple[dict[str, Any], dict[str, Any]]) -> None:
            table, seat = result
            save_settings(server=lobby.base, name=name)
            self.invite_code, self.watch_code = str(table["code"]), str(table["watch"])
            self.open_seat(lobby, seat, str(table["code"]), book)

        in_background(work, done, self.failed(lobby))

    def join(self) -> None:
        lobby, name = self.lobby(), self.my_name()
        code = self.ids.invite.text.strip().upper()
        if lobby is None or name is None:
            return
        if not code:
            self.problem = _("Type the invite code you were given (like K7QM-2XPA-HDTW).")
            return
        book = SeatBook()
        self.begin_work(_("Joining the table…"))

        def work() -> dict[str, Any]:
            held = book.find(lobby.base, code)
            seat: dict[str, Any] | None = None
            if held is not None:  # this device's seat there already: come back to it
                try:
                    seat = lobby.rejoin(str(held["table"]), str(held["token"]))
                except NetError as exc:
                    if exc.status not in (401, 403, 404):
                        raise
                    book.forget(lobby.base, str(held["table"]))
            if seat is None:
                seat = lobby.join(code, name)
            book.remember(
                lobby.base, str(seat["table"]), int(seat["seat"]), str(seat["token"]), code
            )
            return seat

        def done(seat: dict[str, Any]) -> None:
            save_settings(server=lobby.base, name=name)
            self.invite_code, self.watch_code = "", ""
            self.open_seat(lobby, seat, code, book)

        in_background(work, done, self.failed(lobby))

    def watch(self) -> None:
        lobby = self.lobby()
        code = self.ids.watch_code.text.strip().upper()
        if lobby is None:
            return
        if not code:
            self.problem = _("Type the table's watch code.")
            return
        self.begin_work(_("Connecting to the server…"))

        def done(_tables: list[dict[str, Any]]) -> None:
            save_settings(server=lobby.base)
            self.invite_code, self.watch_code = "", ""
            self.follow(RemoteSession(lobby, watch=code), _("Waiting for the game to start…"))

        in_background(lobby.tables, done, self.failed(lobby))  # is anyone there?

    def open_seat(self, lobby: Lobby, seat: dict[str, Any], code: str, book: SeatBook) -> None:
        session = RemoteSession(
            lobby,
            table=str(seat["table"]),
            token=str(seat["token"]),
            seat=int(seat["seat"]),
            code=code,
            book=book,
        )
        self.table_id = str(seat["table"])
        self.follow(session, _("Waiting for the other players to join…"))

    def follow(self, session: RemoteSession, waiting: str) -> None:
        """Open *session* and wait on this screen until its game starts."""
        if self.waiting is not None:
            self.waiting.close()
        self.working = False
        self.progress = ""
        self.waiting = session
        self.waiting_text = waiting
        base = session.lobby.base
        self.how_to_join = (
            _(
                "Server {server}. In the app: Play online, this server, Join with the invite "
                "code. In a terminal: cinco join {server} {code}"
            ).format(server=base, code=self.invite_code)
            if self.invite_code
            else _("Server {server}").format(server=base)
        )
        self.phase = "waiting"
        session.on_rematch = self.rematch
        session.listeners.append(lambda: self.heard(session))
        session.start()
        if self.invite_code and self._poll is None:
            self._poll = Clock.schedule_interval(self.poll_seats, 1.5)

    def heard(self, session: RemoteSession) -> None:
        """Something came on *session* (on the UI thread)."""
        if session is self.waiting:
            if session.started:
                self.stop_waiting()
                app().begin(session)
            elif session.link == "lost":
                self.stop_waiting()
                session.close()
                self.problem = session.take_problem() or session.banner()
            else:
                self.progress = session.banner()
            return
        current = app()
        if current.session is session and current.manager.current in ("game", "over"):
            current.pump()

    def stop_waiting(self) -> None:
        self.waiting = None
        self.phase = "form"
        self.progress = ""
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None

    def cancel(self) -> None:
        """Stop waiting for the seats to fill (the seat is left)."""
        session = self.waiting
        self.stop_waiting()
        if session is not None:
            session.close()

    def poll_seats(self, _dt: float = 0.0) -> None:
        """Who has taken a seat so far (the lobby's summary of the table)."""
        session = self.waiting
        if session is None or session.table is None:
            return
        lobby, table = session.lobby, session.table

        def done(summary: dict[str, Any]) -> None:
            if self.waiting is not session:
                return
            seats = summary.get("seats") or []
            free = sum(1 for seat in seats if seat.get("free"))
            names = [str(seat.get("name")) for seat in seats if not seat.get("free")]
            self.waiting_text = _("Seated: {names}. Waiting for {free} more…").format(
                names=", ".join(names), free=free
            )

        in_background(lambda: lobby.table(table), done, lambda _exc: None)

    # -- after the game ---------------------------------------------------------------------

    def rematch(self, session: RemoteSession) -> None:
        """Rematch on the game over screen: the same seat at the table's rematch (made by the
        first to ask); wait here while the others come."""
        table, token = session.table, session.token
        if table is None or token is None:
            return
        lobby = session.lobby
        app().show("online")
        self.begin_work(_("Asking for a rematch…"))

        def done(seat: dict[str, Any]) -> None:
            self.invite_code = str(seat.get("code") or "")
            self.watch_code = str(seat.get("watch") or "")
            code = self.invite_code or session.code
            book = session.book or SeatBook()
            book.remember(
                lobby.base, str(seat["table"]), int(seat["seat"]), str(seat["token"]), code
            )
            self.open_seat(lobby, seat, code, book)

        in_background(lambda: lobby.rematch(table, token), done, self.failed(lobby))

    def back_to_game(self) -> None:
        current = app()
        if isinstance(current.session, RemoteSession):
            current.advance()

    def _tick(self, _dt: float) -> None:
        """The running clock counts down on the screen."""
        current = app()
        session = current.session
        if (
            isinstance(session, RemoteSession)
            and session.remote.clock is not None
            and current.manager.current == "game"
        ):
            current.rerender()
