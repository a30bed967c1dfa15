"""How a game ends: :class:`Outcome`, the answer of the ``cinco_game_end`` rule hook, and
:data:`ONGOING`, the answer that says the game goes on."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    """How a game ends: ``winner`` is a team (``None``: a draw); ``reason`` is a short code.
    ``scores`` (hook API 2), one whole number per team, are recorded in ``game_ended`` and
    shown with the result (a variant scoring a stalemate, say)."""

    winner: int | None
    reason: str
    line: tuple[int, ...] | None = None
    over: bool = True
    scores: tuple[int, ...] | None = None


#: Returned by a ``cinco_game_end`` implementation to say the game goes on, overruling the rest.
ONGOING = Outcome(winner=None, reason="ongoing", over=False)
