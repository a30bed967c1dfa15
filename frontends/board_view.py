"""Drawing the hexagonal board with rich, in its real shape.

Rows are the board's ``r`` axis; each cell is ``cell_width`` characters wide and each row is
shifted by half a cell, so the three hex axes read as the row and the two diagonals.

Teams are told apart by colour (the Okabe–Ito colour-blind-safe palette) *and* by symbol, so
the board reads the same in plain text, on a monochrome screen and to colour-blind eyes. In
plain text the marks that colour would carry become characters: ``*`` a legal space, ``<``
the last move, ``!`` the winning line.

>>> text = render_board(color=False)
>>> len(text.plain.splitlines())
11
>>> "  · " in text.plain.splitlines()[5]
True
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from cinco.core.engine.board import COORDINATES, RADIUS, space_at
from cinco.core.engine.state import BLOCKED, FREE
from cinco.core.host.declarations import TeamStyle
from cinco.core.host.registry import default_registry
from cinco.core.words.i18n import N_, _

#: Team colours from the Okabe–Ito colour-blind-safe palette, each with its own symbol.
TEAM_COLOURS = ("#56B4E9", "#E69F00", "#CC79A7")
TEAM_SYMBOLS = ("●", "▲", "■")
#: For terminals that cannot show the symbols above.
ASCII_SYMBOLS = ("o", "x", "#")
#: The colours' names: English msgids, translated where shown (``_(TEAM_NAMES[team])``).
TEAM_NAMES = (N_("blue"), N_("orange"), N_("pink"))

#: The team styles drawn (see :func:`team_styles`).
_styles: list[TeamStyle] = []


def use_team_styles(styles: Sequence[TeamStyle]) -> None:
    """Draw teams in *styles*: a frontend passes its registry's ``team_styles()``, which
    plugins extend for layouts of more teams (``cinco_register_team_styles``)."""
    _styles[:] = list(styles)


def team_styles() -> list[TeamStyle]:
    """The team styles drawn: those given to :func:`use_team_styles`, else the installed
    plugins' (the built-in blue, orange and pink first)."""
    if not _styles:
        use_team_styles(default_registry().team_styles())
    return _styles


def style_of(team: int) -> TeamStyle:
    """*team*'s style; beyond the registered styles they repeat."""
    styles = team_styles() or [TeamStyle(TEAM_NAMES[0], TEAM_COLOURS[0], "o", "o")]
    return styles[team % len(styles)]


def team_name(team: int) -> str:
    """The name players read for *team* ("blue"), translated."""
    return _(style_of(team).name)


CELL_WIDTH = 4
#: The symbol of a space the game's parameters block (no token may take it).
BLOCKED_SYMBOL = "×"
ASCII_BLOCKED = "-"
#: Marks shown in the last column of a cell, in plain text and (for the last move) in colour.
MARK_LEGAL = "*"
MARK_LAST = "<"
MARK_WIN = "!"


def cell_x(q: int, r: int, cell_width: int = CELL_WIDTH) -> int:
    """The column of a cell's left edge (0 for the leftmost cell of the widest row)."""
    return (2 * q + r + 2 * RADIUS) * cell_width // 2


def board_width(cell_width: int = CELL_WIDTH) -> int:
    """How many columns :func:`render_board` uses."""
    return cell_x(RADIUS, 0, cell_width) + cell_width


def team_symbol(team: int, ascii_only: bool = False) -> str:
    style = style_of(team)
    return style.ascii_symbol if ascii_only else style.symbol


def team_colour(team: int) -> Style:
    """The team's colour, not bold (for text such as the move log)."""
    return Style(color=style_of(team).colour)


def team_style(team: int) -> Style:
    return Style(color=style_of(team).colour, bold=True)


def _label(space: int, team: int, mark: str, width: int, symbol: str) -> str:
    """A cell's text: symbol (taken) or blank, the number, the mark, centred in *width*."""
    body = f"{symbol if team != FREE else ' '}{space:>2}{mark or ' '}"
    pad = width - len(body)
    return " " * (pad // 2) + body + " " * (pad - pad // 2)


def render_board(
    board: tuple[int, ...] | None = None,
    *,
    highlight: Collection[int] = (),
    last: int | None = None,
    winning_line: Collection[int] = (),
    color: bool = True,
    ascii_only: bool = False,
    cell_width: int = CELL_WIDTH,
    row_gap: int = 0,
) -> Text:
    """The board as rich text. *board* is :attr:`GameState.board` (``None``: an empty board).

    Free spaces show their number; taken ones the team's symbol and number in its colour.
    *highlight* marks spaces (the legal ones for a card), *last* the last move and
    *winning_line* the line that won. ``cell_width`` (at least 4) and ``row_gap`` (blank lines
    between rows) draw a bigger board for a bigger window.
    """
    text = Text(no_wrap=True, overflow="crop")
    for r in range(-RADIUS, RADIUS + 1):
        if r > -RADIUS:
            text.append("\n" * (row_gap + 1))
        cells = sorted(
            (q, space_at((q, r))) for q in range(-RADIUS, RADIUS + 1) if -RADIUS <= q + r <= RADIUS
        )
        column = 0
        for q, space in cells:
            x = cell_x(q, r, cell_width)
            text.append(" " * (x - column))
            column = x + cell_width
            if space is None:
                left = (cell_width - CELL_WIDTH) // 2 + 2  # under the numbers' last digit
                text.append(
                    " " * left + "·" + " " * (cell_width - left - 1), style="dim" if color else ""
                )
                continue
            team = board[space] if board is not None else FREE
            mark = ""
            style = Style()
            if team == BLOCKED:
                symbol = ASCII_BLOCKED if ascii_only else BLOCKED_SYMBOL
                label = _label(space, team, "", cell_width, symbol)
                text.append(label, style="dim" if color else "")
                continue
            if team != FREE:
                style = team_style(team)
            if space in winning_line:
                mark = MARK_WIN
                style += Style(reverse=True)
            elif space == last:
                mark = MARK_LAST
                style += Style(underline=True)
            elif space in highlight and team == FREE:
                mark = MARK_LEGAL
                style = Style(bold=True, reverse=True)
            label = _label(space, team, mark, cell_width, team_symbol(team, ascii_only))
            if color and space in highlight and team == FREE:
                # The mark is redundant in colour but keeps the legal spaces findable on a
                # screen where reverse video is hard to see.
                text.append(label, style=style)
            else:
                text.append(label, style=style if color else "")
    text.append("\n")
    return text


def legend(
    teams: int = 0, *, color: bool = True, ascii_only: bool = False, width: int | None = None
) -> Text:
    """The first *teams* team symbols and the marks, for under the board: one line, or, when
    that line is wider than *width* (a translation longer than the board), as many lines as
    it takes, broken between its items, never inside one.

    >>> print(legend(color=False, width=30).plain)
    < last move  * legal space
    ! winning line
    """
    template = _("{last} last move  {legal} legal space  {win} winning line")
    # The items: each team's symbol and name, then each mark's (a translation's item starts
    # at its placeholder, however it is spaced).
    marks = [
        part.format(last=MARK_LAST, legal=MARK_LEGAL, win=MARK_WIN).strip()
        for part in re.split(r"(?=\{(?:last|legal|win)\})", template)
    ]
    items = [
        (team_symbol(team, ascii_only) + f" {team_name(team)}", team_style(team), True)
        for team in range(teams)
    ] + [(item, Style(dim=True), False) for item in marks if item]
    text = Text(no_wrap=True, overflow="ellipsis")
    column = 0
    for item, style, team in items:
        if column and width is not None and column + 2 + cell_len(item) > width:
            text.append("\n")
            column = 0
        elif column:
            text.append("  ")
            column += 2
        if team:  # only the symbol in the team's colour
            text.append(item[0], style=style if color else "")
            text.append(item[1:])
        else:
            text.append(item, style=style if color else "")
        column += cell_len(item)
    return text


def board_json() -> dict[str, list[dict[str, int]]]:
    """``{"spaces": [{"number": n, "q": q, "r": r}, ...]}`` for ``cinco board --json``."""
    return {
        "spaces": [{"number": n, "q": q, "r": r} for n, (q, r) in enumerate(COORDINATES, start=1)]
    }
