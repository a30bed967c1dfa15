"""Playing bot-only games in bulk (``cinco simulate``; the arena builds on it)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cinco.core.engine.config import Seat
from cinco.core.game.game import Game
from cinco.core.host.registry import Registry
from cinco.core.records.recording import RecordWriter

#: E4: bot-only games end in a draw after this many turns unless told otherwise.
DEFAULT_TURN_LIMIT = 1000


@dataclass
class Summary:
    """What a batch of games came to."""

    games: int = 0
    actions: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    draws: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "actions": self.actions,
            "wins": {str(team): n for team, n in sorted(self.wins.items())},
            "draws": self.draws,
            "reasons": dict(sorted(self.reasons.items())),
            "seconds": round(self.seconds, 3),
        }


def simulate(
    registry: Registry,
    *,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    layout: str | None = None,
    variants: Sequence[str] = (),
    records: Path | None = None,
    turn_limit: int = DEFAULT_TURN_LIMIT,
    on_game: Callable[[int, Game], None] | None = None,
) -> Summary:
    """Play *games* bot-only games; seat *i* gets ``bots[i % len(bots)]`` (``NAME`` or
    ``NAME:LEVEL``). Game *k* uses seed ``seed + k``, so the same arguments always give the
    same games."""
    summary = Summary()
    started = time.perf_counter()
    for k in range(games):
        seats = []
        for i in range(players):  # each NAME or NAME:LEVEL, as --bot and arena take them
            bot, _colon, level = bots[i % len(bots)].partition(":")
            seats.append(Seat(f"{bot} {i + 1}", bot=bot, level=level or None))
        config = registry.configure(
            players,
            layout=layout,
            variants=variants,
            seats=seats,
            seed=seed + k,
            turn_limit=turn_limit,
        )
        plugins = [RecordWriter(records / f"game-{seed + k:06d}.jsonl")] if records else []
        game = Game.new(config, registry=registry, plugins=plugins)
        game.play_bots()
        result = game.state.result
        assert result is not None  # bot-only games always end (E4)
        summary.games += 1
        summary.actions += game.state.turn
        summary.reasons[result.reason] += 1
        if result.winner is None:
            summary.draws += 1
        else:
            summary.wins[result.winner] += 1
        if on_game is not None:
            on_game(k, game)
    summary.seconds = time.perf_counter() - started
    return summary
