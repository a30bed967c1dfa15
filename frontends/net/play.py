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

from cinco.core.commands import Command, Draw, Exchange, PlayCard
from cinco.core.events import SPECTATOR, Viewer
from cinco.core.i18n import _
from cinco.core.messages import render as render_message
from cinco.core.oracle import RulesOracle
from cinco.core.protocol import Envelope, Hint, Hinted, Message, Refused, Submit, Undo
from cinco.core.registry import Bot, BotContext, Registry, default_registry
from cinco.frontends.narration import Narrator, describe_result

from .client import Lobby, NetError, Session

#: Words for the server's own refusals (the rules' and the table's come from
#: :func:`cinco.core.messages.render`).
SERVER_WORDS = {
    "not_started": "The game has not started yet: some seats are still free.",
    "rate_limited": "Too many requests: slow down.",
    "connection_lost": "The connection to the server was lost; it is being made again.",
    "timeout": "The server did not answer in time.",
}


def refusal_text(answer: Refused) -> str:
    if answer.code in SERVER_WORDS:
        return _(SERVER_WORDS[answer.code])
    return render_message(answer.code, dict(answer.params))


def give_up(lobby: Lobby, session: Session) -> None:
    """Close the connection; before the game's end, leave the seat too (the token dies with
    this process, so the seat would stay taken by nobody): it is free for the invite code."""
    session.close()
    if session.view.over or session.table is None or session.token is None:
        return
    with contextlib.suppress(NetError):
        lobby.leave(session.table, session.token)


def join_seat(lobby: Lobby, code: str, name: str | None) -> Session:
    seat = lobby.join(code, name)
    session = Session(
        lobby, table=str(seat["table"]), token=str(seat["token"]), seat=int(seat["seat"])
    )
    session.connect()
    return session


# -- a bot -----------------------------------------------------------------------------------


def run_bot(
    lobby: Lobby,
    code: str,
    spec: str,
    *,
    name: str | None = None,
    registry: Registry | None = None,
    say: Callable[[str], None] = lambda text: None,
) -> int:
    """Take a seat with invite *code* and let bot *spec* (``NAME[:LEVEL]``) play it until the
    game ends. The bot sees only this seat's stream. Returns the exit status (0: the game
    ended)."""
    registry = registry or default_registry()
    bot_name, _colon, level = spec.partition(":")
    if bot_name not in registry.bots():
        raise NetError(
            _("Unknown bot {name!r}. Installed bots: {choices}.").format(
                name=bot_name, choices=", ".join(sorted(registry.bots()))
            )
        )
    session = join_seat(lobby, code, name or f"{bot_name.capitalize()}")
    seat = session.view.seat
    assert seat is not None
    fallback = random.Random(secrets.randbits(32))
    bot: Bot | None = None
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
                say(f"the bot failed ({type(exc).__name__}: {exc}); a random move instead")
                command = fallback.choice(list(legal))
            answer = session.request(Submit(command))
            if isinstance(answer, Refused) and answer.code == "rate_limited":
                time.sleep(0.5)
                continue
            if isinstance(answer, Refused) and answer.code not in ("connection_lost",):
                say(f"refused: {refusal_text(answer)}; a random move instead")
                session.request(Submit(fallback.choice(list(legal))))
        state = session.view.state
        if state is not None and state.result is not None:
            say(describe_result(state.config, state.result))
        return 0
    finally:
        give_up(lobby, session)


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


def play_in_terminal(lobby: Lobby, code: str, *, name: str | None = None) -> int:
    """Take a seat with invite *code* and play it in this terminal."""
    from cinco.frontends.terminal import parsing
    from cinco.frontends.terminal.app import describe_command
    from cinco.frontends.terminal.screen import QuitGame, Screen
    from cinco.frontends.terminal.table import TableView, render

    screen = Screen()
    session = join_seat(lobby, code, name)
    seat = session.view.seat
    assert seat is not None
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
    drawn = -2
    suggestion: Command | None = None
    try:
        while not session.view.over:
            session.receive(timeout=0.3)
            while session.receive(timeout=0.05) is not None:
                pass
            legal = session.view.legal()
            if legal is None:
                if session.view.seq != drawn:
                    draw(message)
                    drawn = session.view.seq
                continue
            draw(message, keys=True)
            message = ""
            intent = parsing.parse(screen.ask(_("Your move: ")))
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
        return 0
    except QuitGame:
        screen.say(_("You left the table: your seat is free, to be taken with the invite code."))
        return 0
    except KeyboardInterrupt:
        sys.stdout.write("\n")
        return 130
    finally:
        give_up(lobby, session)
