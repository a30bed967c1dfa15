"""The Kivy application: screens, the flow between them, bots off the UI thread, screenshots.

The app keeps one :class:`~.session.TableSession`; every change goes through the engine and is
followed by :meth:`CincoApp.advance`, which decides what to show next.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.factory import Factory
from kivy.uix.screenmanager import FadeTransition, ScreenManager

from cinco.core.commands import Command, Draw, Exchange, PlayCard
from cinco.core.errors import CincoError, IllegalCommand
from cinco.core.events import CardPlayed, Event, Viewer
from cinco.core.i18n import _
from cinco.core.registry import Registry, default_registry
from cinco.frontends.options import PlayOptions

from . import theme
from .board import BoardWidget
from .screens import GameOverScreen, GameScreen, PrivacyScreen, ReplayScreen, StartScreen
from .session import TableSession, new_record_path
from .widgets import CardButton, Logo, PlayerRow, SeatRow, TeamBadge, Thinking

for _cls in (BoardWidget, CardButton, Logo, PlayerRow, SeatRow, TeamBadge, Thinking):
    Factory.register(_cls.__name__, cls=_cls)


class CincoApp(App):  # type: ignore[misc]
    """Cinco for tablets: one device, several players, or one player against bots."""

    title = "Cinco"
    #: Kivy loads this layout file before :meth:`build` (it would otherwise look for
    #: ``cinco.kv`` beside this module by the app's name: the same file, so only once).
    kv_file = str(Path(__file__).with_name("cinco.kv"))

    def __init__(
        self, options: PlayOptions, registry: Registry | None = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.options = options
        self.registry = registry or default_registry()
        self.session: TableSession | None = None
        self.shown: Viewer = None
        self.selected: int | None = None
        self.thinking = False
        self.message = ""
        self._bot_thread: threading.Thread | None = None
        self._over_event: Any = None
        #: Called on the UI thread after every move (tests hook in here).
        self.on_change: list[Any] = []

    # -- building -----------------------------------------------------------------------------

    def tr(self, text: str) -> str:
        """Translate a text from the layout file."""
        return _(text)

    def build(self) -> ScreenManager:
        Window.clearcolor = theme.BACKGROUND
        manager = ScreenManager(transition=FadeTransition(duration=0.18))
        self.start_screen = StartScreen(name="start")
        self.privacy_screen = PrivacyScreen(name="privacy")
        self.game_screen = GameScreen(name="game")
        self.over_screen = GameOverScreen(name="over")
        self.replay_screen = ReplayScreen(name="replay")
        for screen in (
            self.start_screen,
            self.privacy_screen,
            self.game_screen,
            self.over_screen,
            self.replay_screen,
        ):
            manager.add_widget(screen)
        self.manager = manager
        self.start_screen.setup(self.registry, self.options)
        return manager

    def on_start(self) -> None:
        try:
            if self.options.resume is not None:
                self.resume(self.options.resume)
            elif not self.options.is_default:
                self.start_from_options(self.options)
            else:
                self.show_start()
        except CincoError as exc:
            self.show_start()
            self.start_screen.ids.problem.text = str(exc)
        screenshot = self.options.screenshot
        if screenshot is not None:
            self.when_settled(lambda: self.save_screenshot(Path(screenshot)))

    def on_stop(self) -> None:
        if self.session is not None and not self.thinking:
            self.session.close()

    def show(self, name: str) -> None:
        if self.manager.current != name:
            self.manager.current = name

    def show_start(self) -> None:
        if self.thinking:
            return
        self.cancel_over()
        self.start_screen.on_pre_enter()
        self.show("start")

    def session_path(self) -> Path | None:
        return self.session.path if self.session else None

    # -- starting games -----------------------------------------------------------------------

    def start_from_options(self, options: PlayOptions) -> None:
        seed = options.seed if options.seed is not None else random.randrange(2**31)
        config = options.config(self.registry, seed)
        path = options.record if options.record is not None else new_record_path(seed)
        self.begin(TableSession.new(config, path, registry=self.registry))

    def resume(self, path: Path) -> None:
        self.begin(TableSession.resume(Path(path), registry=self.registry))

    def rematch(self) -> None:
        if self.session is not None and not self.thinking:
            self.begin(self.session.rematch())

    def begin(self, session: TableSession) -> None:
        if self.session is not None and self.session is not session:
            self.session.close()
        self.cancel_over()
        self.session = session
        self.shown = None
        self.selected = None
        self.message = ""
        self.advance()

    # -- the flow -----------------------------------------------------------------------------

    def advance(self, landed: int | None = None) -> None:
        """Show what comes next: the game, the privacy screen, a bot's move, or the end."""
        session = self.session
        if session is None:
            return
        for listener in list(self.on_change):
            listener(self)
        if session.is_over:
            self.render(landed)
            self.show("game")
            self.cancel_over()
            # Leave time to see the winning token land and the line light up.
            pause = 1.4 if landed is not None else 0.0
            self._over_event = Clock.schedule_once(lambda _dt: self.show_over(), pause)
            return
        if session.bot_to_move:
            self.render(landed, thinking=True)
            self.show("game")
            if self.options.screenshot is None:
                self.start_bot()
            return
        if session.needs_privacy(self.shown):
            # S2: take the last player's cards off the screen before anyone else looks.
            self.shown = None
            self.game_screen.clear_hand()
            self.privacy_screen.show(session)
            self.show("privacy")
            return
        self.shown = session.viewer()
        self.render(landed)
        self.show("game")

    def render(self, landed: int | None = None, thinking: bool = False) -> None:
        assert self.session is not None
        self.game_screen.render(self.session, self.selected, thinking, self.message)
        if landed is not None:
            self.game_screen.ids.board.land(landed)

    def reveal(self) -> None:
        """The next player took the tablet and tapped: show their cards."""
        if self.session is None:
            return
        self.shown = self.session.viewer()
        self.advance()

    def show_over(self) -> None:
        self._over_event = None
        if self.session is not None and self.session.is_over:
            self.over_screen.show(self.session)
            self.show("over")

    def cancel_over(self) -> None:
        if self._over_event is not None:
            self._over_event.cancel()
            self._over_event = None

    # -- a person's actions -------------------------------------------------------------------

    def my_turn(self) -> bool:
        session = self.session
        return (
            session is not None
            and not self.thinking
            and not session.is_over
            and not session.bot_to_move
            and self.shown == session.to_move
            and self.manager.current == "game"
        )

    def select_card(self, card: int) -> None:
        if not self.my_turn():
            return
        self.selected = None if self.selected == card else card
        self.message = ""
        self.render()

    def tap_space(self, space: int) -> None:
        if not self.my_turn():
            return
        assert self.session is not None
        if self.selected is None:
            self.message = _("Choose a card from your hand first.")
            self.render()
            return
        legal = self.session.legal().spaces_for(self.selected)
        if space not in legal:
            command = PlayCard(self.session.to_move, self.selected, space)
            self.message = self.session.refusal(command) or ""
            self.render()
            return
        self.act(PlayCard(self.session.to_move, self.selected, space))

    def burn(self) -> None:
        if self.my_turn() and self.selected is not None:
            assert self.session is not None
            self.act(PlayCard(self.session.to_move, self.selected, None))

    def draw(self) -> None:
        if self.my_turn():
            assert self.session is not None
            self.act(Draw(self.session.to_move))

    def exchange(self) -> None:
        if self.my_turn():
            assert self.session is not None
            self.act(Exchange(self.session.to_move))

    def act(self, command: Command) -> None:
        assert self.session is not None
        try:
            events = self.session.execute(command)
        except IllegalCommand as exc:
            self.message = exc.message
            self.render()
            return
        self.selected = None
        self.message = ""
        self.advance(landed_space(events))

    def undo(self) -> None:
        if self.session is None or self.thinking or not self.session.can_undo:
            return
        self.cancel_over()
        self.session.undo()
        self.selected = None
        self.message = ""
        self.advance()

    # -- bots ---------------------------------------------------------------------------------

    def start_bot(self) -> None:
        """Let the bot move on a worker thread; the result comes back to the UI thread."""
        if self.thinking or self.session is None:
            return
        self.thinking = True
        session = self.session
        delay = self.options.delay

        def work() -> None:
            began = time.monotonic()
            events: tuple[Event, ...] = ()
            error: str | None = None
            try:
                events = session.play_bot_turn()
            except Exception as exc:  # report it on screen, never kill the app
                error = f"{type(exc).__name__}: {exc}"
            remaining = delay - (time.monotonic() - began)
            if remaining > 0:
                time.sleep(remaining)
            Clock.schedule_once(lambda _dt: self.bot_done(session, events, error))

        self._bot_thread = threading.Thread(target=work, name="cinco-bot", daemon=True)
        self._bot_thread.start()

    def bot_done(self, session: TableSession, events: tuple[Event, ...], error: str | None) -> None:
        self.thinking = False
        if session is not self.session:
            return
        if error is not None:
            self.message = _("The bot failed: {error}").format(error=error)
            self.render()
            return
        self.advance(landed_space(events))

    # -- replay and screenshots ---------------------------------------------------------------

    def open_replay(self, path: Path | None = None) -> None:
        if self.thinking:
            return
        self.cancel_over()
        self.replay_screen.load_list(path)
        self.show("replay")

    def when_settled(self, callback: Any, at_least: float = 0.8, frames: int = 4) -> None:
        """Call *callback* once the screen is still: no screen transition running, *at_least*
        seconds gone, and then *frames* more frames drawn (a slow machine draws late)."""
        began = time.monotonic()

        def wait_frames(left: int) -> None:
            if left <= 0:
                callback()
            else:
                Clock.schedule_once(lambda _dt: wait_frames(left - 1), 0)

        def poll(_dt: float) -> bool:
            if time.monotonic() - began < at_least or self.manager.transition.is_active:
                return True
            wait_frames(frames)
            return False

        Clock.schedule_interval(poll, 0.05)

    def save_screenshot(self, path: Path, stop: bool = True) -> Path:
        """Save what the window shows as a PNG at *path* (then close the app)."""
        path = path.expanduser().resolve()
        path.parent.mkdir(parents=True, exist_ok=True)
        # Render the widget tree off-screen rather than read the window back: the same picture
        # whatever the display server does with the window.
        self.root.export_to_png(str(path))
        if stop:
            self.stop()
        return path


def landed_space(events: tuple[Event, ...]) -> int | None:
    """The space a token went on in *events*, if any (for the landing animation)."""
    for event in events:
        if isinstance(event, CardPlayed) and event.space is not None:
            return event.space
    return None
