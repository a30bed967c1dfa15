"""How fast is the engine? Random-bot games through the whole engine, beside a bare simulator.

The engine run goes through everything a real game does: commands, ``decide``, events appended
to the store, the referee fold, each bot's projected view, and the hooks. The bare simulator
plays the same kind of game (same rules, a bot uniform over the legal actions) on mutable lists,
writing no events. The goal is for the engine to reach at least a third of the bare speed.

For the picture it also times the engine's rule code alone (``legal_actions`` and
``decide_steps`` on immutable states: no store, no views, no lifecycle hooks; the "reference
engine" of ``kernel_speed.py``), and the least work the design does per move.

The three loops take turns for ``--rounds`` rounds and each reports its best round, so that
other work on the machine weighs on all of them alike.

Run: ``python benchmarks/engine_speed.py [--games N] [--rounds R] [--long-turns T]``.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from kernel_speed import reference_rollout  # a sibling script: benchmarks/ is on sys.path

import cinco
from cinco.core.engine.board import SPACES, line_through
from cinco.core.engine.events import CardPlayed, TurnEnded
from cinco.core.engine.state import evolve, fold, project
from cinco.core.records.record import load_record
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
        options: list[tuple[int, list[int]]] = []  # each card, with the free spaces it reaches
        count = 0  # plays: a card that reaches no space burns
        for card in sorted(set(hand)):
            free = [n for n in range(card, SPACES + 1) if board[n] == -1]
            options.append((card, free))
            count += len(free) or 1
        can_draw = len(hand) < 4
        can_exchange = len(hand) == 4
        pick = rng.randrange(count + can_draw + can_exchange)
        if pick >= count:
            _bare_take(hand, deck, discard, rng, exchange=can_exchange)
        elif _bare_play(options, pick, seat, hand, discard, board, tokens):
            return turn
        seat = 1 - seat
    return TURN_LIMIT


def _bare_play(
    options: list[tuple[int, list[int]]],
    pick: int,
    seat: int,
    hand: list[int],
    discard: list[int],
    board: list[int],
    tokens: list[int],
) -> bool:
    """Play the *pick*-th play of *options* for *seat*; whether it ends the game."""
    chosen, free = options[0]
    for chosen, free in options:  # noqa: B007 - the loop stops at the pick
        width = len(free) or 1
        if pick < width:
            break
        pick -= width
    hand.remove(chosen)
    discard.append(chosen)
    if not free:
        return False
    space = free[pick]
    board[space] = seat
    tokens[seat] += 1
    return len(line_through(board, space, seat)) >= 5 or tokens[seat] >= 35


def _bare_take(
    hand: list[int], deck: list[int], discard: list[int], rng: random.Random, *, exchange: bool
) -> None:
    """Draw a card, or *exchange* the full hand; an empty deck is the shuffled discard pile."""
    if exchange:
        discard.extend(hand)
        hand.clear()
    for _ in range(4 if exchange else 1):
        if not deck:
            deck.extend(discard)
            discard.clear()
            rng.shuffle(deck)
        hand.append(deck.pop())


def bare_games(games: int) -> tuple[int, float]:
    started = time.perf_counter()
    turns = sum(bare_game(seed) for seed in range(games))
    return turns, time.perf_counter() - started


def rules_games(games: int) -> tuple[int, float]:
    """The same games on the engine's rule code alone: no store, no views, no hooks (the
    reference engine of ``kernel_speed.py``)."""
    started = time.perf_counter()
    turns = sum(reference_rollout(seed) for seed in range(games))
    return turns, time.perf_counter() - started


def best_rates(games: int, rounds: int, registry: cinco.Registry) -> dict[str, float]:
    """Actions per second of each loop: the best of *rounds* rounds, the loops taking turns."""
    loops = {
        "engine": lambda: engine_games(games, registry),
        "rules": lambda: rules_games(games),
        "bare": lambda: bare_games(games),
    }
    best = dict.fromkeys(loops, 0.0)
    for _round in range(rounds):
        for name, run in loops.items():
            turns, seconds = run()
            best[name] = max(best[name], turns / seconds)
    return best


Sample = tuple[cinco.GameState, cinco.PlayCard, int]


def play_samples(games: int, registry: cinco.Registry) -> list[Sample]:
    """The referee's state before each token-placing play of some random games, the play, and
    the next seat: the commonest turn."""
    samples: list[Sample] = []
    for seed in range(games):
        seats = [cinco.Seat("a", bot="random"), cinco.Seat("b", bot="random")]
        config = registry.configure(2, seats=seats, seed=seed, turn_limit=TURN_LIMIT)
        game = cinco.Game.new(config, registry=registry)
        game.play_bots()
        events = list(game.events)
        for i, event in enumerate(events[:-1]):
            after = events[i + 1]
            placed = isinstance(event, CardPlayed) and event.space is not None
            if placed and isinstance(after, TurnEnded):
                command = cinco.PlayCard(event.seat, event.card, event.space)
                samples.append((game.state_at(i), command, after.next_seat))
    return samples


def design_floor(samples: list[Sample]) -> float:
    """Seconds per play for the work this design cannot leave out, whatever the rest costs:
    the command, its two frozen events, a new immutable state after each, and the mover's
    projected view. No legal actions, no checks, no hooks, no store."""
    started = time.perf_counter()
    for state, command, next_seat in samples:
        seat = command.seat
        view = project(state, seat, state.config)
        command = cinco.PlayCard(seat, command.card, command.space)
        played = evolve(state, CardPlayed(seat, command.card, command.space))
        evolve(played, TurnEnded(seat, "play", next_seat))
        del view
    return (time.perf_counter() - started) / len(samples)


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
    parser.add_argument("--games", type=int, default=200, help="games per loop and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--long-turns", type=int, default=20_000)
    args = parser.parse_args()

    registry = cinco.default_registry()
    rates = best_rates(args.games, args.rounds, registry)
    engine, rules, bare = rates["engine"], rates["rules"], rates["bare"]
    print(f"{args.games} random two-player games, best of {args.rounds} rounds:")
    for label, rate in (
        ("engine (events, store, views, hooks)", engine),
        ("rule code alone (no store/views/hooks)", rules),
        ("bare simulator (mutable lists)", bare),
    ):
        print(f"  {label:<40} {rate:9,.0f} actions/s {1e6 / rate:6.1f} µs")
    ratio = engine / bare
    verdict = "meets" if ratio >= 1 / 3 else "MISSES"
    print(f"ratio engine/bare: {ratio:.2f} ({verdict} the goal of at least 0.33)")
    print(f"ratio engine/rule code alone: {engine / rules:.2f}")
    floor = min(design_floor(play_samples(20, registry)) for _ in range(5))
    print(
        f"the goal allows {3e6 / bare:.1f} µs per action; the design's fixed cost of a play "
        f"(command, two frozen events, two immutable states, the mover's view) is "
        f"{floor * 1e6:.1f} µs"
    )

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
