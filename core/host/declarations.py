"""The value types a plugin declares: :class:`Variant`, :class:`BotSpec` (and the :class:`Bot`
it makes, told a :class:`BotContext`), :class:`Setting` and :class:`TeamStyle` (layouts are the
engine's :class:`~cinco.core.engine.config.Layout`).

A plugin imports these without importing the loader (:mod:`cinco.core.host.registry`).

>>> Setting("x.n", "", 3).parse("4")
4
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from cinco.core.engine.errors import ConfigError
from cinco.core.words.i18n import N_, _
from cinco.core.words.messages import declare_end_reasons

if TYPE_CHECKING:
    from cinco.core.engine.commands import Command
    from cinco.core.engine.config import GameConfig
    from cinco.core.engine.legal import LegalActions
    from cinco.core.engine.oracle import RulesOracle
    from cinco.core.engine.state import GameState


@dataclass(frozen=True)
class Variant:
    """A rule variant. ``rules`` is a plugin object implementing rule hooks; it is registered
    only in games that enable the variant. ``rules_text`` is the variant's own rules in Markdown
    (optional, hook API 2), shown by ``cinco rules`` after the standard rules.

    ``incompatible`` names the variants this one cannot be played with, and ``requires`` the
    ones it must be played with (hook API 2): a game choosing an incompatible pair, or this
    variant without one it requires, is refused before it starts (either side may declare an
    incompatibility; names of variants not installed are ignored)."""

    name: str
    description: str
    rules: object
    rules_text: str = ""
    incompatible: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    #: The variant's name as players read it, a msgid (``N_("Joker")``; hook API 2): the
    #: frontends show it translated, where ``name`` is what commands and records use.
    title: str = ""
    #: Words for the ``reason`` codes of the outcomes this variant's ``cinco_game_end``
    #: returns, as msgids (``{"scored": N_("the most points")}``): shown wherever the end of
    #: a game is told, instead of the code (hook API 3; docs/plugins.md, "Words").
    end_reasons: Mapping[str, str] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        declare_end_reasons(self.end_reasons)

    @property
    def label(self) -> str:
        """The variant's name in the user's language (``Joker``, Czech ``Žolík``)."""
        if self.title:
            return _(self.title)
        return self.name.replace("_", " ").replace("-", " ").capitalize()


@dataclass(frozen=True)
class TeamStyle:
    """How the frontends draw a team (hook API 2, :func:`cinco_register_team_styles`): a
    ``name`` players read ("blue": an English word, translated where shown), a ``colour``
    (``#RRGGBB``), a ``symbol`` for its tokens in the terminal, an ``ascii_symbol`` for
    terminals that show only ASCII, and the ``shape`` of its tokens in the app (one of
    :data:`TOKEN_SHAPES`)."""

    name: str
    colour: str
    symbol: str
    ascii_symbol: str
    shape: str = "circle"


@dataclass(frozen=True)
class Setting:
    """A setting a plugin declares (hook API 2, :func:`cinco_register_settings`), chosen per
    game (``cinco --setting NAME=VALUE``, ``Registry.configure(settings=...)``) and recorded
    in the game's options, so that a replay knows it. ``default`` (text, a whole number, a
    number or true/false) gives its type; ``choices``, when given, are the values allowed.
    Name it after the plugin (``"game_log.level"``) so that names do not clash."""

    name: str
    description: str
    default: str | int | float | bool
    choices: tuple[str | int | float | bool, ...] = ()

    def parse(self, value: object) -> str | int | float | bool:
        """*value* (text from a command line, or a value) as this setting's type, checked.

        >>> Setting("x.n", "", 3).parse("4"), Setting("x.on", "", False).parse("yes")
        (4, True)
        """
        kind = type(self.default)
        try:
            if isinstance(value, kind) and not (kind is not bool and isinstance(value, bool)):
                parsed: str | int | float | bool = value
            elif not isinstance(value, str):
                raise ValueError
            elif kind is bool:
                words = {"true": True, "yes": True, "on": True, "1": True}
                words |= {"false": False, "no": False, "off": False, "0": False}
                parsed = words[value.strip().lower()]
            else:
                parsed = kind(value.strip())
        except (KeyError, ValueError):
            raise ConfigError(
                _("The setting {name} takes {kind}, not {value!r}.").format(
                    name=self.name, kind=_(SETTING_KINDS[kind]), value=value
                )
            ) from None
        if self.choices and parsed not in self.choices:
            raise ConfigError(
                _("The setting {name} is one of {choices}, not {value!r}.").format(
                    name=self.name, choices=", ".join(map(str, self.choices)), value=value
                )
            )
        return parsed


SETTING_KINDS = {
    str: N_("text"),
    int: N_("a whole number"),
    float: N_("a number"),
    bool: N_("true or false"),
}

#: The game option holding the plugin settings chosen for a game (name → value).
SETTINGS_OPTION = "settings"


#: The token shapes the app draws.
TOKEN_SHAPES = ("circle", "triangle", "square", "diamond", "hexagon")


@dataclass(frozen=True)
class BotContext:
    """What a bot is told when it takes a seat. Nothing here is secret: ``config`` is the
    configuration as the seat sees it (no seed), and ``rules`` is a read-only
    :class:`~cinco.core.engine.oracle.RulesOracle` for look-ahead, not the game's rule set."""

    seat: int
    config: GameConfig
    rules: RulesOracle
    level: str | None = None
    seed: int = 0
    #: Seconds per move the bot may think, when the game sets a budget.
    time_budget: float | None = None
    #: A search bot's fixed budget of iterations per move, when the game sets one (a budget
    #: that, unlike time, makes its moves reproducible). Bots without a search ignore it.
    iterations: int | None = None


class Bot(Protocol):
    """A computer player. It sees only its own player's view of the game."""

    def choose(self, view: GameState, legal: LegalActions) -> Command:
        """Pick one of *legal* (never empty) given *view*, the state as this seat sees it."""
        ...


@dataclass(frozen=True)
class BotSpec:
    """A kind of bot a plugin offers: ``create`` makes one for a seat."""

    name: str
    description: str
    create: Callable[[BotContext], Bot]
    levels: tuple[str, ...] = ()
    #: The bot's name as players read it, a msgid (``N_("Monte Carlo")``; hook API 2).
    title: str = ""

    @property
    def label(self) -> str:
        """The bot's name in the user's language: its title, else its name, capitalised."""
        if self.title:
            return _(self.title)
        return self.name.replace("_", " ").replace("-", " ").capitalize()


#: The usual bot levels in words (a plugin's other levels are shown as they are named).
LEVEL_WORDS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def level_label(level: str) -> str:
    """A bot level in the user's language (``hard`` → Czech ``těžká``)."""
    return _(LEVEL_WORDS[level]) if level in LEVEL_WORDS else level
