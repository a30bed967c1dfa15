"""The tablet app: ``cinco --frontend kivy``.

Importing this package does not import Kivy: :mod:`.session` (the table's behaviour: whose view
to show, privacy, undo, autosave, the move log) is plain Python and tested without a display.
Kivy is imported only by the app modules (:mod:`.app`, :mod:`.board`, :mod:`.widgets`,
:mod:`.screens`), and only when :func:`run_app` starts the app.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cinco.frontends.options import PlayOptions


def prepare_environment() -> None:
    """Settings Kivy reads when it is first imported: leave the command line to click, keep
    the console quiet, and size the window like a landscape tablet."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KCFG_GRAPHICS_WIDTH", "1280")
    os.environ.setdefault("KCFG_GRAPHICS_HEIGHT", "800")
    os.environ.setdefault("KCFG_INPUT_MOUSE", "mouse,disable_multitouch")
    os.environ.setdefault("KCFG_KIVY_EXIT_ON_ESCAPE", "0")


def run_app(options: PlayOptions) -> None:
    """Open the app with *options* (the same options as the terminal game)."""
    prepare_environment()
    from .app import CincoApp

    CincoApp(options).run()
