"""Tests of the No exchange variant, through Cinco's public API only."""

from __future__ import annotations

import cinco_no_exchange
import pytest

from cinco import Exchange, Game, IllegalCommand, Registry, Seat


@pytest.fixture
def registry() -> Registry:
    # The plugin module is registered by hand, so these tests also run from a source checkout.
    return Registry(entry_points=False, plugins=[cinco_no_exchange])


def test_a_full_hand_may_not_exchange(registry: Registry) -> None:
    game = Game.new(
        registry.configure(2, variants=["no-exchange"], seed=1, first_seat=0), registry=registry
    )
    legal = game.legal_actions()
    assert not legal.can_exchange and not legal.can_draw
    assert not any(isinstance(command, Exchange) for command in legal)
    with pytest.raises(IllegalCommand) as refused:
        game.execute(Exchange(seat=0))
    assert refused.value.code == "action_not_allowed"
    assert cinco_no_exchange.REASON in str(refused.value)  # the player is told why


def test_the_standard_game_still_exchanges(registry: Registry) -> None:
    game = Game.new(registry.configure(2, seed=1, first_seat=0), registry=registry)
    assert game.legal_actions().can_exchange


@pytest.mark.parametrize("bot", ["random", "greedy", "ismcts"])
def test_bots_never_exchange(registry: Registry, bot: str) -> None:
    for seed in range(2):
        config = registry.configure(
            2,
            variants=["no-exchange"],
            seed=seed,
            turn_limit=400,
            seats=[Seat("a", bot=bot), Seat("b", bot="greedy")],
            options={"bot_iterations": 40},
        )
        game = Game.new(config, registry=registry)
        game.play_bots()
        assert game.is_over
        assert not any(event.type == "notice" for event in game.events)  # no bot_replaced
        assert not any(event.type == "hand_discarded" for event in game.events)
