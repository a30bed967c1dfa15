"""Games played by the engine, written as records and damaged on
purpose, and a referee of the tests' own that checks a log with plain lists.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from cinco.core.engine.board import SPACES
from cinco.core.engine.commands import Exchange
from cinco.core.engine.config import GameConfig, Seat
from cinco.core.engine.errors import RecordError
from cinco.core.engine.events import (
    DeckShuffled,
    Event,
    GameEnded,
    GameStarted,
    Notice,
    TurnEnded,
    event_from_dict,
)
from cinco.core.game.game import Game
from cinco.core.host.registry import default_registry
from cinco.core.records.record import dumps, header, loads

# -- folded in from the hardening campaign's test_hardening_records.py (issue 26) -----------------


REGISTRY = default_registry()

ALL_CARDS = list(range(1, SPACES + 1))


def bot_game(
    players: int = 2, seed: int = 1, bots: Sequence[str] = ("random",), turn_limit: int = 200
) -> Game:
    seats = [Seat(f"b{i}", bot=bots[i % len(bots)]) for i in range(players)]
    config = REGISTRY.configure(players, seats=seats, seed=seed, turn_limit=turn_limit)
    game = Game.new(config)
    game.play_bots()
    assert game.is_over
    return game


def exchange_game(turns: int = 48, seed: int = 4) -> Game:
    """Two people who exchange every turn: the draw pile runs out, and is reshuffled (A6)."""
    game = Game.new(REGISTRY.configure(2, seed=seed, first_seat=0))
    for _ in range(turns):
        game.execute(Exchange(game.state.current_seat))
    assert any(isinstance(e, DeckShuffled) and e.reshuffle for e in game.events)
    return game


def record_lines(events: Sequence[Event], **head: Any) -> list[str]:
    return [json.dumps(header(**head))] + [dumps(event) for event in events]


def text_of(lines: Sequence[str]) -> str:
    return "\n".join(lines) + "\n"


def refused(lines: Sequence[str], **kwargs: Any) -> RecordError:
    with pytest.raises(RecordError) as caught:
        loads(text_of(lines), **kwargs)
    error = caught.value
    assert error.__cause__ is None, f"an internal error, not a clean refusal: {error}"
    return error


def notice_line() -> str:
    """A notice, as an old (version 1) record holds it: every Cinco reads it."""
    return json.dumps({"type": "notice", "v": 1, "kind": "note", "text": "hello", "seat": None})


def a_notice() -> Notice:
    notice = event_from_dict(json.loads(notice_line()))
    assert isinstance(notice, Notice)
    return notice


def turn_starts(events: Sequence[Event]) -> list[int]:
    """The indices of the first event of each turn."""
    first = events[0]
    assert isinstance(first, GameStarted)
    starts, index = [], 2 + 4 * first.config.players
    while index < len(events):
        starts.append(index)
        while not isinstance(events[index], TurnEnded | GameEnded):
            index += 1
        index += 1
    return starts


def _config(players: int, teams: int, layout: str) -> GameConfig:
    seats = tuple(Seat(f"p{i}") for i in range(players))
    return GameConfig(seats=seats, teams=teams, layout=layout, seed=3, first_seat=0)
