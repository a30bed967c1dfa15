"""Projections (S2, A7): a player's stream never holds another player's cards, the deck order,
or the cards of someone else's exchange. Property tests over many random games."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positions import config_for

from cinco.core.engine.events import (
    REFEREE,
    SPECTATOR,
    CardDrawn,
    CardPlayed,
    DeckShuffled,
    GameStarted,
    HandDiscarded,
)
from cinco.core.engine.state import UNKNOWN, fold
from cinco.core.game.game import Game

#: (players, teams) of every layout, each with and without Joker.
CONFIGS = [(2, 2), (3, 3), (4, 2), (6, 2), (6, 3)]


def random_game(players: int, teams: int, joker: bool, seed: int, turns: int) -> Game:
    config = config_for(
        players, teams=teams, variants=["joker"] if joker else [], seed=seed, first_seat=None
    )
    game = Game.new(config)
    rng = random.Random(seed)
    for _ in range(turns):
        if game.is_over:
            break
        legal = game.legal_actions()
        # Favour exchanges and draws a little, so that reshuffles (A6) happen often.
        commands = list(legal)
        swaps = [c for c in commands if type(c).__name__ != "PlayCard"]
        pick = rng.choice(swaps) if swaps and rng.random() < 0.5 else rng.choice(commands)
        game.execute(pick)
    return game


def card_values(data: Any) -> set[int]:
    """Every card number in an event's JSON (fields card, cards, order)."""
    found: set[int] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("card", "cards", "order") and value is not None:
                found.update(value if isinstance(value, list) else [value])
            elif isinstance(value, dict | list):
                found |= card_values(value)
    return found


def check_player_stream(game: Game, seat: int | None) -> None:
    referee = list(game.events)
    stream = game.events_for(seat)
    assert len(stream) == len(referee)
    public = {e.card for e in referee if isinstance(e, CardPlayed)}
    own: set[int] = set()
    for event in referee:
        if isinstance(event, CardDrawn) and event.seat == seat and event.card is not None:
            own.add(event.card)
    seed = game.config.seed
    for event in stream:
        if isinstance(event, DeckShuffled):
            assert event.order is None, "the deck order leaked"
        if isinstance(event, CardDrawn) and event.seat != seat:
            assert event.card is None, "another player's card leaked"
        if isinstance(event, HandDiscarded) and event.seat != seat:
            assert event.cards is None, "another player's exchange leaked"
        if isinstance(event, GameStarted) and seed:
            assert event.config.seed != seed, "the seed (and so the deck) leaked"
        data = event.to_dict()
        json.dumps(data)  # projected events are still JSON
        assert card_values(data) <= public | own, event
    view = game.view(seat)
    assert fold(stream) == view
    for other, hand in enumerate(view.hands):
        if other != seat:
            assert set(hand) <= {UNKNOWN}
            assert len(hand) == len(game.state.hands[other])
    assert set(view.draw_pile) <= {UNKNOWN}
    assert len(view.draw_pile) == len(game.state.draw_pile)
    assert set(view.discard_pile) <= public | own | {UNKNOWN}
    assert len(view.discard_pile) == len(game.state.discard_pile)
    assert view.board == game.state.board and view.tokens == game.state.tokens


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    layout=st.sampled_from(CONFIGS),
    joker=st.booleans(),
    seed=st.integers(min_value=1, max_value=2**31),
    turns=st.integers(min_value=0, max_value=250),
)
def test_S2_A7_player_streams_hold_no_secrets(layout, joker, seed, turns):
    """S2/A7: for every seat and a spectator, the projected stream holds only the viewer's own
    cards and played cards: no deck order, no other hand, no one else's exchange, no seed; and
    folding it gives exactly the viewer's state."""
    game = random_game(*layout, joker, seed, turns)
    for seat in [*range(game.config.players), SPECTATOR]:
        check_player_stream(game, seat)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(min_value=1, max_value=2**31), turns=st.integers(50, 250))
def test_S2_a_player_cannot_tell_apart_games_that_differ_only_in_secrets(seed, turns):
    """S2: replacing another player's hidden cards changes nothing in this player's stream: take
    a game, swap two cards that seat 0 never sees, and seat 0's stream is identical."""
    game = random_game(2, 2, False, seed, turns)
    referee = list(game.events)
    seen_by_0 = {e.card for e in referee if isinstance(e, CardPlayed)}
    seen_by_0 |= {e.card for e in referee if isinstance(e, CardDrawn) and e.seat == 0}
    hidden = sorted(set(range(1, 91)) - seen_by_0)
    if len(hidden) < 2:
        return
    a, b = hidden[0], hidden[-1]

    def swap(value: Any) -> Any:
        if isinstance(value, list):
            return [swap(v) for v in value]
        return {a: b, b: a}.get(value, value) if isinstance(value, int) else value

    from cinco.core.engine.events import event_from_dict

    twin = []
    for event in referee:
        data = event.to_dict()
        for key in ("card", "cards", "order"):
            if key in data:
                data[key] = swap(data[key])
        twin.append(event_from_dict(data))
    twin_game = Game.from_events(twin)  # still a consistent game
    assert twin_game.events_for(0) == game.events_for(0)
    assert twin_game.view(0) == game.view(0)
    assert twin_game.events_for(REFEREE) != game.events_for(REFEREE)


def test_A7_exchange_cards_visible_only_to_their_owner():
    """A7: the 4 cards of an exchange are seen by their owner and the referee only."""
    game = random_game(4, 2, False, 3, 0)
    seat = game.state.current_seat
    cards = game.state.hands[seat]
    discarded = game.execute(__import__("cinco").Exchange(seat))[0]
    assert isinstance(discarded, HandDiscarded) and discarded.cards == cards
    for viewer in range(4):
        seen = discarded.seen_by(viewer)
        assert (seen.cards == cards) if viewer == seat else seen.cards is None
        assert seen.count == 4
    assert discarded.seen_by(SPECTATOR).cards is None
    assert discarded.seen_by(REFEREE).cards == cards
