"""The viewer's side of a table: the :class:`SeatHandle` a seat or a spectator holds. It keeps
the viewer's own fold of its stream (a :class:`~cinco.core.engine.projection.Projection`), and
reaches the table only through its :class:`~cinco.core.table.channel.TableChannel`, with
seat-protocol messages (:mod:`cinco.core.table.protocol`)."""

from __future__ import annotations

import queue
from collections.abc import Callable, Sequence
from concurrent.futures import Future

from cinco.core.engine.commands import Command
from cinco.core.engine.config import GameConfig
from cinco.core.engine.events import Viewer
from cinco.core.engine.legal import LegalActions
from cinco.core.engine.projection import NOTHING, Projection, closes_turn
from cinco.core.engine.state import GameState
from cinco.core.table.channel import TableChannel
from cinco.core.table.protocol import (
    Accepted,
    Check,
    Envelope,
    Hint,
    Hinted,
    Message,
    Prompt,
    Refused,
    Submit,
    Subscribe,
    Undo,
)
from cinco.core.table.requests import ViewerRequest

__all__ = ["Listener", "SeatHandle"]

#: Called with every message a handle takes in.
Listener = Callable[[Message], None]


class SeatHandle:
    """What one viewer at a table holds: a seat's, or a spectator's.

    The handle keeps the viewer's own copy of the game, folded from the projected events it
    receives (so :attr:`view` never waits for the table), and the legal actions the table sent
    with the last prompt. Messages arrive in an inbox; :meth:`pump` takes them in (every
    request does too) and passes each to the listeners.
    """

    __slots__ = (
        "_blocked",
        "_channel",
        "_inbox",
        "_legal",
        "_listeners",
        "_projection",
        "_stream",
        "table",
        "viewer",
    )

    def __init__(
        self,
        channel: TableChannel,
        stream: str,
        inbox: queue.SimpleQueue[Message],
        viewer: Viewer,
        table: str,
    ) -> None:
        self._channel = channel
        self._stream = stream
        self._inbox = inbox
        #: The seat number, or ``None`` for a spectator.
        self.viewer = viewer
        self.table = table
        self._projection: Projection[Envelope] = Projection()
        self._legal: LegalActions | None = None
        self._blocked: Refused | None = None
        self._listeners: list[Listener] = []
        self._request(Subscribe(NOTHING))

    # -- what the viewer knows -----------------------------------------------------------------

    @property
    def seat(self) -> int | None:
        return self.viewer if isinstance(self.viewer, int) else None

    @property
    def view(self) -> GameState:
        """The game as this viewer sees it, up to the last event received."""
        self.pump()
        view = self._projection.state
        assert view is not None
        return view

    @property
    def config(self) -> GameConfig:
        """The game's configuration as this viewer sees it (no seed)."""
        return self.view.config

    @property
    def seq(self) -> int:
        """The number of the last event received (``-1``: none yet)."""
        self.pump()
        return self._projection.seq

    def legal(self) -> LegalActions:
        """What this seat may do now: empty unless it is this seat's turn."""
        self.pump()
        view = self._projection.state
        seat = self.viewer if isinstance(self.viewer, int) else 0
        if self._legal is None or view is None or view.is_over or view.current_seat != seat:
            return LegalActions(seat, (), False, False)
        return self._legal

    @property
    def blocked(self) -> Refused | None:
        """Why this seat, to move, has no legal actions (a variant's rule hook failed while
        the table worked them out), or ``None``."""
        self.pump()
        return self._blocked

    def events(self, after: int = NOTHING) -> list[Envelope]:
        """The envelopes received so far with a ``seq`` after *after*."""
        self.pump()
        return self._projection.after(after)

    # -- acting --------------------------------------------------------------------------------

    def submit(self, command: Command) -> Accepted | Refused:
        """Carry out *command* for this seat: ``Accepted`` (the events are in the stream
        already) or ``Refused`` with the reason, and nothing changed."""
        answer = self._request(Submit(command))
        assert isinstance(answer, Accepted | Refused)
        return answer

    def check(self, command: Command) -> Refused | None:
        """Why *command* would be refused now, or ``None`` if it would be accepted."""
        answer = self._request(Check(command))
        return answer if isinstance(answer, Refused) else None

    def undo(self) -> Accepted | Refused:
        """Take back this seat's last action (see :class:`~cinco.core.table.table.Table` for
        when that is allowed)."""
        answer = self._request(Undo())
        assert isinstance(answer, Accepted | Refused)
        return answer

    def hint(
        self, bots: Sequence[str] = ("ismcts", "greedy"), seconds: float = 1.5
    ) -> Hinted | Refused:
        """What the first installed of *bots* would play in this seat's place (it sees only
        this seat's view)."""
        answer = self._request(Hint(tuple(bots), seconds))
        assert isinstance(answer, Hinted | Refused)
        return answer

    def undo_refusal(self) -> Refused | None:
        """Why :meth:`undo` would be refused now, or ``None`` if it would be allowed."""
        answer = self._request(Undo(check=True))
        return answer if isinstance(answer, Refused) else None

    # -- the stream ----------------------------------------------------------------------------

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call *listener(message)* with every envelope and prompt taken in from now on (by
        :meth:`pump`, on the caller's thread). Returns a function that stops it."""
        self._listeners.append(listener)

        def stop() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return stop

    def pump(self) -> list[Message]:
        """Take in every message waiting in the inbox; returns them."""
        taken: list[Message] = []
        while True:
            try:
                message = self._inbox.get_nowait()
            except queue.Empty:
                break
            self._take(message)
            taken.append(message)
        return taken

    def wait(self, timeout: float | None = None) -> list[Message]:
        """:meth:`pump`, waiting up to *timeout* seconds for at least one message."""
        try:
            first = self._inbox.get(timeout=timeout)
        except queue.Empty:
            return []
        self._take(first)
        return [first, *self.pump()]

    def _take(self, message: Message) -> None:
        if isinstance(message, Envelope):
            if self._projection.take(message) and closes_turn(message.event):
                self._legal = None  # the prompt was for the turn that ended
        elif isinstance(message, Prompt):
            self._legal, self._blocked = message.legal, None
        elif isinstance(message, Refused):
            self._legal, self._blocked = None, message
        for listener in list(self._listeners):
            listener(message)

    def send(self, message: Submit | Check | Undo | Hint) -> Future[Message]:
        """The table's answer to *message* as a future, without waiting for it: what
        :meth:`submit`, :meth:`check`, :meth:`undo` and :meth:`hint` wait for. An event loop
        awaits it (``await asyncio.wrap_future(handle.send(message))``) instead of holding a
        thread; call :meth:`pump` after it is answered to take in the turn's messages."""
        return self._channel.send(ViewerRequest(self._stream, message))

    def call_off(self) -> None:
        """Stop a hint the table is thinking on for this handle now: it is answered
        ``no_hint_bot`` at once (its asker left, say)."""
        self._channel.call_off(self._stream)

    def _request(self, message: Message) -> Message:
        answer = self._channel.call(ViewerRequest(self._stream, message))
        self.pump()
        return answer

    def __repr__(self) -> str:
        who = "spectator" if self.viewer is None else f"seat {self.viewer}"
        return f"<SeatHandle {who} at table {self.table}>"
