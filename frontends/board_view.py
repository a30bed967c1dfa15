"""Drawing the hexagonal board with rich, in its real shape.

Rows are the board's ``r`` axis; each cell is four characters wide and each row is shifted by
half a cell, so the three hex axes read as the row and the two diagonals.
"""

from __future__ import annotations

from collections.abc import Collection

from rich.style import Style
from rich.text import Text

from cinco.core.board import COORDINATES, RADIUS, space_at
from cinco.core.state import FREE

#: Team colours from the Okabe–Ito colour-blind-safe palette, each with its own symbol.
TEAM_COLOURS = ("#56B4E9", "#E69F00", "#CC79A7")
TEAM_SYMBOLS = ("●", "▲", "■")
TEAM_NAMES = ("blue", "orange", "pink")

CELL_WIDTH = 4


def cell_x(q: int, r: int) -> int:
    """The column of a cell's left edge (0 for the leftmost cell of the widest row)."""
    return (2 * q + r + 2 * RADIUS) * CELL_WIDTH // 2


def render_board(
    board: tuple[int, ...] | None = None,
    *,
    highlight: Collection[int] = (),
    last: int | None = None,
    winning_line: Collection[int] = (),
    color: bool = True,
) -> Text:
    """The board as rich text. *board* is :attr:`GameState.board` (``None``: an empty board).

    Free spaces show their number; taken ones the team's symbol and number in its colour.
    *highlight* marks spaces (the legal ones for a card), *last* the last move and
    *winning_line* the line that won.
    """
    text = Text(no_wrap=True)
    for r in range(-RADIUS, RADIUS + 1):
        cells = sorted(
            (q, space_at((q, r))) for q in range(-RADIUS, RADIUS + 1) if -RADIUS <= q + r <= RADIUS
        )
        column = 0
        for q, space in cells:
            x = cell_x(q, r)
            text.append(" " * (x - column))
            column = x
            if space is None:
                text.append("  · ", style="dim" if color else "")
                column += CELL_WIDTH
                continue
            team = board[space] if board is not None else FREE
            style = Style()
            if team == FREE:
                label = f"{space:>3} "
                if space in highlight:
                    label = f"{space:>3}*" if not color else label
                    style = Style(bold=True, reverse=True)
                else:
                    style = Style(dim=False)
            else:
                symbol = TEAM_SYMBOLS[team % len(TEAM_SYMBOLS)]
                label = f"{symbol}{space:>2} " if space < 100 else f"{symbol}{space}"
                style = Style(color=TEAM_COLOURS[team % len(TEAM_COLOURS)], bold=True)
            if space == last:
                style += Style(underline=True)
                label = label[:3] + ("<" if not color else label[3])
            if space in winning_line:
                style += Style(reverse=True)
                if not color:
                    label = label[:3] + "!"
            text.append(label, style=style if color else "")
            column += CELL_WIDTH
        text.append("\n")
    return text


def board_json() -> dict[str, list[dict[str, int]]]:
    """``{"spaces": [{"number": n, "q": q, "r": r}, ...]}`` for ``cinco board --json``."""
    return {
        "spaces": [
            {"number": n, "q": q, "r": r} for n, (q, r) in enumerate(COORDINATES, start=1)
        ]
    }
