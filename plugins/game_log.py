"""Logs every game's public events to the ``cinco.game`` logger (spectator's view only)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from cinco.core.engine.events import SPECTATOR, Event
from cinco.core.hooks.hookspecs import hookimpl

if TYPE_CHECKING:
    from cinco.core.game.game import Game

logger = logging.getLogger("cinco.game")


@hookimpl
def cinco_event(game: Game, event: Event) -> None:
    if logger.isEnabledFor(logging.DEBUG):
        logger.debug("%s", event.seen_by(SPECTATOR).to_dict())
