"""The network commands of ``cinco``: ``serve``, ``table create|list|export``, ``join``,
``watch``. The server's libraries (the ``server`` extra) are imported only when one runs."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from cinco.core.errors import CincoError
from cinco.core.i18n import _

DEFAULT_PORT = 8765


def _needs_extra(exc: ImportError) -> click.ClickException:
    return click.ClickException(
        _("Networked play needs the server extra: pip install 'cinco[server]' ({error}).").format(
            error=exc
        )
    )


def default_db() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("cinco")) / "server.db"


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help=_("Address to listen on."))
@click.option("--port", type=int, default=DEFAULT_PORT, show_default=True, help=_("TCP port."))
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    help=_("The SQLite file of the tables (default: server.db in Cinco's data folder)."),
)
@click.option(
    "--bot-delay",
    type=click.FloatRange(0, 10),
    default=0.5,
    show_default=True,
    help=_("Seconds between two server-side bots' moves."),
)
def serve(host: str, port: int, db: Path | None, bot_delay: float) -> None:
    """Run a Cinco server: many tables, each player on their own device."""
    try:
        from .server import serve as run
    except ImportError as exc:
        raise _needs_extra(exc) from None
    path = db or default_db()
    click.echo(
        _("Cinco server on http://{host}:{port} (tables in {db}); Ctrl-C stops it.").format(
            host=host, port=port, db=path
        ),
        err=True,
    )
    run(host, port, path, bot_delay=bot_delay)


def _lobby(url: str) -> Any:
    try:
        from .client import Lobby
    except ImportError as exc:
        raise _needs_extra(exc) from None
    return Lobby(url)


@click.group()
def table() -> None:
    """Tables on a Cinco server: create, list, export."""


@table.command("create")
@click.option("--server", "url", required=True, metavar="URL", help=_("The server's address."))
@click.option("--players", "-p", type=int, default=2, show_default=True, metavar="N")
@click.option("--layout", metavar="NAME", help=_("How the seats form teams (2x3, 3x2, ...)."))
@click.option("--variant", "variants", multiple=True, metavar="NAME", help=_("A variant."))
@click.option(
    "--bot",
    "bots",
    multiple=True,
    metavar="SEAT=NAME[:LEVEL]",
    help=_("A server-side bot in a seat, for example 2=greedy:hard (repeatable)."),
)
@click.option("--no-undo", is_flag=True, help=_("Nobody may take a move back."))
@click.option("--json", "as_json", is_flag=True, help=_("Print the answer as JSON."))
def create(
    url: str,
    players: int,
    layout: str | None,
    variants: tuple[str, ...],
    bots: tuple[str, ...],
    no_undo: bool,
    as_json: bool,
) -> None:
    """Create a table; prints its id, invite code and watch code."""
    from cinco.frontends.options import parse_bot

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
    }
    try:
        created = _lobby(url).create(settings)
    except CincoError as exc:
        raise click.ClickException(str(exc)) from None
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
@click.option("--server", "url", required=True, metavar="URL", help=_("The server's address."))
@click.option("--json", "as_json", is_flag=True, help=_("Print the tables as JSON."))
def list_tables(url: str, as_json: bool) -> None:
    """The tables with a free seat."""
    try:
        tables = _lobby(url).tables()
    except CincoError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(tables))
        return
    for entry in tables:
        free = sum(1 for seat in entry["seats"] if seat["free"])
        click.echo(
            _("{table}  {players} players  {free} free").format(
                table=entry["table"], players=entry["players"], free=free
            )
        )


@table.command("export")
@click.option("--server", "url", required=True, metavar="URL", help=_("The server's address."))
@click.option("--owner", metavar="TOKEN", help=_("The owner token (before the game is over)."))
@click.argument("table_id", metavar="ID")
def export(url: str, owner: str | None, table_id: str) -> None:
    """Write the table's record (JSON Lines) to standard output."""
    try:
        text = _lobby(url).record(table_id, owner)
    except CincoError as exc:
        raise click.ClickException(str(exc)) from None
    sys.stdout.write(text)


@click.command()
@click.argument("url")
@click.argument("code")
@click.option("--name", help=_("Your name at the table."))
@click.option("--bot", "bot", metavar="NAME[:LEVEL]", help=_("Let a bot in this process play."))
@click.option("--quiet", is_flag=True, help=_("With --bot: print nothing."))
def join(url: str, code: str, name: str | None, bot: str | None, quiet: bool) -> None:
    """Take a seat at a server's table with its invite code, and play."""
    lobby = _lobby(url)
    try:
        if bot is not None:
            from .play import run_bot

            status = run_bot(
                lobby, code, bot, name=name, say=(lambda text: None) if quiet else click.echo
            )
        else:
            from .play import play_in_terminal

            status = play_in_terminal(lobby, code, name=name)
    except CincoError as exc:
        raise click.ClickException(str(exc)) from None
    sys.exit(status)


@click.command()
@click.argument("url")
@click.argument("code")
def watch(url: str, code: str) -> None:
    """Watch a server's table with its watch code."""
    from .play import watch as run

    lobby = _lobby(url)
    try:
        status = run(lobby, code, out=click.echo)
    except CincoError as exc:
        raise click.ClickException(str(exc)) from None
    sys.exit(status)


COMMANDS = (serve, table, join, watch)
