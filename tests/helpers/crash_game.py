"""A fork server for ``tests/core/records/test_crash_resume.py``: bot-only games that write
their records, each in a forked child the test may kill (SIGKILL) at any moment.

It imports Cinco once, says ``ready``, then reads requests on stdin:

* ``play PATH SEED``: fork a child that plays a two-player game of random bots through
  ``Table.create(config, record=PATH)`` and ``table.play_bots()``; print ``pid N``;
* ``reap``: wait for that child (killed or not) and print ``exit STATUS``.

The child is reaped only when asked, so that its pid cannot be reused before the test has
killed it. Run as ``python tests/helpers/crash_game.py``.
"""

from __future__ import annotations

import os
import sys
import traceback

from cinco.core.engine.config import GameConfig
from cinco.core.game.game import Game
from cinco.core.host.registry import default_registry
from cinco.core.table.table import Table

#: Long enough for a kill to land in the middle, short enough for thirty of them.
TURN_LIMIT = 240


def play(path: str, seed: int) -> None:
    config = GameConfig.for_players(
        2, bots=("random", "random"), seed=seed, first_seat=0, turn_limit=TURN_LIMIT
    )
    table = Table.create(config, record=path, frontend="crash-test")
    table.play_bots()
    table.close()


def warm_up() -> None:
    """Load the plugins and play one game in memory before forking: a child then spends its
    time on its game, not on finding plugins (so a kill lands in the game)."""
    default_registry().bots()
    game = Game.new(GameConfig.for_players(2, bots=("random", "random"), seed=0))
    game.play_bots()


def main() -> None:
    warm_up()
    print("ready", flush=True)
    child: int | None = None
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["play"] and child is None:
            path, seed = words[1], int(words[2])
            child = os.fork()
            if child == 0:
                code = 0
                try:
                    play(path, seed)
                except BaseException:
                    traceback.print_exc()
                    code = 1
                os._exit(code)
            print(f"pid {child}", flush=True)
        elif words == ["reap"] and child is not None:
            _pid, status = os.waitpid(child, 0)
            child = None
            print(f"exit {status}", flush=True)
        else:
            print(f"error {line.strip()!r}", flush=True)


if __name__ == "__main__":
    main()
