"""Hints: the move the strongest installed bot would make, with a one-line reason.

The table asks the bot (:meth:`cinco.core.table.handle.SeatHandle.hint`); it sees only the hinted
player's view, like any bot. The reason reads the board's lines of five (the game's winning
length) through the chosen space (geometry, not rules): how much of a line it builds for the
player's team, or how much of an opponent's line it blocks.
"""

from __future__ import annotations

from dataclasses import dataclass

from cinco.core.engine.board import windows_through
from cinco.core.engine.commands import Act, Command, Draw, Exchange, PlayCard
from cinco.core.engine.state import FREE, GameState
from cinco.core.table.handle import SeatHandle
from cinco.core.table.protocol import Hinted, Refused
from cinco.core.words.i18n import _, ngettext
from cinco.frontends.narration import join_names, number_word, seat_name

#: Bots to ask for a hint, strongest first; the first one installed is used.
HINT_BOTS = ("ismcts", "greedy")
#: Seconds a hint bot may think, for bots that honour a time budget.
HINT_SECONDS = 1.5


@dataclass(frozen=True)
class HintAnswer:
    command: Command
    reason: str
    bot: str


def hint(handle: SeatHandle) -> HintAnswer | Refused:
    """What the strongest installed bot would do in the handle's seat, asked of the table
    (the bot sees only that seat's view), with a reason: the bot's own, else the geometry of
    the move on the seat's view. ``Refused`` says why there is no hint."""
    answer = handle.hint(bots=HINT_BOTS, seconds=HINT_SECONDS)
    if isinstance(answer, Refused):
        return answer
    seat = handle.seat
    assert seat is not None  # a spectator's hint is refused by the table
    return explained(answer, handle.view, seat)


def explained(answer: Hinted, view: GameState, seat: int) -> HintAnswer:
    """A table's hint for *seat* with its reason: the bot's own, else the geometry of the
    move on the seat's *view*, in this screen's language. A local table's hint and a
    server's (which sends only the bot's own reason) are explained here alike."""
    reason = answer.reason or explain_move(view, seat, answer.command)
    return HintAnswer(answer.command, reason, answer.bot)


def explain_move(view: GameState, seat: int, command: Command) -> str:
    """One line saying why *command* is a good idea for *seat*."""
    if isinstance(command, Draw):
        return _("nothing on the board is worth a card yet: another card gives you more choice")
    if isinstance(command, Exchange):
        return _("your cards reach no useful space: a fresh hand of {n} does better").format(
            n=number_word(len(view.hands[seat]))
        )
    if isinstance(command, Act):  # a variant's own action (hook API 3)
        return _("this game's own move, {action}, does the most for your lines now").format(
            action=command.action
        )
    assert isinstance(command, PlayCard)
    if command.space is None:
        return _("{card} can go nowhere: burning it makes room for a better card").format(
            card=command.card
        )
    team = view.team_of(seat)
    best_own = 0
    best_block = (0, -1)
    length = view.params.winning_length
    for window in windows_through(command.space, length):
        if any(view.is_blocked(n) for n in window):
            continue  # a line that can never be made
        owners = [view.board[n] for n in window if view.board[n] != FREE]
        others = {t for t in owners if t != team}
        if not others:
            best_own = max(best_own, len(owners))
        elif len(others) == 1 and team not in owners:
            best_block = max(best_block, (len(owners), others.pop()))
    cards = [c for c in view.hand(seat) if c]
    keeps_low = cards and command.card > min(cards)
    tail = _(", and it keeps your lower cards for later") if keeps_low else ""
    if best_own >= length - 1:
        return _("it completes {n} in a row: you win").format(n=number_word(length))
    blocked, other = best_block
    if blocked >= 3 or (blocked >= 2 and blocked > best_own):
        players = view.config.seats_of(other)
        names = join_names([seat_name(view.config, s) for s in players])
        return (
            # The count is the number of players named: one player "holds", a team "hold".
            ngettext(
                "it blocks a line where {names} already holds {n} of {length}",
                "it blocks a line where {names} already hold {n} of {length}",
                len(players),
            ).format(names=names, n=blocked, length=length)
            + tail
        )
    if best_own:
        return (
            _("it gives your team {n} of {length} in an open line").format(
                n=best_own + 1, length=length
            )
            + tail
        )
    return _("an open space with room for your lines") + tail
