"""The Kivy application: screens, the flow between them, bots that think without freezing the
screen, screenshots.

The app keeps one :class:`~.session.TableSession` (a table and its seat handles); every change
is a request to the table and is followed by :meth:`CincoApp.advance`, which decides what to
show next. A bot thinks in the table's own thread (``start_bot_turn``); a Kivy clock polls its
answer and pumps the handles' streams, so the UI keeps drawing meanwhile.
"""

from __future__ import annotations

import math
import tempfile
import time
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.factory import Factory
from kivy.uix.screenmanager import FadeTransition, ScreenManager

from cinco.core.engine.commands import Command, Draw, Exchange, PlayCard
from cinco.core.engine.errors import CincoError
from cinco.core.engine.events import Viewer
from cinco.core.host.registry import Registry
from cinco.core.table.protocol import Accepted, Refused
from cinco.core.words import i18n
from cinco.core.words.i18n import _
from cinco.frontends.board_view import use_team_styles
from cinco.frontends.options import PlayOptions

from . import device, language, motion, theme
from .board import BoardWidget
from .failure import Failure
from .failure_screen import ShowFailures
from .game_screen import GameOverScreen, GameScreen, LeavePopup
from .game_session import GameSession
from .hold import HoldButton, keep_touches
from .notice import hide_notice, show_notice
from .online import OnlineScreen
from .remote_session import RemoteSession
from .replay_screen import ReplayScreen
from .screens import PrivacyScreen, StartScreen
from .session import TableSession, new_record_path
from .sounds import Sounds
from .widgets import CardButton, HandLayout, Logo, PlayerRow, SeatRow, TeamBadge, Thinking

#: Seconds within which a second Back on the start screen leaves the app.
BACK_AGAIN = 2.0

for _cls in (BoardWidget, CardButton, HandLayout, Logo, PlayerRow, SeatRow, TeamBadge, Thinking):
    Factory.register(_cls.__name__, cls=_cls)
Factory.register("HoldButton", cls=HoldButton)


class CincoApp(App):  # type: ignore[misc]
    """Cinco for tablets: one device, several players, or one player against bots."""

    title = "Cinco"
    #: The screen manager (Kivy's, untyped), built again when the language changes.
    root: Any
    #: Kivy loads this layout file before :meth:`build` (it would otherwise look for
    #: ``cinco.kv`` beside this module by the app's name: the same file, so only once).
    kv_file = str(Path(__file__).with_name("cinco.kv"))

    def __init__(
        self, options: PlayOptions, registry: Registry | None = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        language.start_language()  # --lang / CINCO_LANG, else the app's own setting
        self.options = options
        self.sounds = Sounds()
        # Animations as the person left them; never in a screenshot (the same picture always).
        motion.load()
        if options.screenshot is not None:
            motion.set_enabled(False)
        #: The card just played and the window box it was played from (it flies to its space).
        self._flight: tuple[int, tuple[float, float, float, float]] | None = None
        #: A bot or a remote player moved: the next person's turn here gets the "your turn" cue.
        self._cue_turn = False
        # Bots think in a process of their own, so the board keeps drawing while they search.
        self.registry = registry or Registry(bot_processes=True)
        use_team_styles(self.registry.team_styles())  # more teams than three: a plugin's look
        #: The game shown: a local table (TableSession) or a seat at a server (RemoteSession).
        self.session: GameSession | None = None
        self.shown: Viewer = None
        self.selected: int | None = None
        #: A space tapped once for the selected card: a second tap (or Confirm) plays it.
        self.pending: int | None = None
        self.thinking = False
        self.message = ""
        self._bot: Future[Accepted | Refused] | None = None
        self._bot_poll: Any = None
        self._pump_event: Any = None
        self._over_event: Any = None
        #: Screenshot mode records into a folder of its own, removed on exit.
        self._scratch: tempfile.TemporaryDirectory[str] | None = None
        #: Called on the UI thread after every move (tests hook in here).
        self.on_change: list[Any] = []
        #: Kivy's loop hands uncaught exceptions to this: reported, shown, the app goes on
        #: (a screenshot stops instead, with exit status 1).
        self._show_failures = ShowFailures(self, stop_on_failure=options.screenshot is not None)
        self._show_failures.install()
        #: on_start has run: a failure from now on is one "during play".
        self.started = False
        #: Where the player whose hand shows touched the game screen (window coordinates):
        #: the pass screen's reveal button goes elsewhere (.hold).
        self.touches: list[tuple[float, float]] = []
        #: When Back was last pressed on the start screen (a second press soon after leaves).
        self._back_at = -math.inf

    @property
    def failures(self) -> list[Failure]:
        """The failures reported and shown during play."""
        return self._show_failures.failures

    # -- building -----------------------------------------------------------------------------

    def tr(self, text: str) -> str:
        """Translate a text from the layout file."""
        return _(text)

    @property
    def language_name(self) -> str:
        """The language the app speaks now, by its own name (the start screen's chooser)."""
        return i18n.LANGUAGES[i18n.current_language()]

    @property
    def language_code(self) -> str:
        return i18n.current_language()

    @property
    def language_names(self) -> list[str]:
        return language.language_names()

    def switch_language(self, name: str) -> None:
        """Speak the language called *name* from now on, and remember it: the screens are
        built again in it, and the start screen keeps what was chosen on it."""
        code = language.code_of(name)
        if code is None or code == i18n.current_language():
            return
        old: Any = self.root
        if old is not None:
            # Read the choices while the screen's words are still the old language's.
            chosen = self.start_screen.options()
            self.options = replace(
                self.options,
                players=chosen.players,
                layout=chosen.layout,
                variants=chosen.variants,
                bots=chosen.bots,
                names=chosen.names,
            )
        i18n.set_language(code)
        language.remember_language(code)
        if old is None:
            return
        Window.unbind(on_keyboard=self.on_keyboard)
        Window.unbind(on_touch_down=self.note_touch, on_touch_up=self.note_touch)
        new = self.build()
        self.root = new
        Window.remove_widget(old)
        Window.add_widget(new)
        self.keep_awake()

    def build(self) -> ScreenManager:
        Window.clearcolor = theme.BACKGROUND
        manager = ScreenManager(transition=FadeTransition(duration=0.18))
        self.start_screen = StartScreen(name="start")
        self.privacy_screen = PrivacyScreen(name="privacy")
        self.game_screen = GameScreen(name="game")
        self.over_screen = GameOverScreen(name="over")
        self.replay_screen = ReplayScreen(name="replay")
        self.online_screen = OnlineScreen(name="online")
        for screen in (
            self.start_screen,
            self.privacy_screen,
            self.game_screen,
            self.over_screen,
            self.replay_screen,
            self.online_screen,
        ):
            manager.add_widget(screen)
        self.manager = manager
        manager.bind(current=lambda _m, _c: self.keep_awake())
        self.start_screen.setup(self.registry, self.options)
        self.online_screen.setup(self.registry)
        self.registry.prepare_bots()  # the bots' process starts while the player chooses
        #: The "leave this game?" question, while it is asked.
        self.leave_popup: LeavePopup | None = None
        Window.bind(on_keyboard=self.on_keyboard)
        Window.bind(on_touch_down=self.note_touch, on_touch_up=self.note_touch)
        return manager

    def note_touch(self, _window: Any, touch: Any) -> None:
        """Remember where the game screen was touched (before any widget takes the touch)."""
        if self.manager.current == "game":
            self.touches = keep_touches(self.touches, (float(touch.x), float(touch.y)))

    # -- Android: the Back key, pausing, the screen kept on ----------------------------------

    def on_keyboard(self, _window: Any, key: int, *_args: Any) -> bool:
        """Back (Escape on a desktop) goes back a screen; it asks before leaving a game."""
        if key != 27:
            return False
        return self.back()

    def back(self) -> bool:
        """What Back does; False when it is not Back's to handle."""
        if self.leave_popup is not None:
            self.leave_popup.dismiss()
            return True
        popup = getattr(self.replay_screen, "popup", None)
        if popup is not None and popup._window is not None:
            popup.dismiss()
            return True
        current = self.manager.current
        if current in ("game", "privacy") and self.session is not None and not self.session.is_over:
            self.ask_leave()
            return True
        if current in ("game", "privacy", "over", "replay", "online"):
            self.show_start()
            return True
        if current == "start":
            return self.back_from_start()
        return False

    def back_from_start(self) -> bool:
        """Back on the start screen: the first press says that a second one leaves (as
        Android apps do, so that one stray press closes nothing); a second within
        :data:`BACK_AGAIN` seconds closes the app."""
        now = time.monotonic()
        if now - self._back_at <= BACK_AGAIN:
            self._back_at = -math.inf
            hide_notice()
            self.stop()
            return True
        self._back_at = now
        show_notice(_("Press back again to leave"), BACK_AGAIN)
        return True

    def ask_leave(self) -> None:
        """Ask before leaving a game for the start screen (it stays saved)."""
        if self.leave_popup is not None:
            return
        popup = LeavePopup()
        if isinstance(self.session, RemoteSession):
            popup.message = _(
                'The game goes on at the server: "Play online" brings you back to it '
                "(away too long, a bot plays for you)."
            )
        else:
            popup.message = _('It is saved: "Continue your last game" brings it back.')
        popup.bind(on_dismiss=lambda _p: setattr(self, "leave_popup", None))
        self.leave_popup = popup
        popup.open()

    def leave_game(self) -> None:
        if self.leave_popup is not None:
            self.leave_popup.dismiss()
        self.show_start()

    def on_pause(self) -> bool:
        """Android puts the app in the background: everything is saved already (the table
        flushes its record after every event); take any hand off the screen, since the tablet
        may come back in other hands. True: keep the app alive meanwhile."""
        self.pending = None
        session = self.session
        if session is not None and len(session.humans) > 1 and self.manager.current == "game":
            self.shown = None
            self.game_screen.clear_hand()
        device.keep_screen_on(False)
        return True

    def on_resume(self) -> None:
        """Back from the background: show the game again, through the privacy screen when
        several people play (the record was never closed)."""
        if self.session is not None and self.manager.current == "game" and not self.thinking:
            self.advance()
        self.keep_awake()

    def keep_awake(self) -> None:
        """The screen stays on while a game is played (Android only)."""
        playing = self.manager.current in ("game", "privacy")
        device.keep_screen_on(playing)

    def on_start(self) -> None:
        # The streams: every handle's messages are taken in on the UI thread.
        self._pump_event = Clock.schedule_interval(self.pump, 0.1)
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
        self.started = True

    def on_stop(self) -> None:
        self._show_failures.remove()
        Window.unbind(on_keyboard=self.on_keyboard)
        Window.unbind(on_touch_down=self.note_touch, on_touch_up=self.note_touch)
        if self._pump_event is not None:
            self._pump_event.cancel()
        if self.session is not None:
            self.session.close()  # after the bot's move, if one is thinking
        if self._scratch is not None:
            self._scratch.cleanup()

    def pump(self, _dt: float = 0.0) -> None:
        """Take in the handles' streams; redraw if something came that no request of ours
        brought (a bot's move is drawn when its answer is polled)."""
        session = self.session
        if session is None or not session.pump() or self.thinking:
            return
        problem = session.take_problem()  # a server's refusal, after its request
        if problem is not None:  # "": what was said no longer holds
            self.message = problem
        if self.manager.current in ("game", "privacy", "over"):  # not while on another screen
            landed = session.take_landed()
            self.moved(landed)
            self._cue_turn = True  # a remote player's move (ours come back through act)
            self.advance(landed)

    def show(self, name: str) -> None:
        if self.manager.current != name:
            self.manager.current = name

    def show_start(self) -> None:
        if self.thinking:
            return
        self.cancel_over()
        self.start_screen.on_pre_enter()
        self.show("start")

    def show_online(self) -> None:
        """The "Play online" screen: a table at a server, by invite or watch code."""
        if self.thinking:
            return
        self.cancel_over()
        self.online_screen.on_pre_enter()
        self.show("online")

    def session_path(self) -> Path | None:
        return self.session.path if self.session else None

    # -- starting games -----------------------------------------------------------------------

    def start_from_options(self, options: PlayOptions) -> None:
        # The seed is --seed's, else none: the table draws one, and never shows it.
        config = options.config(self.registry)
        self.begin(TableSession.new(config, self.record_path(options), registry=self.registry))

    def record_path(self, options: PlayOptions) -> Path | None:
        """Where a new game is saved: ``--record FILE``, else a new file in the autosave
        folder; a screenshot's game goes to a scratch folder, removed on exit."""
        if options.record is not None:
            return options.record
        if options.screenshot is not None:
            if self._scratch is None:
                self._scratch = tempfile.TemporaryDirectory(prefix="cinco-shot-")
            return new_record_path(Path(self._scratch.name))
        return new_record_path()

    def resume(self, path: Path) -> None:
        current = self.session
        if current is not None and current.path is not None and same_file(current.path, path):
            # The game open here (a record being played is locked): carry on with it.
            self.cancel_over()
            self.shown = None
            self.selected = None
            self.advance()
            return
        # A screenshot only looks: the record is read, never written to.
        record = self.options.screenshot is None
        self.begin(TableSession.resume(Path(path), registry=self.registry, record=record))

    def rematch(self) -> None:
        if self.session is not None and not self.thinking:
            following = self.session.rematch()  # None: a server's, which comes later
            if following is not None:
                self.begin(following)

    def begin(self, session: GameSession) -> None:
        if self.session is not None and self.session is not session:
            self.session.close()
        self.cancel_over()
        self.session = session
        self.shown = None
        self.selected = None
        self.pending = None
        self.message = " ".join(session.warnings)
        session.pump()
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
            if landed is not None:  # won just now, not a finished game opened again
                self.sounds.play("win")
                self.game_screen.ids.board.celebrate()
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
            self.privacy_screen.show(session, self.touches)
            self.show("privacy")
            return
        self.shown = session.viewer()
        self.render(landed)
        self.show("game")
        if self._cue_turn:
            self._cue_turn = False
            self.sounds.play("turn")

    def render(self, landed: int | None = None, thinking: bool = False) -> None:
        assert self.session is not None
        self.game_screen.render(
            self.session, self.selected, thinking, self.message, pending=self.pending
        )
        if landed is not None:
            flight, self._flight = self._flight, None
            self.game_screen.ids.board.land(landed, flight)

    def rerender(self) -> None:
        """Draw the game screen again as it is (its layout changed)."""
        if self.session is not None and self.manager.current == "game":
            self.render(thinking=self.thinking)

    def hide(self) -> None:
        """Take the hand off the screen (Hide); the privacy screen asks for a tap again."""
        session = self.session
        if session is None or len(session.humans) < 2 or self.manager.current != "game":
            return
        self.pending = None
        self.selected = None
        self.shown = None
        self.game_screen.clear_hand()
        self.privacy_screen.show(session, self.touches)
        self.show("privacy")

    def reveal(self) -> None:
        """The next player took the tablet and held their button: show their cards."""
        if self.session is None:
            return
        self.touches = []  # from now on, the touches of the player whose cards show
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
        self.pending = None
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
            # Anything but the space shown cancels it; the table says why this one is not lit.
            self.pending = None
            command = PlayCard(self.session.to_move, self.selected, space)
            self.message = self.session.refusal(command) or ""
            self.render()
            return
        if self.pending != space:
            # First tap: the token shows where it would go; nothing is played yet.
            self.pending = space
            self.message = ""
            self.render()
            return
        self.confirm()

    def confirm(self) -> None:
        """Play the selected card on the space shown as a preview."""
        if not self.my_turn() or self.selected is None or self.pending is None:
            return
        assert self.session is not None
        self.act(PlayCard(self.session.to_move, self.selected, self.pending))

    def drop_space(self, space: int) -> None:
        """The selected card was dragged onto *space*: play it there (the drag was the
        confirmation); a space it may not go on says why, as a tap does."""
        if not self.my_turn() or self.selected is None:
            return
        assert self.session is not None
        if space in self.session.legal().spaces_for(self.selected):
            self.pending = space
            self.confirm()
        else:
            self.tap_space(space)

    def cancel_preview(self) -> None:
        """A tap anywhere but the previewed space (or Confirm) takes the preview away."""
        if self.pending is not None:
            self.pending = None
            if self.session is not None and self.manager.current == "game":
                self.render()

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
        self._flight = None
        if isinstance(command, PlayCard) and command.space is not None:
            button = self.game_screen.card_button(command.card)
            if button is not None and button.get_root_window() is not None:
                x, y = button.to_window(button.x, button.y)
                self._flight = (command.card, (x, y, float(button.width), float(button.height)))
        refused = self.session.submit(command)
        if refused is not None:
            self.message = refused.message
            self.sounds.play("refused")
            self.render()
            return
        self.selected = None
        self.pending = None
        self.message = ""
        landed = self.session.take_landed()
        self.moved(landed)
        self.advance(landed)
        self._flight = None  # not drawn (the tablet is passed first): nothing flies later

    def moved(self, landed: int | None) -> None:
        """The sound of a move: a token landing, or a card drawn, exchanged or burnt."""
        self.sounds.play("place" if landed is not None else "card")

    @property
    def animations(self) -> bool:
        """Whether the app animates (the start screen's toggle)."""
        return motion.enabled()

    def set_animations(self, on: bool) -> None:
        """Animations on or off (the start screen's toggle), remembered."""
        motion.set_enabled(on, remember=True)

    def set_sounds(self, on: bool) -> None:
        """Sounds on or off (the start screen's toggle), remembered."""
        self.sounds.set_muted(not on)

    def undo(self) -> None:
        """Take back the last person's move, as the table allows (its reason if not)."""
        session = self.session
        if session is None or self.thinking:
            return
        refused = session.undo()
        self.selected = None
        self.pending = None
        if refused is not None:
            self.message = refused.message
            if not session.is_over:
                self.render()
            return
        self.cancel_over()
        self.message = ""
        self.advance()

    # -- bots ---------------------------------------------------------------------------------

    def start_bot(self) -> None:
        """Let the bot move in the table's thread; a clock polls for its answer, so the UI
        keeps drawing (and the spinner turning) meanwhile."""
        if self.thinking or self.session is None:
            return
        self.thinking = True
        session = self.session
        began = time.monotonic()
        future = session.start_bot_turn()
        self._bot = future

        def poll(_dt: float) -> bool:
            if not future.done() or time.monotonic() - began < self.options.delay:
                return True
            self._bot_poll = None
            self.bot_done(session, future)
            return False

        self._bot_poll = Clock.schedule_interval(poll, 0.03)

    def bot_done(self, session: GameSession, future: Future[Accepted | Refused]) -> None:
        self.thinking = False
        self._bot = None
        if session is not self.session:
            return
        session.pump()
        try:
            answer = future.result()
            error = answer.message if isinstance(answer, Refused) else None
        except Exception as exc:  # report it on screen, never kill the app
            error = f"{type(exc).__name__}: {exc}"
        if error is not None:
            self.message = _("The bot failed: {error}").format(error=error)
            self.render()
            return
        landed = session.take_landed()
        self.moved(landed)
        self._cue_turn = True
        self.advance(landed)

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


def same_file(one: Path, other: Path) -> bool:
    try:
        return Path(one).resolve() == Path(other).resolve()
    except OSError:
        return False
