"""``cinco replay``: a game record, stepped through move by move in the terminal, or its final
state as JSON. The top-level command (:mod:`cinco.frontends.main`) imports this module only when
it runs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from cinco.core.engine.errors import RecordError
from cinco.core.engine.state import fold
from cinco.core.records.record import load_record
from cinco.core.words.i18n import N_, _
from cinco.frontends.cli_options import clean_text
from cinco.frontends.terminal.replay import replay_record


@click.command()
@click.argument("record", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the final state as JSON."))
@click.option(
    "--interactive/--no-interactive",
    default=None,
    help=N_("Step through the moves (the default when input is a terminal)."),
)
def replay(record: Path, as_json: bool, interactive: bool | None) -> None:
    """Replay a game record: step through it move by move, as the referee saw it."""
    try:
        loaded = load_record(record)
    except RecordError as exc:
        raise click.ClickException(
            clean_text(_("{path}: {error}").format(path=record, error=exc))
        ) from None
    for warning in loaded.warnings:
        click.echo(clean_text(_("warning: {text}").format(text=warning)), err=True)
    state = fold(loaded.events)
    if as_json:
        click.echo(json.dumps(state.to_dict()))
        return
    replay_record(
        loaded.events, interactive=_stdin_is_terminal() if interactive is None else interactive
    )


def _stdin_is_terminal() -> bool:
    return sys.stdin.isatty()
