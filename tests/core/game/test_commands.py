"""Commands with fields that are not exact whole numbers are
refused before they reach the log, even when the game is over.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from damaged_records import REGISTRY, bot_game, record_lines, text_of

from cinco.core.engine.commands import Draw, Exchange, PlayCard, check_command, command_problem
from cinco.core.engine.errors import IllegalCommand, MalformedCommand
from cinco.core.engine.rules import decide
from cinco.core.game.game import Game
from cinco.core.records.record import loads

# -- folded in from the hardening campaign's test_hardening_records.py (issue 26) -----------------


def _game_with_a_full_hand() -> Game:
    game = Game.new(REGISTRY.configure(2, seed=1, first_seat=0))
    assert len(game.state.hands[0]) == 4
    return game


@pytest.mark.parametrize(
    "make",
    [
        lambda hand: PlayCard(0, float(hand[0]), 90),
        lambda hand: PlayCard(0, hand[0], 90.0),
        lambda hand: PlayCard(0, hand[0], True),
        lambda hand: PlayCard(False, hand[0], 90),
        lambda hand: PlayCard(0.0, hand[0], 90),
        lambda hand: Exchange(False),
        lambda hand: Exchange(0.0),
        lambda hand: Draw(False),
        lambda hand: PlayCard(0, str(hand[0]), 90),
        lambda hand: "play 34 36",
    ],
)
def test_malformed_commands_are_refused_before_anything_else(make: Callable[..., Any]):
    """``PlayCard(card=40.0)`` and ``Exchange(seat=False)`` compare equal to good commands;
    they would be written to the record as they are, and it could never be read again. They
    are refused like any illegal command, with a stable code, and nothing is stored."""
    game = _game_with_a_full_hand()
    command = make(list(game.state.hands[0]))
    count = len(game.events)
    with pytest.raises(MalformedCommand) as caught:
        decide(game.state, command, game.rules)
    error = caught.value
    assert isinstance(error, IllegalCommand) and error.code == "malformed_command"
    assert command_problem(command) is not None and error.message
    with pytest.raises(MalformedCommand):
        game.execute(command)
    assert len(game.events) == count
    assert loads(text_of(record_lines(list(game.events)))).events == list(game.events)


def test_malformed_commands_are_refused_even_when_the_game_is_over():
    game = bot_game()
    with pytest.raises(MalformedCommand):
        decide(game.state, Draw(True), game.rules)


def test_well_formed_commands_pass_the_check():
    for command in (PlayCard(0, 34, 36), PlayCard(1, 90, None), Draw(0), Exchange(5)):
        check_command(command)
        assert command_problem(command) is None
    game = _game_with_a_full_hand()
    card = game.state.hands[0][0]
    game.execute(PlayCard(0, card, 90))
    assert loads(text_of(record_lines(list(game.events)))).events == list(game.events)
