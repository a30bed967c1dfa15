"""The client's side of networked play: the lobby over HTTP, and one seat's (or a spectator's)
WebSocket, with the client's own fold of what the server sent.

The client never changes its view by itself: it folds the events the server sends (the server
is authoritative) and acts only on a prompt. If the connection drops, it connects again with
backoff and subscribes with ``after=SEQ``: nothing is missed or repeated.
"""

from __future__ import annotations

import errno
import json
import math
import random
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException
from websockets.protocol import State
from websockets.sync.client import ClientConnection, connect

from cinco.core.engine.errors import CincoError, EventError
from cinco.core.engine.legal import LegalActions
from cinco.core.engine.projection import Projection, closes_turn
from cinco.core.engine.state import GameState
from cinco.core.table.protocol import (
    SCHEMAS,
    Accepted,
    Clock,
    Envelope,
    Hinted,
    Message,
    Presence,
    Prompt,
    Refused,
    Subscribe,
    message_from_json,
)
from cinco.core.words.messages import freeze, render

#: Seconds to wait between attempts to connect again (then the last one, until it gives up).
BACKOFF = (0.2, 0.5, 1.0, 2.0, 4.0)
#: Seconds to wait, after connecting again, for the server's answer to the subscription.
RESUME_WAIT = 10.0


def _pause(attempt: int) -> None:
    """Wait before connection attempt *attempt* + 1: the backoff step, less up to half of it
    at random, so that the clients of a restarted server do not all come back in the same
    instant (and then send their keepalive pings in the same instant every 20 s)."""
    step = BACKOFF[min(attempt, len(BACKOFF) - 1)]
    time.sleep(step * random.uniform(0.5, 1.0))


RECONNECT_FOR = 60.0
#: The client's keepalive pings (seconds between two, and how long it waits for the pong):
#: a connection gone silent is noticed within their sum, even while nothing is sent.
PING_INTERVAL = 10.0
PING_TIMEOUT = 10.0
#: Seconds one attempt to connect again may take when made while the person types.
QUICK_OPEN = 3.0


class NetError(CincoError):
    """The server said no (``status``: the HTTP status, ``code``: its error code), or could
    not be reached (0). ``unreachable``: nothing was sent to a server (the connection was
    refused, the address not found) or it answered that it cannot serve now (``502``,
    ``503``, ``504``): asking again later is safe."""

    status: int = 0
    code: str = ""
    unreachable: bool = False


#: HTTP statuses that say "not now": a proxy without its server, or a server whose store
#: cannot write for the moment.
UNAVAILABLE = (502, 503, 504)


def _not_sent(error: BaseException) -> bool:
    """Whether *error* (a reason urllib gives) means the request never reached a server."""
    if isinstance(error, ConnectionRefusedError | socket.gaierror):
        return True
    return isinstance(error, OSError) and error.errno in (
        errno.ECONNREFUSED,
        errno.EHOSTUNREACH,
        errno.ENETUNREACH,
        errno.EHOSTDOWN,
        errno.EADDRNOTAVAIL,
    )


def _type_of(text: str | bytes) -> object:
    """The ``type`` of a frame that is a JSON object (``None``: not one)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data.get("type") if isinstance(data, dict) else None


# -- the lobby --------------------------------------------------------------------------------


class Lobby:
    """The server's HTTP API at *base* (``http://host:8765``)."""

    def __init__(self, base: str, *, timeout: float = 15.0) -> None:
        if "://" not in base:
            base = "http://" + base
        self.base = base.rstrip("/")
        self.timeout = timeout

    def _call(
        self, method: str, path: str, body: dict[str, Any] | None = None, token: str | None = None
    ) -> bytes:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw: bytes = response.read()
                return raw
        except urllib.error.HTTPError as exc:
            text, code = exc.reason, ""
            try:
                answer = json.loads(exc.read())
                if isinstance(answer, dict):
                    text, code = answer.get("message", text), str(answer.get("error", ""))
            except (ValueError, OSError):
                pass
            error = NetError(f"{self.base}: {text} ({exc.code})")
            error.status, error.code = exc.code, code
            error.unreachable = exc.code in UNAVAILABLE
            raise error from None
        except (urllib.error.URLError, OSError) as exc:
            reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
            error = NetError(f"{self.base}: cannot reach the server ({reason})")
            error.unreachable = isinstance(reason, BaseException) and _not_sent(reason)
            raise error from None

    def _json(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        data = json.loads(self._call(*args, **kwargs))
        if not isinstance(data, dict):
            raise NetError(f"{self.base}: not an answer this Cinco understands")
        return data

    def create(self, settings: dict[str, Any]) -> dict[str, Any]:
        return self._json("POST", "/api/tables", settings)

    def tables(self) -> list[dict[str, Any]]:
        tables = self._json("GET", "/api/tables").get("tables", [])
        return list(tables) if isinstance(tables, list) else []

    def join(self, code: str, name: str | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"code": code}
        if name:
            body["name"] = name
        return self._json("POST", "/api/join", body)

    def leave(self, table: str, token: str) -> dict[str, Any]:
        return self._json("POST", f"/api/tables/{table}/leave", {}, token=token)

    def rejoin(self, table: str, token: str) -> dict[str, Any]:
        """Come back to the seat of *token*: the answer has a new token (the old one dies)."""
        return self._json("POST", f"/api/tables/{table}/rejoin", {}, token=token)

    def rematch(self, table: str, token: str) -> dict[str, Any]:
        """The rematch of finished *table* (made by the first to ask): with a seat token,
        ``{"table", "seat", "token", "name", "code", "watch"}`` for the same seat there."""
        return self._json("POST", f"/api/tables/{table}/rematch", {}, token=token)

    def table(self, table: str) -> dict[str, Any]:
        return self._json("GET", f"/api/tables/{table}")

    def record(self, table: str, owner: str | None = None) -> str:
        return self._call("GET", f"/api/tables/{table}/record", token=owner).decode("utf-8")

    def ws_url(self, path: str) -> str:
        parts = urlsplit(self.base)
        scheme = "wss" if parts.scheme == "https" else "ws"
        return urlunsplit((scheme, parts.netloc, parts.path + path, "", ""))


# -- the client's fold ------------------------------------------------------------------------


class RemoteView:
    """What one viewer knows: the events the server sent (folded) and its last prompt."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        #: The fold of the stream, and its cursor (a resubscription resumes after it).
        self.projection: Projection[Envelope] = Projection()
        self.prompt: Prompt | None = None
        #: The last turn timers the server sent, and when (this process's monotonic time).
        self.clock: Clock | None = None
        self.clock_at = 0.0
        #: The other seats away now (their connection dropped, or a stand-in plays them):
        #: the server's last ``presence`` about each, and when it came (monotonic time).
        self.away: dict[int, tuple[Presence, float]] = {}

    @property
    def log(self) -> list[Envelope]:
        """The envelopes taken, in order."""
        return self.projection.log

    @property
    def state(self) -> GameState | None:
        """The game as this viewer sees it (``None``: no event yet)."""
        return self.projection.state

    @property
    def seq(self) -> int:
        return self.projection.seq

    @property
    def over(self) -> bool:
        return self.state is not None and self.state.is_over

    def take(self, message: Message) -> bool:
        """Fold *message*; returns whether it was new."""
        if isinstance(message, Envelope):
            if not self.projection.take(message):
                return False  # a repeat (or a gap, which a resubscription fills)
            if closes_turn(message.event):
                self.prompt = None
            return True
        if isinstance(message, Prompt):
            self.prompt = message
            return True
        if isinstance(message, Clock):
            self.clock, self.clock_at = message, time.monotonic()
            return True
        if isinstance(message, Presence):
            if message.code == "seat_back":
                self.away.pop(message.seat, None)
            else:
                self.away[message.seat] = (message, time.monotonic())
            return True
        return False

    def presences(self) -> list[Presence]:
        """Each seat away now, its grace counted down since the server said it (a
        ``seat_away``'s ``seconds`` are what is left now, in whole seconds)."""
        now = time.monotonic()
        shown = []
        for seat in sorted(self.away):
            message, at = self.away[seat]
            params = dict(message.params)
            seconds = params.get("seconds")
            if message.code == "seat_away" and isinstance(seconds, int | float):
                params["seconds"] = max(0, math.ceil(seconds - (now - at)))
                message = Presence(message.table, seat, message.code, freeze(params))
            shown.append(message)
        return shown

    def presence_text(self) -> str:
        """The words of :meth:`presences`, one after the other (``""``: everyone is here)."""
        return " ".join(render(m.code, dict(m.params)) for m in self.presences())

    def remaining(self) -> tuple[float, ...]:
        """Every seat's seconds left now: the server's last figures, the running clock
        counted down since they came (``()``: the table has no timer)."""
        clock = self.clock
        if clock is None:
            return ()
        spent = time.monotonic() - self.clock_at
        return tuple(
            max(0.0, left - spent) if seat == clock.running else left
            for seat, left in enumerate(clock.remaining)
        )

    def legal(self) -> LegalActions | None:
        """This seat's legal actions if it is its turn now (after the last event)."""
        prompt, state = self.prompt, self.state
        if prompt is None or state is None or state.is_over or prompt.seq != self.seq:
            return None
        if state.current_seat != self.seat:
            return None
        return prompt.legal


# -- one connection -----------------------------------------------------------------------------


class Session:
    """A seat's (token) or a spectator's (watch code) connection to one table."""

    def __init__(
        self,
        lobby: Lobby,
        *,
        table: str | None = None,
        token: str | None = None,
        watch: str | None = None,
        seat: int | None = None,
    ) -> None:
        if (token is None) == (watch is None):
            raise ValueError("a session needs a seat token or a watch code")
        self.lobby = lobby
        self.table = table
        self.token = token
        self.secret = token if token is not None else watch
        self.path = f"/ws/tables/{table}" if token is not None else "/ws/watch"
        self.view = RemoteView(seat)
        self.listeners: list[Callable[[Message], None]] = []
        self._ws: ClientConnection | None = None
        #: Answers still due to this connection's ``subscribe`` (not a request's answer).
        self._subscribing = 0
        #: Called when a connection that was open is about to be made again (to say so).
        self.on_reconnect: Callable[[], None] | None = None
        self._was_open = False
        self._tried = 0.0

    # -- connecting ---------------------------------------------------------------------------

    def open(self, open_timeout: float = 10.0) -> None:
        """Connect and subscribe after the last event this client has."""
        ws = connect(
            self.lobby.ws_url(self.path),
            additional_headers={"Authorization": f"Bearer {self.secret}"},
            open_timeout=open_timeout,
            max_size=4 * 1024 * 1024,
            ping_interval=PING_INTERVAL,
            ping_timeout=PING_TIMEOUT,
        )
        self._ws = ws
        self._subscribing = 1
        self._was_open = True
        ws.send(json.dumps(Subscribe(self.view.seq).to_dict()))

    def connect(self) -> None:
        """:meth:`open`, trying again with backoff for a while."""
        if self._was_open and self.on_reconnect is not None:
            self.on_reconnect()
        deadline = time.monotonic() + RECONNECT_FOR
        attempt = 0
        while True:
            try:
                self.open()
                return
            except InvalidStatus as exc:
                # 503: another server process holds the table (a shared database), or is
                # giving it up: try again, as for a server that is away.
                if exc.response.status_code != 503 or time.monotonic() > deadline:
                    refused = NetError(f"the server refused the connection ({exc})")
                    refused.status = exc.response.status_code  # 403: no such token or code
                    raise refused from None
                _pause(attempt)
                attempt += 1
            except (OSError, WebSocketException, TimeoutError) as exc:
                if time.monotonic() > deadline:
                    raise NetError(f"cannot reach the server ({exc})") from None
                _pause(attempt)
                attempt += 1

    @property
    def lost(self) -> bool:
        """Whether the connection that was open has dropped (closed by the server, or gone
        silent past the keepalive's timeout), before anything was sent or read: a client
        waiting for its person's keys asks, to say so at once. Safe from any thread."""
        ws = self._ws
        return self._was_open and (ws is None or ws.state is not State.OPEN)

    def resume_now(self) -> bool:
        """If the connection dropped, one attempt (at most QUICK_OPEN seconds) to connect
        again and subscribe after the last event; whether it is open now. For a thread that
        watches the connection while the session's own thread waits for a person's line
        (the session is not read meanwhile); the messages wait for :meth:`receive`."""
        if not self.lost:
            return True
        if time.monotonic() - self._tried < 1.0:  # at most one attempt a second
            return False
        self._tried = time.monotonic()
        self._ws = None
        try:
            self.open(open_timeout=QUICK_OPEN)
        except (OSError, WebSocketException, TimeoutError):
            return False
        return True

    def close(self) -> None:
        if self._ws is not None:
            self._ws.close()
            self._ws = None

    # -- messages -----------------------------------------------------------------------------

    def receive(self, timeout: float | None = None) -> Message | None:
        """The next message from the server (folded into :attr:`view`), or ``None`` if none
        came in *timeout* seconds. A dropped connection is made again."""
        while True:
            if self._ws is None:
                self.connect()
            assert self._ws is not None
            try:
                text = self._ws.recv(timeout=timeout)
            except TimeoutError:
                return None
            except ConnectionClosed as exc:
                self._ws = None
                if exc.rcvd is not None and exc.rcvd.code == 4010:
                    raise NetError("this seat was given up (left)") from None
                if exc.rcvd is not None and exc.rcvd.code == 4009:
                    raise NetError("this seat was taken over by another connection") from None
                continue
            message = self._take_text(text)
            if message is not None:
                return message

    def _take_text(self, text: str | bytes) -> Message | None:
        """Fold one frame and tell the listeners (``None``: the subscription's answer, or
        a message of a type this version does not know, from a newer server: skipped)."""
        try:
            message = message_from_json(text)  # the protocol's schema, as the server's
        except EventError:
            if _type_of(text) in SCHEMAS:
                raise
            return None
        if self._subscribing and isinstance(message, Accepted | Refused):
            self._subscribing -= 1  # the subscription's answer: no request's
            if isinstance(message, Refused):
                raise NetError(f"the server refused the subscription ({message.code})")
            return None
        self.view.take(message)
        for listener in list(self.listeners):
            listener(message)
        return message

    def take_waiting(self) -> int:
        """Take in the messages that have come already, without waiting and without
        connecting again (a dropped connection is left to :meth:`receive` or
        :meth:`resume_now`); how many. For the thread that watches the connection while
        the session's own thread waits for a person's line."""
        taken = 0
        while (ws := self._ws) is not None and not self.lost:
            try:
                text = ws.recv(timeout=0)
            except (TimeoutError, ConnectionClosed):
                break
            try:
                if self._take_text(text) is not None:
                    taken += 1
            except NetError:  # a refused subscription: receive says so when it connects
                break
        return taken

    def request(self, message: Message, timeout: float = 60.0) -> Accepted | Refused | Hinted:
        """Send a request and wait for its answer (events and prompts are folded meanwhile).

        If the connection drops first, it is made again, and the request is sent once more
        if the table is where it was when it was asked (the same last event): then it was not
        carried out (the server stores a turn before it answers, and answers a subscription
        after any request it was busy with), so it cannot be carried out twice. Otherwise,
        or if the second try drops too, the answer is ``Refused("connection_lost")``; the
        resumed stream shows what happened instead."""
        asked_at = self.view.seq
        answer = self._request_once(message, timeout)
        lost = isinstance(answer, Refused) and answer.code == "connection_lost"
        if lost and self._resumed_unchanged(asked_at):
            return self._request_once(message, timeout)
        return answer

    def _request_once(self, message: Message, timeout: float) -> Accepted | Refused | Hinted:
        if self._ws is None:
            self.connect()
        assert self._ws is not None
        try:
            self._ws.send(json.dumps(message.to_dict()))
        except ConnectionClosed:
            self._ws = None
            return Refused("connection_lost")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ws = self._ws
            answer = self.receive(timeout=max(0.01, deadline - time.monotonic()))
            if ws is not self._ws:
                return Refused("connection_lost")
            if isinstance(answer, Accepted | Refused | Hinted):
                return answer
        return Refused("timeout")

    def _resumed_unchanged(self, seq: int, timeout: float = RESUME_WAIT) -> bool:
        """Connect again and take in what the server sends up to its answer to the
        subscription; whether the last event is still *seq*."""
        try:
            if self._ws is None:
                self.connect()
            deadline = time.monotonic() + timeout
            while self._subscribing and time.monotonic() < deadline:
                self.receive(timeout=max(0.01, deadline - time.monotonic()))
        except NetError:
            return False
        return not self._subscribing and self.view.seq == seq
