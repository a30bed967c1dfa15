"""Tests of the neighbourly bot, through Cinco's public API only."""

from __future__ import annotations

import cinco_neighbourly
import pytest

from cinco import Game, Registry, Seat, default_registry


@pytest.fixture
def registry() -> Registry:
    # The plugin module is registered by hand, so these tests also run from a source checkout.
    return Registry(entry_points=False, plugins=[cinco_neighbourly])


def play(registry: Registry, bots: tuple[str, str], seed: int) -> Game:
    seats = [Seat(f"{bot} {i}", bot=bot) for i, bot in enumerate(bots)]
    game = Game.new(
        registry.configure(2, seats=seats, seed=seed, turn_limit=600), registry=registry
    )
    game.play_bots()
    return game


def test_bot_is_registered(registry: Registry) -> None:
    assert "neighbourly" in registry.bots()


def test_every_move_is_legal(registry: Registry) -> None:
    for seed in range(5):
        game = play(registry, ("neighbourly", "random"), seed)
        assert game.is_over
        # Cinco records a notice whenever it had to replace a bot's move.
        assert not [event for event in game.events if event.type == "notice"]


def test_beats_random(registry: Registry) -> None:
    wins = 0
    for seed in range(20):
        first = seed % 2  # take turns at being the first seat
        bots = ("neighbourly", "random") if first == 0 else ("random", "neighbourly")
        result = play(registry, bots, seed).state.result
        assert result is not None
        wins += result.winner == first
    assert wins >= 14


def test_installed_entry_point_is_found() -> None:
    """After ``pip install``, Cinco finds the bot through the ``cinco`` entry point."""
    import importlib.metadata

    names = {ep.name for ep in importlib.metadata.entry_points(group="cinco")}
    if "neighbourly" not in names:
        pytest.skip("cinco-neighbourly is not installed (pip install -e .)")
    assert "neighbourly" in default_registry().bots()
