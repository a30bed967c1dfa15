"""The running app, as the screens reach it (typed: Kivy's ``App.get_running_app`` is not)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.app import App

if TYPE_CHECKING:
    from .app import CincoApp


def app() -> CincoApp:
    """The :class:`~.app.CincoApp` that is running."""
    return App.get_running_app()  # type: ignore[no-any-return]
