"""``cinco arena``: a tournament between bots, with statistics.

The games run on a :mod:`concurrent.futures` executor (:func:`cinco.core.bots.tournament.run`):
worker processes of this machine by default, a Dask cluster with ``--scheduler``. They are
handed out a batch at a time, never all at once, so that ``--games`` may be as large as one
likes; a SIGTERM (or Ctrl-C) ends the local workers with the tournament, and a worker whose
tournament died ends by itself. ``--sprt`` stops a match as soon as a sequential test decides;
``--isolate`` plays every bot in its own process (:mod:`cinco.core.bots.isolation`).
"""

from __future__ import annotations

import contextlib
import csv
import importlib
import json
import re
import secrets
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from pathlib import Path
from types import FrameType
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cinco.core.bots import tournament
from cinco.core.bots.matches import ArenaSpec, GameResult, parse_entrants
from cinco.core.bots.simulation import DEFAULT_TURN_LIMIT
from cinco.core.bots.statistics import Report, Sprt
from cinco.core.bots.tournament import default_jobs
from cinco.core.engine.errors import CincoError
from cinco.core.host.registry import default_registry
from cinco.core.words.i18n import N_, _, ngettext
from cinco.core.words.messages import end_reason
from cinco.core.words.numbers import decimal, local, percent, whole
from cinco.frontends.cli_options import SEED, Seconds, batch_options, clean_text, parse_settings
from cinco.frontends.options import check_layout
from cinco.frontends.plugin_settings import chosen_settings
from cinco.frontends.terminal.screen import CleanHook

#: The longest --budget: an hour a move.
MAX_BUDGET = 3600.0
#: The most games of an SPRT match when --games is not given.
SPRT_GAMES = 2000
#: Seconds to reach a Dask scheduler, and to wait for its first worker.
CONNECT_TIMEOUT = 20.0
WORKERS_TIMEOUT = 60.0
#: A Dask scheduler's address: tcp://HOST:PORT (tls:// too), or HOST:PORT.
SCHEDULER = re.compile(r"^(?:(?:tcp|tls)://)?(?:\[[0-9A-Fa-f:.]+\]|[\w.-]+):\d{1,5}$")


class SchedulerAddress(click.ParamType):  # type: ignore[type-arg]  # generic in newer click
    """``--scheduler tcp://HOST:PORT`` (``HOST:PORT`` means ``tcp://HOST:PORT``)."""

    name = "address"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> str:
        text = str(value).strip()
        if not SCHEDULER.match(text):
            self.fail(
                _(
                    "{value!r} is not a scheduler's address: give tcp://HOST:PORT, as "
                    "`dask scheduler` prints it (for example tcp://192.168.1.10:8786)."
                ).format(value=text),
                param,
                ctx,
            )
        return text if "://" in text else f"tcp://{text}"


@click.command()
@click.option(
    "--bots",
    required=True,
    metavar="A,B[,...]",
    help=N_(
        "The bots that compete, each NAME or NAME:LEVEL, for example "
        "ismcts:hard,greedy. Each plays for whole teams."
    ),
)
@batch_options(
    records_help=N_("Save every game's record into this folder."), turn_limit=DEFAULT_TURN_LIMIT
)
@click.option(
    "--budget",
    type=Seconds(MAX_BUDGET, positive=True),
    metavar="SECONDS",
    help=N_("Seconds each bot may think per move."),
)
@click.option(
    "--iterations",
    type=click.IntRange(min=1),
    metavar="N",
    help=N_("Iterations per move for search bots (reproducible, unlike --budget)."),
)
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help=N_(
        "Seed of the first deal; every deal is played once per seating "
        "[default: 0; with --isolate, drawn at random and printed]."
    ),
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help=N_("Games played at once in worker processes [default: one per core]."),
)
@click.option(
    "--scheduler",
    type=SchedulerAddress(),
    metavar="tcp://HOST:PORT",
    help=N_("Play the games on the Dask cluster of this scheduler (the cluster extra)."),
)
@click.option(
    "--batch",
    type=click.IntRange(min=1, max=10_000),
    metavar="N",
    help=N_("Games per task handed to a worker [default: from the games and the workers]."),
)
@click.option(
    "--sprt",
    is_flag=True,
    help=N_(
        "Stop a match of two bots as soon as a sequential probability ratio test decides "
        "whether the first is elo1 stronger or only elo0 (--games: at most; default 2000)."
    ),
)
@click.option(
    "--elo0",
    type=click.FloatRange(-2000, 2000),
    default=0.0,
    show_default=True,
    help=N_("With --sprt: the Elo advantage of the first bot under H0."),
)
@click.option(
    "--elo1",
    type=click.FloatRange(-2000, 2000),
    default=50.0,
    show_default=True,
    help=N_("With --sprt: the Elo advantage of the first bot under H1."),
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help=N_("With --sprt: the chance of accepting H1 when H0 holds."),
)
@click.option(
    "--beta",
    type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help=N_("With --sprt: the chance of accepting H0 when H1 holds."),
)
@click.option(
    "--isolate",
    is_flag=True,
    help=N_(
        "Play every bot in its own process, seeing only its seat's stream (for bots you "
        "do not trust). Their moves are then not reproducible."
    ),
)
@click.option("--json", "as_json", is_flag=True, help=N_("Print the report as JSON."))
@click.option(
    "--csv",
    "csv_file",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help=N_("Write the standings to FILE as CSV."),
)
@click.pass_context
def arena(
    ctx: click.Context,
    bots: str,
    players: str,
    layout: str | None,
    variants: tuple[str, ...],
    games: int,
    budget: float | None,
    iterations: int | None,
    seed: int | None,
    jobs: int | None,
    scheduler: str | None,
    batch: int | None,
    sprt: bool,
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    isolate: bool,
    turn_limit: int,
    settings: tuple[str, ...],
    records: Path | None,
    as_json: bool,
    csv_file: Path | None,
) -> None:
    """Let bots play each other and report win rates (with intervals at 95%), draws, Elo
    ratings, game length and the first seat's advantage. Seats are rotated fairly: each deal is
    played once under every seating of the bots."""
    check_layout(players, layout)
    if budget is not None and iterations is not None:
        raise click.BadParameter(
            _("Give --budget or --iterations, not both."), param_hint="--budget"
        )
    if scheduler is not None and jobs is not None:
        raise click.BadParameter(
            _("Give --jobs or --scheduler, not both: a cluster has its own workers."),
            param_hint="--jobs",
        )
    explicit = ctx.get_parameter_source
    if not sprt:
        for name in ("elo0", "elo1", "alpha", "beta"):
            if explicit(name) is click.core.ParameterSource.COMMANDLINE:
                raise click.BadParameter(
                    _("--{name} is a setting of the sequential test: add --sprt.").format(
                        name=name
                    ),
                    param_hint=f"--{name}",
                )
    elif explicit("games") is not click.core.ParameterSource.COMMANDLINE:
        games = SPRT_GAMES
    if seed is None:
        # An isolated bot could try every small seed until one deals it its own hand: the
        # deals of a tournament for untrusted bots come from a seed nobody can guess.
        seed = secrets.randbelow(10**18) if isolate else 0
    try:
        test = Sprt(elo0=elo0, elo1=elo1, alpha=alpha, beta=beta) if sprt else None
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
            isolate=isolate,
            # The settings file's, then --setting's: the same in every worker's games.
            settings=tuple(chosen_settings(default_registry(), parse_settings(settings)).items()),
        )
        with _sigterm_ends_the_tournament(), _executor(scheduler) as (executor, slots):
            report = _run_with_progress(
                spec,
                jobs=jobs or default_jobs(),
                executor=executor,
                slots=slots,
                batch=batch,
                sprt=test,
                quiet=as_json,
            )
    except CincoError as exc:
        raise click.ClickException(clean_text(str(exc))) from None
    if csv_file is not None:
        _write_csv(report, csv_file)
    if as_json:
        click.echo(json.dumps(report.to_dict()))
    else:
        _print_report(report)


@contextlib.contextmanager
def _executor(scheduler: str | None) -> Iterator[tuple[Executor | None, int | None]]:
    """The Dask cluster's executor and its number of threads (``None``: this machine's
    worker processes, which :func:`tournament.run` makes)."""
    if scheduler is None:
        yield None, None
        return
    try:
        # The Dask client has no type hints: it is used through Any.
        dask: Any = importlib.import_module("distributed")
    except ImportError:
        raise click.ClickException(
            _(
                "--scheduler needs the Dask client: install the cluster extra, "
                "pip install 'cinco[cluster]'."
            )
        ) from None
    try:
        client = dask.Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise click.ClickException(
            _(
                "Cannot reach the Dask scheduler at {address} ({error}). Start one with "
                "`dask scheduler` and check the address it prints."
            ).format(address=scheduler, error=clean_text(str(exc)) or type(exc).__name__)
        ) from None
    try:
        try:
            client.wait_for_workers(1, timeout=WORKERS_TIMEOUT)
        except TimeoutError:
            raise click.ClickException(
                _(
                    "No worker joined the Dask scheduler at {address} in {seconds:.0f} s: start "
                    "some with `dask worker {address}`."
                ).format(address=scheduler, **local(seconds=WORKERS_TIMEOUT))
            ) from None
        slots = sum(client.nthreads().values())
        # pure=False: every task is played, never taken for another with the same arguments.
        yield client.get_executor(pure=False), slots
    finally:
        client.close()


def _run_with_progress(
    spec: ArenaSpec,
    *,
    jobs: int,
    executor: Executor | None,
    slots: int | None,
    batch: int | None,
    sprt: Sprt | None,
    quiet: bool,
) -> Report:
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

        return tournament.run(
            spec,
            jobs=jobs,
            executor=executor,
            slots=slots,
            batch=batch,
            sprt=sprt,
            on_result=advance,
        )


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


def play_games(
    spec: ArenaSpec,
    *,
    jobs: int = 1,
    on_result: Callable[[GameResult], None] | None = None,
    **options: Any,
) -> Report:
    """:func:`tournament.run` (kept for callers of this module's former runner)."""
    return tournament.run(spec, jobs=jobs, on_result=on_result, **options)


def _sprt_lines(report: Report) -> list[str]:
    outcome = report.sprt
    assert outcome is not None
    test = outcome.test
    first, second = (e.label for e in report.spec.entrants)
    lines = [
        _(
            "SPRT: H0 {first} is {elo0:+g} Elo against {second}, H1 {elo1:+g} Elo "
            "(alpha {alpha:g}, beta {beta:g}); {wins} wins, {draws} draws, {losses} losses"
        ).format(
            first=first,
            second=second,
            **local(
                elo0=test.elo0,
                elo1=test.elo1,
                alpha=test.alpha,
                beta=test.beta,
                wins=outcome.wins,
                draws=outcome.draws,
                losses=outcome.losses,
            ),
        ),
        _("LLR {llr:.3f} (bounds {lower:.3f}, {upper:.3f})").format(
            **local(llr=outcome.llr, lower=outcome.lower, upper=outcome.upper)
        ),
    ]
    if outcome.verdict == "H1":
        verdict = _(
            "H1 accepted: {first} is stronger than {second} (by about {elo1:g} Elo or more)."
        )
    elif outcome.verdict == "H0":
        verdict = _("H0 accepted: {first} is not {elo1:g} Elo stronger than {second}.")
    else:
        verdict = ngettext(
            "No verdict: the match reached its {games} game first (raise --games).",
            "No verdict: the match reached its {games} games first (raise --games).",
            report.spec.games,
        )
    lines.append(
        verdict.format(first=first, second=second, **local(elo1=test.elo1, games=report.spec.games))
    )
    return lines


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
        title=ngettext(
            "{games} game, {players} players",
            "{games} games, {players} players",
            len(report.results),
        ).format(games=len(report.results), players=spec.players)
    )
    for heading in (
        _("bot"),
        _("games"),
        _("wins"),
        _("draws"),
        _("losses"),
        _("win rate"),
        _("interval (95%)"),
        _("Elo"),
    ):
        table.add_column(heading, justify="left" if heading == _("bot") else "right")
    for s in sorted(report.standings, key=lambda s: -s.elo):
        table.add_row(
            s.entrant,
            whole(s.games),
            whole(s.wins),
            whole(s.draws),
            whole(s.losses),
            percent(s.win_rate, 1),
            f"{percent(s.ci_low, 1)} – {percent(s.ci_high, 1)}",
            decimal(s.elo, 0),
        )
    console.print(table)
    lines = [
        _("Draws: {n}").format(n=whole(report.draws)),
        _("How the games ended: {reasons}").format(
            reasons=", ".join(f"{end_reason(k)} {whole(v)}" for k, v in report.reasons.items())
            or "-"
        ),
        _("Mean game length: {turns:.1f} turns").format(**local(turns=report.mean_turns)),
        _(
            "First seat won {share:.1%} of decided games (95%: {low:.1%} – {high:.1%}; "
            "no advantage would be {fair:.1%})"
        ).format(
            **local(
                share=report.first_seat_wins,
                low=report.first_seat_ci[0],
                high=report.first_seat_ci[1],
                fair=report.fair_share,
            )
        ),
        _("Time: {seconds:.1f} s").format(**local(seconds=report.seconds)),
        _("Seed: {seed} (game k plays deal seed + k // seatings)").format(seed=spec.seed),
    ]
    if spec.isolate:
        lines.append(_("Every bot played in its own process, seeing only its seat."))
    if report.sprt is not None:
        lines.extend(_sprt_lines(report))
    lines.append(
        _("Moves replaced by random ones (bot failed, illegal or too slow): {counts}").format(
            counts=", ".join(f"{s.entrant} {whole(s.replaced)}" for s in report.standings)
        )
    )
    for line in lines:
        console.print(line)
