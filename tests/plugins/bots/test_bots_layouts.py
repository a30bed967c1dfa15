"""Bots play whole games on layouts beyond the built-in ones (issue 25: "big tables break
bots"): eight players as 2 teams of 4 and 4 teams of 2, and 5 players each on their own (P2,
a plugin's layouts). Every built-in bot plays every seat to the end of the game with none of
its moves replaced, and the game ends as games do (a line, E1; a stalemate, E2; a full board,
E3) rather than at the turn limit (E4).

It was the turn limit: five ``greedy`` bots, each its own team, blocked every line early;
then each held its low cards for a space worth one, drew, and burned the high card it drew,
so that the last few low spaces were never filled (29 games of 30 reached 1,000 turns). A
full hand now places when no free space is worth a card. The kernel plays these tables
exactly as the reference engine does (a small differential test, as ``test_kernel.py``'s).
"""

from __future__ import annotations

import random
from collections import Counter
from types import ModuleType
from typing import TYPE_CHECKING

import pytest
from kernel_snapshots import carry_out, kernel_plays, reference_snapshot, snapshot

from cinco.core.engine.commands import Command, Draw, Exchange, PlayCard
from cinco.core.engine.config import GameConfig, Layout, Seat
from cinco.core.engine.events import DeckShuffled, Notice
from cinco.core.engine.legal import LegalActions, legal_actions
from cinco.core.engine.rules import decide_steps, setup_events
from cinco.core.engine.state import fold
from cinco.core.game.game import Game
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host.registry import Registry
from cinco.plugins.bots import builds

if TYPE_CHECKING:
    pass

#: (name, players, teams) of the layouts played here; none is built in.
LAYOUTS = (("2x4", 8, 2), ("4x2", 8, 4), ("5x1", 5, 5))
PLAYERS = {name: players for name, players, _teams in LAYOUTS}
TURN_LIMIT = 1000
#: Iterations per move of ``ismcts``: few (a cheap test), enough to search.
ITERATIONS = 12


class BigTables:
    """A plugin adding the layouts of :data:`LAYOUTS`."""

    @hookimpl
    def cinco_register_layouts(self) -> list[Layout]:
        return [Layout(name, players=p, teams=t) for name, p, t in LAYOUTS]


REGISTRY = Registry(entry_points=False, plugins=[BigTables()])


def play(layout: str, bot: str, seed: int) -> Game:
    """A game on *layout* with *bot* at every seat, played to its end."""
    players = PLAYERS[layout]
    name, _colon, level = bot.partition(":")
    config = REGISTRY.configure(
        players,
        layout=layout,
        seats=[Seat(f"b{i}", bot=name, level=level or None) for i in range(players)],
        seed=seed,
        turn_limit=TURN_LIMIT,
        options={"bot_iterations": ITERATIONS},
    )
    game = Game.new(config, registry=REGISTRY)
    game.play_bots()
    return game


def replaced(game: Game) -> list[Notice]:
    return [e for e in game.events if isinstance(e, Notice) and e.code == "bot_replaced"]


@pytest.mark.parametrize("layout", [name for name, _p, _t in LAYOUTS])
@pytest.mark.parametrize("bot", ["random", "greedy", "ismcts:easy"])
def test_each_bot_plays_a_big_table_to_its_end(layout: str, bot: str) -> None:
    """P2 (a plugin's layout), E1–E3: every seat played by *bot*, no move replaced (no error,
    no illegal answer), and the game ends before the turn limit (E4)."""
    game = play(layout, bot, seed=3)
    result = game.state.result
    assert result is not None
    assert replaced(game) == []
    assert result.reason in ("line", "stalemate", "board_full"), (result, game.state.turn)


def test_greedy_bots_each_on_their_own_fill_the_board() -> None:
    """E3: five ``greedy`` bots of one-player teams end their games (a line, or the full board)
    — before, nearly every such game ran to the turn limit (E4)."""
    reasons = Counter(
        game.state.result.reason
        for game in (play("5x1", "greedy", seed) for seed in range(6))
        if game.state.result is not None
    )
    assert sum(reasons.values()) == 6
    assert reasons["turn_limit"] == 0, reasons


@pytest.mark.parametrize("build", ["pure", "compiled"])
def test_kernel_matches_reference_engine_on_big_tables(build: str) -> None:
    """The kernel plays 8 players (2x4, 4x2) and 5 teams of one exactly as the reference engine:
    the same states after every turn of random games (P2, P4: seat *i* plays for team
    ``i % teams``), with the same result."""
    kernel = kernel_module(build)
    reasons: Counter[str] = Counter()
    for seed in range(60):
        name, players, _teams = LAYOUTS[seed % len(LAYOUTS)]
        rng = random.Random(seed)
        config = REGISTRY.configure(
            players,
            layout=name,
            variants=("joker",) if seed % 2 else (),
            seed=seed,
            turn_limit=rng.choice((None, 300)),
        )
        rules = REGISTRY.rules_for(config)
        state = fold(setup_events(config))
        world = kernel.Kernel(config, shuffler=kernel.reference_shuffler(config.seed))
        world.seat = state.first_seat
        world.deal(deck_order(config))
        style = rng.choice((0.05, 0.3))
        while not state.is_over:
            legal = legal_actions(state, rules)
            assert kernel_plays(world) == legal.plays
            command = pick(legal, rng, style)
            state = decide_steps(state, command, rules)[-1][1]
            carry_out(world, command)
            assert snapshot(world) == reference_snapshot(state), (seed, command)
        assert state.result is not None
        assert (world.winner, world.reason, world.line) == (
            state.result.winner,
            state.result.reason,
            state.result.line,
        )
        reasons[state.result.reason] += 1
    assert {"line", "board_full"} <= set(reasons), reasons


def pick(legal: LegalActions, rng: random.Random, style: float) -> Command:
    """A random legal action, drawing or exchanging by *style* when allowed (as in
    ``test_kernel.py``: some games cycle the deck, others fill the board)."""
    if (legal.can_draw or legal.can_exchange) and (not legal.plays or rng.random() < style):
        return Draw(legal.seat) if legal.can_draw else Exchange(legal.seat)
    card, spaces = rng.choice(legal.plays)
    return PlayCard(legal.seat, card, rng.choice(spaces) if spaces else None)


def deck_order(config: GameConfig) -> tuple[int, ...]:
    deck = next(e for e in setup_events(config) if isinstance(e, DeckShuffled))
    assert deck.order is not None
    return deck.order


def kernel_module(build: str) -> ModuleType:
    if build == "pure":
        return builds.pure_module("kernel")
    if builds.status() != "compiled":
        pytest.skip(f"no compiled kernel here ({builds.status()})")
    from cinco.plugins.bots import kernel

    return kernel
