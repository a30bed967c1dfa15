"""Hardening (the core): configurations are deeply immutable, rule hooks that answer garbage or
wrap other plugins are refused naming the plugin, entry points that lose their name to another
plugin are reported, and the loader's re-check catches the mutants the issue lists.
"""

from __future__ import annotations

import copy
import json
import logging
import pickle
import types
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cinco import (
    Command,
    Game,
    GameState,
    Outcome,
    PlayCard,
    PluginError,
    Registry,
    Seat,
    Variant,
    hookimpl,
)
from cinco.core.engine.config import GameConfig
from cinco.core.engine.errors import ConfigError, RuleHookError
from cinco.core.engine.events import GameStarted, event_from_dict
from cinco.core.engine.rules import RuleSet
from cinco.core.records.record import dumps, header, loads

# == 1. configurations are deeply immutable ======================================================

OPTIONS: dict[str, Any] = {"bot_time_budget": 5.0, "trace": [1, [2, 3]], "nested": {"a": [4]}}


def test_options_are_read_only_and_a_private_copy() -> None:
    given = copy.deepcopy(OPTIONS)
    config = GameConfig.for_players(2, seed=1, options=given)
    given["bot_time_budget"] = 0.001  # the caller's dict is not the game's
    given["trace"].append(9)
    assert config.options["bot_time_budget"] == 5.0
    assert config.options["trace"] == (1, (2, 3))
    with pytest.raises(TypeError):
        config.options["bot_time_budget"] = 0.001  # type: ignore[index]
    with pytest.raises(TypeError):
        config.options["nested"]["a"] = 1
    with pytest.raises(AttributeError):
        config.options["trace"].append(9)
    with pytest.raises(AttributeError):
        config.options.clear()  # type: ignore[attr-defined]


def test_nobody_holding_a_view_can_change_the_games_options() -> None:
    """A bot's (or any seat's) configuration is the game's without the seed: it once shared
    the options dict with the first event, so a bot could change the game's time budget."""
    seats = [Seat("a", bot="random"), Seat("b", bot="random")]
    config = GameConfig(seats=tuple(seats), teams=2, layout="2x1", seed=3, options=OPTIONS)
    game = Game.new(config)
    for viewer in (0, 1, None):
        with pytest.raises(TypeError):
            game.view(viewer).config.options["bot_time_budget"] = 0.0  # type: ignore[index]
    started = game.events[0]
    assert isinstance(started, GameStarted)
    with pytest.raises(TypeError):
        started.config.options["bot_time_budget"] = 0.0  # type: ignore[index]
    assert game.bot_time_budget == 5.0
    assert started.config.options["bot_time_budget"] == 5.0
    game.play_bots(max_turns=6)
    again = Game.from_events(list(game.events))  # undo and resume rebuild from the log
    assert again.config == game.config and again.state == game.state


def test_config_equality_hash_and_round_trips() -> None:
    config = GameConfig.for_players(2, seed=7, options=OPTIONS)
    same = GameConfig.for_players(2, seed=7, options=copy.deepcopy(OPTIONS))
    assert config == same and hash(config) == hash(same)
    assert {config: 1}[same] == 1
    assert config != replace(config, options={"bot_time_budget": 5.0})
    assert GameConfig.from_dict(config.to_dict()) == config
    assert GameConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config
    assert pickle.loads(pickle.dumps(config)) == config
    assert copy.deepcopy(config) == config and copy.copy(config) == config
    assert replace(config, seed=None).options == config.options
    # Options of plain scalars still equal a plain dict.
    plain = GameConfig.for_players(2, options={"bot_iterations": 5})
    assert plain.options == {"bot_iterations": 5}
    assert GameConfig.for_players(2).options == {}


def test_to_dict_gives_plain_json() -> None:
    data = GameConfig.for_players(2, seed=7, options=OPTIONS).to_dict()
    assert data["options"] == OPTIONS
    assert type(data["options"]) is dict and type(data["options"]["nested"]) is dict
    assert type(data["options"]["trace"]) is list and type(data["options"]["trace"][1]) is list
    assert json.loads(json.dumps(data))["options"] == OPTIONS
    data["options"]["trace"].append(9)  # the JSON form is a copy
    started = GameStarted(config=GameConfig.from_dict(data), first_seat=0)
    assert event_from_dict(json.loads(dumps(started))) == started


def test_a_record_keeps_nested_options() -> None:
    config = GameConfig.for_players(2, seed=2, first_seat=0, options=OPTIONS)
    game = Game.new(config)
    text = "\n".join([json.dumps(header()), *map(dumps, game.events)]) + "\n"
    loaded = loads(text)
    first = loaded.events[0]
    assert isinstance(first, GameStarted)
    assert first.config == config and first.config.to_dict()["options"] == OPTIONS


@pytest.mark.parametrize(
    "options", [{"x": object()}, {1: "x"}, {"x": {2: 1}}, {"x": {1, 2}}, ["bot_time_budget"]]
)
def test_options_a_record_cannot_hold_are_refused(options: Any) -> None:
    with pytest.raises(ConfigError):
        GameConfig.for_players(2, options=options)


# == 2. plugins: garbage answers, wrappers, names taken twice ====================================


def registry_with(rules: object, name: str = "odd") -> Registry:
    class Plugin:
        @hookimpl
        def cinco_register_variants(self) -> list[Variant]:
            return [Variant(name, "a variant under test", rules=rules)]

    return Registry(entry_points=False, plugins=[Plugin()])


def game_with(rules: object) -> Game:
    registry = registry_with(rules)
    seats = [Seat("a"), Seat("b", bot="random")]
    config = registry.configure(2, variants=["odd"], seats=seats, seed=1, first_seat=0)
    return Game.new(config, registry=registry)


def spaces_rules(answer: Any) -> object:
    class Rules:
        @hookimpl
        def cinco_legal_spaces(self, state: GameState, seat: int, card: int) -> Any:
            return answer(state) if callable(answer) else answer

    return Rules()


def end_rules(answer: Any) -> object:
    class Rules:
        @hookimpl
        def cinco_game_end(self, state: GameState, command: Command) -> Any:
            return answer

    return Rules()


def refused_naming_the_plugin(game: Game, command: Command, hook: str) -> RuleHookError:
    before = list(game.events)
    state = game.state
    with pytest.raises(RuleHookError) as caught:
        game.execute(command)
    error = caught.value
    assert error.hook == hook and "'odd'" in error.plugin and "Plugin" in error.plugin
    assert "'odd'" in error.message and "unchanged" in error.message
    assert list(game.events) == before and game.state is state
    return error


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        ("x", "not a tuple"),
        ([200], "200"),
        ((0,), "numbered 1 to 90"),
        ((True,), "not a space"),
        ((40.0,), "not a space"),
        ((50, 50), "twice"),
        (5, "not a tuple"),
    ],
)
def test_legal_spaces_of_garbage_refuse_the_command_naming_the_plugin(
    answer: Any, says: str
) -> None:
    game = game_with(spaces_rules(answer))
    card = min(game.state.hands[0])
    error = refused_naming_the_plugin(game, PlayCard(0, card, 60), "cinco_legal_spaces")
    assert says in error.message
    with pytest.raises(RuleHookError):
        game.legal_actions(0)


def test_legal_spaces_naming_a_taken_space_are_refused() -> None:
    """A space already covered would make the turn's events impossible to fold."""

    def taken(state: GameState) -> tuple[int, ...] | None:
        covered = [n for n in range(1, 91) if not state.is_free(n)]
        return tuple(covered[:1]) or None  # nothing covered yet: the standard rule

    game = game_with(spaces_rules(taken))
    first = min(game.state.hands[0])
    game.execute(PlayCard(0, first, first))
    card = min(game.state.hands[1])
    error = refused_naming_the_plugin(game, PlayCard(1, card, first), "cinco_legal_spaces")
    assert f"space {first}, which is taken" in error.message


def test_a_list_of_free_spaces_is_a_fine_answer() -> None:
    game = game_with(spaces_rules(lambda state: list(state.free_spaces(1))))
    card = max(game.state.hands[0])
    spaces = game.legal_actions(0).spaces_for(card)
    assert type(spaces) is tuple and spaces[0] == 1
    game.execute(PlayCard(0, card, 1))  # below the card: the variant allows it
    assert game.state.owner(1) == 0


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        (5, "not an Outcome"),
        ("line", "not an Outcome"),
        (Outcome(winner=7, reason="line"), "winner 7"),
        (Outcome(winner=True, reason="line"), "winner True"),  # type: ignore[arg-type]
        (Outcome(winner=0, reason=""), "reason"),
        (Outcome(winner=0, reason=3), "reason"),  # type: ignore[arg-type]
        (Outcome(winner=0, reason="six", line=(1, 200)), "line"),
        (Outcome(winner=0, reason="six", over="yes"), "over"),  # type: ignore[arg-type]
    ],
)
def test_a_game_end_of_garbage_refuses_the_command_naming_the_plugin(answer: Any, says: str):
    game = game_with(end_rules(answer))
    card = min(game.state.hands[0])
    error = refused_naming_the_plugin(game, PlayCard(0, card, card), "cinco_game_end")
    assert says in error.message


def test_a_good_game_end_is_used_a_line_as_a_list_becoming_a_tuple() -> None:
    game = game_with(end_rules(Outcome(winner=1, reason="six", line=[1, 2, 3])))  # type: ignore[arg-type]
    card = min(game.state.hands[0])
    ended = game.execute(PlayCard(0, card, card))[-1]
    assert ended.type == "game_ended" and ended.line == (1, 2, 3)  # type: ignore[attr-defined]
    assert game.state.result is not None and game.state.result.winner == 1


class HookWrapper:
    @hookimpl(hookwrapper=True)
    def cinco_game_end(self, state: GameState, command: Command) -> Generator[None, Any, None]:
        yield


class NewWrapper:
    @hookimpl(wrapper=True)
    def cinco_legal_spaces(
        self, state: GameState, seat: int, card: int
    ) -> Generator[None, Any, Any]:
        answer = yield
        return answer


@pytest.mark.parametrize("wrapper", [HookWrapper, NewWrapper])
def test_a_variant_whose_rule_hook_is_a_wrapper_is_refused_at_registration(
    wrapper: type, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="cinco.plugins"):
        registry = registry_with(wrapper())
        assert "odd" not in registry.variants() and "joker" in registry.variants()
    [problem] = registry.problems
    assert "'odd'" in problem.message and "wrapper" in problem.message
    assert problem.hook == "cinco_register_variants"
    assert any("wrapper" in record.getMessage() for record in caplog.records)
    # Given to a rule set or a game directly, the same plugin is refused with a PluginError.
    with pytest.raises(PluginError, match="as a wrapper"):
        RuleSet([wrapper()], names=["odd wrapper"])
    with pytest.raises(PluginError, match="as a wrapper"):
        Game.new(GameConfig.for_players(2, seed=1), plugins=[wrapper()])
    # Games without it play on.
    game = Game.new(GameConfig.for_players(2, seed=1, bots=("random", "random"), turn_limit=40))
    game.play_bots()
    assert game.is_over


# -- entry points of one name --------------------------------------------------------------------


def fake_distribution(root: Path, dist: str, entry_points: dict[str, str]) -> None:
    info = root / f"{dist.replace('-', '_')}-0.3.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.3\n")
    lines = "".join(f"{name} = {value}\n" for name, value in entry_points.items())
    (info / "entry_points.txt").write_text(f"[cinco]\n{lines}")


def bot_module(root: Path, module: str, bot: str) -> None:
    (root / f"{module}.py").write_text(
        "from cinco import BotSpec, hookimpl\n"
        "from cinco.plugins.bots.random_bot import RandomBot\n"
        "@hookimpl\n"
        "def cinco_register_bots():\n"
        f"    return [BotSpec({bot!r}, 'test', create=lambda c: RandomBot(c.seed))]\n"
    )


def test_entry_points_that_lose_their_name_are_reported_and_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    bot_module(first, "alpha_cinco", "alphabot")
    bot_module(second, "beta_cinco", "betabot")
    fake_distribution(first, "cinco-alpha", {"shared": "alpha_cinco"})
    fake_distribution(second, "cinco-beta", {"shared": "beta_cinco"})
    fake_distribution(second, "cinco-posing", {"cinco.plugins.joker": "beta_cinco"})
    monkeypatch.syspath_prepend(str(second))
    monkeypatch.syspath_prepend(str(first))  # first on sys.path: its entry point is used
    with caplog.at_level(logging.WARNING, logger="cinco.plugins"):
        registry = Registry()
    bots = registry.bots()
    assert "alphabot" in bots and "betabot" not in bots
    assert registry.sources["shared"].distribution == "cinco-alpha"
    assert registry.sources["cinco.plugins.joker"].origin == "builtin"
    problems = {(p.plugin, p.distribution): p for p in registry.problems}
    assert set(problems) == {("shared", "cinco-beta"), ("cinco.plugins.joker", "cinco-posing")}
    assert all(p.kind == "shadowed" and p.hook is None for p in problems.values())
    shared = problems["shared", "cinco-beta"].message
    assert "cinco-beta" in shared and "cinco-alpha" in shared and "beta_cinco" in shared
    posing = problems["cinco.plugins.joker", "cinco-posing"].message
    assert "built-in" in posing and "cinco-posing" in posing
    logged = " ".join(record.getMessage() for record in caplog.records)
    assert "cinco-beta" in logged and "cinco-posing" in logged
    # cinco plugins shows them, apart from the plugins that failed.
    from cinco.frontends import plugins_cmd
    from cinco.frontends.main import main

    monkeypatch.setattr(plugins_cmd, "default_registry", lambda: registry)
    result = CliRunner().invoke(main, ["plugins"])
    assert result.exit_code == 0, result.output
    assert "Plugins left out (another plugin has the same name):" in result.output
    assert shared in result.output and posing in result.output
    assert "Plugins that failed" not in result.output
    result = CliRunner().invoke(main, ["plugins", "--json"])
    data = json.loads(result.output)
    assert {p["kind"] for p in data["problems"]} == {"shadowed"}
    assert {(p["plugin"], p["distribution"]) for p in data["problems"]} == set(problems)


def test_an_entry_point_named_like_a_given_plugin_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot_module(tmp_path, "gamma_cinco", "gammabot")
    fake_distribution(tmp_path, "cinco-gamma", {"mine": "gamma_cinco"})
    monkeypatch.syspath_prepend(str(tmp_path))
    mine = types.ModuleType("mine")
    registry = Registry(plugins=[mine])
    [problem] = registry.problems
    assert problem.plugin == "mine" and problem.kind == "shadowed"
    assert "given to the registry" in problem.message and "gammabot" not in registry.bots()


def test_one_entry_point_seen_twice_is_one_plugin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same distribution found on two paths is the same plugin: nothing to report."""
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        fake_distribution(tmp_path / folder, "cinco-delta", {"delta": "delta_cinco"})
        monkeypatch.syspath_prepend(str(tmp_path / folder))
    bot_module(tmp_path / "one", "delta_cinco", "deltabot")
    registry = Registry()
    assert registry.problems == [] and "deltabot" in registry.bots()


def test_first_result_itself_refuses_a_wrapper() -> None:
    """A wrapper that reached a rule set's plugin manager some other way is refused when the
    hook chain is built, not called on every move."""
    from cinco.core.engine.rules import first_result

    rules = RuleSet()
    rules.pm.register(NewWrapper(), name="sneaked in")  # past RuleSet.register's check
    with pytest.raises(PluginError, match=r"'sneaked in'.*as a wrapper"):
        first_result(rules.pm.hook.cinco_legal_spaces)


# == 3. the mutants the loader's re-check missed ================================================


@pytest.mark.parametrize("first_seat", [2, 3, -1])
def test_P5_a_configured_first_seat_outside_the_table_is_refused(first_seat: int) -> None:
    """P5: seats are 0 to players - 1 (the record's check is in test_hardening_records)."""
    with pytest.raises(ConfigError, match="first seat"):
        GameConfig.for_players(2, first_seat=first_seat)
    with pytest.raises(ConfigError, match="first seat"):
        GameConfig.from_dict({**GameConfig.for_players(2).to_dict(), "first_seat": first_seat})
    assert GameConfig.for_players(2, first_seat=1).first_seat == 1


def test_A6_a_reshuffle_of_an_empty_discard_pile_into_an_empty_draw_pile_is_refused() -> None:
    """A6: a draw when both piles are empty. The fold accepts a reshuffle of nothing, so the
    checker itself must refuse the turn (deciding it would draw from an empty pile and fail
    with an IndexError)."""
    from cinco.core.engine.events import DeckShuffled
    from cinco.core.engine.verify import LogChecker, TurnError

    game = Game.new(GameConfig.for_players(2, seed=4, first_seat=0))
    events = list(game.events)
    checker = LogChecker(events[0], game.rules)
    for event in events[1:]:
        checker.feed(event)
    seat = checker.state.current_seat
    # A hand of three, so a draw is allowed; no card left to draw, and none to reshuffle.
    hands = list(checker.state.hands)
    hands[seat] = hands[seat][:3]
    checker.state = replace(
        checker.state, hands=tuple(hands), draw_pile=(), discard_pile=(), discard_from=()
    )
    with pytest.raises(TurnError) as caught:
        checker.feed(DeckShuffled(size=0, order=(), reshuffle=True))
    assert "A6" in str(caught.value) and "empty" in str(caught.value)


def test_a_seat_read_with_a_list_for_its_bot_is_refused() -> None:
    """A seat's bot and level are names: a list (mutable, unhashable) is refused clearly."""
    from cinco.core.engine.config import Seat as ConfigSeat
    from cinco.core.engine.errors import ConfigError as SeatError

    with pytest.raises(SeatError, match="bot"):
        ConfigSeat.from_dict({"name": "Ann", "bot": ["greedy"]})
    assert ConfigSeat.from_dict({"name": "Ann", "bot": "greedy"}).bot == "greedy"


def test_notice_parameters_stay_immutable_whatever_a_plugin_passes() -> None:
    """A plugin's notice with a nested object keeps an immutable, JSON-able value."""
    import json as json_module

    from cinco.core.words.messages import freeze

    frozen = freeze({"cards": [3, 4], "detail": {"a": [1]}, "names": ["x"]})
    assert dict(frozen)["cards"] == (3, 4)
    assert all(isinstance(value, str) for key, value in frozen if key != "cards")
    hash(frozen)
    json_module.dumps(dict(frozen))
