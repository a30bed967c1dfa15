"""Per-clause tests of docs/rules-reference.md: players (P), set-up (S), actions (A), the end (E),
variants (V) and the rule book's worked examples (X). The board's clauses (C1, B1–B7) are in
test_board.py.

Positions are built from real opening events (see ``positions.py``) and asked about with
:func:`cinco.core.engine.rules.decide`, which is pure.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from positions import (
    card_count,
    config_for,
    opening_events,
    place,
    position,
    registry_with_bots,
    rules_of,
    run,
    with_piles,
)

from cinco.core.engine.board import COORDINATES, SPACES, is_straight_line
from cinco.core.engine.commands import Command, Draw, Exchange, PlayCard
from cinco.core.engine.config import PLAYER_COUNTS, STANDARD_LAYOUTS, GameConfig, Seat
from cinco.core.engine.errors import (
    CannotPlace,
    ConfigError,
    GameOver,
    SpaceBelowCard,
    SpaceRequired,
    SpaceTaken,
)
from cinco.core.engine.events import (
    REFEREE,
    SPECTATOR,
    CardDrawn,
    CardPlayed,
    DeckShuffled,
    GameEnded,
    GameStarted,
    HandDiscarded,
    TurnEnded,
)
from cinco.core.engine.legal import legal_actions
from cinco.core.engine.rules import decide, first_seat, reshuffle_order, setup_events
from cinco.core.engine.state import FREE, HAND_LIMIT, TOKENS_PER_TEAM, UNKNOWN, GameState, fold
from cinco.core.game.game import Game
from cinco.core.host.registry import Registry, default_registry


def colour_class(space: int) -> int:
    """A 3-colouring of the board in which no two cells in a row along an axis share a colour
    (q − r changes by 1 or 2 along every axis), so no colour, nor any two colours together,
    ever holds a line of five."""
    q, r = COORDINATES[space - 1]
    return (q - r) % 3


CLASSES = {c: [n for n in range(1, 91) if colour_class(n) == c] for c in range(3)}


def game_from(hands, players=2, *, teams=None, variants=(), top=(), turn_limit=None) -> Game:
    config = config_for(players, teams=teams, variants=variants, turn_limit=turn_limit)
    return Game.from_events(opening_events(config, hands, top=top))


# -- P: players, teams, seating ---------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 5, 7, 8])
def test_P1_refuses_other_player_counts(players):
    """P1: never 1, 5 or more than 6 players: configuring such a game is refused clearly."""
    with pytest.raises(ConfigError, match="2, 3, 4 or 6"):
        GameConfig.for_players(players)
    with pytest.raises(ConfigError):
        default_registry().configure(players)
    seats = tuple(Seat(f"p{i}") for i in range(players))
    teams = 2 if players % 2 == 0 and players else max(players, 2)
    with pytest.raises(ConfigError):
        Game.new(GameConfig(seats=seats, teams=teams, layout=f"{teams}x{players // teams}"))


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_P1_accepts_2_3_4_6_players(players):
    """P1: 2, 3, 4 and 6 players make games."""
    game = Game.new(default_registry().configure(players, seed=1))
    assert game.state.players == players


@pytest.mark.parametrize(
    ("players", "layout", "teams", "size"),
    [(2, None, 2, 1), (3, None, 3, 1), (4, None, 2, 2), (6, "2x3", 2, 3), (6, "3x2", 3, 2)],
)
def test_P2_team_layouts(players, layout, teams, size):
    """P2: 2 → 2 teams of 1, 3 → 3 of 1, 4 → 2 of 2, 6 → 2 of 3 or 3 of 2."""
    config = default_registry().configure(players, layout=layout)
    assert (config.teams, config.team_size) == (teams, size)
    assert sorted(len(config.seats_of(t)) for t in range(teams)) == [size] * teams


def test_P2_the_engine_s_standard_layouts_are_the_built_in_plugins():
    """The standard layouts the engine knows without the plugin host (``GameConfig.for_players``,
    a record's teams) are the ones the built-in layout plugins register, defaults first."""
    registry = Registry(entry_points=False)
    built_in = {name: (lay.players, lay.teams) for name, lay in registry.layouts().items()}
    assert list(built_in.items()) == list(STANDARD_LAYOUTS.items())
    for players in PLAYER_COUNTS:
        assert GameConfig.for_players(players).layout == registry.layout(players).name


def test_P2_six_players_default_and_bad_layout():
    """P2: six players default to 2 teams of 3; a layout that does not fit is refused."""
    assert default_registry().configure(6).teams == 2
    with pytest.raises(ConfigError, match="2x3"):
        default_registry().configure(6, layout="6x1")
    with pytest.raises(ConfigError):
        default_registry().configure(4, layout="3x2")
    with pytest.raises(ConfigError):
        GameConfig(seats=tuple(Seat(str(i)) for i in range(4)), teams=3, layout="odd")


def test_P3_team_mates_place_one_colour_and_win_together():
    """P3: in a 4-player game seats 0 and 2 both place team 0's tokens; a line made of both
    their tokens wins for team 0."""
    game = game_from(
        {0: [12, 5, 6, 7], 1: [13, 8, 9, 10], 2: [11, 14, 15, 16], 3: [17, 18, 19, 20]}, players=4
    )
    game.execute(PlayCard(0, 12, 12))
    game.execute(PlayCard(1, 13, 13))
    game.execute(PlayCard(2, 11, 11))
    state = game.state
    assert state.owner(12) == state.owner(11) == 0
    assert state.owner(13) == 1
    assert state.tokens == (2, 1)
    # Team 0 (seats 0 and 2) holds 12, 11, 30, 44; seat 2 completes the line with 81.
    won = position(4, {2: [81]}, board={12: 0, 11: 0, 30: 0, 44: 0}, current=2)
    events, _after = run(won, PlayCard(2, 81, 81))
    assert isinstance(events[-1], GameEnded) and events[-1].winner == 0


@pytest.mark.parametrize(("players", "teams"), [(2, 2), (3, 3), (4, 2), (6, 2), (6, 3)])
def test_P4_seats_alternate_teams_and_turns_go_round(players, teams):
    """P4: seat i is on team i mod T, and turns go seat 0, 1, 2, … round the table."""
    config = config_for(players, teams=teams, first_seat=None, seed=5)
    assert [config.team_of(i) for i in range(players)] == [i % teams for i in range(players)]
    game = Game.new(config)
    rng = random.Random(1)
    seat = game.state.current_seat
    for _ in range(3 * players):
        legal = game.legal_actions()
        events = game.execute(legal[rng.randrange(len(legal))])
        if game.is_over:
            break
        assert all(getattr(e, "seat", seat) == seat for e in events)
        ended = events[-1]
        assert isinstance(ended, TurnEnded) and ended.next_seat == (seat + 1) % players
        seat = (seat + 1) % players
        assert game.state.current_seat == seat
    for space, team in enumerate(game.state.board):
        if space and team != FREE:
            assert team < teams


def test_P5_first_player_random_but_reproducible():
    """P5: with no first seat configured it is drawn from the seed: the same seed gives the
    same seat, and over many seeds every seat begins some game."""
    seen = set()
    for seed in range(60):
        config = config_for(3, first_seat=None, seed=seed)
        a, b = setup_events(config)[0], setup_events(config)[0]
        assert isinstance(a, GameStarted) and a == b
        assert a.first_seat == first_seat(config)
        seen.add(a.first_seat)
        assert Game.new(config).state.current_seat == a.first_seat
    assert seen == {0, 1, 2}


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_P5_configured_first_player(seat):
    """P5: a configured first seat always begins, whatever the seed; it is in GameStarted."""
    for seed in range(5):
        game = Game.new(config_for(4, first_seat=seat, seed=seed))
        assert game.state.current_seat == seat
        assert game.events[0].first_seat == seat
    with pytest.raises(ConfigError):
        config_for(4, first_seat=4)


# -- S: set-up --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "first"), [(2, 1), (3, 2), (4, 0), (6, 5)])
def test_S1_shuffle_and_deal_four_one_at_a_time(players, first):
    """S1: 90 cards shuffled; 4 dealt to each player one at a time round the table starting
    with the first player; the rest is the draw pile; the discard pile is empty."""
    events = setup_events(config_for(players, first_seat=first, seed=9))
    shuffled = events[1]
    assert isinstance(shuffled, DeckShuffled) and not shuffled.reshuffle
    assert shuffled.order is not None and sorted(shuffled.order) == list(range(1, 91))
    assert shuffled.order != tuple(range(1, 91))  # really shuffled
    deal = events[2:]
    assert len(deal) == 4 * players and all(isinstance(e, CardDrawn) for e in deal)
    assert [e.seat for e in deal] == [(first + i) % players for i in range(4 * players)]
    assert [e.card for e in deal] == list(shuffled.order[: 4 * players])
    state = fold(events)
    assert all(len(hand) == 4 for hand in state.hands)
    assert state.draw_pile == shuffled.order[4 * players :]
    assert state.discard_pile == ()
    assert state.board[1:] == (FREE,) * 90 and state.current_seat == first


def test_S1_different_seeds_shuffle_differently():
    """S1: the shuffle comes from the seed."""
    orders = {setup_events(config_for(2, seed=seed))[1].order for seed in range(10)}
    assert len(orders) == 10


def test_S2_hands_are_secret_even_from_team_mates():
    """S2: in a 4-player game each seat sees only its own hand, not its team-mate's; a
    spectator sees no hand."""
    game = Game.new(config_for(4, seed=3))
    referee = game.state
    for seat in range(4):
        view = game.view(seat)
        assert view.hands[seat] == referee.hands[seat]
        for other in range(4):
            if other != seat:
                assert view.hands[other] == (UNKNOWN,) * 4
        own = set(referee.hands[seat])
        for event in game.events_for(seat):
            if isinstance(event, CardDrawn) and event.seat != seat:
                assert event.card is None
            if isinstance(event, DeckShuffled):
                assert event.order is None
        assert all(set(view.hands[o]) == {UNKNOWN} for o in range(4) if o != seat)
        assert own  # sanity: the seat does see its cards
    assert all(hand == (UNKNOWN,) * 4 for hand in game.view(SPECTATOR).hands)


def test_S2_bots_get_only_their_own_view():
    """S2: a bot is handed its seat's view (no other hand, no deck order, no seed), and its
    context holds nothing secret either."""
    seen = []
    contexts = []

    class Spy:
        def choose(self, view, legal):
            seen.append(view)
            return next(iter(legal))

    def make(context):
        contexts.append(context)
        return Spy()

    registry = registry_with_bots(spy=make)
    config = registry.configure(2, seats=[Seat("a", bot="spy"), Seat("b", bot="spy")], seed=77)
    game = Game.new(config, registry=registry)
    game.play_bots(max_turns=6)
    assert len(seen) == 6
    for view in seen:
        me = view.current_seat
        assert view.hands[1 - me] == (UNKNOWN,) * len(view.hands[1 - me])
        assert set(view.draw_pile) <= {UNKNOWN}
        assert view.config.seed != 77
        assert fold(game.events_for(me)[: view.events]) == view
    assert contexts and all(context.config.seed != 77 for context in contexts)


# -- A: a turn --------------------------------------------------------------------------------


def test_A1_play_places_a_team_token_on_a_free_space_at_or_above_the_card():
    """A1: the card is revealed, a token of the team's colour goes on the chosen free space
    ≥ the card, the card goes to the discard pile, the turn passes."""
    state = position(2, {0: [34, 50, 60, 70], 1: [1, 2, 3, 4]})
    rules = rules_of(state)
    assert legal_actions(state, rules).spaces_for(34) == tuple(range(34, 91))
    events, after = run(state, PlayCard(0, 34, 36))
    assert events == (
        CardPlayed(seat=0, card=34, space=36),
        TurnEnded(seat=0, action="play", next_seat=1),
    )
    assert after.owner(36) == 0 and after.tokens == (1, 0)
    assert after.discard_pile[-1] == 34 and 34 not in after.hands[0]
    assert after.current_seat == 1 and card_count(after) == 90
    with pytest.raises(SpaceBelowCard):
        decide(state, PlayCard(0, 34, 33), rules)


def test_A1_team_two_places_its_own_colour():
    """A1/P3: the second team's player places the second colour."""
    state = position(2, {1: [40]}, current=1)
    _events, after = run(state, PlayCard(1, 40, 40))
    assert after.owner(40) == 1 and after.tokens == (0, 1)


def test_A2_burn_when_no_free_space_at_or_above():
    """A2: with no free space ≥ the card it may still be played: it goes to the discard pile
    and no token is placed (the token stays with the player)."""
    state = position(2, {0: [88, 5, 6, 7]}, board={88: 1, 89: 1, 90: 0})
    rules = rules_of(state)
    legal = legal_actions(state, rules)
    assert legal.spaces_for(88) == ()
    assert PlayCard(0, 88, None) in legal
    events, after = run(state, PlayCard(0, 88, None))
    assert events[0] == CardPlayed(seat=0, card=88, space=None) and events[0].burned
    assert after.tokens == state.tokens and after.board == state.board
    assert after.discard_pile[-1] == 88 and len(after.hands[0]) == 3
    with pytest.raises(CannotPlace):
        decide(state, PlayCard(0, 88, 88), rules)


def test_A3_draw_takes_the_top_card():
    """A3: with fewer than 4 cards a player may draw: the top card of the draw pile."""
    state = position(2, {0: [5, 6, 7]}, top=[42])
    assert state.draw_pile[0] == 42
    events, after = run(state, Draw(0))
    assert events == (CardDrawn(seat=0, card=42), TurnEnded(seat=0, action="draw", next_seat=1))
    assert sorted(after.hands[0]) == [5, 6, 7, 42]
    assert after.draw_pile == state.draw_pile[1:]


def test_A4_exchange_discards_four_and_draws_four():
    """A4: with exactly 4 cards: discard all 4 face down, then draw 4 from the top."""
    state = position(2, {0: [5, 6, 7, 8]}, top=[50, 51, 52, 53])
    events, after = run(state, Exchange(0))
    assert events[0] == HandDiscarded(seat=0, count=4, cards=(5, 6, 7, 8))
    assert [e.card for e in events[1:5]] == [50, 51, 52, 53]
    assert events[-1] == TurnEnded(seat=0, action="exchange", next_seat=1)
    assert sorted(after.hands[0]) == [50, 51, 52, 53]
    assert after.discard_pile[-4:] == (5, 6, 7, 8)
    assert after.board == state.board and card_count(after) == 90


@pytest.mark.parametrize(
    ("hand", "can_play", "can_draw", "can_exchange"),
    [
        ((), False, True, False),
        ((30,), True, True, False),
        ((30, 31, 32), True, True, False),
        ((30, 31, 32, 33), True, False, True),
    ],
)
def test_A5_which_actions_a_hand_allows(hand, can_play, can_draw, can_exchange):
    """A5: 0 cards: only draw. 1–3: play or draw. 4: play or exchange. The limit is 4."""
    state = position(2, {0: list(hand)})
    legal = legal_actions(state, rules_of(state))
    assert bool(legal.plays) == can_play
    assert legal.can_draw == can_draw and legal.can_exchange == can_exchange
    assert (Draw(0) in legal) == can_draw and (Exchange(0) in legal) == can_exchange
    kinds = {type(c).__name__ for c in legal}
    assert ("PlayCard" in kinds) == can_play
    assert len(list(legal)) == len(legal)
    # What legal_actions allows, decide accepts; what it does not, decide refuses.
    for command in (Draw(0), Exchange(0)):
        if command in legal:
            run(state, command)
        else:
            with pytest.raises(Exception, match=r"."):
                decide(state, command, rules_of(state))


def test_A5_hand_never_exceeds_four():
    """A5: the hand limit is 4, whatever is done."""
    game = Game.new(config_for(3, seed=4))
    rng = random.Random(4)
    for _ in range(200):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.execute(legal[rng.randrange(len(legal))])
        assert all(len(h) <= HAND_LIMIT for h in game.state.hands)


def _drained(hand=(5, 6, 7, 8), pile=(60, 61)):
    """Seat 0 to move holding *hand*; the draw pile holds only *pile*, the rest is discarded."""
    state = position(2, {0: list(hand)})
    pile_cards = tuple(pile)
    rest = tuple(
        c for c in range(1, 91) if c not in pile_cards and all(c not in h for h in state.hands)
    )
    return with_piles(state, draw=pile_cards, discard=rest)


def test_A6_reshuffle_when_drawing_from_an_empty_pile():
    """A6: a draw from an empty pile first shuffles the whole discard pile into a new pile."""
    state = _drained(hand=(5, 6, 7), pile=())
    discard = state.discard_pile
    events, after = run(state, Draw(0))
    shuffled = events[0]
    assert isinstance(shuffled, DeckShuffled) and shuffled.reshuffle
    assert shuffled.size == len(discard) and sorted(shuffled.order) == sorted(discard)
    assert events[1] == CardDrawn(seat=0, card=shuffled.order[0])
    assert after.discard_pile == () and after.draw_pile == shuffled.order[1:]
    assert card_count(after) == 90
    # Pure and reproducible: the order comes from the seed and the number of shuffles.
    assert decide(state, Draw(0), rules_of(state)) == events
    assert shuffled.order == reshuffle_order(state)
    assert reshuffle_order(replace(state, shuffles=state.shuffles + 1)) != shuffled.order


def test_A6_reshuffle_mid_exchange_includes_the_four_just_discarded():
    """A6: an exchange that empties the pile reshuffles the discard pile, which already holds
    the 4 cards just discarded; the draw goes on from the new pile."""
    state = _drained(hand=(5, 6, 7, 8), pile=(60, 61))
    events, after = run(state, Exchange(0))
    kinds = [type(e).__name__ for e in events]
    assert kinds == [
        "HandDiscarded",
        "CardDrawn",
        "CardDrawn",
        "DeckShuffled",
        "CardDrawn",
        "CardDrawn",
        "TurnEnded",
    ]
    shuffled = events[3]
    assert shuffled.reshuffle and {5, 6, 7, 8} <= set(shuffled.order)
    assert sorted(shuffled.order) == sorted((*state.discard_pile, 5, 6, 7, 8))
    hand = sorted(after.hands[0])
    assert hand == sorted([60, 61, *shuffled.order[:2]])
    assert after.discard_pile == () and card_count(after) == 90


def test_A6_players_see_the_reshuffle_but_not_its_order():
    """A6/A7: everyone sees that a reshuffle happened and the new pile's size; nobody but the
    referee sees its order."""
    state = _drained(hand=(5, 6, 7), pile=())
    events, _after = run(state, Draw(0))
    for viewer in (0, 1, SPECTATOR):
        seen = events[0].seen_by(viewer)
        assert seen.order is None and seen.size == events[0].size and seen.reshuffle
    assert events[0].seen_by(REFEREE).order == events[0].order


def test_A7_played_cards_public_exchanged_cards_hidden_sizes_known():
    """A7: a played card is seen by all; cards discarded by an exchange are not; everyone knows
    every hand size and both pile sizes."""
    game = game_from({0: [34, 35, 36, 37], 1: [10, 11, 12, 13]})
    game.execute(PlayCard(0, 34, 40))
    game.execute(Exchange(1))
    for viewer in (0, SPECTATOR):
        view = game.view(viewer)
        assert 34 in view.discard_pile  # played: revealed
        assert not {10, 11, 12, 13} & set(view.discard_pile)  # exchanged: face down
        assert view.discard_pile.count(UNKNOWN) == 4
        assert [len(h) for h in view.hands] == [len(h) for h in game.state.hands]
        assert len(view.draw_pile) == len(game.state.draw_pile)
        assert len(view.discard_pile) == len(game.state.discard_pile)
        assert view.board == game.state.board
    own = game.view(1)
    assert {10, 11, 12, 13} <= set(own.discard_pile)  # the player remembers their own cards
    assert set(own.hands[1]) == set(game.state.hands[1])


# -- E: the end -------------------------------------------------------------------------------


def test_E1_a_line_of_five_wins_at_once():
    """E1: the token that makes a line of 5 of the team's colour ends the game: that team wins,
    with the line recorded; no further command is accepted."""
    state = position(2, {0: [81, 2, 3, 4]}, board={12: 0, 11: 0, 30: 0, 44: 0, 13: 1})
    events, after = run(state, PlayCard(0, 81, 81))
    ended = events[-1]
    assert isinstance(ended, GameEnded) and not any(isinstance(e, TurnEnded) for e in events)
    assert (ended.winner, ended.reason) == (0, "line")
    assert sorted(ended.line) == [11, 12, 30, 44, 81] and is_straight_line(ended.line)
    assert after.is_over and len(legal_actions(after, rules_of(after))) == 0
    with pytest.raises(GameOver):
        decide(after, Draw(1), rules_of(after))


def test_E1_longer_line_wins_and_reports_all_of_it():
    """E1/B7: filling a gap that joins 2 and 3 tokens makes a line of 6: a win."""
    state = position(2, {1: [39]}, board={89: 1, 38: 1, 40: 1, 41: 1, 42: 1}, current=1)
    events, _after = run(state, PlayCard(1, 39, 39))
    assert events[-1].winner == 1 and sorted(events[-1].line) == [38, 39, 40, 41, 42, 89]


def test_E1_four_plus_an_opponent_token_is_no_line():
    """E1: only the team's own colour counts."""
    state = position(2, {0: [81]}, board={12: 0, 11: 1, 30: 0, 44: 0})
    events, _after = run(state, PlayCard(0, 81, 81))
    assert isinstance(events[-1], TurnEnded)


def test_E1_B7_five_in_a_row_across_the_centre_does_not_win():
    """E1/B7: 7, 6 | 3, 13, 26 straddle the empty centre: no line, no win."""
    state = position(2, {0: [26]}, board={7: 0, 6: 0, 3: 0, 13: 0})
    events, after = run(state, PlayCard(0, 26, 26))
    assert isinstance(events[-1], TurnEnded) and not after.is_over


def _stalemate_position(winning: bool):
    """Team 0 holds 34 tokens (a whole colour class plus four more) with no line; seat 0 holds
    a 1. With *winning*, four of team 0's tokens stand in a row and the fifth cell is free."""
    board = dict.fromkeys(CLASSES[1], 0)
    extra = [n for n in CLASSES[2]][:4]
    board.update(dict.fromkeys(extra, 0))
    board.update(dict.fromkeys(CLASSES[0][:10], 1))
    if winning:
        line = (89, 38, 39, 40, 41)
        for n in line:
            board.pop(n, None)
        board.update(dict.fromkeys(line[:4], 0))
        ours = [n for n, t in board.items() if t == 0 and n not in line]
        while sum(1 for t in board.values() if t == 0) > 34:
            del board[ours.pop()]
        while sum(1 for t in board.values() if t == 0) < 34:
            board[next(n for n in CLASSES[2] if n not in board and n != line[4])] = 0
        target = line[4]
    else:
        target = next(n for n in CLASSES[2] if n not in board)
    state = position(2, {0: [1]}, board=board)
    assert state.tokens[0] == TOKENS_PER_TEAM - 1
    return state, target


def test_E2_the_35th_token_without_a_win_is_a_draw():
    """E2: a team placing its 35th token without making a line ends the game in a draw."""
    state, target = _stalemate_position(winning=False)
    events, after = run(state, PlayCard(0, 1, target))
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    assert (ended.winner, ended.reason) == (None, "stalemate")
    assert after.tokens[0] == 35 and after.is_over


def test_E2_a_35th_token_that_makes_a_line_wins():
    """E1 before E2: if the 35th token makes a line, the team wins."""
    state, target = _stalemate_position(winning=True)
    events, _after = run(state, PlayCard(0, 1, target))
    assert (events[-1].winner, events[-1].reason) == (0, "line")


def test_E3_full_board_with_three_teams_is_a_draw():
    """E3: with 3 teams the board fills (30 each) before anyone has 35 tokens; the 90th
    space taken without a line ends the game in a draw."""
    board = {n: colour_class(n) for n in range(1, 91)}
    last = CLASSES[2][-1]
    del board[last]
    state = position(3, {2: [1]}, board=board, current=2)
    assert state.tokens == (30, 30, 29)
    events, after = run(state, PlayCard(2, 1, last))
    ended = events[-1]
    assert (ended.winner, ended.reason) == (None, "board_full")
    assert after.occupied == SPACES and max(after.tokens) < TOKENS_PER_TEAM


def test_E3_V1_full_board_leaves_only_burns():
    """E3/V1: on a full board even the Joker places nothing (A2 applies)."""
    board = {n: colour_class(n) for n in range(1, 91)}
    state = position(3, {0: [1, 45]}, board=board, variants=["joker"])
    assert rules_of(state).legal_spaces(state, 0, 45) == ()
    assert rules_of(state).legal_spaces(state, 0, 1) == ()


def test_E4_turn_limit_ends_in_a_draw_with_its_reason():
    """E4: a game configured with a turn limit ends in a draw when it is reached."""
    game = game_from({}, turn_limit=3)
    for seat in (0, 1):
        assert isinstance(game.execute(Exchange(seat))[-1], TurnEnded)
    ended = game.execute(Exchange(0))[-1]
    assert isinstance(ended, GameEnded)
    assert (ended.winner, ended.reason) == (None, "turn_limit")
    assert game.state.turn == 3 and game.is_over


def test_E4_no_limit_for_people_a_limit_for_bot_games():
    """E4: off by default for people, on by default for bot-only games."""
    from cinco.core.bots.simulation import DEFAULT_TURN_LIMIT
    from cinco.frontends.options import PlayOptions

    assert GameConfig.for_players(2).turn_limit is None
    assert default_registry().configure(2).turn_limit is None
    people = PlayOptions(players=2).config(default_registry(), seed=1)
    assert people.turn_limit is None
    bots = PlayOptions(players=2, bots={0: ("random", None), 1: ("random", None)})
    assert bots.config(default_registry(), seed=1).turn_limit == DEFAULT_TURN_LIMIT
    # Without a limit, draws and exchanges go on for ever: 300 exchanges, still going.
    game = game_from({})
    for i in range(300):
        game.execute(Exchange(i % 2))
    assert not game.is_over


# -- V: variants ------------------------------------------------------------------------------


def test_V1_joker_card_with_no_space_above_goes_anywhere():
    """V1: with Joker, a card with no free space ≥ it counts as a 1 (rule book: 87–90 taken,
    a played 88 may go anywhere free)."""
    taken = {87: 0, 88: 1, 89: 0, 90: 1}
    state = position(2, {0: [88, 20]}, board=taken, variants=["joker"])
    rules = rules_of(state)
    assert rules.legal_spaces(state, 0, 88) == tuple(range(1, 87))
    _events, after = run(state, PlayCard(0, 88, 5))
    assert after.owner(5) == 0
    with pytest.raises(SpaceRequired):
        decide(state, PlayCard(0, 88, None), rules)  # it does not burn while a space is free


def test_V1_joker_changes_nothing_while_a_space_above_is_free():
    """V1: a card that still has a free space ≥ it follows A1 even with Joker."""
    state = position(2, {0: [68]}, board={90: 1}, variants=["joker"])
    rules = rules_of(state)
    assert rules.legal_spaces(state, 0, 68) == tuple(range(68, 90))
    with pytest.raises(SpaceBelowCard):
        decide(state, PlayCard(0, 68, 50), rules)


def test_V1_joker_only_in_games_that_enable_it():
    """V1: enabling Joker in one game changes no other game in the same process."""
    taken = {87: 0, 88: 1, 89: 0, 90: 1}
    joker = position(2, {0: [88]}, board=taken, variants=["joker"])
    plain = position(2, {0: [88]}, board=taken)
    assert rules_of(joker).legal_spaces(joker, 0, 88)
    assert rules_of(plain).legal_spaces(plain, 0, 88) == ()
    assert rules_of(joker).legal_spaces(joker, 0, 88)


@pytest.mark.parametrize(("layout", "teams"), [("2x3", 2), ("3x2", 3)])
def test_V2_six_player_layouts(layout, teams):
    """V2: six players as 2 teams of 3 or 3 teams of 2: seats alternate teams (P4) and a game
    plays through."""
    config = default_registry().configure(
        6,
        layout=layout,
        seats=[Seat(str(i), bot="random") for i in range(6)],
        seed=2,
        turn_limit=400,
    )
    assert config.teams == teams and config.layout == layout
    assert [config.seats_of(t) for t in range(teams)] == [
        tuple(range(t, 6, teams)) for t in range(teams)
    ]
    game = Game.new(config)
    game.play_bots()
    assert game.is_over
    assert len(game.state.tokens) == teams


# -- X: worked examples -----------------------------------------------------------------------


def test_X1_a_68_goes_on_68_or_any_free_space_above():
    """X1: a played 68 may go on 68, 69, 70, … (any that is free)."""
    state = position(2, {0: [68]}, board={70: 1})
    rules = rules_of(state)
    assert rules.legal_spaces(state, 0, 68) == (68, 69, *range(71, 91))
    for space in (68, 69, 90):
        _events, after = run(state, PlayCard(0, 68, space))
        assert after.owner(space) == 0
    with pytest.raises(SpaceBelowCard):
        decide(state, PlayCard(0, 68, 67), rules)


def test_X2_87_with_87_88_89_taken_goes_only_on_90():
    """X2: 87, 88, 89 taken; a played 87 may only go on 90."""
    state = position(2, {0: [87]}, board={87: 0, 88: 1, 89: 0})
    assert rules_of(state).legal_spaces(state, 0, 87) == (90,)
    _events, after = run(state, PlayCard(0, 87, 90))
    assert after.owner(90) == 0


def test_X3_88_with_87_to_90_taken_burns_or_jokers():
    """X3: 87–90 taken; a played 88 places nothing (burns) — or, with Joker, goes on any free
    space."""
    taken = {87: 0, 88: 1, 89: 0, 90: 1}
    plain = position(2, {0: [88]}, board=taken)
    events, after = run(plain, PlayCard(0, 88, None))
    assert events[0].burned and after.tokens == plain.tokens and after.discard_pile[-1] == 88
    joker = position(2, {0: [88]}, board=taken, variants=["joker"])
    assert rules_of(joker).legal_spaces(joker, 0, 88) == joker.free_spaces(1)
    assert len(joker.free_spaces(1)) == 86


def test_X4_60_takes_90_then_a_played_90_burns():
    """X4: the first player plays 60 and takes 90; the second plays 90: it burns (no Joker)."""
    game = game_from({0: [60, 1, 2, 3], 1: [90, 4, 5, 6]})
    game.execute(PlayCard(0, 60, 90))
    assert game.state.owner(90) == 0
    assert game.legal_actions(1).spaces_for(90) == ()
    events = game.execute(PlayCard(1, 90, None))
    assert events[0] == CardPlayed(seat=1, card=90, space=None)
    assert game.state.tokens == (1, 0) and game.state.discard_pile[-1] == 90


def test_X4_with_joker_the_90_goes_anywhere():
    """X4/V1: the same with Joker: the 90 counts as a 1."""
    game = game_from({0: [60, 1, 2, 3], 1: [90, 4, 5, 6]}, variants=["joker"])
    game.execute(PlayCard(0, 60, 90))
    assert game.legal_actions(1).spaces_for(90) == tuple(range(1, 90))
    game.execute(PlayCard(1, 90, 17))
    assert game.state.owner(17) == 1


def test_place_helper_keeps_cards_accounted_for():
    """The position helper itself: 90 cards in hands and piles, tokens match the board."""
    state = place(position(3), {5: 0, 6: 1, 7: 2})
    assert card_count(state) == 90 and state.tokens == (1, 1, 1)


# -- coverage of docs/rules-reference.md ---------------------------------------------------------

#: The rules reference: each clause is a list item that starts ``- **ID** ``.
RULES_REFERENCE = Path(__file__).resolve().parents[3] / "docs" / "rules-reference.md"
CLAUSE_ITEM = re.compile(r"^- \*\*([A-Z][0-9]+)\*\*", flags=re.M)
#: A clause ID as tests cite it, in a name or a docstring.
CLAUSE_CITED = re.compile(r"\b([CBPSAEVX]\d)\b")
#: The clauses the reference must define at least: deleting one from the page fails the test.
REQUIRED_CLAUSES = (
    ["C1"]
    + [f"B{i}" for i in range(1, 8)]
    + [f"P{i}" for i in range(1, 6)]
    + ["S1", "S2"]
    + [f"A{i}" for i in range(1, 8)]
    + [f"E{i}" for i in range(1, 5)]
    + ["V1", "V2"]
    + [f"X{i}" for i in range(1, 5)]
)


def test_every_rules_clause_has_a_test_naming_it():
    """Every clause ID of docs/rules-reference.md appears in the name or docstring of some test
    function; the page defines each required clause exactly once, and no test cites a clause that
    the page does not define."""
    import ast

    listed = CLAUSE_ITEM.findall(RULES_REFERENCE.read_text(encoding="utf-8"))
    defined = set(listed)
    twice = sorted({clause for clause in listed if listed.count(clause) > 1})
    assert not twice, f"clauses defined more than once in {RULES_REFERENCE.name}: {twice}"
    absent = [clause for clause in REQUIRED_CLAUSES if clause not in defined]
    assert not absent, f"clauses missing from {RULES_REFERENCE.name}: {absent}"

    named: dict[str, list[str]] = {}
    for path in Path(__file__).resolve().parents[2].rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                text = node.name.replace("_", " ") + " " + (ast.get_docstring(node) or "")
                for clause in sorted(set(CLAUSE_CITED.findall(text))):
                    named.setdefault(clause, []).append(f"{path.name}::{node.name}")
    undefined = {clause: tests for clause, tests in sorted(named.items()) if clause not in defined}
    assert not undefined, f"tests cite clauses {RULES_REFERENCE.name} does not define: {undefined}"
    missing = [clause for clause in listed if clause not in named]
    assert not missing, f"clauses without a test: {missing}"


def test_rule_hooks_may_take_any_of_their_arguments_in_any_order():
    """pluggy passes arguments by name: a variant may take some of them, in its own order."""
    from cinco.core.engine.outcome import ONGOING, Outcome
    from cinco.core.engine.rules import RuleSet
    from cinco.core.hooks.hookspecs import hookimpl

    class OddSpacesAndNoLines:
        @hookimpl
        def cinco_legal_spaces(self, card: int, state: GameState) -> tuple[int, ...]:
            return tuple(n for n in state.free_spaces(card) if n % 2 == 1)

        @hookimpl
        def cinco_game_end(self, command: Command) -> Outcome:
            return ONGOING if isinstance(command, PlayCard) else None  # type: ignore[return-value]

    rules = RuleSet([OddSpacesAndNoLines()])
    state = position(2, {0: [10, 80]}, board={n: 0 for n in (11, 12, 13, 14)}, current=0)
    assert rules.legal_spaces(state, 0, 80) == (81, 83, 85, 87, 89)
    events = decide(state, PlayCard(0, 10, 15), rules)
    assert isinstance(events[-1], TurnEnded)  # five in a row, but this variant plays on


def test_decide_given_the_legal_actions_decides_the_same():
    """A caller that has the legal actions already (a bot's turn) may hand them to decide:
    the events are the same, and a command not among them is still refused with its reason."""
    from cinco.core.engine.rules import decide_steps

    state = position(2, {0: [10, 80, 83, 85]}, board={81: 1}, current=0)
    rules = rules_of(state)
    legal = legal_actions(state, rules)
    for command in legal:
        given = [event for event, _ in decide_steps(state, command, rules, legal)]
        assert given == list(decide(state, command, rules))
    for bad, error in ((PlayCard(0, 80, 81), SpaceTaken), (PlayCard(0, 85, 84), SpaceBelowCard)):
        with pytest.raises(error):
            decide_steps(state, bad, rules, legal)


# -- folded in from the hardening campaign's test_hardening_core.py (issue 26) --------------------


@pytest.mark.parametrize("first_seat", [2, 3, -1])
def test_P5_a_configured_first_seat_outside_the_table_is_refused(first_seat: int) -> None:
    """P5: seats are 0 to players - 1 (the record's check is in test_hardening_records)."""
    with pytest.raises(ConfigError, match="first seat"):
        GameConfig.for_players(2, first_seat=first_seat)
    with pytest.raises(ConfigError, match="first seat"):
        GameConfig.from_dict({**GameConfig.for_players(2).to_dict(), "first_seat": first_seat})
    assert GameConfig.for_players(2, first_seat=1).first_seat == 1


def test_A6_a_reshuffle_of_an_empty_discard_pile_into_an_empty_draw_pile_is_refused() -> None:
    """A6: a draw when both piles are empty. The fold accepts a reshuffle of nothing, so the
    checker itself must refuse the turn (deciding it would draw from an empty pile and fail
    with an IndexError)."""
    from cinco.core.engine.events import DeckShuffled
    from cinco.core.engine.verify import LogChecker, TurnError

    game = Game.new(GameConfig.for_players(2, seed=4, first_seat=0))
    events = list(game.events)
    checker = LogChecker(events[0], game.rules)
    for event in events[1:]:
        checker.feed(event)
    seat = checker.state.current_seat
    # A hand of three, so a draw is allowed; no card left to draw, and none to reshuffle.
    hands = list(checker.state.hands)
    hands[seat] = hands[seat][:3]
    checker.state = replace(
        checker.state, hands=tuple(hands), draw_pile=(), discard_pile=(), discard_from=()
    )
    with pytest.raises(TurnError) as caught:
        checker.feed(DeckShuffled(size=0, order=(), reshuffle=True))
    assert "A6" in str(caught.value) and "empty" in str(caught.value)
