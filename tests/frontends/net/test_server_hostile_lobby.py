"""The lobby against hostile or careless clients, on a real server on 127.0.0.1: every wrong
option of a new table is a ``400`` naming its field, a deep body a ``400``, a 20 MB body a
``413`` (never a reset), no body gives a bare ``500``; codes are read without dashes and in
any case; names at a table are unique; a token revoked while its handshake waits is refused
when the connection is bound to its seat; ``cinco join`` waits for a server that is not up
yet, a killed bot client takes its seat back, and two people on one computer account hold
two seats.

Issue 23; docs/server.md (the lobby API, the security model).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

import uvicorn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from live_server import CINCO, Server, first_legal, free_port, play
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from cinco import hookimpl
from cinco.core.host.declarations import BotSpec
from cinco.core.host.registry import Registry
from cinco.core.table.protocol import Submit
from cinco.frontends.net.app import create_app
from cinco.frontends.net.client import Lobby, NetError, Session
from cinco.frontends.net.lobby import MAX_BODY, MAX_DEPTH
from cinco.frontends.net.service import TableService

URL_TIMEOUT = 30.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("lobby")
    running = Server(
        folder / "server.db", free_port(), folder / "server.log", ("--lobby-rate", "0")
    )
    running.start()
    try:
        yield running
    finally:
        running.stop()


def post(url: str, body: bytes, *, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """POST *body* with the standard library (sending all of it before reading, as most
    clients do): the status and the answer's JSON (``None`` if it is not JSON)."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, data=body, method="POST", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=URL_TIMEOUT) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as exc:
        status, raw = exc.code, exc.read()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, None


def create(server: Server, body: object) -> tuple[int, Any]:
    return post(server.url + "/api/tables", json.dumps(body).encode())


# -- the options of a new table ------------------------------------------------------------------

BAD_OPTIONS: list[tuple[dict[str, Any], str]] = [
    ({"stand_in": "greedy:zzz"}, "stand_in"),
    ({"stand_in": "ismcts:impossible"}, "stand_in"),
    ({"stand_in": "nobody"}, "stand_in"),
    ({"variants": ["joker", "joker"]}, "variants"),
    ({"variants": ["no-such-variant"]}, "variants"),
    ({"variants": "joker"}, "variants"),
    ({"timer": "0.001+0"}, "timer"),
    ({"timer": {"reserve": 0.5, "increment": 0}}, "timer"),
    ({"timer": {"reserve": 60, "bonus": 5}}, "timer"),
    ({"undo": "no"}, "undo"),
    ({"undo": 0}, "undo"),
    ({"undo": None}, "undo"),
    ({"players": "2"}, "players"),
    ({"players": 5}, "players"),
    ({"players": True}, "players"),
    ({"layout": "9x9"}, "layout"),
    ({"layout": 3}, "layout"),
    ({"bots": {"2": "greedy:zzz"}}, "bots"),
    ({"bots": {"2": "nobody"}}, "bots"),
    ({"bots": {"3": "greedy"}}, "bots"),
    ({"bots": {"two": "greedy"}}, "bots"),
    ({"bots": {"2": "greedy", "02": "random"}}, "bots"),
    ({"bots": ["greedy"]}, "bots"),
    ({"names": {"1": "Ann"}}, "names"),
    ({"bots": {"2": "greedy"}, "names": {"2": 7}}, "names"),
    (
        {"players": 3, "bots": {"2": "greedy", "3": "random"}, "names": {"2": "X", "3": "x"}},
        "names",
    ),
    ({"grace": -1}, "grace"),
    ({"grace": "soon"}, "grace"),
    ({"grace": True}, "grace"),
    ({"grace": "__1e400__"}, "grace"),  # a number too big for a float: infinite
    ({"undoo": False}, "undoo"),
]


@pytest.mark.parametrize(("option", "field"), BAD_OPTIONS, ids=[f for _o, f in BAD_OPTIONS])
def test_every_bad_option_is_refused_naming_its_field(
    server: Server, option: dict[str, Any], field: str
) -> None:
    body = {"players": 2, **option}
    text = json.dumps(body).replace('"__1e400__"', "1e400")
    status, answer = post(server.url + "/api/tables", text.encode())
    assert status == 400, (option, answer)
    assert answer["error"] == "bad_request" and answer["field"] == field, answer
    assert field in answer["message"], answer


def test_good_options_are_kept_as_given(server: Server) -> None:
    body = {
        "players": 2,
        "variants": ["joker"],
        "bots": {"2": "ismcts:easy"},
        "undo": False,
        "timer": "1+0",
        "grace": 0,
        "stand_in": "ismcts:hard",
    }
    status, created = create(server, body)
    assert status == 201, created
    summary = Lobby(server.url).table(created["table"])
    assert summary["variants"] == ["joker"] and summary["grace"] == 0
    assert summary["timer"] == {"reserve": 1.0, "increment": 0.0}
    assert summary["seats"][1]["bot"] == "ismcts" and summary["seats"][1]["level"] == "easy"


# -- bodies --------------------------------------------------------------------------------------


def test_a_deeply_nested_body_is_a_400(server: Server) -> None:
    for deep in (b"[" * 5000 + b"]" * 5000, b'{"players": ' + b"[" * 40 + b"]" * 40 + b"}"):
        status, answer = post(server.url + "/api/tables", deep)
        assert status == 400 and answer["error"] == "bad_request", answer
        assert str(MAX_DEPTH) in answer["message"]
    status, answer = post(server.url + "/api/join", b'{"code": ' + b"[" * 3000 + b"]" * 3000 + b"}")
    assert status == 400 and answer["error"] == "bad_request", answer


def test_a_20_mb_body_is_a_413_not_a_reset(server: Server) -> None:
    big = b'{"players": 2, "names": "' + b"x" * 20_000_000 + b'"}'
    for path in ("/api/tables", "/api/join", "/api/tables/nope/leave"):
        status, answer = post(server.url + path, big)  # Content-Length says it up front
        assert status == 413 and answer["error"] == "too_big", (path, answer)

    def chunks() -> Iterator[bytes]:  # no Content-Length: found while reading
        for _ in range(200):
            yield b"x" * 100_000

    with socket.create_connection(("127.0.0.1", server.port), timeout=URL_TIMEOUT) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        for chunk in chunks():
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        sock.sendall(b"0\r\n\r\n")
        answer = b""
        while b"too_big" not in answer:
            more = sock.recv(65536)
            assert more, answer
            answer += more
    assert answer.startswith(b"HTTP/1.1 413")
    assert create(server, {"players": 2})[0] == 201  # and the server carries on


def test_a_body_of_the_limit_is_read_and_one_byte_more_is_not(server: Server) -> None:
    start = b'{"players": 2, "undo": true'
    body = start + b" " * (MAX_BODY - len(start) - 1) + b"}"
    assert len(body) == MAX_BODY
    assert post(server.url + "/api/tables", body)[0] == 201
    status, answer = post(server.url + "/api/tables", body[:-1] + b" }")
    assert status == 413 and answer["error"] == "too_big"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
option_values = st.fixed_dictionaries(
    {},
    optional={
        "players": json_values | st.sampled_from([2, 3, 4, 6]),
        "variants": json_values | st.just(["joker"]),
        "bots": json_values | st.just({"2": "greedy"}),
        "undo": json_values,
        "timer": json_values | st.sampled_from(["60+1", "0+0", "1e999"]),
        "grace": json_values,
        "stand_in": json_values | st.sampled_from(["greedy", "ismcts:easy", "ismcts:"]),
        "layout": json_values | st.just("2x2"),
        "names": json_values,
    },
)
bodies = (
    option_values.map(lambda body: json.dumps(body).encode())
    | json_values.map(lambda value: json.dumps(value).encode())
    | st.binary(max_size=64)
    | st.tuples(st.integers(1, 6000), st.sampled_from([b"[", b'{"a":', b'{"bots":['])).map(
        lambda deep: deep[1] * deep[0]  # nested past any recursion limit, closed or not
    )
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=bodies)
def test_no_body_gives_a_bare_500(server: Server, body: bytes) -> None:
    for path in ("/api/tables", "/api/join"):
        status, answer = post(server.url + path, body)
        assert status in (200, 201, 400, 404, 409, 413), (path, body, status, answer)
        assert isinstance(answer, dict), (path, body, answer)
        if status >= 400:
            assert isinstance(answer.get("error"), str) and answer.get("message"), answer


def test_unknown_routes_and_methods_answer_json(server: Server) -> None:
    import urllib.error
    import urllib.request

    for method, path, status in (("GET", "/nothing", 404), ("DELETE", "/api/tables", 405)):
        request = urllib.request.Request(server.url + path, method=method)
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(request, timeout=URL_TIMEOUT)
        assert caught.value.code == status
        assert json.loads(caught.value.read())["error"] in ("no_such_route", "method_not_allowed")


# -- codes and names -----------------------------------------------------------------------


def test_codes_are_read_without_dashes_and_in_any_case(server: Server) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2, "bots": {"2": "greedy"}})
    typed = table["code"].replace("-", "").lower()
    seat = lobby.join(typed, "Ann")
    assert seat["table"] == table["table"] and seat["seat"] == 0
    watch_code = " ".join(table["watch"].replace("-", "").lower())
    watcher = Session(lobby, watch=watch_code)
    watcher.connect()
    try:
        deadline = time.monotonic() + URL_TIMEOUT
        while watcher.view.state is None:
            assert time.monotonic() < deadline
            watcher.receive(timeout=0.5)
    finally:
        watcher.close()


def test_bad_join_fields_are_refused_naming_them(server: Server) -> None:
    table = Lobby(server.url).create({"players": 2})
    code = table["code"]
    for body, field in (
        ({"code": 5}, "code"),
        ({"code": code, "name": 5}, "name"),
        ({"code": code, "name": ["Ann"]}, "name"),
        ({"code": code, "seat": 9}, "seat"),
        ({"code": code, "seat": "1"}, "seat"),
        ({"code": code, "seat": True}, "seat"),
        ({"code": code, "nmae": "Ann"}, "nmae"),
    ):
        status, answer = post(server.url + "/api/join", json.dumps(body).encode())
        assert status == 400 and answer["field"] == field, (body, answer)
    seats = Lobby(server.url).table(table["table"])["seats"]
    assert all(seat["free"] for seat in seats)  # the refused joins took nothing


def test_names_at_a_table_are_unique(server: Server) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 3, "bots": {"3": "greedy"}})
    ann = lobby.join(table["code"], "Ann")
    for taken in ("Ann", " ann ", "ANN", "Greedy 3"):
        with pytest.raises(NetError) as caught:
            lobby.join(table["code"], taken)
        assert caught.value.status == 409 and caught.value.code == "name_taken", taken
    # Ann coming back with her own token is no duplicate: the seat, a new token.
    again = lobby.rejoin(table["table"], ann["token"])
    assert again["seat"] == 0 and again["name"] == "Ann"
    # Nameless people are numbered apart from anyone who chose a number for a name.
    odd = Lobby(server.url).create({"players": 3, "bots": {"3": "greedy"}})
    assert lobby.join(odd["code"], "Player 2")["seat"] == 0
    second = lobby.join(odd["code"])
    assert second["seat"] == 1 and second["name"] != "Player 2"


# -- a token revoked while its handshake waits ---------------------------------------------


class ThreadServer:
    """The server's app under uvicorn in a thread of this process, on 127.0.0.1: a real
    server whose tables' locks the test can hold."""

    def __init__(self, db: Path, registry: Registry | None = None) -> None:
        self.app = create_app(db, lobby_rate=0, registry=registry)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, ws="websockets-sansio", log_level="warning"
        )
        self.uvicorn = uvicorn.Server(config)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(
            target=self.loop.run_until_complete, args=(self.uvicorn.serve(),), daemon=True
        )

    @property
    def service(self) -> TableService:
        service: TableService = self.app.state.service
        return service

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + URL_TIMEOUT
        while not self.uvicorn.started:
            assert time.monotonic() < deadline and self.thread.is_alive()
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.uvicorn.should_exit = True
        self.thread.join(URL_TIMEOUT)


class OddBots:
    """A plugin whose bot has no list of levels (``None``): the lobby trips over it."""

    @hookimpl
    def cinco_register_bots(self) -> list[BotSpec]:
        odd = BotSpec("odd", "levels of None", create=lambda context: None, levels=None)  # type: ignore[arg-type, return-value]
        return [odd]


def test_an_unforeseen_failure_is_a_logged_json_500(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    registry = Registry(entry_points=False, plugins=[OddBots()])
    with ThreadServer(tmp_path / "server.db", registry) as served:
        body = json.dumps({"players": 2, "bots": {"2": "odd:fast"}}).encode()
        with caplog.at_level(logging.ERROR, logger="cinco.server"):
            status, answer = post(served.url + "/api/tables", body)
        assert status == 500 and answer is not None, "a bare 500"
        assert answer["error"] == "internal_error", answer
        assert any(record.exc_info for record in caplog.records), caplog.text
        assert post(served.url + "/api/tables", b'{"players": 2}')[0] == 201  # it carries on


def _waiting(lock: asyncio.Lock) -> int:
    return sum(1 for waiter in lock._waiters or () if not waiter.done())


def test_a_token_revoked_while_the_handshake_waits_is_refused(tmp_path: Path) -> None:
    with ThreadServer(tmp_path / "server.db") as served:
        lobby = Lobby(served.url)
        table = lobby.create({"players": 2})
        ann = lobby.join(table["code"], "Ann")
        bob = lobby.join(table["code"], "Bob")
        hosted = served.service.tables[table["table"]]
        asyncio.run_coroutine_threadsafe(hosted.lock.acquire(), served.loop).result(URL_TIMEOUT)
        outcome: dict[str, object] = {}

        def handshake() -> None:
            try:
                ws = connect(
                    lobby.ws_url(f"/ws/tables/{table['table']}"),
                    additional_headers={"Authorization": f"Bearer {bob['token']}"},
                    open_timeout=URL_TIMEOUT,
                )
            except InvalidStatus as exc:
                outcome["status"] = exc.response.status_code
                return
            ws.send(json.dumps({"type": "subscribe", "v": 2, "after": -1}))
            outcome["first"] = json.loads(ws.recv(timeout=URL_TIMEOUT))
            ws.close()

        def leave() -> None:
            outcome["left"] = lobby.leave(table["table"], bob["token"])

        shaking = threading.Thread(target=handshake)
        shaking.start()
        deadline = time.monotonic() + URL_TIMEOUT
        while _waiting(hosted.lock) < 1:  # the handshake checked the token and waits
            assert time.monotonic() < deadline
            time.sleep(0.01)
        leaving = threading.Thread(target=leave)
        leaving.start()
        while _waiting(hosted.lock) < 2:  # the leave waits behind it
            assert time.monotonic() < deadline
            time.sleep(0.01)
        served.loop.call_soon_threadsafe(hosted.lock.release)
        shaking.join(URL_TIMEOUT)
        leaving.join(URL_TIMEOUT)
        assert outcome.get("left") == {"table": table["table"], "left": 1}
        assert outcome.get("status") == 403, outcome  # not bound: no seat, no move
        assert hosted.seats[1].token_hash is None and not hosted.connected(1)
        assert ann["seat"] == 0 and hosted.seats[0].token_hash is not None


# -- the clients ---------------------------------------------------------------------------


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "COLUMNS": "100"}


def _seat_taken(lobby: Lobby, table: str, seat: int, timeout: float = URL_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while lobby.table(table)["seats"][seat]["free"]:
        assert time.monotonic() < deadline, lobby.table(table)
        time.sleep(0.1)


def test_join_waits_for_a_server_that_is_not_up_yet(tmp_path: Path) -> None:
    server = Server(tmp_path / "server.db", free_port(), tmp_path / "server.log")
    server.start()
    table = Lobby(server.url).create({"players": 2, "bots": {"2": "greedy"}})
    server.stop()
    client = subprocess.Popen(
        [CINCO, "join", server.url, table["code"], "--bot", "random", "--wait", "60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=_env(tmp_path),
    )
    try:
        assert client.stdout is not None
        first = client.stdout.readline()
        assert "not reachable" in first and "trying again in" in first, first
        server.start()  # a few seconds late
        out, _err = client.communicate(timeout=120)
        assert client.returncode == 0, first + out
        assert "wins" in out or "draw" in out.lower(), out
    finally:
        if client.poll() is None:
            client.kill()
        server.stop()


def test_join_gives_up_after_its_wait_with_a_clear_message(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    started = time.monotonic()
    done = subprocess.run(
        [CINCO, "join", url, "ABCD-EFGH-JKMN", "--bot", "random", "--wait", "2"],
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(tmp_path),
        check=False,
    )
    assert done.returncode == 1
    assert "could not be reached for 2 s" in done.stderr, done.stderr
    assert "trying again" in done.stdout
    assert time.monotonic() - started < 60


def test_a_killed_bot_client_run_again_takes_its_seat_back(server: Server, tmp_path: Path) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 2})
    command = [CINCO, "join", server.url, table["code"], "--bot", "random", "--name", "Rita"]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=_env(tmp_path))
    try:
        _seat_taken(lobby, table["table"], 0)
        me = lobby.join(table["code"], "Ann")  # the game starts
        session = Session(lobby, table=me["table"], token=me["token"], seat=me["seat"])
        session.connect()
        play(session, 2)
        first.send_signal(signal.SIGKILL)
        first.wait(URL_TIMEOUT)
        again = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(tmp_path)
        )
        try:
            deadline = time.monotonic() + 120
            while not session.view.over:  # Rita's moves come from the second process
                assert time.monotonic() < deadline
                assert again.poll() in (None, 0), again.communicate()
                move = first_legal(session)
                if move is None:
                    session.receive(timeout=0.5)
                else:
                    session.request(Submit(move))
            out, err = again.communicate(timeout=60)
            assert again.returncode == 0, out + err
            summary = lobby.table(table["table"])
            assert summary["state"] == "over" and summary["seats"][0]["name"] == "Rita"
        finally:
            if again.poll() is None:
                again.kill()
        session.close()
    finally:
        if first.poll() is None:
            first.kill()


def test_two_people_on_one_account_hold_two_seats(server: Server, tmp_path: Path) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 3, "bots": {"3": "greedy"}})
    people: list[subprocess.Popen[str]] = []
    try:
        for number, name in enumerate(("Ann", "Bob")):
            people.append(
                subprocess.Popen(
                    [CINCO, "join", server.url, table["code"], "--name", name],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    text=True,
                    env=_env(tmp_path),
                )
            )
            _seat_taken(lobby, table["table"], number)
        # The last seat taken starts the game on the server's loop, a moment later.
        deadline = time.monotonic() + URL_TIMEOUT
        while (summary := lobby.table(table["table"]))["state"] == "waiting":
            assert time.monotonic() < deadline, summary
            time.sleep(0.1)
        assert summary["state"] == "playing"
        assert [s["name"] for s in summary["seats"]] == ["Ann", "Bob", "Greedy 3"]
        assert all(person.poll() is None for person in people)  # nobody was taken over
        book = json.loads((tmp_path / "data" / "cinco" / "seats.json").read_text())
        assert sorted(entry["seat"] for entry in book.values()) == [0, 1]
    finally:
        for person in people:
            person.kill()
            person.wait(URL_TIMEOUT)


def test_a_taken_name_is_refused_with_a_clear_message(server: Server, tmp_path: Path) -> None:
    lobby = Lobby(server.url)
    table = lobby.create({"players": 3, "bots": {"3": "greedy"}})
    lobby.join(table["code"], "Ann")
    done = subprocess.run(
        [CINCO, "join", server.url, table["code"], "--name", "ann"],
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(tmp_path),
        check=False,
        input="",
    )
    assert done.returncode == 1
    assert "called ann already" in done.stderr and "--name" in done.stderr, done.stderr
