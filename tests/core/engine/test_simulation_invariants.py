"""Random simulation over every configuration, checking the invariants after EVERY event.

Configurations (P1, P2, V1, V2): 2, 3, 4 players, 6 as 2×3 and as 3×2, each with and without
Joker. Bots: random (uniform over legal actions) and greedy. After every event: the 90 cards
are all in hands and piles (C1), no space is taken twice and tokens match the board, at most 35
tokens per team (E2), hands of at most 4 (A5), turns pass per P4, plays obey A1/A2/V1. After
each game: the record written by RecordWriter loads and folds to the live state, and each
viewer's projected stream folds to their view (S2).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path

import pytest

from cinco.core.engine.board import SPACES
from cinco.core.engine.commands import Command, Draw, Exchange
from cinco.core.engine.config import Seat
from cinco.core.engine.events import (
    SPECTATOR,
    CardDrawn,
    CardPlayed,
    DeckShuffled,
    Event,
    GameEnded,
    GameStarted,
    HandDiscarded,
    Notice,
    TurnEnded,
)
from cinco.core.engine.legal import LegalActions
from cinco.core.engine.state import FREE, HAND_LIMIT, TOKENS_PER_TEAM, GameState, fold
from cinco.core.game.game import Game
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host.declarations import BotSpec
from cinco.core.host.registry import Registry
from cinco.core.records.record import load_record
from cinco.plugins.record_writer import RecordWriter

CONFIGS = [
    (2, None),
    (3, None),
    (4, None),
    (6, "2x3"),
    (6, "3x2"),
]
ALL_CARDS = list(range(1, SPACES + 1))


class SwapperBot:
    """A test bot that draws and exchanges often, so that piles run out and reshuffle (A6)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: GameState, legal: LegalActions) -> Command:
        swaps = [c for c in (Draw(legal.seat), Exchange(legal.seat)) if c in legal]
        if swaps and self.rng.random() < 0.7:
            return self.rng.choice(swaps)
        return legal[self.rng.randrange(len(legal))]


@hookimpl
def cinco_register_bots() -> list[BotSpec]:
    return [BotSpec("swapper", "draws and exchanges a lot", create=lambda c: SwapperBot(c.seed))]


class _TestBots:
    cinco_register_bots = staticmethod(cinco_register_bots)


REGISTRY = Registry(entry_points=False, plugins=[_TestBots()])


class InvariantChecker:
    """A game plugin (the public ``cinco_event`` hook): checks the referee's state after every
    event, from ``GameStarted`` on."""

    def __init__(self, joker: bool) -> None:
        self.previous: GameState | None = None
        self.counts: Counter[str] = Counter()
        self.turn_events: list[Event] = []
        self.joker = joker
        self.seen = 0

    @hookimpl
    def cinco_event(self, game: Game, event: Event) -> None:
        self.seen += 1
        if isinstance(event, GameStarted):
            self.previous = game.state
            return
        assert self.previous is not None
        self.check(self.previous, game.state, event)

    def check(self, before: GameState, state: GameState, event: Event) -> None:
        check_conservation(state)
        check_turn_order(before, state, event)
        # A1/A2/V1: a token goes on a free space at or above the card (or, with Joker when
        # none is free at or above it, anywhere free); a burn only when nothing is free above.
        if isinstance(event, CardPlayed):
            self.check_play(before, state, event)
        if isinstance(event, DeckShuffled) and event.reshuffle:
            self.counts["reshuffle"] += 1
            assert before.draw_pile == ()  # A6: only when a card must be drawn from nothing
            if any(isinstance(e, HandDiscarded) for e in self.turn_events):
                self.counts["reshuffle_mid_exchange"] += 1
        self.turn_events.append(event)
        if isinstance(event, TurnEnded | GameEnded):
            self.turn_events = []
        if isinstance(event, GameEnded):
            self.counts[event.reason] += 1
            if event.reason == "line":
                assert event.winner == state.team_of(event.seat) and len(event.line or ()) >= 5
        self.previous = state

    def check_play(self, before: GameState, state: GameState, event: CardPlayed) -> None:
        free_above = before.free_spaces(event.card)
        if event.space is None:
            self.counts["burn"] += 1
            assert not free_above and (not self.joker or not before.free_spaces(1))
        else:
            assert before.board[event.space] == FREE
            assert event.space >= event.card or (self.joker and not free_above)
            assert state.board[event.space] == state.team_of(event.seat)
            if event.space < event.card:
                self.counts["joker"] += 1


def check_conservation(state: GameState) -> None:
    """What holds after every event, whatever it was: the cards, the board, the hands."""
    index = state.events
    # C1: the 90 cards, each exactly once, in hands and piles.
    cards = [c for hand in state.hands for c in hand]
    cards += [*state.draw_pile, *state.discard_pile]
    assert sorted(cards) == ALL_CARDS, f"cards not conserved after event {index}"
    # No space taken twice; tokens match the board; at most 35 per team (E2).
    board = state.board
    for team in range(state.teams):
        on_board = sum(1 for n in range(1, SPACES + 1) if board[n] == team)
        assert on_board == state.tokens[team] <= TOKENS_PER_TEAM
    assert board[0] == FREE
    # The free spaces the fold keeps up to date (a cache) are the board's.
    free = tuple(n for n in range(1, SPACES + 1) if board[n] == FREE)
    assert state.free_spaces() == free
    assert state.free_spaces(45) == tuple(n for n in free if n >= 45)
    # A5: the hand limit.
    assert all(len(hand) <= HAND_LIMIT for hand in state.hands)


def check_turn_order(before: GameState, state: GameState, event: Event) -> None:
    """P4: only the player to move acts; turns pass round the table."""
    if isinstance(event, CardPlayed | HandDiscarded):
        assert event.seat == before.current_seat
    if isinstance(event, CardDrawn) and before.turn > 0:
        assert event.seat == before.current_seat
    if isinstance(event, TurnEnded | GameEnded):
        assert event.seat == before.current_seat
    if isinstance(event, TurnEnded):
        assert event.next_seat == (event.seat + 1) % state.players
        assert state.team_of(event.next_seat) == event.next_seat % state.teams
        assert state.turn == before.turn + 1


def play_and_check(
    tmp_path: Path,
    players: int,
    layout: str | None,
    joker: bool,
    bots: list[str],
    seed: int,
    turn_limit: int = 500,
) -> Counter[str]:
    registry = REGISTRY
    seats = [Seat(f"{bots[i % len(bots)]}{i}", bot=bots[i % len(bots)]) for i in range(players)]
    config = registry.configure(
        players,
        layout=layout,
        variants=["joker"] if joker else [],
        seats=seats,
        seed=seed,
        turn_limit=turn_limit,
    )
    path = tmp_path / f"{players}-{layout}-{joker}-{seed}.jsonl"
    checker = InvariantChecker(joker)
    game = Game.new(config, registry=registry, plugins=[RecordWriter(path), checker])
    game.play_bots()
    assert game.is_over
    assert checker.seen == len(game.events)  # every event was checked
    # The record reproduces the live game.
    record = load_record(path)
    assert not record.warnings and not record.truncated
    assert record.events == list(game.events)
    assert fold(record.events) == game.state
    assert Game.from_events(record.events).state == game.state
    # Every viewer's stream folds to their view (S2).
    for viewer in [*range(players), SPECTATOR]:
        assert fold(game.events_for(viewer)) == game.view(viewer)
    assert not any(isinstance(e, Notice) for e in game.events)  # no bot misbehaved
    return checker.counts


@pytest.mark.parametrize("joker", [False, True], ids=["plain", "joker"])
@pytest.mark.parametrize(("players", "layout"), CONFIGS, ids=["2", "3", "4", "6x2x3", "6x3x2"])
def test_random_games_keep_every_invariant(tmp_path, players, layout, joker):
    """C1, A1–A6, E1–E4, P4, S2, V1, V2 over random and greedy games of this configuration."""
    totals: Counter[str] = Counter()
    for seed in (1, 2):
        totals += play_and_check(tmp_path, players, layout, joker, ["random"], seed)
    totals += play_and_check(tmp_path, players, layout, joker, ["greedy", "random"], 3)
    totals += play_and_check(tmp_path, players, layout, joker, ["swapper", "random"], 4)
    endings = {"line", "stalemate", "board_full", "turn_limit"}
    assert sum(totals[r] for r in endings) == 4


def test_random_games_reach_the_rare_rules(tmp_path):
    """Over a batch of random games, the rare paths are exercised too: reshuffles (A6), also
    in the middle of an exchange, burns (A2), Joker placements (V1), stalemates (E2), wins."""
    totals: Counter[str] = Counter()
    for seed in range(10, 22):
        totals += play_and_check(tmp_path, 2, None, seed % 2 == 0, ["random"], seed)
    for seed in range(30, 36):
        totals += play_and_check(tmp_path, 3, None, True, ["swapper", "random"], seed)
    assert totals["reshuffle"] > 0
    assert totals["reshuffle_mid_exchange"] > 0
    assert totals["burn"] > 0
    assert totals["joker"] > 0
    assert totals["line"] > 0 and totals["stalemate"] > 0


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("CINCO_SLOW"), reason="long: run with CINCO_SLOW=1")
@pytest.mark.parametrize("joker", [False, True])
@pytest.mark.parametrize(("players", "layout"), CONFIGS)
def test_many_random_games_keep_every_invariant(tmp_path, players, layout, joker):
    """The same, over 30 games per configuration (``CINCO_SLOW=1 pytest -m slow``)."""
    for seed in range(100, 130):
        bots = [["random"], ["greedy", "random"], ["swapper"]][seed % 3]
        play_and_check(tmp_path, players, layout, joker, bots, seed, turn_limit=1000)
