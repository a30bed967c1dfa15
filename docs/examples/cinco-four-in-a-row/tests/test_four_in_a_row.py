"""Tests of the Four in a row variant, through Cinco's public API only."""

from __future__ import annotations

import cinco_four_in_a_row
import pytest

from cinco import Game, Registry, Seat


@pytest.fixture
def registry() -> Registry:
    # The plugin module is registered by hand, so these tests also run from a source checkout.
    return Registry(entry_points=False, plugins=[cinco_four_in_a_row])


def test_the_winning_length_is_recorded(registry: Registry) -> None:
    game = Game.new(registry.configure(2, variants=["four-in-a-row"], seed=1), registry=registry)
    assert game.state.params.winning_length == 4
    assert game.events[0].to_dict()["config"]["params"] == {"winning_length": 4}


@pytest.mark.parametrize("bot", ["random", "greedy", "ismcts"])
def test_bots_win_with_four(registry: Registry, bot: str) -> None:
    lines = []
    for seed in range(2):
        config = registry.configure(
            2,
            variants=["four-in-a-row"],
            seed=seed,
            turn_limit=400,
            seats=[Seat("a", bot=bot), Seat("b", bot="greedy")],
            options={"bot_iterations": 40},
        )
        game = Game.new(config, registry=registry)
        game.play_bots()
        assert game.is_over
        assert not any(event.type == "notice" for event in game.events)  # no bot_replaced
        result = game.state.result
        assert result is not None
        if result.reason == "line":
            assert result.line is not None and len(result.line) >= 4
            lines.append(len(result.line))
    assert lines and min(lines) == 4  # a line of four was enough
