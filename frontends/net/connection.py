"""One WebSocket connection of ``cinco serve``: the :class:`Connection` that carries one
viewer's frames (a seat's, or a spectator's) through a bounded queue, with its rate limit,
and the limits and close codes every connection shares."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket

from cinco.core.engine.events import Event, Viewer
from cinco.core.engine.projection import StreamCursor
from cinco.core.table.protocol import PROTOCOL_VERSION, Envelope, Message, Prompt

logger = logging.getLogger("cinco.server")

#: The largest message a client may send (bytes of JSON); a bigger one closes the connection.
MAX_MESSAGE = 16 * 1024
#: Frames waiting for one client; a client that lets more pile up is dropped (it reconnects
#: and resumes with ``after=SEQ``): a slow client never holds up the table.
QUEUE_LIMIT = 1024
#: Requests per second a connection may send (a token bucket of RATE_BURST).
RATE = 10.0
RATE_BURST = 30.0

#: Seconds between the server's keepalive pings to each client, and how long it waits for
#: the pong: a connection gone silent (a half-open socket, a laptop shut) is closed, and its
#: seat's drop told to everyone, at most PING_INTERVAL + PING_TIMEOUT seconds after it went.
#: (At 1,000 connections a ping every 10 s is 100 frames a second, against the 1,000 a
#: second of 250 busy tables: benchmarks/server_load.py.)
PING_INTERVAL = 10.0
PING_TIMEOUT = 5.0

#: WebSocket close codes (4000-4999 are the application's).
CLOSE_TOO_SLOW = 4008
CLOSE_REPLACED = 4009
CLOSE_LEFT = 4010
CLOSE_TOO_MANY = 4029
CLOSE_TOO_BIG = 1009


def bearer(headers: Any) -> str | None:
    """The credential of an ``Authorization: Bearer …`` header, or ``None``."""
    value = headers.get("authorization")
    if not isinstance(value, str):
        return None
    scheme, _sep, credential = value.partition(" ")
    if scheme.lower() != "bearer" or not credential.strip():
        return None
    return credential.strip()


#: The WebSocket subprotocol a browser asks for: a page cannot send an Authorization header,
#: so it offers ``["cinco", "bearer.TOKEN"]`` and the server accepts ``cinco``.
SUBPROTOCOL = "cinco"
_OFFERED = "bearer."


def socket_credential(headers: Any) -> str | None:
    """A WebSocket's credential: its ``Authorization: Bearer …`` header, or the
    ``bearer.TOKEN`` subprotocol a browser offers (never a URL: it would be logged)."""
    credential = bearer(headers)
    if credential is not None:
        return credential
    offered = headers.get("sec-websocket-protocol")
    if not isinstance(offered, str):
        return None
    for item in offered.split(","):
        item = item.strip()
        if item.startswith(_OFFERED) and len(item) > len(_OFFERED):
            return item[len(_OFFERED) :]
    return None


def offers_subprotocol(headers: Any) -> bool:
    offered = headers.get("sec-websocket-protocol")
    return isinstance(offered, str) and SUBPROTOCOL in (p.strip() for p in offered.split(","))


def frame(message: Message) -> str:
    """*message* as the compact JSON text of one WebSocket frame."""
    return json.dumps(message.to_dict(), separators=(",", ":"))


def _compact(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


class Frames:
    """Frames made once for all the connections one change is sent to: a message sent to
    several (a clock, a presence notice) is encoded once, and so is an event every viewer
    sees alike (most events: :meth:`Event.seen_by` returns the event itself when it hides
    nothing from the viewer), each viewer's envelope around it. The text is the same as
    :func:`frame`'s. Keep one only while the messages it saw are alive (one flush): it
    knows them by identity.

    >>> from cinco.core.engine.events import TurnEnded
    >>> frames, event = Frames(), TurnEnded(seat=0, action="draw", next_seat=1)
    >>> text = frames.of(Envelope("t1", 4, event))
    >>> text == frame(Envelope("t1", 4, event)), frames.of(Envelope("t1", 4, event)) == text
    (True, True)
    """

    __slots__ = ("_made",)

    def __init__(self) -> None:
        # id -> (the object, kept alive so that its id is not reused, and its JSON text)
        self._made: dict[int, tuple[object, str]] = {}

    def of(self, message: Message) -> str:
        if isinstance(message, Envelope):
            event = self._text(message.event)
            return (
                f'{{"type":"event","v":{PROTOCOL_VERSION},"table":{_compact(message.table)},'
                f'"seq":{message.seq},"event":{event}}}'
            )
        return self._text(message)

    def _text(self, thing: Message | Event) -> str:
        made = self._made.get(id(thing))
        if made is None:
            made = (thing, _compact(thing.to_dict()))
            self._made[id(thing)] = made
        return made[1]


class Connection:
    """One WebSocket: a viewer (a seat number, or ``None`` for a spectator), a bounded queue of
    frames and the task that sends them."""

    def __init__(
        self, websocket: WebSocket, viewer: Viewer, *, rate: float = RATE, burst: float = RATE_BURST
    ) -> None:
        self.websocket = websocket
        self.rate, self.burst = rate, burst
        self.viewer = viewer
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_LIMIT)
        #: Where the viewer's stream stands: the last event and prompt sent (the client
        #: subscribed after an event: StreamCursor.resume).
        self.cursor = StreamCursor()
        self.subscribed = False
        self.closed = False
        self.close_code = 1000
        self.tokens = burst
        self.stamp = time.monotonic()
        #: A web page's words (``?lang=``): a message's JSON with its words added
        #: (:class:`cinco.frontends.web.narrated.Words`); ``None`` for every other client.
        self.words: Callable[[Message], dict[str, Any]] | None = None

    def frame(self, message: Message) -> str:
        """*message* as this client's frame: with words, if the client asked for them."""
        if self.words is None:
            return frame(message)
        return json.dumps(self.words(message), separators=(",", ":"), ensure_ascii=False)

    def deliver(self, message: Message, frames: Frames | None = None) -> None:
        """Queue *message* for the client (an event it has had already is skipped); *frames*
        shares its encoding with the other connections it goes to."""
        if self.closed or not self.subscribed:
            return
        if isinstance(message, Envelope) and not self.cursor.envelope_due(message.seq):
            return
        if isinstance(message, Prompt) and not self.cursor.prompt_due(message.seq):
            return
        if self.words is not None:
            self.push(self.frame(message))
        else:
            self.push(frame(message) if frames is None else frames.of(message))

    def push(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            logger.info("dropping a slow client (viewer %r)", self.viewer)
            self.close(CLOSE_TOO_SLOW)

    def close(self, code: int = 1000) -> None:
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)
        if self.queue.full():  # make room for the end mark: the client is gone anyway
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    def allow(self) -> bool:
        """The rate limit: one token per request, RATE tokens a second."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def send_loop(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self.websocket.send_text(text)
            await self.websocket.close(self.close_code)
        except Exception:  # the client went away: nothing more to send
            self.closed = True
