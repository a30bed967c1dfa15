"""How fast is the engine? Random-bot games through the whole engine, beside a bare simulator.

The engine run goes through everything a real game does: commands, ``decide``, events appended
to the store, the referee fold, each bot's projected view, and the hooks. The bare simulator
plays the same kind of game (same rules, a bot uniform over the legal actions) on mutable lists,
writing no events. The goal is for the engine to reach at least a third of the bare speed.

Run: ``python benchmarks/engine_speed.py [--games N] [--seconds S]``.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

import cinco
from cinco.core.board import SPACES, line_through
from cinco.core.record import load_record
from cinco.core.state import fold
from cinco.plugins.record_writer import RecordWriter

TURN_LIMIT = 1000


def engine_games(games: int, registry: cinco.Registry) -> tuple[int, float]:
    turns = 0
    started = time.perf_counter()
    for seed in range(games):
        seats = [cinco.Seat("a", bot="random"), cinco.Seat("b", bot="random")]
        config = registry.configure(2, seats=seats, seed=seed, turn_limit=TURN_LIMIT)
        game = cinco.Game.new(config, registry=registry)
        game.play_bots()
        turns += game.state.turn
    return turns, time.perf_counter() - started


def bare_game(seed: int) -> int:
    """One two-player game with uniform random actions on plain lists; returns turns played."""
    rng = random.Random(seed)
    deck = list(range(1, SPACES + 1))
    rng.shuffle(deck)
    board = [-1] * (SPACES + 1)
    hands: list[list[int]] = [[], []]
    for _ in range(4):
        for seat in (0, 1):
            hands[seat].append(deck.pop())
    discard: list[int] = []
    tokens = [0, 0]
    seat = rng.randrange(2)
    for turn in range(1, TURN_LIMIT + 1):
        hand = hands[seat]
        options: list[tuple[int, list[int]]] = []
        count = 0
        for card in sorted(set(hand)):
            free = [n for n in range(card, SPACES + 1) if board[n] == -1]
            options.append((card, free))
            count += len(free) or 1
        can_draw = len(hand) < 4
        can_exchange = len(hand) == 4
        pick = rng.randrange(count + can_draw + can_exchange)
        if pick < count:
            chosen, free = options[0]
            for chosen, free in options:  # noqa: B007 - the loop stops at the pick
                width = len(free) or 1
                if pick < width:
                    break
                pick -= width
            hand.remove(chosen)
            discard.append(chosen)
            if free:
                space = free[pick]
                board[space] = seat
                tokens[seat] += 1
                if len(line_through(board, space, seat)) >= 5 or tokens[seat] >= 35:
                    return turn
        else:
            if can_exchange:
                discard.extend(hand)
                hand.clear()
            for _ in range(1 if can_draw else 4):
                if not deck:
                    deck, discard = discard, []
                    rng.shuffle(deck)
                hand.append(deck.pop())
        seat = 1 - seat
    return TURN_LIMIT


def bare_games(games: int) -> tuple[int, float]:
    started = time.perf_counter()
    turns = sum(bare_game(seed) for seed in range(games))
    return turns, time.perf_counter() - started


class Shuffler:
    """A bot that never plays: it draws, then exchanges, for ever (a long record)."""

    def choose(self, view: cinco.GameState, legal: cinco.LegalActions) -> cinco.Command:
        seat = legal.seat
        return cinco.Draw(seat) if legal.can_draw else cinco.Exchange(seat)


def long_record(path: Path, turns: int) -> int:
    spec = cinco.BotSpec("shuffler", "draws and exchanges", create=lambda context: Shuffler())

    class Plugin:
        @cinco.hookimpl
        def cinco_register_bots(self) -> list[cinco.BotSpec]:
            return [spec]

    registry = cinco.Registry(entry_points=False, plugins=[Plugin()])
    seats = [cinco.Seat("a", bot="shuffler"), cinco.Seat("b", bot="shuffler")]
    config = registry.configure(2, seats=seats, seed=1, turn_limit=turns)
    game = cinco.Game.new(config, registry=registry, plugins=[RecordWriter(path)])
    game.play_bots()
    return len(game.events)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--long-turns", type=int, default=20_000)
    args = parser.parse_args()

    registry = cinco.default_registry()
    engine_turns, engine_seconds = engine_games(args.games, registry)
    bare_turns, bare_seconds = bare_games(args.games)
    engine_rate = engine_turns / engine_seconds
    bare_rate = bare_turns / bare_seconds
    print(
        f"engine: {args.games} games, {engine_turns} actions in {engine_seconds:.2f} s: "
        f"{engine_rate:,.0f} actions/s"
    )
    print(
        f"bare:   {args.games} games, {bare_turns} actions in {bare_seconds:.2f} s: "
        f"{bare_rate:,.0f} actions/s"
    )
    ratio = engine_rate / bare_rate
    verdict = "meets" if ratio >= 1 / 3 else "MISSES"
    print(f"ratio engine/bare: {ratio:.2f} ({verdict} the goal of at least 0.33)")

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long.jsonl"
        events = long_record(path, args.long_turns)
        started = time.perf_counter()
        record = load_record(path)
        loaded = time.perf_counter() - started
        started = time.perf_counter()
        fold(record.events)
        folded = time.perf_counter() - started
        size = path.stat().st_size / 1e6
        print(
            f"replay: {events} events ({size:.1f} MB, {args.long_turns} turns): "
            f"load+check {loaded:.2f} s ({events / loaded:,.0f} events/s), "
            f"fold {folded:.2f} s ({events / folded:,.0f} events/s)"
        )


if __name__ == "__main__":
    main()
