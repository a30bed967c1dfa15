"""The Kivy app's "Play online" screen against a real ``cinco serve`` (run by
``test_kivy_online.py``, each scenario in a process of its own)::

    python tests/helpers/kivy_online_scenarios.py SCENARIO [SCREENSHOT_DIR]

The scenario starts its own server on 127.0.0.1 (a free port, ``--bot-delay 0``), drives the
app by taps through Kivy's input path (the helpers of ``kivy_scenarios.py``), and checks what
the server says: its exported record is a whole game, the one the app showed. It prints
``SCENARIO OK`` and ``TABLE <id> <url>`` lines, or exits non-zero with the failed check.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import kivy_scenarios as ks  # prepares Kivy's environment first
from kivy.clock import Clock
from live_server import CINCO, Server, free_port

from cinco.core.engine.events import GameEnded, Undone, event_from_dict
from cinco.frontends.kivy_app.app import CincoApp
from cinco.frontends.kivy_app.online import load_settings
from cinco.frontends.kivy_app.remote_session import RemoteSession
from cinco.frontends.net.client import Lobby
from cinco.frontends.options import PlayOptions

Step = Iterator[float | Callable[[], bool]]
check, tap, tap_at, shot = ks.check, ks.tap, ks.tap_at, ks.shot


def press(widget: Any) -> Step:
    """Scroll *widget* into view (a phone's form is longer than its screen), then tap it."""
    scroller = ks.scroller(widget)
    if scroller is not None:
        scroller.scroll_to(widget, padding=20, animate=False)
        yield 0.1
    tap(widget)
    yield 0.05


def remote(app: CincoApp) -> RemoteSession:
    session = app.session
    assert isinstance(session, RemoteSession), f"a server's game is shown, not {session!r}"
    return session


def my_turn(app: CincoApp) -> Callable[[], bool]:
    """The app waits for this device's player, or the game is over."""

    def ready() -> bool:
        session = app.session
        if not isinstance(session, RemoteSession) or not session.started:
            return False
        if session.is_over:
            return True
        return (
            app.manager.current == "game"
            and not app.manager.transition.is_active
            and app.my_turn()
            and ks.hand_laid_out(app)
            and bool(len(session.legal()))
        )

    return ready


def online_turn(app: CincoApp, rng: random.Random) -> Step:
    """One turn by taps; the board changes only when the server's events come back."""
    session = remote(app)
    screen = app.game_screen
    seat = session.seat
    assert seat is not None
    legal = session.legal()
    before = session.event_count
    check(ks.hand_cards(app) == sorted(session.view().hand(seat)), "the hand shown is mine")
    check(screen.ids.draw_button.disabled == (not legal.can_draw), "Draw enabled iff prompted")
    check(
        screen.ids.exchange_button.disabled == (not legal.can_exchange),
        "Exchange enabled iff prompted",
    )
    # Why Draw or Exchange is greyed out: the server's words, asked at the prompt.
    yield (
        lambda: (
            (legal.can_draw or bool(session.draw_refusal()))
            and (legal.can_exchange or bool(session.exchange_refusal()))
        )
    )
    yield 0.05
    for refusal in (session.draw_refusal(), session.exchange_refusal()):
        if refusal:
            check(refusal in screen.reason, f"the server's reason {refusal!r} is shown")
    plays = list(legal.plays)
    if plays:
        card, spaces = rng.choice(plays)
        tap(screen.card_button(card))
        # A tap is handled on a later frame, and a frame of a 2048×1536 window drawn in
        # software on a loaded machine can take longer than a fixed wait.
        yield lambda: app.selected == card
        yield 0.05
        check(app.selected == card, f"card {card} is selected")
        check(sorted(screen.ids.board.legal) == sorted(spaces), f"lit: the prompt's for {card}")
        board = screen.ids.board
        if spaces:
            space = rng.choice(spaces)
            tap_at(*board.to_window(*board.space_centre(space)))
            yield 0.05
            check(session.event_count == before, "a first tap plays nothing")
            tap(screen.ids.confirm_button)
            yield lambda: session.event_count > before
            yield lambda: session.public_view.board[space] == session.config.team_of(seat)
        else:
            tap(screen.ids.burn_button)
            yield lambda: session.event_count > before
    elif legal.can_draw:
        tap(screen.ids.draw_button)
        yield lambda: session.event_count > before
    else:
        tap(screen.ids.exchange_button)
        yield lambda: session.event_count > before


def play_online_to_end(app: CincoApp, rng: random.Random, turns: int | None = None) -> Step:
    """Play this device's seat by taps until the game ends (or for *turns* turns)."""
    made = 0
    while turns is None or made < turns:
        yield my_turn(app)
        if remote(app).is_over:
            return
        yield from online_turn(app, rng)
        made += 1
    return


def refused_tap(app: CincoApp) -> Step:
    """A tap on a space the card may not go on: the server's reason, in words."""
    session = remote(app)
    screen = app.game_screen
    legal = session.legal()
    plays = [(card, spaces) for card, spaces in legal.plays if spaces]
    if not plays:
        return
    card, spaces = max(plays)
    wrong = next(space for space in range(1, 91) if space not in spaces)
    before = session.event_count
    tap(screen.card_button(card))
    yield 0.05
    board = screen.ids.board
    tap_at(*board.to_window(*board.space_centre(wrong)))
    yield lambda: bool(app.message)
    yield 0.05
    check(app.message in screen.reason, "the server's reason is on the screen")
    check(session.event_count == before, "nothing was played")
    print("refused:", screen.reason, flush=True)
    tap(screen.card_button(card))  # unselect
    yield 0.05


def undo_once(app: CincoApp, rng: random.Random) -> Step:
    """Play until the server allows Undo (after a play, the bot's reply came and showed no
    card: a draw or an exchange), then tap it: the server's ``undone`` event takes back the
    play and the reply. While the bot's replies show cards, Undo stays off."""
    session = remote(app)
    for _turn in range(12):
        yield my_turn(app)
        if session.is_over:
            return
        deadline = time.monotonic() + 3
        yield lambda deadline=deadline: session.can_undo or time.monotonic() > deadline
        if session.can_undo:
            break
        check(app.game_screen.ids.undo_button.disabled, "Undo is off while it would show a card")
        yield from online_turn(app, rng)
    else:
        print("undo: never allowed, the bot's replies showed cards", flush=True)
        return
    yield 0.1
    check(not app.game_screen.ids.undo_button.disabled, "Undo is offered")
    board, before = list(session.view().board), session.event_count
    tap(app.game_screen.ids.undo_button)
    yield lambda: session.event_count > before and my_turn(app)()
    came = session.events[before:]
    check(any(isinstance(e, Undone) for e in came), f"the server sent an undone event: {came}")
    check(list(session.view().board) != board, "the board went back")
    print("undone:", session.log()[-1], flush=True)


def open_online(app: CincoApp) -> Step:
    yield ks.settled(app)
    yield from press(app.start_screen.ids.online_button)
    yield lambda: app.manager.current == "online" and not app.manager.transition.is_active


def check_record(app: CincoApp, url: str) -> None:
    """The server's exported record is a whole game, and the one this device was shown."""
    session = remote(app)
    assert session.table is not None and session.seat is not None
    lines = Lobby(url).record(session.table).splitlines()[1:]
    referee = [event_from_dict(json.loads(line)) for line in lines]
    check(isinstance(referee[-1], GameEnded), "the exported record ends with the game's end")
    seen = [envelope.event for envelope in session.remote.log]
    check(seen == [e.seen_by(session.seat) for e in referee], "the app saw the whole game")
    seqs = [envelope.seq for envelope in session.remote.log]
    check(seqs == list(range(len(seqs))), "every event once, in order")
    print(f"TABLE {session.table} {url} events={len(referee)}", flush=True)


# -- scenarios --------------------------------------------------------------------------------


def against_a_bot(app: CincoApp, folder: Path | None, work: Path) -> Step:
    """Create a table with a server-side bot by touch; an unreachable server says so; the
    game plays to its end by taps; the server is killed mid-game and started again: the app
    says "Reconnecting…" and carries on; the record exported from the server matches."""
    server = Server(work / "server.db", log=work / "server.log")
    server.start()
    try:
        yield from open_online(app)
        screen = app.online_screen
        ids = screen.ids
        # Nobody at that port: a clear message, on the screen.
        ids.server.text = f"127.0.0.1:{free_port()}"
        ids.name.text = "Ann"
        yield from press(ids.create_button)
        yield lambda: bool(screen.problem)
        check("Cannot reach a Cinco server" in screen.problem, f"unreachable: {screen.problem}")
        print("unreachable:", screen.problem, flush=True)
        ids.server.text = server.url
        check(len(screen.seat_rows) == 2, "two seats by default")
        bot_row = screen.seat_rows[1]
        check(screen.row_bot(bot_row) == "greedy", "the other seat is a bot")
        check(bot_row.levels == list(app.registry.bots()["greedy"].levels), "its levels")
        yield 0.3
        shot(app, folder, "online-create.png")
        yield from press(ids.create_button)
        yield lambda: app.manager.current == "game" and isinstance(app.session, RemoteSession)
        yield my_turn(app)
        session = remote(app)
        check(session.config.seats[0].name == "Ann", "seat 1 is mine, by my name")
        check(session.config.seats[1].bot == "greedy", "seat 2 is the server's greedy bot")
        check(load_settings().get("server") == server.url, "the address is remembered")
        check(app.manager.current == "game", "no privacy screen with one seat here")
        yield 0.3
        shot(app, folder, "online-playing.png")
        yield from refused_tap(app)
        rng = random.Random(7)
        yield from play_online_to_end(app, rng, turns=3)
        check(not session.is_over, "still playing after three turns")
        server.kill()
        yield lambda: session.banner() == "Reconnecting…"
        yield 0.2
        check(app.game_screen.status == "Reconnecting…", "the game screen says so")
        events = session.event_count
        if session.legal().can_draw or session.legal().can_exchange:
            button = app.game_screen.ids
            tap(button.draw_button if session.legal().can_draw else button.exchange_button)
            yield lambda: bool(app.message)
            check("connection" in app.message, f"nothing is sent meanwhile: {app.message}")
            check(session.event_count == events, "and nothing changed")
        shot(app, folder, "online-reconnecting.png")
        server.start()  # the same database: the table resumes
        yield lambda: session.link == "online"
        yield from undo_once(app, rng)
        yield from play_online_to_end(app, rng)
        yield lambda: app.manager.current == "over"
        check(app.over_screen.result == session.result(), "the result is shown")
        check_record(app, server.url)
        shot(app, folder, "online-over.png")
        # Rematch: the server's rematch of the table, the same seat; its bot is there already.
        tap(app.over_screen.ids.rematch_button)
        yield lambda: app.session is not session and my_turn(app)()
        again = remote(app)
        check(again.table != session.table and again.seat == session.seat, "a rematch table")
        check(again.config.seats[1].bot == "greedy" and not again.is_over, "with its bot")
    finally:
        server.stop()


def against_a_terminal_bot(app: CincoApp, folder: Path | None, work: Path) -> Step:
    """Create a table with a free seat: the codes are shown large; a ``cinco join --bot``
    client in its own process takes the seat with the invite code read off the screen; the
    game starts on its own and the two play a whole game."""
    server = Server(work / "server.db", log=work / "server.log")
    server.start()
    client: subprocess.Popen[str] | None = None
    try:
        yield from open_online(app)
        screen = app.online_screen
        ids = screen.ids
        ids.server.text = server.url
        ids.name.text = "Zoe"
        row = screen.seat_rows[1]
        row.ids.kind.text = row.kinds[0]  # a person: a friend joins with the code
        # A turn timer (both clients show the clocks), the longer one: on a loaded machine
        # this device's taps can be slow enough to run out of three minutes.
        ids.timer.text = ids.timer.values[2]
        yield 0.3
        shot(app, folder, "online-form.png")
        yield from press(ids.create_button)
        yield lambda: screen.phase == "waiting" and bool(screen.invite_code)
        code = ids.invite_label.text
        check(code == screen.invite_code and len(code) >= 12, f"the invite code shows: {code}")
        check(ids.watch_label.text == screen.watch_code, "the watch code shows")
        yield lambda: "Waiting for 1 more" in screen.waiting_text
        yield 0.3
        shot(app, folder, "online-codes.png")
        client = subprocess.Popen(
            [CINCO, "join", server.url, code, "--bot", "greedy", "--name", "Gus"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "XDG_DATA_HOME": str(work / "client-data")},
        )
        yield lambda: app.manager.current == "game" and isinstance(app.session, RemoteSession)
        session = remote(app)
        check([s.name for s in session.config.seats] == ["Zoe", "Gus"], "Zoe and Gus play")
        check(not session.config.seats[1].is_bot, "Gus is a client, not a server's bot")
        rows = list(reversed(app.game_screen.ids.players.children))
        clock = re.compile(r" · (10|9):\d\d$")
        yield lambda: all(clock.search(row.detail) for row in rows)
        print("clocks:", [row.detail for row in rows], flush=True)
        yield my_turn(app)
        yield 0.3
        shot(app, folder, "online-playing-tablet.png")
        yield from play_online_to_end(app, random.Random(3))
        yield lambda: app.manager.current == "over"
        out, err = client.communicate(timeout=60)
        check(client.returncode == 0, f"the terminal bot ended well: {out} {err}")
        check_record(app, server.url)
        check(Lobby(server.url).table(session.table or "")["state"] == "over", "it is over")
        # Watch with the watch code: the same game as a spectator sees it, no hand shown.
        watch = screen.watch_code
        app.show_start()
        yield from open_online(app)
        check(ids.server.text == server.url, "the address is still there")
        ids.watch_code.text = watch
        yield from press(ids.watch_button)
        yield lambda: app.session is not session and app.manager.current == "over"
        spectator = remote(app)
        check(spectator.seat is None and spectator.humans == (), "a spectator has no seat")
        check(spectator.result() == session.result(), "the spectator sees the same result")
        check(spectator.event_count == session.event_count, "and every event")
        check(not app.game_screen.ids.hand.children, "no hand on the spectator's screen")
        check(session.link == "closed", "the finished seat's connection is closed")
    finally:
        if client is not None and client.poll() is None:
            client.kill()
        server.stop()


#: Seconds a step may wait. Tablet-sized frames drawn in software beside the rest of the
#: suite on two cores have taken a minute for a single turn.
STEP_TIMEOUT = 3 * ks.TIMEOUT


def state(app: CincoApp) -> str:
    """What the app knew of the game when a step timed out."""
    session = app.session
    if not isinstance(session, RemoteSession):
        return f"screen {app.manager.current}, no online game"
    log = session.log()[-3:] if session.started else []
    return (
        f"screen {app.manager.current}, events {session.event_count}, "
        f"my turn {app.my_turn()}, over {session.is_over}, last: {log}"
    )


SCENARIOS: dict[str, Callable[[CincoApp, Path | None, Path], Step]] = {
    "against_a_bot": against_a_bot,
    "against_a_terminal_bot": against_a_terminal_bot,
}


def run(name: str, folder: Path | None) -> int:
    work = Path(os.environ["CINCO_DATA_DIR"])
    app = CincoApp(PlayOptions())
    outcome: dict[str, Any] = {"error": None}
    steps = SCENARIOS[name](app, folder, work)

    def advance(_dt: float = 0.0) -> None:
        try:
            item = next(steps)
        except StopIteration:
            app.stop()
            return
        except Exception:
            outcome["error"] = traceback.format_exc()
            app.stop()
            return
        if callable(item):
            wait_for(item, time.monotonic() + STEP_TIMEOUT)
        else:
            Clock.schedule_once(advance, item)

    def wait_for(predicate: Callable[[], bool], deadline: float) -> None:
        def poll(_dt: float) -> None:
            try:
                ready = predicate()
            except Exception:
                outcome["error"] = traceback.format_exc()
                app.stop()
                return
            if ready:
                Clock.schedule_once(advance, 0)
            elif time.monotonic() > deadline:
                outcome["error"] = f"timed out waiting in {name}:\n{ks.where(steps)}\n{state(app)}"
                app.stop()
            else:
                Clock.schedule_once(poll, 0.02)

        Clock.schedule_once(poll, 0)

    Clock.schedule_once(advance, 0.5)
    try:
        app.run()
    except Exception:  # Kivy's own stderr is quiet: say what broke
        outcome["error"] = traceback.format_exc()
    finally:
        steps.close()  # stops the servers it started
    if outcome["error"]:
        print(outcome["error"], file=sys.__stderr__, flush=True)
        return 1
    print(f"{name} OK", file=sys.__stdout__, flush=True)
    return 0


if __name__ == "__main__":
    shots = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    sys.exit(run(sys.argv[1], shots))
