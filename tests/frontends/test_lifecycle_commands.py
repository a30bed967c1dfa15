"""One lifecycle for every command that plays games (issue 25): ``cinco`` (the terminal game),
``simulate``, ``arena`` and ``serve`` call ``cinco_game_started``, then ``cinco_event`` for
every event from ``game_started`` on, then ``cinco_game_ended`` right after the ``game_ended``
event, then ``cinco_game_closed`` once; ``cinco replay`` plays no game and calls none.

A recording plugin is installed the way a third party's is (an entry point of a distribution
on ``PYTHONPATH``), so each command is run as a user runs it, in a process of its own.
"""

from __future__ import annotations

import json
import os
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest
from example_plugins import module_plugin, run_cinco

from cinco import Event, Game, Registry, hookimpl

RECORDER = '''
"""Writes every lifecycle hook call to the file $CINCO_LIFECYCLE_LOG, one JSON line each."""
import json, os
from cinco import hookimpl

CINCO_HOOK_API = 2

def _write(game, hook, extra=None):
    line = {"pid": os.getpid(), "game": game.id, "hook": hook, **(extra or {})}
    with open(os.environ["CINCO_LIFECYCLE_LOG"], "a") as out:
        out.write(json.dumps(line) + "\\n")

@hookimpl
def cinco_game_started(game):
    # A watcher that opens its file here sees the whole log: nothing came before.
    _write(game, "started", {"events": len(game.events), "resumed": game.resumed})

@hookimpl
def cinco_event(game, event):
    _write(game, "event", {"type": event.type})

@hookimpl
def cinco_game_ended(game):
    _write(game, "ended")

@hookimpl
def cinco_game_closed(game, reason):
    _write(game, "closed", {"reason": reason})
'''


@pytest.fixture
def recorder(tmp_path: Path) -> Iterator[tuple[dict[str, str], Path]]:
    """The environment of a Cinco with the recording plugin installed, and its log."""
    env = module_plugin(tmp_path / "site", "recorder", RECORDER)
    log = tmp_path / "lifecycle.jsonl"
    env["CINCO_LIFECYCLE_LOG"] = str(log)
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")  # no user's settings file
    yield env, log


def games(log: Path) -> list[list[dict[str, object]]]:
    """The hook calls of each game, in the order made."""
    calls: dict[str, list[dict[str, object]]] = defaultdict(list)
    for line in log.read_text().splitlines():
        call = json.loads(line)
        calls[str(call["game"])].append(call)
    return list(calls.values())


def assert_one_lifecycle(calls: list[dict[str, object]]) -> None:
    """started (nothing told before it), every event from game_started to game_ended, ended
    right after the game_ended event, closed ("ended") last, each hook once."""
    hooks = [call["hook"] for call in calls]
    assert hooks[0] == "started", hooks[:3]
    assert calls[0]["resumed"] is False
    assert hooks[-2:] == ["ended", "closed"], hooks[-3:]
    assert calls[-1]["reason"] == "ended"
    events = [call["type"] for call in calls[1:-2]]
    assert set(hooks[1:-2]) == {"event"}
    assert events[0] == "game_started" and events[-1] == "game_ended"
    assert events.count("game_started") == 1 and events.count("game_ended") == 1
    # Every event the game stored was told: the deal too (it came before started, unseen).
    assert "card_drawn" in events or "hand_dealt" in events or len(events) > 3


def test_the_terminal_game(recorder: tuple[dict[str, str], Path], tmp_path: Path) -> None:
    env, log = recorder
    record = tmp_path / "game.jsonl"
    run_cinco(env, "--players", "2", "--bot", "1=random", "--bot", "2=random", "--delay", "0",
        "--seed", "3", "--record", str(record))  # fmt: skip
    (calls,) = games(log)
    assert_one_lifecycle(calls)
    # The events told are the record's, in its order.
    lines = record.read_text().splitlines()[1:]
    assert [call["type"] for call in calls[1:-2]] == [json.loads(x)["type"] for x in lines]


def test_simulate(recorder: tuple[dict[str, str], Path]) -> None:
    env, log = recorder
    run_cinco(env, "simulate", "--bots", "random,greedy", "--games", "3", "--json")
    played = games(log)
    assert len(played) == 3
    for calls in played:
        assert_one_lifecycle(calls)


def test_arena(recorder: tuple[dict[str, str], Path]) -> None:
    env, log = recorder
    run_cinco(env, "arena", "--bots", "random,greedy", "--games", "2", "--jobs", "1", "--json")
    played = games(log)
    assert len(played) == 2
    for calls in played:
        assert_one_lifecycle(calls)


def test_replay_calls_no_hook(recorder: tuple[dict[str, str], Path], tmp_path: Path) -> None:
    """A replay shows a record; it plays no game, so a record writer or a logger is not told
    of it again."""
    env, log = recorder
    record = tmp_path / "game.jsonl"
    run_cinco(env, "simulate", "--bots", "random", "--games", "1", "--records", str(tmp_path))
    (record,) = tmp_path.glob("game-*.jsonl")
    log.unlink()
    run_cinco(env, "replay", str(record), "--json")
    run_cinco(env, "replay", str(record), "--no-interactive")
    assert not log.exists()


def test_serve(recorder: tuple[dict[str, str], Path], tmp_path: Path) -> None:
    """A server's table: the same order, and closed when the server stops."""
    from live_server import Server, free_port

    env, log = recorder
    saved = dict(os.environ)
    os.environ.update(env)  # the server's process inherits it
    try:
        server = Server(tmp_path / "server.db", free_port(), tmp_path / "server.log")
        server.start()
        try:
            created = run_cinco(env, "table", "create", "--server", server.url, "--bot", "2=random",
                          "--json")  # fmt: skip
            code = json.loads(created.stdout)["code"]
            run_cinco(env, "join", server.url, code, "--bot", "greedy", "--name", "Gus")
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not any(
                call["hook"] == "ended" for game in games(log) for call in game
            ):
                time.sleep(0.2)
        finally:
            server.stop()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    (calls,) = games(log)
    assert_one_lifecycle(calls)


class Recorder:
    """The same recording plugin, in-process."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, ...]] = []

    @hookimpl
    def cinco_game_started(self, game: Game) -> None:
        self.calls.append(("started", str(len(game.events)), str(game.resumed)))

    @hookimpl
    def cinco_event(self, game: Game, event: Event) -> None:
        self.calls.append(("event", event.type))


def test_a_resumed_game_is_started_again_with_its_past_events_in_place() -> None:
    recorder = Recorder()
    registry = Registry(entry_points=False, plugins=[recorder])
    game = Game.new(registry.configure(2, seed=5), registry=registry)
    dealt = len(game.events)
    assert recorder.calls[0] == ("started", str(dealt), "False")
    assert [call[1] for call in recorder.calls[1:]] == [e.type for e in game.events]
    recorder.calls.clear()
    Game.from_events(list(game.events), registry=registry)
    assert recorder.calls == [("started", str(dealt), "True")]  # no event told again


def test_a_plugin_failing_in_started_is_noticed_after_the_deal() -> None:
    class Failing:
        @hookimpl
        def cinco_game_started(self, game: Game) -> None:
            raise RuntimeError("no")

    recorder = Recorder()
    registry = Registry(entry_points=False, plugins=[Failing(), recorder])
    game = Game.new(registry.configure(2, seed=5), registry=registry)
    types = [event.type for event in game.events]
    assert types[-1] == "notice" and "notice" not in types[:-1]
    assert [call[1] for call in recorder.calls[1:]] == types  # the notice told last, in order
