"""The terminal game loop: setup, turns of people and bots, hot-seat privacy, the end.

:func:`play` is what ``cinco`` (``--frontend cli``) runs. The loop holds no rules: it asks the
game what is legal, sends commands, and shows the engine's reason when one is refused.
"""

from __future__ import annotations

import os
import time
from collections.abc import Collection, Mapping

from cinco.core.commands import Command, Draw, Exchange, PlayCard
from cinco.core.errors import IllegalCommand
from cinco.core.events import SPECTATOR, Viewer
from cinco.core.game import Game
from cinco.core.i18n import _
from cinco.core.registry import default_registry
from cinco.frontends.options import PlayOptions
from cinco.frontends.terminal import parsing
from cinco.frontends.terminal.help import help_text
from cinco.frontends.terminal.hint import hint
from cinco.frontends.terminal.screen import QuitGame, Screen
from cinco.frontends.terminal.session import Session
from cinco.frontends.terminal.setup import ask_setup
from cinco.frontends.terminal.table import Style, TableView, render
from cinco.frontends.narration import describe_result


def play(options: PlayOptions) -> None:
    """Play a game in this terminal, as *options* say (asking when they say nothing)."""
    screen = Screen()
    registry = default_registry()
    warnings: list[str] = []
    try:
        if options.resume is not None:
            session, warnings = Session.resume(registry, options.resume, options.record)
        else:
            if options.is_default:
                options = ask_setup(screen, registry, options)
            session = Session.start(registry, options)
    except (QuitGame, KeyboardInterrupt):
        screen.say(_("No game was started."))
        return
    if options.resume is not None:
        warnings.insert(0, _("Resumed from {path}.").format(path=options.resume))
    TerminalGame(screen, session, delay=options.delay, warnings=warnings).run()


def describe_command(game: Game, command: Command) -> str:
    """A command in the words a player would type it: ``34 36``, ``d``, ``x``."""
    if isinstance(command, PlayCard):
        if command.space is None:
            return _("burn {card}").format(card=command.card)
        return _("play {card} on {space}").format(card=command.card, space=command.space)
    if isinstance(command, Draw):
        return _("draw (d)")
    return _("exchange your hand (x)")


def command_keys(command: Command) -> str:
    if isinstance(command, PlayCard):
        return f"{command.card} {command.space}" if command.space else str(command.card)
    return "d" if isinstance(command, Draw) else "x"


class TerminalGame:
    """One game on one screen."""

    def __init__(
        self, screen: Screen, session: Session, *, delay: float, warnings: Collection[str] = ()
    ) -> None:
        self.screen = screen
        self.session = session
        self.delay = delay
        humans = session.humans
        #: Whose view is on screen. With several people nobody's, until the first one's turn.
        self.owner: Viewer = humans[0] if len(humans) == 1 else SPECTATOR
        self.notice = " ".join(warnings)
        #: Plain text: how many of each viewer's log lines have been printed already.
        self.printed: dict[Viewer, int] = {}

    @property
    def game(self) -> Game:
        return self.session.game

    # -- the loop ----------------------------------------------------------------------------

    def run(self) -> None:
        try:
            while True:
                while not self.game.is_over:
                    seat = self.game.state.current_seat
                    if self.game.config.seats[seat].is_bot:
                        self.bot_turn(seat)
                    else:
                        self.human_turn(seat)
                self.finish()
                if not self.take_back_after_the_end():
                    return
        except QuitGame:
            self.session.close()
            self.saved_message()
            return
        except KeyboardInterrupt:
            self.session.close()
            self.screen.console.print()
            self.saved_message()
            raise SystemExit(130) from None
        except Exception as exc:
            # A bug must not cost the player the game: the record is complete up to the last
            # move, so say where it is. CINCO_DEBUG=1 shows the traceback instead.
            self.session.close()
            if os.environ.get("CINCO_DEBUG"):
                raise
            self.screen.say(
                _("Something went wrong ({error}). Please report it.").format(
                    error=f"{type(exc).__name__}: {exc}"
                ),
                "bold red",
            )
            self.saved_message()
            raise SystemExit(1) from None

    def saved_message(self) -> None:
        path = self.session.path
        if self.game.is_over:
            self.screen.say(_("The game is recorded in {path}").format(path=path))
            return
        self.screen.say(_("Game saved in {path}").format(path=path), "bold")
        self.screen.say(_("Continue it with: cinco --resume {path}").format(path=path))

    def finish(self) -> None:
        humans = self.session.humans
        viewer: Viewer = humans[0] if len(humans) == 1 else SPECTATOR
        assert self.game.state.result is not None
        self.flush_log(viewer)

        result = describe_result(self.game.config, self.game.state.result)
        self.draw(viewer, message=result)
        path = self.session.path
        self.screen.say(_("The game is recorded in {path}").format(path=path))
        self.screen.say(_("Replay it with: cinco replay {path}").format(path=path))

    def take_back_after_the_end(self) -> bool:
        """In a game of one person against bots, offer to take their last move back once the
        game is over, as ``u`` does during it. Returns whether they did."""
        humans = self.session.humans
        if len(humans) != 1:
            return False
        seat = humans[0]
        target = self.session.undo_target(seat)
        if isinstance(target, str):
            return False
        try:
            answer = self.screen.ask(_("u takes your last move back, Enter leaves: "))
        except QuitGame:  # the end of input: leave
            return False
        if not isinstance(parsing.parse(answer), parsing.Undo):
            return False
        self.undo(target)
        return True

    def undo(self, target: int) -> None:
        self.session.rewind(target)
        self.printed = {v: len(n.lines) for v, n in self.session.narrators.items()}
        self.notice = _("Undone: it is your turn again.")

    # -- drawing -----------------------------------------------------------------------------

    def style(self) -> Style:
        screen = self.screen
        return Style(
            color=screen.color,
            ascii_only=screen.ascii_only,
            width=screen.width,
            height=screen.height,
        )

    def draw(
        self,
        viewer: Viewer,
        *,
        message: str = "",
        highlight: Collection[int] = (),
        keys: bool = False,
        plays: Mapping[int, tuple[int, ...]] | None = None,
    ) -> None:
        """Draw the table as *viewer* sees it (the whole screen, in a terminal)."""
        narrator = self.session.narrators.get(viewer, self.session.narrators[SPECTATOR])
        view = TableView(
            state=self.game.view(viewer),
            viewer=viewer,
            log=narrator.lines,
            highlight=highlight,
            message=message,
            plays=plays,
            show_log=self.screen.interactive,
            show_keys=keys,
        )
        self.screen.clear()
        self.screen.show(render(view, self.style()))

    def flush_log(self, viewer: Viewer) -> None:
        """Plain text: print the log lines *viewer* has not seen printed yet."""
        if self.screen.interactive:
            return
        narrator = self.session.narrators.get(viewer, self.session.narrators[SPECTATOR])
        for entry in narrator.lines[self.printed.get(viewer, 0) :]:
            self.screen.say("  " + entry.text)
        self.printed[viewer] = len(narrator.lines)

    # -- bots --------------------------------------------------------------------------------

    def bot_turn(self, seat: int) -> None:
        name = self.game.config.seats[seat].name
        started = time.monotonic()
        if self.screen.interactive:
            self.draw(self.owner)
            with self.screen.console.status(_("{name} is thinking…").format(name=name)):
                self.game.play_bot_turn()
                time.sleep(max(0.0, self.delay - (time.monotonic() - started)))
        else:
            self.game.play_bot_turn()
            time.sleep(max(0.0, self.delay - (time.monotonic() - started)))
            self.flush_log(self.owner)

    # -- people ------------------------------------------------------------------------------

    def pass_to(self, seat: int) -> None:
        """Hot-seat: hide the last player's hand and wait for the next player."""
        name = self.game.config.seats[seat].name
        self.screen.clear(private=True)
        text = _("Pass to {name} — press Enter").format(name=name)
        if self.screen.interactive:
            from rich.align import Align
            from rich.panel import Panel
            from rich.text import Text

            body = Text(text, style="bold" if self.screen.color else "", justify="center")
            body.append(
                "\n" + _("(only {name} should look at the screen now)").format(name=name),
                style="dim" if self.screen.color else "",
            )
            self.screen.show("\n" * max(0, self.screen.height // 2 - 3))
            self.screen.show(Align.center(Panel(body, expand=False, padding=(1, 4))))
        else:
            self.screen.say("=" * 40)
            self.screen.say(text)
        self.screen.ask("")
        self.screen.clear(private=True)

    def human_turn(self, seat: int) -> None:
        if len(self.session.humans) > 1 and self.owner != seat:
            self.pass_to(seat)
        self.owner = seat
        self.flush_log(seat)
        message, self.notice = self.notice, ""
        highlight: Collection[int] = ()
        suggestion: Command | None = None
        first = True
        name = self.game.config.seats[seat].name
        while True:
            legal = self.game.legal_actions(seat)
            if self.screen.interactive or first or highlight:
                self.draw(
                    seat, message=message, highlight=highlight, keys=True, plays=dict(legal.plays)
                )
            elif message:
                self.screen.say(message, "bold yellow")
            first = False
            intent = parsing.parse(self.screen.ask(_("{name}, your move: ").format(name=name)))
            message, highlight = "", ()
            if isinstance(intent, parsing.Quit):
                raise QuitGame
            if isinstance(intent, parsing.Help):
                self.show_help()
                continue
            if isinstance(intent, parsing.Show):
                message, highlight = self.show_card(seat, intent.card)
                continue
            if isinstance(intent, parsing.Hint):
                message, highlight, suggestion = self.hint(seat)
                continue
            if isinstance(intent, parsing.Undo):
                target = self.session.undo_target(seat)
                if isinstance(target, str):
                    message = target
                    continue
                self.undo(target)
                return
            command: Command | None = None
            if isinstance(intent, parsing.Empty):
                if suggestion is None:
                    message = _("Type a move, for example a card number; ? shows all commands.")
                    continue
                command = suggestion
            elif isinstance(intent, parsing.Draw):
                command = Draw(seat)
            elif isinstance(intent, parsing.Exchange):
                command = Exchange(seat)
            elif isinstance(intent, parsing.Play):
                command, message, highlight = self.choose_play(seat, intent)
                if command is None:
                    continue
            else:
                assert isinstance(intent, parsing.Unknown)
                message = _(
                    "“{text}” is not a move. Type a card (34), a card and a space "
                    "(34 36), d, x, u, h, or ? for help."
                ).format(text=intent.text)
                continue
            suggestion = None
            try:
                self.game.execute(command)
            except IllegalCommand as exc:
                message = exc.message
                continue
            self.flush_log(seat)
            return

    def choose_play(
        self, seat: int, intent: parsing.Play
    ) -> tuple[Command | None, str, Collection[int]]:
        """Turn ``34`` or ``34 36`` into a command, asking where or whether to burn when
        needed. Returns the command (``None``: nothing to do), a message and highlights."""
        card = intent.card
        if intent.space is not None:
            return PlayCard(seat, card, intent.space), "", ()
        hand = self.game.view(seat).hand(seat)
        if card not in hand:
            return PlayCard(seat, card, card), "", ()  # the engine says what is wrong
        spaces = self.game.legal_actions(seat).spaces_for(card)
        if not spaces:
            answer = self.screen.ask(
                _(
                    "No free space takes your {card}: it burns, and no token is placed. "
                    "Burn it? [y/N] "
                ).format(card=card)
            )
            if answer.strip().lower() in ("y", "yes"):
                return PlayCard(seat, card, None), "", ()
            return None, _("Kept your {card}.").format(card=card), ()
        if card in spaces:
            return PlayCard(seat, card, card), "", ()
        return self.ask_space(seat, card, spaces)

    def ask_space(
        self, seat: int, card: int, spaces: tuple[int, ...]
    ) -> tuple[Command | None, str, Collection[int]]:
        """Space *card* is taken: show where the card may go and ask."""
        message = _(
            "{card} is taken. Where should your {card} go? The marked spaces are "
            "free (from {low}). Enter cancels."
        ).format(card=card, low=spaces[0])
        while True:
            legal = self.game.legal_actions(seat)
            self.draw(seat, message=message, highlight=spaces, plays=dict(legal.plays))
            answer = parsing.parse_space(self.screen.ask(_("Space for {card}: ").format(card=card)))
            if answer is None:
                return None, "", ()
            if isinstance(answer, str):
                message = _("“{text}” is not a space number.").format(text=answer)
                continue
            return PlayCard(seat, card, answer), "", ()

    def show_card(self, seat: int, card: int) -> tuple[str, Collection[int]]:
        """``34?``: where the card may go, marked on the board."""
        if card not in self.game.view(seat).hand(seat):
            return _("You have no {card}.").format(card=card), ()
        spaces = self.game.legal_actions(seat).spaces_for(card)
        if not spaces:
            return _("No free space takes your {card}: played, it burns.").format(card=card), ()
        return _("Your {card} may go on the {n} marked spaces.").format(
            card=card, n=len(spaces)
        ), spaces

    def hint(self, seat: int) -> tuple[str, Collection[int], Command | None]:
        if self.screen.interactive:
            with self.screen.console.status(_("Looking for a good move…")):
                answer = hint(self.game, seat)
        else:
            answer = hint(self.game, seat)
        if answer is None:
            return _("No hint bot is installed."), (), None
        command = answer.command
        space = command.space if isinstance(command, PlayCard) else None
        message = _("Hint ({bot}): {move} — {reason}. Enter plays it ({keys}).").format(
            bot=answer.bot,
            move=describe_command(self.game, command),
            reason=answer.reason,
            keys=command_keys(command),
        )
        return message, ((space,) if space else ()), command

    def show_help(self) -> None:
        self.screen.clear()
        self.screen.say(help_text())
        if self.screen.interactive:
            self.screen.ask(_("Press Enter to go back to the game. "))
