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
    if not isinstance(command, PlayCard | Draw | Exchange):
        return _("{command!r} is not a command (send a play, a draw or an exchange)").format(
            command=command
        )
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
    problem = command_problem(command)
    if problem is not None:
        raise MalformedCommand(problem=problem)


def command_from_dict(data: dict[str, Any]) -> Command:
    """Rebuild a command from :meth:`Command.to_dict` (for network clients and logs)."""
    cls = COMMAND_TYPES.get(str(data.get("kind")))
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
