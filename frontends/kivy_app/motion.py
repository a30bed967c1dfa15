"""Motion that is only for the eye: a played card flying from the hand to its space.

Nothing here holds up the game. The table has the move before anything moves; an animation
only shows it, and a new move cancels a running one (its token is then simply there).
Animations can be turned off (the start screen's toggle, remembered in the app's settings);
screenshots turn them off, so that a picture never depends on when it was taken.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.animation import Animation
from kivy.core.window import Window
from kivy.graphics import (
    Color,
    Line,
    PopMatrix,
    PushMatrix,
    Rectangle,
    RoundedRectangle,
    Scale,
    Translate,
)
from kivy.metrics import dp
from kivy.properties import NumericProperty
from kivy.uix.widget import Widget

from . import settings, theme
from .shapes import text_texture

#: The setting's key in ``app-settings.json``.
KEY = "animations"
_state = {"on": True}


def load() -> None:
    """Take the remembered setting (on unless turned off)."""
    _state["on"] = settings.read().get(KEY, True) is not False


def enabled() -> bool:
    """Whether the app animates."""
    return _state["on"]


def set_enabled(on: bool, remember: bool = False) -> None:
    """Animate or not from now on; *remember*: keep the choice for the next runs."""
    _state["on"] = on
    if remember:
        settings.write({KEY: on})


class FlyingCard(Widget):  # type: ignore[misc]
    """A played card on its way to the board, drawn over everything in the window. It is
    drawn once, at its size in the hand; moving and shrinking it only changes a translation
    and a scale (no text is made again while it flies)."""

    number = NumericProperty(0)
    team = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._base = tuple(self.size)
        with self.canvas.before:
            PushMatrix()
            self._move = Translate(self.x, self.y)
            self._scale = Scale(1, 1, 1)
        with self.canvas.after:
            PopMatrix()
        self._draw()
        self.bind(pos=self._place, size=self._place)

    def _place(self, *_args: Any) -> None:
        self._move.xy = (self.x, self.y)
        width, height = self._base
        self._scale.xyz = (self.width / max(width, 1), self.height / max(height, 1), 1)

    def _draw(self) -> None:
        width, height = self._base
        radius = min(width, height) * 0.12
        band = height * 0.2
        texture = text_texture(str(int(self.number)), max(int(min(width, height * 0.7) * 0.42), 7))
        with self.canvas:
            Color(0, 0, 0, 0.35)
            RoundedRectangle(pos=(dp(3), -dp(4)), size=(width, height), radius=[radius])
            Color(*theme.CELL)
            RoundedRectangle(pos=(0, 0), size=(width, height), radius=[radius])
            Color(*theme.team_colour(int(self.team)))
            RoundedRectangle(
                pos=(0, height - band), size=(width, band), radius=[radius, radius, 0, 0]
            )
            Color(0.1, 0.12, 0.16, 0.9)
            Line(rounded_rectangle=(0, 0, width, height, radius), width=dp(1))
            Color(*theme.CELL_TEXT)
            Rectangle(
                texture=texture,
                pos=(width / 2 - texture.width / 2, (height - band) / 2 - texture.height / 2),
                size=texture.size,
            )


class Flight:
    """One card's flight; :meth:`cancel` ends it at once (without its ending)."""

    DURATION = 0.32

    def __init__(
        self,
        number: int,
        team: int,
        origin: tuple[float, float, float, float],
        target: tuple[float, float],
        size: float,
        done: Callable[[], None],
    ) -> None:
        x, y, width, height = origin
        self.card = FlyingCard(
            number=number, team=team, size_hint=(None, None), pos=(x, y), size=(width, height)
        )
        self._done = done
        Window.add_widget(self.card)
        # The card shrinks to the token's size as it goes, and lands centred on the space.
        end = (size, size * height / max(width, 1.0))
        self.animation = Animation(
            x=target[0] - end[0] / 2,
            y=target[1] - end[1] / 2,
            width=end[0],
            height=end[1],
            duration=self.DURATION,
            t="in_out_quad",
        )
        self.animation.bind(on_complete=lambda *_a: self._finish(True))
        self.animation.start(self.card)

    @property
    def running(self) -> bool:
        return self.card.parent is not None

    def _finish(self, landed: bool) -> None:
        if self.card.parent is not None:
            self.card.parent.remove_widget(self.card)
            if landed:
                self._done()

    def cancel(self) -> None:
        self.animation.cancel(self.card)
        self._finish(False)
