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

A variant's own actions (hook API 3) are read by the key and the rule they declare:

>>> from cinco.core.engine.actions import ActionSpec
>>> hop = ActionSpec("hop", ("card", "space"), lambda s, n: (), lambda *a: (), key="j")
>>> parse("j 1 34", [hop])
Declared(action='hop', key='j', usage='', values=(1, 34))
>>> parse("hop 1", [hop]).values is None, parse("j 1 34")
(True, Unknown(text='j 1 34'))

Online, a client without the variant's plugin knows an action only by its name and fields, from
the server's prompt (:func:`actions_for`): it is typed as its name and its numbers.

>>> legal = LegalActions(0, (), False, False, (Act(0, "leap", (("card", 1), ("space", 34))),))
>>> leap = parse("leap 1 34", actions_for(legal))
>>> leap
Declared(action='leap', key='leap', usage='CARD SPACE', values=(1, 34))
>>> leap.command(0)
Act(seat=0, action='leap', values=(('card', 1), ('space', 34)))
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from cinco.core.engine.actions import ActionSpec, known_action, known_actions
from cinco.core.engine.commands import Act
from cinco.core.engine.legal import LegalActions
from cinco.core.words.i18n import _


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


@dataclass(frozen=True)
class Declared:
    """``c 1 34``: a variant's own action (hook API 3), typed as its key (or its name) and
    its fields; ``values`` is ``None`` when the words after the key are not its fields."""

    action: str
    key: str
    usage: str
    values: tuple[int, ...] | None
    #: The action's fields, when no spec of it is known here (see :func:`actions_for`).
    fields: tuple[str, ...] = field(default=(), repr=False)

    def command(self, seat: int) -> Act | None:
        """The command for *seat*, or ``None`` when the fields could not be read."""
        spec = known_action(self.action)
        fields = spec.fields if spec is not None else self.fields
        if self.values is None or len(fields) != len(self.values):
            return None
        return Act(seat, self.action, tuple(zip(fields, self.values, strict=True)))

    @property
    def problem(self) -> str:
        """What to type instead, when the fields could not be read."""
        spec = known_action(self.action)
        return _("Type {key} {usage} to {action}.").format(
            key=self.key,
            usage=_(self.usage) if self.usage else "",
            action=spec.label.lower() if spec is not None else self.action,
        )


Intent = Play | Show | Draw | Exchange | Undo | Hint | Help | Quit | Empty | Declared | Unknown

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


def parse(text: str, actions: Iterable[ActionSpec] = ()) -> Intent:
    """What *text* asks for. Anything unrecognised is :class:`Unknown`, never an error.
    *actions* are the variants' own actions (hook API 3): a word that is one's key or name
    begins that action (the built-in words come first)."""
    cleaned = " ".join(text.strip().lower().split())
    if not cleaned:
        return Empty()
    if cleaned in WORDS:
        return WORDS[cleaned]
    words = cleaned.split(" ")
    for spec in actions:
        if words[0] in (spec.key, spec.name) and words[0] not in WORDS:
            return Declared(
                spec.name, spec.key or spec.name, spec.usage, spec.read(words[1:]), spec.fields
            )
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


def action_keys(legal: LegalActions) -> list[tuple[str, str]]:
    """The key and the name of each variant's action among *legal* (hook API 3), once each:
    what the keys line offers.

    >>> action_keys(LegalActions(0, (), True, False))
    []
    """
    found: dict[str, str] = {}
    for act in legal.acts:
        spec = known_action(act.action)
        key = spec.key if spec is not None and spec.key else act.action
        label = spec.label.lower() if spec is not None else act.action
        found.setdefault(key, label)
    return list(found.items())


def not_a_move(text: str) -> str:
    """What to say when *text* is not a move (here and online)."""
    return _(
        "“{text}” is not a move. Type a card (34), a card and a space "
        "(34 36), d, x, u, h, or ? for help."
    ).format(text=text)


def actions_for(legal: LegalActions | None, known: Iterable[ActionSpec] = ()) -> list[ActionSpec]:
    """The variants' own actions a player may type now: *known* (by default every one this
    process knows, :func:`declared_actions`), and each other action among *legal*'s commands,
    known only by its name and its fields, as a server's prompt names it (the variant's plugin
    is not installed here): typed as its name and its numbers, ``capture 1 34``."""
    found = {spec.name: spec for spec in (known or declared_actions())}
    for act in legal.acts if legal is not None else ():
        if act.action not in found:
            fields = tuple(name for name, _value in act.values)
            found[act.action] = ActionSpec(
                act.action,
                fields,
                options=lambda state, seat: (),
                effects=lambda state, seat, values: (),
                usage=" ".join(name.upper() for name in fields),
            )
    return list(found.values())


def declared_actions() -> list[ActionSpec]:
    """The variants' own actions this process knows (the rules of the games set up here
    declared them): what a player may type besides the built-in moves. An action the game
    does not have is refused when it is sent, saying which it has."""
    return known_actions()
