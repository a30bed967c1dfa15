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
    from cinco.core.engine.board import SPACES, coordinates, neighbours, space_at
    from cinco.core.engine.commands import Command, Draw, Exchange, PlayCard
    from cinco.core.engine.config import GameConfig, Layout, Seat
    from cinco.core.engine.errors import (
        CincoError,
        ConfigError,
        EventError,
        IllegalCommand,
        PluginError,
        RecordError,
    )
    from cinco.core.engine.events import (
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
    from cinco.core.engine.params import STANDARD_PARAMS, GameParams
    from cinco.core.engine.rules import ONGOING, LegalActions, Outcome, RuleSet, decide
    from cinco.core.engine.state import UNKNOWN, GameState, evolve, fold
    from cinco.core.game.game import Game
    from cinco.core.host.hookspecs import HOOK_API_VERSION, hookimpl
    from cinco.core.host.registry import (
        Bot,
        BotContext,
        BotSpec,
        Registry,
        Setting,
        TeamStyle,
        Variant,
        default_registry,
    )
    from cinco.core.records.record import Record, load_record
    from cinco.core.table.table import SeatHandle, Table

# Each name is imported when first used (PEP 562), so that `import cinco` and the command line
# start quickly: `cinco --help` needs none of the engine.
_EXPORTS: dict[str, str] = {
    "SPACES": "cinco.core.engine.board",
    "coordinates": "cinco.core.engine.board",
    "neighbours": "cinco.core.engine.board",
    "space_at": "cinco.core.engine.board",
    "Command": "cinco.core.engine.commands",
    "Draw": "cinco.core.engine.commands",
    "Exchange": "cinco.core.engine.commands",
    "PlayCard": "cinco.core.engine.commands",
    "GameConfig": "cinco.core.engine.config",
    "Layout": "cinco.core.engine.config",
    "Seat": "cinco.core.engine.config",
    "CincoError": "cinco.core.engine.errors",
    "ConfigError": "cinco.core.engine.errors",
    "EventError": "cinco.core.engine.errors",
    "IllegalCommand": "cinco.core.engine.errors",
    "PluginError": "cinco.core.engine.errors",
    "RecordError": "cinco.core.engine.errors",
    "CardDrawn": "cinco.core.engine.events",
    "CardPlayed": "cinco.core.engine.events",
    "DeckShuffled": "cinco.core.engine.events",
    "Event": "cinco.core.engine.events",
    "GameEnded": "cinco.core.engine.events",
    "GameStarted": "cinco.core.engine.events",
    "HandDiscarded": "cinco.core.engine.events",
    "Notice": "cinco.core.engine.events",
    "REFEREE": "cinco.core.engine.events",
    "SPECTATOR": "cinco.core.engine.events",
    "TurnEnded": "cinco.core.engine.events",
    "event_from_dict": "cinco.core.engine.events",
    "Game": "cinco.core.game.game",
    "HOOK_API_VERSION": "cinco.core.host.hookspecs",
    "hookimpl": "cinco.core.host.hookspecs",
    "GameParams": "cinco.core.engine.params",
    "STANDARD_PARAMS": "cinco.core.engine.params",
    "Record": "cinco.core.records.record",
    "load_record": "cinco.core.records.record",
    "Bot": "cinco.core.host.registry",
    "BotContext": "cinco.core.host.registry",
    "BotSpec": "cinco.core.host.registry",
    "Registry": "cinco.core.host.registry",
    "Setting": "cinco.core.host.registry",
    "TeamStyle": "cinco.core.host.registry",
    "Variant": "cinco.core.host.registry",
    "default_registry": "cinco.core.host.registry",
    "LegalActions": "cinco.core.engine.rules",
    "ONGOING": "cinco.core.engine.rules",
    "Outcome": "cinco.core.engine.rules",
    "RuleSet": "cinco.core.engine.rules",
    "decide": "cinco.core.engine.rules",
    "GameState": "cinco.core.engine.state",
    "UNKNOWN": "cinco.core.engine.state",
    "evolve": "cinco.core.engine.state",
    "fold": "cinco.core.engine.state",
    "SeatHandle": "cinco.core.table.table",
    "Table": "cinco.core.table.table",
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
