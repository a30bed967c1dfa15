r"""The click options and parameter types of the commands that set up games (``cinco`` itself,
``simulate``, ``arena``, ``serve``): ``--players``, ``--layout``, ``--variant``, ``--seed``,
``--setting``, ``--delay``...,
and the parsers of what is typed into them (``--bot 2=greedy``, a player's name).

``cinco --help`` and shell completion import this module, so it imports none of the engine:
the installed player counts and layouts are looked up in the plugin catalogue only when such an
option is given (:class:`RegistryChoice`). What the options become is in
:mod:`cinco.frontends.options`.

>>> parse_bot("2=greedy:hard")
(1, 'greedy', 'hard')
>>> parse_name("1=Ann")
(0, 'Ann')
>>> clean_text("Ann\x1b]0;pwned\x07\r\x9b")
'Ann]0;pwned'
"""

from __future__ import annotations

import importlib
import math
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click
from click.decorators import FC

from cinco.core.words.i18n import N_, _

if TYPE_CHECKING:
    from cinco.core.host.registry import Registry

#: The module that says which registry the options are checked against, loaded by
#: :func:`installed` when a player count or a layout is checked: it loads the engine and every
#: plugin, which the help and completion never need.
OPTIONS_MODULE = "cinco.frontends.options"


def installed() -> Registry:
    """The registry of the installed plugins (:func:`cinco.frontends.options.default_registry`,
    the one every option of the command line is checked against)."""
    registry: Registry = importlib.import_module(OPTIONS_MODULE).default_registry()
    return registry


#: The longest player's name kept (longer ones are cut).
NAME_LENGTH = 20

#: The longest ``--delay``: a minute between bot moves.
MAX_DELAY = 60.0


# C0 and C1 control characters (ESC, BEL, CR, backspace...), DEL, and the bidirectional
# overrides and isolates, which can make a line read differently from what it holds.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_CONTROL_KEEPING_LINES = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def clean_text(text: str, *, lines: bool = False) -> str:
    """*text* without control characters and escape sequences' introducers, so that a name
    or a message from a user, a record or a plugin cannot move the cursor, set the window
    title or draw over the screen. *lines*: keep line breaks."""
    return (_CONTROL_KEEPING_LINES if lines else _CONTROL).sub("", text)


def clean_name(text: str) -> str:
    """A player's name as typed: no control characters, spaces trimmed, at most
    :data:`NAME_LENGTH` characters."""
    return " ".join(clean_text(text).split())[:NAME_LENGTH]


def _seat_number(text: str, option: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise click.BadParameter(
            _("{text!r} is not a seat number; seats are numbered from 1.").format(text=text),
            param_hint=option,
        ) from None
    if number < 1:
        raise click.BadParameter(_("Seats are numbered from 1."), param_hint=option)
    return number - 1


def parse_bot(text: str) -> tuple[int, str, str | None]:
    """``SEAT=NAME[:LEVEL]`` (seat from 1) → ``(seat index, bot name, level)``."""
    seat, sep, rest = text.partition("=")
    if not sep or not rest:
        raise click.BadParameter(
            _("Write --bot SEAT=NAME[:LEVEL], for example --bot 2=greedy."), param_hint="--bot"
        )
    name, _colon, level = rest.partition(":")
    return _seat_number(seat, "--bot"), name, level or None


def parse_name(text: str) -> tuple[int, str]:
    """``SEAT=NAME`` (seat from 1) → ``(seat index, name)``."""
    seat, sep, name = text.partition("=")
    name = clean_name(name)
    if not sep or not name:
        raise click.BadParameter(
            _("Write --name SEAT=NAME, for example --name 1=Ann."), param_hint="--name"
        )
    return _seat_number(seat, "--name"), name


def parse_settings(texts: Sequence[str]) -> dict[str, str]:
    """``--setting NAME=VALUE`` options as a mapping (the registry checks the values).

    >>> parse_settings(["tally.every=5"])
    {'tally.every': '5'}
    """
    settings: dict[str, str] = {}
    for text in texts:
        name, equals, value = str(text).partition("=")
        if not equals or not name.strip():
            raise click.BadParameter(
                _("{text!r} is not NAME=VALUE, for example tally.every=5.").format(text=text),
                param_hint="--setting",
            )
        if name.strip() in settings:
            raise click.BadParameter(
                _("The setting {name} is given twice.").format(name=name.strip()),
                param_hint="--setting",
            )
        settings[name.strip()] = value.strip()
    return settings


class RegistryChoice(click.ParamType):  # type: ignore[type-arg]  # generic in newer click
    """One of the player counts or layouts the installed plugins register, looked up when the
    option is used: a layout added by a third-party plugin is accepted like a built-in one."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.name = kind

    def choices(self) -> list[str]:
        registry = installed()
        if self.kind == "players":
            return [str(n) for n in registry.player_counts()]
        return list(registry.layouts())

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> str:
        text = str(value).strip()
        choices = self.choices()
        if text not in choices:
            self.fail(
                _("{value!r} is not one of {choices}.").format(
                    value=text, choices=", ".join(repr(choice) for choice in choices)
                ),
                param,
                ctx,
            )
        return text


#: ``--players N``: a player count some installed layout is for.
PLAYERS = RegistryChoice("players")
#: ``--layout NAME``: an installed layout.
LAYOUTS = RegistryChoice("layout")


#: ``--variant NAME`` (repeatable), for every command that sets up games.
variant_option = click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="NAME",
    help=N_("Play a variant, for example joker (repeatable)."),
)


#: ``--setting NAME=VALUE`` (repeatable), for every command that runs games: it overrides the
#: settings file (:mod:`cinco.frontends.plugin_settings`).
setting_option = click.option(
    "--setting",
    "settings",
    multiple=True,
    metavar="NAME=VALUE",
    help=N_(
        "Set a plugin's setting, over the settings file (repeatable; cinco plugins lists them)."
    ),
)


def play_options(function: FC) -> FC:
    """The options that set up a game, for any command or frontend that starts one."""
    decorators = [
        click.option(
            "--players",
            "-p",
            type=PLAYERS,
            metavar="N",
            help=N_("Number of players (2, 3, 4 or 6, or what an installed layout adds)."),
        ),
        click.option(
            "--layout",
            type=LAYOUTS,
            metavar="NAME",
            help=N_(
                "How the seats form teams: six players are 2 teams of 3 (2x3) or 3 teams of 2 "
                "(3x2); cinco plugins lists every layout."
            ),
        ),
        variant_option,
        click.option(
            "--bot",
            "bots",
            multiple=True,
            metavar="SEAT=NAME[:LEVEL]",
            help=N_("Let a bot play a seat, for example 2=greedy (repeatable)."),
        ),
        click.option(
            "--name",
            "names",
            multiple=True,
            metavar="SEAT=NAME",
            help=N_("Name a seat's player, for example 1=Ann (repeatable)."),
        ),
        click.option("--seed", type=SEED, help=N_("Seed for a reproducible game.")),
        setting_option,
        click.option(
            "--record",
            type=click.Path(dir_okay=False, path_type=Path),
            help=N_("Where to write the game record."),
        ),
        click.option(
            "--resume",
            type=click.Path(dir_okay=False, path_type=Path),
            help=N_("Continue the game in this record."),
        ),
        click.option(
            "--delay",
            type=Seconds(MAX_DELAY),
            default=0.6,
            show_default=True,
            help=N_("Seconds between bot moves."),
        ),
        click.option(
            "--screenshot",
            type=click.Path(dir_okay=False, path_type=Path),
            help=N_("Kivy app: show the first screen once, save it as this PNG and exit."),
        ),
    ]
    for decorator in reversed(decorators):
        function = decorator(function)
    return function


#: Seeds have at most this many digits: a longer one would name files too long to write.
SEED_DIGITS = 18


class SeedType(click.ParamType):  # type: ignore[type-arg]  # generic in newer click
    """``--seed N``: a whole number of at most :data:`SEED_DIGITS` digits."""

    name = "integer"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            text = str(value)
        else:
            text = str(value).strip()
        digits = text.removeprefix("-")
        if not (digits.isascii() and digits.isdigit()) or len(digits) > SEED_DIGITS:
            self.fail(
                _(
                    "{value!r} is not a seed: a seed is a whole number of at most {n} digits."
                ).format(value=text if len(text) <= 30 else text[:27] + "...", n=SEED_DIGITS),
                param,
                ctx,
            )
        return int(text)


#: ``--seed N``, for every command that takes one.
SEED = SeedType()


class Seconds(click.ParamType):  # type: ignore[type-arg]  # generic in newer click
    """A number of seconds from 0 (or, *positive*, above 0) to *maximum*: never ``inf``,
    ``nan`` or negative."""

    name = "seconds"

    def __init__(self, maximum: float, *, positive: bool = False) -> None:
        self.maximum = maximum
        self.positive = positive

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        try:
            seconds = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError):
            self.fail(_("{value!r} is not a number of seconds.").format(value=value), param, ctx)
        low_ok = seconds > 0 if self.positive else seconds >= 0
        if not math.isfinite(seconds) or not low_ok or seconds > self.maximum:
            self.fail(
                _("Give a number of seconds {low} {high:g}, not {value}.").format(
                    low=_("above 0, up to") if self.positive else _("from 0 to"),
                    high=self.maximum,
                    value=value,
                ),
                param,
                ctx,
            )
        return seconds


def batch_options(*, records_help: str, turn_limit: int) -> Callable[[FC], FC]:
    """The table and batch options of the bot-only commands (``simulate``, ``arena``):
    ``--players``, ``--layout``, ``--variant``, ``--games``, ``--turn-limit``, ``--setting``,
    ``--records``."""
    decorators = [
        click.option(
            "--players",
            "-p",
            type=PLAYERS,
            default="2",
            show_default=True,
            metavar="N",
            help=N_("Number of players."),
        ),
        click.option(
            "--layout", type=LAYOUTS, metavar="NAME", help=N_("The layout (six players: 2x3, 3x2).")
        ),
        variant_option,
        click.option(
            "--games",
            "-n",
            type=click.IntRange(min=1),
            default=100,
            show_default=True,
            help=N_("How many games."),
        ),
        click.option(
            "--turn-limit",
            type=click.IntRange(min=1),
            default=turn_limit,
            show_default=True,
            help=N_("End a game in a draw after this many turns."),
        ),
        setting_option,
        click.option(
            "--records",
            type=click.Path(file_okay=False, path_type=Path),
            help=records_help,
        ),
    ]

    def decorate(function: FC) -> FC:
        for decorator in reversed(decorators):
            function = decorator(function)
        return function

    return decorate
