"""Small widgets: team badges, cards, seat rows, player rows, the thinking indicator.

They hold display data only; their look is in ``cinco.kv``.
"""

from __future__ import annotations

from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.stacklayout import StackLayout
from kivy.uix.widget import Widget

from . import theme
from .shapes import draw_shape, outline_shape


def fit_font(text: str, width: float, largest: float, smallest: float, bold: bool = False) -> float:
    """The font size for *text* on one line *width* wide: *largest* if it fits, else smaller,
    down to *smallest* (a long name or a long word in another language, rather than an
    ellipsis or words over the edge)."""
    if not text or width <= 0:
        return largest
    key = (text, round(largest, 2), bold)
    measured = _WIDTHS.get(key)
    if measured is None:
        if len(_WIDTHS) > 4096:
            _WIDTHS.clear()
        widest = max(text.split("\n"), key=len)
        measured = float(CoreLabel(font_size=largest, bold=bold).get_extents(widest)[0])
        _WIDTHS[key] = measured
    if measured <= width:
        return largest
    # A little under the proportional size: glyph widths do not scale quite linearly.
    return max(smallest, largest * width / measured * 0.97)


#: Text widths measured by :func:`fit_font`, by (text, font size, bold).
_WIDTHS: dict[tuple[str, float, bool], float] = {}


class TeamBadge(Widget):  # type: ignore[misc]
    """A team's token: its shape in its colour."""

    team = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        trigger = Clock.create_trigger(self.redraw, -1)
        self.bind(pos=trigger, size=trigger, team=trigger)

    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        radius = min(self.width, self.height) * 0.38
        shape = theme.team_shape(self.team)
        with self.canvas:
            Color(*theme.team_colour(self.team))
            draw_shape(shape, self.center_x, self.center_y, radius)
            Color(0.08, 0.1, 0.14, 0.9)
            outline_shape(shape, self.center_x, self.center_y, radius, 1.1)


class CardButton(ButtonBehavior, Widget):  # type: ignore[misc]
    """A card in the hand. ``spaces`` is how many spaces it may go on (0: it burns)."""

    number = NumericProperty(0)
    selected = BooleanProperty(False)
    burns = BooleanProperty(False)
    enabled = BooleanProperty(True)
    team = NumericProperty(0)
    lift = NumericProperty(0)

    def on_selected(self, _instance: Any, value: bool) -> None:
        Animation.cancel_all(self, "lift")
        Animation(lift=1.0 if value else 0.0, duration=0.15, t="out_quad").start(self)


class HandLayout(StackLayout):  # type: ignore[misc]
    """The cards of a hand, each :attr:`card_width` × :attr:`card_height`, in rows that wrap
    when the panel is narrow (the screen sets the sizes so that the whole hand shows)."""

    card_width = NumericProperty(80)
    card_height = NumericProperty(120)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(card_width=self._resize, card_height=self._resize)

    def add_widget(self, widget: Any, *args: Any, **kwargs: Any) -> None:
        widget.size = (self.card_width, self.card_height)
        super().add_widget(widget, *args, **kwargs)

    def _resize(self, *_args: Any) -> None:
        for child in self.children:
            child.size = (self.card_width, self.card_height)


class SeatRow(BoxLayout):  # type: ignore[misc]
    """One seat on the start screen: name, person or bot, bot level."""

    seat = NumericProperty(0)
    team = NumericProperty(0)
    kinds = ListProperty([])
    levels = ListProperty([])


class PlayerRow(BoxLayout):  # type: ignore[misc]
    """One player in the game's side panel."""

    seat = NumericProperty(0)
    team = NumericProperty(0)
    name = StringProperty("")
    detail = StringProperty("")
    active = BooleanProperty(False)
    #: A phone: one short line.
    compact = BooleanProperty(False)


class Thinking(Widget):  # type: ignore[misc]
    """A small spinning arc shown while a bot thinks."""

    angle = NumericProperty(0)
    running = BooleanProperty(False)
    colour = ObjectProperty(theme.ACCENT)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._animation: Animation | None = None
        trigger = Clock.create_trigger(self.redraw, -1)
        self.bind(pos=trigger, size=trigger, angle=trigger, running=self._toggle)

    def _toggle(self, *_args: Any) -> None:
        if self._animation is not None:
            self._animation.cancel(self)
            self._animation = None
        if self.running:
            self.angle = 0
            self._animation = Animation(angle=360, duration=0.9)
            self._animation.repeat = True
            self._animation.start(self)
        self.redraw()

    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        if not self.running:
            return
        radius = min(self.width, self.height) * 0.4
        with self.canvas:
            Color(*self.colour)
            Line(
                circle=(self.center_x, self.center_y, radius, self.angle, self.angle + 270),
                width=2,
                cap="round",
            )


class Logo(Widget):  # type: ignore[misc]
    """Five tokens in a row, the three team shapes in turn: the game in one picture."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        trigger = Clock.create_trigger(self.redraw, -1)
        self.bind(pos=trigger, size=trigger)

    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        step = min(self.width / 5, self.height)
        radius = step * 0.34
        with self.canvas:
            for i in range(5):
                team = (0, 1, 2, 0, 1)[i]
                cx = self.x + step * (i + 0.5)
                cy = self.center_y + (i - 2) * step * 0.08
                shape = theme.team_shape(team)
                Color(*theme.team_colour(team))
                draw_shape(shape, cx, cy, radius)
                Color(0.08, 0.1, 0.14, 0.9)
                outline_shape(shape, cx, cy, radius, 1.1)
