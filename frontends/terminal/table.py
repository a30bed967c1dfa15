"""The table as one viewer sees it: the board, the players, the piles, the log, the hand.

Everything drawn here comes from a projection (a seat handle's
:attr:`~cinco.core.table.handle.SeatHandle.view`, or a replay's fold) and the viewer's move log
(:mod:`cinco.frontends.terminal.move_log`); legal spaces come from the handle's legal actions.
The table fits its window in any language (see :func:`render`): at 80×24 the whole board sits
beside a side panel, with the hand, the keys and the prompt under them; a bigger window gets a
bigger board and a longer log.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from cinco.core.engine.events import Viewer
from cinco.core.engine.state import GameState
from cinco.core.words.i18n import N_, _, ngettext
from cinco.frontends.board_view import (
    board_width,
    legend,
    render_board,
    team_colour,
    team_style,
    team_symbol,
)
from cinco.frontends.narration import LogLine, variant_labels

#: Below this many columns for the side panel, it goes under the board instead.
MIN_PANEL = 28
#: Rows kept under the table and what is drawn under it: the prompt (or as many as
#: ``TableView.prompt`` takes), and one more for what a question may print after the answer.
PROMPT_ROWS = 2
#: The lines under the table that a window must have room for to get the big board: the hand,
#: a message of three lines and the keys' two.
BIG_BOARD_UNDER = 6
#: The most lines one log entry takes (a longer one is cut short).
ENTRY_LINES = 3

#: The first line of the keys; the second lists only the actions legal now (keys_text).
KEYS = N_("Play a card: type it ({card}), or it and a space ({card} {space}).")


@dataclass(frozen=True)
class Style:
    """How to draw: in colour or plain, with or without non-ASCII symbols, in what room."""

    color: bool = True
    ascii_only: bool = False
    width: int = 80
    height: int = 24


@dataclass(frozen=True)
class TableView:
    """What to draw. ``viewer`` is the seat whose hand is shown (``None``: nobody's)."""

    state: GameState
    viewer: Viewer
    log: Sequence[LogLine] = ()
    highlight: Collection[int] = ()
    message: str = ""
    #: card → the spaces it may go on (from LegalActions), for notes on the hand.
    plays: Mapping[int, tuple[int, ...]] | None = None
    show_log: bool = True
    show_keys: bool = False
    title: str = ""
    #: The referee's view (a replay): show every hand's cards.
    reveal: bool = False
    #: Whether the keys line offers ``d`` and ``x``: the viewer's legal actions say (a
    #: variant may forbid exchanging; a full hand cannot draw).
    can_draw: bool = True
    can_exchange: bool = True
    #: What ``q`` does when it is not "save and quit" (the network client: leave the table).
    quit_key: str = ""
    #: A line of turn timers to show under the hand (the network client's clocks).
    clocks: str = ""
    #: The indexes in ``log`` of the moves an undo took back (drawn as such).
    taken_back: Collection[int] = ()
    #: What will be printed under the table (lines said, then the question asked), when it
    #: is longer than a short prompt: the table leaves room for it.
    prompt: str = ""
    #: The key and name of each variant's own action legal now (hook API 3), for the keys.
    actions: Sequence[tuple[str, str]] = ()


def _styled(text: str, style: object, color: bool) -> Text:
    return Text(text, style=style if color else "")  # type: ignore[arg-type]


def hand_text(view: TableView, style: Style) -> Text:
    """``Your hand  12  34  56  88 (burns)``: sorted, with a note on cards that burn."""
    assert isinstance(view.viewer, int)
    state = view.state
    text = Text(no_wrap=True, overflow="ellipsis")
    name = state.config.seats[view.viewer].name
    text.append(_("{name}'s hand").format(name=name) + "  ", style="bold" if style.color else "")
    cards = state.hand(view.viewer)
    if not cards:
        text.append(_("(no cards: draw one)"))
    for card in cards:
        text.append(f" {card:>2} ", style="bold reverse" if style.color else "")
        spaces = view.plays.get(card) if view.plays is not None else None
        if spaces is not None and not spaces:
            text.append(_("(burns)"), style="dim" if style.color else "")
        elif spaces and spaces[0] < card:
            text.append(_("(anywhere)"), style="dim" if style.color else "")
        text.append(" ")
    return text


def panel(view: TableView, style: Style, width: int, rows: int) -> Text:
    """The side panel: turn, players, tokens, piles, and as much of the log as fits, in at
    most *rows* lines (the lines above the log are always there) of at most *width* columns:
    every line is cut or wrapped here, so that the panel is exactly as tall as it says."""
    state = view.state
    config = state.config
    color = style.color
    out = Text(no_wrap=True, overflow="ellipsis")
    count = 0

    def line(text: Text | str = "") -> None:
        nonlocal count
        if count:
            out.append("\n")
        out.append(text if isinstance(text, Text) else Text(text))
        count += 1

    def wrapped(text: str) -> None:
        for part in textwrap.wrap(text, max(width, 10), subsequent_indent="  "):
            line(part)

    if state.is_over:
        line(_styled(_("Game over after {n} turns").format(n=state.turn), "bold", color))
    else:
        line(
            _styled(
                _("Turn {n} · {name} to move").format(
                    n=state.turn + 1, name=config.seats[state.current_seat].name
                ),
                "bold",
                color,
            )
        )
    name_width = min(14, max(len(seat.name) for seat in config.seats))
    for seat in range(len(config.seats)):
        line(_seat_row(view, style, seat, name_width))
    tokens = Text(_("Tokens") + " ", no_wrap=True)
    for team, count_ in enumerate(state.tokens):
        tokens.append(team_symbol(team, style.ascii_only), style=team_style(team) if color else "")
        tokens.append(f" {count_}/{state.params.tokens_per_team}  ")
    line(tokens)
    line(
        _("Draw pile {draw} · discard {discard}").format(
            draw=len(state.draw_pile), discard=len(state.discard_pile)
        )
    )
    if config.variants:
        wrapped(_("Variants: {names}").format(names=variant_labels(config.variants)))
    if not config.params.is_standard:
        wrapped(_("Rules: {params}").format(params=", ".join(config.params.describe())))
    room = rows - count - 1  # under the heading
    if view.show_log and view.log and room > 0:
        line(_styled(_("Recent moves"), "underline", color))
        for text in _recent_moves(view, style, width, room):
            line(text)
    out.rstrip()
    return out


def _seat_row(view: TableView, style: Style, seat: int, name_width: int) -> Text:
    """One player's line of the panel: whose turn, team, name, and cards (or how many)."""
    state = view.state
    color = style.color
    team = state.config.team_of(seat)
    row = Text(no_wrap=True, overflow="ellipsis")
    turn = seat == state.current_seat and not state.is_over
    row.append("▶ " if turn and not style.ascii_only else ("> " if turn else "  "))
    row.append(team_symbol(team, style.ascii_only), style=team_style(team) if color else "")
    row.append(
        " " + state.config.seats[seat].name[:name_width].ljust(name_width) + " ",
        style="bold" if color and turn else "",
    )
    size = state.hand_size(seat)
    if view.reveal:
        row.append(" ".join(f"{card:>2}" for card in state.hand(seat)) or "-")
    else:
        row.append(ngettext("{n} card", "{n} cards", size).format(n=size))
    if seat == view.viewer:
        row.append(" " + _("(you)"))
    return row


def _entry_lines(text: str, width: int, most: int) -> list[str]:
    """*text* wrapped to *width*, continuation lines indented so that each move stands out;
    at most *most* lines, the last one then cut short with an ellipsis."""
    lines = textwrap.wrap(text, max(width, 10), subsequent_indent="  ") or [""]
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = lines[-1][: max(0, width - 1)].rstrip() + "…"
    return lines


def _recent_moves(view: TableView, style: Style, width: int, room: int) -> list[Text]:
    """The lines of the newest log entries that fit in *room* lines, oldest first, the newest
    in bold. Moves an undo took back are dimmed, struck through and say so. An
    entry takes at most :data:`ENTRY_LINES` lines; when even the newest does not fit, as
    much of it as does is shown."""
    chosen: list[tuple[int, list[str]]] = []
    for index in range(len(view.log) - 1, -1, -1):
        if room <= 0:
            break
        said = view.log[index].text
        if index in view.taken_back:
            said = _("{move} (taken back)").format(move=said)
        lines = _entry_lines(said, width, ENTRY_LINES)
        if len(lines) > room:
            if chosen:
                break
            lines = _entry_lines(said, width, room)  # the newest, as much as fits
        chosen.append((index, lines))
        room -= len(lines)
    chosen.reverse()
    texts: list[Text] = []
    for number, (index, lines) in enumerate(chosen):
        entry = view.log[index]
        seat = entry.seat
        entry_style: object = "" if seat is None else team_colour(view.state.config.team_of(seat))
        taken_back = index in view.taken_back
        if taken_back:
            entry_style = "dim strike"
        for line in lines:
            text = _styled(line, entry_style, style.color)
            if number == len(chosen) - 1 and not taken_back and style.color:
                text.stylize("bold")
            texts.append(text)
    return texts


def keys_text(view: TableView) -> str:
    """What to type, with the example taken from the player's own hand when it can be."""
    card, space = 34, 36
    if view.plays:
        for held, spaces in view.plays.items():
            if len(spaces) > 1:
                card, space = held, spaces[1]
                break
    keys = [_("d draw")] if view.can_draw else []
    keys += [_("x exchange")] if view.can_exchange else []
    keys += [f"{key} {label}" for key, label in view.actions]
    keys += [_("u undo"), _("h hint"), _("? help"), view.quit_key or _("q save and quit")]
    return _(KEYS).format(card=card, space=space) + "\n" + " · ".join(keys)


def _under_the_table(view: TableView, style: Style) -> list[Text]:
    """What is drawn under the board and the panel: the hand, the message, the keys, the
    clocks."""
    state = view.state
    parts: list[Text] = []
    if isinstance(view.viewer, int) and not state.is_over:
        parts.append(hand_text(view, style))
    if view.message:
        parts.append(_styled(view.message, "bold yellow", style.color))
    if view.show_keys:
        parts.append(_styled(keys_text(view), "dim", style.color))
    if view.clocks:
        # Last, just over the prompt: the client redraws this line in place as time runs.
        clocks = _styled(view.clocks, "bold", style.color)
        clocks.no_wrap, clocks.overflow = True, "ellipsis"  # one line, to redraw in place
        parts.append(clocks)
    return parts


#: A console that draws nothing, to count the lines a text takes at a width.
_MEASURE = Console(file=io.StringIO(), width=80, color_system=None, legacy_windows=False)


def height_of(text: Text, width: int) -> int:
    """How many lines *text* takes on a screen *width* columns wide."""
    return len(text.wrap(_MEASURE, max(1, width)))


def _left(view: TableView, style: Style, cell: int, gap: int) -> Text:
    """The title (a replay's), the board and its legend, no wider than the board."""
    state = view.state
    last = state.last_play.space if state.last_play is not None else None
    line = state.result.line if state.result is not None and state.result.line else ()
    left = Text(no_wrap=True, overflow="ellipsis")
    if view.title:
        left.append(_styled(view.title, "bold", style.color))
        left.append("\n")
    left.append(
        render_board(
            state.board,
            highlight=view.highlight,
            last=last,
            winning_line=line,
            color=style.color,
            ascii_only=style.ascii_only,
            cell_width=cell,
            row_gap=gap,
        )
    )
    left.append(legend(color=style.color, ascii_only=style.ascii_only, width=board_width(cell)))
    return left


def render(view: TableView, style: Style) -> RenderableType:
    """The whole table, fitted to the screen: everything drawn under the board (the hand, a
    message, the keys) is measured first, then the board and the panel beside it take the
    rest, less the prompt's rows (:data:`PROMPT_ROWS`, or ``view.prompt``'s and one). The
    board is drawn whole; the log shows its newest lines in what room is left. A bigger
    window gets a bigger board and a longer log."""
    under = _under_the_table(view, style)
    prompt = height_of(Text(view.prompt), style.width) + 1 if view.prompt else PROMPT_ROWS
    room = style.height - prompt - sum(height_of(text, style.width) for text in under)
    cell, left = 4, _left(view, style, 4, 0)
    if style.width >= board_width(6) + MIN_PANEL + 8:
        big = _left(view, style, 6, 1)
        rows = len(big.plain.splitlines())
        # The same board from one screen to the next: chosen for the window with room for
        # the hand, the keys and a message of three lines, whatever is under it now (unless
        # it does not fit at all).
        if rows <= min(room, style.height - PROMPT_ROWS - BIG_BOARD_UNDER):
            cell, left = 6, big
    width = board_width(cell)
    left_rows = len(left.plain.splitlines())
    panel_width = style.width - width - 1
    parts: list[RenderableType] = []
    if panel_width >= MIN_PANEL:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True, width=width)
        grid.add_column(width=panel_width)
        grid.add_row(left, panel(view, style, panel_width, max(left_rows, room)))
        parts.append(grid)
    else:
        parts.append(left)
        parts.append(panel(view, style, style.width, room - left_rows))
    return Group(*parts, *under)
