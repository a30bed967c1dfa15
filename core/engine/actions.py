"""Actions a variant declares (hook API 3): what a turn may be besides play, draw and exchange.

A variant's rules object answers the rule hook ``cinco_declare_actions`` with
:class:`ActionSpec` values. Each names an action (``"capture"``), its command's fields
(``("card", "space")``: whole numbers), when it is legal (:attr:`ActionSpec.options`: every
tuple of field values *seat* may send now) and what it does (:attr:`ActionSpec.effects`: a few
:data:`Effect` values, which the engine turns into events). The engine does the rest as for the
built-in actions: :func:`cinco.core.engine.rules.legal_actions` lists the commands
(:class:`~cinco.core.engine.commands.Act`), :func:`~cinco.core.engine.rules.decide` checks and
carries one out (an :class:`~cinco.core.engine.events.ActionTaken` event, then the effects'
events, then the end of the turn or of the game, decided by the rules as after any action),
and the fold, the projections, the records and the log checker know those events.

A variant never writes events itself: the effects are the vocabulary, so that no variant can
draw a chosen card, skip the fold's checks, or write what a replay could not read.

>>> spec = ActionSpec("pass", (), options=lambda state, seat: [()], effects=lambda *a: ())
>>> spec_problem(spec) is None, spec_problem(ActionSpec("draw", (), spec.options, spec.effects))
(True, "its name 'draw' is a built-in action's")
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cinco.core.engine.commands import ACTIONS
from cinco.core.words.i18n import _

if TYPE_CHECKING:
    from cinco.core.engine.state import GameState


@dataclass(frozen=True)
class Place:
    """Effect: *card* leaves the hand face up for the discard pile, and a token of the acting
    team goes on *space* (``None``: no token). The space must be free when the effect is
    carried out (a :class:`Remove` before it may free it). Made into a ``card_played`` event."""

    card: int
    space: int | None = None


@dataclass(frozen=True)
class Remove:
    """Effect: the token on *space* (any team's) is taken off the board and goes back to its
    team, whose count of placed tokens drops by one. Made into a ``token_removed`` event."""

    space: int


@dataclass(frozen=True)
class Take:
    """Effect: the acting seat draws *count* cards (the discard pile is reshuffled into a new
    draw pile when the pile runs out, A6). Made into ``card_drawn`` (and ``deck_shuffled``)
    events; a hand never grows past the hand limit (the draw stops there)."""

    count: int = 1


#: What a declared action does: its effects are carried out in order.
Effect = Place | Remove | Take

#: ``options(state, seat)``: every tuple of field values *seat* may send now, in the order of
#: the fields. *state* may be a player's view (other hands are 0): answer from public facts
#: and *seat*'s own hand, the same for the same arguments.
Options = Callable[["GameState", int], Iterable[Sequence[int]]]
#: ``effects(state, seat, values)``: what the action does, *values* by field name.
Effects = Callable[["GameState", int, Mapping[str, int]], Sequence[Effect]]


@dataclass(frozen=True)
class ActionSpec:
    """An action a variant adds (hook API 3, ``cinco_declare_actions``).

    ``name`` is the command's kind and the turn's action in the log (``"capture"``: a word, not
    ``play``, ``draw`` or ``exchange``); ``fields`` the names of its command's whole-number
    fields, in order. ``options`` and ``effects``: see :data:`Options`, :data:`Effects`.

    How players see it: ``title`` (a msgid, ``N_("Capture")``) labels the app's button and the
    terminal's key; ``narration`` (a msgid) tells the move, with ``{name}`` for who moved and
    each field by name (``N_("{name} captured {space} with a {card}")``); ``key`` is the
    terminal's key for it (``"c"``: ``c 1 34`` sends card 1, space 34) and ``usage`` the
    arguments shown in the terminal's help (``"CARD SPACE"``). ``parse`` (optional) reads the
    words typed after the key into the field values, or ``None`` when they are not a move; by
    default each field is one whole number, in order.
    """

    name: str
    fields: tuple[str, ...]
    options: Options
    effects: Effects
    title: str = ""
    narration: str = ""
    key: str = ""
    usage: str = ""
    description: str = ""
    parse: Callable[[Sequence[str]], Sequence[int] | None] | None = None

    @property
    def label(self) -> str:
        """The action's name in the user's language."""
        return _(self.title) if self.title else self.name.replace("_", " ").capitalize()

    def read(self, words: Sequence[str]) -> tuple[int, ...] | None:
        """The field values *words* (typed after the key) give, or ``None``.

        >>> ActionSpec("hop", ("card", "space"), lambda s, n: (), lambda *a: ()).read(["1", "34"])
        (1, 34)
        """
        if self.parse is not None:
            try:
                values = self.parse(words)
            except (ValueError, TypeError, IndexError):
                return None
            if values is None or not _whole_numbers(values, len(self.fields)):
                return None
            return tuple(values)
        if len(words) != len(self.fields) or not all(
            re.fullmatch(r"[0-9]{1,3}", word, re.ASCII) for word in words
        ):
            return None
        return tuple(int(word) for word in words)

    def tell(self, name: str, values: Sequence[int]) -> str:
        """The move in words, for the narrator: :attr:`narration` with *name* and the values."""
        fields = dict(zip(self.fields, values, strict=False))
        if self.narration:
            try:
                return _(self.narration).format(name=name, **fields)
            except (KeyError, IndexError, ValueError):
                pass  # a template naming what is not there: the plain words below
        shown = ", ".join(f"{field} {value}" for field, value in fields.items())
        return (
            _("{name}: {action} {fields}")
            .format(name=name, action=self.label, fields=shown)
            .strip()
        )


#: The actions declared by the games' rules set up in this process, by name, the latest
#: declaration of a name winning: how the narrator and the frontends, which see an action by
#: its name (in an ``action_taken`` event, an :class:`~cinco.core.engine.commands.Act`), find
#: its words and its key.
_KNOWN: dict[str, ActionSpec] = {}


def remember(spec: ActionSpec) -> None:
    """Note *spec* as the action of its name (a game's rules declare it)."""
    _KNOWN[spec.name] = spec


def known_action(name: str) -> ActionSpec | None:
    """The declared action called *name*, if a game's rules declared one in this process."""
    return _KNOWN.get(name)


def known_actions() -> list[ActionSpec]:
    """Every declared action a game's rules declared in this process (the latest of a name)."""
    return list(_KNOWN.values())


def tell_action(name: str, action: str, values: Sequence[int]) -> str:
    """A declared action taken, in words (its narration, or its name and values).

    >>> tell_action("Ann", "unheard-of", (3,))
    'Ann: unheard-of 3'
    """
    spec = known_action(action)
    if spec is not None:
        return spec.tell(name, values)
    shown = " ".join(map(str, values))
    return _("{name}: {action} {fields}").format(name=name, action=action, fields=shown).strip()


def _whole_numbers(values: object, count: int) -> bool:
    return (
        isinstance(values, tuple | list)
        and len(values) == count
        and all(type(value) is int for value in values)
    )


_NAME = re.compile(r"[a-z][a-z0-9_-]*")


def is_action_name(name: object) -> bool:
    """Whether *name* may name a declared action: a lower-case word (``"capture"``), not a
    built-in action's name. What a network client may send as a command's kind
    (:mod:`cinco.core.table.protocol`) besides the built-in ones.

    >>> is_action_name("capture"), is_action_name("draw"), is_action_name("Capture!")
    (True, False, False)
    """
    return isinstance(name, str) and bool(_NAME.fullmatch(name)) and name not in ACTIONS


def spec_problem(spec: Any) -> str | None:
    """What makes *spec* unusable as a declared action, in words, or ``None``."""
    if not isinstance(spec, ActionSpec):
        return _("{value!r} is not an ActionSpec").format(value=spec)
    if not isinstance(spec.name, str) or not _NAME.fullmatch(spec.name):
        return _("its name must be a lower-case word, not {name!r}").format(name=spec.name)
    if spec.name in ACTIONS:
        return _("its name {name!r} is a built-in action's").format(name=spec.name)
    fields = spec.fields
    if not isinstance(fields, tuple) or not all(
        isinstance(f, str) and f.isidentifier() and not keyword.iskeyword(f) for f in fields
    ):
        return _("its fields must be a tuple of names, not {value!r}").format(value=fields)
    if len(set(fields)) != len(fields) or {"seat", "kind", "name"} & set(fields):
        return _("its fields must differ, and not be seat, kind or name: {value!r}").format(
            value=fields
        )
    if not callable(spec.options) or not callable(spec.effects):
        return _("its options and effects must be functions")
    key = spec.key
    if not isinstance(key, str) or (key and not re.fullmatch(r"[a-z]{1,3}", key)):
        return _("its key must be one to three lower-case letters, not {value!r}").format(value=key)
    return None


def check_options(spec: ActionSpec, answer: object) -> tuple[tuple[int, ...], ...]:
    """An ``options`` answer as tuples of whole numbers, one per field (or ``TypeError``)."""
    if answer is None or isinstance(answer, str | bytes) or not isinstance(answer, Iterable):
        raise TypeError(f"options returned {answer!r}, not tuples of field values")
    found: dict[tuple[int, ...], None] = {}
    for values in answer:
        if not _whole_numbers(values, len(spec.fields)):
            raise TypeError(
                f"options returned {values!r}, not {len(spec.fields)} whole numbers "
                f"({', '.join(spec.fields)})"
            )
        found[tuple(values)] = None
    return tuple(found)


def check_effects(answer: object) -> tuple[Effect, ...]:
    """An ``effects`` answer as a tuple of effects (or ``TypeError``)."""
    if not isinstance(answer, tuple | list) or not all(
        isinstance(effect, Place | Remove | Take) for effect in answer
    ):
        raise TypeError(f"effects returned {answer!r}, not a list of Place, Remove, Take")
    for effect in answer:
        numbers = [getattr(effect, name, None) for name in ("card", "space", "count")]
        if not all(n is None or type(n) is int for n in numbers):
            raise TypeError(f"effects returned {effect!r}: its numbers must be whole numbers")
    return tuple(answer)


__all__ = [
    "ActionSpec",
    "Effect",
    "Effects",
    "Options",
    "Place",
    "Remove",
    "Take",
    "check_effects",
    "check_options",
    "is_action_name",
    "known_action",
    "known_actions",
    "remember",
    "spec_problem",
    "tell_action",
]
