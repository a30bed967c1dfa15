"""A spectator in this terminal (``cinco watch``): the table as a player sees it, without a
hand, drawn by the local game's own drawing (:func:`cinco.frontends.terminal.table.render`):
the board, the seats (names, teams, cards in hand), the turn timers counting down each
second, the log. It is drawn again as events come; ``q`` and Enter, or Ctrl-C, stop
watching. On a plain output (a pipe, ``TERM=dumb``) it prints the moves as they come.
"""

from __future__ import annotations

import sys

from cinco.core.engine.events import SPECTATOR
from cinco.core.table.protocol import Envelope, Message
from cinco.core.words.i18n import _
from cinco.frontends.narration import Narrator, describe_result
from cinco.frontends.terminal.screen import QuitGame, Screen
from cinco.frontends.terminal.table import TableView, render

from .client import Lobby, Session
from .play import clock_line

#: Seconds to wait for the server's next message before the clocks tick.
TICK = 0.25


def watch_in_terminal(lobby: Lobby, code: str, *, screen: Screen | None = None) -> int:
    """Watch the table with watch code *code* until its game ends, or until the person stops
    watching. Returns the exit status: 0, or 130 after Ctrl-C."""
    screen = screen or Screen()
    again = _("To watch again: cinco watch {url} {code}").format(url=lobby.base, code=code)
    session = Session(lobby, watch=code)
    try:
        lobby.tables()  # a server away is told at once, not after a minute of retrying
        session.connect()
        TerminalWatch(screen, session).follow()
        return 0
    except QuitGame:
        screen.say(_("You stopped watching.") + " " + again)
        return 0
    except KeyboardInterrupt:
        sys.stdout.write("\n")  # after the ^C the terminal echoed
        screen.say(_("You stopped watching.") + " " + again)
        return 130
    finally:
        session.close()


class TerminalWatch:
    """What a spectator's screen shows: the session's view, its narrator, and the event and
    clock line last drawn."""

    def __init__(self, screen: Screen, session: Session) -> None:
        self.screen = screen
        self.session = session
        self.narrator: Narrator | None = None
        self.drawn = -2  # the event the table was last drawn at
        self.clocks = ""  # the clock line last shown
        self.printed = 0  # plain output: the log lines printed
        self.waiting_told = False
        session.listeners.append(self.feed)
        session.on_reconnect = self.reconnecting

    def feed(self, message: Message) -> None:
        if not isinstance(message, Envelope):
            return
        state = self.session.view.state
        assert state is not None
        if self.narrator is None:
            self.narrator = Narrator(state.config, SPECTATOR)
        self.narrator.feed(message.event)

    def reconnecting(self) -> None:
        self.screen.say(_("Reconnecting…"))
        self.drawn = -2

    def follow(self) -> None:
        """Show the game as it goes, until it is over; then its result."""
        session = self.session
        while not session.view.over:
            session.receive(timeout=TICK)
            while session.receive(timeout=0.01) is not None:
                pass
            self.show()
            if self.screen.wait():  # q and Enter stop watching; other keys are thrown away
                self.drawn = -2  # what they echoed is wiped
        state = session.view.state
        assert state is not None and state.result is not None
        result = describe_result(state.config, state.result)
        if self.screen.interactive:
            self.draw(result)
        else:
            self.print_log()
            self.screen.say(result)

    def show(self) -> None:
        """Draw the table again if something happened, else tick the clock line."""
        view = self.session.view
        if view.state is None:
            if not self.waiting_told:
                self.screen.say(_("Waiting for the players to join…"))
                self.waiting_told = True
            return
        if not self.screen.interactive:
            self.print_log()
        elif view.seq != self.drawn or (self.line_above() and not self.clocks):
            self.draw(_("Watching: q and Enter, or Ctrl-C, stop watching."))
            self.drawn, self.clocks = view.seq, self.line_above()
        elif (now := self.line_above()) != self.clocks:  # a clock or a grace runs
            self.clocks = now
            self.screen.rewrite_line_above(now or " ")

    def line_above(self) -> str:
        """The last line, redrawn in place every second: the clocks, and who is away."""
        view = self.session.view
        return " · ".join(part for part in (clock_line(view), view.presence_text()) if part)

    def draw(self, message: str) -> None:
        state = self.session.view.state
        assert state is not None
        view = TableView(
            state=state,
            viewer=SPECTATOR,
            log=self.narrator.lines if self.narrator is not None else (),
            message=message,
            clocks=self.line_above() or " ",  # a line to redraw in place
        )
        self.screen.clear()
        self.screen.show(render(view, self.screen.style()))

    def print_log(self) -> None:
        """Plain output: the moves not printed yet."""
        lines = self.narrator.lines if self.narrator is not None else []
        for line in lines[self.printed :]:
            self.screen.say(line.text)
        self.printed = len(lines)
