"""The game's screens: :class:`GameScreen` (the table: board, players, the hand, actions,
the move log), :class:`GameOverScreen`, and the popup that asks before leaving a game.
Behaviour only (their layout is in ``cinco.kv``); they render what the
:class:`~.game_session.GameSession` answers, and the rules stay in the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.dropdown import DropDown
from kivy.uix.popup import Popup

from cinco.core.engine.actions import known_action
from cinco.core.engine.commands import Act
from cinco.core.engine.legal import LegalActions
from cinco.core.engine.state import GameState
from cinco.core.words.i18n import _, ngettext

from .board_screen import BOARD_ASPECT, BoardScreen, card_size
from .running import app
from .widgets import CardButton, PlayerRow

if TYPE_CHECKING:
    from .game_session import GameSession


def cards_text(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def declared_choice(legal: LegalActions, card: int | None, space: int | None) -> Act | None:
    """The variant's own action (hook API 3) the player's choices point at: the first legal
    one whose ``card`` field (if it has one) is the selected card and whose ``space`` field
    (if it has one) is the space last tapped; one with neither (a pass) needs no choice.

    >>> legal = LegalActions(0, (), False, False, (Act(0, "capture", (("card", 1), ("space", 7))),))
    >>> declared_choice(legal, 1, 7), declared_choice(legal, 1, None)
    (Act(seat=0, action='capture', values=(('card', 1), ('space', 7))), None)
    """
    for act in legal.acts:
        wanted = {"card": card, "space": space}
        if all(wanted[name] == value for name, value in act.values if name in wanted):
            return act
    return None


def declared_label(act: Act) -> str:
    """The button's words for *act*: its title and its values (``Capture 34 · 1``)."""
    spec = known_action(act.action)
    title = spec.label if spec is not None else act.action
    values = " · ".join(str(value) for _name, value in act.values)
    return f"{title} {values}".strip()


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
    #: The button of a variant's own action (hook API 3), when the choices point at one.
    action_text = StringProperty("")
    #: That action's command, and the card selected when a space was last tapped, and it.
    declared: Act | None = None
    tapped: tuple[int | None, int] | None = None

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
        tapped = self.tapped[1] if self.tapped and self.tapped[0] == selected else None
        self.declared = declared_choice(legal, selected, tapped) if mine else None
        self.action_text = declared_label(self.declared) if self.declared else ""
        if self.declared is not None and tapped is not None:
            message = ""  # the taken space is the action's, not a refused play
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
        config = session.config
        if viewer is None:
            box.clear_widgets()
            self.hand_title = _("HANDS ARE HIDDEN")
            return
        legal = session.legal()
        team = config.team_of(viewer)
        self.hand_title = _("{name}'S CARDS").format(name=config.seats[viewer].name.upper())
        cards = list(view.hand(viewer))
        # The same cards: the buttons stay and only their looks change. A hand built anew
        # at every render (the online clock renders each second) loses a tap that lands
        # between the old buttons going and the new ones being laid out.
        buttons = list(reversed(box.children))
        if [button.number for button in buttons] != cards or any(
            button.team != team for button in buttons
        ):
            box.clear_widgets()
            buttons = []
            for card in cards:
                button = CardButton(number=card, team=team)
                button.bind(on_release=lambda _b, card=card: app().select_card(card))
                box.add_widget(button)
                buttons.append(button)
            self._relayout()
        for button in buttons:
            card = int(button.number)
            button.selected = card == selected
            button.enabled = mine
            button.burns = mine and not legal.spaces_for(card)

    def clear_hand(self) -> None:
        self.ids.hand.clear_widgets()
        self.hand_title = _("HANDS ARE HIDDEN")
        self.can_hide = False

    def space_tapped(self, space: int) -> None:
        self.tapped = (app().selected, space)  # a variant's action may be about it
        app().tap_space(space)

    def take_declared(self) -> None:
        """The action button: send the variant's action the choices point at."""
        act, self.declared, self.tapped = self.declared, None, None
        if act is not None and app().my_turn():
            app().act(act)

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
