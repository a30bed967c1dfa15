"""Records that stand alone (issue 25): a record names every plugin it needs (its distribution
and entry point), whoever wrote it (a table, or ``RecordWriter`` as ``simulate --records``
uses it); a variant that only changes game parameters is replayed and resumed without its
plugin, from the parameters the record holds, saying so; one with rules of its own still
needs its plugin, and the refusal says what to install."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

import pytest

from cinco import GameParams, Layout, Variant, hookimpl
from cinco.core.engine.config import GameConfig, Seat
from cinco.core.engine.errors import ConfigError, RecordError
from cinco.core.engine.state import GameState
from cinco.core.game.game import Game
from cinco.core.host.registry import Registry
from cinco.core.host.sources import PluginSource
from cinco.core.records.record import load_record
from cinco.core.records.recording import RecordWriter
from cinco.core.table.table import Table


class HandOfSix:
    @hookimpl
    def cinco_game_params(self, params: GameParams, config: GameConfig) -> GameParams:
        return replace(params, hand_limit=6, deal=6, exchange_size=6)


class HighOnly:
    """Rules of its own: no card may go below 10."""

    @hookimpl
    def cinco_legal_spaces(self, state: GameState, seat: int, card: int) -> None:
        return None


class Plugin:
    """One distribution's plugin: two variants and a layout."""

    CINCO_HOOK_API = 2

    @hookimpl
    def cinco_register_variants(self) -> list[Variant]:
        return [
            Variant("hand6", "Six cards.", rules=HandOfSix()),
            Variant("high", "High only.", rules=HighOnly()),
        ]

    @hookimpl
    def cinco_register_layouts(self) -> list[Layout]:
        return [Layout("2x4", players=8, teams=2, description="2 teams of 4")]


def with_plugin() -> Registry:
    registry = Registry(entry_points=False)
    registry.register(
        Plugin(),
        name="six",
        source=PluginSource("six", "entry point", "cinco-six", "2.1.0"),
    )
    return registry


def bot_game(path: Path, variants: list[str], players: int = 2) -> None:
    registry = with_plugin()
    seats = [Seat(f"b{i}", bot="greedy") for i in range(players)]
    config = registry.configure(players, variants=variants, seats=seats, seed=7, turn_limit=300)
    game = Game.new(config, registry=registry, plugins=[RecordWriter(path)])
    game.play_bots()
    game.close()


def test_a_writers_record_names_its_plugins(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    bot_game(path, ["hand6", "high"], players=8)
    header = json.loads(path.read_text().splitlines()[0])
    source = {"distribution": "cinco-six", "version": "2.1.0", "entry_point": "six"}
    assert header["variants"] == {
        "hand6": {**source, "hooks": ["cinco_game_params"]},
        "high": {**source, "hooks": ["cinco_legal_spaces"]},
    }
    assert header["layouts"] == {"2x4": source}
    # A game of built-ins only names nothing.
    plain = tmp_path / "plain.jsonl"
    bot_game(plain, [])
    assert set(json.loads(plain.read_text().splitlines()[0])) == {"format", "version", "cinco"}


def test_a_parameters_only_variant_is_read_without_its_plugin(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    bot_game(path, ["hand6"])
    without = Registry(entry_points=False)
    record = load_record(path, registry=without)  # every move checked, by the recorded numbers
    assert record.events[-1].type == "game_ended"
    (warning,) = record.warnings
    assert "'hand6' (from cinco-six 2.1.0, entry point six) is not installed here" in warning
    assert "pip install 'cinco-six>=2.1.0'" in warning
    # Read, never offered: a new game of it is still refused.
    assert "hand6" not in without.variants()
    with pytest.raises(ConfigError, match="Unknown variant 'hand6'"):
        without.configure(2, variants=["hand6"])


def test_and_resumed_without_it(tmp_path: Path) -> None:
    registry = with_plugin()
    seats = [Seat("Ann"), Seat("Bo")]
    config = registry.configure(2, variants=["hand6"], seats=seats, seed=3, first_seat=0)
    path = tmp_path / "game.jsonl"
    with Table.create(config, registry=registry, record=path) as table:
        ann = table.seat(0)
        ann.submit(ann.legal()[0])
    without = Registry(entry_points=False)
    with Table.resume(path, registry=without) as resumed:
        assert any("is not installed here" in warning for warning in resumed.warnings)
        assert resumed.config.params.hand_limit == 6
        bo = resumed.seat(1)
        deadline = time.monotonic() + 10
        while not bo.legal() and time.monotonic() < deadline:
            bo.wait(timeout=0.2)
        bo.submit(bo.legal()[0])
    events = load_record(path, registry=without).events
    assert [e.seat for e in events if e.type == "turn_ended"] == [0, 1]  # type: ignore[attr-defined]


def test_a_variant_with_rules_of_its_own_needs_its_plugin(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    bot_game(path, ["high"])
    with pytest.raises(RecordError) as refused:
        load_record(path, registry=Registry(entry_points=False))
    message = str(refused.value)
    assert "'high' (from cinco-six 2.1.0, entry point six)" in message
    assert "pip install 'cinco-six>=2.1.0'" in message
    # A record from before headers said the hooks: not trusted to be parameters only.
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    head["variants"]["high"].pop("hooks")
    head["variants"]["high"]["hooks"] = None
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    with pytest.raises(RecordError, match=r"pip install 'cinco-six>=2\.1\.0'"):
        load_record(old, registry=Registry(entry_points=False))


def test_a_missing_layout_says_what_to_install(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    bot_game(path, [], players=8)
    with pytest.raises(RecordError) as refused:
        load_record(path, registry=Registry(entry_points=False))
    assert "layout '2x4' (from cinco-six 2.1.0, entry point six)" in str(refused.value)
    assert "pip install 'cinco-six>=2.1.0'" in str(refused.value)


def test_a_servers_export_names_the_plugins_too(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from cinco.frontends.net.app import create_app

    app = create_app(tmp_path / "server.db", registry=with_plugin())
    with TestClient(app) as client:
        body = {"players": 2, "variants": ["hand6"], "bots": {"2": "greedy"}}
        table = client.post("/api/tables", json=body).json()
        client.post("/api/join", json={"code": table["code"], "name": "Ann"})
        url = f"/api/tables/{table['table']}/record"
        record = client.get(url, headers={"Authorization": f"Bearer {table['owner']}"})
    assert record.status_code == 200, record.text
    header = json.loads(record.text.splitlines()[0])
    assert header["variants"]["hand6"] == {
        "distribution": "cinco-six",
        "version": "2.1.0",
        "entry_point": "six",
        "hooks": ["cinco_game_params"],
    }
