"""Commands: what a player asks to do. :func:`cinco.core.engine.rules.decide` turns them into
events.

>>> PlayCard(seat=0, card=34, space=36)
PlayCard(seat=0, card=34, space=36)
>>> command_from_dict(Draw(seat=1).to_dict())
Draw(seat=1)
>>> command_problem(PlayCard(seat=0, card=40.0, space=41))
'card must be a whole number, not 40.0'
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Final

from cinco.core.engine._fast_init import quick_init
from cinco.core.engine.errors import EventError, MalformedCommand
from cinco.core.words.i18n import _

#: The name of each action of a turn: a command's :attr:`~Command.kind` (and its ``to_dict``),
#: ``TurnEnded.action`` in the log and records, the ``action`` a ``cinco_action_allowed`` hook
#: is asked about, and the key of the rule clauses (:mod:`cinco.core.engine.verify`). Spelled
#: here only; everything else imports these.
PLAY: Final = "play"
DRAW: Final = "draw"
EXCHANGE: Final = "exchange"
#: The actions, in the order of the rules (A1/A2, A3, A4).
ACTIONS: Final = (PLAY, DRAW, EXCHANGE)


@quick_init
@dataclass(frozen=True, slots=True)
class Command:
    """Base class of the three actions of a turn."""

    kind: ClassVar[str] = "command"
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}


@quick_init
@dataclass(frozen=True, slots=True)
class PlayCard(Command):
    """A1/A2: play ``card``, placing a token on ``space`` (``None`` when it burns)."""

    kind: ClassVar[str] = PLAY
    card: int
    space: int | None = None


@quick_init
@dataclass(frozen=True, slots=True)
class Draw(Command):
    """A3: take the top card of the draw pile."""

    kind: ClassVar[str] = DRAW


@quick_init
@dataclass(frozen=True, slots=True)
class Exchange(Command):
    """A4: discard a hand of four and draw four."""

    kind: ClassVar[str] = EXCHANGE


@quick_init
@dataclass(frozen=True, slots=True)
class Act(Command):
    """An action a variant declares (hook API 3,
    :class:`~cinco.core.engine.actions.ActionSpec`): ``action`` is its name, ``values`` its
    fields as ``(name, whole number)`` pairs, in the order the action declares them.
    ``to_dict`` writes it as the action's own command: ``{"kind": "capture", "seat": 0,
    "card": 1, "space": 34}``.

    >>> Act(0, "capture", (("card", 1), ("space", 34))).to_dict()
    {'kind': 'capture', 'seat': 0, 'card': 1, 'space': 34}
    """

    kind: ClassVar[str] = "act"
    action: str
    values: tuple[tuple[str, int], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.action, "seat": self.seat, **dict(self.values)}

    def get(self, name: str) -> int | None:
        """The value of the field *name* (``None``: the command has no such field)."""
        for field, value in self.values:
            if field == name:
                return value
        return None


COMMAND_TYPES: dict[str, type[Command]] = {c.kind: c for c in (PlayCard, Draw, Exchange)}


def _is_whole(value: object, optional: bool = False) -> bool:
    """Whether *value* is an exact ``int`` (not a bool, a float or a subclass), or ``None``
    when *optional*."""
    return type(value) is int or (optional and value is None)


def command_problem(command: object) -> str | None:
    """What is wrong with *command*'s fields, in words, or ``None`` when nothing is.

    A seat, a card and a space are exact whole numbers (``space`` may be ``None``): ``40.0``
    and ``False`` compare equal to 40 and 0, but they would be written to the record as they
    are, and the record could never be read again.
    """
    if not isinstance(command, PlayCard | Draw | Exchange | Act):
        return _("{command!r} is not a command (send a play, a draw or an exchange)").format(
            command=command
        )
    if isinstance(command, Act):
        return _act_problem(command)
    checks: list[tuple[str, bool]] = [("seat", False)]
    if isinstance(command, PlayCard):
        checks += [("card", False), ("space", True)]
    for name, optional in checks:
        value = getattr(command, name, None)
        if not _is_whole(value, optional):
            wanted = _("a whole number or None") if optional else _("a whole number")
            return _("{name} must be {wanted}, not {value!r}").format(
                name=name, wanted=wanted, value=value
            )
    return None


def _act_problem(command: Act) -> str | None:
    """What is wrong with a declared action's command: its seat, name and values."""
    if not _is_whole(command.seat):
        return _("{name} must be {wanted}, not {value!r}").format(
            name="seat", wanted=_("a whole number"), value=command.seat
        )
    if not isinstance(command.action, str) or command.action in ACTIONS:
        return _("{value!r} is not the name of an action of this game").format(value=command.action)
    values = command.values
    if not isinstance(values, tuple) or not all(
        isinstance(pair, tuple)
        and len(pair) == 2
        and isinstance(pair[0], str)
        and _is_whole(pair[1])
        for pair in values
    ):
        return _("the fields of {action} must be names with whole numbers, not {value!r}").format(
            action=command.action, value=values
        )
    return None


def check_command(command: object) -> None:
    """Refuse a malformed command (see :func:`command_problem`) with
    :class:`~cinco.core.engine.errors.MalformedCommand`, an ``IllegalCommand`` like any other.
    :func:`cinco.core.engine.rules.decide` calls it before anything else."""
    # The common case first, in a few type checks: decide is the engine's hot path.
    if type(command) is PlayCard:
        space = command.space
        if (
            type(command.seat) is int
            and type(command.card) is int
            and (space is None or type(space) is int)
        ):
            return
    elif (type(command) is Draw or type(command) is Exchange) and type(command.seat) is int:
        return
    elif type(command) is Act:
        problem = _act_problem(command)
        if problem is not None:
            raise MalformedCommand(problem=problem)
        return
    problem = command_problem(command)
    if problem is not None:
        raise MalformedCommand(problem=problem)


def command_from_dict(data: dict[str, Any], actions: Collection[str] = ()) -> Command:
    """Rebuild a command from :meth:`Command.to_dict` (for network clients and logs).
    *actions* are the names of the actions the game declares (hook API 3): a command of one
    of those kinds becomes an :class:`Act`."""
    kind = data.get("kind")
    cls = COMMAND_TYPES.get(str(kind))
    if cls is None and isinstance(kind, str) and kind in actions:
        return _act_from_dict(kind, data)
    if cls is None:
        raise EventError(_("unknown command {kind!r}").format(kind=data.get("kind")))
    args = {k: v for k, v in data.items() if k != "kind"}
    for name, value in args.items():
        # Numbers only (a JSON true is not the space 1): a bad value must not reach the log.
        if (value is not None or name != "space") and (
            isinstance(value, bool) or not isinstance(value, int)
        ):
            raise EventError(
                _("malformed command: {name} must be a whole number").format(name=name)
            )
    try:
        return cls(**args)
    except TypeError as exc:
        raise EventError(_("malformed command: {error}").format(error=exc)) from exc


def _act_from_dict(kind: str, data: dict[str, Any]) -> Act:
    seat = data.get("seat")
    values = [(name, value) for name, value in data.items() if name not in ("kind", "seat")]
    for name, value in [("seat", seat), *values]:
        if isinstance(value, bool) or not isinstance(value, int):
            raise EventError(
                _("malformed command: {name} must be a whole number").format(name=name)
            )
    assert isinstance(seat, int)
    return Act(seat, kind, tuple(values))
