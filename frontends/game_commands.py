"""The ``cinco`` commands about one game or the board: ``board``, ``simulate``, ``replay``,
``rules``. The top-level command (:mod:`cinco.frontends.main`) imports this module only when one
of them runs."""

from __future__ import annotations

import json
from pathlib import Path

import click

from cinco.core.bots.simulation import DEFAULT_TURN_LIMIT
from cinco.core.engine.errors import CincoError, RecordError
from cinco.core.host.registry import default_registry
from cinco.core.words.i18n import N_, _, ngettext
from cinco.core.words.messages import end_reason

from .board_view import board_json, render_board
from .options import SEED, batch_options, check_layout, clean_text


@click.command()
@click.option("--json", "as_json", is_flag=True, help=N_("Print the spaces' coordinates as JSON."))
def board(as_json: bool) -> None:
    """Draw the board: 90 numbered spaces around the empty centre."""
    if as_json:
        click.echo(json.dumps(board_json()))
        return
    from rich.console import Console

    console = Console()
    console.print(render_board(color=console.color_system is not None))


@click.command()
@click.option(
    "--bots",
    required=True,
    metavar="NAME[,NAME...]",
    help=N_(
        "Bots for the seats, in turn: random,greedy gives seat 1 random, "
        "seat 2 greedy, and so on round the table."
    ),
)
@batch_options(
    records_help=N_("Write each game's record into this folder."), turn_limit=DEFAULT_TURN_LIMIT
)
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help=N_("Seed of the first game; game k uses seed + k."),
)
@click.option("--json", "as_json", is_flag=True, help=N_("Print the summary as JSON."))
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
    from cinco.core.bots.simulation import simulate as run

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
        ngettext(
            "{games} game, {actions} turns in {seconds:.2f} s ({rate:.0f} turns/s)",
            "{games} games, {actions} turns in {seconds:.2f} s ({rate:.0f} turns/s)",
            summary.games,
        ).format(
            games=summary.games,
            actions=summary.actions,
            seconds=summary.seconds,
            rate=summary.actions / summary.seconds if summary.seconds else 0,
        )
    )
    for team in range(max(summary.wins, default=-1) + 1):
        wins = summary.wins[team]
        click.echo(
            ngettext("  team {team}: {n} win", "  team {team}: {n} wins", wins).format(
                team=team + 1, n=wins
            )
        )
    click.echo(_("  draws: {n}").format(n=summary.draws))
    for reason, count in sorted(summary.reasons.items()):
        shown = clean_text(end_reason(reason))
        click.echo(f"  {shown}: {count}")


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
    from cinco.core.engine.state import fold
    from cinco.core.records.record import load_record

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


@click.command()
@click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="NAME",
    help=N_("Show only this variant's rules after the standard ones (repeatable)."),
)
def rules(variants: tuple[str, ...]) -> None:
    """Print the rules of Cinco, then each installed variant's (its description, the game
    parameters it declares and its own rules text)."""
    from cinco.core.host.registry import default_registry
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
