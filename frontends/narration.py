"""Moves in words: what each viewer is told about the game, one line per turn.

The one narrator of every frontend (the terminal game, the Kivy app, replays). A
:class:`Narrator` is fed the events of a game *as one viewer sees them* (the envelopes of that
viewer's :class:`~cinco.core.table.handle.SeatHandle`), so it can only ever say what that viewer may
know: "You drew 45" for the player who drew, "Bob drew a card" for everyone else. Notices and
refusals are data; their words come from :func:`cinco.core.words.messages.render`.

>>> from cinco.core.engine.config import GameConfig
>>> from cinco.core.engine.events import CardPlayed, TurnEnded
>>> config = GameConfig.for_players(2)
>>> narrator = Narrator(config, viewer=1, in_setup=False)
>>> narrator.feed(CardPlayed(seat=0, card=34, space=36))
>>> narrator.feed(TurnEnded(seat=0, action="play", next_seat=1))
>>> narrator.lines[-1].text
'Ann played 34 and placed on 36'
>>> narrator.feed(CardPlayed(seat=1, card=88, space=None))
>>> narrator.feed(TurnEnded(seat=1, action="play", next_seat=0))
>>> narrator.lines[-1].text
'Your 88 burned'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cinco.core.engine.actions import tell_action
from cinco.core.engine.config import GameConfig
from cinco.core.engine.events import (
    SPECTATOR,
    ActionTaken,
    CardDrawn,
    CardPlayed,
    DeckShuffled,
    Event,
    GameEnded,
    GameStarted,
    HandDiscarded,
    Notice,
    TurnEnded,
    Undone,
    Viewer,
)
from cinco.core.host.registry import Registry, default_registry
from cinco.core.table.log import Standing
from cinco.core.table.protocol import Envelope, Message
from cinco.core.words.i18n import N_, _, ngettext
from cinco.core.words.messages import end_reason
from cinco.frontends.board_view import team_name

if TYPE_CHECKING:
    from cinco.core.table.handle import SeatHandle


@dataclass(frozen=True)
class LogLine:
    """One line of the move log; ``seat`` is who moved (``None``: the game itself)."""

    text: str
    seat: int | None = None


def seat_name(config: GameConfig, seat: int) -> str:
    return config.seats[seat].name


def join_names(names: list[str]) -> str:
    """``Ann``, ``Ann and Cid``, ``Ann, Cid and Eve``."""
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


_NUMBER_WORDS = {
    2: N_("two"),
    3: N_("three"),
    4: N_("four"),
    5: N_("five"),
    6: N_("six"),
    7: N_("seven"),
    8: N_("eight"),
    9: N_("nine"),
    10: N_("ten"),
}


def number_word(n: int) -> str:
    """*n* in words up to ten (``five``), else in digits: for the rules' numbers in texts."""
    return _(_NUMBER_WORDS[n]) if n in _NUMBER_WORDS else str(n)


def variant_label(name: str, registry: Registry | None = None) -> str:
    """A variant's name as players read it (``joker`` → Czech ``Žolík``): its title in its
    plugin's words; a variant that is not installed (a record's) by its name.

    >>> variant_label("joker"), variant_label("not_installed")
    ('Joker', 'not_installed')
    """
    variant = (registry or default_registry()).variants().get(name)
    return variant.label if variant is not None else name


def variant_labels(names: Sequence[str], registry: Registry | None = None) -> str:
    """``Joker, Lucky seven``: the variants of a game, for a line that lists them."""
    return ", ".join(variant_label(name, registry) for name in names)


def team_label(config: GameConfig, team: int) -> str:
    """``blue (Ann and Cid)``."""
    names = join_names([seat_name(config, seat) for seat in config.seats_of(team)])
    return _("{colour} ({names})").format(colour=team_name(team), names=names)


def describe_result(config: GameConfig, result: GameEnded) -> str:
    """How the game ended, in a sentence (and the scores, when the game has them)."""
    text = _describe_result(config, result)
    if result.scores is not None:
        scores = ", ".join(
            _("{colour} {score}").format(colour=team_name(team), score=n)
            for team, n in enumerate(result.scores)
        )
        text += " " + _("Scores: {scores}.").format(scores=scores)
    return text


def _describe_result(config: GameConfig, result: GameEnded) -> str:
    if result.winner is not None:
        members = [seat_name(config, seat) for seat in config.seats_of(result.winner)]
        line = "-".join(map(str, result.line or ()))
        names, n = join_names(members), len(members)
        if line:
            return ngettext(
                "{names} wins with the line {line}!", "{names} win with the line {line}!", n
            ).format(names=names, line=line)
        if result.reason not in STANDARD_WINS:  # a variant's own way to win: its words
            return ngettext("{names} wins: {why}!", "{names} win: {why}!", n).format(
                names=names, why=end_reason(result.reason)
            )
        return ngettext("{names} wins!", "{names} win!", n).format(names=names)
    reasons = {
        "stalemate": _("a team placed its last token without making a line (E2)"),
        "board_full": _("the board is full (E3)"),
        "turn_limit": _("the turn limit was reached (E4)"),
    }
    # A variant's own reason in the words it declared (Variant.end_reasons), else its code.
    why = reasons.get(result.reason) or end_reason(result.reason)
    return _("A draw: {why}.").format(why=why)


#: The reasons of the standard game's wins, told without a reason of their own.
STANDARD_WINS = frozenset({"line", "win", ""})


class Narrator:
    """Turns one viewer's event stream into lines of words.

    ``in_setup`` is true when the stream starts at the beginning of the game, so the deal is
    summed up in one line rather than told card by card.
    """

    def __init__(self, config: GameConfig, viewer: Viewer, *, in_setup: bool = True) -> None:
        self.config = config
        self.viewer = viewer
        self.lines: list[LogLine] = []
        self._deal_left = config.params.deal * config.players if in_setup else 0
        self._first_seat: int | None = None
        self._turn: list[Event] = []
        #: Who plays whose turns (zombie mode): a stand-in's moves are told as its own.
        self._standing = Standing()

    def _name(self, seat: int) -> str:
        return _("You") if seat == self.viewer else seat_name(self.config, seat)

    def _stand_in_name(self, seat: int, bot: str) -> str:
        """Who played *seat*'s turn when *bot* played it for the person there."""
        if seat == self.viewer:
            return _("Your stand-in ({bot})").format(bot=bot)
        return _("{name}'s stand-in ({bot})").format(name=seat_name(self.config, seat), bot=bot)

    def _say(self, text: str, seat: int | None = None) -> None:
        self.lines.append(LogLine(text, seat))

    @classmethod
    def following(cls, handle: SeatHandle, config: GameConfig, viewer: Viewer) -> Narrator:
        """A narrator for *viewer* told *handle*'s stream: the events it holds now, then each
        one as the stream brings it (a frontend's move log, per person and spectator)."""
        narrator = cls(config, viewer)
        for envelope in handle.events():  # what arrived before anyone listened
            narrator.feed(envelope.event)
        handle.listen(narrator.hear)
        return narrator

    def hear(self, message: Message) -> None:
        """A stream's listener: take in the event of an envelope (other messages say no
        move)."""
        if isinstance(message, Envelope):
            self.feed(message.event)

    def feed(self, event: Event) -> None:
        """Take in the next event (as this viewer sees it)."""
        if isinstance(event, GameStarted):
            self._first_seat = event.first_seat
            return
        if self._deal_left:
            if isinstance(event, CardDrawn):
                self._deal_left -= 1
                if not self._deal_left and self._first_seat is not None:
                    deal = self.config.params.deal
                    self._say(
                        ngettext(
                            "One card each was dealt; {name} begins.",
                            "{count} cards each were dealt; {name} begins.",
                            deal,
                        ).format(
                            count=number_word(deal).capitalize(),
                            name=seat_name(self.config, self._first_seat),
                        )
                    )
            return
        if isinstance(event, DeckShuffled):
            if event.reshuffle:
                self._say(_("The discard pile was shuffled into a new draw pile (A6)."))
            return
        if isinstance(event, Notice):
            self._standing.take(event)
            if event.code == "undone" and event.seat == self.viewer:
                self._say(_("You took back your last move."), event.seat)
            else:
                self._say(event.text, event.seat)
            return
        if isinstance(event, Undone):
            self._turn = []  # the "undone" notice that follows says who took what back
            return
        if isinstance(event, TurnEnded | GameEnded):
            self._say(self._turn_text(event.seat), event.seat)
            self._standing.turn_ended(event.seat)
            self._turn = []
            if isinstance(event, GameEnded):
                self._say(describe_result(self.config, event))
            return
        self._turn.append(event)

    def _turn_text(self, seat: int) -> str:
        bot = self._standing.bot_for(seat)
        # A stand-in's turn is told as its own, in the third person, to everyone.
        name = self._name(seat) if bot is None else self._stand_in_name(seat, bot)
        own = seat == self.viewer and bot is None
        played = [e for e in self._turn if isinstance(e, CardPlayed)]
        drawn = [e.card for e in self._turn if isinstance(e, CardDrawn)]
        taken = [e for e in self._turn if isinstance(e, ActionTaken)]
        if taken:  # a variant's own action (hook API 3), in the words it declares
            return tell_action(name, taken[0].action, taken[0].values)
        if played:
            return self._play_text(played[0], name, own=own, stand_in=bot is not None)
        known = [card for card in drawn if card]
        if any(isinstance(e, HandDiscarded) for e in self._turn):
            cards = ", ".join(map(str, sorted(known)))
            if own:
                if known:
                    return _("You exchanged your hand and got {cards}").format(cards=cards)
                return _("You exchanged your hand")
            if known:  # the referee (a replay) sees every card
                return _("{name} exchanged their hand and got {cards}").format(
                    name=name, cards=cards
                )
            return _("{name} exchanged their hand").format(name=name)
        if known:
            if own:
                return _("You drew {card}").format(card=known[0])
            return _("{name} drew {card}").format(name=name, card=known[0])
        if own:
            return _("You drew a card")
        return _("{name} drew a card").format(name=name)

    @staticmethod
    def _play_text(play: CardPlayed, name: str, *, own: bool, stand_in: bool) -> str:
        if play.space is None:
            if stand_in:
                return _("{name} burned {card}").format(name=name, card=play.card)
            if own:
                return _("Your {card} burned").format(card=play.card)
            return _("{name}'s {card} burned").format(name=name, card=play.card)
        if own:  # its own msgid: "you" takes another verb form in most languages
            return _("You played {card} and placed on {space}").format(
                card=play.card, space=play.space
            )
        return _("{name} played {card} and placed on {space}").format(
            name=name, card=play.card, space=play.space
        )


def narrate(config: GameConfig, events: list[Event], viewer: Viewer = SPECTATOR) -> Narrator:
    """A narrator that has heard *events* (a whole log from its start)."""
    narrator = Narrator(config, viewer)
    for event in events:
        narrator.feed(event)
    return narrator
