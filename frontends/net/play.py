"""The network clients: a person in this terminal, a bot in this process, a spectator.

Each takes a seat (or watches) through :class:`~cinco.frontends.net.client.Session`, folds the
stream the server sends, and acts only when the server prompts it. The terminal client draws
the table with the local game's pieces (:func:`cinco.frontends.terminal.table.render`, the
narrator); it reads a line per move.
"""

from __future__ import annotations

import contextlib
import random
import secrets
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from cinco.core.engine.commands import Command, Draw, Exchange, PlayCard
from cinco.core.engine.events import SPECTATOR, Viewer
from cinco.core.engine.oracle import RulesOracle
from cinco.core.host.registry import Bot, BotContext, Registry, default_registry
from cinco.core.table.protocol import Envelope, Hint, Hinted, Message, Refused, Submit, Undo
from cinco.core.words.i18n import N_, _
from cinco.core.words.messages import render as render_message
from cinco.frontends.narration import Narrator, describe_result

from .client import Lobby, NetError, RemoteView, Session
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
        whole = int(left + 0.999) if left > 0 else 0
        text = f"{seats[seat].name} {whole // 60}:{whole % 60:02d}"
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


# -- a spectator -----------------------------------------------------------------------------


def watch(lobby: Lobby, code: str, *, out: Callable[[str], None] = print) -> int:
    """Watch the table with watch code *code*, printing each move, until the game ends."""
    session = Session(lobby, watch=code)
    session.connect()
    narrator: Narrator | None = None
    told = 0
    try:
        while not session.view.over:
            message = session.receive(timeout=1.0)
            if not isinstance(message, Envelope):
                continue
            state = session.view.state
            assert state is not None
            if narrator is None:
                narrator = Narrator(state.config, SPECTATOR)
            narrator.feed(message.event)
            for line in narrator.lines[told:]:
                out(line.text)
            told = len(narrator.lines)
        state = session.view.state
        if state is not None and state.result is not None:
            out(describe_result(state.config, state.result))
        return 0
    finally:
        session.close()


# -- a person in this terminal ---------------------------------------------------------------


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
    from cinco.frontends.terminal import parsing
    from cinco.frontends.terminal.app import describe_command
    from cinco.frontends.terminal.screen import QuitGame, Screen
    from cinco.frontends.terminal.table import TableView, render

    screen = Screen()
    who = who_of(name)
    session = join_seat(lobby, code, name, book, who=who, wait=wait, say=screen.say)
    seat: int = seated(session)
    narrator: Narrator | None = None

    def feed(message: Message) -> None:
        nonlocal narrator
        if not isinstance(message, Envelope):
            return
        state = session.view.state
        assert state is not None
        if narrator is None:
            narrator = Narrator(state.config, seat)
        narrator.feed(message.event)

    session.listeners.append(feed)

    drawn = -2  # the event the table was last drawn at (-2: draw it again)

    def reconnecting() -> None:
        nonlocal drawn
        screen.say(_("Reconnecting…"))
        drawn = -2  # the table is drawn again once the connection is back

    session.on_reconnect = reconnecting

    def draw(message: str = "", keys: bool = False, highlight: tuple[int, ...] = ()) -> None:
        state = session.view.state
        if state is None:
            screen.say(_("Waiting for the other players to join…"))
            return
        legal = session.view.legal()
        viewer: Viewer = seat
        view = TableView(
            state=state,
            viewer=viewer,
            log=narrator.lines if narrator is not None else (),
            message=message,
            highlight=highlight,
            plays=dict(legal.plays) if legal is not None else None,
            show_log=screen.interactive,
            show_keys=keys,
            # the keys offer only what the server's prompt allows (a full hand cannot draw)
            can_draw=legal is not None and legal.can_draw,
            can_exchange=legal is not None and legal.can_exchange,
            quit_key=_("q leave (you can rejoin)"),
            clocks=clock_line(session.view),
        )
        screen.clear()
        screen.show(
            render(
                view,
                screen.style(),
            )
        )

    def command_for(intent: object) -> Command | str | None:
        """A command, or words to show, or ``None`` for nothing to do."""
        legal = session.view.legal()
        state = session.view.state
        assert legal is not None and state is not None
        if isinstance(intent, parsing.Draw):
            return Draw(seat)
        if isinstance(intent, parsing.Exchange):
            return Exchange(seat)
        if isinstance(intent, parsing.Play):
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
        if isinstance(intent, parsing.Show):
            if intent.card not in state.hand(seat):
                return _("You have no {card}.").format(card=intent.card)
            return _("Your {card} may go on: {spaces}").format(
                card=intent.card,
                spaces=" ".join(map(str, legal.spaces_for(intent.card))) or _("(burns)"),
            )
        return _("Type a card (34), a card and a space (34 36), d, x, u, h, or q.")

    message = ""
    clocks = ""
    suggestion: Command | None = None
    leaving = False
    try:
        while True:
            while not session.view.over:
                session.receive(timeout=0.3)
                while session.receive(timeout=0.05) is not None:
                    pass
                legal = session.view.legal()
                if legal is None:
                    if session.view.seq != drawn:
                        draw(message)
                        drawn, clocks = session.view.seq, clock_line(session.view)
                    elif (now := clock_line(session.view)) != clocks:  # a clock runs
                        clocks = now
                        screen.rewrite_line_above(clocks)
                    continue
                draw(message, keys=True)
                message = ""
                live = partial(clock_line, session.view) if session.view.clock else None
                intent = parsing.parse(screen.ask(_("Your move: "), live=live))
                if isinstance(intent, parsing.Quit):
                    raise QuitGame
                if isinstance(intent, parsing.Undo):
                    answer = session.request(Undo())
                    message = refusal_text(answer) if isinstance(answer, Refused) else ""
                    continue
                if isinstance(intent, parsing.Hint):
                    hinted = session.request(Hint())
                    if isinstance(hinted, Hinted):
                        suggestion = hinted.command
                        message = _("Hint ({bot}): {move} — {reason}. Enter plays it.").format(
                            bot=hinted.bot,
                            move=describe_command(hinted.command),
                            reason=hinted.reason or "",
                        )
                    elif isinstance(hinted, Refused):
                        message = refusal_text(hinted)
                    continue
                if isinstance(intent, parsing.Empty) and suggestion is not None:
                    chosen: Command | str | None = suggestion
                else:
                    chosen = command_for(intent)
                suggestion = None
                if isinstance(chosen, str):
                    message = chosen
                    continue
                if chosen is None:
                    continue
                answer = session.request(Submit(chosen))
                if isinstance(answer, Refused):
                    message = refusal_text(answer)
                drawn = -2
            state = session.view.state
            assert state is not None and state.result is not None
            draw(describe_result(state.config, state.result))
            try:
                rematch = offer_rematch(lobby, session, screen.ask, book, who=who)
            except QuitGame:
                rematch = None
            if rematch is None:
                return 0
            session.close()
            session, seat, narrator = rematch, seated(rematch), None
            session.listeners.append(feed)
            session.on_reconnect = reconnecting
            message, drawn, suggestion = "", -2, None
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
        give_up(lobby, session, book, leave=leaving, who=who)
