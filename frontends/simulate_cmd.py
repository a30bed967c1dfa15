"""``cinco simulate``: bot-only games on this machine, summarised (wins, draws, turns a
second). The top-level command (:mod:`cinco.frontends.main`) imports this module only when it
runs."""

from __future__ import annotations

import json
from pathlib import Path

import click

from cinco.core.bots import simulation
from cinco.core.bots.simulation import DEFAULT_TURN_LIMIT
from cinco.core.engine.errors import CincoError
from cinco.core.host.registry import default_registry
from cinco.core.words.i18n import N_, _, ngettext
from cinco.core.words.messages import end_reason
from cinco.frontends.cli_options import SEED, batch_options, clean_text
from cinco.frontends.options import check_layout


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
    names = [name.strip() for name in bots.split(",") if name.strip()]
    if not names:
        raise click.BadParameter(_("Name at least one bot."), param_hint="--bots")
    check_layout(players, layout)
    try:
        summary = simulation.simulate(
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
