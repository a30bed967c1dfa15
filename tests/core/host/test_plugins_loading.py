"""Loading plugins: the hook API version, entry points that fail, clashes, ``cinco plugins``."""

from __future__ import annotations

import json
import logging
import types
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rule_plugins import registry_with

from cinco import BotSpec, Command, Game, GameState, PluginError, Registry, Seat, hookimpl
from cinco.core.engine.config import GameConfig
from cinco.core.engine.rules import RuleSet
from cinco.core.hooks import hookspecs
from cinco.frontends import plugins_cmd
from cinco.frontends.main import main
from cinco.plugins.bots.random_bot import RandomBot


def plugin_module(name: str, **attributes: object) -> types.ModuleType:
    module = types.ModuleType(name)
    for key, value in attributes.items():
        setattr(module, key, value)
    return module


def fake_distribution(root: Path, dist: str, entry_points: dict[str, str]) -> None:
    """An installed distribution as pip leaves it: a dist-info folder with entry points."""
    info = root / f"{dist.replace('-', '_')}-0.3.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.3\n")
    lines = "".join(f"{name} = {value}\n" for name, value in entry_points.items())
    (info / "entry_points.txt").write_text(f"[cinco]\n{lines}")


# -- the hook API version ----------------------------------------------------------------------


def test_plugin_for_a_newer_hook_api_is_refused() -> None:
    future = plugin_module("future_plugin", CINCO_HOOK_API=hookspecs.HOOK_API_VERSION + 1)
    with pytest.raises(PluginError, match=r"upgrade Cinco \(pip install --upgrade cinco\)"):
        Registry(entry_points=False, plugins=[future])


def test_plugin_for_an_old_hook_api_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hookspecs, "HOOK_API_VERSION", 3)
    monkeypatch.setattr(hookspecs, "OLDEST_HOOK_API_VERSION", 2)
    old = plugin_module("old_plugin", CINCO_HOOK_API=1)
    with pytest.raises(PluginError, match=r"no longer supports.*upgrade the plugin"):
        Registry(entry_points=False, builtins=False, plugins=[old])
    ok = plugin_module("ok_plugin", CINCO_HOOK_API=2)
    registry = Registry(entry_points=False, builtins=False, plugins=[ok])
    assert registry.sources["ok_plugin"].api == 2


def test_malformed_api_declaration_is_refused() -> None:
    with pytest.raises(PluginError, match="whole number"):
        Registry(entry_points=False, plugins=[plugin_module("odd", CINCO_HOOK_API="1.0")])


def test_current_api_and_undeclared_are_accepted() -> None:
    current = plugin_module("current", CINCO_HOOK_API=hookspecs.HOOK_API_VERSION)
    undeclared = plugin_module("undeclared")
    registry = Registry(entry_points=False, plugins=[current, undeclared])
    assert registry.sources["current"].api == hookspecs.HOOK_API_VERSION
    assert registry.sources["undeclared"].api is None


def test_misspelt_hook_is_refused() -> None:
    class Typo:
        @hookimpl
        def cinco_evnet(self, game: Game) -> None:
            pass

    with pytest.raises(PluginError, match=r"cinco_evnet.*Known hooks: .*cinco_event"):
        Registry(entry_points=False, plugins=[Typo()])


def test_variant_rules_with_a_misspelt_hook_are_left_out() -> None:
    from cinco import Variant

    class TypoRules:
        @hookimpl
        def cinco_legal_space(self, state: object, seat: int, card: int) -> None:
            return None

    class Plugin:
        @hookimpl
        def cinco_register_variants(self) -> list[Variant]:
            return [Variant("typo", "never called", rules=TypoRules())]

    registry = Registry(entry_points=False, plugins=[Plugin()])
    assert "typo" not in registry.variants() and "joker" in registry.variants()
    [problem] = registry.problems
    assert "cinco_legal_space" in problem.message and "'typo'" in problem.message


# -- entry points ------------------------------------------------------------------------------


def test_entry_points_are_loaded_and_failures_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "good_cinco_plugin.py").write_text(
        "from cinco import BotSpec, hookimpl\n"
        "from cinco.plugins.bots.random_bot import RandomBot\n"
        "CINCO_HOOK_API = 1\n"
        "@hookimpl\n"
        "def cinco_register_bots():\n"
        "    return [BotSpec('goodbot', 'good', create=lambda c: RandomBot(c.seed))]\n"
    )
    (tmp_path / "crashing_cinco_plugin.py").write_text("raise ImportError('needs numpy 9')\n")
    (tmp_path / "future_cinco_plugin.py").write_text("CINCO_HOOK_API = 42\n")
    fake_distribution(tmp_path, "cinco-good", {"goodbot": "good_cinco_plugin"})
    fake_distribution(tmp_path, "cinco-crashing", {"crashing": "crashing_cinco_plugin"})
    fake_distribution(tmp_path, "cinco-missing", {"missing": "no_such_module_anywhere"})
    fake_distribution(tmp_path, "cinco-future", {"future": "future_cinco_plugin"})
    monkeypatch.syspath_prepend(str(tmp_path))
    with caplog.at_level(logging.WARNING, logger="cinco.plugins"):
        registry = Registry()
    # The good one works, and Cinco works without the others.
    assert "goodbot" in registry.bots() and "greedy" in registry.bots()
    source = registry.sources["goodbot"]
    assert (source.origin, source.distribution, source.version, source.api) == (
        "entry point",
        "cinco-good",
        "0.3",
        1,
    )
    problems = {p.plugin: p for p in registry.problems}
    assert set(problems) == {"crashing", "missing", "future"}
    crashing = problems["crashing"].message
    assert "'crashing'" in crashing and "cinco-crashing" in crashing and "needs numpy 9" in crashing
    assert "no_such_module_anywhere" in problems["missing"].message
    assert "cinco-missing" in problems["missing"].message
    assert "upgrade Cinco" in problems["future"].message and "42" in problems["future"].message
    assert problems["future"].distribution == "cinco-future"
    # Each is logged as a warning (the command line shows them on stderr).
    logged = " ".join(record.getMessage() for record in caplog.records)
    assert all(name in logged for name in ("crashing", "missing", "future"))
    # Games still run.
    config = registry.configure(2, seats=[Seat("a", bot="goodbot"), Seat("b", bot="greedy")])
    game = Game.new(config, registry=registry)
    game.play_bots()
    assert game.is_over


# -- clashes -----------------------------------------------------------------------------------


class Impostor:
    """Adds a second bot called ``greedy`` (it plays at random)."""

    @hookimpl
    def cinco_register_bots(self) -> list[BotSpec]:
        return [BotSpec("greedy", "not greedy at all", create=lambda c: RandomBot(c.seed))]


def test_first_registered_plugin_keeps_a_clashing_name(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="cinco.plugins"):
        registry = Registry(entry_points=False, plugins=[Impostor()])
        assert registry.bots()["greedy"].description != "not greedy at all"
    [conflict] = registry.conflicts()
    assert (conflict.kind, conflict.name) == ("bot", "greedy")
    assert conflict.used.startswith("cinco.plugins.bots.greedy")
    assert conflict.ignored == ("Impostor",)
    assert registry.owner("bot", "greedy") == "cinco.plugins.bots.greedy"
    assert any("Two plugins add the bot 'greedy'" in r.getMessage() for r in caplog.records)


def test_game_says_which_clashing_plugin_it_uses() -> None:
    registry = Registry(entry_points=False, plugins=[Impostor()])
    seats = [Seat("a", bot="greedy"), Seat("b", bot="random")]
    game = Game.new(registry.configure(2, seats=seats), registry=registry)
    [notice] = [e for e in game.events if e.type == "notice"]
    assert notice.code == "plugin_conflict"
    assert "greedy" in notice.text and "cinco.plugins.bots.greedy" in notice.text
    assert "Impostor" in notice.text
    # A game not using the contested name says nothing.
    seats = [Seat("a", bot="random"), Seat("b", bot="random")]
    quiet = Game.new(registry.configure(2, seats=seats), registry=registry)
    assert not [e for e in quiet.events if e.type == "notice"]


# -- cinco plugins -----------------------------------------------------------------------------


def run_plugins(monkeypatch: pytest.MonkeyPatch, registry: Registry, *args: str) -> str:
    monkeypatch.setattr(plugins_cmd, "default_registry", lambda: registry)
    result = CliRunner().invoke(main, ["plugins", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_cinco_plugins_lists_what_each_plugin_adds(monkeypatch: pytest.MonkeyPatch) -> None:
    registry = Registry(entry_points=False)
    text = run_plugins(monkeypatch, registry)
    assert "cinco.plugins.joker" in text and "joker (rule hooks: cinco_legal_spaces)" in text
    assert "2x3, 3x2" in text and "cinco_register_layouts" in text and "greedy" in text
    assert "Clashes" not in text
    data = json.loads(run_plugins(monkeypatch, registry, "--json"))
    assert data["hook_api"] == hookspecs.HOOK_API_VERSION
    by_name = {plugin["name"]: plugin for plugin in data["plugins"]}
    joker = by_name["cinco.plugins.joker"]
    assert joker["variants"] == ["joker"] and joker["hooks"] == ["cinco_register_variants"]
    assert joker["variant_hooks"] == {"joker": ["cinco_legal_spaces"]}
    assert joker["distribution"] == "cinco" and joker["version"]
    assert by_name["cinco.plugins.six_players"]["layouts"] == ["2x3", "3x2"]
    assert data["conflicts"] == [] and data["problems"] == []


def test_cinco_plugins_reports_clashes_and_failures(monkeypatch: pytest.MonkeyPatch) -> None:
    class BrokenLayouts:
        @hookimpl
        def cinco_register_layouts(self) -> list[object]:
            raise RuntimeError("no layouts today")

    registry = Registry(entry_points=False, plugins=[Impostor(), BrokenLayouts()])
    text = run_plugins(monkeypatch, registry)
    assert "Clashes" in text and "Two plugins add the bot 'greedy'" in text
    assert "greedy [not used: cinco.plugins.bots.greedy adds it first]" in text
    assert "BrokenLayouts" in text and "no layouts today" in text
    data = json.loads(run_plugins(monkeypatch, registry, "--json"))
    assert data["conflicts"][0]["ignored"] == ["Impostor"]
    assert data["problems"][0]["hook"] == "cinco_register_layouts"


# -- folded in from the hardening campaign's test_hardening_core.py (issue 26) --------------------


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
    from cinco.core.engine.rule_hooks import first_result

    rules = RuleSet()
    rules.pm.register(NewWrapper(), name="sneaked in")  # past RuleSet.register's check
    with pytest.raises(PluginError, match=r"'sneaked in'.*as a wrapper"):
        first_result(rules.pm.hook.cinco_legal_spaces)
