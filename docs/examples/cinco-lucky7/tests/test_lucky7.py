"""Tests of the Lucky seven variant, through Cinco's public API only."""

from __future__ import annotations

import cinco_lucky7
import pytest

from cinco import Game, Registry, Seat, default_registry


@pytest.fixture
def registry() -> Registry:
    # The plugin module is registered by hand, so these tests also run from a source checkout.
    return Registry(entry_points=False, plugins=[cinco_lucky7])


def test_variant_is_registered(registry: Registry) -> None:
    assert "lucky7" in registry.variants()
    assert "joker" in registry.variants()  # the built-ins are still there


def test_seven_is_wild(registry: Registry) -> None:
    config = registry.configure(2, variants=["lucky7"], seed=1)
    game = Game.new(config, registry=registry)
    spaces = game.rules.legal_spaces(game.state, 0, 7)
    assert spaces == tuple(range(1, 91))  # every space is free at the start, 1-6 included


def test_other_cards_follow_the_standard_rules(registry: Registry) -> None:
    lucky = Game.new(registry.configure(2, variants=["lucky7"], seed=1), registry=registry)
    plain = Game.new(registry.configure(2, seed=1), registry=registry)
    for card in (1, 6, 8, 68, 90):
        assert lucky.rules.legal_spaces(lucky.state, 0, card) == plain.rules.legal_spaces(
            plain.state, 0, card
        )
    # Without the variant a 7 reaches 7 and up only (A1).
    assert plain.rules.legal_spaces(plain.state, 0, 7) == tuple(range(7, 91))


def test_bots_finish_games_with_the_variant(registry: Registry) -> None:
    for seed in range(5):
        config = registry.configure(
            2,
            variants=["lucky7"],
            seed=seed,
            turn_limit=600,
            seats=[Seat("a", bot="random"), Seat("b", bot="greedy")],
        )
        game = Game.new(config, registry=registry)
        game.play_bots()
        assert game.is_over
        assert not any(event.type == "notice" for event in game.events)


def test_installed_entry_point_is_found() -> None:
    """After ``pip install``, Cinco finds the variant through the ``cinco`` entry point."""
    import importlib.metadata

    names = {ep.name for ep in importlib.metadata.entry_points(group="cinco")}
    if "lucky7" not in names:
        pytest.skip("cinco-lucky7 is not installed (pip install -e .)")
    assert "lucky7" in default_registry().variants()
