"""The app's screens: behaviour only (their layout is in ``cinco.kv``).

Screens render what the :class:`~.session.TableSession` answers: seat handles' projected views,
the table's answers and refusals, and the shared narrator's words. The rules stay in the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.dropdown import DropDown
from kivy.uix.popup import Popup
from kivy.uix.screenmanager import Screen

from cinco.core.engine.config import DEFAULT_NAMES
from cinco.core.engine.errors import CincoError
from cinco.core.engine.events import SPECTATOR, Event, GameStarted
from cinco.core.engine.state import FREE, GameState, fold
from cinco.core.host.registry import Registry
from cinco.core.records.record import load_record
from cinco.core.words.i18n import _, ngettext
from cinco.frontends.narration import Narrator
from cinco.frontends.options import DEFAULT_BOT, PlayOptions

from . import device
from .board import BoardWidget
from .hold import farthest_slot
from .session import (
    autosave_dir,
    record_label,
    saved_games,
    turn_boundaries,
    unfinished_games,
)
from .table_choice import TableChoice
from .widgets import CardButton, PlayerRow, SeatRow

if TYPE_CHECKING:
    from .app import CincoApp
    from .game_session import GameSession


def app() -> CincoApp:
    return App.get_running_app()  # type: ignore[no-any-return]


#: How the built-in bots are offered; any other bot by its own name.
def cards_text(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


# -- layout -----------------------------------------------------------------------------------

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


# -- playing ----------------------------------------------------------------------------------


class GameScreen(BoardScreen):
    """The table: board, players, the hand of whoever may see it, actions and the move log."""

    card_width = NumericProperty(80)
    card_height = NumericProperty(120)
    #: "Place 33 on 53" while a tapped space waits for its confirmation.
    confirm_text = StringProperty("")

    status = StringProperty("")
    piles = StringProperty("")
    hand_title = StringProperty("")
    reason = StringProperty("")
    log = StringProperty("")
    burn_text = StringProperty("")
    can_draw = BooleanProperty(False)
    can_exchange = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    undo_text = StringProperty("")
    #: Several people play and a hand shows: "Hide" takes it off the screen.
    can_hide = BooleanProperty(False)
    #: The players list's height (:meth:`fit_players`).
    players_height = NumericProperty(0)

    def on_compact(self, _screen: Any, _compact: bool) -> None:
        app().rerender()  # the panel's words are shorter on a phone

    def panel_need(self) -> float:
        """The panel's height below the board in portrait: what must show (status, players,
        hand, actions, reasons), Undo and Menu, and a little of the move log on a tablet."""
        need = float(self.ids.panel.minimum_height)
        if self.compact:
            buttons = 0.0 if self.buttons_on_top or self.buttons_in_menu else float(dp(4 + 48))
            return need + 2 * float(dp(6)) + buttons
        return need + 2 * float(dp(12)) + 3 * float(dp(8)) + float(dp(48 + 22 + 72))

    def fit_players(self) -> None:
        """As many player rows as the panel has room for once status, hand, actions and
        buttons have theirs (upright: once the board is as large as it gets); at least one.
        The rest scroll, the player to move kept in view."""
        ids = self.ids
        grid, scroll = ids.players, ids.players_scroll
        full = float(grid.minimum_height)
        rows = list(grid.children)
        least = min(full, float(rows[0].height) if rows else full)
        others = float(ids.panel.minimum_height) - float(scroll.height)
        if self.portrait:
            width = float(self.width) - 2 * self.gap
            board = (width - dp(8)) * BOARD_ASPECT + dp(8)
            if self.compact:
                row = self.buttons_on_top or self.buttons_in_menu
                around = 2 * float(dp(6)) + (0.0 if row else float(dp(52)))
            else:
                around = 2 * float(dp(12)) + 3 * float(dp(8)) + float(dp(48 + 22 + 72))
            room = float(self.height) - 3 * self.gap - board - around - others
        else:
            content = ids.panel_content
            room = float(self.height) - 2 * self.gap - (content.minimum_height - scroll.height)
        height = max(least, min(full, room))
        if abs(height - self.players_height) > 0.5:
            self.players_height = height

    def after_relayout(self, panel_width: float) -> None:
        ids = self.ids
        self.fit_players()
        inner = panel_width - 2 * (dp(6) if self.compact else dp(12))
        self.card_width, self.card_height = card_size(
            inner, len(ids.hand.children), self.compact, float(self.height)
        )
        # Phone-sized: Undo and Menu beside the status line, not in a row of their own.
        if self.buttons_in_menu:
            row = self.more_menu().container
        else:
            row = ids.top_row if self.buttons_on_top else ids.bottom_row
            if self._more is not None:
                self._more.dismiss()
        for button in (ids.hide_button, ids.undo_button, ids.menu_button):
            if button.parent is not row:
                button.parent.remove_widget(button)
                row.add_widget(button)

    _more: Any = None

    def more_menu(self) -> Any:
        """The list that holds Undo, Hide and Menu on a short phone (made once)."""
        if self._more is None:
            self._more = DropDown(auto_width=False, width=dp(220))
            for button in (self.ids.hide_button, self.ids.undo_button, self.ids.menu_button):
                button.bind(on_release=lambda _b: self._more.dismiss())
        return self._more

    def open_more(self, button: Any) -> None:
        self.more_menu().open(button)

    def render(
        self,
        session: GameSession,
        selected: int | None,
        thinking: bool,
        message: str = "",
        pending: int | None = None,
    ) -> None:
        view = session.view()
        viewer = session.viewer()
        config = session.config
        legal = session.legal()
        mine = viewer is not None and viewer == session.to_move and not thinking
        board = self.ids.board
        board.board = list(view.board)
        board.legal = list(legal.spaces_for(selected)) if mine and selected else []
        board.preview = pending if mine and pending else 0
        board.preview_team = config.team_of(session.to_move)
        self.confirm_text = (
            _("Place on {space}").format(space=pending)
            if mine and pending and selected is not None
            else ""
        )
        board.line = list(view.result.line or ()) if view.result else []
        if view.last_play is not None and view.last_play.space is not None:
            board.last = view.last_play.space
        else:
            board.last = 0
        self.render_players(session, view)
        self.piles = _("Draw pile {draw} · discards {discard}").format(
            draw=len(view.draw_pile), discard=len(view.discard_pile)
        )
        self.render_hand(session, view, viewer, selected, mine)
        name = config.seats[session.to_move].name
        # Someone elsewhere (a server's bot, a person at another device) may be to move too.
        elsewhere = not session.is_over and viewer != session.to_move
        self.ids.thinking.running = thinking or elsewhere
        banner = session.banner()  # "Reconnecting…"
        if banner:
            self.status = banner
        elif session.is_over:
            self.status = _("Game over")
        elif thinking or session.bot_to_move or elsewhere:
            self.status = _("{name} is thinking…").format(name=name)
        elif pending and mine:
            self.status = _("Tap {space} again to place your {card}").format(
                space=pending, card=selected
            )
        elif selected is not None and mine:
            self.status = (
                _("Tap a lit space for your {card}").format(card=selected)
                if legal.spaces_for(selected)
                else _("Your {card} burns").format(card=selected)
            )
        else:
            self.status = _("{name}, your turn").format(name=name)
        self.can_draw = mine and legal.can_draw
        self.can_exchange = mine and legal.can_exchange
        burning = mine and selected is not None and not legal.spaces_for(selected)
        self.burn_text = _("Burn {card}").format(card=selected) if burning else ""
        self.reason = message or self.reasons(session, mine, selected)
        self.can_undo = not thinking and session.can_undo
        self.undo_text = undo_label(session, viewer)
        self.can_hide = len(session.humans) > 1 and viewer is not None and not session.is_over
        self.log = "\n".join(session.log(limit=60))
        self.ids.log_scroll.scroll_y = 0

    def reasons(self, session: GameSession, mine: bool, selected: int | None) -> str:
        """Why Draw or Exchange is greyed out, in the engine's own words."""
        if not mine:
            return ""
        lines = []
        if selected is None and not self.compact:
            lines.append(_("Tap a card to see where it may go."))
        for label, refusal in (
            (_("Draw"), session.draw_refusal()),
            (_("Exchange"), session.exchange_refusal()),
        ):
            if refusal:
                lines.append(f"{label}: {refusal}")
        return "\n".join(lines)

    def render_players(self, session: GameSession, view: GameState) -> None:
        box = self.ids.players
        config = session.config
        if len(box.children) != config.players:
            box.clear_widgets()
            for seat in range(config.players):
                box.add_widget(PlayerRow(seat=seat, team=config.team_of(seat)))
        rows = list(reversed(box.children))
        for seat, row in enumerate(rows):
            spec = config.seats[seat]
            row.name = spec.name
            team = config.team_of(seat)
            tokens = view.tokens[team]
            row.detail = (
                cards_text(view.hand_size(seat))  # a narrow panel: the tokens are on the board
                if self.compact or self.narrow
                else _("{cards} · {tokens} on board").format(
                    cards=cards_text(view.hand_size(seat)), tokens=tokens
                )
            )
            clock = session.clock(seat)  # a server's turn timer
            if clock:
                row.detail += " · " + clock
            row.active = not session.is_over and seat == session.to_move
            row.compact = self.compact
        self._relayout()  # the list's height: fit_players
        active = next((row for row in rows if row.active), None)
        if active is not None:
            scroll = self.ids.players_scroll
            Clock.schedule_once(lambda _dt: scroll.scroll_to(active, padding=0, animate=False), 0)

    def render_hand(
        self, session: GameSession, view: GameState, viewer: Any, selected: int | None, mine: bool
    ) -> None:
        box = self.ids.hand
        box.clear_widgets()
        config = session.config
        if viewer is None:
            self.hand_title = _("HANDS ARE HIDDEN")
            return
        legal = session.legal()
        team = config.team_of(viewer)
        self.hand_title = _("{name}'S CARDS").format(name=config.seats[viewer].name.upper())
        for card in view.hand(viewer):
            button = CardButton(
                number=card,
                team=team,
                selected=card == selected,
                enabled=mine,
                burns=mine and not legal.spaces_for(card),
            )
            button.bind(on_release=lambda _b, card=card: app().select_card(card))
            box.add_widget(button)
        self._relayout()

    def clear_hand(self) -> None:
        self.ids.hand.clear_widgets()
        self.hand_title = _("HANDS ARE HIDDEN")
        self.can_hide = False

    def space_tapped(self, space: int) -> None:
        app().tap_space(space)

    def space_dropped(self, space: int) -> None:
        app().drop_space(space)

    def on_touch_up(self, touch: Any) -> bool:
        """A lift anywhere but the previewed space or Confirm cancels the preview."""
        before = app().pending
        handled = super().on_touch_up(touch)
        if before is not None and app().pending == before:
            board, confirm = self.ids.board, self.ids.confirm_button
            on_board = board.collide_point(*touch.pos) and (board.target_at(*touch.pos) == before)
            # Confirm may sit in a scrolling panel: compare in its own coordinates.
            if not on_board and not confirm.collide_point(*confirm.to_widget(*touch.pos)):
                # Next frame: a card under the finger hears its release after this, and
                # drawing the hand again now would take it away first (in a panel that
                # scrolls, a card taken away misses its release).
                Clock.schedule_once(lambda _dt: app().cancel_preview(), 0)
        return bool(handled)

    def card_button(self, card: int) -> CardButton | None:
        for child in self.ids.hand.children:
            if isinstance(child, CardButton) and child.number == card:
                return child
        return None


class GameOverScreen(BoardScreen):
    """The result, the final board with the winning line, and what to do next."""

    result = StringProperty("")
    summary = StringProperty("")
    log = StringProperty("")
    winner = NumericProperty(-1)
    can_undo = BooleanProperty(False)
    undo_text = StringProperty("")

    def show(self, session: GameSession) -> None:
        view = session.public_view
        board = self.ids.board
        board.board = list(view.board)
        board.legal = []
        board.line = list(view.result.line or ()) if view.result else []
        board.last = view.last_play.space if view.last_play and view.last_play.space else 0
        self.result = session.result() or ""
        self.winner = view.result.winner if view.result and view.result.winner is not None else -1
        self.summary = _("{turns} turns · {tokens} tokens on the board").format(
            turns=view.turn, tokens=view.occupied
        )
        self.log = "\n".join(session.log(limit=80))
        self.can_undo = session.can_undo
        self.undo_text = undo_label(session, session.viewer())


class LeavePopup(Popup):  # type: ignore[misc]
    """Back during a game: leave it for the start screen? ``message`` says what becomes of
    the game (a local one stays saved; one at a server goes on there)."""

    message = StringProperty("")


def undo_label(session: GameSession, viewer: Any) -> str:
    """ "Undo", or whose move it takes back when that is not the person looking."""
    seat = session.undo_seat()
    if seat is None or seat == viewer or len(session.humans) == 1:
        return _("Undo")
    return _("Undo {name}'s move").format(name=session.config.seats[seat].name)


# -- replay -----------------------------------------------------------------------------------


class ReplayScreen(BoardScreen):
    """Step through a saved game, turn by turn, as the referee saw it: one from the autosave
    folder, or any record file chosen with "Open file…"."""

    record_names = ListProperty([])
    record_name = StringProperty("")
    position = StringProperty("")
    move = StringProperty("")
    log = StringProperty("")
    step = NumericProperty(0)
    steps = NumericProperty(0)
    #: What to tell about the list or the file (no saved games, why a file cannot be read).
    message = StringProperty("")
    message_is_error = BooleanProperty(False)
    #: A game is loaded: the step buttons work.
    has_game = BooleanProperty(False)
    #: The game loaded is not over: it can be played on.
    can_continue = BooleanProperty(False)
    #: The record shown, and the folder the file chooser used last.
    current: Path | None = None
    last_folder: Path | None = None

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: The records listed, by label.
        self.paths: dict[str, Path] = {}

    def load_list(self, selected: Path | None = None) -> None:
        """List the autosave folder, newest first, with *selected* (a record from anywhere)
        at the top, and show *selected*, else the newest saved game."""
        folder = autosave_dir()
        paths = saved_games(folder, newest=40)  # none if it cannot be read: the picker works
        outside = None
        if selected is not None:
            selected = Path(selected).expanduser().absolute()
            same = [p for p in paths if p.absolute() == selected]
            if same:
                selected = same[0]
            else:
                paths.insert(0, selected)
                outside = selected
        labels = unique_labels(paths, outside)
        self.paths = {label: path for path, label in labels.items()}
        self.record_names = list(self.paths)
        self.current = None
        chosen = selected if selected is not None else (paths[0] if paths else None)
        if chosen is None:
            self.clear()
            self.record_name = ""
            self.message = _("No saved games in {folder} yet — open a record file.").format(
                folder=folder
            )
            self.message_is_error = False
            return
        if self.record_name == labels[chosen]:
            self.load(chosen)
        self.record_name = labels[chosen]

    def choose(self, name: str) -> None:
        path = self.paths.get(name)
        if path is not None:
            self.load(path)

    def clear(self) -> None:
        """Nothing loaded: an empty board and no steps."""
        self.events: list[Event] = []
        self.public: list[Event] = []
        self.bounds: list[int] = []
        self.lines: list[str] = []
        self.said: list[int] = []
        self.has_game = False
        self.can_continue = False
        self.steps = 0
        self.step = 0
        self.position = ""
        self.move = ""
        self.log = ""
        board = self.ids.board
        board.board = [FREE] * len(board.board)
        board.line = []
        board.last = 0

    def load(self, path: Path) -> None:
        self.current = path
        self.message = ""
        try:
            record = load_record(path)
            self.events = list(record.events)
            first = self.events[0]
            if not isinstance(first, GameStarted):  # load_record checks it; never crash
                raise CincoError(_("the first event must be game_started"))
            self.bounds = turn_boundaries(self.events)
            # Shown as a spectator saw it: the board and public moves, never a hand.
            self.public = [event.seen_by(SPECTATOR) for event in self.events]
            over = fold(self.public).is_over
        except Exception as exc:  # a damaged or foreign file: say why, never crash
            self.clear()
            reason = str(exc) if isinstance(exc, CincoError | OSError) else repr(exc)
            self.message = _("Cannot open {name}: {reason}").format(name=path.name, reason=reason)
            self.message_is_error = True
            return
        self.config = first.config
        narrator = Narrator(self.config, SPECTATOR)
        self.said = []  # how many log lines were said after each event
        for event in self.public:
            narrator.feed(event)
            self.said.append(len(narrator.lines))
        self.lines = [line.text for line in narrator.lines]
        # Worth telling, not an error: a last line cut short, a variant not installed here.
        self.message = " ".join(record.warnings)
        self.message_is_error = False
        self.has_game = True
        self.can_continue = not over
        self.steps = len(self.bounds) - 1
        self.step = -1
        self.go(self.steps)

    def export(self) -> None:
        """A copy of the record shown, where other apps can reach it (Downloads)."""
        if self.current is None:
            return
        try:
            where = device.export_record(self.current)
        except OSError as exc:
            self.message, self.message_is_error = (
                _("The record could not be exported: {error}").format(error=exc),
                True,
            )
            return
        self.message, self.message_is_error = _("Exported to {path}").format(path=where), False

    def open_file(self, path: Path) -> None:
        """Show the record at *path* (from the file chooser), remembering its folder."""
        self.last_folder = Path(path).expanduser().absolute().parent
        self.load_list(selected=path)

    def pick_file(self) -> None:
        """Open the file chooser, in the folder used last or the home folder."""
        from .chooser import OpenRecordPopup, start_folder

        popup = OpenRecordPopup(start_folder(self.last_folder), self.open_file)
        self.popup = popup
        popup.open()

    def continue_game(self) -> None:
        """Play on from the end of the game shown (it goes on in the same file)."""
        path = self.current
        if path is None or not self.can_continue:
            return
        try:
            app().resume(path)
        except (CincoError, OSError) as exc:
            self.message = _("Cannot continue {name}: {reason}").format(name=path.name, reason=exc)
            self.message_is_error = True

    def go(self, step: int) -> None:
        if not getattr(self, "events", None):
            return
        step = max(0, min(int(step), self.steps))
        if step == self.step:
            return
        self.step = step
        count = self.bounds[step]
        shown = fold(self.public[:count])
        board = self.ids.board
        board.board = list(shown.board)
        board.line = list(shown.result.line or ()) if shown.result else []
        board.last = shown.last_play.space if shown.last_play and shown.last_play.space else 0
        self.position = _("Turn {n} of {total}").format(n=step, total=self.steps)
        previous = self.bounds[step - 1] if step else 0
        before = self.said[previous - 1] if previous else 0
        upto = self.said[count - 1]
        self.move = "\n".join(self.lines[before:upto]) or _("The cards are dealt.")
        self.log = "\n".join(self.lines[:upto][-40:])
        self.ids.log_scroll.scroll_y = 0


def unique_labels(paths: list[Path], outside: Path | None = None) -> dict[Path, str]:
    """How each record is listed; a file from outside the autosave folder by its name, and
    two records that would read the same are told apart by a number."""
    labels: dict[Path, str] = {}
    seen: set[str] = set()
    for path in paths:
        label = record_label(path, by_name=path == outside)
        base, n = label, 2
        while label in seen:
            label = f"{base} ({n})"
            n += 1
        seen.add(label)
        labels[path] = label
    return labels
