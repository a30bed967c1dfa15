"""A variant's rule hook that fails in ``cinco simulate`` fails its game, not the run
(issue 25): the other games are played and summed up, the failed ones are listed with the
plugin and the hook, and the command exits with status 1."""

from __future__ import annotations

import json
import types

import pytest
from click.testing import CliRunner

from cinco.core.bots.simulation import simulate
from cinco.core.engine.state import GameState
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host.declarations import Variant
from cinco.core.host.registry import Registry
from cinco.frontends import simulate_cmd
from cinco.frontends.main import main


class Fragile:
    """Breaks at turn 5 of the games seat 0 begins (the others are played to their end)."""

    @hookimpl
    def cinco_legal_spaces(self, state: GameState, seat: int, card: int) -> None:
        if state.turn == 5 and state.first_seat == 0:
            raise RuntimeError("fragile broke")


def fragile_registry() -> Registry:
    plugin = types.ModuleType("fragile_plugin")
    plugin.CINCO_HOOK_API = 2  # type: ignore[attr-defined]
    plugin.cinco_register_variants = hookimpl(  # type: ignore[attr-defined]
        lambda: [Variant("fragile", "Breaks.", rules=Fragile())]
    )
    return Registry(entry_points=False, plugins=[plugin])


def test_a_failing_game_is_reported_and_the_run_goes_on() -> None:
    summary = simulate(
        fragile_registry(), players=2, bots=["random"], games=6, seed=0, variants=["fragile"]
    )
    assert summary.failed and summary.games  # some games failed, some were played
    assert summary.games + len(summary.failed) == 6
    assert sum(summary.wins.values()) + summary.draws == summary.games
    failure = summary.failed[0]
    assert "fragile" in failure.plugin and failure.hook == "cinco_legal_spaces"
    assert "fragile broke" in failure.error
    assert summary.to_dict()["failed"][0]["seed"] == failure.seed


@pytest.mark.parametrize("as_json", [False, True])
def test_the_command_lists_the_failed_games_and_exits_with_1(
    monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    monkeypatch.setattr(simulate_cmd, "default_registry", fragile_registry)
    args = ["simulate", "--variant", "fragile", "--bots", "random", "--games", "6"]
    result = CliRunner().invoke(main, args + (["--json"] if as_json else []))
    assert result.exit_code == 1, result.output
    if as_json:
        data = json.loads(result.stdout)
        assert data["failed"] and data["games"] + len(data["failed"]) == 6
    else:
        assert "failed: the plugin" in result.stdout and "cinco_legal_spaces" in result.stdout
        assert "fragile broke" in result.stdout
