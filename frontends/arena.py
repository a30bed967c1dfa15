"""``cinco arena``: a tournament between bots, with statistics."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cinco.core.errors import CincoError
from cinco.core.i18n import _
from cinco.core.simulation import DEFAULT_TURN_LIMIT
from cinco.core.tournament import (
    ArenaSpec,
    GameResult,
    Report,
    default_jobs,
    parse_entrants,
    run,
)
from cinco.frontends.options import batch_options, check_layout


@click.command()
@click.option(
    "--bots",
    required=True,
    metavar="A,B[,...]",
    help=_(
        "The bots that compete, each NAME or NAME:LEVEL, for example "
        "ismcts:hard,greedy. Each plays for whole teams."
    ),
)
@batch_options(
    records_help=_("Save every game's record into this folder."), turn_limit=DEFAULT_TURN_LIMIT
)
@click.option(
    "--budget",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help=_("Seconds each bot may think per move."),
)
@click.option(
    "--iterations",
    type=click.IntRange(min=1),
    metavar="N",
    help=_("Iterations per move for search bots (reproducible, unlike --budget)."),
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help=_("Seed of the first deal; every deal is played once per seating."),
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help=_("Games played at once in worker processes [default: one per core]."),
)
@click.option("--json", "as_json", is_flag=True, help=_("Print the report as JSON."))
@click.option(
    "--csv",
    "csv_file",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help=_("Write the standings to FILE as CSV."),
)
def arena(
    bots: str,
    players: str,
    layout: str | None,
    variants: tuple[str, ...],
    games: int,
    budget: float | None,
    iterations: int | None,
    seed: int,
    jobs: int | None,
    turn_limit: int,
    records: Path | None,
    as_json: bool,
    csv_file: Path | None,
) -> None:
    """Let bots play each other and report win rates (95% intervals), draws, Elo ratings,
    game length and the first seat's advantage. Seats are rotated fairly: each deal is played
    once under every seating of the bots."""
    check_layout(players, layout)
    if budget is not None and iterations is not None:
        raise click.BadParameter(
            _("Give --budget or --iterations, not both."), param_hint="--budget"
        )
    try:
        spec = ArenaSpec(
            entrants=parse_entrants(bots),
            players=int(players),
            layout=layout,
            variants=variants,
            games=games,
            budget=budget,
            iterations=iterations,
            seed=seed,
            records=records,
            turn_limit=turn_limit,
        )
        report = _run_with_progress(spec, jobs or default_jobs(), quiet=as_json)
    except CincoError as exc:
        raise click.ClickException(str(exc)) from None
    if csv_file is not None:
        _write_csv(report, csv_file)
    if as_json:
        click.echo(json.dumps(report.to_dict()))
    else:
        _print_report(report)


def _run_with_progress(spec: ArenaSpec, jobs: int, quiet: bool) -> Report:
    console = Console(stderr=True)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(
        *columns, console=console, transient=True, disable=quiet and not console.is_terminal
    ) as progress:
        task = progress.add_task(_("Playing"), total=spec.games)

        def advance(_result: GameResult) -> None:
            progress.advance(task)

        return run(spec, jobs=jobs, on_result=advance)


def _write_csv(report: Report, path: Path) -> None:
    rows = report.csv_rows()
    try:
        with path.open("w", newline="", encoding="utf-8") as out:
            writer = csv.DictWriter(out, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    except OSError as exc:
        raise click.ClickException(
            _("Cannot write {path}: {error}").format(path=path, error=exc.strerror)
        ) from None


def _print_report(report: Report) -> None:
    console = Console()
    spec = report.spec
    table = Table(
        title=_("{games} games, {players} players").format(
            games=len(report.results), players=spec.players
        )
    )
    for heading in (
        _("bot"),
        _("games"),
        _("wins"),
        _("draws"),
        _("losses"),
        _("win rate"),
        _("95% interval"),
        _("Elo"),
    ):
        table.add_column(heading, justify="left" if heading == _("bot") else "right")
    for s in sorted(report.standings, key=lambda s: -s.elo):
        table.add_row(
            s.entrant,
            str(s.games),
            str(s.wins),
            str(s.draws),
            str(s.losses),
            f"{s.win_rate:.1%}",
            f"{s.ci_low:.1%} – {s.ci_high:.1%}",
            f"{s.elo:.0f}",
        )
    console.print(table)
    lines = [
        _("Draws: {n} ({reasons})").format(
            n=report.draws, reasons=", ".join(f"{k} {v}" for k, v in report.reasons.items()) or "-"
        ),
        _("Mean game length: {turns:.1f} turns").format(turns=report.mean_turns),
        _(
            "First seat won {share:.1%} of decided games (95%: {low:.1%} – {high:.1%}; "
            "no advantage would be {fair:.1%})"
        ).format(
            share=report.first_seat_wins,
            low=report.first_seat_ci[0],
            high=report.first_seat_ci[1],
            fair=report.fair_share,
        ),
        _("Time: {seconds:.1f} s").format(seconds=report.seconds),
    ]
    if report.replaced:
        lines.append(
            _("Moves replaced by random ones (bot failed, illegal or too slow): {n}").format(
                n=report.replaced
            )
        )
    for line in lines:
        console.print(line)
