"""Bots never crash (issue 23): in every layout the registry accepts (up to 12 players, 2 to 6
teams), with Joker and the example variants of docs/examples, every built-in bot at every level
answers every position with one of its legal commands and raises nothing — including a bot made
fresh from a game resumed from its record in mid-play, as a restarted server makes one: with an
empty hand, only a draw legal, a full hand, a nearly full board, a reshuffle pending, and with
budgets too small to search at all (a cold start spends a small budget setting up).

Positions are real: games are played by steering policies (a drawer that empties the deck, a
placer that fills the board and empties its hand), stored, and rebuilt from their events."""

from __future__ import annotations

import importlib.util
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cinco.core.engine.board import neighbours
from cinco.core.engine.commands import Command, Draw, Exchange, PlayCard
from cinco.core.engine.config import GameConfig, Layout, Seat
from cinco.core.engine.events import Notice
from cinco.core.engine.legal import LegalActions
from cinco.core.engine.oracle import RulesOracle
from cinco.core.engine.state import GameState
from cinco.core.game.game import Game
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host.checks import MAX_PLAYERS, MAX_TEAMS, item_problem
from cinco.core.host.declarations import BotContext
from cinco.core.host.registry import Registry
from cinco.plugins.bots.ismcts import LEVELS, IsmctsBot

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"
#: The example variant plugins, as their packages ship them (variant name → package).
EXAMPLE_VARIANTS = {
    "lucky7": "cinco-lucky7",  # a placement rule the kernel does not know: its slow kernel
    "no-exchange": "cinco-no-exchange",  # an action rule: the fast kernel asks it
    "hand5": "cinco-hand-of-five",  # game parameters: a hand of five
    "four-in-a-row": "cinco-four-in-a-row",  # game parameters: lines of four
}


def load_example(package: str) -> ModuleType:
    """An example plugin's module, imported from its source in docs/examples."""
    source = next((EXAMPLES / package / "src").glob("*/__init__.py"))
    spec = importlib.util.spec_from_file_location(source.parent.name, source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def accepted_shapes() -> list[tuple[int, int]]:
    """Every (players, teams) a layout plugin may register: what the registry accepts."""
    shapes = []
    for teams in range(1, MAX_TEAMS + 2):
        for players in range(1, MAX_PLAYERS + 2):
            layout = (
                Layout(f"{teams}x{players // teams}", players, teams)
                if not (players % teams)
                else None
            )
            if layout is not None and item_problem("layout", layout, {}, []) is None:
                shapes.append((players, teams))
    return shapes


class EveryLayout:
    """A layout plugin registering each accepted shape the built-ins do not have."""

    def __init__(self, taken: set[tuple[int, int]]) -> None:
        self.taken = taken

    @hookimpl
    def cinco_register_layouts(self) -> list[Layout]:
        return [
            Layout(f"{teams}x{players // teams}", players=players, teams=teams)
            for players, teams in accepted_shapes()
            if (players, teams) not in self.taken
        ]


def make_registry() -> Registry:
    builtin = Registry(entry_points=False)
    taken = {(lay.players, lay.teams) for lay in builtin.layouts().values()}
    plugins: list[object] = [EveryLayout(taken)]
    plugins += [load_example(package) for package in EXAMPLE_VARIANTS.values()]
    return Registry(entry_points=False, plugins=plugins)


REGISTRY = make_registry()
LAYOUTS = sorted(REGISTRY.layouts().values(), key=lambda lay: (lay.players, lay.teams))
VARIANTS: list[tuple[str, ...]] = [
    (),
    ("joker",),
    *((name,) for name in EXAMPLE_VARIANTS),
    ("joker", "hand5"),
]
#: Every bot at every level.
BOTS = ("random", "greedy", *(f"ismcts:{level}" for level in LEVELS))
#: Budgets a bot may be given: a few iterations, or seconds too few to search at all (as on a
#: cold start), none at all, or nonsense (NaN: the level's own time, so only for ``easy``).
BUDGETS: list[dict[str, Any]] = [
    {"iterations": 1},
    {"iterations": 3},
    {"iterations": 0},
    {"time_budget": 1e-9},
    {"time_budget": 0.0},
    {"time_budget": -1.0},
]
QUICK_BUDGETS = [*BUDGETS, {"time_budget": math.nan}, {"time_budget": math.inf}]


def test_every_accepted_layout_is_played_here() -> None:
    """The sweep below covers each shape the registry accepts: 8 players, 5 teams, 12..."""
    shapes = {(lay.players, lay.teams) for lay in LAYOUTS}
    assert shapes == set(accepted_shapes())
    assert {(8, 2), (8, 4), (5, 5), (10, 5), (12, 6)} <= shapes
    assert set(REGISTRY.variants()) >= {"joker", *EXAMPLE_VARIANTS}


# -- steering: real games driven into the positions that matter ------------------------------

Policy = Callable[[GameState, LegalActions, random.Random], Command]


def drawer(state: GameState, legal: LegalActions, rng: random.Random) -> Command:
    """Draws whenever it may, else exchanges or plays a card (to draw one again): the deck
    runs down card by card, so that it runs out at the end of a turn and a reshuffle is due."""
    seat = legal.seat
    if legal.can_draw:
        return Draw(seat)
    if legal.can_exchange and rng.random() < 0.3:
        return Exchange(seat)
    return placer(state, legal, rng)


def placer(state: GameState, legal: LegalActions, rng: random.Random) -> Command:
    """Places a token whenever it can, next to as few of its own as it can: hands empty, the
    board fills (and the game lasts, as lines form late)."""
    seat = legal.seat
    team = state.team_of(seat)
    plays = [(card, space) for card, spaces in legal.plays for space in spaces]
    if not plays:
        return rng.choice(list(legal))
    crowding = {
        space: sum(state.board[n] == team for n in neighbours(space)) for _card, space in plays
    }
    least = min(crowding.values())
    card, space = rng.choice([(c, x) for c, x in plays if crowding[x] == least])
    return PlayCard(seat, card, space)


def mixed(state: GameState, legal: LegalActions, rng: random.Random) -> Command:
    return (placer if rng.random() < 0.6 else drawer)(state, legal, rng)


POLICIES: dict[str, Policy] = {"drawer": drawer, "placer": placer, "mixed": mixed}


def situations(game: Game) -> set[str]:
    """What is special about the position for the seat to move."""
    state = game.state
    seat = state.current_seat
    hand = state.hands[seat]
    legal = game.legal_actions(seat)
    params = state.config.params
    found = set()
    if not hand:
        found.add("empty hand")
    if len(legal) == 1 and legal.can_draw:
        found.add("only a draw")
    if len(hand) == params.hand_limit:
        found.add("full hand")
    free = sum(1 for cell in state.board[1:] if cell == -1)
    if free <= 25 or min(params.tokens_per_team - t for t in state.tokens) <= 3:
        found.add("nearly full board")
    if not state.draw_pile:
        found.add("reshuffle pending")
    return found


def config_for(
    layout: Layout, variants: tuple[str, ...], seed: int, bot: str, budget: dict[str, Any]
) -> GameConfig:
    """Every seat played by *bot*, searching the budget's iterations (at least one: a time
    budget in the options would make a slow machine's late move a replaced one, and the
    small time budgets are tried on bots made directly, :func:`fresh_bot_answers`)."""
    name, _colon, level = bot.partition(":")
    options = {"bot_iterations": max(1, budget.get("iterations", 1))}
    return REGISTRY.configure(
        layout.players,
        layout=layout.name,
        variants=variants,
        seats=[Seat(f"b{i}", bot=name, level=level or None) for i in range(layout.players)],
        seed=seed,
        turn_limit=600,
        options=options,
    )


def positions(game: Game, policy: Policy, rng: random.Random, every: int) -> Iterator[Game]:
    """Play *game* on with *policy*; yield it every *every* turns and wherever the position is
    special, until it ends."""
    seen: set[str] = set()
    while not game.is_over:
        special = situations(game) - seen
        if special or game.state.turn % every == 0:
            seen |= special
            yield game
        state = game.state
        legal = game.legal_actions(state.current_seat)
        game.execute(policy(state, legal, rng))


def resumed(game: Game) -> Game:
    """*game* rebuilt from its events, as a restarted server rebuilds a table."""
    return Game.from_events(list(game.events), registry=REGISTRY)


def fresh_bot_answers(game: Game, bot: str, budget: dict[str, Any], seed: int) -> None:
    """Make the seat's bot anew for *game* and check its answer: legal, and nothing raised."""
    seat = game.state.current_seat
    view = game.view(seat)
    legal = game.legal_actions(seat)
    name, _colon, level = bot.partition(":")
    context = BotContext(
        seat=seat,
        config=view.config,
        rules=RulesOracle.of(game.rules),
        level=level or None,
        seed=seed,
        **budget,
    )
    answer = REGISTRY.create_bot(context, name).choose(view, legal)
    assert answer in legal, (bot, budget, answer, legal)


def plays_its_turn(game: Game) -> None:
    """The game's own path: its bot for the seat (made from the configuration, fresh in a
    resumed game) plays one turn, and is not replaced."""
    before = len(game.events)
    game.play_bot_turn()
    replaced = [
        e for e in list(game.events)[before:] if isinstance(e, Notice) and e.code == "bot_replaced"
    ]
    assert not replaced, replaced


@pytest.mark.parametrize(
    "layout", LAYOUTS, ids=lambda lay: f"{lay.name}{'-joker' if joker_for(lay) else ''}"
)
def test_every_bot_answers_every_special_position_of_every_layout(layout: Layout) -> None:
    """Each layout (every other one with Joker), each bot and level, fresh in a game resumed
    at each kind of position steered games reach, until every kind has come up."""
    variants = ("joker",) if joker_for(layout) else ()
    covered: set[str] = set()
    wanted = {"empty hand", "only a draw", "full hand", "nearly full board", "reshuffle pending"}
    for number, policy in enumerate(("placer", "drawer", "placer", "drawer", "drawer")):
        if wanted <= covered:
            break  # (a game may end in a line before its deck runs out: then another one)
        seed = layout.players * 100 + layout.teams * 10 + number
        rng = random.Random(seed)
        bot = BOTS[seed % len(BOTS)]
        game = Game.new(
            config_for(layout, variants, seed, bot, {"iterations": 1}), registry=REGISTRY
        )
        for position in positions(game, POLICIES[policy], rng, every=60):
            covered |= situations(position)
            again = resumed(position)
            for spec in BOTS:
                budget = BUDGETS[rng.randrange(len(BUDGETS))]
                fresh_bot_answers(again, spec, budget, rng.randrange(2**31))
            plays_its_turn(again)
    # Not vacuous: the steered games reached what the issue names.
    assert wanted <= covered, wanted - covered


def joker_for(layout: Layout) -> bool:
    return LAYOUTS.index(layout) % 2 == 1


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(
    layout=st.sampled_from(LAYOUTS),
    variants=st.sampled_from(VARIANTS),
    policy=st.sampled_from(sorted(POLICIES)),
    turns=st.integers(min_value=0, max_value=160),
    bot=st.sampled_from(BOTS),
    budget=st.sampled_from(BUDGETS),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
)
def test_a_fresh_bot_answers_any_resumed_position(
    layout: Layout,
    variants: tuple[str, ...],
    policy: str,
    turns: int,
    bot: str,
    budget: dict[str, Any],
    seed: int,
) -> None:
    """Any layout × variant (Joker, the examples) × bot × budget, from a game played *turns*
    turns by a steering policy, then resumed from its events."""
    rng = random.Random(seed)
    game = Game.new(config_for(layout, variants, seed, bot, budget), registry=REGISTRY)
    for _turn in range(turns):
        if game.is_over:
            break
        state = game.state
        game.execute(POLICIES[policy](state, game.legal_actions(state.current_seat), rng))
    if game.is_over:
        return
    again = resumed(game)
    fresh_bot_answers(again, bot, budget, seed)
    plays_its_turn(again)


@pytest.mark.parametrize("budget", QUICK_BUDGETS, ids=repr)
def test_ismcts_with_any_budget_answers_at_once_or_within_its_level(budget: dict[str, Any]) -> None:
    """No budget makes the search raise or run on: none, negative or too small plays the
    rollout policy's move unsearched; NaN or infinity is no number of seconds, so the level's
    own time applies (``easy``: 0.05 s)."""
    layout = REGISTRY.layout(12, "6x2")
    game = Game.new(config_for(layout, ("joker",), 5, "ismcts:easy", {}), registry=REGISTRY)
    rng = random.Random(5)
    for position in positions(game, mixed, rng, every=15):
        if position.state.turn > 90:
            break
        fresh_bot_answers(position, "ismcts:easy", budget, rng.randrange(100))


def test_a_search_that_ran_no_iteration_plays_the_policy_move() -> None:
    """The root cause of ``max() arg is an empty sequence``: a deadline that passes before the
    first iteration (a cold start building the kernel's tables for many teams, a busy server)
    left the search tree empty. The bot then plays its rollout policy's move."""
    layout = REGISTRY.layout(8, "4x2")
    game = Game.new(config_for(layout, (), 3, "ismcts:easy", {}), registry=REGISTRY)
    seat = game.state.current_seat
    view = game.view(seat)
    legal = game.legal_actions(seat)
    context = BotContext(
        seat=seat, config=view.config, rules=RulesOracle.of(game.rules), level="easy", seed=1
    )
    unsearched = IsmctsBot(replace(context, time_budget=1e-9))
    answer = unsearched.choose(view, legal)
    assert answer in legal
    assert unsearched.last is not None and unsearched.last.iterations == 0
    assert not unsearched.last.root.children
