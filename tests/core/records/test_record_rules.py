"""A record is refused unless every event fits the rules from the first: the
error names the first line at fault and the rule's clause (records damaged on purpose,
written with :func:`cinco.core.records.record.header` and :func:`dumps`).
"""

from __future__ import annotations

import json
import threading
from dataclasses import replace
from typing import Any

import pytest
from damaged_records import (
    ALL_CARDS,
    REGISTRY,
    _config,
    a_notice,
    bot_game,
    exchange_game,
    notice_line,
    record_lines,
    refused,
    text_of,
    turn_starts,
)

from cinco.core.engine import events as events_module
from cinco.core.engine.board import SPACES, rays
from cinco.core.engine.commands import Command, Draw, Exchange, PlayCard
from cinco.core.engine.config import Seat
from cinco.core.engine.errors import EventError, RecordError
from cinco.core.engine.events import (
    CardDrawn,
    CardPlayed,
    DeckShuffled,
    Event,
    GameEnded,
    GameStarted,
    TurnEnded,
)
from cinco.core.engine.rules import setup_events
from cinco.core.engine.state import evolve, fold
from cinco.core.engine.verify import LogChecker, TurnError, check_turns
from cinco.core.game.game import Game
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host.declarations import Variant
from cinco.core.host.registry import Registry
from cinco.core.records.record import dumps, header, loads

# -- folded in from the hardening campaign's test_hardening_records.py (issue 26) -----------------


def test_S1_a_setup_shuffle_that_is_not_the_90_cards_is_refused():
    """S1: a 200-card deck, a card twice, a card missing: refused on the shuffle's line."""
    events = list(bot_game().events)[:2]
    deck = events[1]
    assert isinstance(deck, DeckShuffled) and deck.order is not None
    twice = (deck.order[0], *deck.order[:-1])
    for order in [tuple(range(1, 201)), twice, deck.order[:-1], (*deck.order[:-1], 91)]:
        events[1] = DeckShuffled(size=len(order), order=order, reshuffle=False)
        error = refused(record_lines(events))
        assert error.line == 3 and "S1" in str(error) and "90" in str(error)
    events[1] = replace(deck, reshuffle=True)
    assert refused(record_lines(events)).line == 3


def test_S1_a_deal_not_one_card_at_a_time_round_the_table_is_refused():
    """S1: the deal goes one card at a time round the table from the first player; a record
    that deals in another order, or plays before the deal is done (an uneven deal), is
    refused on the first line that breaks it."""
    game = bot_game()
    events = list(game.events)
    setup = 2 + 4 * 2
    first = game.state.first_seat
    # Even, but not round the table: the last two cards of the deal go to the wrong seats.
    swapped = events[:setup]
    for i in (setup - 2, setup - 1):
        drawn = swapped[i]
        assert isinstance(drawn, CardDrawn)
        swapped[i] = replace(drawn, seat=1 - drawn.seat)
    error = refused(record_lines(swapped))
    assert error.line == setup - 2 + 2 and "S1" in str(error)
    # Uneven: the first player plays with the other's last card still in the pile.
    short = events[: setup - 1]
    state = fold(short)
    card = state.hands[first][0]
    space = next(n for n in range(card, SPACES + 1) if state.is_free(n))
    short += [CardPlayed(first, card, space), TurnEnded(first, "play", 1 - first)]
    assert fold(short)  # the cards and the board allow it: only the rules do not
    error = refused(record_lines(short))
    assert error.line == setup - 1 + 2 and "S1" in str(error)
    # A game never interrupts the deal, not even with a notice.
    interrupted = [*events[:5], a_notice(), *events[5:setup]]
    error = refused(record_lines(interrupted))
    assert error.line == 5 + 2 and "S1" in str(error)


@pytest.mark.parametrize(
    ("players", "teams", "layout"),
    [(4, 4, "4x1"), (4, 4, "2x2"), (6, 3, "2x3"), (6, 2, "3x2"), (2, 2, "3x1")],
)
def test_P2_a_layout_that_does_not_exist_for_the_player_count_is_refused(players, teams, layout):
    """P2: 4 players as 4 teams of one, 2x3 with 3 teams, ...: checked against the installed
    layout, or against the rules' own layouts when the layout is not installed."""
    error = refused(record_lines(setup_events(_config(players, teams, layout))))
    assert error.line == 2 and "P2" in str(error) and layout in str(error)


def test_P2_a_layout_of_a_plugin_not_installed_is_read_when_its_teams_fit_the_rules():
    events = setup_events(_config(4, 2, "pairs"))
    assert loads(text_of(record_lines(events))).events == events


@pytest.mark.parametrize("teams", [1, 3, 0, -2])
def test_P2_teams_must_divide_the_players_and_be_two_or_more(teams):
    line = json.loads(dumps(setup_events(_config(4, 2, "2x2"))[0]))
    line["config"]["teams"] = teams
    error = refused([json.dumps(header()), json.dumps(line)])
    assert error.line == 2 and "teams" in str(error)


def test_P5_a_configured_first_seat_other_than_the_seat_that_begins_is_refused():
    events = setup_events(_config(2, 2, "2x1"))
    started = events[0]
    assert isinstance(started, GameStarted)
    events[0] = replace(started, config=replace(started.config, first_seat=1))
    error = refused(record_lines(events))
    assert error.line == 2 and "P5" in str(error)


def test_P5_a_first_seat_equal_to_the_number_of_players_is_refused():
    """P5: seats are 0 to players - 1; seat 2 of a two-player game cannot begin."""
    config = replace(_config(2, 2, "2x1"), first_seat=None)
    events = setup_events(config)
    events[0] = GameStarted(config=config, first_seat=2)
    error = refused(record_lines(events))
    assert error.line == 2 and "P5" in str(error)
    with pytest.raises(TurnError) as caught:
        LogChecker(events[0], REGISTRY.rules_for(config))
    assert caught.value.index == 0
    with pytest.raises(EventError):
        check_turns(events, REGISTRY.rules_for(config), 10)


def test_a_variant_that_is_not_installed_is_refused_naming_it():
    class Plain:
        """No rule hooks: plays like the standard game."""

    class Plugin:
        @hookimpl
        def cinco_register_variants(self) -> list[Variant]:
            return [Variant("elsewhere", "only installed elsewhere", rules=Plain())]

    registry = Registry(entry_points=False, plugins=[Plugin()])
    seats = [Seat("a", bot="greedy"), Seat("b", bot="random")]
    config = registry.configure(2, seats=seats, seed=2, variants=("elsewhere",), turn_limit=50)
    game = Game.new(config, registry=registry)
    game.play_bots()
    lines = record_lines(list(game.events))
    error = refused(lines)
    assert error.line == 2 and "'elsewhere'" in str(error) and "Install the plugin" in str(error)
    # Where it is installed, the record reads; without the rule check it reads anywhere.
    assert loads(text_of(lines), registry=registry).events == list(game.events)
    assert len(loads(text_of(lines), check_rules=False).events) == len(game.events)


def test_E1_nothing_may_follow_game_ended_in_a_record():
    lines = record_lines(list(bot_game().events))
    for extra in (notice_line(), lines[-2]):
        error = refused([*lines, extra])
        assert error.line == len(lines) + 1 and "game_ended" in str(error)


def test_A1_the_first_line_that_breaks_a_rule_is_named_not_a_later_symptom():
    """A token below its card at line L, on a space a later play takes: the error is at L,
    "A1", not at the later line as "space ... is already taken"."""
    for seed in range(1, 40):
        events = list(bot_game(seed=seed).events)
        plays = [i for i, e in enumerate(events) if isinstance(e, CardPlayed) and e.space]
        for i in plays:
            played = events[i]
            assert isinstance(played, CardPlayed)
            free = fold(events[:i])
            later = [
                events[j].space  # type: ignore[union-attr]
                for j in plays
                if j > i and events[j].space < played.card  # type: ignore[union-attr]
            ]
            below = [n for n in later if free.is_free(n)]
            if below:
                events[i] = replace(played, space=below[0])
                error = refused(record_lines(events))
                assert error.line == i + 2, str(error)
                assert "A1" in str(error) and "or higher" in str(error)
                return
    pytest.fail("no bot game has a play to tamper with")


def test_A5_a_turn_with_no_action_is_a_record_error_naming_the_line():
    """A play's line deleted: the turn_ended that follows begins a turn with no action."""
    events = list(bot_game(seed=3).events)
    ends = [i for i, e in enumerate(events) if isinstance(e, TurnEnded) and e.action == "play"]
    i = ends[-1] - 1
    assert isinstance(events[i], CardPlayed)
    lines = record_lines(events)
    del lines[i + 1]
    error = refused(lines)
    assert error.line == i + 2 and "turn_ended" in str(error) and "action" in str(error)


def test_E1_a_final_game_ended_with_the_winner_changed_is_refused():
    events = list(bot_game(seed=3).events)
    ended = events[-1]
    assert isinstance(ended, GameEnded) and ended.reason == "line" and ended.winner is not None
    events[-1] = replace(ended, winner=1 - ended.winner)
    error = refused(record_lines(events))
    assert error.line == len(events) + 1 and "E1" in str(error)
    # A draw claimed where the rules give a win, and a win claimed at an ordinary turn.
    events[-1] = replace(ended, winner=None, reason="stalemate", line=None)
    assert refused(record_lines(events)).line == len(events) + 1
    ordinary = next(i for i, e in enumerate(events) if isinstance(e, TurnEnded))
    turn_end = events[ordinary]
    assert isinstance(turn_end, TurnEnded)
    events[ordinary] = GameEnded(turn_end.seat, turn_end.action, 0, "line", (1, 2, 3, 4, 5))
    assert refused(record_lines(events)).line == ordinary + 2


def test_A6_a_draw_from_an_empty_pile_is_refused_cleanly():
    """A6: the reshuffle's line deleted leaves a draw from an empty pile: a RecordError at that
    line, never an IndexError. A log whose deck is too short to deal is refused the same way
    by check_turns (Game.from_events)."""
    events = list(exchange_game().events)
    i = next(i for i, e in enumerate(events) if isinstance(e, DeckShuffled) and e.reshuffle)
    lines = record_lines(events)
    del lines[i + 1]
    error = refused(lines)
    assert error.line == i + 2 and "A6" in str(error)
    # A deck of eight cards: dealt, then nothing to draw from.
    config = REGISTRY.configure(2, seed=1, first_seat=0)
    short = [GameStarted(config, 0), DeckShuffled(8, tuple(range(1, 9)), False)]
    short += [CardDrawn(k % 2, k + 1) for k in range(8)]
    fold(short)  # the cards allow it
    state = fold(short)
    card = state.hands[0][0]
    short += [CardPlayed(0, card, 90), TurnEnded(0, "play", 1), CardDrawn(1, None)]
    with pytest.raises(TurnError):
        check_turns(short, REGISTRY.rules_for(config), 10)
    with pytest.raises(RecordError):
        loads(text_of(record_lines(short[:-1] + [CardDrawn(1, card)])))


def test_an_unknown_event_is_refused_not_folded_into_nothing():
    """evolve never returns None: an event it does not know is an EventError; the checker
    refuses it as the first event at fault."""

    class Strange(Event):
        type = "strange"

    game = bot_game(seed=2)
    state = game.state_at(12)
    with pytest.raises(EventError):
        evolve(state, Strange())
    with pytest.raises(EventError):
        evolve(state, GameStarted(game.config, 0))
    events = list(game.events)
    with pytest.raises(TurnError) as caught:
        check_turns([*events[:12], Strange()], game.rules, 10)
    assert caught.value.index == 12


def test_a_notice_between_turns_is_accepted_and_never_loops():
    """Notices between turns (several, right after the deal, before the last turn) change
    nothing: the check accepts the log, promptly."""
    events = list(bot_game(seed=5).events)
    starts = turn_starts(events)
    notice = a_notice()
    for at in sorted({starts[0], starts[1], starts[1], starts[-1]}, reverse=True):
        events[at:at] = [notice, notice] if at == starts[1] else [notice]
    done: list[int] = []
    rules = REGISTRY.rules_for(events[0].config)  # type: ignore[attr-defined]
    worker = threading.Thread(target=lambda: done.append(check_turns(events, rules, 10)))
    worker.start()
    worker.join(20)
    assert done == [len(events)], "check_turns looped or refused a valid log"
    lines = record_lines(events)
    assert loads(text_of(lines)).events == events
    # A notice inside a turn changes nothing either.
    inside = [*events[: starts[2] + 1], notice, *events[starts[2] + 1 :]]
    assert loads(text_of(record_lines(inside))).events == inside


def _two_axes(first: tuple[int, int], second: tuple[int, int]) -> tuple[int, tuple[int, int]]:
    """The lowest space above the cards with two axes (B7's, in order) whose rays have room
    for *first* and *second* tokens on each side (all of them above the cards too)."""

    def fits(ray: tuple[int, ...], length: int) -> bool:
        return len(ray) >= length and (not length or min(ray[:length]) > 10)  # above the cards

    def axes_for(n: int) -> tuple[int, int] | None:
        pairs = rays(n)
        for a in range(len(pairs)):
            for b in range(a + 1, len(pairs)):
                (fa, ba), (fb, bb) = pairs[a], pairs[b]
                if all(
                    fits(ray, length)
                    for ray, length in zip((fa, ba, fb, bb), (*first, *second), strict=True)
                ):
                    return a, b
        return None

    space = next(n for n in range(11, SPACES + 1) if axes_for(n) is not None)
    found = axes_for(space)
    assert found is not None
    return space, found


def _turns_for(plays: int) -> list[str]:
    """The turns until seat 0 has played *plays* cards, as the pile is drawn by them: seat 1
    exchanges every turn (four cards), seat 0 plays from its four, and draws when its hand is
    empty."""
    schedule: list[str] = []
    hand, played = 4, 0
    while played < plays:
        if hand:
            hand, played = hand - 1, played + 1
            schedule.append("play")
        else:
            hand = 1
            schedule.append("draw")
        schedule.append("exchange")
    return schedule


def _two_line_game(
    first: tuple[int, int], second: tuple[int, int]
) -> tuple[list[Event], tuple[int, ...], tuple[int, ...]]:
    """A game where seat 0's last token completes two lines at once, along two axes (the
    first before the second in B7's order). *first* and *second* say how many of the line's
    other tokens lie on each side (at most four: no line is complete before the last token).
    Seat 1 only exchanges. Returns the log and the two lines, in board order."""
    space, found = _two_axes(first, second)
    lines = []
    targets: list[int] = []
    for axis, (ahead, behind) in zip(found, (first, second), strict=True):
        forward, backward = rays(space)[axis]
        targets += [*forward[:ahead], *backward[:behind]]
        lines.append((*reversed(backward[:behind]), space, *forward[:ahead]))
    targets.append(space)
    low = list(range(1, len(targets) + 1))  # seat 0's cards: each may go on any target
    # The deal (seat 0 first), then the pile in the order the turns draw it.
    schedule = _turns_for(len(targets))
    high = [c for c in ALL_CARDS if c not in low]
    rest = iter(high[4:])
    drawn = iter(low[4:])
    pile: list[int] = []
    for action in schedule:
        if action == "draw":
            pile.append(next(drawn))
        elif action == "exchange":
            pile.extend(next(rest) for _ in range(4))
    pile.extend(rest)
    deal = [card for pair in zip(low[:4], high[:4], strict=True) for card in pair]
    config = REGISTRY.configure(2, seed=8, first_seat=0)
    opening: list[Event] = [GameStarted(config, 0), DeckShuffled(SPACES, (*deal, *pile), False)]
    opening += [CardDrawn(k % 2, card) for k, card in enumerate(deal)]
    game = Game.from_events(opening)
    aim = iter(targets)
    for action in schedule:
        seat = game.state.current_seat
        command: Command
        if seat == 1:
            command = Exchange(1)
        elif action == "draw":
            command = Draw(0)
        else:
            command = PlayCard(0, min(game.state.hands[0]), next(aim))
        game.execute(command)
        if game.is_over:
            break
    return list(game.events), lines[0], lines[1]


@pytest.mark.parametrize(
    ("first", "second"), [((4, 0), (4, 0)), ((4, 0), (4, 1)), ((2, 3), (4, 0)), ((1, 3), (2, 2))]
)
def test_E1_one_token_completing_two_lines_reports_the_longest_first_axis_first(first, second):
    """E1: the game_ended of a token that completes two lines holds one of them: the longest,
    and of two as long, the one on the first axis (B7's axes in order). A record holding the
    other line is refused on its last line."""
    events, one, other = _two_line_game(first, second)
    ended = events[-1]
    assert isinstance(ended, GameEnded) and ended.reason == "line" and ended.winner == 0
    wanted, unwanted = (other, one) if sum(second) > sum(first) else (one, other)
    assert ended.line == wanted
    lines = record_lines(events)
    assert loads(text_of(lines)).events == events
    events[-1] = replace(ended, line=unwanted)
    error = refused(record_lines(events))
    assert error.line == len(events) + 1 and "E1" in str(error)


Undone: Any = getattr(events_module, "Undone", None)


@pytest.mark.skipif(Undone is None, reason="this Cinco has no undo event")
def test_an_undo_back_to_a_turn_start_is_read_and_one_elsewhere_is_refused():
    game = bot_game(seed=7)
    events = list(game.events)
    starts = turn_starts(events)
    back_to = starts[3]
    undone = Undone(seat=0, back_to=back_to)
    log = [*events[: starts[6]], undone]
    resumed = Game.from_events(log)
    assert resumed.state.turn == fold(events[:back_to]).turn
    seat = resumed.state.current_seat
    resumed.execute(Draw(seat) if len(resumed.state.hands[seat]) < 4 else Exchange(seat))
    after = list(resumed.events)
    assert loads(text_of(record_lines(after))).events == after
    # Back into the middle of a turn, into the deal, to now, or by a seat that is not there.
    for bad in (
        Undone(seat=0, back_to=back_to + 1),
        Undone(seat=0, back_to=5),
        Undone(seat=0, back_to=starts[6]),
        Undone(seat=2, back_to=back_to),
    ):
        error = refused(record_lines([*events[: starts[6]], bad]))
        assert error.line == starts[6] + 2
    # After the end of the game, an undo takes the game back: it may go on.
    taken_back = [*events, Undone(seat=0, back_to=starts[-1])]
    assert loads(text_of(record_lines(taken_back))).events == taken_back


def test_the_checker_counts_whole_turns_for_resume():
    events = list(bot_game(seed=2).events)
    starts = turn_starts(events)
    rules = REGISTRY.rules_for(events[0].config)  # type: ignore[attr-defined]
    assert check_turns(events[: starts[4] + 1], rules, 10) == starts[4]
    assert check_turns(events[: starts[4]], rules, 10) == starts[4]
    checker = LogChecker(events[0], rules)
    for event in events[1:7]:
        checker.feed(event)
    assert checker.complete == 1 and checker.state == fold(events[:7])
