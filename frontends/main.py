"""The ``cinco`` command: play (``--frontend cli`` or ``kivy``), and the tool commands.

Each subcommand lives in a small module of its own and is added here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from cinco import __version__
from cinco.core.errors import CincoError, RecordError
from cinco.core.i18n import _
from cinco.core.registry import default_registry
from cinco.core.simulation import DEFAULT_TURN_LIMIT

from .arena import arena
from .board_view import board_json, render_board
from .net import commands as net_commands
from .options import (
    SEED,
    PlayOptions,
    batch_options,
    check_layout,
    clean_text,
    options_from,
    play_options,
)
from .plugins_cmd import plugins

FRONTENDS = ("cli", "kivy")


def launch(frontend: str, options: PlayOptions) -> None:
    """Start a game in *frontend*. Kivy is imported only here, and only when asked for."""
    if frontend == "kivy":
        missing = click.ClickException(_("The Kivy app needs Kivy: pip install 'cinco[kivy]'."))
        if _kivy_missing():
            raise missing
        try:
            from cinco.frontends.kivy_app import run_app

            run_app(options)
        except ModuleNotFoundError as exc:
            if (exc.name or "").partition(".")[0] != "kivy":
                raise
            raise missing from None
        return
    if options.screenshot is not None:
        raise click.UsageError(
            _("--screenshot is for the Kivy app (--frontend kivy); the terminal game has none.")
        )
    from cinco.frontends.terminal import play

    play(options)


def _kivy_missing() -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec("kivy") is None
    except (ImportError, ValueError):
        return True


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--frontend",
    type=click.Choice(FRONTENDS),
    default="cli",
    show_default=True,
    help=_("Where to play: the terminal (cli) or the tablet app (kivy)."),
)
@play_options
@click.version_option(__version__, prog_name="cinco")
@click.pass_context
def main(ctx: click.Context, /, frontend: str, **values: Any) -> None:
    """Cinco: five in a row on a hexagonal board of 90 numbered spaces.

    With no command, starts a game (by default: you against the greedy bot, in this terminal).
    """
    if ctx.invoked_subcommand is not None:
        return
    try:
        options = options_from(values)
        launch(frontend, options)
    except CincoError as exc:
        raise click.ClickException(clean_text(str(exc))) from None


@main.command()
@click.option("--json", "as_json", is_flag=True, help=_("Print the spaces' coordinates as JSON."))
def board(as_json: bool) -> None:
    """Draw the board: 90 numbered spaces around the empty centre."""
    if as_json:
        click.echo(json.dumps(board_json()))
        return
    console = Console()
    console.print(render_board(color=console.color_system is not None))


@main.command()
@click.option(
    "--bots",
    required=True,
    metavar="NAME[,NAME...]",
    help=_(
        "Bots for the seats, in turn: random,greedy gives seat 1 random, "
        "seat 2 greedy, and so on round the table."
    ),
)
@batch_options(
    records_help=_("Write each game's record into this folder."), turn_limit=DEFAULT_TURN_LIMIT
)
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help=_("Seed of the first game; game k uses seed + k."),
)
@click.option("--json", "as_json", is_flag=True, help=_("Print the summary as JSON."))
def simulate(
    players: str,
    layout: str | None,
    variants: tuple[str, ...],
    bots: str,
    games: int,
    seed: int,
    turn_limit: int,
    records: Path | None,
    as_json: bool,
) -> None:
    """Play bot-only games and summarise them."""
    from cinco.core.simulation import simulate as run

    names = [name.strip() for name in bots.split(",") if name.strip()]
    if not names:
        raise click.BadParameter(_("Name at least one bot."), param_hint="--bots")
    check_layout(players, layout)
    try:
        summary = run(
            default_registry(),
            players=int(players),
            bots=names,
            games=games,
            seed=seed,
            layout=layout,
            variants=variants,
            records=records,
            turn_limit=turn_limit,
        )
    except CincoError as exc:  # a bad option, or a variant's rule hook that failed
        raise click.ClickException(clean_text(str(exc))) from None
    if as_json:
        data = summary.to_dict()
        click.echo(
            json.dumps({key: data[key] for key in ("games", "actions", "wins", "draws", "seconds")})
        )
        return
    click.echo(
        _("{games} games, {actions} turns in {seconds:.2f} s ({rate:.0f} turns/s)").format(
            games=summary.games,
            actions=summary.actions,
            seconds=summary.seconds,
            rate=summary.actions / summary.seconds if summary.seconds else 0,
        )
    )
    for team in range(max(summary.wins, default=-1) + 1):
        click.echo(_("  team {team}: {n} wins").format(team=team + 1, n=summary.wins[team]))
    click.echo(_("  draws: {n}").format(n=summary.draws))
    for reason, count in sorted(summary.reasons.items()):
        click.echo(f"  {clean_text(reason)}: {count}")


@main.command()
@click.argument("record", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help=_("Print the final state as JSON."))
@click.option(
    "--interactive/--no-interactive",
    default=None,
    help=_("Step through the moves (the default when input is a terminal)."),
)
def replay(record: Path, as_json: bool, interactive: bool | None) -> None:
    """Replay a game record: step through it move by move, as the referee saw it."""
    from cinco.core.record import load_record
    from cinco.core.state import fold

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
    from cinco.frontends.terminal.replay import replay_record

    replay_record(
        loaded.events, interactive=_stdin_is_terminal() if interactive is None else interactive
    )


def _stdin_is_terminal() -> bool:
    import sys

    return sys.stdin.isatty()


@main.command()
@click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="NAME",
    help="Show only this variant's rules after the standard ones (repeatable).",
)
def rules(variants: tuple[str, ...]) -> None:
    """Print the rules of Cinco, then each installed variant's (its description, the game
    parameters it declares and its own rules text)."""
    from cinco.core.registry import default_registry
    from cinco.frontends.terminal.rules_text import print_rules

    known = default_registry().variants()
    for name in variants:
        if name not in known:
            raise click.BadParameter(
                _("Unknown variant {name!r}. Installed variants: {choices}.").format(
                    name=name, choices=", ".join(sorted(known)) or "-"
                ),
                param_hint="--variant",
            )
    print_rules(variants)


main.add_command(plugins)
main.add_command(arena)

# Networked play (the server extra): cinco serve, cinco table, cinco join, cinco watch.
for _net_command in net_commands.COMMANDS:
    main.add_command(_net_command)
