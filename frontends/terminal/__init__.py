"""The terminal game: ``cinco --frontend cli`` (the default).

It holds no rules and no game: it sits people at a :class:`cinco.core.table.table.Table`, reads
legal
moves from their seat handles, sends commands through them, and draws the projection of the
player whose turn it is, learned from that handle's event stream.
"""

from __future__ import annotations

from cinco.frontends.terminal.app import play

__all__ = ["play"]
