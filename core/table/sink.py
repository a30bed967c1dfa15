"""Where a table stores its events when it keeps no JSONL record: the :class:`EventSink`
protocol a server's database implements."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from cinco.core.engine.events import Event

__all__ = ["EventSink"]


class EventSink(Protocol):
    """Where a table stores its events instead of a JSONL record file
    (:class:`~cinco.core.records.recording.RecordFile`): a server's database, say. The table
    calls it from its own thread only: ``append`` for each new event in order, then ``commit``
    once the events of one request (a whole turn, or the deal) are appended, before anyone is
    sent them; ``sync`` at the game's end, ``close`` when the table closes. A ``commit`` stores
    all of its events or, raising ``OSError``, none of them, and then forgets them: the table
    refuses the request (``record_failed``) and takes its events back, and the next
    ``append`` follows the last event stored."""

    @property
    def path(self) -> Path | None: ...

    def append(self, event: Event) -> None: ...

    def commit(self) -> None: ...

    def sync(self) -> None: ...

    def close(self) -> None: ...
