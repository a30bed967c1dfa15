"""Bots thinking in a worker process of their own (``Registry(bot_processes=True)``), so that the
Kivy app keeps drawing while ``ismcts`` searches (issue 13). The moves are the same as in-process,
the worker gets only what a bot is given, and a worker that dies costs a move, not the game."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from cinco.core.engine.config import GameConfig, Seat
from cinco.core.engine.events import Notice
from cinco.core.game.game import Game
from cinco.core.host.bot_process import BotProcessError, ProcessBot
from cinco.core.host.registry import Registry
from cinco.core.host.thinking import limited

SEATS = [Seat("Greedy", bot="greedy"), Seat("Search", bot="ismcts", level="easy")]


def config(registry: Registry, seed: int) -> GameConfig:
    return registry.configure(
        2, seats=SEATS, seed=seed, first_seat=0, options={"bot_iterations": 40}
    )


def whole_game(registry: Registry, seed: int) -> Game:
    game = Game.new(config(registry, seed), registry=registry)
    game.play_bots()
    return game


@pytest.fixture(scope="module")
def in_processes() -> Registry:
    return Registry(entry_points=False, bot_processes=True)


def test_a_game_with_bots_in_a_process_plays_the_same_moves(in_processes: Registry) -> None:
    local = whole_game(Registry(entry_points=False), seed=11)
    remote = whole_game(in_processes, seed=11)
    assert isinstance(remote.bot(1), ProcessBot) and not isinstance(local.bot(1), ProcessBot)
    assert remote.state.result is not None
    assert [e.to_dict() for e in remote.store] == [e.to_dict() for e in local.store]
    assert not any(isinstance(e, Notice) for e in remote.store)  # no move was replaced


def test_the_worker_is_another_process(in_processes: Registry) -> None:
    game = Game.new(config(in_processes, seed=3), registry=in_processes)
    assert isinstance(game.bot(0), ProcessBot)
    worker = in_processes._bots_worker
    assert worker is not None and worker.pid not in (None, os.getpid())


def test_a_killed_worker_is_started_again_with_its_bots(in_processes: Registry) -> None:
    game = Game.new(config(in_processes, seed=5), registry=in_processes)
    game.play_bots(max_turns=2)
    worker = in_processes._bots_worker
    assert worker is not None and worker.pid is not None
    first = worker.pid
    os.kill(first, signal.SIGKILL)
    worker._process.join(5)
    game.play_bots()
    # between moves, a dead worker costs nothing: a new one is started, its bots made again
    assert not any(isinstance(e, Notice) for e in game.store)
    assert game.state.result is not None
    assert worker.pid not in (None, first)


def test_a_worker_killed_mid_move_costs_that_move_only() -> None:
    registry = Registry(entry_points=False, bot_processes=True)
    slow = registry.configure(
        2, seats=SEATS, seed=8, first_seat=1, options={"bot_iterations": 10**7}
    )
    game = Game.new(slow, registry=registry)
    assert isinstance(game.bot(1), ProcessBot)  # the worker is up before the move starts
    worker = registry._bots_worker
    assert worker is not None and worker.pid is not None
    mover = threading.Thread(target=game.play_bot_turn)
    mover.start()
    time.sleep(0.5)  # the search is under way (ten million iterations take minutes)
    os.kill(worker.pid, signal.SIGKILL)
    mover.join(30)
    assert not mover.is_alive()
    (notice,) = [e for e in game.store if isinstance(e, Notice)]
    assert notice.code == "bot_replaced" and dict(notice.params)["problem"] == "error"
    assert game.state.turn == 1  # the move was made for the bot, and the game goes on
    worker.close()


def test_plugin_objects_and_the_switch_keep_bots_in_this_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Quiet:  # a plugin object cannot be sent to another process
        pass

    with_plugins = Registry(entry_points=False, plugins=[Quiet()], bot_processes=True)
    game = Game.new(config(with_plugins, seed=2), registry=with_plugins)
    assert not isinstance(game.bot(0), ProcessBot)
    monkeypatch.setenv("CINCO_BOT_PROCESS", "0")
    switched_off = Registry(entry_points=False, bot_processes=True)
    game = Game.new(config(switched_off, seed=2), registry=switched_off)
    assert not isinstance(game.bot(0), ProcessBot)
    assert switched_off._bots_worker is None


def _slow_search(seed: int) -> tuple[Registry, Game]:
    """A game whose search bot (seat 1, to move) would think for minutes: 10⁷ iterations."""
    registry = Registry(entry_points=False, bot_processes=True)
    slow = registry.configure(
        2, seats=SEATS, seed=seed, first_seat=1, options={"bot_iterations": 10**7}
    )
    return registry, Game.new(slow, registry=registry)


def test_a_caller_s_limit_bounds_the_worker_s_search() -> None:
    """A hint's deadline (cinco.core.host.thinking) reaches the worker: it answers by then with a
    legal move, rather than being killed when the wait runs out."""
    registry, game = _slow_search(seed=8)
    bot = game.bot(1)
    assert isinstance(bot, ProcessBot)
    with limited(0.5, threading.Event()):
        command = bot.choose(game.view(1), game.legal_actions(1))
    assert command in game.legal_actions(1)
    worker = registry._bots_worker
    assert worker is not None
    worker.close()


def test_a_move_called_off_stops_the_worker_and_the_next_one_is_made() -> None:
    registry, game = _slow_search(seed=9)
    bot = game.bot(1)
    assert isinstance(bot, ProcessBot)
    stop = threading.Event()
    threading.Timer(0.5, stop.set).start()
    with limited(600.0, stop), pytest.raises(BotProcessError, match="called off"):
        bot.choose(game.view(1), game.legal_actions(1))
    with limited(0.3, threading.Event()):  # a new worker, with its bots made again
        assert bot.choose(game.view(1), game.legal_actions(1)) in game.legal_actions(1)
    worker = registry._bots_worker
    assert worker is not None
    worker.close()
