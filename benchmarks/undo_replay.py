"""How long a record with undos takes to load, by the number of undos it holds.

Each record is a legal game of two bots, 120 turns long, with K of its turns taken back by an
undo (the newest turn, as a person would: it is played, taken back, and played again). An undo
takes the game back to the state after the record's first ``back_to`` events; folding that by
re-folding the log before it replayed every earlier undo too, so each undo doubled the cost
(issue 23: 16 undos took seconds, 20 more than a minute). Now the time per event should stay
flat however many undos there are.

For each K it prints the record's events and the best of a few runs of: reading the record
with its full rule check (``load_record``, what ``cinco replay`` and ``--resume`` do first),
rebuilding the game from it (``Game.from_events``, what a table does on resume), and the
fold alone; then the microseconds per event of the whole load.

Run: ``python benchmarks/undo_replay.py [--undos 0,10,20,40,80] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from cinco.core.engine.config import GameConfig
from cinco.core.engine.state import fold
from cinco.core.game.game import Game
from cinco.core.records.record import dumps, header, load_record
from cinco.core.table.log import turns

TURNS = 120


def record_with_undos(undos: int, folder: Path) -> Path:
    """A record of :data:`TURNS` counted turns of two random bots (fewer if one wins first),
    *undos* of them taken back once and played again."""
    config = GameConfig.for_players(2, bots=("random", "random"), seed=23)
    game = Game.new(config)
    taken = 0
    while len(turns(game.store)) < TURNS and not game.is_over:
        game.play_bot_turn()
        if taken < undos and not game.is_over:
            last = turns(game.store)[-1]
            game.undo(last.seat, last.start)
            taken += 1
            game.play_bot_turn()
    path = folder / f"undos-{undos}.jsonl"
    lines = [json.dumps(header()), *(dumps(event) for event in game.store)]
    path.write_text("\n".join(lines) + "\n")
    return path


def best(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--undos", default="0,10,20,40,80", help="the undo counts, comma-separated")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each (the best counts)")
    args = parser.parse_args()
    counts = [int(n) for n in args.undos.split(",")]
    print(
        f"{'undos':>5} {'turns':>5} {'events':>6} {'load ms':>8} {'rebuild ms':>10}"
        f" {'fold ms':>8} {'load µs/event':>13}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for undos in counts:
            path = record_with_undos(undos, Path(folder))
            events = load_record(path).events
            load = best(lambda path=path: load_record(path), args.repeat)
            rebuild = best(lambda events=events: Game.from_events(events), args.repeat)
            folding = best(lambda events=events: fold(events), args.repeat)
            played = len(turns(events))
            print(
                f"{undos:>5} {played:>5} {len(events):>6} {load * 1e3:>8.1f}"
                f" {rebuild * 1e3:>10.1f} {folding * 1e3:>8.1f}"
                f" {load / len(events) * 1e6:>13.1f}",
                flush=True,
            )
    print("goal: the load's µs/event about the same for every count of undos (linear)")


if __name__ == "__main__":
    main()
