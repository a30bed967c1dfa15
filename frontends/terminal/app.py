"""The terminal game loop: setup, turns of people and bots, hot-seat privacy, the end.

:func:`play` is what ``cinco`` (``--frontend cli``) runs. The loop holds no rules and no game:
it opens a :class:`~cinco.core.table.table.Table`, takes a seat handle for every person at the
screen (and one for a spectator), draws only what a handle's view shows, tells the moves from
each handle's own stream, sends commands through the handle, and shows the table's reason
when one is refused.
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

from rich.align import Align
from rich.panel import Panel
from rich.text import Text

from cinco.core.engine.actions import known_action
from cinco.core.engine.commands import Act, Command, Draw, Exchange, PlayCard
from cinco.core.engine.errors import CincoError
from cinco.core.engine.events import SPECTATOR, Viewer
from cinco.core.engine.legal import LegalActions
from cinco.core.host.registry import Registry, default_registry
from cinco.core.records.saves import new_record_path
from cinco.core.table.handle import SeatHandle
from cinco.core.table.protocol import Accepted, Refused
from cinco.core.table.requests import TableStatus
from cinco.core.table.table import Table
from cinco.core.words.answers import is_yes, yes_no_hint
from cinco.core.words.i18n import _
from cinco.frontends.board_view import use_team_styles
from cinco.frontends.narration import describe_result
from cinco.frontends.options import PlayOptions, clean_name
from cinco.frontends.terminal import parsing
from cinco.frontends.terminal.help import show_help
from cinco.frontends.terminal.hint import HintAnswer, hint
from cinco.frontends.terminal.move_log import MoveLog
from cinco.frontends.terminal.screen import QuitGame, Screen
from cinco.frontends.terminal.setup import ask_setup
from cinco.frontends.terminal.table import Style, TableView, render

logger = logging.getLogger("cinco")

#: Plain text: empty lines printed before a hot-seat pass screen, to push the last player's
#: hand out of sight (a plain terminal cannot be cleared).
PLAIN_PASS_LINES = 60


def take_back_question() -> str:
    """Asked at the end of a game against bots (the end's screen leaves room for it)."""
    return _("u takes your last move back, Enter leaves: ")


def play(options: PlayOptions) -> None:
    """Play a game in this terminal, as *options* say (asking when they say nothing)."""
    screen = Screen()
    registry = default_registry()
    use_team_styles(registry.team_styles())  # a plugin's layout of 4 teams brings their look
    try:
        table, warnings = open_table(screen, registry, options)
    except (QuitGame, KeyboardInterrupt):
        screen.say(_("No game was started."))
        return
    TerminalGame(screen, table, delay=options.delay, warnings=warnings).run()


def open_table(screen: Screen, registry: Registry, options: PlayOptions) -> tuple[Table, list[str]]:
    """The table *options* ask for: a resumed record, or a new game recorded in a fresh file
    (its name says when it was started, never the seed). Returns it and things to tell."""
    source = options.resume
    if source is not None:
        target = options.record
        if target is None or target == source:
            table = Table.resume(source, registry=registry)
            return table, [_("Resumed from {path}.").format(path=source), *table.warnings]
        # Read the record, then go on in a new file: the old one stays as it was.
        table = Table.resume(source, registry=registry, record=False)
        try:
            saved = table.save_as(target)
        except BaseException:
            table.close()
            raise
        intro = _("Resumed from {source}; the game goes on in {path}.").format(
            source=source, path=saved
        )
        return table, [intro, *table.warnings]
    if options.is_default:
        options = ask_setup(screen, registry, options)
    config = options.config(registry)
    path = options.record or new_record_path()
    return Table.create(config, registry=registry, record=path, frontend="cli"), []


def describe_command(command: Command) -> str:
    """A command in the words a player would type it: ``34 36``, ``d``, ``x``."""
    if isinstance(command, PlayCard):
        if command.space is None:
            return _("burn {card}").format(card=command.card)
        return _("play {card} on {space}").format(card=command.card, space=command.space)
    if isinstance(command, Draw):
        return _("draw (d)")
    if isinstance(command, Act):  # a variant's own action (hook API 3)
        return f"{command.action} ({command_keys(command)})"
    return _("exchange your hand (x)")


def command_keys(command: Command) -> str:
    if isinstance(command, Act):
        spec = known_action(command.action)
        key = spec.key if spec is not None and spec.key else command.action
        return " ".join([key, *(str(value) for _name, value in command.values)])
    if isinstance(command, PlayCard):
        return f"{command.card} {command.space}" if command.space else str(command.card)
    return "d" if isinstance(command, Draw) else "x"


def hint_message(answer: HintAnswer) -> str:
    """``Hint (ismcts): play 34 on 36 — it blocks a line …. Enter plays it (34 36).``: a
    hint as shown here and by ``cinco join``."""
    return _("Hint ({bot}): {move} — {reason}. Enter plays it ({keys}).").format(
        bot=answer.bot,
        move=describe_command(answer.command),
        reason=answer.reason,
        keys=command_keys(answer.command),
    )


@dataclass
class _TurnPrompt:
    """What a person's turn shows next: a *message*, the spaces to *highlight*, the hint's
    move that Enter plays (*suggestion*), and whether the turn is being shown the *first*
    time."""

    message: str = ""
    highlight: Collection[int] = ()
    suggestion: Command | None = None
    first: bool = True


class BotFailed(CincoError):
    """The table could not play a bot's turn (the rules refused even its fallback move)."""


class TerminalGame:
    """One game on one screen: a table, a handle per person here, and a spectator's."""

    def __init__(
        self, screen: Screen, table: Table, *, delay: float, warnings: Collection[str] = ()
    ) -> None:
        self.screen = screen
        self.table = table
        self.config = table.config
        self.delay = delay
        self.humans = table.humans
        self.handles: dict[int, SeatHandle] = {seat: table.seat(seat) for seat in self.humans}
        self.spectator = table.spectator()
        #: One move log per person and one for the spectator, each told its handle's stream.
        self.logs: dict[Viewer, MoveLog] = {}
        for viewer, handle in [*self.handles.items(), (SPECTATOR, self.spectator)]:
            self.logs[viewer] = MoveLog.following(handle, self.config, viewer)
        #: Whose view is on screen. With several people nobody's, until the first one's turn.
        self.owner: Viewer = self.humans[0] if len(self.humans) == 1 else SPECTATOR
        self.notice = " ".join(warnings)
        #: Plain text: how many of each viewer's log lines have been printed already.
        self.printed: dict[Viewer, int] = {}

    def handle(self, viewer: Viewer) -> SeatHandle:
        return (
            self.handles.get(viewer, self.spectator) if isinstance(viewer, int) else self.spectator
        )

    def log(self, viewer: Viewer) -> MoveLog:
        return self.logs.get(viewer, self.logs[SPECTATOR])

    # -- the loop ----------------------------------------------------------------------------

    def run(self) -> None:
        try:
            while True:
                while True:
                    status = self.table.status()
                    if status.problem is not None:
                        self.rescue(status.problem)
                        continue
                    if status.is_over:
                        break
                    if status.bot_to_move:
                        self.bot_turn(status.to_move)
                    else:
                        self.human_turn(status.to_move)
                self.finish()
                if not self.take_back_after_the_end():
                    self.leave(quiet=True)
                    return
        except QuitGame:
            self.leave()
            return
        except KeyboardInterrupt:
            self.screen.console.print()
            self.leave()
            raise SystemExit(130) from None
        except Exception as exc:
            # A bug must not cost the player the game: the record is complete up to the last
            # move, so say where it is. CINCO_DEBUG=1 shows the traceback instead.
            if os.environ.get("CINCO_DEBUG"):
                self.leave()
                raise
            self.screen.say(
                _("Something went wrong ({error}). Please report it.").format(
                    error=f"{type(exc).__name__}: {exc}"
                ),
                "bold red",
            )
            self.leave()
            raise SystemExit(1) from None

    # -- saving ------------------------------------------------------------------------------

    def leave(self, *, quiet: bool = False) -> None:
        """Close the table and say where the game is saved; if its record failed, save it
        somewhere else first. *quiet*: say nothing when all is well (the end said it)."""
        status: TableStatus | None = None
        rescued: Path | None = None
        try:
            status = self.table.status()
            if status.problem is not None:
                rescued = self.save_elsewhere()
                status = self.table.status()
        except Exception as exc:  # a broken table still gets closed; what is on disk stays
            logger.warning("Could not ask the table how the game is saved: %r", exc)
        finally:
            self.table.close()
        if status is None:
            return
        if status.saved and status.record is not None:
            if rescued is not None:
                self.screen.say(
                    _("The record could not be written, so the game was saved in another file.")
                )
            if status.is_over:
                if not quiet or rescued is not None:
                    self.screen.say(_("The game is recorded in {path}").format(path=status.record))
                return
            if quiet and rescued is None:
                return
            self.screen.say(_("Game saved in {path}").format(path=status.record), "bold")
            self.screen.say(_("Continue it with: cinco --resume {path}").format(path=status.record))
            return
        if status.problem is not None:
            self.screen.say(status.problem.message, "bold red")
        self.screen.say(
            _("The game could not be saved: no file could be written ({tried}).").format(
                tried=", ".join(str(path) for path in self.fallback_paths())
            ),
            "bold red",
        )

    def fallback_paths(self) -> list[Path]:
        """Where to save a game whose record failed: the games folder, then a temporary one."""
        paths = []
        for folder in (None, Path(tempfile.gettempdir()) / "cinco"):
            try:
                paths.append(new_record_path(folder))
            except OSError:
                continue
        return paths

    def save_elsewhere(self) -> Path | None:
        """Write the whole game to the first fallback file that takes it."""
        for path in self.fallback_paths():
            try:
                return self.table.save_as(path)
            except (OSError, CincoError):
                continue
        return None

    def rescue(self, problem: Refused) -> None:
        """The record could not be written and the table stopped the game: say so, and ask
        where to save it instead. ``q`` (or the end of input) leaves."""
        fallbacks = self.fallback_paths()
        suggestion = fallbacks[0] if fallbacks else Path("cinco-game.jsonl")
        self.screen.say(problem.message, "bold red")
        while True:
            answer = self.screen.ask(
                _(
                    "Save the game in another file — type a path, Enter for {path}, q to leave: "
                ).format(path=suggestion)
            ).strip()
            if answer.lower() in ("q", "quit"):
                raise QuitGame
            path = Path(answer).expanduser() if answer else suggestion
            try:
                saved = self.table.save_as(path)
            except (OSError, CincoError) as exc:
                self.screen.say(
                    _("That file could not be written either ({error}).").format(error=exc),
                    "bold red",
                )
                continue
            self.notice = _("The game is saved in {path} now, and goes on.").format(path=saved)
            return

    # -- the end -----------------------------------------------------------------------------

    def finish(self) -> None:
        viewer: Viewer = self.humans[0] if len(self.humans) == 1 else SPECTATOR
        self.flush_log(viewer)
        result = self.handle(viewer).view.result
        assert result is not None
        status = self.table.status()
        said = []
        if status.saved and status.record is not None:
            path = status.record
            said.append(_("The game is recorded in {path}").format(path=path))
            said.append(_("Replay it with: cinco replay {path}").format(path=path))
        question = [take_back_question()] if self.can_take_back() else []
        self.draw(
            viewer, message=describe_result(self.config, result), prompt="\n".join(said + question)
        )
        for line in said:
            self.screen.say(line)

    def can_take_back(self) -> bool:
        """Whether the one person here (with bots) may take their last move back."""
        if len(self.humans) != 1:
            return False
        return self.handles[self.humans[0]].undo_refusal() is None

    def take_back_after_the_end(self) -> bool:
        """In a game of one person against bots, offer to take their last move back once the
        game is over, as ``u`` does during it. Returns whether they did."""
        if not self.can_take_back():
            return False
        handle = self.handles[self.humans[0]]
        try:
            answer = self.screen.ask(take_back_question())
        except QuitGame:  # the end of input: leave
            return False
        if not isinstance(parsing.parse(answer), parsing.Undo):
            return False
        if isinstance(handle.undo(), Accepted):
            self.notice = _("Undone: it is your turn again.")
            return True
        return False

    # -- drawing -----------------------------------------------------------------------------

    def style(self) -> Style:
        return self.screen.style()

    def draw(
        self,
        viewer: Viewer,
        *,
        message: str = "",
        highlight: Collection[int] = (),
        keys: bool = False,
        plays: Mapping[int, tuple[int, ...]] | None = None,
        legal: LegalActions | None = None,
        prompt: str = "",
    ) -> None:
        """Draw the table as *viewer* sees it (the whole screen, in a terminal); with *legal*,
        the keys line offers only the actions in it; with *prompt*, room is left for what
        will be printed under it (see ``TableView.prompt``)."""
        state = self.handle(viewer).view  # takes in the stream: the log is up to date
        log = self.log(viewer)
        view = TableView(
            state=state,
            viewer=viewer,
            log=log.lines,
            taken_back=log.taken_back(),
            highlight=highlight,
            message=message,
            plays=plays,
            show_log=self.screen.interactive,
            show_keys=keys,
            can_draw=legal is None or legal.can_draw,
            can_exchange=legal is None or legal.can_exchange,
            actions=() if legal is None else parsing.action_keys(legal),
            prompt=prompt,
        )
        self.screen.clear()
        self.screen.show(render(view, self.style()))

    def flush_log(self, viewer: Viewer) -> None:
        """Plain text: print the log lines *viewer* has not seen printed yet."""
        if self.screen.interactive:
            return
        self.handle(viewer).pump()
        log = self.log(viewer)
        for entry in log.since(self.printed.get(viewer, 0)):
            self.screen.say("  " + entry.line.text)
        self.printed[viewer] = log.told

    # -- bots --------------------------------------------------------------------------------

    def bot_turn(self, seat: int) -> None:
        name = clean_name(self.config.seats[seat].name)
        started = time.monotonic()
        if self.screen.interactive:
            self.draw(self.owner)
            with self.screen.console.status(_("{name} is thinking…").format(name=name)):
                answer = self.table.play_bot_turn()
                # q typed meanwhile answers now; other keys are thrown away
                self.screen.wait(max(0.0, self.delay - (time.monotonic() - started)))
        else:
            answer = self.table.play_bot_turn()
            time.sleep(max(0.0, self.delay - (time.monotonic() - started)))
            self.flush_log(self.owner)
        if isinstance(answer, Refused) and answer.code not in ("record_stopped", "no_bot_to_move"):
            raise BotFailed(answer.message)

    # -- people ------------------------------------------------------------------------------

    def pass_to(self, seat: int) -> None:
        """Hot-seat: hide the last player's hand and wait for the next player, who must answer
        ``y`` (not just Enter: a second Enter, or a key typed while the bots moved, must not
        show them the hand). ``q`` saves and quits."""
        name = clean_name(self.config.seats[seat].name)
        self.screen.clear(private=True)
        if not self.screen.interactive:
            # Plain text (TERM=dumb, a pipe) cannot be cleared: push the last player's hand
            # and new cards out of sight before the device changes hands.
            self.screen.blank(PLAIN_PASS_LINES)
        text = _("Pass to {name}").format(name=name)
        note = _("(only {name} should look at the screen now)").format(name=name)
        if self.screen.interactive:
            body = Text(text, style="bold" if self.screen.color else "", justify="center")
            body.append("\n" + note, style="dim" if self.screen.color else "")
            self.screen.show("\n" * max(0, self.screen.height // 2 - 3))
            self.screen.show(Align.center(Panel(body, expand=False, padding=(1, 4))))
        else:
            self.screen.say("=" * 40)
            self.screen.say(text)
            self.screen.say(note)
            self.screen.say("=" * 40)
        question = _("{name}, type y and press Enter to see your hand (q saves and quits): ")
        while True:
            self.screen.flush_input()
            answer = self.screen.ask(question.format(name=name)).strip().lower()
            if answer in ("q", "quit", "exit", "save"):
                raise QuitGame
            if is_yes(answer):  # y, yes, or the language's own (т, так)
                break
            self.screen.say(_("Type y (or q), then Enter."))
        self.screen.clear(private=True)

    def human_turn(self, seat: int) -> None:
        if len(self.humans) > 1 and self.owner != seat:
            self.pass_to(seat)
        self.owner = seat
        self.flush_log(seat)
        prompt = _TurnPrompt(message=self.notice)
        self.notice = ""
        name = self.config.seats[seat].name
        while True:
            self.show_turn(seat, prompt)
            typed = self.screen.ask(_("{name}, your move: ").format(name=name))
            intent = parsing.parse(typed, parsing.declared_actions())
            prompt.message, prompt.highlight = "", ()
            if self.take_intent(seat, intent, prompt):
                return

    def show_turn(self, seat: int, prompt: _TurnPrompt) -> None:
        """The table (or, on a plain terminal after the first time, just the message) before
        the seat's player is asked for a move."""
        legal = self.handles[seat].legal()
        if self.screen.interactive or prompt.first or prompt.highlight:
            self.draw(
                seat,
                message=prompt.message,
                highlight=prompt.highlight,
                keys=True,
                plays=dict(legal.plays),
                legal=legal,
            )
        elif prompt.message:
            self.screen.say(prompt.message, "bold yellow")
        if prompt.first:
            # Keys typed while the bots moved are not a move: the player has not seen
            # the bots' answer yet.
            self.screen.flush_input()
        prompt.first = False

    def take_intent(self, seat: int, intent: parsing.Intent, prompt: _TurnPrompt) -> bool:
        """Do what the player typed; what to show next goes into *prompt*. Returns whether
        the turn is over (a move taken, one undone, or the record stopped)."""
        if isinstance(intent, parsing.Quit):
            raise QuitGame
        if isinstance(intent, parsing.Help):
            self.show_help(seat)
        elif isinstance(intent, parsing.Show):
            prompt.message, prompt.highlight = self.show_card(seat, intent.card)
        elif isinstance(intent, parsing.Hint):
            prompt.message, prompt.highlight, prompt.suggestion = self.hint(seat)
        elif isinstance(intent, parsing.Undo):
            return self.undo_turn(seat, prompt)
        else:
            command = self.command_for(seat, intent, prompt)
            return command is not None and self.submit_turn(seat, command, prompt)
        return False

    def command_for(self, seat: int, intent: parsing.Intent, prompt: _TurnPrompt) -> Command | None:
        """The move *intent* asks for (``None``: none, and *prompt* says why)."""
        if isinstance(intent, parsing.Empty):
            if prompt.suggestion is None:
                prompt.message = _("Type a move, for example a card number; ? shows all commands.")
            return prompt.suggestion
        if isinstance(intent, parsing.Draw):
            return Draw(seat)
        if isinstance(intent, parsing.Exchange):
            return Exchange(seat)
        if isinstance(intent, parsing.Play):
            command, prompt.message, prompt.highlight = self.choose_play(seat, intent)
            return command
        if isinstance(intent, parsing.Declared):  # a variant's own action (hook API 3)
            act = intent.command(seat)
            prompt.message = "" if act is not None else intent.problem
            return act
        assert isinstance(intent, parsing.Unknown)
        prompt.message = parsing.not_a_move(intent.text)
        return None

    def submit_turn(self, seat: int, command: Command, prompt: _TurnPrompt) -> bool:
        """Send the move; whether the turn is over (a refusal is shown and asked again)."""
        prompt.suggestion = None
        answer = self.handles[seat].submit(command)
        if isinstance(answer, Refused):
            if answer.code == "record_stopped":
                return True  # the loop says so and asks where to save
            prompt.message = answer.message
            return False
        self.flush_log(seat)
        return True

    def undo_turn(self, seat: int, prompt: _TurnPrompt) -> bool:
        """Take back the seat's last move; whether the turn is over."""
        undone = self.handles[seat].undo()
        if isinstance(undone, Refused):
            if undone.code == "record_stopped":
                return True  # the loop says so and asks where to save
            prompt.message = undone.message
            return False
        self.notice = _("Undone: it is your turn again.")
        return True

    def choose_play(
        self, seat: int, intent: parsing.Play
    ) -> tuple[Command | None, str, Collection[int]]:
        """Turn ``34`` or ``34 36`` into a command, asking where or whether to burn when
        needed. Returns the command (``None``: nothing to do), a message and highlights."""
        card = intent.card
        if intent.space is not None:
            return PlayCard(seat, card, intent.space), "", ()
        hand = self.handles[seat].view.hand(seat)
        if card not in hand:
            return PlayCard(seat, card, card), "", ()  # the engine says what is wrong
        spaces = self.handles[seat].legal().spaces_for(card)
        if not spaces:
            question = _(
                "No free space takes your {card}: it burns, and no token is placed. "
                "Burn it? {yes_no} "
            ).format(card=card, yes_no=yes_no_hint())
            if self.screen.interactive:  # drawn again, with room for the long question
                self.draw(seat, plays=dict(self.handles[seat].legal().plays), prompt=question)
            answer = self.screen.ask(question)
            if is_yes(answer):
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
            legal = self.handles[seat].legal()
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
        if card not in self.handles[seat].view.hand(seat):
            return _("You have no {card}.").format(card=card), ()
        spaces = self.handles[seat].legal().spaces_for(card)
        if not spaces:
            return _("No free space takes your {card}: played, it burns.").format(card=card), ()
        return _("Your {card} may go on the {n} marked spaces.").format(
            card=card, n=len(spaces)
        ), spaces

    def hint(self, seat: int) -> tuple[str, Collection[int], Command | None]:
        handle = self.handles[seat]
        if self.screen.interactive:
            with self.screen.console.status(_("Looking for a good move…")):
                answer = hint(handle)
        else:
            answer = hint(handle)
        if isinstance(answer, Refused):
            return answer.message, (), None
        command = answer.command
        space = command.space if isinstance(command, PlayCard) else None
        return hint_message(answer), ((space,) if space else ()), command

    def show_help(self, seat: int) -> None:
        # The seat's handle says whether this game has exchanges at all: a variant's refusal
        # (action_not_allowed) rather than a hand of the wrong size.
        refused = self.handles[seat].check(Exchange(seat))
        forbidden = refused is not None and refused.code == "action_not_allowed"
        actions = parsing.declared_actions()  # a variant's own actions (hook API 3)
        show_help(self.screen, self.config.params, can_exchange=not forbidden, actions=actions)
