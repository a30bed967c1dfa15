"""``cinco replay FILE``: step through a recorded game as the referee saw it.

A replay is of a record on disk, not of a game being played: it reads the events the record
loader gives (:func:`cinco.core.records.record.load_record`) and folds them, every hand open (the
referee's view, on purpose: the game is over, or at least not being played here). The moves
that count are the table's (:func:`cinco.core.table.log.turns`): a move taken back by an undo is
not a step.

In a terminal it is interactive (next, previous, go to move N, quit); otherwise it prints the
final board, the result and every move in words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cinco.core.engine.events import REFEREE, Event, GameStarted
from cinco.core.engine.state import GameState, Timeline
from cinco.core.table.log import turns
from cinco.core.words.i18n import _
from cinco.frontends.narration import describe_result
from cinco.frontends.terminal.move_log import LIMIT, MoveLog
from cinco.frontends.terminal.screen import QuitGame, Screen
from cinco.frontends.terminal.table import TableView, render


def step_counts(events: Sequence[Event]) -> list[int]:
    """Event counts at each step: step 0 is the deal, step *n* the end of move *n* (of the
    moves that still count: undone ones are left out)."""
    started = events[0]
    players = started.config.players if isinstance(started, GameStarted) else 0
    deal = started.config.params.deal if isinstance(started, GameStarted) else 0
    counts = [min(len(events), 2 + deal * players)]
    counts += [turn.end for turn in turns(events)]
    return counts


class Replayer:
    def __init__(self, screen: Screen, events: Sequence[Event]) -> None:
        self.screen = screen
        self.events = list(events)
        self.counts = step_counts(self.events)
        #: The record folded once: each step's state is found from a state kept near it.
        self.timeline = Timeline.of(self.events)
        self.config = self.timeline.state.config

    @property
    def moves(self) -> int:
        return len(self.counts) - 1

    def state(self, step: int) -> GameState:
        return self.timeline.state_at(self.counts[step])

    def log(self, step: int, limit: int | None = LIMIT) -> MoveLog:
        """The moves told up to *step*, those an undo took back (the record keeps them)
        marked."""
        return MoveLog.of(self.config, REFEREE, self.events[: self.counts[step]], limit)

    def draw(self, step: int, message: str = "") -> None:
        state = self.state(step)
        if state.result is not None:
            message = (message + " " if message else "") + describe_result(
                self.config, state.result
            )
        log = self.log(step)
        view = TableView(
            state=state,
            viewer=REFEREE,
            log=log.lines,
            taken_back=log.taken_back(),
            message=message,
            reveal=True,
            title=_("Replay · move {n} of {total}").format(n=step, total=self.moves),
        )
        screen = self.screen
        screen.clear()
        screen.show(
            render(
                view,
                screen.style(),
            )
        )

    def interactive(self) -> None:
        step, message = 0, ""
        prompt = _("Enter next · p back · N go to move N · f first · l last · q quit: ")
        while True:
            self.draw(step, message)
            message = ""
            try:
                answer = self.screen.ask(prompt).strip().lower()
            except QuitGame:
                return
            if answer in ("", "n", "next", "+"):
                if step == self.moves:
                    message = _("That was the last move.")
                step = min(self.moves, step + 1)
            elif answer in ("p", "prev", "previous", "b", "-"):
                if step == 0:
                    message = _("This is the start of the game.")
                step = max(0, step - 1)
            elif answer in ("f", "first", "0"):
                step = 0
            elif answer in ("l", "last", "end"):
                step = self.moves
            elif answer in ("q", "quit", "exit"):
                return
            else:
                number = answer.removeprefix("g").strip()
                # ASCII digits only, and few of them: ``²`` or 5,000 digits never reach int().
                if re.fullmatch(r"[0-9]{1,6}", number, re.ASCII) and int(number) <= self.moves:
                    step = int(number)
                else:
                    message = _("Type n, p, f, l, q or a move number from 0 to {n}.").format(
                        n=self.moves
                    )

    def summary(self) -> None:
        """Everything at once: the final board and every move in words."""
        self.draw(self.moves)
        self.screen.say(_("Moves:"))
        for entry in self.log(self.moves, limit=None).entries:
            text = entry.line.text
            if entry.taken_back:
                text = _("{move} (taken back)").format(move=text)
            self.screen.say("  " + text)


def replay_record(events: Sequence[Event], *, interactive: bool) -> None:
    replayer = Replayer(Screen(), events)
    if interactive:
        replayer.interactive()
    else:
        replayer.summary()
