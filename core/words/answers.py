"""Yes-or-no questions in the user's language: the ``[y/N]`` hint and the answers accepted.

A Ukrainian reads ``[т/Н]`` and may answer ``т`` or ``так``; English ``y`` and ``yes`` are
understood in every language too (a player used to them, a script). The answers are the
catalog's words (a translator lists them), compared without case.

>>> yes_no_hint(), is_yes("Y"), is_yes("yes"), is_yes(""), is_no(""), is_no("n")
('[y/N]', True, True, False, True, True)
>>> please_answer()
'Please answer y or n.'
"""

from __future__ import annotations

from cinco.core.words.i18n import N_, _

# The hint after a question whose answer is no unless one says yes (Enter is no).
# TRANSLATORS: the letters of your language's yes and no, the default (no) in capitals.
YES_NO = N_("[y/N]")

# TRANSLATORS: the answers that mean yes, separated by spaces, the one to suggest first
# (English y and yes are understood in every language as well).
YES_WORDS = N_("y yes")

# TRANSLATORS: the answers that mean no, separated by spaces, the one to suggest first
# (English n and no as well).
NO_WORDS = N_("n no")

_ENGLISH_YES = frozenset(YES_WORDS.split())
_ENGLISH_NO = frozenset(NO_WORDS.split())


def yes_no_hint() -> str:
    """``[y/N]`` in the user's language, for the end of a question."""
    return _(YES_NO)


def _words(msgid: str, english: frozenset[str]) -> frozenset[str]:
    return english | frozenset(_(msgid).casefold().split())


def please_answer() -> str:
    """What to say to an answer that is neither yes nor no."""
    yes, no = _(YES_WORDS).split(), _(NO_WORDS).split()
    return _("Please answer {yes} or {no}.").format(
        yes=yes[0] if yes else "y", no=no[0] if no else "n"
    )


def is_yes(answer: str) -> bool:
    """Whether *answer* (as typed) says yes, in the user's language or in English."""
    return answer.strip().casefold() in _words(YES_WORDS, _ENGLISH_YES)


def is_no(answer: str) -> bool:
    """Whether *answer* says no (an empty answer does: no is the default)."""
    text = answer.strip().casefold()
    return not text or text in _words(NO_WORDS, _ENGLISH_NO)
