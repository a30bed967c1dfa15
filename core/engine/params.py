"""Game parameters: the numbers of the rules that a variant may change (hook API 2).

A game's :class:`GameParams` are resolved once, when the game is created, by asking each
enabled variant's ``cinco_game_params`` hook in the order the variants are listed; they are
recorded in the game's configuration (its ``game_started`` event), so that a record says the
rules it was played by. A record written before parameters existed holds none: it is a game of
the standard parameters, :data:`STANDARD_PARAMS`.

>>> STANDARD_PARAMS.hand_limit, STANDARD_PARAMS.winning_length
(4, 5)
>>> five = GameParams(hand_limit=5, deal=5, exchange_size=5)
>>> five.to_dict()
{'hand_limit': 5, 'deal': 5, 'exchange_size': 5}
>>> GameParams.from_dict(five.to_dict()) == five
True
>>> GameParams(winning_length=1)
Traceback (most recent call last):
...
cinco.core.engine.errors.ConfigError: The winning length must be 2 to 9, not 1.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from cinco.core.engine.board import SPACES
from cinco.core.engine.errors import ConfigError
from cinco.core.words.i18n import _

#: The largest hand a game may have: the deck must still hold cards for every deal.
MAX_HAND = 10
#: The longest winning line: the board's longest straight runs have nine spaces.
MAX_LENGTH = 9


@dataclass(frozen=True, slots=True)
class GameParams:
    """The numbers of a game's rules. The defaults are the standard game.

    ``hand_limit`` (A5): a player may draw only below it. ``deal`` (S1): cards each player is
    dealt. ``cards_per_draw`` (A3): cards a draw takes (never beyond the hand limit).
    ``exchange_size`` (A4): the hand size that may be exchanged, for as many new cards.
    ``winning_length`` (E1): the tokens of a winning line. ``tokens_per_team`` (C1, E2): a team
    that places its last token without winning ends the game in a stalemate. ``blocked``:
    spaces no token may take, ever (the board is full, E3, when every other space is taken).
    """

    hand_limit: int = 4
    deal: int = 4
    cards_per_draw: int = 1
    exchange_size: int = 4
    winning_length: int = 5
    tokens_per_team: int = 35
    blocked: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        for f in fields(self):
            if f.name == "blocked":
                continue
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(
                    _("The game parameter {name} must be a whole number, not {value!r}.").format(
                        name=f.name, value=value
                    )
                )
        if not 1 <= self.hand_limit <= MAX_HAND:
            raise ConfigError(
                _("The hand limit must be 1 to {most}, not {n}.").format(
                    most=MAX_HAND, n=self.hand_limit
                )
            )
        if not 1 <= self.deal <= self.hand_limit:
            raise ConfigError(
                _("The deal must be 1 to the hand limit ({limit}), not {n}.").format(
                    limit=self.hand_limit, n=self.deal
                )
            )
        if not 1 <= self.cards_per_draw <= self.hand_limit:
            raise ConfigError(
                _("The cards per draw must be 1 to the hand limit ({limit}), not {n}.").format(
                    limit=self.hand_limit, n=self.cards_per_draw
                )
            )
        if not 1 <= self.exchange_size <= self.hand_limit:
            raise ConfigError(
                _("The exchange size must be 1 to the hand limit ({limit}), not {n}.").format(
                    limit=self.hand_limit, n=self.exchange_size
                )
            )
        if not 2 <= self.winning_length <= MAX_LENGTH:
            raise ConfigError(
                _("The winning length must be 2 to {most}, not {n}.").format(
                    most=MAX_LENGTH, n=self.winning_length
                )
            )
        if not 1 <= self.tokens_per_team <= SPACES:
            raise ConfigError(
                _("The tokens per team must be 1 to {all}, not {n}.").format(
                    all=SPACES, n=self.tokens_per_team
                )
            )
        blocked = self.blocked
        if not isinstance(blocked, tuple | list) or not all(
            isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= SPACES for n in blocked
        ):
            raise ConfigError(
                _("The blocked spaces must be spaces 1 to {all}, not {value!r}.").format(
                    all=SPACES, value=blocked
                )
            )
        normal = tuple(sorted(set(blocked)))
        if len(normal) > SPACES - 2 * self.winning_length:
            raise ConfigError(_("Too many spaces are blocked to play on the board."))
        object.__setattr__(self, "blocked", normal)

    @property
    def is_standard(self) -> bool:
        return self == STANDARD_PARAMS

    @property
    def open_spaces(self) -> int:
        """How many spaces tokens may take (E3: the board is full when all are taken)."""
        return SPACES - len(self.blocked)

    def to_dict(self) -> dict[str, Any]:
        """The parameters that differ from the standard game's (what a record holds)."""
        data: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value != getattr(STANDARD_PARAMS, f.name):
                data[f.name] = list(value) if isinstance(value, tuple) else value
        return data

    @classmethod
    def from_dict(cls, data: Any) -> GameParams:
        """Parameters from :meth:`to_dict` output: missing ones are the standard game's."""
        if data is None:
            return STANDARD_PARAMS
        if not isinstance(data, dict):
            raise ConfigError(
                _("The game parameters must be an object, not {value!r}.").format(value=data)
            )
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(
                _("Unknown game parameters: {names}. This Cinco knows {known}.").format(
                    names=", ".join(unknown), known=", ".join(sorted(known))
                )
            )
        values = dict(data)
        if "blocked" in values:
            if not isinstance(values["blocked"], list | tuple):
                raise ConfigError(_("The blocked spaces must be a list of spaces."))
            values["blocked"] = tuple(values["blocked"])
        return cls(**values)

    def describe(self) -> list[str]:
        """The parameters that differ from the standard game's, in words (one line each)."""
        words = {
            "hand_limit": _("hand limit {value}"),
            "deal": _("deal {value}"),
            "cards_per_draw": _("draw {value} at a time"),
            "exchange_size": _("exchange {value}"),
            "winning_length": _("{value} in a row"),
            "tokens_per_team": _("{value} tokens per team"),
            "blocked": _("blocked {value}"),
        }
        lines = []
        for f in fields(self):
            value = getattr(self, f.name)
            if value != getattr(STANDARD_PARAMS, f.name):
                shown = ", ".join(map(str, value)) if isinstance(value, tuple) else value
                lines.append(words[f.name].format(value=shown))
        return lines


#: The standard game's parameters.
STANDARD_PARAMS = GameParams()
