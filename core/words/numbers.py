"""Numbers as the language being spoken writes them: decimal commas, percent signs, grouping.

Every number shown to a person in a sentence (statistics, shares, durations, a bot's time)
goes through this module, which formats it with Babel's CLDR data for the language of
:func:`~cinco.core.words.i18n.speaking_language`. So Czech reads ``52,4 %`` and ``0,01 s``
wherever English reads ``52.4%`` and ``0.01 s``, the same in every command.

The messages keep their Python format specifications (``{seconds:.2f} s``, ``{share:.1%}``):
a translator sees what kind of number goes there, and :func:`local` wraps the parameters so
that the specification is applied the language's way (:class:`Local`).

Numbers a person types back are not formatted here: a seed, a space, a card, a command-line
default (``--delay 0.6``: the option reads a point), the terminal's ``mm:ss`` clocks.

>>> from cinco.core.words.i18n import speaking
>>> with speaking("cs"):
...     percent(0.524), decimal(0.01, 2), "{t:.2f} s, {p:.1%}".format(**local(t=0.01, p=0.324))
('52,4\\xa0%', '0,01', '0,01 s, 32,4\\xa0%')
>>> with speaking("ru"):
...     decimal(12345.678, 1), whole(1234567)
('12\\xa0345,7', '1\\xa0234\\xa0567')
>>> with speaking("it"):
...     "{n:g} Elo, {k} games, {share:.0%}".format(**local(n=2.5, k=1000, share=0.5))
'2,5 Elo, 1.000 games, 50%'
>>> percent(0.524), decimal(2.0, 2), "{x:>6.1f}|".format(x=Local(3.14159))
('52.4%', '2.00', '   3.1|')
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.numbers import NumberPattern, parse_pattern

from cinco.core.words.i18n import SOURCE_LANGUAGE, speaking_language

#: A format specification: ``[[fill]align][sign][width][,][.precision][type]``.
_SPEC = re.compile(
    r"(?P<align>(?:.?[<>=^])?)(?P<sign>[+\- ]?)(?P<width>\d*)(?P<group>[,_]?)"
    r"(?:\.(?P<precision>\d+))?(?P<type>[dnfFgG%]?)"
)


@functools.lru_cache(maxsize=16)
def _locale(code: str) -> Locale:
    try:
        return Locale.parse(code)
    except (UnknownLocaleError, ValueError):  # not a CLDR locale: the source language's way
        return Locale.parse(SOURCE_LANGUAGE)


@functools.lru_cache(maxsize=64)
def _pattern(pattern: str) -> NumberPattern:
    # Parsed once: Babel would parse the pattern at each number (most of its time).
    return parse_pattern(pattern)


def _format(value: float, pattern: str, locale: Locale) -> str:
    return str(_pattern(pattern).apply(value, locale, decimal_quantization=True))


def _here(code: str | None) -> Locale:
    return _locale(code or speaking_language())


def _finite(value: float) -> bool:
    return not isinstance(value, float) or math.isfinite(value)


def whole(value: int, code: str | None = None) -> str:
    """A whole number with the language's grouping (``1,000``, Czech ``1 000``)."""
    if not _finite(value):
        return str(value)
    return _format(value, "#,##0", _here(code))


def decimal(value: float, digits: int | None = None, code: str | None = None) -> str:
    """*value* with exactly *digits* decimals (``None``: as many as needed, up to 6),
    the language's decimal sign and grouping."""
    if not _finite(value):
        return str(value)
    fraction = "#" * 6 if digits is None else "0" * digits
    pattern = "#,##0" + ("." + fraction if fraction else "")
    return _format(value, pattern, _here(code))


def percent(share: float, digits: int = 1, code: str | None = None) -> str:
    """*share* (0.524) as a percentage with *digits* decimals, the language's way: its
    decimal sign and where the percent sign goes (``52.4%``, Czech ``52,4 %``)."""
    if not _finite(share):
        return str(share)
    locale = _here(code)
    pattern = locale.percent_formats[None].pattern.split(";")[0]
    if digits:  # the pattern's last 0 is the one before the fraction: "#,##0 %" -> "#,##0.0 %"
        head, _zero, tail = pattern.rpartition("0")
        pattern = f"{head}0.{'0' * digits}{tail}"
    return _format(share, pattern, locale)


class Local:
    """A number that a ``str.format`` specification formats the language's way:
    ``f`` (fixed decimals), ``%`` (a percentage), ``g`` (up to 6 significant digits,
    no trailing zeros), ``d``/none (whole numbers, grouped); width and alignment as usual."""

    __slots__ = ("value",)

    def __init__(self, value: float) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Local({self.value!r})"

    def __str__(self) -> str:
        return self.__format__("")

    def __format__(self, spec: str) -> str:
        match = _SPEC.fullmatch(spec)
        if match is None:  # something this module does not know: Python's way
            return format(self.value, spec)
        text = self._text(match["type"], match["precision"])
        if match["sign"] == "+" and self.value >= 0:
            text = "+" + text
        return format(text, match["align"] + match["width"]) if match["width"] else text

    def _text(self, kind: str, precision: str | None) -> str:
        value, digits = self.value, None if precision is None else int(precision)
        if kind == "%":
            return percent(value, 6 if digits is None else digits)
        if kind in "fF" and kind:
            return decimal(value, 6 if digits is None else digits)
        if kind in "gG" and kind:
            rounded = float(format(value, f".{digits or 6}g")) if _finite(value) else value
            return decimal(rounded)
        if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
            return whole(int(value)) if _finite(value) else str(value)
        return decimal(value)


def local(**params: Any) -> dict[str, Any]:
    """*params* with every number (not a bool) wrapped in :class:`Local`: for
    ``template.format(**local(...))``."""
    return {key: _wrap(value) for key, value in params.items()}


def localized(params: Mapping[str, Any]) -> dict[str, Any]:
    """Like :func:`local`, for a mapping of a message's parameters."""
    return {key: _wrap(value) for key, value in params.items()}


def _wrap(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return Local(value)
    return value
