"""What the screens with a board share: :class:`BoardScreen` (the board above the panel in
portrait, beside it in landscape) and the sizes of the board and of the cards in a window.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty
from kivy.uix.screenmanager import Screen

from .board import BoardWidget

#: The smallest touch target (Android's and Apple's guidance: 48 dp).
TOUCH = 48.0
#: The board's useful width over its height, upright (turned: the inverse).
BOARD_ASPECT = BoardWidget.ACROSS / BoardWidget.ALONG


def board_box(
    width: float, height: float, gap: float, portrait: bool, panel_need: float
) -> tuple[float, float]:
    """The board's box on a screen of *width* × *height*: as large as the space allows once
    the panel has what it needs (*panel_need*: its height below the board in portrait; in
    landscape the panel keeps a third of the width, at most 340 dp)."""
    margin = dp(8)
    if portrait:
        w = width - 2 * gap
        # Beyond this height a board as wide as the screen grows no more (turned a quarter).
        useful = (w - margin) * BOARD_ASPECT + margin
        h = min(useful, height - 3 * gap - panel_need)
        return w, max(h, dp(120))
    h = height - 2 * gap
    useful = (h - margin) * BOARD_ASPECT + margin
    # A phone on its side keeps 244 dp for the hand (four cards of 50 dp) and its buttons.
    panel = max(min(dp(340), width * 0.36), dp(244) if height < dp(480) else dp(220))
    w = min(useful, width - 3 * gap - panel)
    return max(w, dp(120)), h


class BoardScreen(Screen):  # type: ignore[misc]
    """A screen with the board and a panel: board above in portrait, beside in landscape,
    resized whenever the window is (a rotation included)."""

    portrait = BooleanProperty(False)
    #: A phone-sized window: tighter panel, Undo and Menu beside the status.
    compact = BooleanProperty(False)
    gap = NumericProperty(12)
    board_size = ListProperty([400, 400])
    player_cols = NumericProperty(1)
    #: The panel is narrow: smaller button text.
    narrow = BooleanProperty(False)
    #: A phone held upright: Undo and Menu beside the status, not in a row of their own.
    buttons_on_top = BooleanProperty(False)
    #: A short phone held upright: Undo, Hide and Menu in a list behind one button.
    buttons_in_menu = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._relayout = Clock.create_trigger(self.relayout, -1)
        self.bind(size=self._relayout)
        Clock.schedule_once(self._bind_panel, 0)

    def _bind_panel(self, _dt: float) -> None:
        panel = self.ids.get("panel_content") or self.ids.get("panel")
        if panel is not None:
            panel.bind(minimum_height=self._relayout)
        self._relayout()

    def panel_need(self) -> float:
        panel = self.ids.get("panel_content") or self.ids.get("panel")
        return float(panel.minimum_height) if panel is not None else dp(300)

    def relayout(self, *_args: Any) -> None:
        width, height = float(self.width), float(self.height)
        if width < 2 or height < 2:
            return
        self.portrait = height > width
        # A phone, or a small tablet held upright: the board first, a tight panel below.
        self.compact = min(width, height) < dp(480) or (self.portrait and height < dp(1000))
        self.gap = dp(4) if self.compact else dp(12)
        # Undo and Menu beside the status only where the status keeps room for its words.
        self.buttons_on_top = self.compact and self.portrait and width >= dp(600)
        short = self.compact and self.portrait and height < dp(700)
        self.buttons_in_menu = short and not self.buttons_on_top
        need = self.panel_need()
        self.board_size = list(board_box(width, height, self.gap, self.portrait, need))
        panel_width = (
            width - 2 * self.gap if self.portrait else width - 3 * self.gap - self.board_size[0]
        )
        self.narrow = panel_width < dp(400)
        # Two columns only where a long name and its count still fit a column.
        self.player_cols = 2 if panel_width >= dp(440) else 1
        self.after_relayout(panel_width)

    def after_relayout(self, panel_width: float) -> None:
        """What a screen sizes from the panel's width."""


def card_size(
    width: float, cards: int, compact: bool, height: float = 640.0
) -> tuple[float, float]:
    """Each card's size so that the whole hand of *cards* fits a panel *width* wide: in one
    row if the cards stay at least 48 dp wide (a touch target), else in rows."""
    spacing = dp(8)
    cards = max(cards, 4)
    widest = dp(78) if compact else dp(86)
    least = dp(48)
    per_row = cards
    w = (width - (per_row - 1) * spacing) / per_row
    while w < least and per_row > 1:
        per_row -= 1
        w = (width - (per_row - 1) * spacing) / per_row
    w = min(w, widest)
    h = w * 1.35 + dp(14)
    if compact:
        # Low cards on a phone (the board needs the height), taller on a small tablet.
        h = min(h, max(dp(66), min(height * 0.1, dp(110))))
    return w, h
