"""An append-only event store with subscribers.

>>> from cinco.core.engine.config import GameConfig
>>> from cinco.core.engine.rules import setup_events
>>> store = EventStore()
>>> seen = []
>>> unsubscribe = store.subscribe(lambda index, event: seen.append(index))
>>> for event in setup_events(GameConfig.for_players(2)):
...     index = store.append(event)
>>> len(store), seen[:3]
(10, [0, 1, 2])
>>> store.state_at(2).draw_pile[:0], len(store.state_at(2).draw_pile)
((), 90)
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence

from cinco.core.engine.events import Event
from cinco.core.engine.faults import user_interrupt
from cinco.core.engine.state import GameState, fold

Subscriber = Callable[[int, Event], None]

logger = logging.getLogger("cinco")


def _log_failure(exc: BaseException) -> None:
    logger.warning("A subscriber of a game failed and was switched off: %r", exc)


class EventStore(Sequence[Event]):
    """The events of one game, in order. Events are only ever added at the end."""

    def __init__(self, events: Sequence[Event] = ()) -> None:
        self._events: list[Event] = list(events)
        self._subscribers: list[Subscriber] = []
        #: Told of a subscriber that raised (after it is switched off); by default it is
        #: logged. The event is stored all the same: a subscriber cannot undo a fact.
        self.on_error: Callable[[BaseException], None] = _log_failure

    def append(self, event: Event) -> int:
        """Store *event*, tell every subscriber, and return its index.

        A subscriber that raises (``BaseException`` included, :mod:`cinco.core.engine.faults`) is
        unsubscribed and reported to :attr:`on_error`; the others are still told, and the event
        stays stored. The user's Ctrl-C goes on up, the event stored.
        """
        index = len(self._events)
        self._events.append(event)
        if self._subscribers:
            for subscriber in list(self._subscribers):  # a subscriber may unsubscribe
                try:
                    subscriber(index, event)
                except BaseException as exc:  # one watcher must not stop the game or others
                    if user_interrupt(exc):
                        raise
                    if subscriber in self._subscribers:
                        self._subscribers.remove(subscriber)
                    self.on_error(exc)
        return index

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call *subscriber(index, event)* for every event appended from now on.

        Returns a function that unsubscribes it.
        """
        self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            if subscriber in self._subscribers:
                self._subscribers.remove(subscriber)

        return unsubscribe

    def __len__(self) -> int:
        return len(self._events)

    def __getitem__(self, index: int) -> Event:  # type: ignore[override]
        return self._events[index]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def state_at(self, count: int) -> GameState:
        """The state after the first *count* events (rewind; undo)."""
        if not 1 <= count <= len(self._events):
            raise IndexError(f"a state exists after 1 to {len(self._events)} events, not {count}")
        return fold(self._events[:count])
