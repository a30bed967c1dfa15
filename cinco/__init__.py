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

__version__ = "0.1.0"

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
from cinco.core.registry import Bot, BotContext, BotSpec, Registry, Variant, default_registry
from cinco.core.rules import ONGOING, LegalActions, Outcome, RuleSet, decide
from cinco.core.state import UNKNOWN, GameState, evolve, fold
from cinco.core.table import SeatHandle, Table

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
    "Table",
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
