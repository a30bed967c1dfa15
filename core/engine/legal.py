"""What a seat may do now: :class:`LegalActions`, listed by :func:`legal_actions` from the state
and the game's rules (the standard rules and the variants' rule hooks, and the actions variants
declare).

>>> legal = LegalActions(0, ((34, (34, 35)), (90, ())), can_draw=True, can_exchange=False)
>>> len(legal), list(legal)[-1], legal.spaces_for(34)
(4, Draw(seat=0), (34, 35))
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cinco.core.engine._fast_init import quick_init
from cinco.core.engine.commands import Act, Command, Draw, Exchange, PlayCard

if TYPE_CHECKING:
    from cinco.core.engine.rules import Rules
    from cinco.core.engine.state import GameState


@quick_init
@dataclass(frozen=True, slots=True)
class LegalActions:
    """Everything *seat* may do now.

    ``plays`` pairs each card in hand with the spaces it may go on (empty: it burns).

    Iterating gives every legal command; ``len()`` counts them, a burn counting once.
    """

    seat: int
    plays: tuple[tuple[int, tuple[int, ...]], ...]
    can_draw: bool
    can_exchange: bool
    #: The declared actions' commands (hook API 3), after the built-in ones.
    acts: tuple[Act, ...] = ()

    def __iter__(self) -> Iterator[Command]:
        for card, spaces in self.plays:
            if spaces:
                for space in spaces:
                    yield PlayCard(self.seat, card, space)
            else:
                yield PlayCard(self.seat, card, None)
        if self.can_draw:
            yield Draw(self.seat)
        if self.can_exchange:
            yield Exchange(self.seat)
        yield from self.acts

    def __len__(self) -> int:
        count = self.can_draw + self.can_exchange + len(self.acts)
        for _card, spaces in self.plays:
            count += len(spaces) or 1
        return count

    def __getitem__(self, index: int) -> Command:
        """The *index*-th command of the iteration order, without building the others."""
        if index < 0:
            index += len(self)
        for card, spaces in self.plays:
            width = len(spaces) or 1
            if index < width:
                return PlayCard(self.seat, card, spaces[index] if spaces else None)
            index -= width
        if self.can_draw:
            if index == 0:
                return Draw(self.seat)
            index -= 1
        if self.can_exchange:
            if index == 0:
                return Exchange(self.seat)
            index -= 1
        if 0 <= index < len(self.acts):
            return self.acts[index]
        raise IndexError("no such legal action")

    def __contains__(self, command: object) -> bool:
        if isinstance(command, PlayCard):
            for card, spaces in self.plays:
                if card == command.card:
                    return command.space in spaces if spaces else command.space is None
            return False
        if isinstance(command, Draw):
            return self.can_draw
        if isinstance(command, Exchange):
            return self.can_exchange
        if isinstance(command, Act):
            return command in self.acts
        return False

    def spaces_for(self, card: int) -> tuple[int, ...]:
        for held, spaces in self.plays:
            if held == card:
                return spaces
        return ()


def legal_actions(state: GameState, rules: Rules, seat: int | None = None) -> LegalActions:
    """The legal actions of *seat* (by default the player to move); none once the game is over
    or when it is not their turn. Needs only what *seat* can see."""
    current = state.current_seat
    if seat is None:
        seat = current
    if state.result is not None or seat != current:
        return LegalActions(seat, (), False, False)
    hand = state.hands[seat]
    spaces = rules.legal_spaces
    # Plain loops, not comprehensions, on the engine's hot path: on a hand of four, CPython
    # 3.11 spends longer setting a comprehension up than running it.
    plays = []
    for card in sorted(set(hand)):
        plays.append((card, spaces(state, seat, card)))
    can_draw, can_exchange = rules.actions(state, seat)
    if not rules.declared:
        return LegalActions(seat, tuple(plays), can_draw, can_exchange)
    acts = tuple(
        Act(seat, spec.name, tuple(zip(spec.fields, values, strict=True)))
        for spec in rules.declared
        for values in rules.action_options(state, seat, spec)
    )
    return LegalActions(seat, tuple(plays), can_draw, can_exchange, acts)
