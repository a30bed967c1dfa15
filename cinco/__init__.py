"""Cinco: the card-driven five-in-a-row game on a hexagonal board of 90 numbered spaces.

Everything a program needs is here::

    >>> import cinco
    >>> game = cinco.Game.new(cinco.GameConfig.for_players(2, seed=3, first_seat=0))
    >>> legal = game.legal_actions()
    >>> events = game.execute(cinco.Exchange(seat=0))
    >>> game.state.turn
    1

The modules behind it live in :mod:`cinco.core` (engine), :mod:`cinco.plugins` (built-in
variants, layouts, bots, record writer) and :mod:`cinco.frontends` (command line, terminal game).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from cinco.core.board import SPACES, coordinates, neighbours, space_at
    from cinco.core.commands import Command, Draw, Exchange, PlayCard
    from cinco.core.config import GameConfig, Layout, Seat
    from cinco.core.errors import (
        CincoError,
        ConfigError,
        EventError,
        IllegalCommand,
        PluginError,
        RecordError,
    )
    from cinco.core.events import (
        REFEREE,
        SPECTATOR,
        CardDrawn,
        CardPlayed,
        DeckShuffled,
        Event,
        GameEnded,
        GameStarted,
        HandDiscarded,
        Notice,
        TurnEnded,
        event_from_dict,
    )
    from cinco.core.game import Game
    from cinco.core.hookspecs import HOOK_API_VERSION, hookimpl
    from cinco.core.params import STANDARD_PARAMS, GameParams
    from cinco.core.record import Record, load_record
    from cinco.core.registry import (
        Bot,
        BotContext,
        BotSpec,
        Registry,
        Setting,
        TeamStyle,
        Variant,
        default_registry,
    )
    from cinco.core.rules import ONGOING, LegalActions, Outcome, RuleSet, decide
    from cinco.core.state import UNKNOWN, GameState, evolve, fold
    from cinco.core.table import SeatHandle, Table

# Each name is imported when first used (PEP 562), so that `import cinco` and the command line
# start quickly: `cinco --help` needs none of the engine.
_EXPORTS: dict[str, str] = {
    "SPACES": "cinco.core.board",
    "coordinates": "cinco.core.board",
    "neighbours": "cinco.core.board",
    "space_at": "cinco.core.board",
    "Command": "cinco.core.commands",
    "Draw": "cinco.core.commands",
    "Exchange": "cinco.core.commands",
    "PlayCard": "cinco.core.commands",
    "GameConfig": "cinco.core.config",
    "Layout": "cinco.core.config",
    "Seat": "cinco.core.config",
    "CincoError": "cinco.core.errors",
    "ConfigError": "cinco.core.errors",
    "EventError": "cinco.core.errors",
    "IllegalCommand": "cinco.core.errors",
    "PluginError": "cinco.core.errors",
    "RecordError": "cinco.core.errors",
    "CardDrawn": "cinco.core.events",
    "CardPlayed": "cinco.core.events",
    "DeckShuffled": "cinco.core.events",
    "Event": "cinco.core.events",
    "GameEnded": "cinco.core.events",
    "GameStarted": "cinco.core.events",
    "HandDiscarded": "cinco.core.events",
    "Notice": "cinco.core.events",
    "REFEREE": "cinco.core.events",
    "SPECTATOR": "cinco.core.events",
    "TurnEnded": "cinco.core.events",
    "event_from_dict": "cinco.core.events",
    "Game": "cinco.core.game",
    "HOOK_API_VERSION": "cinco.core.hookspecs",
    "hookimpl": "cinco.core.hookspecs",
    "GameParams": "cinco.core.params",
    "STANDARD_PARAMS": "cinco.core.params",
    "Record": "cinco.core.record",
    "load_record": "cinco.core.record",
    "Bot": "cinco.core.registry",
    "BotContext": "cinco.core.registry",
    "BotSpec": "cinco.core.registry",
    "Registry": "cinco.core.registry",
    "Setting": "cinco.core.registry",
    "TeamStyle": "cinco.core.registry",
    "Variant": "cinco.core.registry",
    "default_registry": "cinco.core.registry",
    "LegalActions": "cinco.core.rules",
    "ONGOING": "cinco.core.rules",
    "Outcome": "cinco.core.rules",
    "RuleSet": "cinco.core.rules",
    "decide": "cinco.core.rules",
    "GameState": "cinco.core.state",
    "UNKNOWN": "cinco.core.state",
    "evolve": "cinco.core.state",
    "fold": "cinco.core.state",
    "SeatHandle": "cinco.core.table",
    "Table": "cinco.core.table",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'cinco' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup is a plain one
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "HOOK_API_VERSION",
    "ONGOING",
    "REFEREE",
    "SPACES",
    "SPECTATOR",
    "STANDARD_PARAMS",
    "UNKNOWN",
    "Bot",
    "BotContext",
    "BotSpec",
    "CardDrawn",
    "CardPlayed",
    "CincoError",
    "Command",
    "ConfigError",
    "DeckShuffled",
    "Draw",
    "Event",
    "EventError",
    "Exchange",
    "Game",
    "GameConfig",
    "GameEnded",
    "GameParams",
    "GameStarted",
    "GameState",
    "HandDiscarded",
    "IllegalCommand",
    "Layout",
    "LegalActions",
    "Notice",
    "Outcome",
    "PlayCard",
    "PluginError",
    "Record",
    "RecordError",
    "Registry",
    "RuleSet",
    "Seat",
    "SeatHandle",
    "Setting",
    "Table",
    "TeamStyle",
    "TurnEnded",
    "Variant",
    "__version__",
    "coordinates",
    "decide",
    "default_registry",
    "event_from_dict",
    "evolve",
    "fold",
    "hookimpl",
    "load_record",
    "neighbours",
    "space_at",
]
