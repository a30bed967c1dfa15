"""The ``ismcts`` bot: registered like the built-ins, legal and reproducible everywhere,
takes wins and blocks (E1), and plays unknown variants through their rule hooks."""

from __future__ import annotations

import pytest

from cinco.core.engine.commands import Draw, Exchange, PlayCard
from cinco.core.engine.config import GameConfig, Seat
from cinco.core.engine.events import Notice
from cinco.core.engine.legal import legal_actions
from cinco.core.engine.rules import RuleSet
from cinco.core.engine.state import FREE, GameState, fold
from cinco.core.game.game import Game
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host.declarations import BotContext, Variant
from cinco.core.host.registry import Registry
from cinco.plugins.bots.ismcts import BURN, DRAW, EXCHANGE, IsmctsBot, to_command, unseen_cards

REGISTRY = Registry(entry_points=False)


def bot_for(game: Game, seat: int, iterations: int = 40, seed: int = 5) -> IsmctsBot:
    context = BotContext(
        seat=seat, config=game.view(seat).config, rules=game.rules, seed=seed, iterations=iterations
    )
    return IsmctsBot(context)


def test_registered_through_the_bot_hook_with_three_levels() -> None:
    spec = REGISTRY.bots()["ismcts"]
    assert spec.levels == ("easy", "medium", "hard")
    config = REGISTRY.configure(2, seats=[Seat("a", bot="ismcts", level="hard"), Seat("b")])
    assert config.seats[0].level == "hard"


@pytest.mark.parametrize(
    ("players", "layout", "variants"),
    [(2, None, ()), (3, None, ("joker",)), (4, None, ()), (6, "2x3", ()), (6, "3x2", ("joker",))],
)
def test_plays_whole_games_legally_at_every_table(
    players: int, layout: str | None, variants: tuple[str, ...]
) -> None:
    """P1/P2/V1/V2: ismcts finishes games of 2, 3, 4 and 6 players, in teams and with Joker,
    and never has a move replaced (no error, no illegal move)."""
    seats = [
        Seat(f"s{i}", bot="ismcts" if i % 2 == 0 else "greedy", level="easy")
        if i % 2 == 0
        else Seat(f"s{i}", bot="greedy")
        for i in range(players)
    ]
    config = REGISTRY.configure(
        players,
        layout=layout,
        variants=variants,
        seats=seats,
        seed=players,
        turn_limit=400,
        options={"bot_iterations": 6},
    )
    game = Game.new(config, registry=REGISTRY)
    game.play_bots()
    assert game.is_over
    assert not [e for e in game.events if isinstance(e, Notice) and e.code == "bot_replaced"]


def test_same_seed_and_iterations_give_the_same_move() -> None:
    config = GameConfig.for_players(2, seed=8, first_seat=0)
    game = Game.new(config, registry=REGISTRY)
    moves = {
        bot_for(game, 0, iterations=150).choose(game.view(0), game.legal_actions(0))
        for _ in range(3)
    }
    assert len(moves) == 1


def position(
    tokens: dict[int, int], hands: list[list[int]], seat: int = 0, players: int = 2
) -> tuple[Game, GameState]:
    """A game whose board and hands are set by hand (the deck holds the other cards)."""
    config = GameConfig.for_players(players, seed=1, first_seat=seat)
    state = fold(Game.new(config, registry=REGISTRY).events)
    board = [FREE] * 91
    for space, team in tokens.items():
        board[space] = team
    held = {c for h in hands for c in h}
    deck = tuple(c for c in range(1, 91) if c not in held)
    state = GameState(
        config=config,
        first_seat=seat,
        board=tuple(board),
        hands=tuple(tuple(h) for h in hands),
        draw_pile=deck,
        discard_pile=(),
        tokens=tuple(sum(1 for t in tokens.values() if t == team) for team in range(2)),
        current_seat=seat,
    )
    return Game.new(config, registry=REGISTRY), state


def choose(state: GameState, seat: int, iterations: int = 200) -> object:
    """The bot's move from *seat*'s view of a hand-made *state*."""
    rules = REGISTRY.rules_for(state.config)
    view = GameState(
        config=state.config,
        first_seat=state.first_seat,
        board=state.board,
        hands=tuple(h if s == seat else (0,) * len(h) for s, h in enumerate(state.hands)),
        draw_pile=(0,) * len(state.draw_pile),
        discard_pile=state.discard_pile,
        tokens=state.tokens,
        current_seat=seat,
    )
    context = BotContext(seat=seat, config=state.config, rules=rules, seed=3, iterations=iterations)
    return IsmctsBot(context).choose(view, legal_actions(view, rules, seat))


def test_completes_its_line_of_five() -> None:
    """E1/B5: with 89, 38, 39, 40 its own and a card reaching 41, it takes 41 and wins."""
    _game, state = position(
        {89: 0, 38: 0, 39: 0, 40: 0, 5: 1, 6: 1, 7: 1}, [[41, 70, 80, 85], [2, 3, 4, 8]]
    )
    assert choose(state, 0) == PlayCard(0, 41, 41)


def test_blocks_the_opponents_four() -> None:
    """E1: the opponent holds 89, 38, 39, 40; the bot must take 41 (with its highest card that
    reaches it, keeping the low one)."""
    _game, state = position({89: 1, 38: 1, 39: 1, 40: 1, 60: 0}, [[3, 30, 75, 88], [2, 4, 8, 9]])
    assert choose(state, 0) == PlayCard(0, 30, 41)


def test_unseen_cards_are_every_card_it_cannot_see() -> None:
    game = Game.new(GameConfig.for_players(3, seed=4, first_seat=0), registry=REGISTRY)
    view = game.view(1)
    unseen = unseen_cards(view, 1)
    assert len(unseen) == 90 - 4
    assert not set(unseen) & set(view.hands[1])


def test_moves_map_to_commands_with_the_least_flexible_card() -> None:
    """A space is taken with the highest card that reaches it (low cards reach more)."""
    from cinco.core.engine.legal import LegalActions

    legal = LegalActions(0, ((5, (50, 60)), (50, (50, 60)), (70, ())), True, False)
    assert to_command(50, legal) == PlayCard(0, 50, 50)
    assert to_command(DRAW, legal) == Draw(0)
    assert to_command(BURN, legal) == PlayCard(0, 70, None)
    assert to_command(EXCHANGE, legal) == Exchange(0)


class EvenSpaces:
    """A third-party variant the kernel does not know: tokens only on even spaces."""

    @hookimpl
    def cinco_legal_spaces(self, state: GameState, seat: int, card: int) -> tuple[int, ...]:
        return tuple(n for n in state.free_spaces(card) if n % 2 == 0)


class EvenPlugin:
    @hookimpl
    def cinco_register_variants(self) -> list[Variant]:
        return [Variant("even", "Even spaces only.", rules=EvenSpaces())]


def test_unknown_variant_is_played_through_its_rule_hooks() -> None:
    """A variant's own placement rule is respected: every token lands on an even space."""
    registry = Registry(entry_points=False, plugins=[EvenPlugin()])
    seats = [Seat("a", bot="ismcts"), Seat("b", bot="ismcts")]
    config = registry.configure(
        2, variants=["even"], seats=seats, seed=2, turn_limit=12, options={"bot_iterations": 4}
    )
    game = Game.new(config, registry=registry)
    assert isinstance(game.rules, RuleSet)
    game.play_bots()
    spaces = [n for n in range(1, 91) if game.state.board[n] != FREE]
    assert spaces and all(n % 2 == 0 for n in spaces)
    assert not [e for e in game.events if isinstance(e, Notice) and e.code == "bot_replaced"]


def test_budget_is_iterations_then_time_budget_then_level() -> None:
    """A fixed iteration budget wins (reproducible), then the game's time budget (with a
    margin for the clock), then the level's own time."""
    config = GameConfig.for_players(2)
    rules = REGISTRY.rules_for(config)

    def budget(**fields: object) -> tuple[int | None, float | None]:
        return IsmctsBot(BotContext(seat=0, config=config, rules=rules, **fields)).budget()  # type: ignore[arg-type]

    assert budget(iterations=50, time_budget=2.0) == (50, None)
    iterations, seconds = budget(time_budget=2.0)
    assert iterations is None and seconds is not None and 1.0 < seconds < 2.0
    assert budget(level="easy")[1] < budget(level="hard")[1]  # type: ignore[operator]
