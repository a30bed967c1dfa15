"""``cinco board``: the board's 90 numbered spaces, drawn in the terminal or as JSON. The
top-level command (:mod:`cinco.frontends.main`) imports this module only when it runs."""

from __future__ import annotations

import json

import click
from rich.console import Console

from cinco.core.words.i18n import N_
from cinco.frontends.board_view import board_json, render_board


@click.command()
@click.option("--json", "as_json", is_flag=True, help=N_("Print the spaces' coordinates as JSON."))
def board(as_json: bool) -> None:
    """Draw the board: 90 numbered spaces around the empty centre."""
    if as_json:
        click.echo(json.dumps(board_json()))
        return
    console = Console()
    console.print(render_board(color=console.color_system is not None))
