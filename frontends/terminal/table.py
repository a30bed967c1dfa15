"""The table as one viewer sees it: the board, the players, the piles, the log, the hand.

Everything drawn here comes from a projection (a seat handle's
:attr:`~cinco.core.table.handle.SeatHandle.view`, or a replay's fold) and the viewer's narrator;
legal
spaces come from the handle's legal actions. At 80×24 the board sits
beside a side panel; a bigger window gets a bigger board and a longer log.
"""

from __future__ import annotations

import textwrap
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
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
from cinco.frontends.narration import LogLine

#: Below this many columns for the side panel, it goes under the board instead.
MIN_PANEL = 28
#: Rows kept free under the table: hand, message, keys line, prompt.
BOTTOM_ROWS = 6

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
    """The side panel: turn, players, tokens, piles, and as much of the log as fits."""
    state = view.state
    config = state.config
    color = style.color
    out = Text(no_wrap=False)

    def line(text: Text | str = "") -> None:
        out.append(text if isinstance(text, Text) else Text(text))
        out.append("\n")

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
    for team, count in enumerate(state.tokens):
        tokens.append(team_symbol(team, style.ascii_only), style=team_style(team) if color else "")
        tokens.append(f" {count}/{state.params.tokens_per_team}  ")
    line(tokens)
    line(
        _("Draw pile {draw} · discard {discard}").format(
            draw=len(state.draw_pile), discard=len(state.discard_pile)
        )
    )
    if config.variants:
        line(_("Variants: {names}").format(names=", ".join(config.variants)))
    if not config.params.is_standard:
        line(_("Rules: {params}").format(params=", ".join(config.params.describe())))
    if view.show_log and view.log:
        line(_styled(_("Recent moves"), "underline", color))
        used = sum(1 for _c in out.plain.splitlines())
        for text in _recent_moves(view, style, width, room=max(2, rows - used)):
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


def _recent_moves(view: TableView, style: Style, width: int, room: int) -> list[Text]:
    """The newest log entries that fit in *room* lines, oldest first, the newest in bold."""
    chosen: list[tuple[LogLine, str]] = []
    for entry in reversed(view.log):
        # Wrapped by hand, continuation lines indented, so each move stands out.
        wrapped = textwrap.wrap(entry.text, max(width, 10), subsequent_indent="  ")
        if len(wrapped) > room:
            break
        chosen.append((entry, "\n".join(wrapped)))
        room -= len(wrapped)
    chosen.reverse()
    texts: list[Text] = []
    for index, (entry, wrapped_text) in enumerate(chosen):
        newest = index == len(chosen) - 1
        seat = entry.seat
        entry_style = "" if seat is None else team_colour(view.state.config.team_of(seat))
        text = _styled(wrapped_text, entry_style, style.color)
        if newest and style.color:
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
    keys += [_("u undo"), _("h hint"), _("? help"), view.quit_key or _("q save and quit")]
    return _(KEYS).format(card=card, space=space) + "\n" + " · ".join(keys)


def render(view: TableView, style: Style) -> RenderableType:
    """The whole table."""
    state = view.state
    big = style.width >= board_width(6) + MIN_PANEL + 8 and style.height >= 21 + 8
    cell, gap = (6, 1) if big else (4, 0)
    last = state.last_play.space if state.last_play is not None else None
    line = state.result.line if state.result is not None and state.result.line else ()
    left = Text()
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
    left.append(legend(color=style.color, ascii_only=style.ascii_only))
    board_rows = len(left.plain.splitlines())
    panel_width = style.width - board_width(cell) - 1
    parts: list[RenderableType] = []
    rows = max(board_rows, style.height - BOTTOM_ROWS - 1)
    if panel_width >= MIN_PANEL:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column(width=panel_width)
        grid.add_row(left, panel(view, style, panel_width, rows))
        parts.append(grid)
    else:
        parts.append(left)
        parts.append(panel(view, style, style.width, max(6, style.height - board_rows - 6)))
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
    return Group(*parts)
