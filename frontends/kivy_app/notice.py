"""A short notice near the foot of the window that goes by itself (Android's "toast"), for
words that need no answer: "Press back again to leave"."""

from __future__ import annotations

from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics import Color, RoundedRectangle
from kivy.metrics import dp, sp
from kivy.uix.label import Label

from . import theme


class Notice(Label):  # type: ignore[misc]
    """The notice: words on a dark rounded plate, not touchable (taps go through)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(font_size=sp(17), size_hint=(None, None), halign="center", **kwargs)
        with self.canvas.before:
            Color(*theme.PANEL_LIGHT)
            self._plate = RoundedRectangle(radius=[dp(20)])
        self.bind(texture_size=self._fit, pos=self._draw, size=self._draw)

    def _fit(self, *_args: Any) -> None:
        self.size = (self.texture_size[0] + dp(40), max(dp(48), self.texture_size[1] + dp(20)))
        self.center_x = Window.width / 2
        self.y = dp(56)

    def _draw(self, *_args: Any) -> None:
        self._plate.pos = self.pos
        self._plate.size = self.size

    def on_touch_down(self, touch: Any) -> bool:
        return False


_shown: dict[str, Any] = {"notice": None, "event": None}


def show_notice(text: str, seconds: float = 2.0) -> Notice:
    """Show *text* for *seconds* (replacing a notice still shown), then fade it out."""
    hide_notice()
    notice = Notice(text=text)
    notice.text_size = (min(Window.width - dp(64), dp(520)), None)
    Window.add_widget(notice)
    _shown["notice"] = notice
    _shown["event"] = Clock.schedule_once(lambda _dt: fade(notice), seconds)
    return notice


def fade(notice: Notice) -> None:
    animation = Animation(opacity=0, duration=0.25)
    animation.bind(on_complete=lambda *_a: remove(notice))
    animation.start(notice)


def remove(notice: Notice) -> None:
    if notice.parent is not None:
        notice.parent.remove_widget(notice)
    if _shown["notice"] is notice:
        _shown["notice"] = None


def hide_notice() -> None:
    if _shown["event"] is not None:
        _shown["event"].cancel()
        _shown["event"] = None
    if _shown["notice"] is not None:
        remove(_shown["notice"])


def current_notice() -> str:
    """The words shown now ("" when none)."""
    notice = _shown["notice"]
    return str(notice.text) if notice is not None else ""
