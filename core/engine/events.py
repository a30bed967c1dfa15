"""Events: the immutable, versioned, JSON-serialisable facts a game is made of.

A game is the sequence of its events; its state is their fold
(:func:`cinco.core.engine.state.evolve`).
Fields that only some viewers may see hold ``None`` in the other viewers' projection
(:meth:`Event.seen_by`): a drawn card, a deck order, the cards of an exchange.

>>> event = CardPlayed(seat=0, card=34, space=36)
>>> event
CardPlayed(seat=0, card=34, space=36)
>>> event.to_dict()
{'type': 'card_played', 'v': 2, 'seat': 0, 'card': 34, 'space': 36}
>>> event_from_dict(event.to_dict()) == event
True
>>> CardDrawn(seat=1, card=12).seen_by(0)
CardDrawn(seat=1, card=None)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields, replace
from typing import Any, ClassVar

from cinco.core.engine._fast_init import quick_init
from cinco.core.engine.config import GameConfig
from cinco.core.engine.errors import ConfigError, EventError
from cinco.core.words.i18n import _
from cinco.core.words.messages import TEMPLATES, Param, freeze, render, thaw

#: Version of the event schema. Bump it (and teach :func:`event_from_dict` to read the old
#: one) whenever an event's fields change meaning. An event is written with the oldest version
#: that holds it (:meth:`Event.version`): only a ``game_started`` whose configuration holds
#: game parameters (:class:`cinco.core.engine.params.GameParams`) and a ``game_ended`` holding
#: scores
#: need version 3, so the records of standard games read the same as before, and a Cinco too
#: old to know parameters refuses a variant's record instead of replaying it by wrong rules.
#:
#: Version 4 (hook API 3) added the events of the actions a variant declares,
#: :class:`ActionTaken` and :class:`TokenRemoved`; they are written as version 4, so that an
#: older Cinco refuses such a record by its version instead of misreading it.
EVENT_VERSION = 4
#: The version of every event that needs nothing newer.
BASE_VERSION = 2
#: The version that brought declared actions' events.
ACTIONS_VERSION = 4
#: Older versions :func:`event_from_dict` still reads (a record is never rewritten).
READABLE_VERSIONS = (1, 2, 3, 4)

#: Who looks at the stream: a seat number, SPECTATOR (public facts only) or REFEREE (all).
Viewer = int | None | str
SPECTATOR: None = None
REFEREE = "referee"


@quick_init
@dataclass(frozen=True, slots=True)
class Event:
    """Base class of all events."""

    type: ClassVar[str] = "event"

    def seen_by(self, viewer: Viewer) -> Event:
        """This event as *viewer* may see it (secret fields become ``None``)."""
        return self

    def version(self) -> int:
        """The oldest event version that holds this event (see :data:`EVENT_VERSION`)."""
        return BASE_VERSION

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type, "v": self.version()}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, GameConfig):
                value = value.to_dict()
            elif isinstance(value, tuple):
                value = list(value)
            data[f.name] = value
        return data


@quick_init
@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """The game is configured and the first player chosen (P5). Public, except the seed: it
    fixes every shuffle, so whoever knows it knows the deck (S2). Others see no seed."""

    type: ClassVar[str] = "game_started"
    config: GameConfig
    first_seat: int

    def seen_by(self, viewer: Viewer) -> Event:
        if viewer == REFEREE or self.config.seed is None:
            return self
        return GameStarted(config=replace(self.config, seed=None), first_seat=self.first_seat)

    def version(self) -> int:
        return BASE_VERSION if self.config.params.is_standard else 3


@quick_init
@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    """Cards became a new draw pile in ``order`` (top first): at set-up (S1) or from the discard
    pile when a draw found the pile empty (A6). Only the referee sees the order."""

    type: ClassVar[str] = "deck_shuffled"
    size: int
    order: tuple[int, ...] | None
    reshuffle: bool

    def seen_by(self, viewer: Viewer) -> Event:
        if viewer == REFEREE:
            return self
        return DeckShuffled(size=self.size, order=None, reshuffle=self.reshuffle)


@quick_init
@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """``seat`` took the top card of the draw pile (dealing, A3, A4). Only they see it."""

    type: ClassVar[str] = "card_drawn"
    seat: int
    card: int | None

    def seen_by(self, viewer: Viewer) -> Event:
        if viewer == REFEREE or viewer == self.seat:
            return self
        return CardDrawn(seat=self.seat, card=None)


@quick_init
@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``seat`` revealed ``card``; a token went on ``space``, or the card burned (``None``, A2)."""

    type: ClassVar[str] = "card_played"
    seat: int
    card: int
    space: int | None

    @property
    def burned(self) -> bool:
        return self.space is None


@quick_init
@dataclass(frozen=True, slots=True)
class HandDiscarded(Event):
    """``seat`` discarded a whole hand face down to exchange it (A4). Only they see the cards."""

    type: ClassVar[str] = "hand_discarded"
    seat: int
    count: int
    cards: tuple[int, ...] | None

    def seen_by(self, viewer: Viewer) -> Event:
        if viewer == REFEREE or viewer == self.seat:
            return self
        return HandDiscarded(seat=self.seat, count=self.count, cards=None)


@quick_init
@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """``seat``'s turn is over; ``next_seat`` is to move. ``action`` is play, draw or exchange."""

    type: ClassVar[str] = "turn_ended"
    seat: int
    action: str
    next_seat: int


@quick_init
@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The game is over: ``winner`` is a team, or ``None`` for a draw; ``reason`` says why
    (``line``, ``stalemate``, ``board_full``, ``turn_limit``, or a variant's own). ``scores``,
    one per team, when a variant's outcome gives them (event version 3; left out otherwise)."""

    type: ClassVar[str] = "game_ended"
    seat: int
    action: str
    winner: int | None
    reason: str
    line: tuple[int, ...] | None = None
    scores: tuple[int, ...] | None = None

    def version(self) -> int:
        return BASE_VERSION if self.scores is None else 3

    def to_dict(self) -> dict[str, Any]:
        data = Event.to_dict(self)
        if self.scores is None:
            del data["scores"]
        return data


@quick_init
@dataclass(frozen=True, slots=True)
class Notice(Event):
    """Something players should be told that changes no state (a plugin failed, a bot's move
    was replaced, ...). A notice is data: ``code`` and ``params`` (words come from
    :func:`cinco.core.words.messages.render`). ``seat`` is who it concerns, if anyone; ``private``
    holds parameters only that seat (and the referee) may see, such as the move a bot tried.

    >>> notice = Notice("bot_replaced", (("name", "Bob"),), seat=1, private=(("move", "34"),))
    >>> notice.seen_by(0)
    Notice(code='bot_replaced', params=(('name', 'Bob'),), seat=1, private=None)
    >>> notice.seen_by(1) == notice
    True
    """

    type: ClassVar[str] = "notice"
    code: str
    params: tuple[tuple[str, Param], ...] = ()
    seat: int | None = None
    private: tuple[tuple[str, Param], ...] | None = None

    def seen_by(self, viewer: Viewer) -> Event:
        if self.private is None or viewer == REFEREE or viewer == self.seat:
            return self
        return Notice(code=self.code, params=self.params, seat=self.seat, private=None)

    @property
    def text(self) -> str:
        """The notice in words, as whoever holds this copy of it may read it."""
        text = render(self.code, dict(self.params))
        private = dict(self.private or ())
        for key in sorted(private):  # the private part, where the code has words for it
            if f"{self.code}_{key}" in TEMPLATES:
                text += " " + render(f"{self.code}_{key}", private)
        return text

    def to_dict(self) -> dict[str, Any]:
        data = Event.to_dict(self)
        data["params"] = thaw(self.params)
        if self.private is None:
            del data["private"]
        else:
            data["private"] = thaw(self.private)
        return data


@quick_init
@dataclass(frozen=True, slots=True)
class Undone(Event):
    """``seat`` took back the game to the state after the first ``back_to`` events of the log.

    Nothing is removed: the moves taken back stay in the log, before this event, and the
    state after it is the state after event ``back_to`` (:func:`cinco.core.engine.state.fold`).
    """

    type: ClassVar[str] = "undone"
    seat: int
    back_to: int


@quick_init
@dataclass(frozen=True, slots=True)
class ActionTaken(Event):
    """``seat`` took ``action``, an action its game's variant declares (hook API 3), with the
    command's field ``values`` in the order the action declares them. Public: a declared
    action's command is shown to everyone. The action's effects follow as events of their own
    (``card_played``, ``token_removed``, ``card_drawn``), then the end of the turn."""

    type: ClassVar[str] = "action_taken"
    seat: int
    action: str
    values: tuple[int, ...]

    def version(self) -> int:
        return ACTIONS_VERSION


@quick_init
@dataclass(frozen=True, slots=True)
class TokenRemoved(Event):
    """A declared action of ``seat`` took the token off ``space``; it goes back to its team
    (whose placed tokens count one fewer). Public."""

    type: ClassVar[str] = "token_removed"
    seat: int
    space: int

    def version(self) -> int:
        return ACTIONS_VERSION


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        GameStarted,
        DeckShuffled,
        CardDrawn,
        CardPlayed,
        HandDiscarded,
        TurnEnded,
        GameEnded,
        Notice,
        Undone,
        ActionTaken,
        TokenRemoved,
    )
}

#: The newest version of each event type that changed since :data:`BASE_VERSION` (any other
#: is read up to :data:`BASE_VERSION`).
NEWEST_VERSION: dict[type[Event], int] = {
    GameStarted: 3,
    GameEnded: 3,
    ActionTaken: ACTIONS_VERSION,
    TokenRemoved: ACTIONS_VERSION,
}


def _check(value: Any, annotation: str, name: str) -> Any:
    """Convert one JSON value to the field's type, or say what is wrong."""
    optional = annotation.endswith(" | None")
    if value is None:
        if optional:
            return None
        raise EventError(_("field '{name}' must not be empty").format(name=name))
    convert = _CONVERTERS.get(annotation.removesuffix(" | None"))
    if convert is None:
        raise EventError(f"unsupported field type {annotation}")  # a bug in this module
    return convert(value, name)


def _numbers(value: Any) -> bool:
    """Whether *value* is a JSON list of whole numbers (``true`` is not one)."""
    return isinstance(value, list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    )


def _as_int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EventError(_("field '{name}' must be a whole number").format(name=name))
    return value


def _as_str(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise EventError(_("field '{name}' must be text").format(name=name))
    return value


def _as_bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise EventError(_("field '{name}' must be true or false").format(name=name))
    return value


def _as_numbers(value: Any, name: str) -> tuple[int, ...]:
    if not _numbers(value):
        raise EventError(_("field '{name}' must be a list of numbers").format(name=name))
    return tuple(value)


def _as_params(value: Any, name: str) -> Any:
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        raise EventError(_("field '{name}' must be an object").format(name=name))
    for item in value.values():
        plain = item is None or isinstance(item, str | int | float | bool)
        if not (plain or _numbers(item)):
            raise EventError(
                _("field '{name}' may hold only numbers, text and lists of numbers").format(
                    name=name
                )
            )
    return freeze(value)


def _as_config(value: Any, name: str) -> GameConfig:
    if not isinstance(value, dict):
        raise EventError(_("field '{name}' must be an object").format(name=name))
    try:
        return GameConfig.from_dict(value)
    except ConfigError as exc:
        raise EventError(str(exc)) from exc


#: The conversion of a JSON value to each field type the events use (the annotation as
#: written, without `` | None``).
_CONVERTERS: dict[str, Callable[[Any, str], Any]] = {
    "int": _as_int,
    "str": _as_str,
    "bool": _as_bool,
    "tuple[int, ...]": _as_numbers,
    "tuple[tuple[str, Param], ...]": _as_params,
    "GameConfig": _as_config,
}


def event_from_dict(data: Any) -> Event:
    """Rebuild an event from :meth:`Event.to_dict` output, checking every field.

    >>> event_from_dict({"type": "card_played", "v": 1, "seat": 0, "card": "x", "space": 3})
    Traceback (most recent call last):
    ...
    cinco.core.engine.errors.EventError: card_played: field 'card' must be a whole number
    """
    if not isinstance(data, dict):
        raise EventError(_("an event must be a JSON object"))
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventError(_("unknown event type {kind!r}").format(kind=kind))
    version = data.get("v")
    if isinstance(version, int) and not isinstance(version, bool) and version == 1:
        data = _from_version_1(kind, data)
    elif (
        isinstance(version, bool)
        or version not in READABLE_VERSIONS
        # only these have anything new after version 2 (parameters, scores, actions)
        or version > NEWEST_VERSION.get(cls, BASE_VERSION)
    ):
        raise EventError(
            _(
                "{kind}: event version {v!r} is not supported (this Cinco reads version {ours})"
            ).format(kind=kind, v=version, ours=EVENT_VERSION)
        )
    known = {f.name for f in fields(cls)}
    extra = set(data) - known - {"type", "v"}
    if extra:
        raise EventError(
            _("{kind}: unexpected fields {extra}").format(kind=kind, extra=", ".join(sorted(extra)))
        )
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.default is not MISSING:  # has a default: optional in the JSON
                continue
            raise EventError(_("{kind}: missing field '{name}'").format(kind=kind, name=f.name))
        try:
            values[f.name] = _check(data[f.name], str(f.type), f.name)
        except EventError as exc:
            raise EventError(f"{kind}: {exc}") from None
    return cls(**values)


def _from_version_1(kind: object, data: dict[str, Any]) -> dict[str, Any]:
    """A version-1 event in version 2's fields: only notices changed (words became codes)."""
    if kind != "notice":
        return data
    text = data.get("text")
    notice_kind = data.get("kind")
    if not isinstance(text, str) or not isinstance(notice_kind, str):
        raise EventError(_("notice: a version-1 notice needs 'kind' and 'text'"))
    converted: dict[str, Any] = {"type": kind, "v": BASE_VERSION, "code": notice_kind}
    converted["params"] = {"text": text}
    if "seat" in data:
        converted["seat"] = data["seat"]
    return converted
