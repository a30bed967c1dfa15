"""The network commands of ``cinco``: ``serve``, ``table create|list|export``, ``join``,
``watch``. The modules that need the server's libraries (the ``server`` extra: Starlette,
uvicorn, websockets) are imported only when a command that uses them runs (named below, loaded
with importlib), so that every command's ``--help`` works without the extra."""

from __future__ import annotations

import errno
import importlib
import json
import socket
import sys
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import click
from platformdirs import user_data_dir

from cinco.core.engine.errors import CincoError
from cinco.core.host.registry import Registry
from cinco.core.words.i18n import N_, _, ngettext
from cinco.frontends.cli_options import parse_bot, parse_settings, setting_option
from cinco.frontends.plugin_settings import chosen_settings

from .seats import SeatBook

DEFAULT_PORT = 8765

#: The server (Starlette, uvicorn), the network client (websockets), and the players over it.
SERVER = "cinco.frontends.net.server"
CLIENT = "cinco.frontends.net.client"
PLAY = "cinco.frontends.net.play"
TERMINAL_SEAT = "cinco.frontends.net.terminal_seat"
TERMINAL_WATCH = "cinco.frontends.net.terminal_watch"


def _needs_extra(exc: ImportError) -> click.ClickException:
    return click.ClickException(
        _("Networked play needs the server extra: pip install 'cinco[server]' ({error}).").format(
            error=exc
        )
    )


def _with_extra(module: str) -> ModuleType:
    """*module*, imported now; without the server extra, an error that says how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise _needs_extra(exc) from None


def _failed(exc: CincoError, url: str, table: str = "") -> click.ClickException:
    """A client's failure in words that say what to do: a server that cannot be reached, a
    table it does not have; else the server's own words."""
    if getattr(exc, "unreachable", False):
        return click.ClickException(unreachable(url, exc))
    if getattr(exc, "code", "") == "no_such_table" and table:
        return click.ClickException(
            _("No table {table} on {url}: check its id (cinco table create prints it).").format(
                table=table, url=url
            )
        )
    return click.ClickException(str(exc))


def unreachable(url: str, error: object) -> str:
    return _(
        "{url} cannot be reached: is the server running, and is the address right? ({error})"
    ).format(url=url, error=error)


def _can_listen(host: str, port: int) -> None:
    """Whether the server could listen on *host*:*port*, tried before starting it: a port in
    use or an address that is not this machine's is said in words, not as a traceback."""
    not_here = _(
        "{host} is not an address of this machine ({error}): give one with --host "
        "(127.0.0.1 for this machine only, 0.0.0.0 for every network)."
    )
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise click.ClickException(not_here.format(host=host, error=exc)) from None
    for family, kind, proto, _name, address in addresses:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as exc:
                if exc.errno == errno.EADDRNOTAVAIL:
                    raise click.ClickException(
                        not_here.format(host=host, error=exc.strerror or exc)
                    ) from None
                raise click.ClickException(
                    _(
                        "Cannot listen on {host} port {port} ({error}): choose another port "
                        "with --port, or stop the program that uses this one."
                    ).format(host=host, port=port, error=exc.strerror or exc)
                ) from None


def default_db() -> Path:
    return Path(user_data_dir("cinco")) / "server.db"


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help=N_("Address to listen on."))
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=DEFAULT_PORT,
    show_default=True,
    help=N_("TCP port."),
)
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=str),
    help=N_(
        "The SQLite file of the tables (default: server.db in Cinco's data folder), or a "
        "PostgreSQL database shared by several servers: postgresql://USER@HOST:PORT/DB."
    ),
)
@click.option(
    "--bot-delay",
    type=click.FloatRange(0, 10),
    default=0.5,
    show_default=True,
    help=N_("Seconds between two server-side bots' moves."),
)
@click.option(
    "--lobby-rate",
    type=click.FloatRange(0, 100_000),
    default=5,
    show_default=True,
    help=N_(
        "Lobby requests a second one client address may make (bursts of 8 times as many, "
        "at least 40); 0: no limit (a load test from one machine)."
    ),
)
@setting_option
def serve(
    host: str,
    port: int,
    db: str | None,
    bot_delay: float,
    lobby_rate: float,
    settings: tuple[str, ...],
) -> None:
    """Run a Cinco server: many tables, each player on their own device."""
    server = _with_extra(SERVER)
    registry = Registry()
    try:  # the settings file's and --setting's, for every table this server deals
        registry.chosen_settings = chosen_settings(registry, parse_settings(settings))
    except CincoError as exc:
        raise click.ClickException(str(exc)) from None
    _can_listen(host, port)
    path = db or default_db()
    click.echo(
        _("Cinco server on http://{host}:{port} (tables in {db}); Ctrl-C stops it.").format(
            host=host, port=port, db=path
        ),
        err=True,
    )
    try:
        server.serve(
            host, port, path, bot_delay=bot_delay, lobby_rate=lobby_rate, registry=registry
        )
    except server.StoreError as exc:  # its message says what is wrong and what to do
        raise click.ClickException(str(exc)) from None


def _lobby(url: str) -> Any:
    """The server at *url*, once it reads as a server's address."""
    return _with_extra(CLIENT).Lobby(server_address(url))


def server_address(url: str) -> str:
    """*url* if it reads as a server's address (``http://HOST:PORT``, the ``http://`` may be
    left out), else an error that shows what one looks like."""
    full = url.strip() if "://" in url else "http://" + url.strip()
    try:
        parts = urlsplit(full)
        good = parts.scheme in ("http", "https") and bool(parts.hostname)
        parts.port  # noqa: B018 -- raises ValueError for a port out of range
    except ValueError:
        good = False
    if not good:
        raise click.ClickException(
            _(
                "“{url}” is not a server's address: give one like http://192.168.1.20:{port} "
                "(what cinco serve prints)."
            ).format(url=url, port=DEFAULT_PORT)
        )
    return full


@click.group()
def table() -> None:
    """Tables on a Cinco server: create, list, export."""


@table.command("create")
@click.option("--server", "url", required=True, metavar="URL", help=N_("The server's address."))
@click.option("--players", "-p", type=int, default=2, show_default=True, metavar="N")
@click.option("--layout", metavar="NAME", help=N_("How the seats form teams (2x3, 3x2, ...)."))
@click.option("--variant", "variants", multiple=True, metavar="NAME", help=N_("A variant."))
@click.option(
    "--bot",
    "bots",
    multiple=True,
    metavar="SEAT=NAME[:LEVEL]",
    help=N_("A server-side bot in a seat, for example 2=greedy:hard (repeatable)."),
)
@click.option("--no-undo", is_flag=True, help=N_("Nobody may take a move back."))
@click.option(
    "--timer",
    metavar="RESERVE[+INCREMENT]",
    help=N_(
        "Turn timers in seconds, for example 300+10: a reserve per player plus an increment "
        "per turn; a player out of time has a bot move for them."
    ),
)
@click.option(
    "--grace",
    type=click.FloatRange(0, 3600),
    default=60,
    show_default=True,
    help=N_("Seconds a player may be away (left, or the connection lost) before a bot plays."),
)
@click.option(
    "--stand-in",
    "stand_in",
    default="greedy",
    show_default=True,
    metavar="NAME[:LEVEL]",
    help=N_("The bot that plays for a player who is away or out of time."),
)
@click.option("--json", "as_json", is_flag=True, help=N_("Print the answer as JSON."))
def create(
    url: str,
    players: int,
    layout: str | None,
    variants: tuple[str, ...],
    bots: tuple[str, ...],
    no_undo: bool,
    timer: str | None,
    grace: float,
    stand_in: str,
    as_json: bool,
) -> None:
    """Create a table; prints its id, invite code and watch code."""
    seats: dict[str, str] = {}
    for text in bots:
        seat, name, level = parse_bot(text)
        seats[str(seat + 1)] = f"{name}:{level}" if level else name
    settings = {
        "players": players,
        "layout": layout,
        "variants": list(variants),
        "bots": seats,
        "undo": not no_undo,
        "timer": timer,
        "grace": grace,
        "stand_in": stand_in,
    }
    try:
        created = _lobby(url).create(settings)
    except CincoError as exc:
        raise _failed(exc, url) from None
    if as_json:
        click.echo(json.dumps(created))
        return
    click.echo(_("Table {table}").format(table=created["table"]))
    click.echo(
        _("  invite code: {code}   (cinco join {url} {code})").format(code=created["code"], url=url)
    )
    click.echo(
        _("  watch code:  {code}   (cinco watch {url} {code})").format(
            code=created["watch"], url=url
        )
    )
    click.echo(
        _("  owner token: {token}  (keep it: cinco table export)").format(token=created["owner"])
    )


@table.command("list")
@click.option("--server", "url", required=True, metavar="URL", help=N_("The server's address."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the tables as JSON."))
def list_tables(url: str, as_json: bool) -> None:
    """The tables with a free seat."""
    try:
        tables = _lobby(url).tables()
    except CincoError as exc:
        raise _failed(exc, url) from None
    if as_json:
        click.echo(json.dumps(tables))
        return
    for entry in tables:
        free = sum(1 for seat in entry["seats"] if seat["free"])
        click.echo(
            ngettext(
                "{table}  {players} players  {free} free seat",
                "{table}  {players} players  {free} free seats",
                free,
            ).format(table=entry["table"], players=entry["players"], free=free)
        )


@table.command("export")
@click.option("--server", "url", required=True, metavar="URL", help=N_("The server's address."))
@click.option("--owner", metavar="TOKEN", help=N_("The owner token (before the game is over)."))
@click.argument("table_id", metavar="ID")
def export(url: str, owner: str | None, table_id: str) -> None:
    """Write the table's record (JSON Lines) to standard output."""
    try:
        text = _lobby(url).record(table_id, owner)
    except CincoError as exc:
        if getattr(exc, "code", "") != "not_over":
            raise _failed(exc, url, table_id) from None
        if owner is None:
            raise click.ClickException(
                _(
                    "The game at table {table} is not over: until its end, its record is given "
                    "only to the table's owner. Add --owner TOKEN (the owner token cinco table "
                    "create printed)."
                ).format(table=table_id)
            ) from None
        raise click.ClickException(
            _(
                "That is not table {table}'s owner token, and its game is not over: give "
                "--owner the owner token cinco table create printed."
            ).format(table=table_id)
        ) from None
    sys.stdout.write(text)


@table.command("rematch")
@click.option("--server", "url", required=True, metavar="URL", help=N_("The server's address."))
@click.option(
    "--token",
    metavar="TOKEN",
    help=N_(
        "A seat token of the finished table, or its owner token (default: the seat token "
        "cinco join keeps for that table)."
    ),
)
@click.option("--json", "as_json", is_flag=True, help=N_("Print the answer as JSON."))
@click.argument("table_id", metavar="ID")
def rematch(url: str, token: str | None, as_json: bool, table_id: str) -> None:
    """A rematch of a finished table: same settings, same players (each seat held for its
    player); prints the new table, and with a seat token, that seat's new token."""
    lobby = _lobby(url)
    if token is None:
        held = SeatBook().get(lobby.base, table_id)
        if held is None:
            raise click.ClickException(
                _("No seat token of table {table} is kept here: give one with --token.").format(
                    table=table_id
                )
            )
        token = str(held["token"])
    try:
        answer = lobby.rematch(table_id, token)
    except CincoError as exc:
        raise _failed(exc, url, table_id) from None
    if as_json:
        click.echo(json.dumps(answer))
        return
    click.echo(_("Rematch: table {table}").format(table=answer["table"]))
    if "code" in answer:
        click.echo(_("  invite code: {code}").format(code=answer["code"]))
        click.echo(_("  watch code:  {code}").format(code=answer["watch"]))
    if "token" in answer:
        click.echo(
            _("  your seat: {seat}, token {token}").format(
                seat=answer["seat"] + 1, token=answer["token"]
            )
        )


@click.command()
@click.argument("url")
@click.argument("code")
@click.option("--name", help=N_("Your name at the table."))
@click.option("--bot", "bot", metavar="NAME[:LEVEL]", help=N_("Let a bot in this process play."))
@click.option("--quiet", is_flag=True, help=N_("With --bot: print nothing."))
@click.option(
    "--wait",
    type=click.FloatRange(0, 3600),
    default=120,
    show_default=True,
    metavar="SECONDS",
    help=N_("How long to keep trying while the server cannot be reached."),
)
def join(url: str, code: str, name: str | None, bot: str | None, quiet: bool, wait: float) -> None:
    """Take a seat at a server's table with its invite code, and play."""
    lobby = _lobby(url)
    try:
        if bot is not None:
            status = importlib.import_module(PLAY).run_bot(
                lobby,
                code,
                bot,
                name=name,
                say=(lambda text: None) if quiet else click.echo,
                book=SeatBook(),
                wait=wait,
            )
        else:
            play_in_terminal = importlib.import_module(TERMINAL_SEAT).play_in_terminal
            status = play_in_terminal(lobby, code, name=name, book=SeatBook(), wait=wait)
    except CincoError as exc:
        if getattr(exc, "code", "") == "no_such_code":
            raise click.ClickException(
                _(
                    "No table on {url} has the invite code {code}: check it (cinco table "
                    "create prints it; cinco table list shows the tables with a free seat)."
                ).format(url=lobby.base, code=code)
            ) from None
        raise _failed(exc, url) from None
    sys.exit(status)


@click.command()
@click.argument("url")
@click.argument("code")
def watch(url: str, code: str) -> None:
    """Watch a server's table with its watch code: the board, the seats, the clocks and the
    moves, drawn again as they come (q and Enter, or Ctrl-C, stop)."""
    lobby = _lobby(url)
    run = _with_extra(TERMINAL_WATCH).watch_in_terminal
    try:
        status = run(lobby, code)
    except CincoError as exc:
        if getattr(exc, "status", 0) in (401, 403, 404):
            raise click.ClickException(
                _(
                    "No table on {url} has that watch code: check it (cinco table create "
                    "prints it as the watch code)."
                ).format(url=lobby.base)
            ) from None
        raise _failed(exc, lobby.base) from None
    sys.exit(status)


COMMANDS = (serve, table, join, watch)
