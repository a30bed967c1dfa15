"""A game's configuration: its options are deeply immutable and a private copy, it
compares, hashes and round-trips, and what a record cannot hold is refused.
"""

from __future__ import annotations

import copy
import json
import pickle
from dataclasses import replace
from typing import Any

import pytest

from cinco import Game, Seat
from cinco.core.engine.config import GameConfig
from cinco.core.engine.errors import ConfigError
from cinco.core.engine.events import GameStarted, event_from_dict
from cinco.core.records.record import dumps, header, loads

# -- folded in from the hardening campaign's test_hardening_core.py (issue 26) --------------------


OPTIONS: dict[str, Any] = {"bot_time_budget": 5.0, "trace": [1, [2, 3]], "nested": {"a": [4]}}


def test_options_are_read_only_and_a_private_copy() -> None:
    given = copy.deepcopy(OPTIONS)
    config = GameConfig.for_players(2, seed=1, options=given)
    given["bot_time_budget"] = 0.001  # the caller's dict is not the game's
    given["trace"].append(9)
    assert config.options["bot_time_budget"] == 5.0
    assert config.options["trace"] == (1, (2, 3))
    with pytest.raises(TypeError):
        config.options["bot_time_budget"] = 0.001  # type: ignore[index]
    with pytest.raises(TypeError):
        config.options["nested"]["a"] = 1
    with pytest.raises(AttributeError):
        config.options["trace"].append(9)
    with pytest.raises(AttributeError):
        config.options.clear()  # type: ignore[attr-defined]


def test_nobody_holding_a_view_can_change_the_games_options() -> None:
    """A bot's (or any seat's) configuration is the game's without the seed: it once shared
    the options dict with the first event, so a bot could change the game's time budget."""
    seats = [Seat("a", bot="random"), Seat("b", bot="random")]
    config = GameConfig(seats=tuple(seats), teams=2, layout="2x1", seed=3, options=OPTIONS)
    game = Game.new(config)
    for viewer in (0, 1, None):
        with pytest.raises(TypeError):
            game.view(viewer).config.options["bot_time_budget"] = 0.0  # type: ignore[index]
    started = game.events[0]
    assert isinstance(started, GameStarted)
    with pytest.raises(TypeError):
        started.config.options["bot_time_budget"] = 0.0  # type: ignore[index]
    assert game.bot_time_budget == 5.0
    assert started.config.options["bot_time_budget"] == 5.0
    game.play_bots(max_turns=6)
    again = Game.from_events(list(game.events))  # undo and resume rebuild from the log
    assert again.config == game.config and again.state == game.state


def test_config_equality_hash_and_round_trips() -> None:
    config = GameConfig.for_players(2, seed=7, options=OPTIONS)
    same = GameConfig.for_players(2, seed=7, options=copy.deepcopy(OPTIONS))
    assert config == same and hash(config) == hash(same)
    assert {config: 1}[same] == 1
    assert config != replace(config, options={"bot_time_budget": 5.0})
    assert GameConfig.from_dict(config.to_dict()) == config
    assert GameConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config
    assert pickle.loads(pickle.dumps(config)) == config
    assert copy.deepcopy(config) == config and copy.copy(config) == config
    assert replace(config, seed=None).options == config.options
    # Options of plain scalars still equal a plain dict.
    plain = GameConfig.for_players(2, options={"bot_iterations": 5})
    assert plain.options == {"bot_iterations": 5}
    assert GameConfig.for_players(2).options == {}


def test_to_dict_gives_plain_json() -> None:
    data = GameConfig.for_players(2, seed=7, options=OPTIONS).to_dict()
    assert data["options"] == OPTIONS
    assert type(data["options"]) is dict and type(data["options"]["nested"]) is dict
    assert type(data["options"]["trace"]) is list and type(data["options"]["trace"][1]) is list
    assert json.loads(json.dumps(data))["options"] == OPTIONS
    data["options"]["trace"].append(9)  # the JSON form is a copy
    started = GameStarted(config=GameConfig.from_dict(data), first_seat=0)
    assert event_from_dict(json.loads(dumps(started))) == started


def test_a_record_keeps_nested_options() -> None:
    config = GameConfig.for_players(2, seed=2, first_seat=0, options=OPTIONS)
    game = Game.new(config)
    text = "\n".join([json.dumps(header()), *map(dumps, game.events)]) + "\n"
    loaded = loads(text)
    first = loaded.events[0]
    assert isinstance(first, GameStarted)
    assert first.config == config and first.config.to_dict()["options"] == OPTIONS


@pytest.mark.parametrize(
    "options", [{"x": object()}, {1: "x"}, {"x": {2: 1}}, {"x": {1, 2}}, ["bot_time_budget"]]
)
def test_options_a_record_cannot_hold_are_refused(options: Any) -> None:
    with pytest.raises(ConfigError):
        GameConfig.for_players(2, options=options)


def test_a_seat_read_with_a_list_for_its_bot_is_refused() -> None:
    """A seat's bot and level are names: a list (mutable, unhashable) is refused clearly."""
    from cinco.core.engine.config import Seat as ConfigSeat
    from cinco.core.engine.errors import ConfigError as SeatError

    with pytest.raises(SeatError, match="bot"):
        ConfigSeat.from_dict({"name": "Ann", "bot": ["greedy"]})
    assert ConfigSeat.from_dict({"name": "Ann", "bot": "greedy"}).bot == "greedy"
