"""Tests of the Hand of five variant, through Cinco's public API only."""

from __future__ import annotations

import cinco_hand_of_five
import pytest

from cinco import Draw, Exchange, Game, IllegalCommand, Registry, Seat, event_from_dict, fold


@pytest.fixture
def registry() -> Registry:
    # The plugin module is registered by hand, so these tests also run from a source checkout.
    return Registry(entry_points=False, plugins=[cinco_hand_of_five])


def test_five_cards_are_dealt_and_recorded(registry: Registry) -> None:
    game = Game.new(registry.configure(2, variants=["hand5"], seed=1), registry=registry)
    params = game.state.params
    assert (params.hand_limit, params.deal, params.exchange_size) == (5, 5, 5)
    assert [len(hand) for hand in game.state.hands] == [5, 5]
    # The record holds the parameters: folding it needs no plugin.
    events = [event_from_dict(event.to_dict()) for event in game.events]
    assert fold(events).params == params


def test_a_hand_of_five_exchanges_and_cannot_draw(registry: Registry) -> None:
    game = Game.new(
        registry.configure(2, variants=["hand5"], seed=2, first_seat=0), registry=registry
    )
    legal = game.legal_actions()
    assert legal.can_exchange and not legal.can_draw
    with pytest.raises(IllegalCommand, match="full"):
        game.execute(Draw(seat=0))
    game.execute(Exchange(seat=0))
    assert len(game.state.hands[0]) == 5


@pytest.mark.parametrize("bot", ["random", "greedy", "ismcts"])
def test_bots_finish_games_with_the_variant(registry: Registry, bot: str) -> None:
    for seed in range(2):
        config = registry.configure(
            2,
            variants=["hand5"],
            seed=seed,
            turn_limit=400,
            seats=[Seat("a", bot=bot), Seat("b", bot="greedy")],
            options={"bot_iterations": 40},
        )
        game = Game.new(config, registry=registry)
        game.play_bots()
        assert game.is_over
        assert not any(event.type == "notice" for event in game.events)  # no bot_replaced
