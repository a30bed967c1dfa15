"""A real ``cinco serve`` on 127.0.0.1 (a free port): two ``cinco join --bot`` clients play a
whole game; a person's client survives ``kill -9`` of the server and a restart on the same
database. Bounded: a few processes, each with a timeout.

Networked play: issue 12, docs/server.md.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from live_server import CINCO, Server, bot_clients, cinco, first_legal, play
from tmux_terminal import TMUX, Terminal

from cinco.core.engine.commands import Command
from cinco.core.engine.events import GameEnded, TurnEnded, event_from_dict
from cinco.core.table.protocol import Accepted, Refused, Submit
from cinco.frontends.net.client import Lobby, Session


def test_two_bot_clients_play_a_whole_game(server: Server, tmp_path: Path) -> None:
    created = cinco("table", "create", "--server", server.url, "--players", "2", "--json")
    assert created.returncode == 0, created.stderr
    table = json.loads(created.stdout)
    assert {"table", "code", "watch"} <= set(table)
    bots = bot_clients(server.url, table["code"])
    watcher = subprocess.Popen(
        [CINCO, "watch", server.url, table["watch"]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        outputs = [bot.communicate(timeout=60) for bot in bots]
        watched, _err = watcher.communicate(timeout=30)
    finally:
        for process in (*bots, watcher):
            process.kill()
    assert [bot.returncode for bot in bots] == [0, 0], outputs
    assert watcher.returncode == 0 and ("wins" in watched or "draw" in watched.lower())
    exported = cinco("table", "export", "--server", server.url, table["table"])
    assert exported.returncode == 0, exported.stderr
    record = tmp_path / "game.jsonl"
    record.write_text(exported.stdout)
    replayed = cinco("replay", str(record), "--json")
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["result"] is not None


def test_kill_9_and_restart_the_game_goes_on(server: Server) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "bots": {"2": "greedy"}})
    seat = lobby.join(table["code"], "Ann")
    session = Session(lobby, table=table["table"], token=seat["token"], seat=seat["seat"])
    session.connect()
    try:
        assert play(session, 3) == 3
        before = session.view.seq
        server.kill()  # mid-game: no goodbye
        server.start()  # the same database
        play(session, None)  # the client connects again by itself, after=SEQ
    finally:
        session.close()
    assert session.view.over and session.view.seq > before
    seqs = [envelope.seq for envelope in session.view.log]
    assert seqs == list(range(len(seqs)))
    lines = lobby.record(table["table"]).splitlines()[1:]
    referee = [event_from_dict(json.loads(line)) for line in lines]
    assert isinstance(referee[-1], GameEnded)
    assert [e.event for e in session.view.log] == [e.seen_by(seat["seat"]) for e in referee]


def _turns_of(lobby: Lobby, table: dict[str, str], seat: int, after: int) -> int:
    """How many turns the referee's record (the creator's to ask for) has *seat* end after
    event *after*."""
    lines = lobby.record(table["table"], table["owner"]).splitlines()[1:]
    events = [event_from_dict(json.loads(line)) for line in lines][after + 1 :]
    return sum(1 for event in events if isinstance(event, TurnEnded) and event.seat == seat)


def _ann_to_move(
    server: Server, settings: dict[str, object]
) -> tuple[Lobby, dict[str, str], Session, Command]:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "bots": {"2": "greedy"}, **settings})
    seat = lobby.join(table["code"], "Ann")
    session = Session(lobby, table=table["table"], token=seat["token"], seat=seat["seat"])
    session.connect()
    deadline = time.monotonic() + 30
    while (command := first_legal(session)) is None:
        assert time.monotonic() < deadline
        session.receive(timeout=0.5)
    return lobby, table, session, command


def test_a_move_made_while_the_server_was_away_is_sent_when_it_is_back(server: Server) -> None:
    lobby, table, session, command = _ann_to_move(server, {})
    try:
        before = session.view.seq
        server.kill()
        server.start()
        # Ann moves on the connection the server dropped: it is made again, the table is as
        # she saw it, so the move goes, once.
        answer = session.request(Submit(command))
        assert isinstance(answer, Accepted), answer
    finally:
        session.close()
    assert _turns_of(lobby, table, command.seat, before) == 1


def test_a_move_is_not_sent_again_if_the_table_moved_on_meanwhile(server: Server) -> None:
    # Two seconds, and thirty more after each turn: when they run out a bot plays one turn
    # for her, and her next turn has thirty seconds.
    lobby, table, session, command = _ann_to_move(server, {"timer": "2+30"})
    try:
        before = session.view.seq
        server.kill()
        server.start()
        time.sleep(5)  # her two seconds run out: a bot plays her turn before she is back
        answer = session.request(Submit(command))
        assert isinstance(answer, Refused) and answer.code == "connection_lost", answer
        assert session.view.seq > before  # the stream, resumed, shows what happened instead
    finally:
        session.close()
    assert _turns_of(lobby, table, command.seat, before) == 1  # the stand-in's only


def test_kill_9_keeps_the_turn_timers(server: Server) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "bots": {"2": "greedy"}, "timer": "600"})
    seat = lobby.join(table["code"], "Ann")
    session = Session(lobby, table=table["table"], token=seat["token"], seat=seat["seat"])
    session.connect()
    try:
        for _ in range(3):
            while first_legal(session) is None:  # Ann's turn: her clock runs
                session.receive(timeout=0.5)
            time.sleep(0.4)
            assert play(session, 1) == 1
        moved = session.view.clock
        while session.view.clock is moved or session.view.clock.running != seat["seat"]:
            session.receive(timeout=0.5)  # the bot has moved: Ann's turn began, and is stored
        spent = 600 - session.view.clock.remaining[seat["seat"]]
        assert spent >= 1.2
        server.kill()
        server.start()
        before = session.view.clock
        deadline = time.monotonic() + 30
        while session.view.clock is before:  # the client connects again by itself
            assert time.monotonic() < deadline
            session.receive(timeout=0.5)
        clock = session.view.clock
        assert clock is not None and clock.running == seat["seat"]
        # Not 600 again: what Ann had spent before the crash is still spent.
        assert clock.remaining[seat["seat"]] == pytest.approx(600 - spent, abs=0.3)
    finally:
        session.close()


def test_a_person_joins_in_the_terminal_and_leaves(server: Server, tmp_path: Path) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "bots": {"2": "greedy"}, "timer": "300+10"})
    person = subprocess.run(
        [str(CINCO), "join", server.url, table["code"], "--name", "Ann"],
        input="99\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "COLUMNS": "100"},
    )
    assert person.returncode == 0, person.stderr
    out = person.stdout
    assert "Ann's hand" in out and "You have no 99" in out  # the table's refusal, in words
    assert "q leave (you can rejoin)" in out and "save and quit" not in out
    # her hand is full (four cards): the keys offer an exchange, never a draw
    assert "x exchange" in out and "d draw" not in out
    assert re.search(r"Clocks: Ann [45]:\d\d ◀", out), out  # her clock runs, from 5:00
    assert "You left the table" in out and f"cinco join {server.url} {table['code']}" in out
    seats = json.loads((tmp_path / "data" / "cinco" / "seats.json").read_text())
    assert seats == {}  # leaving forgets the seat's token
    free = [t for t in lobby.tables() if t["table"] == table["table"]]
    assert free and free[0]["seats"][0]["free"] and free[0]["seats"][0]["name"] == "Ann"


def _clock_of(name: str, screen: str) -> int | None:
    """Seconds on *name*'s running clock (``Ann 4:52 ◀``) on *screen*, or ``None``."""
    found = re.search(rf"{name} (\d+):(\d\d) ◀", screen)
    return int(found[1]) * 60 + int(found[2]) if found else None


def _join_in_tmux(server: Server, code: str, tmp_path: Path) -> Terminal:
    """Ann's ``cinco join`` in a real terminal of its own (100 × 40)."""
    if TMUX is None:
        pytest.skip("tmux is not installed")
    terminal = Terminal(tmp_path / "tmux.sock")
    command = (
        f"env XDG_DATA_HOME={tmp_path / 'data'} TERM=xterm-256color "
        f"{CINCO} join {server.url} {code} --name Ann; sleep 60"
    )
    terminal.tmux("new-session", "-d", "-s", "game", "-x", "100", "-y", "40", command)
    return terminal


@pytest.mark.tmux
def test_a_move_typed_across_a_restart_is_played_once(server: Server, tmp_path: Path) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "bots": {"2": "greedy"}})
    terminal = _join_in_tmux(server, table["code"], tmp_path)
    try:
        screen = terminal.wait_for(lambda s: "Your move:" in s, "Ann's prompt")
        before = len(lobby.record(table["table"], table["owner"]).splitlines())
        server.kill()  # while she thinks: her client says so at once, no key typed
        terminal.wait_for(lambda s: "Connection lost: reconnecting…" in s, "the client saying so")
        server.start()
        terminal.keys("x")  # her hand is full: she exchanges it
        screen = terminal.wait_for(lambda s: "You exchanged your hand" in s, "her exchange")
        assert "connection to the server was lost" not in screen
    finally:
        subprocess.run([str(TMUX), "-S", str(terminal.socket), "kill-server"], check=False)
    assert _turns_of(lobby, table, 0, before - 2) == 1  # her exchange, once


@pytest.mark.tmux
def test_the_terminal_clocks_run_while_a_player_types_and_waits(
    server: Server, tmp_path: Path
) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "timer": "300"})
    terminal = _join_in_tmux(server, table["code"], tmp_path)
    bob = lobby.join(table["code"], "Bob")
    session = Session(lobby, table=table["table"], token=bob["token"], seat=bob["seat"])
    session.connect()
    try:
        deadline = time.monotonic() + 30
        while "Your move:" not in terminal.screen():  # whoever was dealt the first turn
            assert time.monotonic() < deadline, terminal.screen()
            if first_legal(session) is not None:
                play(session, 1)  # Bob begins: he moves, and it is Ann's turn
            session.receive(timeout=0.2)
        screen = terminal.wait_for(lambda s: "Your move:" in s, "Ann's prompt")
        start = _clock_of("Ann", screen)
        assert start is not None and start <= 300, screen
        terminal.tmux("send-keys", "-t", "game", "-l", "9")  # typed, Enter not pressed yet
        screen = terminal.wait_for(
            lambda s: (_clock_of("Ann", s) or 999) <= start - 2, "Ann's clock running"
        )
        assert screen.rstrip().endswith("Your move: 9"), screen  # what she typed is still there
        terminal.keys("9")  # 99: the server's refusal shows that the line came through whole
        terminal.wait_for(lambda s: "You have no 99" in s, "the refusal of 99")
        terminal.keys("x")  # her hand is full: she exchanges, and it is Bob's turn
        screen = terminal.wait_for(lambda s: _clock_of("Bob", s) is not None, "Bob's turn")
        waiting = _clock_of("Bob", screen)
        assert waiting is not None
        terminal.wait_for(  # Ann waits, and sees Bob's clock run
            lambda s: (_clock_of("Bob", s) or 999) <= waiting - 2, "Bob's clock running"
        )
    finally:
        session.close()
        subprocess.run([str(TMUX), "-S", str(terminal.socket), "kill-server"], check=False)
