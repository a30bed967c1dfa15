"""``cinco simulate``: bot-only games on this machine, summarised (wins, draws, turns a
second). The top-level command (:mod:`cinco.frontends.main`) imports this module only when it
runs."""

from __future__ import annotations

import json
from pathlib import Path

import click

from cinco.core.bots import simulation
from cinco.core.bots.simulation import DEFAULT_TURN_LIMIT, Summary
from cinco.core.engine.errors import CincoError
from cinco.core.host.registry import default_registry
from cinco.core.words.i18n import N_, _, ngettext
from cinco.core.words.messages import end_reason
from cinco.core.words.numbers import local, whole
from cinco.frontends.cli_options import SEED, batch_options, clean_text, parse_settings
from cinco.frontends.options import check_layout
from cinco.frontends.plugin_settings import chosen_settings


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
    settings: tuple[str, ...],
    records: Path | None,
    as_json: bool,
) -> None:
    """Play bot-only games and summarise them."""
    names = [name.strip() for name in bots.split(",") if name.strip()]
    if not names:
        raise click.BadParameter(_("Name at least one bot."), param_hint="--bots")
    check_layout(players, layout)
    registry = default_registry()
    try:
        summary = simulation.simulate(
            registry,
            players=int(players),
            bots=names,
            games=games,
            seed=seed,
            layout=layout,
            variants=variants,
            records=records,
            turn_limit=turn_limit,
            settings=chosen_settings(registry, parse_settings(settings)),
        )
    except CincoError as exc:  # a bad option, or a variant's rule hook that failed
        raise click.ClickException(clean_text(str(exc))) from None
    if as_json:
        click.echo(json.dumps(summary.to_dict()))
    else:
        for line in summary_lines(summary):
            click.echo(line)
    if summary.failed:  # the run went on, but a game failed: say so to scripts too
        click.get_current_context().exit(1)


def summary_lines(summary: Summary) -> list[str]:
    """The summary in words: teams numbered from 1, each with its bots."""
    lines = [
        ngettext(
            "{games} game, {actions} turns in {seconds:.2f} s ({rate:.0f} turns/s)",
            "{games} games, {actions} turns in {seconds:.2f} s ({rate:.0f} turns/s)",
            summary.games,
        ).format(
            **local(
                games=summary.games,
                actions=summary.actions,
                seconds=summary.seconds,
                rate=summary.actions / summary.seconds if summary.seconds else 0,
            )
        )
    ]
    for team, team_bots in enumerate(summary.teams):
        wins = summary.wins[team]
        lines.append(
            ngettext(
                "  team {team} ({bots}): {n} win", "  team {team} ({bots}): {n} wins", wins
            ).format(team=team + 1, bots=clean_text(", ".join(team_bots)), n=whole(wins))
        )
    lines.append(_("  draws: {n}").format(n=whole(summary.draws)))
    for reason, count in sorted(summary.reasons.items()):
        shown = clean_text(end_reason(reason))
        lines.append(f"  {shown}: {whole(count)}")
    lines.append(
        _("  moves replaced by random ones (bot failed, illegal or too slow): {counts}").format(
            counts=", ".join(f"{clean_text(bot)} {summary.replaced[bot]}" for bot in summary.bots)
        )
    )
    for failure in summary.failed:  # a plugin's rule hook failed: the game could not go on
        lines.append(
            _("  game {seed} failed: the plugin {plugin} failed in {hook} ({error})").format(
                seed=failure.seed,
                plugin=clean_text(failure.plugin),
                hook=failure.hook,
                error=clean_text(failure.error),
            )
        )
    return lines
