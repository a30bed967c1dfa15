"""Game options shared by every frontend: parsed once, turned into a checked GameConfig.

>>> parse_bot("2=greedy:hard")
(1, 'greedy', 'hard')
>>> parse_name("1=Ann")
(0, 'Ann')
>>> clean_text("Ann\x1b]0;pwned\x07\r\x9b")
'Ann]0;pwned'
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import click
from click.decorators import FC

from cinco.core.words.i18n import N_, _

if TYPE_CHECKING:
    from cinco.core.engine.config import GameConfig
    from cinco.core.host.registry import Registry


def default_registry() -> Registry:
    """The installation's registry, imported at the first use: the command line's help and
    completion need none of the engine."""
    from cinco.core.host.registry import default_registry as registry

    return registry()


#: The bot that plays the other seats when nobody says otherwise.
DEFAULT_BOT = "greedy"

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


@dataclass
class PlayOptions:
    """What a person asked for on the command line (or on a start screen)."""

    players: int | None = None
    layout: str | None = None
    variants: tuple[str, ...] = ()
    bots: dict[int, tuple[str, str | None]] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    seed: int | None = None
    record: Path | None = None
    resume: Path | None = None
    delay: float = 0.6
    #: Kivy app only: render the first screen once, save it as this PNG and exit.
    screenshot: Path | None = None
    #: Plugin settings (``--setting NAME=VALUE``), checked by the registry and recorded.
    settings: dict[str, str] = field(default_factory=dict)

    @property
    def is_default(self) -> bool:
        """Nothing about the table was chosen: a frontend may ask, or use the quick game."""
        return (
            self.players is None
            and not self.bots
            and not self.names
            and not self.variants
            and not self.settings
        )

    def config(self, registry: Registry, seed: int | None = None) -> GameConfig:
        """A checked configuration. With no bot named, every seat but the first is the
        default bot (one person against the computer). The seed is *seed*, else ``--seed``,
        else none (the table draws one from the operating system, and never shows it)."""
        from cinco.core.bots.simulation import DEFAULT_TURN_LIMIT
        from cinco.core.engine.config import Seat
        from cinco.core.engine.config import default_name as name_of
        from cinco.core.engine.errors import ConfigError

        seed = self.seed if seed is None else seed
        players = self.players or 2
        layout = registry.layout(players, self.layout)
        for seat in (*self.bots, *self.names):
            if seat >= players:
                raise ConfigError(
                    _("There is no seat {n} in a {players}-player game.").format(
                        n=seat + 1, players=players
                    )
                )
        bots = dict(self.bots)
        if not bots and self.players is None:
            bots = {seat: (DEFAULT_BOT, None) for seat in range(1, players)}
        seats = []
        for index in range(players):
            bot, level = bots.get(index, (None, None))
            default_name = f"{bot.capitalize()} {index + 1}" if bot else name_of(index)
            seats.append(Seat(self.names.get(index, default_name), bot=bot, level=level))
        config = registry.configure(
            players,
            layout=layout.name,
            variants=self.variants,
            seats=seats,
            seed=seed,
            settings=self.settings,
        )
        if config.all_bots:
            config = replace(config, turn_limit=DEFAULT_TURN_LIMIT)
        return config


class RegistryChoice(click.ParamType):  # type: ignore[type-arg]  # generic in newer click
    """One of the player counts or layouts the installed plugins register, looked up when the
    option is used: a layout added by a third-party plugin is accepted like a built-in one."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.name = kind

    def choices(self) -> list[str]:
        registry = default_registry()
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
        click.option(
            "--setting",
            "settings",
            multiple=True,
            metavar="NAME=VALUE",
            help=N_("Set a plugin's setting for this game (repeatable; cinco plugins lists them)."),
        ),
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


def check_bot(name: str, level: str | None, option: str = "--bot") -> None:
    """*name* must be an installed bot and *level* one of its levels: a typo is refused,
    naming what is installed (it never makes the seat a person's)."""
    bots = default_registry().bots()
    if name not in bots:
        raise click.BadParameter(
            _("Unknown bot {name!r}. Installed bots: {choices}.").format(
                name=clean_text(name), choices=", ".join(sorted(bots))
            ),
            param_hint=option,
        )
    levels = bots[name].levels
    if level is not None and level not in levels:
        raise click.BadParameter(
            _("{bot} has no level {level!r}. Levels: {levels}.").format(
                bot=name, level=clean_text(level), levels=", ".join(levels) or "-"
            ),
            param_hint=option,
        )


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


def options_from(values: dict[str, object]) -> PlayOptions:
    """Build :class:`PlayOptions` from the keyword arguments :func:`play_options` adds."""
    bots: dict[int, tuple[str, str | None]] = {}
    for text in values.get("bots") or ():  # type: ignore[attr-defined]
        seat, name, level = parse_bot(str(text))
        if seat in bots:
            raise click.BadParameter(
                _("Seat {n} is given twice.").format(n=seat + 1), param_hint="--bot"
            )
        check_bot(name, level)
        bots[seat] = (name, level)
    names: dict[int, str] = {}
    for text in values.get("names") or ():  # type: ignore[attr-defined]
        seat, name = parse_name(str(text))
        if seat in names:
            raise click.BadParameter(
                _("Seat {n} is given twice.").format(n=seat + 1), param_hint="--name"
            )
        names[seat] = name
    players = values.get("players")
    layout = values.get("layout")
    if isinstance(layout, str) and players is None:
        # A layout says how many play (2x3: six).
        chosen = default_registry().layouts().get(layout)
        players = chosen.players if chosen is not None else None
    return PlayOptions(
        players=int(players) if players is not None else None,  # type: ignore[call-overload]
        layout=layout,  # type: ignore[arg-type]
        variants=tuple(values.get("variants") or ()),  # type: ignore[arg-type]
        bots=bots,
        names=names,
        seed=values.get("seed"),  # type: ignore[arg-type]
        record=values.get("record"),  # type: ignore[arg-type]
        resume=values.get("resume"),  # type: ignore[arg-type]
        delay=float(values.get("delay") or 0.0),  # type: ignore[arg-type]
        screenshot=values.get("screenshot"),  # type: ignore[arg-type]
        settings=parse_settings(values.get("settings") or ()),  # type: ignore[arg-type]
    )


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


def batch_options(*, records_help: str, turn_limit: int) -> Callable[[FC], FC]:
    """The table and batch options of the bot-only commands (``simulate``, ``arena``):
    ``--players``, ``--layout``, ``--variant``, ``--games``, ``--turn-limit``, ``--records``."""
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
            help=N_("End a game in a draw after this many turns (E4)."),
        ),
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


#: Player counts in words, for messages.
_COUNT_WORDS = {2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five"), 6: N_("six")}


def check_layout(players: str | int, layout: str | None) -> None:
    """``--layout`` must be a layout for that many players (as its plugin registers it)."""
    if layout is None:
        return
    chosen = default_registry().layouts().get(layout)
    if chosen is not None and chosen.players != int(players):
        raise click.BadParameter(
            _("--layout {name} is for {n} players, not {players}.").format(
                name=layout,
                n=_(_COUNT_WORDS.get(chosen.players, str(chosen.players))),
                players=players,
            ),
            param_hint="--layout",
        )
