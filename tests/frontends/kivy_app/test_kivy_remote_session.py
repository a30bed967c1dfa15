"""The tablet app's seat at a server (:class:`RemoteSession`), which needs no display: it
imports no Kivy, and what its worker thread hands over reaches the screen only through the
callable it is given for the UI thread. (The whole app against a real server:
``test_kivy_online.py``.)"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from live_server import Server

from cinco.core.engine.commands import Draw
from cinco.core.table.protocol import Refused
from cinco.core.words.i18n import _
from cinco.frontends.kivy_app.remote_session import RemoteSession
from cinco.frontends.net.client import Lobby, Session
from cinco.frontends.net.play import SERVER_WORDS


def test_the_remote_session_imports_no_kivy() -> None:
    code = (
        "import sys, cinco.frontends.kivy_app.remote_session; "
        "print(sorted(m for m in sys.modules if m == 'kivy' or m.startswith('kivy.')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


class _Refuse(BaseHTTPRequestHandler):
    """A server that turns every request away (a WebSocket handshake included): 401."""

    protocol_version = "HTTP/1.1"  # what a WebSocket client expects to read

    def do_GET(self) -> None:
        self.send_response(401)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def refusing_server() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _Refuse)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_refused_connection_reaches_the_ui_thread_as_lost(refusing_server: str) -> None:
    ui_thread: queue.Queue[Callable[[], None]] = queue.Queue()
    session = RemoteSession(
        Lobby(refusing_server, timeout=3.0),
        on_ui_thread=ui_thread.put,
        table="T1",
        token="not-a-token",
        seat=0,
    )
    links: list[str] = []
    session.listeners.append(lambda: links.append(session.link))
    session.start()
    try:
        while session.link != "lost":
            ui_thread.get(timeout=20)()  # run what the worker handed over, as the UI would
        assert links[-1] == "lost"  # "connecting" came first (maybe in the same hand-over)
        assert not session.started
        assert session.pump() and not session.pump()
        assert session.banner().startswith(_("Connection lost: {reason}").split("{")[0])
        assert session.take_problem() == session.banner()
        # While the connection is lost nothing is sent: the screen is told why.
        assert session.submit(Draw(0)) is None
        assert session.take_problem() == _(SERVER_WORDS["connection_lost"])
        assert session.undo_refusal() == _("Wait for the server.")
    finally:
        session.close()
    assert session.link == "closed"


def test_a_spectator_has_no_seat_to_act_for() -> None:
    session = RemoteSession(
        Lobby("http://127.0.0.1:9"), on_ui_thread=lambda work: None, watch="WATCH"
    )
    refused = session.submit(Draw(0))
    assert isinstance(refused, Refused) and refused.code == "not_seated"
    assert session.humans == () and session.undo_refusal() == Refused("not_seated").message
    session.close()  # never started: nothing to join


def test_the_app_shows_another_seats_drop_and_its_return(server: Server) -> None:
    """Against a real server (issue 24): Ann's connection drops, and Bob's app says so at once,
    the grace counting down; she is back, and it says nothing any more."""
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "grace": 60})
    ann_seat, bob_seat = (lobby.join(table["code"], name) for name in ("Ann", "Bob"))
    ui_thread: queue.Queue[Callable[[], None]] = queue.Queue()
    bob = RemoteSession(
        lobby, on_ui_thread=ui_thread.put, table=table["table"], token=bob_seat["token"], seat=1
    )
    ann = Session(lobby, table=table["table"], token=ann_seat["token"], seat=0)
    ann.connect()
    bob.start()

    def until(done: Callable[[], bool]) -> None:
        while not done():
            ui_thread.get(timeout=20)()  # as the UI thread would

    try:
        until(lambda: bob.started and bob.link == "online")
        assert bob.banner() == ""
        ann.close()
        until(lambda: bob.banner().startswith("Ann is not connected"))
        assert bob.banner().endswith("unless they connect.")
        back = lobby.rejoin(table["table"], ann_seat["token"])
        ann = Session(lobby, table=table["table"], token=back["token"], seat=0)
        ann.connect()
        until(lambda: bob.banner() == "")
    finally:
        ann.close()
        bob.close()
