"""Cinco: the card-driven five-in-a-row game on a hexagonal board of 90 numbered spaces.

Everything a program needs is here. A frontend is given a :class:`Table`, which runs one game
in its own thread, and for each person at it a :class:`SeatHandle`: that seat's view of the
game (other hands hidden), its legal actions, ``submit``, and the stream of what happens::

    >>> import cinco
    >>> config = cinco.GameConfig.for_players(2, seed=3, first_seat=0)
    >>> with cinco.Table.create(config) as table:
    ...     seat = table.seat(0)
    ...     seat.legal().can_exchange
    ...     answer = seat.submit(cinco.Exchange(seat=0))
    ...     type(answer).__name__, seat.view.turn, seat.view.hand(1)
    True
    ('Accepted', 1, (0, 0, 0, 0))

Under the table, :class:`Game` applies commands and keeps the log (for tools and tests; a
frontend never holds one). The modules behind it live in :mod:`cinco.core` (engine),
:mod:`cinco.plugins` (built-in variants, layouts, bots, record writer) and
:mod:`cinco.frontends` (command line, terminal game).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# The public names are listed twice, both kept in step by tests/test_public_api.py: imported here
# for type checkers and IDEs (``X as X``: an explicit re-export), and in _EXPORTS for the
# interpreter, which imports each name when first used (PEP 562), so that `import cinco` and the
# command line start quickly (`cinco --help` needs none of the engine). __all__ is _EXPORTS'
# names.
if TYPE_CHECKING:
    from cinco.core.engine.actions import ActionSpec as ActionSpec
    from cinco.core.engine.actions import Effect as Effect
    from cinco.core.engine.actions import Place as Place
    from cinco.core.engine.actions import Remove as Remove
    from cinco.core.engine.actions import Take as Take
    from cinco.core.engine.board import SPACES as SPACES
    from cinco.core.engine.board import coordinates as coordinates
    from cinco.core.engine.board import neighbours as neighbours
    from cinco.core.engine.board import space_at as space_at
    from cinco.core.engine.commands import Act as Act
    from cinco.core.engine.commands import Command as Command
    from cinco.core.engine.commands import Draw as Draw
    from cinco.core.engine.commands import Exchange as Exchange
    from cinco.core.engine.commands import PlayCard as PlayCard
    from cinco.core.engine.config import GameConfig as GameConfig
    from cinco.core.engine.config import Layout as Layout
    from cinco.core.engine.config import Seat as Seat
    from cinco.core.engine.errors import CincoError as CincoError
    from cinco.core.engine.errors import ConfigError as ConfigError
    from cinco.core.engine.errors import EventError as EventError
    from cinco.core.engine.errors import IllegalCommand as IllegalCommand
    from cinco.core.engine.errors import PluginError as PluginError
    from cinco.core.engine.errors import RecordError as RecordError
    from cinco.core.engine.events import REFEREE as REFEREE
    from cinco.core.engine.events import SPECTATOR as SPECTATOR
    from cinco.core.engine.events import ActionTaken as ActionTaken
    from cinco.core.engine.events import CardDrawn as CardDrawn
    from cinco.core.engine.events import CardPlayed as CardPlayed
    from cinco.core.engine.events import DeckShuffled as DeckShuffled
    from cinco.core.engine.events import Event as Event
    from cinco.core.engine.events import GameEnded as GameEnded
    from cinco.core.engine.events import GameStarted as GameStarted
    from cinco.core.engine.events import HandDiscarded as HandDiscarded
    from cinco.core.engine.events import Notice as Notice
    from cinco.core.engine.events import TokenRemoved as TokenRemoved
    from cinco.core.engine.events import TurnEnded as TurnEnded
    from cinco.core.engine.events import event_from_dict as event_from_dict
    from cinco.core.engine.legal import LegalActions as LegalActions
    from cinco.core.engine.outcome import ONGOING as ONGOING
    from cinco.core.engine.outcome import Outcome as Outcome
    from cinco.core.engine.params import STANDARD_PARAMS as STANDARD_PARAMS
    from cinco.core.engine.params import GameParams as GameParams
    from cinco.core.engine.rules import RuleSet as RuleSet
    from cinco.core.engine.rules import decide as decide
    from cinco.core.engine.state import UNKNOWN as UNKNOWN
    from cinco.core.engine.state import GameState as GameState
    from cinco.core.engine.state import evolve as evolve
    from cinco.core.engine.state import fold as fold
    from cinco.core.game.game import Game as Game
    from cinco.core.hooks.hookspecs import HOOK_API_VERSION as HOOK_API_VERSION
    from cinco.core.hooks.hookspecs import hookimpl as hookimpl
    from cinco.core.host.declarations import Bot as Bot
    from cinco.core.host.declarations import BotContext as BotContext
    from cinco.core.host.declarations import BotSpec as BotSpec
    from cinco.core.host.declarations import Setting as Setting
    from cinco.core.host.declarations import TeamStyle as TeamStyle
    from cinco.core.host.declarations import Variant as Variant
    from cinco.core.host.registry import Registry as Registry
    from cinco.core.host.registry import default_registry as default_registry
    from cinco.core.records.record import Record as Record
    from cinco.core.records.record import load_record as load_record
    from cinco.core.table.handle import SeatHandle as SeatHandle
    from cinco.core.table.table import Table as Table

#: Each public name, and the module it is imported from.
_EXPORTS: dict[str, str] = {
    "ActionSpec": "cinco.core.engine.actions",
    "Effect": "cinco.core.engine.actions",
    "Place": "cinco.core.engine.actions",
    "Remove": "cinco.core.engine.actions",
    "Take": "cinco.core.engine.actions",
    "SPACES": "cinco.core.engine.board",
    "coordinates": "cinco.core.engine.board",
    "neighbours": "cinco.core.engine.board",
    "space_at": "cinco.core.engine.board",
    "Act": "cinco.core.engine.commands",
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
    "REFEREE": "cinco.core.engine.events",
    "SPECTATOR": "cinco.core.engine.events",
    "ActionTaken": "cinco.core.engine.events",
    "CardDrawn": "cinco.core.engine.events",
    "CardPlayed": "cinco.core.engine.events",
    "DeckShuffled": "cinco.core.engine.events",
    "Event": "cinco.core.engine.events",
    "GameEnded": "cinco.core.engine.events",
    "GameStarted": "cinco.core.engine.events",
    "HandDiscarded": "cinco.core.engine.events",
    "Notice": "cinco.core.engine.events",
    "TokenRemoved": "cinco.core.engine.events",
    "TurnEnded": "cinco.core.engine.events",
    "event_from_dict": "cinco.core.engine.events",
    "ONGOING": "cinco.core.engine.outcome",
    "Outcome": "cinco.core.engine.outcome",
    "STANDARD_PARAMS": "cinco.core.engine.params",
    "GameParams": "cinco.core.engine.params",
    "LegalActions": "cinco.core.engine.legal",
    "RuleSet": "cinco.core.engine.rules",
    "decide": "cinco.core.engine.rules",
    "UNKNOWN": "cinco.core.engine.state",
    "GameState": "cinco.core.engine.state",
    "evolve": "cinco.core.engine.state",
    "fold": "cinco.core.engine.state",
    "Game": "cinco.core.game.game",
    "HOOK_API_VERSION": "cinco.core.hooks.hookspecs",
    "hookimpl": "cinco.core.hooks.hookspecs",
    "Bot": "cinco.core.host.declarations",
    "BotContext": "cinco.core.host.declarations",
    "BotSpec": "cinco.core.host.declarations",
    "Registry": "cinco.core.host.registry",
    "Setting": "cinco.core.host.declarations",
    "TeamStyle": "cinco.core.host.declarations",
    "Variant": "cinco.core.host.declarations",
    "default_registry": "cinco.core.host.registry",
    "Record": "cinco.core.records.record",
    "load_record": "cinco.core.records.record",
    "SeatHandle": "cinco.core.table.handle",
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


__all__ = ["__version__", *_EXPORTS]
