"""A person at a server's table in this terminal (``cinco join``): :func:`play_in_terminal`
and the :class:`TerminalSeat` it plays through. It draws the table with the local game's
pieces (:func:`cinco.frontends.terminal.table.render`, the narrator), reads a line per move,
and acts only when the server prompts it; at the game's end it offers a rematch."""

from __future__ import annotations

import sys

from cinco.core.engine.actions import ActionSpec
from cinco.core.engine.commands import Command, Draw, Exchange, PlayCard
from cinco.core.engine.config import GameConfig
from cinco.core.engine.errors import CincoError
from cinco.core.engine.events import Viewer
from cinco.core.host.registry import default_registry
from cinco.core.table.protocol import (
    Check,
    Envelope,
    Hint,
    Hinted,
    Message,
    Refused,
    Submit,
    Undo,
)
from cinco.core.words.i18n import _
from cinco.frontends.narration import Narrator, describe_result
from cinco.frontends.terminal import parsing
from cinco.frontends.terminal.app import hint_message
from cinco.frontends.terminal.help import show_help
from cinco.frontends.terminal.hint import explained
from cinco.frontends.terminal.screen import QuitGame, Screen
from cinco.frontends.terminal.table import TableView, render

from .client import Lobby, Session
from .play import JOIN_WAIT, clock_line, give_up, join_seat, offer_rematch, refusal_text, seated
from .seats import SeatBook, who_of


def play_in_terminal(
    lobby: Lobby,
    code: str,
    *,
    name: str | None = None,
    book: SeatBook | None = None,
    wait: float = JOIN_WAIT,
) -> int:
    """Take a seat with invite *code* (or come back to the one held in *book*) and play it in
    this terminal; at the game's end, offer a rematch."""
    screen = Screen()
    who = who_of(name)
    player = TerminalSeat(
        screen, join_seat(lobby, code, name, book, who=who, wait=wait, say=screen.say)
    )
    leaving = False
    try:
        while True:
            player.play_game()
            try:
                rematch = offer_rematch(lobby, player.session, screen.ask, book, who=who)
            except QuitGame:
                rematch = None
            if rematch is None:
                return 0
            player.session.close()
            player.sit(rematch)
    except QuitGame:
        leaving = True
        screen.say(
            _(
                "You left the table: a bot plays your seat until someone takes it. To come "
                "back: cinco join {url} {code}"
            ).format(url=lobby.base, code=code)
        )
        return 0
    except KeyboardInterrupt:
        sys.stdout.write("\n")
        screen.say(
            _("Your seat is kept for you: cinco join {url} {code} takes you back to it.").format(
                url=lobby.base, code=code
            )
        )
        return 130
    finally:
        give_up(lobby, player.session, book, leave=leaving, who=who)


class TerminalSeat:
    """One person's seat in this terminal: the session, the narrator of its stream, and what
    the screen shows (the words under the table, the event it was drawn at, a hint)."""

    def __init__(self, screen: Screen, session: Session) -> None:
        self.screen = screen
        self.clocks = ""  # the clock line last shown
        self.sit(session)

    def sit(self, session: Session) -> None:
        """Play *session*'s seat from now on (the first table's, or its rematch's)."""
        self.session = session
        self.seat: int = seated(session)
        self.narrator: Narrator | None = None
        #: The game's own actions (hook API 3) when its variants are installed here; the
        #: others are known from the prompt only (:func:`parsing.actions_for`).
        self.actions: tuple[ActionSpec, ...] = ()
        self.message = ""
        self.drawn = -2  # the event the table was last drawn at (-2: draw it again)
        self.suggestion: Command | None = None
        self.waited = True  # keys typed before this seat's turn are thrown away
        session.listeners.append(self.feed)
        session.on_reconnect = self.reconnecting

    def feed(self, message: Message) -> None:
        if not isinstance(message, Envelope):
            return
        state = self.session.view.state
        assert state is not None
        if self.narrator is None:
            self.actions = game_actions(state.config)  # before the narrator tells one
            self.narrator = Narrator(state.config, self.seat)
        self.narrator.feed(message.event)

    def reconnecting(self) -> None:
        self.screen.say(_("Connection lost: reconnecting…"))
        self.drawn = -2  # the table is drawn again once the connection is back

    def line_above(self) -> str:
        """The line over the prompt: the clocks, and who is away (their grace counting
        down); redrawn in place every second."""
        view = self.session.view
        return " · ".join(part for part in (clock_line(view), view.presence_text()) if part)

    def _live_line(self) -> str:
        """:meth:`line_above` while the person types; if the connection dropped meanwhile,
        say so at once, and connect again (with ``after=SEQ``) without waiting for a key."""
        if self.session.lost and not self.session.resume_now():
            return _("Connection lost: reconnecting…")
        self.session.take_waiting()  # a seat away, a clock: the session's thread waits
        return self.line_above() or " "

    def draw(self, message: str = "", keys: bool = False, highlight: tuple[int, ...] = ()) -> None:
        state = self.session.view.state
        if state is None:
            self.screen.say(_("Waiting for the other players to join…"))
            return
        legal = self.session.view.legal()
        viewer: Viewer = self.seat
        view = TableView(
            state=state,
            viewer=viewer,
            log=self.narrator.lines if self.narrator is not None else (),
            message=message,
            highlight=highlight,
            plays=dict(legal.plays) if legal is not None else None,
            show_log=self.screen.interactive,
            show_keys=keys,
            # the keys offer only what the server's prompt allows (a full hand cannot draw)
            can_draw=legal is not None and legal.can_draw,
            can_exchange=legal is not None and legal.can_exchange,
            actions=() if legal is None else parsing.action_keys(legal),
            quit_key=_("q leave (you can rejoin)"),
            clocks=self.line_above() or (" " if keys else ""),  # a line to redraw in place
        )
        self.screen.clear()
        self.screen.show(render(view, self.screen.style()))

    # -- a game -------------------------------------------------------------------------------

    def play_game(self) -> None:
        """Play until the game is over, then show its result."""
        session = self.session
        while not session.view.over:
            session.receive(timeout=0.3)
            while session.receive(timeout=0.05) is not None:
                pass
            if session.view.legal() is None:
                self._show_waiting()
            else:
                self._turn()
        state = session.view.state
        assert state is not None and state.result is not None
        self.draw(describe_result(state.config, state.result))

    def _show_waiting(self) -> None:
        """Not this seat's turn: draw the table again if something happened, else tick the
        clock line if a clock runs."""
        view = self.session.view
        if view.seq != self.drawn or (self.line_above() != self.clocks and not self.clocks):
            self.draw(self.message)
            self.drawn, self.clocks = view.seq, self.line_above()
        elif (now := self.line_above()) != self.clocks:  # a clock or a grace runs
            self.clocks = now
            self.screen.rewrite_line_above(self.clocks)
        self.waited = True
        if self.screen.wait():  # q answers now; a move or h typed ahead is thrown away
            self.drawn = -2  # what it echoed is wiped

    def _turn(self) -> None:
        """This seat is prompted: ask for a line, and do what it says."""
        self.draw(self.message, keys=True)
        self.message = ""
        if self.waited:  # as locally: keys typed before the turn are not a move
            self.screen.flush_input()
            self.waited = False
        typed = self.screen.ask(_("Your move: "), live=self._live_line)
        intent = parsing.parse(typed, self.typed_actions())
        if isinstance(intent, parsing.Quit):
            raise QuitGame
        if isinstance(intent, parsing.Help):
            self._help()
            return
        if isinstance(intent, parsing.Undo):
            answer = self.session.request(Undo())
            self.message = refusal_text(answer) if isinstance(answer, Refused) else ""
            return
        if isinstance(intent, parsing.Hint):
            self._hint()
            return
        if isinstance(intent, parsing.Empty) and self.suggestion is not None:
            chosen: Command | str | None = self.suggestion
        else:
            chosen = self.command_for(intent)
        self.suggestion = None
        if isinstance(chosen, str):
            self.message = chosen
            return
        if chosen is None:
            return
        answer = self.session.request(Submit(chosen))
        if isinstance(answer, Refused):
            self.message = refusal_text(answer)
        self.drawn = -2

    def typed_actions(self) -> list[ActionSpec]:
        """The game's own actions a person may type now: those of its variants installed
        here, and those the server's prompt offers (typed as their names)."""
        return parsing.actions_for(self.session.view.legal(), self.actions)

    def _help(self) -> None:
        """``?``: the help, with the game's numbers and its own actions."""
        state = self.session.view.state
        assert state is not None
        refused = self.session.request(Check(Exchange(self.seat)))
        forbidden = isinstance(refused, Refused) and refused.code == "action_not_allowed"
        show_help(
            self.screen,
            state.config.params,
            can_exchange=not forbidden,
            actions=self.typed_actions(),
        )
        self.drawn = -2

    def _hint(self) -> None:
        hinted = self.session.request(Hint())
        state = self.session.view.state
        if isinstance(hinted, Hinted) and state is not None:
            self.suggestion = hinted.command
            self.message = hint_message(explained(hinted, state, self.seat))
        elif isinstance(hinted, Refused):
            self.message = refusal_text(hinted)

    def command_for(self, intent: object) -> Command | str | None:
        """A command, or words to show, or ``None`` for nothing to do."""
        seat = self.seat
        if isinstance(intent, parsing.Draw):
            return Draw(seat)
        if isinstance(intent, parsing.Exchange):
            return Exchange(seat)
        if isinstance(intent, parsing.Play):
            return self._play(intent)
        if isinstance(intent, parsing.Show):
            return self._show(intent)
        if isinstance(intent, parsing.Declared):  # a variant's own action (hook API 3)
            return intent.command(seat) or intent.problem
        if isinstance(intent, parsing.Unknown):
            return parsing.not_a_move(intent.text)
        return _("Type a card (34), a card and a space (34 36), d, x, u, h, or q.")

    def _play(self, intent: parsing.Play) -> Command | str:
        legal = self.session.view.legal()
        state = self.session.view.state
        assert legal is not None and state is not None
        seat = self.seat
        if intent.space is not None:
            return PlayCard(seat, intent.card, intent.space)
        spaces = legal.spaces_for(intent.card) if intent.card in state.hand(seat) else None
        if spaces is None:
            return PlayCard(seat, intent.card, intent.card)  # the server says what is wrong
        if not spaces:
            return PlayCard(seat, intent.card, None)  # it burns
        if intent.card in spaces:
            return PlayCard(seat, intent.card, intent.card)
        return _("{card} is taken: type the card and a free space (from {low}).").format(
            card=intent.card, low=spaces[0]
        )

    def _show(self, intent: parsing.Show) -> str:
        legal = self.session.view.legal()
        state = self.session.view.state
        assert legal is not None and state is not None
        if intent.card not in state.hand(self.seat):
            return _("You have no {card}.").format(card=intent.card)
        return _("Your {card} may go on: {spaces}").format(
            card=intent.card,
            spaces=" ".join(map(str, legal.spaces_for(intent.card))) or _("(burns)"),
        )


def game_actions(config: GameConfig) -> tuple[ActionSpec, ...]:
    """The actions *config*'s variants declare (hook API 3), if they are installed here (their
    words and keys are then known, :func:`cinco.core.engine.actions.known_action`); else none:
    the server's prompt names them."""
    if not config.variants:
        return ()
    try:
        return default_registry().rules_for(config).declared
    except CincoError:
        return ()
