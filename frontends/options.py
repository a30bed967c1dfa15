"""What the game options become: :class:`PlayOptions`, what a person asked for on the command
line or a start screen, turned into a checked GameConfig against the installed plugins.

The options' click declarations and the parsers of their values are in
:mod:`cinco.frontends.cli_options` (``cinco --help`` imports that module and not this one, which
loads the engine and the plugins).

>>> PlayOptions().is_default, PlayOptions(players=3).is_default
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import click

from cinco.core.bots.simulation import DEFAULT_TURN_LIMIT
from cinco.core.engine.config import GameConfig, Seat
from cinco.core.engine.config import default_name as name_of
from cinco.core.engine.errors import ConfigError
from cinco.core.host.registry import Registry, default_registry
from cinco.core.words.i18n import N_, _

# The frontends read clean_text and clean_name here, with the rest of the options (re-exported).
from cinco.frontends.cli_options import clean_name as clean_name
from cinco.frontends.cli_options import clean_text, parse_bot, parse_name, parse_settings
from cinco.frontends.plugin_settings import chosen_settings

#: The bot that plays the other seats when nobody says otherwise.
DEFAULT_BOT = "greedy"


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
    #: Plugin settings (``--setting NAME=VALUE``), checked by the registry and recorded with
    #: the settings file's (:mod:`cinco.frontends.plugin_settings`), which they override.
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
            # The settings file's values, then --setting's (recorded with the game).
            settings=chosen_settings(registry, self.settings),
        )
        if config.all_bots:
            config = replace(config, turn_limit=DEFAULT_TURN_LIMIT)
        return config


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
