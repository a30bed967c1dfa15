"""The ``cinco`` command: play (``--frontend cli`` or ``kivy``), and the tool commands.

Each subcommand lives in a small module of its own, imported only when it runs: ``cinco
--help`` and shell completion (which runs the program at every Tab) import neither the engine
nor rich. :data:`COMMANDS` names them, and :data:`PLAY` what ``cinco`` alone runs, each as
``"module:attribute"``, loaded with :func:`load` (click's "lazy loading of subcommands"); the
modules named import what they need at their top.
"""

from __future__ import annotations

import importlib
from typing import Any

import click
from click.shell_completion import CompletionItem

from cinco import __version__
from cinco.core.words.i18n import N_, _

from .cli_i18n import LocalizedGroup, lang_option, localize_command
from .cli_options import play_options

FRONTENDS = ("cli", "kivy")

#: What ``cinco`` with no subcommand runs: a game, in the frontend asked for.
PLAY = "cinco.frontends.launch:play"

#: Every subcommand: where it is defined, and the line ``cinco --help`` shows for it.
COMMANDS: dict[str, tuple[str, str]] = {
    "board": (
        "cinco.frontends.board_cmd:board",
        N_("Draw the board: 90 numbered spaces around the empty centre."),
    ),
    "simulate": (
        "cinco.frontends.simulate_cmd:simulate",
        N_("Play bot-only games and summarise them."),
    ),
    "replay": (
        "cinco.frontends.replay_cmd:replay",
        N_("Replay a game record, move by move."),
    ),
    "rules": (
        "cinco.frontends.rules_cmd:rules",
        N_("Print the rules of Cinco and of its variants."),
    ),
    "plugins": (
        "cinco.frontends.plugins_cmd:plugins",
        N_("List the loaded plugins and what they add."),
    ),
    "arena": (
        "cinco.frontends.arena:arena",
        N_("Let bots play each other and report win rates."),
    ),
    "serve": (
        "cinco.frontends.net.commands:serve",
        N_("Run a Cinco server: many tables, each player on their own device."),
    ),
    "table": (
        "cinco.frontends.net.commands:table",
        N_("Tables on a Cinco server: create, list, export."),
    ),
    "join": (
        "cinco.frontends.net.commands:join",
        N_("Take a seat at a server's table with its invite code, and play."),
    ),
    "watch": (
        "cinco.frontends.net.commands:watch",
        N_("Watch a server's table with its watch code."),
    ),
}


class CincoGroup(LocalizedGroup):
    """The top-level group, loading each subcommand (:data:`COMMANDS`) when it is asked for."""

    def command_names(self) -> set[str]:
        return {*COMMANDS, *self.commands}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMANDS:
            path, short_help = COMMANDS[name]
            command: click.Command = load(path)
            command.short_help = short_help
            localize_command(command)
            self.add_command(command, name)
        return self.commands.get(name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # The listing's lines come from the table, so that the help imports no subcommand.
        rows = [(name, _(COMMANDS[name][1])) for name in sorted(COMMANDS)]
        if rows:
            with formatter.section(_("Commands")):
                formatter.write_dl(rows)

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        names = [name for name in self.list_commands(ctx) if name.startswith(incomplete)]
        items = [CompletionItem(name, help=_(COMMANDS[name][1])) for name in names]
        return items + click.Command.shell_complete(self, ctx, incomplete)


def load(path: str) -> Any:
    """The object *path* names, ``"module:attribute"``, its module imported now."""
    module, _colon, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


@click.group(
    cls=CincoGroup,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@lang_option
@click.option(
    "--frontend",
    type=click.Choice(FRONTENDS),
    default="cli",
    show_default=True,
    help=N_("Where to play: the terminal (cli) or the tablet app (kivy)."),
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
    load(PLAY)(frontend, values)
