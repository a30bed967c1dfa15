"""Hook API 2 for variant authors, the parts that combine and watch: the keys a frontend
offers, layouts refused at registration, incompatible variants, team styles for more teams,
the standard verdict seen by ``cinco_game_end``, game ids and ``cinco_game_closed``, and the
message when a record's variant is not installed."""

from __future__ import annotations

import json
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

from cinco import (
    ONGOING,
    ConfigError,
    Game,
    GameConfig,
    Layout,
    Outcome,
    PluginError,
    RecordError,
    Registry,
    Seat,
    Table,
    TeamStyle,
    Variant,
    hookimpl,
    load_record,
)
from cinco.core.engine import standard_rules
from cinco.core.engine.commands import Command, PlayCard
from cinco.core.engine.state import GameState
from cinco.core.host.sources import PluginSource


class NoExchange:
    @hookimpl
    def cinco_action_allowed(self, action: str) -> str | None:
        return "this game is played without exchanges" if action == "exchange" else None


class Plain:
    """A variant with no rule hooks (to test what combines with what)."""


def module(name: str, api: int = 2, **hooks: object) -> types.ModuleType:
    plugin = types.ModuleType(name)
    plugin.CINCO_HOOK_API = api  # type: ignore[attr-defined]
    for hook, function in hooks.items():
        setattr(plugin, hook, hookimpl(function))  # type: ignore[arg-type]
    return plugin


def variants_plugin(*variants: Variant, name: str = "variants_for_tests") -> types.ModuleType:
    return module(name, cinco_register_variants=lambda: list(variants))


# -- 1. the keys offered come from the seat's legal actions ----------------------------------


def test_the_keys_line_offers_only_legal_actions() -> None:
    from cinco.frontends.terminal.table import TableView, keys_text

    game = Game.new(GameConfig.for_players(2, seed=1, first_seat=0))
    view = TableView(state=game.view(0), viewer=0)
    assert "x exchange" in keys_text(view) and "d draw" in keys_text(view)
    legal = game.legal_actions(0)  # a full hand: no draw
    keys = keys_text(TableView(game.view(0), 0, can_draw=legal.can_draw))
    assert "d draw" not in keys and "x exchange" in keys and "q save and quit" in keys


@pytest.fixture
def no_exchange(monkeypatch: pytest.MonkeyPatch) -> Registry:
    """`cinco` with the no-exchange variant installed."""
    from cinco.frontends import options
    from cinco.frontends.terminal import app

    registry = Registry(
        entry_points=False,
        plugins=[variants_plugin(Variant("no-exchange", "No exchange.", rules=NoExchange()))],
    )
    monkeypatch.setattr(app, "default_registry", lambda: registry)
    monkeypatch.setattr(options, "default_registry", lambda: registry)
    return registry


@pytest.mark.usefixtures("no_exchange")
def test_the_terminal_offers_no_exchange_in_a_game_without_it(tmp_path: Path) -> None:
    from cinco.frontends.main import main

    def play(*variant: str) -> str:
        record = tmp_path / f"game{len(variant)}.jsonl"
        args = ["--seed", "3", "--delay", "0", "--bot", "2=greedy", "--record", str(record)]
        for name in variant:
            args += ["--variant", name]
        result = CliRunner().invoke(
            main, args, input="?\n\nq\n", env={"CINCO_DATA_DIR": str(tmp_path)}
        )
        assert result.exit_code == 0, result.output
        return result.output

    standard, without = play(), play("no-exchange")
    assert "x exchange" in standard and "exchange your hand: when you hold 4" in standard
    assert "x exchange" not in without and "u undo" in without
    assert "exchange your hand: when" not in without  # nor does the help offer it


# -- 2. layouts that cannot work are refused at registration --------------------------------


def test_layouts_the_engine_cannot_play_are_refused_naming_plugin_and_reason() -> None:
    plugin = module(
        "odd_layouts",
        cinco_register_layouts=lambda: [
            Layout("3x2", players=6, teams=2),  # the name says 3 teams of 2
            Layout("solo", players=1, teams=1),
            Layout("crowd", players=14, teams=7),
            Layout("2x4", players=8, teams=2),
            Layout("2x4", players=8, teams=2),  # twice
            Layout("4x2", players=8, teams=4),
        ],
    )
    registry = Registry(entry_points=False, plugins=[plugin])
    layouts = registry.layouts()
    assert layouts["3x2"].teams == 3  # the built-in one; the plugin's was refused
    assert "solo" not in layouts and "crowd" not in layouts
    assert layouts["2x4"].players == 8 and layouts["4x2"].teams == 4
    messages = [p.message for p in registry.problems if p.plugin == "odd_layouts"]
    assert len(messages) == 4, messages
    assert all("'odd_layouts'" in message for message in messages)
    assert any("'3x2'" in m and "name it '2x3'" in m for m in messages)
    assert any("'solo'" in m and "2 to 6 teams, not 1" in m for m in messages)
    assert any("'crowd'" in m and "2 to 6 teams, not 7" in m for m in messages)
    assert any("'2x4'" in m and "twice" in m for m in messages)
    assert 8 in registry.player_counts()


def test_cinco_plugins_shows_why_a_layout_was_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from cinco.frontends import plugins_cmd
    from cinco.frontends.main import main

    plugin = module(
        "odd_layouts", cinco_register_layouts=lambda: [Layout("3x2", players=6, teams=2)]
    )
    registry = Registry(entry_points=False, plugins=[plugin])
    monkeypatch.setattr(plugins_cmd, "default_registry", lambda: registry)
    result = CliRunner().invoke(main, ["plugins"])
    assert "Plugins that failed" in result.output and "'odd_layouts'" in result.output
    assert "name it '2x3'" in result.output


# -- 3. variants that cannot be combined ------------------------------------------------------


@pytest.fixture
def combining() -> Registry:
    return Registry(
        entry_points=False,
        plugins=[
            variants_plugin(
                Variant("hand5", "Hand of five.", rules=Plain()),
                Variant("wild", "Wild.", rules=Plain(), incompatible=("joker",)),
                Variant("scored5", "Scores.", rules=Plain(), requires=("hand5",)),
                Variant("bad", "Bad.", rules=Plain(), incompatible=("bad",)),
            )
        ],
    )


def test_incompatible_variants_are_refused_before_the_game(combining: Registry) -> None:
    with pytest.raises(ConfigError, match="'joker' and 'wild' cannot be played together"):
        combining.configure(2, variants=["joker", "wild"])
    with pytest.raises(ConfigError, match="cannot be played together"):
        combining.configure(2, variants=["wild", "joker"])  # whoever declares it
    with pytest.raises(ConfigError, match=r"only with 'hand5': add --variant hand5"):
        combining.configure(2, variants=["scored5"])
    assert combining.configure(2, variants=["scored5", "hand5"]).variants == ("scored5", "hand5")
    # A configuration made by hand is refused by the game, and by a table, too.
    config = GameConfig.for_players(2, seed=1, variants=("wild", "joker"))
    with pytest.raises(ConfigError, match="cannot be played together"):
        Game.new(config, registry=combining)
    with pytest.raises(ConfigError, match="cannot be played together"):
        Table.create(config, registry=combining)
    assert combining.incompatible_with(["joker"]) == {"wild"}
    assert combining.incompatible_with(["wild"]) == {"joker"}
    assert combining.incompatible_with([]) == set()
    assert "bad" not in combining.variants()  # incompatible with itself: refused
    assert any("names itself" in p.message for p in combining.problems)


def test_cinco_play_refuses_incompatible_variants_cleanly(
    combining: Registry, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from cinco.frontends import options
    from cinco.frontends.main import main
    from cinco.frontends.terminal import app

    monkeypatch.setattr(app, "default_registry", lambda: combining)
    monkeypatch.setattr(options, "default_registry", lambda: combining)
    result = CliRunner().invoke(
        main,
        ["--variant", "wild", "--variant", "joker", "--delay", "0"],
        input="q\n",
        env={"CINCO_DATA_DIR": str(tmp_path)},
    )
    assert result.exit_code != 0
    assert "cannot be played together" in result.output
    assert "Traceback" not in result.output


# -- 4. team styles for more teams -----------------------------------------------------------


GREEN = TeamStyle("green", colour="#009E73", symbol="◆", ascii_symbol="+", shape="diamond")


def four_teams() -> types.ModuleType:
    return module(
        "four_teams",
        cinco_register_layouts=lambda: [Layout("4x2", players=8, teams=4)],
        cinco_register_team_styles=lambda: [
            GREEN,
            TeamStyle("twin", colour="#000000", symbol="●", ascii_symbol="@"),  # symbol taken
            TeamStyle("odd", colour="green", symbol="%", ascii_symbol="%"),
        ],
    )


def test_team_styles_are_plugins_and_extend_to_more_teams() -> None:
    standard = Registry(entry_points=False)
    assert [s.name for s in standard.team_styles()] == ["blue", "orange", "pink"]
    assert standard.owner("team_style", "blue") == "cinco.plugins.team_styles"
    registry = Registry(entry_points=False, plugins=[four_teams()])
    assert [s.name for s in registry.team_styles()] == ["blue", "orange", "pink", "green"]
    assert registry.team_style(3) == GREEN and registry.team_style(4).name == "blue"
    messages = " ".join(p.message for p in registry.problems)
    assert "'●' is the team style 'blue'" in messages and "#RRGGBB" in messages


def test_an_eight_player_four_team_game_is_drawn_distinctly() -> None:
    from cinco.frontends import board_view
    from cinco.frontends.kivy_app import theme
    from cinco.frontends.terminal.table import Style, TableView, render

    registry = Registry(entry_points=False, plugins=[four_teams()])
    config = registry.configure(
        8, layout="4x2", seed=2, seats=[Seat(f"P{i}", bot="greedy") for i in range(8)]
    )
    game = Game.new(config, registry=registry)
    game.play_bots(max_turns=12)
    board_view.use_team_styles(registry.team_styles())
    try:
        assert len({board_view.team_symbol(t) for t in range(4)}) == 4
        assert len({board_view.team_symbol(t, ascii_only=True) for t in range(4)}) == 4
        assert theme.team_colour(3) == theme.rgba("#009E73") and theme.team_shape(3) == "diamond"
        from rich.console import Console

        console = Console(width=100, record=True, color_system=None)
        console.print(render(TableView(game.view(None), None), Style(width=100, height=30)))
        text = console.export_text()
        assert "◆" in text  # team 3's tokens and its row in the side panel
    finally:
        board_view.use_team_styles(Registry(entry_points=False).team_styles())


# -- 5. the outcome hook sees the standard verdict -------------------------------------------


class SixInARow:
    def __init__(self) -> None:
        self.seen: list[tuple[Outcome | None, Outcome | None]] = []

    @hookimpl
    def cinco_game_end(
        self, state: GameState, command: Command, standard: Outcome | None
    ) -> Outcome | None:
        self.seen.append((standard, standard_rules.cinco_game_end(state, command)))
        if standard is not None and standard.reason == "line" and len(standard.line or ()) < 6:
            return ONGOING
        return None


class OldStyle:
    """An API 1 variant: it never names the standard verdict, and is called as before."""

    @hookimpl
    def cinco_game_end(self, state: GameState, command: Command) -> Outcome | None:
        if isinstance(command, PlayCard) and state.tokens[state.team_of(command.seat)] >= 12:
            return Outcome(winner=None, reason="twelve")
        return None


def test_the_outcome_hook_sees_and_refines_the_standard_verdict() -> None:
    six = SixInARow()
    registry = Registry(
        entry_points=False,
        plugins=[
            variants_plugin(Variant("six", "Six.", rules=six), Variant("old", "Old.", OldStyle()))
        ],
    )
    seats = [Seat("a", bot="greedy"), Seat("b", bot="greedy")]
    ends = set()
    for seed in range(3):
        config = registry.configure(2, variants=["six"], seed=seed, seats=seats, turn_limit=800)
        game = Game.new(config, registry=registry)
        game.play_bots()
        assert game.state.result is not None
        ends.add(game.state.result.reason)
        if game.state.result.reason == "line":
            assert len(game.state.result.line or ()) >= 6
    assert all(seen == standard for seen, standard in six.seen)  # the verdict it was given
    assert any(seen is not None and seen.reason == "line" for seen, _ in six.seen)
    old = Game.new(registry.configure(2, variants=["old"], seed=1, seats=seats), registry=registry)
    old.play_bots()
    assert old.state.result is not None and old.state.result.reason in ("twelve", "line")


def test_the_standard_verdict_is_worked_out_only_when_a_variant_asks() -> None:
    registry = Registry(
        entry_points=False,
        plugins=[
            variants_plugin(Variant("old", "Old.", OldStyle()), Variant("six", "Six.", SixInARow()))
        ],
    )
    plain = registry.rules_for(registry.configure(2))
    old = registry.rules_for(registry.configure(2, variants=["old"]))
    six = registry.rules_for(registry.configure(2, variants=["six"]))
    assert plain._game_end.__name__ == "call_one"  # the standard rules' quick path
    assert old._game_end.__name__ == "call"
    assert six._game_end.__name__ == "game_end"


def test_an_api_1_plugin_cannot_use_api_2_hooks() -> None:
    plugin = module("old_watcher", api=1, cinco_game_closed=lambda game, reason: None)
    with pytest.raises(PluginError, match="hook API 2, but declares CINCO_HOOK_API = 1"):
        Registry(entry_points=False, plugins=[plugin])


# -- 6. watchers: the game id and cinco_game_closed -------------------------------------------


class Watcher:
    def __init__(self) -> None:
        self.started: list[str] = []
        self.closed: list[tuple[str, str]] = []

    @hookimpl
    def cinco_game_started(self, game: Game) -> None:
        self.started.append(game.id)

    @hookimpl
    def cinco_game_closed(self, game: Game, reason: str) -> None:
        self.closed.append((game.id, reason))


def test_games_have_an_id_and_tell_when_they_are_closed(tmp_path: Path) -> None:
    watcher = Watcher()
    registry = Registry(entry_points=False, plugins=[watcher])
    config = registry.configure(2, seed=4, seats=[Seat("a"), Seat("b", bot="greedy")])
    record = tmp_path / "game.jsonl"
    table = Table.create(config, registry=registry, record=record)
    table_id = json.loads(record.read_text().splitlines()[0])["table"]
    table.close()
    assert watcher.started == [table_id]
    assert watcher.closed == [(table_id, "abandoned")]
    table.close()  # closing twice tells once
    assert len(watcher.closed) == 1

    with Table.resume(record, registry=registry) as again:  # the same game, the same id
        assert watcher.started == [table_id, table_id]
    assert watcher.closed[-1] == (table_id, "abandoned")

    bots = registry.configure(2, seed=5, seats=[Seat("a", bot="greedy"), Seat("b", bot="random")])
    with Table.create(bots, registry=registry) as finished:
        finished.play_bots()
    assert watcher.closed[-1][1] == "ended" and watcher.closed[-1][0] == watcher.started[-1]
    assert again is not finished

    game = Game.new(GameConfig.for_players(2, seed=1), registry=registry)
    assert len(game.id) == 12 and game.id != table_id
    game.close()
    game.close()
    assert watcher.closed[-1] == (game.id, "abandoned")


def test_a_failing_close_hook_is_logged_and_changes_nothing() -> None:
    class Broken:
        @hookimpl
        def cinco_game_closed(self, game: Game) -> None:
            raise RuntimeError("boom")

    registry = Registry(entry_points=False, plugins=[Broken()])
    game = Game.new(GameConfig.for_players(2, seed=1), registry=registry)
    events = len(game.events)
    game.close()
    assert len(game.events) == events
    assert any(p.hook == "cinco_game_closed" for p in game.problems)


# -- 7. a record whose variant is not installed ----------------------------------------------


def record_with_plugin_variant(tmp_path: Path) -> Path:
    registry = Registry(entry_points=False)
    plugin = variants_plugin(
        Variant("no-exchange", "No exchange.", rules=NoExchange()), name="cinco_no_exchange"
    )
    registry.register(
        plugin,
        name="no-exchange",
        source=PluginSource("no-exchange", "entry point", "cinco-no-exchange", "1.0.0"),
    )
    config = registry.configure(
        2, variants=["no-exchange"], seed=1, seats=[Seat("a"), Seat("b", bot="greedy")]
    )
    path = tmp_path / "variant.jsonl"
    Table.create(config, registry=registry, record=path).close()
    return path


def test_a_record_says_what_to_install_for_its_variant(tmp_path: Path) -> None:
    path = record_with_plugin_variant(tmp_path)
    header = json.loads(path.read_text().splitlines()[0])
    assert header["variants"] == {
        "no-exchange": {
            "distribution": "cinco-no-exchange",
            "version": "1.0.0",
            "entry_point": "no-exchange",
            "hooks": ["cinco_action_allowed"],
        }
    }
    with pytest.raises(RecordError) as refused:
        load_record(path, registry=Registry(entry_points=False))
    message = str(refused.value)
    assert "'no-exchange' (from cinco-no-exchange 1.0.0, entry point no-exchange)" in message
    assert "pip install 'cinco-no-exchange>=1.0.0'" in message
    # Without the header's field (an older record): still what is missing, and how to look.
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    del head["variants"]
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    with pytest.raises(RecordError, match=r"'no-exchange', which is not installed.*cinco plugins"):
        load_record(old, registry=Registry(entry_points=False))


@pytest.mark.parametrize("command", [["replay"], ["--resume"]])
def test_replay_and_resume_refuse_a_missing_variant_cleanly(
    tmp_path: Path, command: list[str]
) -> None:
    from cinco.frontends.main import main

    path = record_with_plugin_variant(tmp_path)
    result = CliRunner().invoke(
        main, [*command, str(path)], input="q\n", env={"CINCO_DATA_DIR": str(tmp_path)}
    )
    assert result.exit_code == 1, result.output
    assert "pip install 'cinco-no-exchange>=1.0.0'" in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# -- 6b. plugin settings ----------------------------------------------------------------------


class Tally:
    """A watcher with settings: it counts the turns it is told of, every *n*."""

    CINCO_HOOK_API = 2

    def __init__(self) -> None:
        self.told: list[tuple[object, object]] = []

    @hookimpl
    def cinco_register_settings(self) -> list[object]:
        from cinco import Setting

        return [
            Setting("tally.every", "Print the score every N turns.", default=10),
            Setting("tally.style", "How to print it.", default="short", choices=("short", "long")),
            Setting("tally.bad", "A default outside its choices.", default="x", choices=("y",)),
        ]

    @hookimpl
    def cinco_game_started(self, game: Game) -> None:
        self.told.append((game.setting("tally.every"), game.setting("tally.style")))


def test_plugin_settings_are_checked_recorded_and_read(tmp_path: Path) -> None:
    tally = Tally()
    registry = Registry(entry_points=False, plugins=[tally])
    assert sorted(registry.settings()) == ["tally.every", "tally.style"]  # tally.bad refused
    assert any("not one of its choices" in p.message for p in registry.problems)
    config = registry.configure(2, seed=1, settings={"tally.every": "5"})
    assert config.options["settings"] == {"tally.every": 5}
    path = tmp_path / "tally.jsonl"
    Table.create(config, registry=registry, record=path).close()
    assert tally.told == [(5, "short")]  # the default for what was not chosen
    recorded = load_record(path, registry=registry).events[0]
    assert recorded.config.options["settings"] == {"tally.every": 5}  # type: ignore[attr-defined]
    with Table.resume(path, registry=registry):
        assert tally.told[-1] == (5, "short")  # the replay knows the setting
    for settings, refusal in [
        ({"tally.every": "often"}, "takes a whole number, not 'often'"),
        ({"tally.style": "loud"}, "is one of short, long, not 'loud'"),
        ({"tally.nope": "1"}, "Unknown setting 'tally.nope'.*tally.every, tally.style"),
    ]:
        with pytest.raises(ConfigError, match=refusal):
            registry.configure(2, settings=settings)


def test_cinco_takes_settings_on_the_command_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from cinco.frontends import options, plugins_cmd
    from cinco.frontends.main import main
    from cinco.frontends.terminal import app

    registry = Registry(entry_points=False, plugins=[Tally()])
    for where in (app, options, plugins_cmd):
        monkeypatch.setattr(where, "default_registry", lambda: registry)
    record = tmp_path / "game.jsonl"
    env = {"CINCO_DATA_DIR": str(tmp_path)}
    args = ["--setting", "tally.style=long", "--delay", "0", "--record", str(record)]
    result = CliRunner().invoke(main, args, input="q\n", env=env)
    assert result.exit_code == 0, result.output
    config = load_record(record, registry=registry).events[0].config  # type: ignore[attr-defined]
    assert config.options["settings"] == {"tally.style": "long"}
    result = CliRunner().invoke(main, ["--setting", "tally.style=loud"], input="q\n", env=env)
    assert result.exit_code != 0 and "one of short, long" in result.output
    result = CliRunner().invoke(main, ["--setting", "tally.style"], env=env)
    assert result.exit_code != 0 and "is not NAME=VALUE" in result.output
    listing = CliRunner().invoke(main, ["plugins"]).output
    assert "setting:  tally.every = 10 (default): Print the score every N turns." in listing


# -- the order in which variants are asked ----------------------------------------------------


class Corner:
    def __init__(self, space: int) -> None:
        self.space = space

    @hookimpl
    def cinco_legal_spaces(self, state: GameState) -> tuple[int, ...] | None:
        return (self.space,) if state.is_free(self.space) else None


def test_the_last_variant_listed_is_asked_first() -> None:
    registry = Registry(
        entry_points=False,
        plugins=[variants_plugin(Variant("a", "a", Corner(90)), Variant("b", "b", Corner(89)))],
    )
    for order, space in ((["a", "b"], 89), (["b", "a"], 90)):
        game = Game.new(registry.configure(2, variants=order, seed=1), registry=registry)
        assert {spaces for _card, spaces in game.legal_actions().plays} == {(space,)}


# -- the guide's example plugin ---------------------------------------------------------------


def guide_plugin() -> types.ModuleType:
    text = (Path(__file__).resolve().parents[3] / "docs" / "hooks.md").read_text(encoding="utf-8")
    section = text.split("## Variants that combine, and watchers", 1)[1].split("<!--", 1)[0]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    plugin = types.ModuleType("guide_plugin")
    exec(compile(code, "docs/hooks.md", "exec"), plugin.__dict__)
    return plugin


def test_the_guides_plugin_works_as_it_says(capsys: pytest.CaptureFixture[str]) -> None:
    registry = Registry(entry_points=False, plugins=[guide_plugin()])
    assert registry.problems == []
    with pytest.raises(ConfigError, match="'scored-stalemate' and 'joker' cannot be played"):
        registry.configure(2, variants=["scored-stalemate", "joker"])
    assert registry.team_style(3).name == "green"
    seats = [Seat("a", bot="greedy"), Seat("b", bot="random")]
    scored = []
    for seed in range(12):
        config = registry.configure(2, variants=["scored-stalemate"], seed=seed, seats=seats)
        config = type(config).from_dict(
            config.to_dict() | {"params": {"tokens_per_team": 4}}  # stalemates come soon
        )
        with Table.create(config, registry=registry) as table:
            table.play_bots()
            result = table.spectator().view.result
        assert result is not None and result.reason in ("scored", "line")
        if result.reason == "scored":
            scored.append(result)
    assert scored and all(r.scores is not None and len(r.scores) == 2 for r in scored)
    assert capsys.readouterr().out.count("closed: ended") == 12
    quiet = registry.configure(2, seed=1, seats=seats, settings={"closing.say": "no"})
    Table.create(quiet, registry=registry).close()
    assert "closed" not in capsys.readouterr().out


def test_the_terminal_plays_a_plugins_four_team_layout(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from cinco.frontends import board_view, options
    from cinco.frontends.main import main
    from cinco.frontends.terminal import app

    registry = Registry(entry_points=False, plugins=[four_teams()])
    monkeypatch.setattr(app, "default_registry", lambda: registry)
    monkeypatch.setattr(options, "default_registry", lambda: registry)
    assert [seat.name for seat in GameConfig.for_players(8, teams=4).seats][-2:] == ["P7", "P8"]
    args = ["--layout", "4x2", "--delay", "0", "--seed", "2"]
    args += [f"--bot={seat}=random" for seat in range(2, 9)]
    try:
        result = CliRunner().invoke(main, args, input="q\n", env={"CINCO_DATA_DIR": str(tmp_path)})
    finally:
        board_view.use_team_styles(Registry(entry_points=False).team_styles())
    assert result.exit_code == 0, result.output
    assert "◆" in result.output and "Random 8" in result.output
