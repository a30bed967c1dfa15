"""Commands: what a player asks to do. :func:`cinco.core.rules.decide` turns them into events.

>>> PlayCard(seat=0, card=34, space=36)
PlayCard(seat=0, card=34, space=36)
>>> command_from_dict(Draw(seat=1).to_dict())
Draw(seat=1)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from ._quick import quick_init
from .errors import EventError
from .i18n import _


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

    kind: ClassVar[str] = "play"
    card: int
    space: int | None = None


@quick_init
@dataclass(frozen=True, slots=True)
class Draw(Command):
    """A3: take the top card of the draw pile."""

    kind: ClassVar[str] = "draw"


@quick_init
@dataclass(frozen=True, slots=True)
class Exchange(Command):
    """A4: discard a hand of four and draw four."""

    kind: ClassVar[str] = "exchange"


COMMAND_TYPES: dict[str, type[Command]] = {c.kind: c for c in (PlayCard, Draw, Exchange)}


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
