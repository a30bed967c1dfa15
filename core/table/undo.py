"""The table's undo policy: when a person may take back their last action (:func:`undo_target`:
never so as to show anyone a card), and the undo itself (:func:`undo`), carried out over the
:class:`~cinco.core.table.referee.Referee` in the table's thread."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cinco.core.engine.commands import DRAW, EXCHANGE
from cinco.core.engine.errors import IllegalCommand
from cinco.core.engine.events import CardDrawn, CardPlayed, HandDiscarded
from cinco.core.table.log import cards_shown, played_for, turns
from cinco.core.table.protocol import Accepted, Refused
from cinco.core.words.messages import freeze

if TYPE_CHECKING:
    from cinco.core.table.channel import ViewerStream
    from cinco.core.table.referee import Referee

__all__ = ["undo", "undo_target"]


def undo_target(referee: Referee, seat: int) -> int | Refused:
    """Where *seat*'s undo goes back to, or why it may not. Only the seat's own last
    action, while no other person has acted since (bots' replies are taken back with it),
    never once the game is over, and never if it would tell a person where a card is that
    they could not know without the undo: the seat's own draw or exchange (the cards drawn
    would go back into the deck), a bot's play since (its card, seen by all, would go back
    into its hand), or the seat's own play when another person sits at the table (they saw
    the card, which would go back into the seat's hand). See :func:`_undo_shows`."""
    if not referee.undo_allowed:
        return Refused("undo_not_allowed")
    seats = referee.game.config.seats
    if seats[seat].is_bot:
        return Refused("not_seated")
    if referee.game.is_over:
        return Refused("undo_game_over")
    counted = turns(referee.game.store)
    mine = [turn for turn in counted if turn.seat == seat]
    if not mine:
        return Refused("nothing_to_undo")
    last = mine[-1]
    if last.end in played_for(referee.game.store):
        return Refused("undo_stand_in")
    for turn in counted[counted.index(last) + 1 :]:
        if not seats[turn.seat].is_bot:
            return Refused("undo_other_moved", freeze({"name": seats[turn.seat].name}))
    if last.action in (DRAW, EXCHANGE):  # a play or a variant's own action: shown below
        return Refused("undo_showed_cards", freeze({"action": last.action}))
    shows = _undo_shows(referee, seat, last.start)
    return last.start if shows is None else shows


def _undo_shows(referee: Referee, seat: int, target: int) -> Refused | None:
    """Why going back to the state after *target* events would show a person a card, or
    ``None``: each card an event taken back showed a person face up (a play to everyone,
    a draw or an exchange to its seat) must then be in that person's own hand, where they
    know it anyway, and not in another hand or the deck. The seat's own view is looked at
    first, so that its refusal names the seat that played the card it saw."""
    game = referee.game
    seats = game.config.seats
    before = game.state_at(target)
    people = [seat, *(n for n, spec in enumerate(seats) if not spec.is_bot and n != seat)]
    store = game.store
    for index in range(target, len(store)):
        event = store[index]
        for person in people:
            held = before.hands[person]
            if all(card in held for card in cards_shown(event.seen_by(person))):
                continue
            if person != seat:
                return Refused("undo_seen_by_others", freeze({"name": seats[person].name}))
            # A card another seat showed (the seat's own draws were refused already).
            assert isinstance(event, CardPlayed | CardDrawn | HandDiscarded)
            return Refused("undo_card_seen", freeze({"name": seats[event.seat].name}))
    return None


def undo(referee: Referee, stream: ViewerStream, *, check: bool) -> Refused | Accepted:
    """Take back the last action of *stream*'s seat, if :func:`undo_target` allows it (with
    *check*, only say whether it would)."""
    if not isinstance(stream.viewer, int):
        return Refused("not_seated")
    if referee.problem is not None:
        return referee.problem
    target = undo_target(referee, stream.viewer)
    if isinstance(target, Refused):
        return target
    if check:
        return Accepted(-1)
    try:
        referee.game.undo(stream.viewer, target)
        referee.game.notice(
            "undone", {"name": referee.game.config.seats[stream.viewer].name}, seat=stream.viewer
        )
    except IllegalCommand as exc:
        return Refused.of(exc)
    finally:
        referee.settle()
    return referee.answered()
