"""The network clients' common steps (taking a seat, patiently; the server's refusals in
words; the clock line; the rematch; leaving) and one of the clients: a bot in this process.
The person in this terminal is :mod:`.terminal_seat`'s, the spectator :mod:`.terminal_watch`'s.

Each takes a seat (or watches) through :class:`~cinco.frontends.net.client.Session`, folds the
stream the server sends, and acts only when the server prompts it.
"""

from __future__ import annotations

import contextlib
import random
import secrets
import time
from collections.abc import Callable
from typing import TypeVar

from cinco.core.engine.oracle import RulesOracle
from cinco.core.host.declarations import Bot, BotContext
from cinco.core.host.registry import Registry, default_registry
from cinco.core.table.protocol import Refused, Submit
from cinco.core.words.i18n import N_, _
from cinco.core.words.messages import render as render_message
from cinco.frontends.narration import describe_result

from .client import Lobby, NetError, RemoteView, Session
from .clock import clock_text
from .seats import SeatBook, who_of

T = TypeVar("T")

#: Words for the server's own refusals (the rules' and the table's come from
#: :func:`cinco.core.words.messages.render`).
SERVER_WORDS = {
    "not_started": N_("The game has not started yet: some seats are still free."),
    "rate_limited": N_("Too many requests: slow down."),
    "connection_lost": N_("The connection to the server was lost; it is being made again."),
    "timeout": N_("The server did not answer in time."),
}


def refusal_text(answer: Refused) -> str:
    if answer.code in SERVER_WORDS:
        return _(SERVER_WORDS[answer.code])
    return render_message(answer.code, dict(answer.params))


def give_up(
    lobby: Lobby,
    session: Session,
    book: SeatBook | None = None,
    *,
    leave: bool = True,
    who: str = "",
) -> None:
    """Close the connection. With *leave*, before the game's end, leave the seat too: its
    token is revoked and the seat is free for the invite code (a bot plays it meanwhile,
    after the table's grace). Without, the seat stays this person's (its token in *book*),
    to come back to with ``cinco join`` (zombie mode plays it meanwhile)."""
    session.close()
    if session.table is None or session.token is None:
        return
    if book is not None and leave and not session.view.over:
        book.forget(lobby.base, session.table, who=who)  # kept after the end: for a rematch
    if session.view.over or not leave:
        return
    with contextlib.suppress(NetError):
        lobby.leave(session.table, session.token)


#: How long ``cinco join`` waits for a server it cannot reach (seconds), and its pauses.
JOIN_WAIT = 120.0
JOIN_BACKOFF = (1.0, 2.0, 4.0, 8.0, 15.0)


def patiently(
    call: Callable[[], T],
    *,
    wait: float = JOIN_WAIT,
    say: Callable[[str], None] = lambda text: None,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """*call*, asked again with backoff while the server cannot be reached (nothing was sent
    to it, or it said it cannot serve now), saying so, for at most *wait* seconds."""
    deadline = time.monotonic() + wait
    attempt = 0
    while True:
        try:
            return call()
        except NetError as exc:
            left = deadline - time.monotonic()
            if not exc.unreachable:
                raise
            if left <= 0:
                raise NetError(
                    _(
                        "The server could not be reached for {seconds} s: is it running, and "
                        "is the address right? ({error})"
                    ).format(seconds=round(wait), error=exc)
                ) from None
            pause = min(JOIN_BACKOFF[min(attempt, len(JOIN_BACKOFF) - 1)], left)
            say(
                _("Server not reachable, trying again in {seconds} s…").format(
                    seconds=max(1, round(pause))
                )
            )
            sleep(pause)
            attempt += 1


def join_seat(
    lobby: Lobby,
    code: str,
    name: str | None,
    book: SeatBook | None = None,
    *,
    who: str = "",
    wait: float = JOIN_WAIT,
    say: Callable[[str], None] = lambda text: None,
) -> Session:
    """A seat at the table with invite *code*: the one *who* holds there (its token in
    *book*: the server rotates it), or a free one. While the server cannot be reached, it
    is asked again for up to *wait* seconds (see :func:`patiently`)."""
    seat: dict[str, object] | None = None
    held = book.find(lobby.base, code, who=who) if book is not None else None
    if book is not None and held is not None:
        table, token = str(held["table"]), str(held["token"])
        try:
            seat = patiently(lambda: lobby.rejoin(table, token), wait=wait, say=say)
        except NetError as exc:
            if exc.status in (401, 403, 404):  # revoked, or a server that forgot the table
                book.forget(lobby.base, table, who=who)
            else:
                raise
    if seat is None:
        try:
            seat = patiently(lambda: lobby.join(code, name), wait=wait, say=say)
        except NetError as exc:
            if exc.code == "name_taken":
                taken = NetError(
                    _(
                        "Someone at that table is called {name} already: choose another "
                        "name with --name."
                    ).format(name=name)
                )
                taken.status, taken.code = exc.status, exc.code
                raise taken from None
            raise
    if book is not None:
        book.remember(
            lobby.base,
            str(seat["table"]),
            int(str(seat["seat"])),
            str(seat["token"]),
            code,
            who=who,
        )
    session = Session(
        lobby, table=str(seat["table"]), token=str(seat["token"]), seat=int(str(seat["seat"]))
    )
    session.connect()
    return session


def seated(session: Session) -> int:
    seat = session.view.seat
    assert seat is not None, "a seat's session"
    return seat


def clock_line(view: RemoteView) -> str:
    """``Clocks: Ann 4:52 ◀ · Bob 5:00`` (the running one marked), or ``""`` without a timer."""
    remaining = view.remaining()
    if not remaining or view.state is None or view.clock is None:
        return ""
    seats = view.state.config.seats
    shown = []
    for seat, left in enumerate(remaining):
        if seat >= len(seats) or seats[seat].is_bot:
            continue
        text = f"{seats[seat].name} {clock_text(left)}"
        shown.append(text + (" ◀" if seat == view.clock.running else ""))
    return _("Clocks: {clocks}").format(clocks=" · ".join(shown)) if shown else ""


def offer_rematch(
    lobby: Lobby,
    session: Session,
    ask: Callable[[str], str],
    book: SeatBook | None,
    *,
    who: str = "",
) -> Session | None:
    """At the game's end: ask whether to play again; if so, the same seat at the table's
    rematch (made by whoever asks first), connected."""
    if session.table is None or session.token is None:
        return None
    answer = ask(_("Rematch? Type r and Enter to play again, Enter to leave: "))
    if answer.strip().lower() not in ("r", "y", _("r"), _("y")):
        return None
    seat = lobby.rematch(session.table, session.token)
    if book is not None:
        code = str(seat.get("code") or "")
        if code:
            book.remember(
                lobby.base, str(seat["table"]), int(seat["seat"]), str(seat["token"]), code, who=who
            )
    new = Session(lobby, table=str(seat["table"]), token=str(seat["token"]), seat=int(seat["seat"]))
    new.connect()
    return new


# -- a bot -----------------------------------------------------------------------------------


def run_bot(
    lobby: Lobby,
    code: str,
    spec: str,
    *,
    name: str | None = None,
    registry: Registry | None = None,
    say: Callable[[str], None] = lambda text: None,
    book: SeatBook | None = None,
    wait: float = JOIN_WAIT,
) -> int:
    """Take a seat with invite *code* and let bot *spec* (``NAME[:LEVEL]``) play it until the
    game ends. The bot sees only this seat's stream. Its token is kept in *book* like a
    person's: the same command run again after this process was killed takes the seat
    back. Returns the exit status (0: the game ended)."""
    registry = registry or default_registry()
    bot_name, _colon, level = spec.partition(":")
    if bot_name not in registry.bots():
        raise NetError(
            _("Unknown bot {name!r}. Installed bots: {choices}.").format(
                name=bot_name, choices=", ".join(sorted(registry.bots()))
            )
        )
    who = who_of(name, bot_name)
    session = _bot_seat(lobby, code, name, bot_name, book, who=who, wait=wait, say=say)
    seat = session.view.seat
    assert seat is not None
    fallback = random.Random(secrets.randbits(32))
    bot: Bot | None = None
    leave = True
    try:
        while not session.view.over:
            session.receive(timeout=1.0)
            view = session.view
            legal = view.legal()
            if legal is None or view.state is None:
                continue
            if bot is None:
                config = view.state.config  # as this seat sees it: no seed
                context = BotContext(
                    seat=seat,
                    config=config,
                    rules=RulesOracle.of(registry.rules_for(config)),
                    level=level or None,
                    seed=secrets.randbelow(2**31),  # nothing to do with the deck's seed
                )
                bot = registry.create_bot(context, bot_name)
            try:
                command = bot.choose(view.state, legal)
            except Exception as exc:  # a broken bot still plays a legal move
                say(
                    _("the bot failed ({error}); a random move instead").format(
                        error=f"{type(exc).__name__}: {exc}"
                    )
                )
                command = fallback.choice(list(legal))
            answer = session.request(Submit(command))
            if isinstance(answer, Refused) and answer.code == "rate_limited":
                time.sleep(0.5)
                continue
            if isinstance(answer, Refused) and answer.code not in ("connection_lost",):
                say(
                    _("refused: {reason}; a random move instead").format(
                        reason=refusal_text(answer)
                    )
                )
                session.request(Submit(fallback.choice(list(legal))))
        state = session.view.state
        if state is not None and state.result is not None:
            say(describe_result(state.config, state.result))
        if book is not None and session.table is not None:
            book.forget(lobby.base, session.table, who=who)  # a bot wants no rematch
        return 0
    except NetError:
        leave = False  # the server is away for long: the same command run again takes the seat
        raise
    finally:
        give_up(lobby, session, book, leave=leave, who=who)


def _bot_seat(
    lobby: Lobby,
    code: str,
    name: str | None,
    bot_name: str,
    book: SeatBook | None,
    *,
    who: str,
    wait: float,
    say: Callable[[str], None],
) -> Session:
    """A bot client's seat. Without ``--name`` it is called after the bot, numbered when
    that name is taken at the table (``Greedy``, ``Greedy 2``, ...): names are unique."""
    if name:
        return join_seat(lobby, code, name, book, who=who, wait=wait, say=say)
    base = bot_name.capitalize()
    for number in range(1, 10):
        called = base if number == 1 else f"{base} {number}"
        try:
            return join_seat(lobby, code, called, book, who=who, wait=wait, say=say)
        except NetError as exc:
            if exc.code != "name_taken":
                raise
    return join_seat(lobby, code, None, book, who=who, wait=wait, say=say)
