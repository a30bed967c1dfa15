"""Every character the Kivy app may draw as text is in the font it draws it with (issue 14):
every translation of every complete language, and the English msgids. Kivy has no font
fallback, so a missing glyph would show as an empty box. (The team symbols ● ▲ ■, which
Roboto lacks, are drawn as shapes on the canvas, never as text.)"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from cinco.core.words import i18n

ttLib = pytest.importorskip("fontTools.ttLib")
kivy = pytest.importorskip("kivy", reason="the fonts are Kivy's own")

FONTS = Path(kivy.__file__).resolve().parent / "data" / "fonts"
#: The app draws its texts in Kivy's default font, regular and bold.
APP_FONTS = ("Roboto-Regular.ttf", "Roboto-Bold.ttf")


def characters(language: str) -> dict[str, str]:
    """Every visible character of *language*'s catalog, with a msgid it appears in."""
    path = i18n.LOCALE_DIR / language / "LC_MESSAGES" / "cinco.po"
    source = i18n.LOCALE_DIR / "cinco.pot" if language == "en" else path
    with source.open("rb") as handle:
        catalog = read_po(handle)
    found: dict[str, str] = {}
    for message in catalog:
        if not message.id:
            continue
        texts = message.id if language == "en" else message.string
        for text in texts if isinstance(texts, tuple) else (texts,):
            for char in text or "":
                if not char.isspace() and unicodedata.category(char)[0] != "C":
                    found.setdefault(char, str(message.id)[:60])
    return found


def cmap(font: str) -> set[int]:
    with ttLib.TTFont(FONTS / font) as loaded:
        return set(loaded.getBestCmap())


@pytest.mark.parametrize("font", APP_FONTS)
@pytest.mark.parametrize("language", i18n.complete_languages())
def test_the_app_font_has_every_character_of_the_language(language: str, font: str) -> None:
    have = cmap(font)
    missing = {char: where for char, where in characters(language).items() if ord(char) not in have}
    assert not missing, f"{font} lacks {sorted(missing)} ({language}: {missing})"


def test_the_check_finds_a_missing_glyph() -> None:
    # the same check, on a character Roboto does not have (a star): it must be reported
    assert ord("★") not in cmap("Roboto-Regular.ttf")
