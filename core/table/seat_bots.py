"""Bots the table runs in a person's place, each seeing only that seat's view: a stand-in
that plays for a person who is away or out of time (zombie mode: :func:`stand_in`,
:func:`play_for`, :func:`move_for`), and the bot that answers a person's :func:`hint`. Each is
carried out over the :class:`~cinco.core.table.referee.Referee`, in the table's thread."""

from __future__ import annotations

import random
import secrets
from typing import TYPE_CHECKING

from cinco.core.engine.commands import Command
from cinco.core.engine.errors import CincoError, IllegalCommand
from cinco.core.engine.faults import user_interrupt
from cinco.core.engine.oracle import RulesOracle
from cinco.core.host.declarations import BotContext
from cinco.core.table.log import PLAYED_FOR, STAND_IN, STAND_IN_ENDED
from cinco.core.table.protocol import (
    MAX_HINT_SECONDS,
    Accepted,
    Hint,
    Hinted,
    Refused,
    printable,
)
from cinco.core.words.messages import freeze

if TYPE_CHECKING:
    from cinco.core.table.channel import ViewerStream
    from cinco.core.table.referee import Referee

__all__ = ["hint", "move_for", "play_for", "stand_in"]


def _person(referee: Referee, seat: object) -> int | Refused:
    """*seat*, if a person sits there; else why a bot may not play for it."""
    seats = referee.game.config.seats
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats):
        return Refused("wrong_seat", freeze({"seat": -1, "other": printable(seat)}))
    if seats[seat].is_bot:
        return Refused("not_seated")
    return seat


def stand_in(referee: Referee, seat: int, bot: str | None, reason: str) -> Refused | Accepted:
    """Let *bot* (``NAME[:LEVEL]``) play the person's *seat* from now on, or (``None``)
    give the seat back to its person; a notice tells everyone."""
    person = _person(referee, seat)
    if isinstance(person, Refused):
        return person
    if referee.problem is not None:
        return referee.problem
    if referee.game.is_over or referee.stand_ins.get(person) == bot:
        return Accepted(-1)
    name = referee.game.config.seats[person].name
    if bot is None:
        del referee.stand_ins[person]
        referee.game.notice(STAND_IN_ENDED, {"name": name, "reason": reason}, seat=person)
    else:
        _bot_name(referee, bot)
        referee.stand_ins[person] = bot
        referee.game.notice(
            STAND_IN,
            {"name": name, "bot": bot.partition(":")[0], "reason": reason},
            seat=person,
        )
    referee.settle()
    return referee.answered()


def play_for(referee: Referee, seat: int, bot: str, reason: str) -> Refused | Accepted:
    """Let *bot* play this one turn for the person at *seat*, whose turn it is (their
    time ran out, say); a notice tells everyone first."""
    person = _person(referee, seat)
    if isinstance(person, Refused):
        return person
    if referee.problem is not None:
        return referee.problem
    state = referee.game.state
    if state.is_over or state.current_seat != person:
        return Refused("no_bot_to_move")
    _bot_name(referee, bot)
    name = referee.game.config.seats[person].name
    referee.game.notice(
        PLAYED_FOR, {"name": name, "bot": bot.partition(":")[0], "reason": reason}, seat=person
    )
    return move_for(referee, person, bot)


def _bot_name(referee: Referee, spec: str) -> str:
    """The bot's name in *spec* (``NAME[:LEVEL]``); raises ``CincoError`` if none such is
    installed."""
    name = spec.partition(":")[0]
    if name not in referee.game.registry.bots():
        raise CincoError(f"no bot {name!r} is installed")
    return name


def move_for(referee: Referee, seat: int, spec: str) -> Refused | Accepted:
    """One turn for the person at *seat* (to move), chosen by bot *spec* from the seat's
    view only; a bot that fails or cheats loses the move to a random legal one."""
    name, _colon, level = spec.partition(":")
    legal = referee.game.legal_actions(seat)
    chooser = random.Random(secrets.randbits(32))
    command: Command | None = None
    try:
        bot = referee.stand_in_bots.get((seat, spec))
        if bot is None:
            view = referee.game.view(seat)
            context = BotContext(
                seat=seat,
                config=view.config,  # as the seat sees it: no seed
                rules=RulesOracle.of(referee.game.rules),
                level=level or None,
                seed=secrets.randbelow(2**31),
                time_budget=referee.game.bot_time_budget,
            )
            bot = referee.game.registry.create_bot(context, name)
            referee.stand_in_bots[(seat, spec)] = bot
        answer = bot.choose(referee.game.view(seat), legal)
        command = next((c for c in legal if type(c) is type(answer) and c == answer), None)
    except BaseException:  # a stand-in that fails must not stop the game (SystemExit...)
        command = None
    if command is None:
        command = legal[chooser.randrange(len(legal))]
    try:
        referee.game.execute(command)
    except IllegalCommand as exc:
        return Refused.of(exc)
    finally:
        referee.settle()
    return referee.answered()


def hint(referee: Referee, stream: ViewerStream, request: Hint) -> Hinted | Refused:
    """Ask a bot what it would play in the seat's place, from the seat's view only."""
    seat = stream.viewer
    if not isinstance(seat, int):
        return Refused("not_seated")
    state = referee.game.state
    if state.is_over or state.current_seat != seat:
        return Refused("no_hint_now")
    installed = referee.game.registry.bots()
    name = next((bot for bot in request.bots if bot in installed), None)
    if name is None:
        return Refused("no_hint_bot", freeze({"bots": ", ".join(request.bots)}))
    seconds = request.seconds
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not 0 < seconds <= MAX_HINT_SECONDS
    ):
        # A local handle's Hint skips the protocol's schema: the same bound, whatever
        # it asks (a NaN would never end the search).
        problem = f"hint: seconds must be more than 0 and at most {MAX_HINT_SECONDS:g}"
        return Refused("malformed_command", freeze({"problem": problem}))
    view = referee.game.view(seat)
    context = BotContext(
        seat=seat,
        config=view.config,
        rules=RulesOracle.of(referee.game.rules),
        seed=secrets.randbelow(2**31),
        time_budget=float(seconds),
    )
    legal = referee.game.legal_actions(seat)
    try:
        # The table answers nobody else meanwhile: the bot thinks until the deadline at
        # most, or until the hint is called off (TableChannel.call_off).
        stream_id = referee.stream_id(stream)
        with referee.hints.running(stream_id, float(seconds)) as limit:
            bot = referee.game.registry.create_bot(context, name)
            command = bot.choose(view, legal)
            if limit.stop.is_set():  # the seat left, or the table closes: nobody waits
                return Refused("no_hint_bot", freeze({"bots": f"{name} (called off)"}))
        explain = getattr(bot, "explain", None)
        reason = explain(view, command) if callable(explain) else None
    except BaseException as exc:  # a broken bot must not cost the player the game
        if user_interrupt(exc):
            raise
        return Refused("no_hint_bot", freeze({"bots": f"{name} ({type(exc).__name__})"}))
    if command not in legal:  # nor mislead the player
        return Refused("no_hint_bot", freeze({"bots": name}))
    return Hinted(command, name, str(reason) if reason else None)
