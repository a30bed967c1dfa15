"""The event-sourced engine: refusals, events, the store, subscribers, rewind, determinism."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from positions import config_for, opening_events, registry_with_bots

from cinco.core.engine.commands import Draw, Exchange, PlayCard, command_from_dict
from cinco.core.engine.errors import (
    CannotPlace,
    CardNotInHand,
    EmptyHand,
    EventError,
    GameOver,
    HandFull,
    HandNotFull,
    IllegalCommand,
    NoSuchSpace,
    NotYourTurn,
    SpaceBelowCard,
    SpaceRequired,
    SpaceTaken,
)
from cinco.core.engine.events import (
    EVENT_TYPES,
    REFEREE,
    CardDrawn,
    CardPlayed,
    DeckShuffled,
    GameEnded,
    GameStarted,
    HandDiscarded,
    Notice,
    TurnEnded,
    Undone,
    event_from_dict,
)
from cinco.core.engine.state import evolve, fold
from cinco.core.game.game import Game


def game_from(hands, players=2, **kwargs) -> Game:
    return Game.from_events(opening_events(config_for(players, **kwargs), hands))


def snapshot(game: Game):
    return (
        list(game.events),
        game.state,
        [game.view(seat) for seat in range(game.config.players)],
        game.view(None),
    )


def refused(game: Game, command, error: type[IllegalCommand], *words: str) -> IllegalCommand:
    """*command* is refused with exactly *error*, a message naming *words*, and no change."""
    before = snapshot(game)
    with pytest.raises(IllegalCommand) as info:
        game.execute(command)
    assert type(info.value) is error
    message = str(info.value)
    assert message and message == info.value.message
    for word in words:
        assert word in message, (word, message)
    assert info.value.code != IllegalCommand.code
    assert snapshot(game) == before
    return info.value


# -- refusals: every kind, each changing nothing ----------------------------------------------

HANDS = {0: [10, 20, 30, 40], 1: [11, 21, 31, 41]}


def test_refuse_not_your_turn():
    game = game_from(HANDS)
    refused(game, PlayCard(1, 11, 11), NotYourTurn, "Ann", "Bob")
    refused(game, Draw(1), NotYourTurn)
    refused(game, Exchange(1), NotYourTurn)
    refused(game, PlayCard(7, 11, 11), NotYourTurn, "7")
    refused(game, Draw(-1), NotYourTurn)


def test_refuse_card_not_in_hand():
    game = game_from(HANDS)
    error = refused(game, PlayCard(0, 11, 11), CardNotInHand, "11", "10, 20, 30, 40")
    assert error.code == "card_not_in_hand"
    refused(game, PlayCard(0, 0, 5), CardNotInHand)
    refused(game, PlayCard(0, 95, None), CardNotInHand)


def test_refuse_space_taken():
    game = game_from(HANDS)
    game.execute(PlayCard(0, 20, 25))
    refused(game, PlayCard(1, 11, 25), SpaceTaken, "25")


def test_refuse_space_below_card():
    game = game_from(HANDS)
    refused(game, PlayCard(0, 30, 29), SpaceBelowCard, "30", "29")
    refused(game, PlayCard(0, 30, 1), SpaceBelowCard)


@pytest.mark.parametrize("space", [0, 91, -3, 1000])
def test_refuse_no_such_space(space):
    game = game_from(HANDS)
    refused(game, PlayCard(0, 10, space), NoSuchSpace, str(space), "90")


def test_refuse_space_required():
    game = game_from(HANDS)
    refused(game, PlayCard(0, 10, None), SpaceRequired, "10")


def test_refuse_burn_with_a_space_given():
    """A2: a card that burns places nothing; naming a space for it is refused."""
    game = game_from({0: [60, 1, 2, 3], 1: [90, 4, 5, 6]})
    game.execute(PlayCard(0, 60, 90))
    refused(game, PlayCard(1, 90, 90), CannotPlace, "90")
    refused(game, PlayCard(1, 90, 12), CannotPlace)


def test_refuse_draw_with_a_full_hand():
    game = game_from(HANDS)
    refused(game, Draw(0), HandFull, "4")


def test_refuse_exchange_without_four_cards():
    game = game_from(HANDS)
    game.execute(PlayCard(0, 10, 10))
    game.execute(PlayCard(1, 11, 11))
    refused(game, Exchange(0), HandNotFull, "3")


def test_refuse_play_with_an_empty_hand():
    game = game_from(HANDS)
    for card in (10, 20, 30, 40):
        game.execute(PlayCard(0, card, card))
        game.execute(PlayCard(1, card + 1, card + 1))
    assert game.state.hands[0] == ()
    refused(game, PlayCard(0, 10, 50), EmptyHand)
    refused(game, Exchange(0), HandNotFull, "0")
    assert list(game.legal_actions()) == [Draw(0)]


def test_refuse_anything_once_the_game_is_over():
    game = game_from(HANDS, turn_limit=1)
    game.execute(PlayCard(0, 10, 10))
    assert game.is_over
    for command in (Draw(1), PlayCard(1, 11, 11), Exchange(1), Draw(0)):
        refused(game, command, GameOver)


def test_refusal_codes_are_distinct():
    classes = [
        GameOver,
        NotYourTurn,
        CardNotInHand,
        NoSuchSpace,
        SpaceTaken,
        SpaceBelowCard,
        SpaceRequired,
        CannotPlace,
        HandFull,
        HandNotFull,
        EmptyHand,
    ]
    codes = [cls.code for cls in classes]
    assert len(set(codes)) == len(codes)
    assert all(issubclass(cls, IllegalCommand) for cls in classes)


# -- events -----------------------------------------------------------------------------------


def sample_events() -> list:
    game = Game.new(config_for(3, seed=21, variants=["joker"]))
    rng = random.Random(2)
    while not game.is_over and len(game.events) < 400:
        legal = game.legal_actions()
        game.execute(legal[rng.randrange(len(legal))])
    game_events = list(game.events)
    notice = Notice(code="hello", params=(("text", "a notice"),), seat=1, private=(("card", 7),))
    return [*game_events, notice, Undone(seat=0, back_to=20)]


def test_events_are_frozen_versioned_and_json_round_trip():
    """Issue 2: events are frozen, versioned, JSON-serialisable; from_dict(to_dict) is the
    identity, for every event type."""
    events = sample_events()
    assert {type(e) for e in events} >= {
        GameStarted,
        DeckShuffled,
        CardDrawn,
        CardPlayed,
        TurnEnded,
        Notice,
    }
    extra = [
        HandDiscarded(seat=0, count=4, cards=(1, 2, 3, 4)),
        GameEnded(seat=0, action="play", winner=1, reason="line", line=(1, 2, 3, 4, 5)),
        DeckShuffled(size=3, order=(3, 1, 2), reshuffle=True),
    ]
    for event in [*events, *extra]:
        data = event.to_dict()
        assert data["v"] == 2 and data["type"] in EVENT_TYPES
        text = json.dumps(data)
        assert event_from_dict(json.loads(text)) == event
        # Frozen (with slots, Python 3.11 raises TypeError rather than FrozenInstanceError).
        with pytest.raises((dataclasses.FrozenInstanceError, TypeError, AttributeError)):
            event.seat = 3  # type: ignore[misc]
        assert event_from_dict(data) == event


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"type": "nope", "v": 1}, "unknown event type"),
        ([1, 2], "JSON object"),
        ({"type": "card_played", "v": 3, "seat": 0, "card": 3, "space": 4}, "version"),
        ({"type": "card_played", "v": 1, "seat": 0, "card": 3}, "missing field 'space'"),
        ({"type": "card_played", "v": 1, "seat": 0, "card": 3, "space": 4, "x": 1}, "unexpected"),
        ({"type": "card_played", "v": 1, "seat": "0", "card": 3, "space": 4}, "'seat'"),
        ({"type": "card_played", "v": 1, "seat": True, "card": 3, "space": 4}, "'seat'"),
        (
            {"type": "deck_shuffled", "v": 1, "size": 2, "order": [1, "a"], "reshuffle": False},
            "'order'",
        ),
        (
            {"type": "deck_shuffled", "v": 1, "size": 2, "order": None, "reshuffle": 1},
            "'reshuffle'",
        ),
        ({"type": "game_started", "v": 1, "config": {"seats": []}, "first_seat": 0}, "config"),
        ({"type": "turn_ended", "v": 1, "seat": 0, "action": 3, "next_seat": 1}, "'action'"),
    ],
)
def test_event_from_dict_rejects_malformed_events(data, words):
    with pytest.raises(EventError, match=words):
        event_from_dict(data)


def test_commands_round_trip_and_reject_junk():
    for command in (PlayCard(0, 5, 7), PlayCard(1, 90, None), Draw(1), Exchange(0)):
        assert command_from_dict(json.loads(json.dumps(command.to_dict()))) == command
    with pytest.raises(EventError):
        command_from_dict({"kind": "fly", "seat": 0})
    with pytest.raises(EventError):
        command_from_dict({"kind": "draw", "seat": 0, "card": 5})


def test_inconsistent_events_are_refused_by_the_fold():
    """Tampered logs fail with EventError (never IndexError or a silently wrong state)."""
    opening = opening_events(config_for(2), {0: [10, 20, 30, 40], 1: [11, 21, 31, 41]})
    state = fold(opening)
    top = state.draw_pile[0]
    bad = [
        CardPlayed(seat=0, card=11, space=11),  # not in hand
        CardPlayed(seat=1, card=11, space=11),  # out of turn
        CardPlayed(seat=0, card=10, space=95),  # no such space
        CardPlayed(seat=0, card=10, space=0),
        CardPlayed(seat=0, card=10, space=-1),
        CardPlayed(seat=5, card=10, space=10),
        CardDrawn(seat=0, card=top),  # hand already full
        CardDrawn(seat=9, card=top),
        TurnEnded(seat=0, action="play", next_seat=4),
        TurnEnded(seat=1, action="play", next_seat=0),
        HandDiscarded(seat=0, count=4, cards=(1, 2, 3, 4)),  # not the hand
        DeckShuffled(size=3, order=(1, 2), reshuffle=True),
        GameStarted(config=state.config, first_seat=0),
    ]
    for event in bad:
        with pytest.raises(EventError):
            evolve(state, event)
    played = evolve(state, CardPlayed(seat=0, card=10, space=10))
    with pytest.raises(EventError, match="taken"):
        evolve(evolve(played, TurnEnded(0, "play", 1)), CardPlayed(seat=1, card=11, space=10))
    # Drawing a card that is not the top one.
    after = evolve(evolve(played, TurnEnded(0, "play", 1)), CardPlayed(seat=1, card=11, space=11))
    after = evolve(after, TurnEnded(1, "play", 0))
    wrong = next(c for c in after.draw_pile if c != top)
    with pytest.raises(EventError, match="top"):
        evolve(after, CardDrawn(seat=0, card=wrong))
    with pytest.raises(EventError, match="game_started"):
        fold(opening[1:])


def test_game_from_inconsistent_events_names_the_event():
    events = opening_events(config_for(2), {0: [10, 20, 30, 40]})
    events.append(CardPlayed(seat=0, card=55, space=60))
    with pytest.raises(EventError, match=f"event {len(events)}"):
        Game.from_events(events)
    with pytest.raises(EventError):
        Game.from_events([])


def test_game_over_state_accepts_no_more_events():
    game = game_from(HANDS, turn_limit=1)
    game.execute(PlayCard(0, 10, 10))
    with pytest.raises(EventError, match="over"):
        evolve(game.state, TurnEnded(seat=1, action="draw", next_seat=0))
    assert evolve(game.state, Notice(code="x", params=(("text", "y"),))).result == game.state.result


# -- store, subscribers, rewind, determinism --------------------------------------------------


def play_random(game: Game, turns: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(turns):
        if game.is_over:
            return
        legal = game.legal_actions()
        game.execute(legal[rng.randrange(len(legal))])


def test_state_is_the_fold_of_the_events_at_every_index():
    game = Game.new(config_for(2, seed=8))
    play_random(game, 60, seed=8)
    events = list(game.events)
    for count in range(1, len(events) + 1, 7):
        assert game.state_at(count) == fold(events[:count])
    assert game.state_at(len(events)) == game.state
    with pytest.raises(IndexError):
        game.state_at(0)


def test_subscribers_get_every_event_in_order_as_their_viewer_sees_it():
    game = Game.new(config_for(2, seed=8))
    referee, seat0 = [], []
    unsubscribe = game.subscribe(lambda event, g: referee.append(event))
    game.subscribe(lambda event, g: seat0.append(event), viewer=0)
    start = len(game.events)
    play_random(game, 20, seed=1)
    assert referee == list(game.events)[start:]
    assert seat0 == [e.seen_by(0) for e in list(game.events)[start:]]
    unsubscribe()
    count = len(referee)
    play_random(game, 3, seed=2)
    assert len(referee) == count and len(seat0) > count


def test_rewind_gives_an_earlier_game_and_leaves_this_one():
    game = Game.new(config_for(3, seed=12))
    play_random(game, 30, seed=3)
    total = len(game.events)
    earlier = game.rewind(20)
    assert len(earlier.events) == 20 and len(game.events) == total
    assert earlier.state == game.state_at(20)
    assert fold(earlier.events_for(1)) == earlier.view(1)


def test_same_seed_same_game_and_no_hidden_randomness():
    """All randomness comes from the seed and is recorded: replaying needs no generator."""

    def run(seed: int) -> list:
        game = Game.new(config_for(3, seed=seed, first_seat=None))
        play_random(game, 150, seed=seed)
        return list(game.events)

    assert run(4) == run(4)
    assert run(4) != run(5)
    events = run(4)
    random.seed(999)  # the global generator plays no part
    assert Game.from_events(events).state == fold(events)


def test_bot_turns_and_a_misbehaving_bot_is_replaced():
    """A bot that answers with an illegal move loses the move to a random legal one, with a
    notice; the game goes on."""
    from cinco.core.engine.config import Seat

    class Cheat:
        def choose(self, view, legal):
            return PlayCard(view.current_seat, 99, 99)

    class Crash:
        def choose(self, view, legal):
            raise RuntimeError("boom")

    registry = registry_with_bots(cheat=lambda context: Cheat(), crash=lambda context: Crash())
    config = registry.configure(
        2,
        seats=[Seat("a", bot="cheat"), Seat("b", bot="crash")],
        seed=3,
        turn_limit=50,
        first_seat=0,
    )
    game = Game.new(config, registry=registry)
    game.play_bot_turn()
    notices = [e for e in game.events if isinstance(e, Notice)]
    assert len(notices) == 1 and notices[0].code == "bot_replaced" and notices[0].seat == 0
    assert game.state.current_seat == 1
    game.play_bot_turn()
    notices = [e for e in game.events if isinstance(e, Notice)]
    assert notices[-1].seat == 1 and "boom" in notices[-1].text
    game.play_bots()
    assert game.is_over and game.state.result.reason == "turn_limit"
    assert sum(isinstance(e, Notice) for e in game.events) == 50


def test_viewer_constants():
    assert REFEREE == "referee"


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "play", "seat": 0, "card": 1, "space": True},
        {"kind": "play", "seat": "0", "card": 1, "space": 5},
        {"kind": "play", "seat": 0, "card": 1.0, "space": 5},
        {"kind": "draw", "seat": None},
        {"kind": "exchange"},
        {"kind": "play", "seat": 0},
    ],
)
def test_command_from_dict_checks_field_types(data):
    """A network client's ``true`` is not space 1: malformed commands never reach decide."""
    with pytest.raises(EventError, match="malformed"):
        command_from_dict(data)


def test_legal_actions_indexing_matches_iteration():
    game = Game.new(config_for(3, seed=2))
    play_random(game, 40, seed=2)
    legal = game.legal_actions()
    commands = list(legal)
    assert len(commands) == len(legal)
    assert [legal[i] for i in range(len(legal))] == commands
    assert legal[-1] == commands[-1]
    assert all(command in legal for command in commands)
    with pytest.raises(IndexError):
        legal[len(legal)]
    other = (game.state.current_seat + 1) % 3
    assert len(game.legal_actions(other)) == 0


def test_legal_actions_need_only_the_players_view():
    """Bots get legal actions computed from what they may see: the same as the referee's."""
    for seed in range(5):
        game = Game.new(config_for(4, seed=seed, variants=["joker"] if seed % 2 else []))
        play_random(game, 60, seed=seed)
        if game.is_over:
            continue
        seat = game.state.current_seat
        from cinco.core.engine.legal import legal_actions

        assert legal_actions(game.view(seat), game.rules, seat) == game.legal_actions(seat)


def test_state_summary_is_json():
    game = Game.new(config_for(2, seed=2))
    play_random(game, 30, seed=2)
    data = json.loads(json.dumps(game.state.to_dict()))
    assert data["turns"] == game.state.turn and data["result"] is None
    assert game.view(REFEREE) == game.state


def test_lifecycle_hooks_may_take_any_of_their_arguments():
    """pluggy passes hook arguments by name: a plugin's cinco_event may take only the event,
    or the event before the game; each gets exactly what it asked for."""
    from cinco.core.hooks.hookspecs import hookimpl

    seen: list[tuple[str, object]] = []

    class EventOnly:
        @hookimpl
        def cinco_event(self, event: object) -> None:
            seen.append(("event only", event))

    class Reversed:
        @hookimpl
        def cinco_event(self, event: object, game: Game) -> None:
            seen.append(("reversed", (event, game)))

    game = Game.new(config_for(2, seed=4), plugins=[EventOnly(), Reversed()])
    stored = list(game.events)
    assert [value for kind, value in seen if kind == "event only"] == stored
    assert [value for kind, value in seen if kind == "reversed"] == [(e, game) for e in stored]
