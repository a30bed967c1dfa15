"""The one translation function for user-facing text.

Every sentence a person reads goes through :func:`_`, so that translations can be added by
dropping a gettext catalogue into ``cinco/core/locale`` without touching code.

>>> _("Not your turn.")
'Not your turn.'
"""

from __future__ import annotations

import gettext
from pathlib import Path

_LOCALE_DIR = Path(__file__).resolve().parent / "locale"
_translation = gettext.translation("cinco", localedir=_LOCALE_DIR, fallback=True)


def _(message: str) -> str:
    """Translate *message* into the user's language (English when no catalogue matches)."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message that depends on a count."""
    return _translation.ngettext(singular, plural, n)
