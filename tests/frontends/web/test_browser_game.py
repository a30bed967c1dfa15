"""A whole game in real browsers (issue 24's "done when"): two people, each in a browser page
of their own, and a ``cinco join --bot`` client play a table to its end on a live
``cinco serve``; a third page watches. The people's moves are made as a person makes them:
a card, then a space the page marks legal; Draw or Exchange when no card has one. One player
reloads the page mid-game and carries on in the same seat (the token from the browser's
storage, never from the address). The exported record loads and is a legal finished game.
"""

from __future__ import annotations

import random
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urljoin

import pytest
from browser import Tab, create_table, take_seat
from live_server import CINCO, cinco

from cinco.core.engine.events import GameEnded
from cinco.core.records.record import load_record
from cinco.frontends.net.client import Lobby

if TYPE_CHECKING:
    from live_server import Server
    from playwright.sync_api import Browser

pytest.importorskip("uvicorn")

#: The whole game, moves and waits, is over well within this (a bounded loop, not a timing).
GAME_SECONDS = 150


def stored_values(tab: Tab) -> list[str]:
    values: list[str] = tab.page.evaluate(
        "() => Object.keys(localStorage).map((key) => localStorage.getItem(key))"
    )
    return values


def assert_no_hand(spectator: Tab) -> None:
    """A spectator's page has no hand, nor anything a seat does with one."""
    for part in ("hand", "draw", "exchange", "burn", "rematch"):
        assert spectator.page.locator(f"[data-testid={part}]").count() == 0, part
    assert spectator.page.locator("[data-card]").count() == 0


def test_two_pages_and_a_bot_client_play_to_the_end_watched_and_reloaded(
    browser: Browser, server: Server, tmp_path: Path
) -> None:
    rng = random.Random(24)
    ann = Tab(browser, server.url + "/", name="Ann")
    made = create_table(ann, ["person", "person", "person"], "Ann")
    assert sorted(made["invites"]) == [1, 2]
    (table,) = [entry["table"] for entry in Lobby(server.url).tables()]

    bob = Tab(browser, made["invites"][1], name="Bob")
    take_seat(bob, "Bob")
    bot_log = tmp_path / "bot.log"
    with bot_log.open("w") as out:  # a file, not a pipe: a full pipe would stop the bot
        bot = subprocess.Popen(
            [CINCO, "join", server.url, made["invites"][2].rsplit("/", 1)[1], "--bot", "greedy"],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    watcher = Tab(browser, urljoin(server.url, made["watch"]), name="watcher")
    try:
        moves = {"Ann": 0, "Bob": 0}
        reloaded = False
        deadline = time.monotonic() + GAME_SECONDS
        while not {ann.state(), bob.state()} <= {"over"}:
            assert time.monotonic() < deadline, (ann.state(), bob.state(), moves)
            assert_no_hand(watcher)
            moved = False
            for tab in (ann, bob):
                if tab.state() == "your-turn":
                    tab.play_one(rng)
                    moves[tab.name] += 1
                    moved = True
            if not reloaded and moves["Bob"] >= 3 and bob.state() == "waiting":
                hand = bob.hand()
                bob.page.reload()
                assert bob.wait_state("your-turn", "waiting", "over") != ""
                # the same seat, from the token in the browser's storage, not the address
                assert sorted(bob.hand()) == sorted(hand)
                (token,) = set(bob.socket_tokens())  # the seat's, offered as a subprotocol
                assert any(token in value for value in stored_values(bob))
                assert token not in bob.page.url and "token" not in bob.page.url.lower()
                reloaded = True
            if not moved:
                ann.page.wait_for_timeout(50)
        assert reloaded, "the game ended before Bob's third move"
        for tab in (ann, bob, watcher):
            tab.page.wait_for_selector("[data-testid=result]", state="visible")
            assert tab.page.locator("[data-testid=result]").first.inner_text().strip()
        for tab in (ann, bob):
            tab.page.wait_for_selector("[data-testid=rematch]", state="visible")
        assert_no_hand(watcher)
        # the spectator followed the game: the same board as the players'
        watcher.page.wait_for_function(
            "(n) => document.querySelectorAll('[data-testid=board] [data-team]').length === n",
            arg=len(ann.tokens()),
            timeout=10_000,
        )
        assert watcher.tokens() == ann.tokens() == bob.tokens()
        assert watcher.page.locator("[data-testid=log] > *").count() > 0
        assert bot.wait(timeout=30) == 0, bot_log.read_text()
        for tab in (ann, bob, watcher):
            assert tab.errors == [], (tab.name, tab.errors)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait(10)
        for tab in (ann, bob, watcher):
            tab.close()

    exported = cinco("table", "export", "--server", server.url, table)
    assert exported.returncode == 0, exported.stderr
    path = tmp_path / "game.jsonl"
    path.write_text(exported.stdout)
    record = load_record(path)  # replays every move against the rules
    assert isinstance(record.events[-1], GameEnded)
    assert not record.truncated
    assert moves["Ann"] > 0 and moves["Bob"] > 0
