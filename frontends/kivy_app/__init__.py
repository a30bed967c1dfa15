"""The tablet app: ``cinco --frontend kivy``.

Importing this package does not import Kivy: :mod:`.session` (the table's behaviour: whose view
to show, privacy, undo, autosave, the move log) is plain Python and tested without a display.
Kivy is imported only by the app modules (:mod:`.app`, :mod:`.board`, :mod:`.widgets`,
:mod:`.screens`), and only when :func:`run_app` starts the app.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, NoReturn

from .failure import report

if TYPE_CHECKING:
    from cinco.frontends.options import PlayOptions

    from .app import CincoApp
    from .failure import Failure

#: The app and its error window, loaded by name when the app starts: they import Kivy (the
#: ``[kivy]`` extra), and importing this package must not.
APP = "cinco.frontends.kivy_app.app"
FAILURE_SCREEN = "cinco.frontends.kivy_app.failure_screen"


def prepare_environment() -> None:
    """Settings Kivy reads when it is first imported: leave the command line to click, keep
    the console quiet, and size the window like a landscape tablet."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    # Kivy's own mode turns standard error into its log, and with the console log off a
    # traceback went nowhere: MIXED leaves standard error alone (failures are reported there,
    # see .failure).
    os.environ.setdefault("KIVY_LOG_MODE", "MIXED")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KCFG_GRAPHICS_WIDTH", "1280")
    os.environ.setdefault("KCFG_GRAPHICS_HEIGHT", "800")
    os.environ.setdefault("KCFG_INPUT_MOUSE", "mouse,disable_multitouch")
    os.environ.setdefault("KCFG_KIVY_EXIT_ON_ESCAPE", "0")


def run_app(options: PlayOptions) -> None:
    """Open the app with *options* (the same options as the terminal game).

    Any failure, at start-up or during play, is reported on standard error and in the log
    (:mod:`.failure`) and shown to the person; then ``SystemExit(1)``. Kivy itself missing
    raises ModuleNotFoundError for the caller to explain."""
    prepare_environment()
    app: CincoApp | None = None
    try:
        app = importlib.import_module(APP).CincoApp(options)
        app.run()
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] == "kivy":
            raise
        failed(report(exc, "starting the app"), options)
    except SystemExit as exc:
        if app is not None and app.started:
            raise
        # Kivy exits by itself when it finds no window or no OpenGL (its log, which is quiet
        # on the console, says which): say so rather than end in silence.
        failed(
            report(
                RuntimeError(f"Kivy stopped while starting (exit status {exc.code})"),
                "starting the app",
            ),
            options,
            window=False,
        )
    except Exception as exc:  # whatever it is, the person is told, never a silent exit
        where = "during play" if app is not None and app.started else "starting the app"
        failed(report(exc, where), options)
    if app is not None and app.failures:  # shown during play, and the person closed the app
        raise SystemExit(1)


def failed(failure: Failure | None, options: PlayOptions, window: bool = True) -> NoReturn:
    """Show a start-up *failure* (not for a screenshot: that only exits), then exit 1."""
    if failure is not None and window and options.screenshot is None:
        try:
            importlib.import_module(FAILURE_SCREEN).show_startup_failure(failure)
        except Exception as exc:  # no window at all: standard error has said it
            report(exc, "showing the error")
    raise SystemExit(1)
