"""The bots' kernel and the engine, side by side: the same facts read from each, for the
differential tests (a kernel game and the engine's fold of the same commands must agree)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cinco.core.engine.commands import Draw, PlayCard

if TYPE_CHECKING:
    from cinco.core.engine.commands import Command
    from cinco.core.engine.state import GameState
    from cinco.plugins.bots.kernel import Kernel


def snapshot(kernel: Kernel) -> tuple[object, ...]:
    """The kernel's position, in the order and the types of :func:`reference_snapshot`."""
    return (
        tuple(kernel.board),
        tuple(tuple(h) for h in kernel.hands),
        tuple(reversed(kernel.draw)),
        tuple(kernel.discard),
        tuple(kernel.tokens),
        kernel.seat,
        kernel.turn,
        kernel.shuffles,
        kernel.over,
    )


def reference_snapshot(state: GameState) -> tuple[object, ...]:
    """The engine's state, as :func:`snapshot` reads a kernel."""
    return (
        state.board,
        state.hands,
        state.draw_pile,
        state.discard_pile,
        state.tokens,
        state.current_seat,
        state.turn,
        state.shuffles,
        state.is_over,
    )


def kernel_plays(kernel: Kernel) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The kernel's legal plays, as :attr:`LegalActions.plays` lists them."""
    hand = sorted(set(kernel.hands[kernel.seat]))
    return tuple((card, tuple(kernel.legal_spaces(card))) for card in hand)


def carry_out(kernel: Kernel, command: Command) -> None:
    """Carry out the reference engine's *command* on *kernel*."""
    if isinstance(command, PlayCard):
        kernel.play(command.card, command.space)
    elif isinstance(command, Draw):
        kernel.take()
    else:
        kernel.exchange()
