"""Reading what a player types: forgiving, and never an exception.

>>> parse("34")
Play(card=34, space=None)
>>> parse(" 34 36 ")
Play(card=34, space=36)
>>> parse("34 on 36"), parse("34>36"), parse("34,36")
(Play(card=34, space=36), Play(card=34, space=36), Play(card=34, space=36))
>>> parse("D"), parse("exchange"), parse("?"), parse("")
(Draw(), Exchange(), Help(), Empty())
>>> parse("34?"), parse("? 34")
(Show(card=34), Show(card=34))
>>> parse("fish"), parse("²"), parse("9" * 5000) == Unknown("9" * 5000)
(Unknown(text='fish'), Unknown(text='²'), True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Play:
    """Play ``card``; on ``space``, or (``None``) on the card's own number if it can."""

    card: int
    space: int | None = None


@dataclass(frozen=True)
class Show:
    """``34?``: mark where card 34 may go, without playing it."""

    card: int


@dataclass(frozen=True)
class Draw:
    """``d``: draw a card."""


@dataclass(frozen=True)
class Exchange:
    """``x``: exchange the hand."""


@dataclass(frozen=True)
class Undo:
    """``u``: undo back to your previous turn."""


@dataclass(frozen=True)
class Hint:
    """``h``: ask for a hint."""


@dataclass(frozen=True)
class Help:
    """``?``: show the keys."""


@dataclass(frozen=True)
class Quit:
    """``q``: save and quit."""


@dataclass(frozen=True)
class Empty:
    """Just Enter."""


@dataclass(frozen=True)
class Unknown:
    text: str


Intent = Play | Show | Draw | Exchange | Undo | Hint | Help | Quit | Empty | Unknown

WORDS: dict[str, Intent] = {
    **dict.fromkeys(("d", "draw"), Draw()),
    **dict.fromkeys(("x", "e", "exchange", "swap"), Exchange()),
    **dict.fromkeys(("u", "undo", "back"), Undo()),
    **dict.fromkeys(("h", "hint"), Hint()),
    **dict.fromkeys(("?", "help"), Help()),
    **dict.fromkeys(("q", "quit", "exit", "save"), Quit()),
}

# "34", "34 36", "34 on 36", "34>36", "34->36", "34,36", "34-36", "play 34 36", "34 to 36"
# Numbers are ASCII digits, at most three of them (cards and spaces are 1 to 90): ``²`` or a
# number of 5,000 digits is not a move, and never reaches ``int``.
_PLAY = re.compile(
    r"^(?:p(?:lay)?\s*)?([0-9]{1,3})(?:\s*(?:\s|,|>|->|-|:|/|\bon\b|\bto\b|@)\s*([0-9]{1,3}))?$",
    re.ASCII,
)


def parse(text: str) -> Intent:
    """What *text* asks for. Anything unrecognised is :class:`Unknown`, never an error."""
    cleaned = " ".join(text.strip().lower().split())
    if not cleaned:
        return Empty()
    if cleaned in WORDS:
        return WORDS[cleaned]
    show = re.fullmatch(r"(?:\?\s*([0-9]{1,3})|([0-9]{1,3})\s*\?)", cleaned, re.ASCII)
    if show:
        return Show(int(show.group(1) or show.group(2)))
    match = _PLAY.match(cleaned)
    if match:
        card = int(match.group(1))
        space = int(match.group(2)) if match.group(2) else None
        return Play(card, space)
    return Unknown(text.strip())


def parse_space(text: str) -> int | str | None:
    """An answer to "where?": a space number, ``None`` (cancel: empty, ``c`` or ``q``), or
    the text when it is not a number.

    >>> parse_space(" 40 "), parse_space(""), parse_space("c"), parse_space("forty")
    (40, None, None, 'forty')
    >>> parse_space("²"), parse_space("4" * 5000) == "4" * 5000
    ('²', True)
    """
    cleaned = text.strip().lower()
    if cleaned in ("", "c", "cancel", "q", "n", "no"):
        return None
    if re.fullmatch(r"[0-9]{1,3}", cleaned, re.ASCII):
        return int(cleaned)
    return text.strip()
