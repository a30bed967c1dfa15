"""The names of the actions of a turn are spelled once (:mod:`cinco.core.engine.commands`:
``PLAY``, ``DRAW``, ``EXCHANGE``), and every place that keys something by an action agrees
with them: the commands' kinds, the log's ``TurnEnded.action``, the rule clauses of the
verifier, and the sentences of :mod:`cinco.core.words.messages` (a layer below the engine,
which cannot import the names)."""

from __future__ import annotations

from cinco.core.engine.commands import (
    ACTIONS,
    COMMAND_TYPES,
    DRAW,
    EXCHANGE,
    PLAY,
    Command,
    Draw,
    Exchange,
    PlayCard,
)
from cinco.core.engine.config import GameConfig
from cinco.core.engine.events import TurnEnded
from cinco.core.engine.verify import ACTION_CLAUSES
from cinco.core.game.game import Game
from cinco.core.words.messages import BY_ACTION


def test_each_command_kind_is_an_action() -> None:
    assert (PlayCard.kind, Draw.kind, Exchange.kind) == ACTIONS == (PLAY, DRAW, EXCHANGE)
    assert list(COMMAND_TYPES) == list(ACTIONS)
    assert Draw(seat=1).to_dict() == {"kind": DRAW, "seat": 1}


def test_the_verifier_has_a_clause_for_each_action() -> None:
    assert set(ACTION_CLAUSES) == set(ACTIONS)


def test_the_sentences_by_action_are_keyed_by_the_draw_and_the_exchange() -> None:
    """The actions a rule hook may refuse, and that an undo may not take back."""
    for code, sentences in BY_ACTION.items():
        assert set(sentences) == {DRAW, EXCHANGE}, code


def test_a_turn_ends_with_its_commands_kind() -> None:
    """The engine writes each command's kind as the action of the turn it makes."""
    game = Game.new(GameConfig.for_players(2, seed=3, first_seat=0))

    def turn(command: Command) -> tuple[str, str]:
        ended = [event for event in game.execute(command) if isinstance(event, TurnEnded)]
        return ended[0].action, command.kind

    def play() -> PlayCard:
        seat = game.state.current_seat
        return next(c for c in game.legal_actions(seat) if isinstance(c, PlayCard))

    kinds = [turn(Exchange(seat=0)), turn(play()), turn(play()), turn(Draw(seat=1))]
    assert kinds == [(EXCHANGE, EXCHANGE), (PLAY, PLAY), (PLAY, PLAY), (DRAW, DRAW)]
