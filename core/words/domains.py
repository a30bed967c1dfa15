"""A plugin's own words: its gettext domain, its catalogs, and the texts it marks with them.

Cinco's own texts (and the built-in plugins') are in Cinco's catalog (domain ``cinco``,
:mod:`cinco.core.words.i18n`). A plugin installed from elsewhere ships its own compiled
catalogs and declares them once, as a :class:`TextDomain`; the texts it declares (a variant's
title, description, rules text and end reasons, a layout's description, a bot's title) are
marked with that domain's :meth:`TextDomain.N_`. Such a text is still a ``str`` (the English
msgid, what commands, records and JSON see), and it remembers its domain, so that wherever
Cinco shows it with :func:`~cinco.core.words.i18n._` it is looked up in the plugin's catalog
first, then in Cinco's (a plugin may use Cinco's words: ``words.N_("Joker")``), in the
language being spoken. A plugin never needs to know which language that is, nor when it
changes.

>>> words = TextDomain("cinco_dice", "/nowhere/locale")
>>> title = words.N_("Dice")
>>> title == "Dice", isinstance(title, str), title.domain.name
(True, True, 'cinco_dice')
>>> from cinco.core.words.i18n import _, speaking
>>> with speaking("cs"):  # no catalog of its own there: Cinco's words, else the msgid
...     _(words.N_("Joker")), _(title)
('Žolík', 'Dice')
"""

from __future__ import annotations

import functools
import gettext as gettext_module
import os
from dataclasses import dataclass
from gettext import NullTranslations
from typing import Any

from cinco.core.words import i18n


@dataclass(frozen=True)
class TextDomain:
    """A plugin's gettext domain *name* and the folder of its compiled catalogs,
    ``<localedir>/<language>/LC_MESSAGES/<name>.mo`` (the layout pybabel compiles to).

    Declare it once in the plugin's module, next to the package data::

        words = TextDomain("cinco_dice", Path(__file__).parent / "locale")
    """

    name: str
    localedir: str | os.PathLike[str]

    def N_(self, message: str) -> DomainText:  # gettext's conventional name
        """Mark *message* as this plugin's words (translated where Cinco shows it)."""
        return DomainText(message, self)

    def Nn_(self, singular: str, plural: str) -> tuple[DomainText, DomainText]:
        """Mark a counted message (shown through :func:`~cinco.core.words.i18n.ngettext`)."""
        return DomainText(singular, self), DomainText(plural, self)

    def gettext(self, message: str) -> str:
        """*message* in the language spoken now, from this catalog, else Cinco's."""
        return str(self.translations(i18n.speaking_language()).gettext(str(message)))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of a counted message for *n*, from this catalog, else Cinco's."""
        translations = self.translations(i18n.speaking_language())
        return str(translations.ngettext(str(singular), str(plural), n))

    def translations(self, code: str) -> NullTranslations:
        """This domain's catalog for language *code*, falling back to Cinco's catalog."""
        return _catalog(self.name, os.fspath(self.localedir), code)


@functools.lru_cache(maxsize=256)
def _catalog(name: str, localedir: str, code: str) -> NullTranslations:
    # gettext.translation copies the catalog at each call: each one is kept (see i18n).
    own = gettext_module.translation(name, localedir=localedir, languages=[code], fallback=True)
    if type(own) is NullTranslations:  # no catalog of its own in that language
        return i18n.translations_for(code)
    own.add_fallback(i18n.translations_for(code))
    return own


class DomainText(str):
    """A text in a plugin's words: the English msgid, with the :class:`TextDomain` that
    translates it (``i18n._`` asks it). String operations give plain ``str``: translate the
    text itself, not a piece of it."""

    domain: TextDomain

    def __new__(cls, text: str, domain: TextDomain) -> DomainText:
        made = super().__new__(cls, text)
        made.domain = domain
        return made

    def __reduce__(self) -> tuple[Any, ...]:  # pickled for a worker process: domain kept
        return (DomainText, (str(self), self.domain))

    def translated(self) -> str:
        """This text in the language spoken now."""
        return self.domain.gettext(self)

    def translated_plural(self, plural: str, n: int) -> str:
        """This counted text (the singular) with *plural*, for *n*."""
        return self.domain.ngettext(self, plural, n)
