"""The app's language setting: chosen on the start screen, switched at once, remembered.

The choice is kept with the app's settings (:mod:`.settings`). At start the app follows, in
order: ``--lang`` or ``CINCO_LANG`` (someone asked for a language), the language chosen in the
app before, the system locale.

Switching builds the app's screens again from the layout file, in the new language (every text
of a screen is made when the screen is), and comes back to the start screen with the choices
made there kept. Nothing of a game lives in its screens, so nothing is lost.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> saved_language(folder) is None
True
>>> remember_language("cs", folder)
>>> saved_language(folder)
'cs'
"""

from __future__ import annotations

from pathlib import Path

from cinco.core.words import i18n

from . import settings

#: Kept for callers that name the file (the settings module owns it).
SETTINGS_FILE = settings.FILE


def saved_language(folder: Path | None = None) -> str | None:
    """The language chosen in the app before, if it is one Cinco still ships."""
    code = settings.read(folder).get("language")
    return code if isinstance(code, str) and code in i18n.LANGUAGES else None


def remember_language(code: str, folder: Path | None = None) -> None:
    """Keep *code* as the app's language."""
    settings.write({"language": code}, folder)


def start_language(folder: Path | None = None) -> str:
    """Switch to the language the app starts in (see the module's docstring); its code."""
    if not i18n.language_asked_for():
        saved = saved_language(folder)
        if saved is not None and saved != i18n.current_language():
            i18n.set_language(saved)
    return i18n.current_language()


def language_names() -> list[str]:
    """Every shipped language by its own name, for the chooser."""
    return list(i18n.LANGUAGES.values())


def code_of(name: str) -> str | None:
    """The code of the language called *name* in the chooser."""
    return next((code for code, own in i18n.LANGUAGES.items() if own == name), None)
