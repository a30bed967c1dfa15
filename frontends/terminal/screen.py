"""The terminal itself: colour or plain text, clearing, asking, and the room available.

Plain text (no colour, no styles, no clearing) is used when ``NO_COLOR`` is set or the output
is not a terminal; the marks on the board then carry what colour would (see
:mod:`cinco.frontends.board_view`).
"""

from __future__ import annotations

import os
import sys
from typing import Any

from rich.console import Console, RenderableType
from rich.text import Text


class QuitGame(Exception):
    """The player asked to stop (``q``, or the input ended): save and leave."""


class Screen:
    """Where the game is drawn and where answers come from."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console(highlight=False, markup=False, emoji=False)
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

    def show(self, renderable: RenderableType, **kwargs: Any) -> None:
        self.console.print(renderable, **kwargs)

    def say(self, text: str, style: str = "") -> None:
        # soft_wrap: a long line (a file path) is left for the terminal to wrap, so that it
        # can be copied whole.
        self.console.print(Text(text, style=style if self.color else ""), soft_wrap=True)

    def ask(self, prompt: str) -> str:
        """One line of input. The end of input counts as quitting (the game is saved)."""
        try:
            if self.interactive:
                return self.console.input(Text(prompt, style="bold" if self.color else ""))
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
