"""The terminal itself: colour or plain text, clearing, asking, and the room available.

Plain text (no colour, no styles, no clearing) is used when ``NO_COLOR`` is set or the output
is not a terminal; the marks on the board then carry what colour would (see
:mod:`cinco.frontends.board_view`).

Everything printed passes through :class:`CleanHook`: the text of what is drawn (players'
names, a record's or a plugin's notices, bots' names) loses its control characters, so that
none of it can move the cursor, set the window title or draw a fake line. Only the screen's
own escape codes (colours, clearing) reach the terminal.
"""

from __future__ import annotations

import os
import select
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rich.console import (
    Console,
    ConsoleOptions,
    ConsoleRenderable,
    RenderableType,
    RenderHook,
    RenderResult,
)
from rich.segment import Segment
from rich.text import Text

from cinco.frontends.cli_options import clean_text
from cinco.frontends.terminal import parsing
from cinco.frontends.terminal.table import Style


class QuitGame(Exception):
    """The player asked to stop (``q``, or the input ended): save and leave."""


class _Cleaned:
    """A renderable whose text segments are stripped of control characters (the style and
    control segments the console makes itself are kept)."""

    def __init__(self, inner: ConsoleRenderable) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.inner, options):
            if segment.control:
                yield segment
            else:
                yield Segment(clean_text(segment.text, lines=True), segment.style)


class CleanHook(RenderHook):
    """Strips control characters from every text the console prints."""

    def process_renderables(
        self, renderables: Sequence[ConsoleRenderable] | Iterable[ConsoleRenderable]
    ) -> list[ConsoleRenderable]:
        return [_Cleaned(renderable) for renderable in renderables]


def flush_typeahead() -> None:
    """Forget keys typed before the prompt (while bots moved, or a second Enter), so that they
    cannot answer a question asked afterwards. Only a terminal has such keys to forget."""
    try:
        if not sys.stdin.isatty():
            return
        import termios

        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError, ValueError, AttributeError):  # not a POSIX terminal
        return


def typed_while_waiting(timeout: float = 0.0) -> bool:
    """While it is not the player's turn: wait up to *timeout* seconds for lines typed, and
    read them all. ``q`` (or any word for quitting, or the end of input) raises
    :class:`QuitGame` at once; anything else is thrown away, as keys typed before a prompt
    are (:func:`flush_typeahead`): a move or a hint typed ahead is not done later. Only a
    terminal is read this way: a script's lines wait for the prompts they answer. Returns
    whether lines were thrown away (their echo is on the screen: draw it again)."""
    try:
        if not sys.stdin.isatty():
            return False
        fd = sys.stdin.fileno()
    except (OSError, ValueError, AttributeError):
        return False
    thrown = False
    deadline = time.monotonic() + timeout
    while True:
        try:
            ready, _w, _x = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return thrown
            data = os.read(fd, 4096)  # a terminal reads a line at a time
        except (OSError, ValueError):
            return thrown
        if not data:
            raise QuitGame  # the end of input (Ctrl-D)
        for line in data.decode(errors="replace").splitlines():
            if isinstance(parsing.parse(line), parsing.Quit):
                raise QuitGame
        thrown = True  # and wait on, until the deadline


class Screen:
    """Where the game is drawn and where answers come from."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console(highlight=False, markup=False, emoji=False)
        self.console.push_render_hook(CleanHook())
        #: A real terminal: the screen can be cleared and redrawn.
        self.interactive = self.console.is_terminal and not self.console.is_dumb_terminal
        self.color = (
            self.interactive
            and self.console.color_system is not None
            and not os.environ.get("NO_COLOR")
        )
        encoding = (self.console.encoding or "").lower()
        self.ascii_only = not encoding.startswith("utf")

    @property
    def width(self) -> int:
        return self.console.size.width

    @property
    def height(self) -> int:
        return self.console.size.height if self.interactive else 24

    def clear(self, *, private: bool = False) -> None:
        """Clear the screen; *private* also wipes the scrollback, so that the next player
        cannot scroll up to the last one's hand."""
        if not self.interactive:
            return
        self.console.clear()
        if private:
            self.console.file.write("\x1b[3J")
            self.console.file.flush()

    def style(self) -> Style:
        """How a table is drawn on this screen: colour, ASCII only, the size."""
        return Style(
            color=self.color, ascii_only=self.ascii_only, width=self.width, height=self.height
        )

    def show(self, renderable: RenderableType, **kwargs: Any) -> None:
        self.console.print(renderable, **kwargs)

    def say(self, text: str, style: str = "") -> None:
        # soft_wrap: a long line (a file path) is left for the terminal to wrap, so that it
        # can be copied whole.
        self.console.print(Text(text, style=style if self.color else ""), soft_wrap=True)

    def flush_input(self) -> None:
        """Forget type-ahead (see :func:`flush_typeahead`)."""
        flush_typeahead()

    def wait(self, seconds: float = 0.0) -> bool:
        """It is not the player's turn: wait *seconds*, ``q`` answering at once (see
        :func:`typed_while_waiting`). Returns whether keys typed were thrown away."""
        if self.interactive:
            return typed_while_waiting(seconds)
        time.sleep(max(0.0, seconds))
        return False

    def blank(self, lines: int) -> None:
        """Plain text: push what is on screen out of sight with *lines* empty lines."""
        self.console.file.write("\n" * lines)
        self.console.file.flush()

    def rewrite_line_above(self, text: str) -> None:
        """Redraw, in bold, the line just above the cursor (the last line drawn, or the one
        over the prompt) and put the cursor back: a clock that runs while the player types.
        Only a real terminal can do it; elsewhere nothing happens."""
        if not self.interactive:
            return
        line = clean_text(text)
        if len(line) >= self.width:  # as drawn with the table: one line, cut short
            line = line[: max(0, self.width - 2)] + "…"
        if self.color:
            line = f"\x1b[1m{line}\x1b[0m"
        # Save the cursor, go up a line, clear it, write, restore: one write, so that the
        # echo of what the player types cannot land in the middle of it.
        self.console.file.write(f"\x1b7\x1b[1A\r\x1b[2K{line}\x1b8")
        self.console.file.flush()

    def ask(self, prompt: str, live: Callable[[], str] | None = None) -> str:
        """One line of input. The end of input counts as quitting (the game is saved).

        *live* gives the text of the line above the prompt as it should read now; while the
        player types, it is asked again a few times a second and the line redrawn when its
        text changes (see :meth:`rewrite_line_above`)."""
        try:
            if self.interactive:
                text = Text(prompt, style="bold" if self.color else "")
                if live is None:
                    return self.console.input(text)
                with _LiveLine(self, live):
                    return self.console.input(text)
            # Not a terminal: echo nothing fancy, read a line (scripts and tests).
            self.console.print(prompt, end="")
            line = sys.stdin.readline()
            if not line:
                raise EOFError
            self.console.print(line.rstrip("\n"))
            return line.rstrip("\n")
        except EOFError:
            self.console.print()
            raise QuitGame from None


class _LiveLine:
    """A thread that keeps the line above the prompt up to date while ``input`` waits."""

    PERIOD = 0.2

    def __init__(self, screen: Screen, text: Callable[[], str]) -> None:
        self.screen, self.text = screen, text
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="cinco-live-line", daemon=True)

    def __enter__(self) -> _LiveLine:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join()

    def _run(self) -> None:
        shown = self.text()  # what was drawn with the table
        while not self.stopped.wait(self.PERIOD):
            now = self.text()
            if now != shown:
                self.screen.rewrite_line_above(now)
                shown = now
