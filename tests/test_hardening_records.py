"""Hardening (records, the loader, commands): a record is refused unless every event fits the
rules from the first, the error names the first line at fault and the rule, and no input makes
the loader crash, hang or fill the memory. Commands with fields that are not exact whole numbers
are refused before they reach the log.

Records here are written with :func:`cinco.core.records.record.header` and :func:`dumps` from games
the
engine played, then damaged on purpose.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cinco.core.engine import events as events_module
from cinco.core.engine.board import SPACES, line_through, rays
from cinco.core.engine.commands import (
    Command,
    Draw,
    Exchange,
    PlayCard,
    check_command,
    command_problem,
)
from cinco.core.engine.config import GameConfig, Seat
from cinco.core.engine.errors import EventError, IllegalCommand, MalformedCommand, RecordError
from cinco.core.engine.events import (
    CardDrawn,
    CardPlayed,
    DeckShuffled,
    Event,
    GameEnded,
    GameStarted,
    HandDiscarded,
    Notice,
    TurnEnded,
    event_from_dict,
)
from cinco.core.engine.rules import decide, setup_events
from cinco.core.engine.state import FREE, evolve, fold
from cinco.core.engine.verify import LogChecker, TurnError, check_turns
from cinco.core.game.game import Game
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host.declarations import Variant
from cinco.core.host.registry import Registry, default_registry
from cinco.core.records.record import (
    HEADER_FIELDS,
    MAX_FILE_BYTES,
    MAX_LINE_BYTES,
    dumps,
    header,
    load_record,
    loads,
)

REGISTRY = default_registry()
ALL_CARDS = list(range(1, SPACES + 1))


# -- making records ----------------------------------------------------------------------------


def bot_game(
    players: int = 2, seed: int = 1, bots: Sequence[str] = ("random",), turn_limit: int = 200
) -> Game:
    seats = [Seat(f"b{i}", bot=bots[i % len(bots)]) for i in range(players)]
    config = REGISTRY.configure(players, seats=seats, seed=seed, turn_limit=turn_limit)
    game = Game.new(config)
    game.play_bots()
    assert game.is_over
    return game


def exchange_game(turns: int = 48, seed: int = 4) -> Game:
    """Two people who exchange every turn: the draw pile runs out, and is reshuffled (A6)."""
    game = Game.new(REGISTRY.configure(2, seed=seed, first_seat=0))
    for _ in range(turns):
        game.execute(Exchange(game.state.current_seat))
    assert any(isinstance(e, DeckShuffled) and e.reshuffle for e in game.events)
    return game


def record_lines(events: Sequence[Event], **head: Any) -> list[str]:
    return [json.dumps(header(**head))] + [dumps(event) for event in events]


def text_of(lines: Sequence[str]) -> str:
    return "\n".join(lines) + "\n"


def write(tmp_path: Path, lines: Sequence[str], name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(text_of(lines), encoding="utf-8")
    return path


def refused(lines: Sequence[str], **kwargs: Any) -> RecordError:
    with pytest.raises(RecordError) as caught:
        loads(text_of(lines), **kwargs)
    error = caught.value
    assert error.__cause__ is None, f"an internal error, not a clean refusal: {error}"
    return error


def notice_line() -> str:
    """A notice, as an old (version 1) record holds it: every Cinco reads it."""
    return json.dumps({"type": "notice", "v": 1, "kind": "note", "text": "hello", "seat": None})


def a_notice() -> Notice:
    notice = event_from_dict(json.loads(notice_line()))
    assert isinstance(notice, Notice)
    return notice


def turn_starts(events: Sequence[Event]) -> list[int]:
    """The indices of the first event of each turn."""
    first = events[0]
    assert isinstance(first, GameStarted)
    starts, index = [], 2 + 4 * first.config.players
    while index < len(events):
        starts.append(index)
        while not isinstance(events[index], TurnEnded | GameEnded):
            index += 1
        index += 1
    return starts


# -- a referee of its own, for the fuzz test ---------------------------------------------------


class _End(Exception):
    """The log stops here (a valid prefix)."""


def assert_legal_game(events: Sequence[Event]) -> None:
    """Check *events* is a legal standard game (no variants), or a prefix of one, with plain
    lists: nothing here uses the fold or the rule code under test (only the board's lines)."""
    referee = _Referee(events)
    with contextlib.suppress(_End):
        referee.run()


class _Referee:
    """The state :func:`assert_legal_game` keeps in plain lists, and its steps: the header
    checked at once, then the deal and the turns as the log goes on."""

    def __init__(self, events: Sequence[Event]) -> None:
        started = events[0]
        assert isinstance(started, GameStarted)
        config = started.config
        players, teams = config.players, config.teams
        assert (players, teams) in {(2, 2), (3, 3), (4, 2), (6, 2), (6, 3)}
        assert not config.variants
        first = started.first_seat
        assert 0 <= first < players
        assert config.first_seat in (None, first)
        self.events, self.config, self.first = events, config, first
        self.players, self.teams = players, teams
        self.position = 1
        self.pile: list[int] = []
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.board = [FREE] * (SPACES + 1)
        self.tokens = [0] * teams

    def take(self) -> Event:
        """The log's next event, notices skipped; :class:`_End` where the log stops."""
        events = self.events
        while self.position < len(events) and isinstance(events[self.position], Notice):
            self.position += 1
        if self.position >= len(events):
            raise _End
        event = events[self.position]
        self.position += 1
        return event

    def draw(self, seat: int) -> None:
        if not self.pile:
            shuffle = self.take()
            assert isinstance(shuffle, DeckShuffled) and shuffle.reshuffle
            assert shuffle.order is not None and sorted(shuffle.order) == sorted(self.discard)
            assert shuffle.size == len(self.discard) > 0
            self.pile, self.discard = list(shuffle.order), []
        drawn = self.take()
        assert isinstance(drawn, CardDrawn) and drawn.seat == seat
        assert drawn.card == self.pile.pop(0)
        self.hands[seat].append(drawn.card)

    def run(self) -> None:
        deck = self.take()
        assert isinstance(deck, DeckShuffled) and not deck.reshuffle and deck.size == SPACES
        assert deck.order is not None and sorted(deck.order) == ALL_CARDS
        self.pile = list(deck.order)
        for k in range(4 * self.players):
            self.draw((self.first + k) % self.players)
        seat, turn = self.first, 0
        while True:
            action, space = self.action(seat)
            wanted = self.turn_end(seat, action, space, turn)
            assert self.take() == wanted
            if isinstance(wanted, GameEnded):
                assert self.position == len(self.events), "events after the end of the game"
                return
            seat, turn = (seat + 1) % self.players, turn + 1

    def action(self, seat: int) -> tuple[str, int | None]:
        """*seat*'s action this turn, checked and applied: its name, and the space a token
        went on (``None`` if none did)."""
        event = self.take()
        hand = self.hands[seat]
        if isinstance(event, CardPlayed):
            assert event.seat == seat and event.card in hand
            hand.remove(event.card)
            self.discard.append(event.card)
            self.place(event)
            return "play", event.space
        if isinstance(event, HandDiscarded):
            assert event.seat == seat and len(hand) == 4 and event.count == 4
            assert event.cards is not None and sorted(event.cards) == sorted(hand)
            self.discard.extend(event.cards)
            self.hands[seat] = []
            for _ in range(4):
                self.draw(seat)
            return "exchange", None
        assert isinstance(event, CardDrawn | DeckShuffled), event
        assert len(hand) < 4
        self.position -= 1
        self.draw(seat)
        return "draw", None

    def place(self, event: CardPlayed) -> None:
        free = [n for n in range(event.card, SPACES + 1) if self.board[n] == FREE]
        if event.space is None:
            assert not free, "a card burned with a free space for it (A2)"
        else:
            assert event.space in free, "a token below its card or on a taken space"
            self.board[event.space] = event.seat % self.teams
            self.tokens[event.seat % self.teams] += 1

    def turn_end(self, seat: int, action: str, space: int | None, turn: int) -> Event:
        """The event that must end this turn: the next seat's, or the game's end."""
        wanted: Event = TurnEnded(seat, action, (seat + 1) % self.players)
        team, tokens = seat % self.teams, self.tokens
        if space is not None and len(line := line_through(self.board, space, team)) >= 5:
            wanted = GameEnded(seat, action, team, "line", line)
        elif space is not None and tokens[team] >= 35:
            wanted = GameEnded(seat, action, None, "stalemate")
        elif space is not None and sum(tokens) >= SPACES:
            wanted = GameEnded(seat, action, None, "board_full")
        elif self.config.turn_limit is not None and turn + 1 >= self.config.turn_limit:
            wanted = GameEnded(seat, action, None, "turn_limit")
        return wanted


# == illegal games are refused =================================================================


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


def _config(players: int, teams: int, layout: str) -> GameConfig:
    seats = tuple(Seat(f"p{i}") for i in range(players))
    return GameConfig(seats=seats, teams=teams, layout=layout, seed=3, first_seat=0)


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


# == the first line at fault is named, with the rule ===========================================


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


# == no tracebacks =============================================================================


def test_single_line_deletions_duplications_and_swaps_are_clean_errors_or_legal_games():
    events = list(bot_game(seed=4, turn_limit=40).events)
    lines = record_lines(events)
    for i in range(1, len(lines)):
        damaged = [lines[:i] + lines[i + 1 :], lines[: i + 1] + lines[i:]]
        if i + 1 < len(lines):
            damaged.append(lines[:i] + [lines[i + 1], lines[i]] + lines[i + 2 :])
        for variant in damaged:
            _clean_or_legal(text_of(variant), len(variant))


def test_json_nested_very_deep_is_a_clean_error():
    head = json.dumps(header())
    for depth in (100_000, 20_000):
        error = refused([head, "[" * depth + "]" * depth])
        assert error.line == 2
    options = {"a": 1}
    for _ in range(40):
        options = {"a": options}
    started = json.loads(dumps(setup_events(_config(2, 2, "2x1"))[0]))
    started["config"]["options"] = options
    error = refused([head, json.dumps(started)])
    assert error.line == 2 and "options" in str(error)


def test_an_integer_of_thousands_of_digits_is_a_clean_error():
    lines = record_lines(list(bot_game().events)[:3])
    data = json.loads(lines[2])
    lines[2] = json.dumps(data).replace('"size": 90', '"size": 1' + "0" * 5000)
    error = refused(lines)
    assert error.line == 3 and "digits" in str(error)
    lines[2] = json.dumps(data).replace('"size": 90', '"size": NaN')
    assert refused(lines).line == 3


@pytest.mark.parametrize(
    "config_change",
    [
        {"seed": 1e400},
        {"seed": "7"},
        {"teams": 2.0},
        {"teams": True},
        {"seats": "ab"},
        {"seats": [{"name": ["x"]}, {"name": "y"}]},
        {"variants": "joker"},
        {"options": [1]},
        {"first_seat": 0.0},
    ],
)
def test_a_configuration_of_the_wrong_types_is_a_clean_error(config_change):
    data = json.loads(dumps(setup_events(_config(2, 2, "2x1"))[0]))
    data["config"].update(config_change)
    error = refused([json.dumps(header()), json.dumps(data)])
    assert error.line == 2


def test_unknown_header_fields_are_kept_apart_and_never_passed_on(tmp_path):
    """A header field the reader does not know (``path``!) must not reach the writer, which
    takes the known fields as keyword arguments (``RecordWriter(path, **fields)``)."""
    lines = record_lines(list(bot_game().events), frontend="cli", path="/elsewhere", table="t1")
    record = load_record(write(tmp_path, lines))
    assert set(record.header) <= set(HEADER_FIELDS)
    assert record.header["frontend"] == "cli" and record.header["table"] == "t1"
    assert record.extra_header == {"path": "/elsewhere"}

    def writer(path: Path, **fields: Any) -> dict[str, Any]:
        return fields

    # What frontends/terminal/session.py does on --resume:
    passed = {k: v for k, v in record.header.items() if k not in ("format", "version", "cinco")}
    assert writer(tmp_path / "x.jsonl", **passed) == {"frontend": "cli", "table": "t1"}
    # A known field of the wrong type is not trusted either.
    lines[0] = json.dumps(header(frontend=["cli"]))
    record = load_record(write(tmp_path, lines))
    assert "frontend" not in record.header and record.extra_header == {"frontend": ["cli"]}
    lines[0] = json.dumps({**header(), "version": True})
    assert refused(lines).line == 1


# == hangs and memory ==========================================================================


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_fifo_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    outcome: list[BaseException | None] = []

    def read() -> None:
        try:
            load_record(fifo)
        except BaseException as exc:  # reported below
            outcome.append(exc)
        else:
            outcome.append(None)

    worker = threading.Thread(target=read, daemon=True)
    worker.start()
    worker.join(10)
    if worker.is_alive():  # the old reader waits for a writer: give it one, then fail
        descriptor = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(descriptor)
        worker.join(5)
        pytest.fail("load_record waited on a named pipe")
    [error] = outcome
    assert isinstance(error, RecordError) and "not a regular file" in str(error)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_dev_zero_is_refused_at_once_without_reading_it():
    """Checked in a child process with a memory limit and a timeout, so that a reader that
    reads for ever cannot harm the machine running the tests."""
    script = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n"
        "from cinco.core.records.record import load_record\n"
        "from cinco.core.engine.errors import RecordError\n"
        "try:\n"
        "    load_record('/dev/zero')\n"
        "except RecordError as exc:\n"
        "    print(exc)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "not a regular file" in result.stdout


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "big.jsonl"
    with big.open("wb") as file:
        file.write((json.dumps(header()) + "\n").encode())
        file.truncate(MAX_FILE_BYTES + 1)  # sparse: nothing is written
    with pytest.raises(RecordError, match="larger than 64 MiB"):
        load_record(big)
    with pytest.raises(RecordError, match="larger than"):
        loads("\n" * (MAX_FILE_BYTES + 1))


def test_a_line_over_the_length_limit_is_refused(tmp_path):
    lines = record_lines(list(bot_game().events))
    long_notice = {"type": "notice", "v": 1, "kind": "x", "text": "é" * (MAX_LINE_BYTES // 2)}
    lines.insert(12, json.dumps(long_notice, ensure_ascii=False))
    with pytest.raises(RecordError, match="longer than 64 KiB") as caught:
        load_record(write(tmp_path, lines))
    assert caught.value.line == 12 + 1
    # Even as the last line with no newline (it is not a line cut short).
    text = text_of(lines[:12]) + "[" + " " * MAX_LINE_BYTES
    with pytest.raises(RecordError, match="longer than") as caught:
        loads(text)
    assert caught.value.line == 13


# == the fuzz test =============================================================================


def _clean_or_legal(text: str | bytes, line_count: int, path: Path | None = None) -> str:
    """Load *text*: either a clean RecordError naming a line (or the whole file), or a record
    whose events are a legal game (or the prefix of one). Returns which."""
    try:
        if isinstance(text, bytes):
            assert path is not None
            path.write_bytes(text)
            record = load_record(path)
        else:
            record = loads(text)
    except RecordError as error:
        assert error.__cause__ is None, f"an internal error, not a clean refusal: {error}"
        assert error.line is None or 1 <= error.line <= line_count + 1, error
        assert "could not be checked" not in str(error)
        return "refused"
    assert_legal_game(record.events)
    state = fold(record.events)
    assert state.occupied == sum(1 for n in range(1, SPACES + 1) if state.board[n] != FREE)
    cards = sorted([*state.draw_pile, *state.discard_pile, *(c for h in state.hands for c in h)])
    assert len(record.events) < 2 + 4 * state.players or cards == ALL_CARDS
    return "accepted"


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a parsed JSON value, as a path of keys and indices."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def _replacement(rng: random.Random, old: Any) -> Any:
    number = old if isinstance(old, int) and not isinstance(old, bool) else 7
    choices: list[Any] = [
        number + 1,
        number - 1,
        0,
        -1,
        1,
        89,
        90,
        91,
        10**30,
        -(10**30),
        float(number),
        1.5,
        True,
        False,
        None,
        "x",
        str(number),
        "",
        [],
        [number],
        {},
        {"a": number},
        rng.randrange(-5, 100),
    ]
    return rng.choice(choices)


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    value[path[0]] = _set(value[path[0]], path[1:], new)
    return value


def _mutate(lines: list[str], rng: random.Random) -> str | bytes:
    kind = rng.choice(
        ["delete", "duplicate", "swap", "move", "flip", "number", "number", "type", "cut"]
    )
    lines = list(lines)
    i = rng.randrange(len(lines))
    j = rng.randrange(len(lines))
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    elif kind == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "move":
        lines.insert(j, lines.pop(i))
    elif kind == "flip":
        data = bytearray(text_of(lines).encode())
        for _ in range(rng.choice((1, 1, 2, 3))):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        return bytes(data)
    elif kind == "cut":
        text = text_of(lines)
        return text[: rng.randrange(len(text))]
    else:
        data = json.loads(lines[i])
        path = rng.choice(_paths(data))
        old: Any = data
        for key in path:
            old = old[key]
        if kind == "number" and not isinstance(old, int):
            numbers = [p for p in _paths(data) if _leaf_is_number(data, p)]
            if numbers:
                path = rng.choice(numbers)
                old = data
                for key in path:
                    old = old[key]
        data = _set(data, path, _replacement(rng, old))
        lines[i] = json.dumps(data)
    return text_of(lines)


def _leaf_is_number(data: Any, path: tuple[Any, ...]) -> bool:
    for key in path:
        data = data[key]
    return isinstance(data, int) and not isinstance(data, bool)


def _corpus() -> list[list[str]]:
    with_notices = list(bot_game(seed=6).events)
    starts = turn_starts(with_notices)
    for at in (starts[5], starts[1], starts[0]):
        with_notices.insert(at, a_notice())
    games = [
        with_notices,
        list(bot_game(players=3, seed=2, turn_limit=60).events),
        list(bot_game(players=4, seed=3, bots=("greedy", "random"), turn_limit=60).events),
        list(exchange_game(turns=44).events),
    ]
    return [record_lines(events, frontend="cli") for events in games]


def test_fuzz_damaged_records_are_refused_cleanly_or_are_legal_games(tmp_path):
    """Real records, damaged at random (lines deleted, duplicated, swapped, moved; bytes
    flipped; numbers and types changed; the file cut short): each is a clean RecordError
    naming a line, or a game that a referee written independently accepts. Never another
    exception, a hang, or an illegal game."""
    rng = random.Random(20240531)
    corpus = _corpus()
    for lines in corpus:
        assert _clean_or_legal(text_of(lines), len(lines)) == "accepted"
    outcomes = {"refused": 0, "accepted": 0}
    path = tmp_path / "fuzz.jsonl"
    for _round in range(600):
        lines = rng.choice(corpus)
        damaged = _mutate(lines, rng)
        outcomes[_clean_or_legal(damaged, len(lines) + 1, path)] += 1
    assert outcomes["refused"] > 300 and outcomes["accepted"] > 5, outcomes


# == commands ==================================================================================


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


# == undo in records ===========================================================================

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
