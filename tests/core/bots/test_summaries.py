"""What ``simulate`` and ``arena`` summarise (issues 25 and 27): the bots of each team by name
(teams counted from 1 in words; the JSON says it counts from 0), and the moves replaced by
random ones (a bot that failed, was too slow or illegal), per bot, in words and in JSON."""

from __future__ import annotations

import json
import re
import types

import pytest
from click.testing import CliRunner

from cinco.core.bots import matches, statistics, tournament
from cinco.core.bots.matches import ArenaSpec, GameResult, parse_entrants
from cinco.core.bots.simulation import simulate
from cinco.core.engine.commands import Command
from cinco.core.engine.legal import LegalActions
from cinco.core.engine.state import GameState
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host.declarations import BotContext, BotSpec
from cinco.core.host.registry import Registry
from cinco.frontends import simulate_cmd
from cinco.frontends.main import COMMANDS, main


class Broken:
    """A bot that fails on every move: each of its moves is replaced by a random one."""

    def __init__(self, context: BotContext) -> None:
        self.context = context

    def choose(self, view: GameState, legal: LegalActions) -> Command:
        raise RuntimeError("broken")


def broken_registry() -> Registry:
    plugin = types.ModuleType("broken_bot")
    plugin.CINCO_HOOK_API = 2  # type: ignore[attr-defined]
    plugin.cinco_register_bots = hookimpl(  # type: ignore[attr-defined]
        lambda: [BotSpec("broken", "Fails every move.", create=Broken)]
    )
    return Registry(entry_points=False, plugins=[plugin])


def test_simulate_counts_replaced_moves_per_bot_and_names_the_teams() -> None:
    summary = simulate(broken_registry(), players=2, bots=["broken", "greedy"], games=2)
    assert summary.teams == [["broken"], ["greedy"]]
    assert summary.replaced["broken"] > 0 and summary.replaced["greedy"] == 0
    data = summary.to_dict()
    assert data["team_base"] == 0
    assert data["teams"] == {"0": ["broken"], "1": ["greedy"]}
    assert data["replaced_moves"] == {"broken": summary.replaced["broken"], "greedy": 0}


def test_a_team_of_several_bots_names_each_once() -> None:
    summary = simulate(broken_registry(), players=4, bots=["random", "greedy"], games=1)
    # Seats alternate teams (P4): seats 1 and 3 are team 1, both random.
    assert summary.teams == [["random"], ["greedy"]]
    summary = simulate(broken_registry(), players=4, bots=["random", "greedy", "broken"], games=1)
    assert summary.teams == [["random", "broken"], ["greedy", "random"]]
    summary = simulate(broken_registry(), players=3, bots=["random", "greedy"], games=1)
    assert summary.teams == [["random"], ["greedy"], ["random"]]


def test_the_simulate_command_in_words_and_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate_cmd, "default_registry", broken_registry)
    args = ["simulate", "--bots", "broken,greedy", "--games", "2"]
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0, text.output
    assert re.search(r"^  team 1 \(broken\): \d+ wins?$", text.output, re.M), text.output
    assert re.search(r"^  team 2 \(greedy\): \d+ wins?$", text.output, re.M)
    replaced = re.search(r"too slow\): broken (\d+), greedy 0$", text.output, re.M)
    assert replaced and int(replaced[1]) > 0
    data = json.loads(CliRunner().invoke(main, [*args, "--json"]).output)
    assert data["team_base"] == 0 and data["teams"]["0"] == ["broken"]
    assert data["replaced_moves"]["broken"] == int(replaced[1])


def test_arena_standings_count_each_bots_replaced_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    registry = broken_registry()
    for module in (matches, tournament):
        monkeypatch.setattr(module, "default_registry", lambda: registry)
    spec = ArenaSpec(parse_entrants("broken,greedy"), games=2)
    teams = matches.check(spec)
    results = [tournament.play_one(spec, *job) for job in matches.game_plan(spec, teams)]
    report = statistics.Report.of(spec, teams, results, 1.0)
    broken, greedy = report.standings
    assert broken.replaced > 0 and greedy.replaced == 0
    assert report.replaced == broken.replaced
    standings = {s["entrant"]: s for s in report.to_dict()["standings"]}
    assert standings["broken"]["replaced"] == broken.replaced


def test_replaced_moves_go_to_the_entrant_of_their_team() -> None:
    spec = ArenaSpec(parse_entrants("a,b"), games=2)
    results = [
        GameResult(0, 0, (0, 1), 0, "line", 10, 0, replaced=3, replaced_teams=(1, 2)),
        GameResult(1, 0, (1, 0), 1, "line", 10, 0, replaced=5, replaced_teams=(5, 0)),
    ]
    report = statistics.Report.of(spec, 2, results, 1.0)
    assert [(s.entrant, s.replaced) for s in report.standings] == [("a", 1), ("b", 7)]


@pytest.mark.parametrize("command", ["", *sorted(COMMANDS)])
def test_no_help_shows_a_clause_id(command: str) -> None:
    """Clause IDs (E4, P2...) are for the rules reference, not for someone reading --help."""
    args = [command, "--help"] if command else ["--help"]
    result = CliRunner().invoke(main, args, terminal_width=200)
    assert result.exit_code == 0, result.output
    found = re.findall(r"\b[ABCEPSVX][1-9]\b", result.output)
    assert not found, f"cinco {command} --help shows {found}"
