"""Tests of the Capture variant, through Cinco's public API only."""

from __future__ import annotations

from pathlib import Path

import cinco_capture
import pytest

from cinco import (
    Act,
    ActionTaken,
    Game,
    IllegalCommand,
    PlayCard,
    Registry,
    Seat,
    TokenRemoved,
    fold,
)
from cinco.core.words.i18n import speaking


@pytest.fixture
def registry() -> Registry:
    # The plugin module is registered by hand, so these tests also run from a source checkout.
    return Registry(entry_points=False, plugins=[cinco_capture])


def test_a_low_card_captures_an_opponents_token(registry: Registry) -> None:
    # Seed 0: seat 1 begins; after its move, seat 0 holds a 5 and may capture.
    config = registry.configure(
        2, variants=["capture"], seed=0, seats=[Seat("Ann"), Seat("Bob", bot="greedy")]
    )
    game = Game.new(config, registry=registry)
    game.play_bots()
    state = game.state
    taken = next(n for n in range(1, 91) if state.owner(n) == 1)
    low = min(state.hands[0])
    assert low <= cinco_capture.CAPTURE_MAX
    capture = Act(0, "capture", (("card", low), ("space", taken)))
    assert capture in game.legal_actions()
    with pytest.raises(IllegalCommand):  # a free space is no capture
        game.execute(Act(0, "capture", (("card", low), ("space", 90 if taken != 90 else 89))))
    events = game.execute(capture)
    assert isinstance(events[0], ActionTaken) and isinstance(events[1], TokenRemoved)
    assert game.state.owner(taken) == 0
    assert game.state.tokens == (1, 0)  # Bob's token went back to him
    assert fold(list(game.events)) == game.state


def test_the_standard_game_has_no_capture(registry: Registry) -> None:
    game = Game.new(registry.configure(2, seed=0, first_seat=1), registry=registry)
    assert not game.rules.declared
    with pytest.raises(IllegalCommand):
        game.execute(Act(1, "capture", (("card", 1), ("space", 40))))
    assert isinstance(next(iter(game.legal_actions())), PlayCard)


@pytest.mark.parametrize(
    ("bot", "games"),
    [("random", 8), ("greedy", 3), ("ismcts", 3)],  # random captures seldom: a few more games
)
def test_every_bot_plays_captures(registry: Registry, bot: str, games: int) -> None:
    captures = 0
    for seed in range(games):
        config = registry.configure(
            2,
            variants=["capture"],
            seed=seed,
            turn_limit=300,
            # Against itself (random against greedy loses too quickly to capture).
            seats=[Seat("a", bot=bot), Seat("b", bot=bot if bot == "random" else "greedy")],
            options={"bot_iterations": 20},
        )
        game = Game.new(config, registry=registry)
        game.play_bots()
        assert game.is_over
        assert not any(event.type == "notice" for event in game.events)  # no bot_replaced
        captures += sum(1 for e in game.events if isinstance(e, ActionTaken) and e.seat == 0)
    assert captures > 0


def test_its_words_come_from_its_own_catalog() -> None:
    """The title and the narration are in the plugin's domain, cinco_capture, whose compiled
    catalogs ship with the package; English stays the msgid."""
    (variant,) = cinco_capture.cinco_register_variants()
    capture = cinco_capture.CAPTURE
    assert cinco_capture.words.name == "cinco_capture"
    catalog = Path(cinco_capture.__file__).parent / "locale/cs/LC_MESSAGES/cinco_capture.mo"
    assert catalog.is_file()
    with speaking("cs"):
        assert variant.label == capture.label == "Braní"
        assert capture.tell("Ann", (1, 34)) == "Ann: karta 1 bere 34"
    with speaking("uk"):
        assert variant.label == "Захоплення"
        assert capture.tell("Ann", (1, 34)) == "Ann: карта 1 захоплює 34"
    with speaking("en"):
        assert variant.label == "Capture"
        assert capture.tell("Ann", (1, 34)) == "Ann captured 34 with a 1"
