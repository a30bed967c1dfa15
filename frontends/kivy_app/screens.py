"""The screens before a game and between its turns: :class:`StartScreen` (set up a game by
touch) and :class:`PrivacyScreen` (pass the tablet). Behaviour only (their layout is in
``cinco.kv``). The game's screens are in :mod:`.game_screen`, the replay's in
:mod:`.replay_screen`, what screens with a board share in :mod:`.board_screen`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from cinco.core.engine.config import DEFAULT_NAMES
from cinco.core.engine.errors import CincoError
from cinco.core.engine.events import SPECTATOR
from cinco.core.host.registry import Registry
from cinco.core.words.i18n import _
from cinco.frontends.options import DEFAULT_BOT, PlayOptions

from .hold import farthest_slot
from .running import app
from .session import unfinished_games
from .table_choice import TableChoice
from .widgets import SeatRow

if TYPE_CHECKING:
    from .game_session import GameSession


# -- start ------------------------------------------------------------------------------------


class StartScreen(TableChoice, Screen):  # type: ignore[misc]
    """Set up a game by touch: players, teams, variants, who plays each seat."""

    group = "start"
    can_continue = BooleanProperty(False)
    continue_text = StringProperty("")
    portrait = BooleanProperty(False)

    def on_portrait(self, _screen: Any, portrait: bool) -> None:
        """Start game stays on screen: below the seats in landscape, at the foot of the
        screen (outside the scrolling set-up) in portrait."""
        if "start_footer" not in self.ids:
            return  # still being built; setup() places it
        button, footer, seats = self.ids.start_button, self.ids.start_footer, self.ids.seats_panel
        target = footer if portrait else seats
        if button.parent is not target:
            button.parent.remove_widget(button)
            index = 0 if portrait else len(seats.children) - 3  # below the problem line
            target.add_widget(button, index=index)

    def setup(self, registry: Registry, options: PlayOptions) -> None:
        bots = dict(options.bots)
        if not bots and options.players is None:
            bots = {seat: (DEFAULT_BOT, None) for seat in range(1, 6)}
        self.names = dict(options.names)
        self.setup_choice(
            registry,
            players=options.players,
            layout=options.layout,
            variants=tuple(options.variants),
            bots=bots,
        )
        self.on_portrait(self, self.portrait)

    def prepare_row(self, row: SeatRow) -> None:
        seat = row.seat
        default = DEFAULT_NAMES[seat] if seat < len(DEFAULT_NAMES) else f"P{seat + 1}"
        row.ids.name.text = self.names.get(seat, default)

    def keep_row(self, row: SeatRow) -> None:
        """Keep the names typed so far when the number of players changes."""
        name = row.ids.name.text.strip()
        if name:
            self.names[row.seat] = name

    def seats_changed(self, teams: int) -> None:
        size = self.players // teams
        self.ids.teams_note.text = (
            _("{teams} teams of {size}").format(teams=teams, size=size)
            if size > 1
            else _("everyone for themselves")
        )

    def options(self) -> PlayOptions:
        self.save_rows()
        return PlayOptions(
            players=self.players,
            layout=self.layout_name,
            variants=tuple(self.chosen_variants),
            bots={s: b for s, b in self.bots.items() if s < self.players},
            names={s: n for s, n in self.names.items() if s < self.players},
        )

    def start_game(self) -> None:
        self.ids.problem.text = ""
        try:
            app().start_from_options(self.options())
        except CincoError as exc:
            self.ids.problem.text = str(exc)

    def continue_game(self) -> None:
        games = unfinished_games()
        if games:
            app().resume(games[0])

    def on_pre_enter(self, *_args: Any) -> None:
        games = unfinished_games()
        self.can_continue = bool(games)
        if games:
            self.continue_text = _("Continue your last game")
        else:
            self.continue_text = _("No unfinished game")


# -- privacy ----------------------------------------------------------------------------------


class PrivacyScreen(Screen):  # type: ignore[misc]
    """Between two people: nobody's cards are on screen until the next player holds the
    button with their name for a second (:mod:`.hold`: no tap, double tap, long press or
    drag of the one who just moved can do it, at any time after their move)."""

    title = StringProperty("")
    subtitle = StringProperty("")
    last_move = StringProperty("")
    team = NumericProperty(0)
    #: The reveal button's words ("Hold to show Ann's cards").
    hold_text = StringProperty("")
    #: Where the reveal button is: the top or the bottom row, and where in it
    #: (:func:`.hold.farthest_slot`: away from where the last player touched).
    hold_row = StringProperty("bottom")
    hold_anchor = StringProperty("center")

    #: "Take back Ann's move", while the one who just moved may still do so.
    take_back = StringProperty("")

    def show(self, session: GameSession, touches: Sequence[tuple[float, float]] = ()) -> None:
        """Ask for the tablet to go to the player to move; the button goes where none of
        *touches* (the last player's, in window coordinates) were."""
        undo = session.undo_seat()
        self.take_back = (
            _("Take back {name}'s move").format(name=session.config.seats[undo].name)
            if session.can_undo and undo is not None and undo != session.to_move
            else ""
        )
        seat = session.to_move
        name = session.config.seats[seat].name
        self.title = _("Pass the tablet to {name}").format(name=name)
        self.subtitle = _("{name}, hold your button for a second to see your cards").format(
            name=name
        )
        self.hold_text = _("Hold to show {name}'s cards").format(name=name)
        self.team = session.config.team_of(seat)
        log = session.log(limit=1, viewer=SPECTATOR)
        self.last_move = _("Last move: {move}").format(move=log[-1]) if log else ""
        self.place_hold(touches)

    def place_hold(self, touches: Sequence[tuple[float, float]]) -> None:
        from kivy.core.window import Window

        button = self.ids.hold_button
        button.cancel()
        size = (float(button.width), float(button.height))
        self.hold_row, self.hold_anchor = farthest_slot(
            touches, (float(Window.width), float(Window.height)), size, float(dp(16))
        )
        row = self.ids.hold_top if self.hold_row == "top" else self.ids.hold_bottom
        if button.parent is not row:
            button.parent.remove_widget(button)
            row.add_widget(button)

    @property
    def ready(self) -> bool:
        """Whether the reveal button takes a finger now (the screen is in place)."""
        return self.showing() and not self.manager.transition.is_active

    def showing(self) -> bool:
        return self.manager is not None and self.manager.current == self.name

    def on_leave(self, *_args: Any) -> None:
        self.ids.hold_button.cancel()

    def on_touch_down(self, touch: Any) -> bool:
        if not self.showing():
            return False
        super().on_touch_down(touch)  # the reveal button, and Take back while offered
        return True  # nothing under this screen takes a touch meanwhile

    def on_touch_up(self, touch: Any) -> bool:
        if not self.showing():
            return False
        super().on_touch_up(touch)
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if not self.showing():
            return False
        super().on_touch_move(touch)
        return True
