"""Tests of the eight-player layouts, through Cinco's public API only."""

from __future__ import annotations

import cinco_eight
import pytest

from cinco import Game, Registry, Seat


@pytest.fixture
def registry() -> Registry:
    # The plugin module is registered by hand, so these tests also run from a source checkout.
    return Registry(entry_points=False, plugins=[cinco_eight])


def test_the_layouts_and_the_fourth_style_are_accepted(registry: Registry) -> None:
    assert registry.problems == []
    assert 8 in registry.player_counts()
    assert [(lay.name, lay.teams) for lay in registry.layouts_for(8)] == [("2x4", 2), ("4x2", 4)]
    # Four teams, four looks: the fourth team is green, not blue again.
    assert [registry.team_style(team).name for team in range(4)] == [
        "blue",
        "orange",
        "pink",
        "green",
    ]


@pytest.mark.parametrize("layout", ["2x4", "4x2"])
def test_seats_alternate_teams(registry: Registry, layout: str) -> None:
    config = registry.configure(8, layout=layout, seed=1)
    teams = config.teams
    assert [config.team_of(seat) for seat in range(8)] == [seat % teams for seat in range(8)]
    game = Game.new(config, registry=registry)
    assert all(len(game.state.hands[seat]) == 4 for seat in range(8))


@pytest.mark.parametrize("layout", ["2x4", "4x2"])
@pytest.mark.parametrize("bot", ["random", "greedy", "ismcts"])
def test_every_bot_plays_eight(registry: Registry, layout: str, bot: str) -> None:
    """Each bot plays half the seats, greedy the others, with no move replaced. The search
    bot's games are cut short (a draw after 40 turns): eight seats make its moves slow."""
    config = registry.configure(
        8,
        layout=layout,
        seed=2,
        turn_limit=40 if bot == "ismcts" else 600,
        seats=[Seat(f"p{i + 1}", bot=bot if i % 2 == 0 else "greedy") for i in range(8)],
        options={"bot_iterations": 20},
    )
    game = Game.new(config, registry=registry)
    game.play_bots()
    assert game.is_over
    assert not any(event.type == "notice" for event in game.events)  # no bot_replaced
