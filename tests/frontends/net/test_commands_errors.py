"""The network commands' errors say what is wrong and what to do: one line, no traceback, a
non-zero exit (``cinco serve``, ``cinco table …``, ``cinco join``, ``cinco watch``), against a
real server on 127.0.0.1 where one is needed.

Issue 24.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from live_server import Server, free_port

from cinco.frontends.main import main
from cinco.frontends.net import commands
from cinco.frontends.net.client import Lobby

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["--lang", "en", *args])


def one_error(result: Result, *, after_banner: bool = False) -> str:
    """The error line, after checking that it is the only thing said (after ``cinco serve``'s
    banner) and the exit failed."""
    assert result.exit_code != 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.output.splitlines() if line.strip()]
    lines = lines[1:] if after_banner else lines
    assert "Traceback" not in result.output
    assert len(lines) == 1, result.output
    assert lines[0].startswith("Error: ")
    return lines[0]


def nobody_listens() -> str:
    return f"http://127.0.0.1:{free_port()}"


def test_export_before_the_end_says_owner_is_needed(server: Server) -> None:
    table = Lobby(server.url).create({"players": 2})
    error = one_error(run("table", "export", "--server", server.url, table["table"]))
    assert "not over" in error and "--owner TOKEN" in error
    error = one_error(
        run("table", "export", "--server", server.url, table["table"], "--owner", "wrong")
    )
    assert "owner token" in error and "--owner" in error
    exported = run(
        "table", "export", "--server", server.url, table["table"], "--owner", table["owner"]
    )
    assert exported.exit_code == 0 and exported.output.startswith("{")


def test_a_table_the_server_does_not_have(server: Server) -> None:
    for args in (("export",), ("rematch", "--token", "x")):
        error = one_error(run("table", *args, "--server", server.url, "nosuch"))
        assert "No table nosuch" in error and "check its id" in error


def test_bad_codes(server: Server) -> None:
    error = one_error(run("join", server.url, "NOPE-NOPE-NOPE"))
    assert "invite code NOPE-NOPE-NOPE" in error and "cinco table list" in error
    error = one_error(run("watch", server.url, "NOPE-NOPE-NOPE"))
    assert "watch code" in error and "check it" in error


def test_a_server_that_cannot_be_reached() -> None:
    url = nobody_listens()
    for args in (
        ("table", "list", "--server", url),
        ("table", "create", "--server", url),
        ("table", "export", "--server", url, "abc"),
        ("watch", url, "CODE"),
        ("join", url, "CODE", "--wait", "0"),
    ):
        error = one_error(run(*args))
        assert "be reached" in error and "is the address right?" in error, (args, error)


def test_an_address_that_is_not_a_server_s() -> None:
    for url in ("", "ftp://x", "http://[::1", "http://127.0.0.1:99999", "::"):
        for args in (("table", "list", "--server", url), ("watch", url, "C"), ("join", url, "C")):
            error = one_error(run(*args))
            assert f"“{url}” is not a server's address" in error, (args, error)
            assert "http://192.168.1.20:8765" in error


def test_serve_a_port_in_use_a_bad_port_a_bad_host(tmp_path: Path) -> None:
    db = str(tmp_path / "server.db")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        error = one_error(run("serve", "--port", str(port), "--db", db))
    assert f"port {port}" in error and "--port" in error
    bad = run("serve", "--port", "99999", "--db", db)
    assert bad.exit_code == 2 and "1<=x<=65535" in bad.output and "Traceback" not in bad.output
    for host in ("999.1.1.1", "192.0.2.1"):  # no such name; an address not this machine's
        error = one_error(run("serve", "--host", host, "--port", str(free_port()), "--db", db))
        assert "not an address of this machine" in error and "--host" in error


def test_serve_a_bad_db(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.db"
    garbage.write_text("not a database\n" * 100)
    result = run("serve", "--port", str(free_port()), "--db", str(garbage))
    assert result.output.startswith("Cinco server on")  # the banner, then the error alone
    error = one_error(result, after_banner=True)
    assert "not a Cinco server database" in error and "give --db another file" in error


def test_without_the_server_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in sys.modules if name.split(".")[0] == "websockets"]:
        monkeypatch.setitem(sys.modules, name, None)  # as if it were not installed
    for name in (commands.CLIENT, commands.TERMINAL_WATCH, commands.PLAY):
        monkeypatch.delitem(sys.modules, name, raising=False)
    for args in (("table", "list", "--server", "http://x"), ("watch", "http://x", "CODE")):
        error = one_error(run(*args))
        assert "pip install 'cinco[server]'" in error
