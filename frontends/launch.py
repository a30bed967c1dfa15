"""Starting a game from the ``cinco`` command line: the options checked against the installed
plugins, then the chosen frontend (the terminal, or the Kivy app).

:mod:`cinco.frontends.main` loads this module only when ``cinco`` is run without a subcommand,
so that ``cinco --help`` and shell completion import neither the engine nor the plugins.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import click

from cinco.core.engine.errors import CincoError
from cinco.core.words.i18n import _
from cinco.frontends.cli_options import clean_text
from cinco.frontends.options import PlayOptions, options_from
from cinco.frontends.terminal.app import play as play_in_terminal

#: The Kivy app's entry point, loaded when asked for: Kivy is an extra (``cinco[kivy]``).
KIVY_APP = "cinco.frontends.kivy_app"


def play(frontend: str, values: dict[str, Any]) -> None:
    """Play the game *values* (the keyword arguments of :func:`~cinco.frontends.options.
    play_options`) describe, in *frontend*; an error of Cinco's is one line, not a trace."""
    try:
        launch(frontend, options_from(values))
    except CincoError as exc:
        raise click.ClickException(clean_text(str(exc))) from None


def launch(frontend: str, options: PlayOptions) -> None:
    """Start a game in *frontend*. Kivy is imported only here, and only when asked for."""
    if frontend == "kivy":
        missing = click.ClickException(_("The Kivy app needs Kivy: pip install 'cinco[kivy]'."))
        if _kivy_missing():
            raise missing
        try:
            importlib.import_module(KIVY_APP).run_app(options)
        except ModuleNotFoundError as exc:
            if (exc.name or "").partition(".")[0] != "kivy":
                raise
            raise missing from None
        return
    if options.screenshot is not None:
        raise click.UsageError(
            _("--screenshot is for the Kivy app (--frontend kivy); the terminal game has none.")
        )
    play_in_terminal(options)


def _kivy_missing() -> bool:
    try:
        return importlib.util.find_spec("kivy") is None
    except (ImportError, ValueError):
        return True
