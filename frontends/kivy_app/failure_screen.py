"""What the person sees when the app fails: during play a popup over the game (which stays
saved), at start-up a window of its own. Both say what went wrong and where the log is
(:mod:`.failure` wrote it, and the traceback to standard error)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.popup import Popup

from cinco.core.words.i18n import _

from . import theme
from .failure import Failure, report

#: More failures than this while one is shown: the app stops (a failure in every frame would
#: otherwise keep it spinning), reporting each on standard error.
MAX_FAILURES = 20


def failure_text(failure: Failure) -> str:
    return _("{error}\n\nThe details are in the log: {path}").format(
        error=failure.summary, path=failure.log
    )


def failure_body(failure: Failure, actions: list[tuple[str, Callable[[], None]]]) -> BoxLayout:
    """The message and one button per action, as a column that wraps to its width."""
    body = BoxLayout(orientation="vertical", spacing=dp(12), padding=dp(12))
    message = Label(text=failure_text(failure), font_size=sp(17), halign="left", valign="top")
    message.bind(width=lambda label, width: setattr(label, "text_size", (width, None)))
    body.add_widget(message)
    row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(12))
    for words, action in actions:
        button = Button(text=words, font_size=sp(17), background_color=theme.ACCENT)
        button.bind(on_release=lambda _b, act=action: act())
        row.add_widget(button)
    body.add_widget(row)
    return body


class FailurePopup(Popup):  # type: ignore[misc]
    """An error during play: the game stays saved; back to the start screen, or close."""

    def __init__(self, failure: Failure, app: Any, **kwargs: Any) -> None:
        self.failure = failure
        actions = [
            (_("Back to the start"), lambda: self.leave(app)),
            (_("Close the app"), app.stop),
        ]
        super().__init__(
            title=_("Something went wrong"),
            title_size=sp(20),
            content=failure_body(failure, actions),
            size_hint=(0.9, 0.7),
            auto_dismiss=False,
            **kwargs,
        )

    def leave(self, app: Any) -> None:
        self.dismiss()
        app.thinking = False  # a bot's failed turn must not hold the start screen back
        app.show_start()


class ShowFailures(ExceptionHandler):  # type: ignore[misc]
    """Kivy's loop hands every uncaught exception here: it is reported (standard error, the
    log) and shown; the app goes on, unless *stop_on_failure* (a screenshot: exit status 1)."""

    def __init__(self, app: Any, stop_on_failure: bool) -> None:
        super().__init__()
        self.app = app
        self.stop_on_failure = stop_on_failure
        self.failures: list[Failure] = []
        self.popup: FailurePopup | None = None

    def handle_exception(self, inst: BaseException) -> int:
        if isinstance(inst, KeyboardInterrupt | SystemExit):
            return ExceptionManager.RAISE  # type: ignore[no-any-return]
        failure = report(inst, "during play")
        if failure is not None:
            self.failures.append(failure)
        if self.stop_on_failure or len(self.failures) > MAX_FAILURES:
            return ExceptionManager.RAISE  # type: ignore[no-any-return]
        if failure is not None and self.popup is None:
            Clock.schedule_once(lambda _dt: self.show(failure), 0)
        return ExceptionManager.PASS  # type: ignore[no-any-return]

    def show(self, failure: Failure) -> None:
        self.popup = FailurePopup(failure, self.app)
        self.popup.bind(on_dismiss=lambda _p: setattr(self, "popup", None))
        self.popup.open()

    def install(self) -> None:
        ExceptionManager.add_handler(self)

    def remove(self) -> None:
        if self in ExceptionManager.handlers:
            ExceptionManager.remove_handler(self)


class FailureApp(App):  # type: ignore[misc]
    """The app could not start: a window that says why, with a Close button."""

    title = "Cinco"

    def __init__(self, failure: Failure, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.failure = failure

    def build(self) -> BoxLayout:
        for child in list(Window.children):  # what a half-started app left in the window
            Window.remove_widget(child)
        Window.clearcolor = theme.BACKGROUND
        root = BoxLayout(orientation="vertical", padding=dp(24), spacing=dp(12))
        title = Label(
            text=_("Cinco could not start"), font_size=sp(26), bold=True, size_hint_y=None
        )
        title.bind(texture_size=lambda label, size: setattr(label, "height", size[1]))
        root.add_widget(title)
        root.add_widget(failure_body(self.failure, [(_("Close the app"), self.stop)]))
        return root


def show_startup_failure(failure: Failure) -> None:
    """Show *failure* in a window of its own until the person closes it."""
    FailureApp(failure).run()
