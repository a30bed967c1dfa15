"""Play online: the "Play online" screen (a server's address and your name; create a table,
join one with an invite code, or watch one with a watch code) and what it remembers between
runs. The seat at the server it opens, which the game screens show as they show a local game,
is a :class:`~.remote_session.RemoteSession` (no Kivy in it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from cinco.core.host.registry import Registry
from cinco.core.words.i18n import N_, _
from cinco.frontends.net.client import Lobby, NetError
from cinco.frontends.net.seats import SeatBook
from cinco.frontends.options import DEFAULT_BOT

from . import settings as app_settings
from .remote_session import RemoteSession
from .running import app
from .table_choice import TableChoice
from .widgets import SeatRow

Builder.load_file(str(Path(__file__).with_name("online.kv")))

T = TypeVar("T")

#: The turn timers offered at create: (label, the server's ``timer`` setting).
TIMERS: tuple[tuple[str, str | None], ...] = (
    (N_("No turn timer"), None),
    (N_("3 min + 5 s a turn"), "180+5"),
    (N_("10 min + 10 s a turn"), "600+10"),
)
DEFAULT_SERVER = "http://127.0.0.1:8765"


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


def on_ui_thread(work: Callable[[], None]) -> None:
    """Run *work* on the UI thread, soon (how a :class:`RemoteSession`'s worker thread hands
    over what came)."""
    Clock.schedule_once(lambda _dt: work(), 0)


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
            self.follow(
                RemoteSession(lobby, on_ui_thread=on_ui_thread, watch=code),
                _("Waiting for the game to start…"),
            )

        in_background(lobby.tables, done, self.failed(lobby))  # is anyone there?

    def open_seat(self, lobby: Lobby, seat: dict[str, Any], code: str, book: SeatBook) -> None:
        session = RemoteSession(
            lobby,
            on_ui_thread=on_ui_thread,
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
        """The running clock, and the grace of a seat away, count down on the screen."""
        current = app()
        session = current.session
        if (
            isinstance(session, RemoteSession)
            and (session.remote.clock is not None or session.remote.away)
            and current.manager.current == "game"
        ):
            current.rerender()
