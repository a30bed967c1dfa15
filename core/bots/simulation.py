"""Playing bot-only games in bulk (``cinco simulate``; the arena builds on it)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cinco.core.engine.config import Seat
from cinco.core.engine.errors import RuleHookError
from cinco.core.engine.events import Notice
from cinco.core.game.game import Game
from cinco.core.host.registry import Registry
from cinco.core.records.recording import RecordWriter

#: E4: bot-only games end in a draw after this many turns unless told otherwise.
DEFAULT_TURN_LIMIT = 1000


@dataclass(frozen=True)
class Failure:
    """A game that could not be played to its end: a plugin's rule hook failed in it (raised,
    or answered what the rules refuse), so no move could be made. ``seed`` replays it."""

    seed: int
    plugin: str
    hook: str
    error: str

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "plugin": self.plugin, "hook": self.hook, "error": self.error}


@dataclass
class Summary:
    """What a batch of games came to. Teams are numbered from 0 here and in :meth:`to_dict`
    (``"team_base": 0`` says so); the command's text numbers them from 1."""

    games: int = 0
    actions: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    draws: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    #: Games a plugin's rule hook failed in (they count in no other figure).
    failed: list[Failure] = field(default_factory=list)
    #: Each team's bots (``NAME`` or ``NAME:LEVEL``, each once, in seat order).
    teams: list[list[str]] = field(default_factory=list)
    #: Moves replaced by random ones (the bot failed, was too slow or illegal), per bot.
    replaced: Counter[str] = field(default_factory=Counter)

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "actions": self.actions,
            "team_base": 0,
            "teams": {str(team): bots for team, bots in enumerate(self.teams)},
            # Every team, a team that never won too (0).
            "wins": {
                str(team): self.wins[team] for team in sorted({*range(len(self.teams)), *self.wins})
            },
            "draws": self.draws,
            "reasons": dict(sorted(self.reasons.items())),
            "replaced_moves": {bot: self.replaced[bot] for bot in self.bots},
            "seconds": round(self.seconds, 3),
            "failed": [failure.to_dict() for failure in self.failed],
        }

    @property
    def bots(self) -> list[str]:
        """Every bot that played, each once, in the order of the teams."""
        return list(dict.fromkeys(bot for team in self.teams for bot in team))


def replaced_moves(game: Game) -> Counter[str]:
    """The moves of *game* replaced by random ones (``bot_replaced`` notices), per bot
    (``NAME`` or ``NAME:LEVEL``, as its seat names it)."""
    replaced: Counter[str] = Counter()
    for event in game.events:
        if type(event) is Notice and event.code == "bot_replaced" and event.seat is not None:
            replaced[bot_label(game.config.seats[event.seat])] += 1
    return replaced


def bot_label(seat: Seat) -> str:
    """A seat's bot as the commands name it: ``NAME`` or ``NAME:LEVEL``."""
    bot = seat.bot or "?"
    return f"{bot}:{seat.level}" if seat.level else bot


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
    settings: Mapping[str, object] | None = None,
) -> Summary:
    """Play *games* bot-only games; seat *i* gets ``bots[i % len(bots)]`` (``NAME`` or
    ``NAME:LEVEL``). Game *k* uses seed ``seed + k``, so the same arguments always give the
    same games. *settings*: plugin settings for every game (recorded with it). Each game is
    closed when it is over (``cinco_game_closed``), before the next one starts."""
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
            settings=settings,
        )
        if not summary.teams:
            summary.teams = [[] for _team in range(config.teams)]
            for index, seat in enumerate(config.seats):
                team = summary.teams[config.team_of(index)]
                if bot_label(seat) not in team:
                    team.append(bot_label(seat))
        plugins = [RecordWriter(records / f"game-{seed + k:06d}.jsonl")] if records else []
        game = Game.new(config, registry=registry, plugins=plugins)
        try:
            game.play_bots()
        except RuleHookError as exc:  # a variant failed: this game fails, not the whole run
            summary.failed.append(Failure(seed + k, exc.plugin, exc.hook, exc.params["error"]))
            continue
        finally:
            game.close()
        result = game.state.result
        assert result is not None  # bot-only games always end (E4)
        summary.games += 1
        summary.actions += game.state.turn
        summary.reasons[result.reason] += 1
        summary.replaced.update(replaced_moves(game))
        if result.winner is None:
            summary.draws += 1
        else:
            summary.wins[result.winner] += 1
        if on_game is not None:
            on_game(k, game)
    summary.seconds = time.perf_counter() - started
    return summary
