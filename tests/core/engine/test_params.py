"""Game parameters (issue 16, hook API 2): declared by variants, recorded, read everywhere.

The standard game's parameters change nothing (the rule tests pass unchanged); a game with
others plays by them in the reference engine and in the bots' kernel alike (a differential
test over random parameters), records them in ``game_started``, and replays by them without
the plugin that declared them. ``cinco_action_allowed`` forbids actions for ``legal_actions``
and ``decide`` alike.
"""

from __future__ import annotations

import json
import random
import types
from dataclasses import replace
from pathlib import Path

import pytest
from kernel_snapshots import carry_out, reference_snapshot, snapshot

from cinco import (
    STANDARD_PARAMS,
    Draw,
    Exchange,
    Game,
    GameConfig,
    GameParams,
    GameStarted,
    IllegalCommand,
    PlayCard,
    Registry,
    Seat,
    Table,
    event_from_dict,
    fold,
    hookimpl,
    load_record,
)
from cinco.core.engine.errors import ConfigError, EventError, PluginError, RuleHookError
from cinco.core.engine.legal import legal_actions
from cinco.core.engine.outcome import Outcome
from cinco.core.engine.rules import decide_steps, setup_events
from cinco.core.engine.state import BLOCKED, GameState
from cinco.plugins.bots.kernel import Kernel, make_kernel, reference_shuffler, supports

REGISTRY = Registry(entry_points=False)


def random_params(rng: random.Random) -> GameParams:
    limit = rng.randint(1, 7)
    return GameParams(
        hand_limit=limit,
        deal=rng.randint(1, limit),
        cards_per_draw=rng.randint(1, min(3, limit)),
        exchange_size=rng.randint(1, limit),
        winning_length=rng.randint(3, 7),
        tokens_per_team=rng.randint(8, 40),
        blocked=tuple(rng.sample(range(1, 91), rng.choice((0, 0, 3, 8)))),
    )


# -- the value --------------------------------------------------------------------------------


def test_the_defaults_are_the_standard_game() -> None:
    assert GameParams() == STANDARD_PARAMS and STANDARD_PARAMS.is_standard
    assert (STANDARD_PARAMS.hand_limit, STANDARD_PARAMS.deal, STANDARD_PARAMS.exchange_size) == (
        4,
        4,
        4,
    )
    assert STANDARD_PARAMS.cards_per_draw == 1 and STANDARD_PARAMS.winning_length == 5
    assert STANDARD_PARAMS.tokens_per_team == 35 and STANDARD_PARAMS.blocked == ()
    assert STANDARD_PARAMS.to_dict() == {}


@pytest.mark.parametrize(
    "changes",
    [
        {"hand_limit": 0},
        {"deal": 5},
        {"exchange_size": 5},
        {"cards_per_draw": 0},
        {"winning_length": 10},
        {"tokens_per_team": 0},
        {"blocked": (0,)},
        {"blocked": tuple(range(1, 90))},
        {"hand_limit": True},
    ],
)
def test_impossible_parameters_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        GameParams(**changes)  # type: ignore[arg-type]


def test_parameters_round_trip_and_unknown_ones_are_refused() -> None:
    params = GameParams(hand_limit=6, deal=5, blocked=(9, 3, 3))
    assert params.blocked == (3, 9)
    assert GameParams.from_dict(json.loads(json.dumps(params.to_dict()))) == params
    with pytest.raises(ConfigError, match="Unknown game parameters"):
        GameParams.from_dict({"hand_size": 5})


# -- records ----------------------------------------------------------------------------------


def test_a_standard_record_is_written_as_before_and_old_records_read_as_standard() -> None:
    game = Game.new(GameConfig.for_players(2, seed=3, first_seat=0))
    data = game.events[0].to_dict()
    assert data["v"] == 2 and "params" not in data["config"]  # byte for byte as before
    old = json.loads(json.dumps(data))
    assert event_from_dict(old) == game.events[0]
    assert fold([event_from_dict(e.to_dict()) for e in game.events]).params == STANDARD_PARAMS


def test_a_record_with_parameters_is_version_3_and_replays_without_the_plugin() -> None:
    params = GameParams(hand_limit=5, deal=5, exchange_size=5, winning_length=4)
    game = Game.new(GameConfig.for_players(2, seed=4, first_seat=0, params=params))
    rng = random.Random(4)
    for _turn in range(30):
        legal = list(game.legal_actions())
        game.execute(rng.choice(legal))
        if game.is_over:
            break
    data = [event.to_dict() for event in game.events]
    assert data[0]["v"] == 3 and data[0]["config"]["params"] == {
        "hand_limit": 5,
        "deal": 5,
        "exchange_size": 5,
        "winning_length": 4,
    }
    assert all(item["v"] == 2 for item in data[1:])
    events = [event_from_dict(json.loads(json.dumps(item))) for item in data]
    assert events == list(game.events)
    # No variant declared them: the standard rules replay the game by its recorded numbers.
    again = Game.from_events(events, registry=REGISTRY)
    assert again.state == game.state and again.state.params == params
    # A version-2 game_started knows no parameters; a Cinco that reads 2 only refuses 3.
    with pytest.raises(EventError, match="version"):
        event_from_dict({**data[1], "v": 3})


def test_a_record_file_with_parameters_loads_and_checks(tmp_path: Path) -> None:
    params = GameParams(hand_limit=3, deal=2, cards_per_draw=2, exchange_size=3, blocked=(1, 2))
    config = REGISTRY.configure(2, seed=5, seats=[Seat("a", bot="random"), Seat("b", bot="greedy")])
    path = tmp_path / "game.jsonl"
    table = Table.create(replace(config, params=params), registry=REGISTRY, record=path)
    try:
        table.play_bots()
    finally:
        table.close()
    loaded = load_record(path, registry=REGISTRY)
    started = loaded.events[0]
    assert isinstance(started, GameStarted) and started.config.params == params
    assert fold(loaded.events).is_over


# -- playing by the parameters ----------------------------------------------------------------


def test_deal_draw_and_exchange_follow_the_parameters() -> None:
    params = GameParams(hand_limit=6, deal=3, cards_per_draw=2, exchange_size=5)
    game = Game.new(GameConfig.for_players(2, seed=6, first_seat=0, params=params))
    assert [len(hand) for hand in game.state.hands] == [3, 3]
    legal = game.legal_actions()
    assert legal.can_draw and not legal.can_exchange
    with pytest.raises(IllegalCommand) as refused:
        game.execute(Exchange(seat=0))
    assert refused.value.code == "hand_not_full" and refused.value.params["limit"] == 5
    game.execute(Draw(seat=0))
    assert len(game.state.hands[0]) == 5  # two cards a draw
    game.execute(Draw(seat=1))
    assert game.legal_actions().can_exchange  # a hand of five may exchange
    game.execute(Draw(seat=0))
    assert len(game.state.hands[0]) == 6  # one card fitted
    game.execute(Draw(seat=1))
    assert not game.legal_actions().can_draw and not game.legal_actions().can_exchange
    with pytest.raises(IllegalCommand, match="full"):
        game.execute(Draw(seat=0))


def test_blocked_spaces_are_never_legal_and_fill_the_board() -> None:
    blocked = tuple(range(1, 81))
    params = GameParams(blocked=blocked, winning_length=2)
    game = Game.new(GameConfig.for_players(2, seed=7, first_seat=0, params=params))
    state = game.state
    assert all(state.is_blocked(n) and state.owner(n) is None for n in blocked)
    assert state.board[1] == BLOCKED and state.free_spaces() == tuple(range(81, 91))
    for card in range(1, 91):
        assert set(game.rules.legal_spaces(state, 0, card)) <= set(range(81, 91))
    with pytest.raises(IllegalCommand):
        game.execute(PlayCard(0, game.state.hands[0][0], 5))
    assert state.to_dict()["occupied"] == {}


def test_the_winning_length_and_the_tokens_end_the_game() -> None:
    params = GameParams(winning_length=3, tokens_per_team=40)
    rng = random.Random(8)
    lines = []
    for seed in range(20):
        game = Game.new(GameConfig.for_players(2, seed=seed, params=params))
        while not game.is_over:
            game.execute(rng.choice(list(game.legal_actions())))
        result = game.state.result
        assert result is not None
        if result.reason == "line":
            assert result.line is not None and len(result.line) >= 3
            lines.append(len(result.line))
    assert 3 in lines


@pytest.mark.parametrize("chunk", range(4))
def test_kernel_matches_reference_engine_with_random_parameters(chunk: int) -> None:
    """The differential test of test_kernel.py, over random parameters (and Joker)."""
    tables = ((2, "2x1"), (3, "3x1"), (4, "2x2"), (6, "3x2"))
    for seed in range(chunk * 60, chunk * 60 + 60):
        rng = random.Random(seed)
        players, layout = rng.choice(tables)
        config = replace(
            REGISTRY.configure(
                players,
                layout=layout,
                variants=("joker",) if rng.random() < 0.4 else (),
                seed=seed,
                turn_limit=rng.choice((None, 400)),
            ),
            params=random_params(rng),
        )
        rules = REGISTRY.rules_for(config)
        state = fold(setup_events(config))
        kernel = Kernel(config, shuffler=reference_shuffler(config.seed))
        kernel.seat = state.first_seat
        deck = fold(setup_events(config)[:2]).draw_pile
        kernel.deal(deck)
        assert snapshot(kernel) == reference_snapshot(state)
        style = rng.choice((0.1, 0.5, 0.9))
        while not state.is_over:
            legal = legal_actions(state, rules)
            hand = sorted(set(kernel.hands[kernel.seat]))
            assert tuple((c, tuple(kernel.legal_spaces(c))) for c in hand) == legal.plays
            assert (kernel.can_draw(), kernel.can_exchange()) == (
                legal.can_draw,
                legal.can_exchange,
            )
            commands = list(legal)
            if (legal.can_draw or legal.can_exchange) and rng.random() < style:
                command = commands[-1]
            else:
                command = rng.choice(commands)
            state = decide_steps(state, command, rules)[-1][1]
            carry_out(kernel, command)
            assert snapshot(kernel) == reference_snapshot(state), (seed, command)
        assert state.result is not None
        assert (kernel.winner, kernel.reason) == (state.result.winner, state.result.reason)


# -- the hooks --------------------------------------------------------------------------------


class HandOfFive:
    @hookimpl
    def cinco_game_params(self, params: GameParams) -> GameParams:
        return replace(params, hand_limit=5, deal=5, exchange_size=5)


class Shorter:
    @hookimpl
    def cinco_game_params(self, params: GameParams, config: GameConfig) -> GameParams:
        return replace(params, winning_length=params.winning_length - 1)


class NoExchange:
    @hookimpl
    def cinco_action_allowed(self, state: GameState, seat: int, action: str) -> str | None:
        return "no exchanges here" if action == "exchange" else None


class NoDraw:
    @hookimpl
    def cinco_action_allowed(self, action: str) -> bool | None:
        return False if action == "draw" else None


class Centre:
    @hookimpl
    def cinco_game_params(self, params: GameParams) -> GameParams:
        return replace(params, blocked=(1, 2, 3, 4, 5, 6))


class Scored:
    """Ends at the turn limit with the tokens as scores (the higher wins)."""

    @hookimpl
    def cinco_game_end(self, state: GameState) -> Outcome | None:
        limit = state.config.turn_limit
        if limit is not None and state.turn + 1 >= limit:
            tokens = state.tokens
            best = max(tokens)
            winner = tokens.index(best) if tokens.count(best) == 1 else None
            return Outcome(winner=winner, reason="scored", scores=tokens)
        return None


class Broken:
    @hookimpl
    def cinco_game_params(self, params: GameParams) -> object:
        return {"hand_limit": 5}


def variant_plugin(**variants: object) -> types.ModuleType:
    from cinco import Variant

    module = types.ModuleType("variants_for_tests")
    module.CINCO_HOOK_API = 2  # type: ignore[attr-defined]

    @hookimpl
    def cinco_register_variants() -> list[Variant]:
        return [Variant(name, name, rules=rules) for name, rules in variants.items()]

    module.cinco_register_variants = cinco_register_variants  # type: ignore[attr-defined]
    return module


@pytest.fixture
def registry() -> Registry:
    plugin = variant_plugin(
        hand5=HandOfFive(),
        shorter=Shorter(),
        noexchange=NoExchange(),
        nodraw=NoDraw(),
        broken=Broken(),
        centre=Centre(),
        scored=Scored(),
    )
    return Registry(entry_points=False, plugins=[plugin])


def test_variants_declare_parameters_in_their_order(registry: Registry) -> None:
    game = Game.new(registry.configure(2, variants=["hand5", "shorter"], seed=1), registry=registry)
    assert game.config.params == GameParams(hand_limit=5, deal=5, exchange_size=5, winning_length=4)
    assert game.state.params == game.config.params
    assert [len(hand) for hand in game.state.hands] == [5, 5]
    twice = Game.new(
        registry.configure(2, variants=["shorter", "shorter", "joker"], seed=1), registry=registry
    )
    assert twice.config.params.winning_length == 4  # a variant is enabled once
    # A game dealt again from its recorded configuration keeps the recorded parameters.
    again = Game.new(game.config, registry=registry, keep_params=True)
    assert again.config.params == game.config.params


def test_a_broken_parameter_hook_names_the_variant(registry: Registry) -> None:
    with pytest.raises(RuleHookError, match="broken"):
        Game.new(registry.configure(2, variants=["broken"], seed=1), registry=registry)


def test_a_forbidden_exchange_is_not_legal_and_refused_with_the_reason(
    registry: Registry,
) -> None:
    game = Game.new(
        registry.configure(2, variants=["noexchange"], seed=1, first_seat=0), registry=registry
    )
    legal = game.legal_actions()
    assert not legal.can_exchange and Exchange(0) not in legal
    with pytest.raises(IllegalCommand) as refused:
        game.execute(Exchange(seat=0))
    assert refused.value.code == "action_not_allowed"
    assert str(refused.value) == "You cannot exchange your hand in this game: no exchanges here."
    with pytest.raises(IllegalCommand) as full:
        game.execute(Draw(seat=0))
    assert full.value.code == "hand_full_play"  # no "or exchange your hand" here
    assert str(full.value) == "Your hand is full (4 cards): play a card."
    standard = Game.new(GameConfig.for_players(2, seed=1, first_seat=0))
    with pytest.raises(IllegalCommand) as usual:
        standard.execute(Draw(seat=0))
    assert usual.value.code == "hand_full"  # the standard game says what it always said


def test_no_variant_can_leave_an_empty_hand_without_a_move(registry: Registry) -> None:
    params = GameParams(hand_limit=2, deal=1, exchange_size=1)
    configured = registry.configure(2, variants=["nodraw"], seed=2, first_seat=0)
    config = replace(configured, params=params)
    game = Game.new(config, registry=registry)
    card = game.state.hands[0][0]
    assert not game.legal_actions().can_draw
    with pytest.raises(IllegalCommand, match="do not allow"):
        game.execute(Draw(seat=0))
    spaces = game.rules.legal_spaces(game.state, 0, card)
    game.execute(PlayCard(0, card, spaces[0] if spaces else None))
    game.execute(Exchange(seat=1))
    assert game.legal_actions().can_draw  # an empty hand always may draw
    game.execute(Draw(seat=0))


@pytest.mark.parametrize(
    "variants",
    [["noexchange"], ["hand5", "shorter"], ["nodraw", "hand5"], ["centre", "joker"]],
)
@pytest.mark.parametrize("bot", ["random", "greedy", "ismcts"])
def test_bots_play_the_variants_with_no_replaced_moves(
    registry: Registry, variants: list[str], bot: str
) -> None:
    config = registry.configure(
        2,
        variants=variants,
        seed=3,
        turn_limit=300,
        seats=[Seat("a", bot=bot), Seat("b", bot="greedy")],
        options={"bot_iterations": 30},
    )
    game = Game.new(config, registry=registry)
    game.play_bots()
    assert game.is_over
    assert not [e for e in game.events if e.type == "notice"]
    if "noexchange" in variants:
        assert not [e for e in game.events if e.type == "hand_discarded"]


def test_the_kernel_stays_fast_on_parameters_and_action_rules(registry: Registry) -> None:
    game = Game.new(
        registry.configure(2, variants=["hand5", "noexchange"], seed=4), registry=registry
    )
    assert supports(game.rules)  # placement and the end: the kernel's own
    kernel = make_kernel(game.state, game.rules)
    assert type(kernel) is Kernel and kernel.hand_limit == 5
    assert kernel.action_rules is not None  # only draws and exchanges are asked


def test_api_1_plugins_cannot_implement_api_2_hooks() -> None:
    plugin = variant_plugin(hand5=HandOfFive())
    plugin.CINCO_HOOK_API = 1  # type: ignore[attr-defined]
    registry = Registry(entry_points=False, plugins=[plugin])
    assert "hand5" not in registry.variants()
    assert any("API 2" in problem.message for problem in registry.problems)


def test_api_1_plugins_still_load() -> None:
    from cinco.core.hooks import hookspecs

    assert hookspecs.HOOK_API_VERSION >= 2 and hookspecs.OLDEST_HOOK_API_VERSION == 1
    plugin = variant_plugin(n=NoExchange())
    del plugin.CINCO_HOOK_API
    old = types.ModuleType("old_variant")
    old.CINCO_HOOK_API = 1  # type: ignore[attr-defined]
    try:
        Registry(entry_points=False, plugins=[old])
    except PluginError as exc:  # pragma: no cover - the failure this test exists for
        pytest.fail(str(exc))


def test_the_terminal_texts_read_the_parameters() -> None:
    from cinco.frontends.narration import Narrator
    from cinco.frontends.terminal.help import help_text
    from cinco.frontends.terminal.hint import explain_move

    assert "Make five of" in help_text() and "fewer than 4" in help_text()
    params = GameParams(hand_limit=5, deal=5, exchange_size=5, winning_length=4)
    text = help_text(params)
    assert "Make four of" in text and "fewer than 5" in text and "for 5 new cards" in text
    game = Game.new(GameConfig.for_players(2, seed=1, first_seat=0, params=params))
    narrator = Narrator(game.config, 0)
    for event in game.events:
        narrator.feed(event.seen_by(0))
    assert narrator.lines  # the deal of five cards each is told as a deal
    assert "five" in explain_move(game.view(0), 0, Exchange(0))


def test_the_blocked_centre_plays_the_same_whatever_the_order_of_variants(
    registry: Registry,
) -> None:
    one = Game.new(registry.configure(2, variants=["centre", "joker"], seed=5), registry=registry)
    two = Game.new(registry.configure(2, variants=["joker", "centre"], seed=5), registry=registry)
    assert one.config.params.blocked == two.config.params.blocked == (1, 2, 3, 4, 5, 6)
    for card in (1, 6, 7, 90):
        assert one.rules.legal_spaces(one.state, 0, card) == two.rules.legal_spaces(
            two.state, 0, card
        )
        assert not set(one.rules.legal_spaces(one.state, 0, card)) & set(range(1, 7))


def test_outcome_scores_are_recorded_and_shown(registry: Registry) -> None:
    from cinco.frontends.narration import describe_result

    config = registry.configure(
        2,
        variants=["scored"],
        seed=6,
        turn_limit=12,
        seats=[Seat("a", bot="greedy"), Seat("b", bot="random")],
    )
    game = Game.new(config, registry=registry)
    game.play_bots()
    result = game.state.result
    assert result is not None and result.reason == "scored"
    assert result.scores == game.state.tokens
    data = game.events[-1].to_dict()
    assert data["v"] == 3 and data["scores"] == list(game.state.tokens)
    assert event_from_dict(json.loads(json.dumps(data))) == result
    assert Game.from_events(list(game.events), registry=registry).state == game.state
    assert "Scores: blue" in describe_result(game.config, result)
    assert game.state.to_dict()["scores"] == list(game.state.tokens)
    # Standard endings hold no scores and are written as before.
    plain = Game.new(GameConfig.for_players(2, seed=1, turn_limit=2))
    plain.execute(next(iter(plain.legal_actions())))
    plain.execute(next(iter(plain.legal_actions())))
    assert plain.is_over and "scores" not in plain.events[-1].to_dict()
    assert plain.events[-1].to_dict()["v"] == 2


def test_the_rules_page_shows_each_variants_parameters_and_text(registry: Registry) -> None:
    from cinco.frontends.terminal.rules_text import variants_markdown

    text = variants_markdown(registry, ["hand5", "joker"])
    assert "### Hand5" in text and "Game parameters: hand limit 5, deal 5, exchange 5." in text
    assert "### Joker" in text and "Game parameters" not in text.split("### Joker")[1]
