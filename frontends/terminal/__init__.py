"""The terminal game: ``cinco --frontend cli`` (the default).

It holds no rules: it reads legal moves from the game (:meth:`cinco.core.game.Game.legal_actions`),
sends commands to it, and draws the projection of the player whose turn it is, learned from the
game's event stream.
"""

from __future__ import annotations

from cinco.frontends.terminal.app import play

__all__ = ["play"]
