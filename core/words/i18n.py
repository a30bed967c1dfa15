"""The translation functions for user-facing text, and the choice of language.

Every sentence a person reads goes through :func:`_` (or :func:`ngettext` when it holds a
count). The catalogs are Babel-managed gettext catalogs in ``cinco/core/locale`` (domain
``cinco``; docs/translating.md says how to add a language). Lookups happen when a text is
shown, never at import: :func:`set_language` switches every later text at once (the Kivy app
switches without a restart).

The language starts as English; a program's entry point (``cinco``, the Kivy app) calls
:func:`init_language`, which follows ``--lang``, then ``CINCO_LANG``, then the system locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them).

>>> _("Not your turn.")
'Not your turn.'
>>> ngettext("{n} card", "{n} cards", 2).format(n=2)
'2 cards'
>>> language_code("uk_UA.UTF-8")
'uk'
>>> system_language({"LANG": "cs_CZ.UTF-8"})
'cs'
>>> system_language({"LANGUAGE": "de:it", "LANG": "cs_CZ.UTF-8"})
'it'
>>> system_language({"LANG": "C.UTF-8"})
'en'
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import os
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path

#: The languages Cinco ships, code → the language's own name. English is the source.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "uk": "Українська",
    "cs": "Čeština",
    "ru": "Русский",
    "it": "Italiano",
}

#: The language of the msgids (what is shown when no catalog matches).
SOURCE_LANGUAGE = "en"

#: The environment variable that overrides the system locale (``--lang`` overrides it).
ENV_VAR = "CINCO_LANG"

#: The gettext domain, and where its compiled catalogs live (``<code>/LC_MESSAGES/cinco.mo``).
DOMAIN = "cinco"
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
#: Another folder of catalogs to read instead (a translator's work in progress, the tests'
#: pseudo-translation): ``CINCO_LOCALE_DIR=/path cinco --lang uk``.
LOCALE_DIR_VAR = "CINCO_LOCALE_DIR"

#: The locale variables gettext reads, in its order: the first one set decides.
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


#: The file listing the languages whose catalogs are complete, one code a line (one line per
#: language, so that translators working at once do not edit the same line).
COMPLETE_FILE = LOCALE_DIR / "COMPLETE"


def complete_languages() -> tuple[str, ...]:
    """The languages whose catalogs are complete (``core/locale/COMPLETE``):
    tests/core/words/test_i18n.py checks each for missing, empty, fuzzy or mismatched entries.
    A translator adds their code there when the catalog is done (docs/translating.md).

    >>> "en" in complete_languages()
    True
    """
    try:
        lines = COMPLETE_FILE.read_text(encoding="utf-8").splitlines()
    except OSError:
        return (SOURCE_LANGUAGE,)
    codes = [line.split("#")[0].strip() for line in lines]
    return tuple(dict.fromkeys(code for code in codes if code))


class UnknownLanguage(ValueError):
    """A language code Cinco has no catalog for; the message names the ones it has."""

    def __init__(self, code: str) -> None:
        self.code = code
        super().__init__(
            _("Unknown language {code!r}. Cinco speaks: {languages}.").format(
                code=code, languages=available_languages_text()
            )
        )


_translations: gettext.NullTranslations = gettext.NullTranslations()
_current = SOURCE_LANGUAGE
_listeners: list[Callable[[str], None]] = []
#: The language of :func:`speaking` in this thread or task (it overrides the current one).
_speaking: ContextVar[gettext.NullTranslations | None] = ContextVar("speaking", default=None)
#: ... and its code (a plugin's catalog and the numbers follow it too).
_speaking_code: ContextVar[str | None] = ContextVar("speaking_code", default=None)


def N_(message: str) -> str:  # gettext's conventional name
    """Mark *message* for extraction without translating it (translate it with :func:`_`
    where it is shown): for texts defined at import, such as click help and tables."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:  # like N_
    """Mark a counted message (for :func:`ngettext` where it is shown) without translating it."""
    return singular, plural


def _(message: str) -> str:
    """*message* in the current language (the English msgid when the catalog lacks it).

    A plugin's own words (:class:`cinco.core.words.domains.DomainText`, from its
    ``TextDomain.N_``) are looked up in the plugin's catalog first."""
    if type(message) is not str:  # a plugin's words know their catalog (words.domains)
        own = getattr(message, "translated", None)
        if own is not None:
            return str(own())
    return (_speaking.get() or _translations).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for *n*, by the language's plural rule (a plugin's
    counted words, marked with its ``TextDomain.Nn_``, by its own catalog)."""
    if type(singular) is not str:
        own = getattr(singular, "translated_plural", None)
        if own is not None:
            return str(own(plural, n))
    return (_speaking.get() or _translations).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """*message* translated in *context* (for a word that reads differently in two places)."""
    return (_speaking.get() or _translations).pgettext(context, message)


def language_code(text: str) -> str:
    """The language part of a locale name or tag: ``uk_UA.UTF-8`` → ``uk``, ``pt-BR`` → ``pt``."""
    for sep in ".@":
        text = text.partition(sep)[0]
    return text.replace("-", "_").partition("_")[0].strip().lower()


def available_languages_text() -> str:
    """``en (English), uk (Українська), ...``: for messages that list the choices."""
    return ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())


def translations_for(code: str) -> gettext.NullTranslations:
    """The catalog of language *code* (one Cinco ships; :class:`UnknownLanguage` otherwise)."""
    wanted = language_code(code)
    if wanted not in LANGUAGES:
        raise UnknownLanguage(code)
    if wanted == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    return _catalog(wanted, str(os.environ.get(LOCALE_DIR_VAR) or LOCALE_DIR))


@functools.lru_cache(maxsize=32)
def _catalog(code: str, localedir: str) -> gettext.NullTranslations:
    # Kept once per language: the server words every web page's frames in its language, and
    # gettext.translation looks for the file and copies the catalog at every call.
    return gettext.translation(DOMAIN, localedir=localedir, languages=[code], fallback=True)


@contextlib.contextmanager
def speaking(code: str) -> Iterator[None]:
    """Texts in language *code* within the block, in this thread or task only (the server
    tells each web page its moves in the page's language); the current language is
    unchanged elsewhere.

    >>> with speaking("uk"):
    ...     _("You drew a card") != "You drew a card"
    True
    """
    token = _speaking.set(translations_for(code))
    code_token = _speaking_code.set(language_code(code))
    try:
        yield
    finally:
        _speaking_code.reset(code_token)
        _speaking.reset(token)


def set_language(code: str) -> None:
    """Show every later text in language *code* (``uk``, or a locale name like ``uk_UA``).

    Raises :class:`UnknownLanguage` for a language Cinco does not ship.
    """
    global _translations, _current
    wanted = language_code(code)
    if wanted not in LANGUAGES:
        raise UnknownLanguage(code)
    if wanted == SOURCE_LANGUAGE:
        translations: gettext.NullTranslations = gettext.NullTranslations()
    else:
        translations = gettext.translation(
            DOMAIN,
            localedir=os.environ.get(LOCALE_DIR_VAR) or LOCALE_DIR,
            languages=[wanted],
            fallback=True,
        )
    _translations, _current = translations, wanted
    for listener in list(_listeners):
        listener(wanted)


def current_language() -> str:
    """The code of the language texts are shown in now (see also :func:`speaking_language`)."""
    return _current


def speaking_language() -> str:
    """The code of the language texts are shown in here: :func:`speaking`'s in its block,
    :func:`current_language` elsewhere (a plugin's catalog and the numbers follow this).

    >>> with speaking("cs"):
    ...     speaking_language()
    'cs'
    """
    return _speaking_code.get() or _current


def on_language_change(listener: Callable[[str], None]) -> Callable[[], None]:
    """Call *listener* with the new code after each :func:`set_language`; returns a function
    that removes it (a screen that redraws its texts registers here)."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener) if listener in _listeners else None


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the system locale asks for, as gettext reads it: the first of
    ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set (``LANGUAGE`` may list
    several, ``de:it``), the first of its languages Cinco ships; English otherwise."""
    environ = os.environ if environ is None else environ
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable)
        if value:
            for part in value.split(":"):
                code = language_code(part)
                if code in LANGUAGES:
                    return code
            return SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


def choose_language(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to use: *option* (``--lang``), else ``CINCO_LANG``, else the system
    locale. An unknown *option* or ``CINCO_LANG`` raises :class:`UnknownLanguage`; an unknown
    system locale is English (a German desktop still gets a game)."""
    environ = os.environ if environ is None else environ
    for chosen in (option, environ.get(ENV_VAR)):
        if chosen:
            code = language_code(chosen)
            if code not in LANGUAGES:
                raise UnknownLanguage(chosen)
            return code
    return system_language(environ)


def init_language(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """Choose the language (:func:`choose_language`), switch to it, and return its code."""
    global _asked_for
    code = choose_language(option, environ)
    environ = os.environ if environ is None else environ
    _asked_for = bool(option or environ.get(ENV_VAR))
    set_language(code)
    return code


_asked_for = False


def language_asked_for() -> bool:
    """Whether the last :func:`init_language` followed ``--lang`` or ``CINCO_LANG`` (which
    outrank a language the Kivy app remembers), rather than the system locale."""
    return _asked_for
