"""``cinco arena``: a tournament between bots, with statistics.

The games are handed to the worker processes a few at a time (:func:`play_games`), never all
at once, so that ``--games`` may be as large as one likes; a SIGTERM (or Ctrl-C) ends the
workers with the tournament, and a worker whose tournament died ends by itself.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from types import FrameType

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cinco.core import tournament
from cinco.core.errors import CincoError
from cinco.core.i18n import _
from cinco.core.simulation import DEFAULT_TURN_LIMIT
from cinco.core.tournament import (
    ArenaSpec,
    GameResult,
    Report,
    arrangements,
    check,
    default_jobs,
    parse_entrants,
)
from cinco.frontends.options import SEED, Seconds, batch_options, check_layout, clean_text
from cinco.frontends.terminal.screen import CleanHook

#: The longest --budget: an hour a move.
MAX_BUDGET = 3600.0
#: Games handed to the workers ahead of those being played, per worker.
AHEAD = 2


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
    type=Seconds(MAX_BUDGET, positive=True),
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
    type=SEED,
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
        with _sigterm_ends_the_tournament():
            report = _run_with_progress(spec, jobs or default_jobs(), quiet=as_json)
    except CincoError as exc:
        raise click.ClickException(clean_text(str(exc))) from None
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

        return play_games(spec, jobs=jobs, on_result=advance)


class _Terminated(SystemExit):
    """SIGTERM: leave as Ctrl-C does, ending the workers."""


class _sigterm_ends_the_tournament:  # used as a context manager
    """While a tournament runs, SIGTERM raises :class:`_Terminated` (exit status 143) in the
    main thread, so that the workers are ended on the way out."""

    def __enter__(self) -> None:
        self.previous: Callable[[int, FrameType | None], object] | int | None = None
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGTERM, _on_sigterm)

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise _Terminated(128 + signum)


def deals(spec: ArenaSpec, teams: int) -> Iterator[tuple[ArenaSpec, int, int, tuple[int, ...]]]:
    """Every game of the tournament, one at a time (as :func:`tournament.game_plan` lists
    them): index, seed and the entrants' arrangement over the teams."""
    ways = arrangements(spec.entrants, teams)
    for k in range(spec.games):
        yield spec, k, spec.seed + k // len(ways), ways[k % len(ways)]


def _watch_parent(parent: int) -> None:
    """In a worker: end this process when the tournament's process is gone (killed)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _worker_start(parent: int) -> None:
    """Workers leave Ctrl-C to the main process, end on SIGTERM, and end when it is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _play(job: tuple[ArenaSpec, int, int, tuple[int, ...]]) -> GameResult:
    return tournament.play_one(*job)


def play_games(
    spec: ArenaSpec,
    *,
    jobs: int = 1,
    on_result: Callable[[GameResult], None] | None = None,
) -> Report:
    """Play the tournament as :func:`tournament.run` does (the same games, the same report),
    handing the games to *jobs* worker processes a few at a time: at most ``AHEAD`` per worker
    wait, whatever ``--games`` is. Interrupted (Ctrl-C, SIGTERM, a failed game), the games
    not started are dropped and the workers are ended."""
    teams = check(spec)
    started = time.perf_counter()
    results: list[GameResult] = []
    work = deals(spec, teams)

    def done(result: GameResult) -> None:
        results.append(result)
        if on_result is not None:
            on_result(result)

    if jobs <= 1 or spec.games <= 1:
        for job in work:
            done(_play(job))
    else:
        workers = min(jobs, spec.games)
        pool = ProcessPoolExecutor(
            max_workers=workers, initializer=_worker_start, initargs=(os.getpid(),)
        )
        try:
            pending: set[Future[GameResult]] = set()
            for job in work:
                pending.add(pool.submit(_play, job))
                if len(pending) >= workers * AHEAD:
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in finished:
                        done(future.result())
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    done(future.result())
        except BaseException:
            _end_workers(pool)
            raise
        pool.shutdown()
    results.sort(key=lambda r: r.index)
    return Report.of(spec, teams, results, time.perf_counter() - started)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Drop the games not started, and end the worker processes now."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=2)


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
    # Bots' names and draw reasons come from plugins: no markup is read in them, and their
    # control characters are dropped.
    console = Console(markup=False, highlight=False, emoji=False)
    console.push_render_hook(CleanHook())
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
