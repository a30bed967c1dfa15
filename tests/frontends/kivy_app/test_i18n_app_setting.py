"""The Kivy app's language setting, without a display: ``--lang``/``CINCO_LANG`` outrank the
language chosen in the app, which outranks the system locale; a damaged settings file costs
the setting, not the start."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cinco.core.words import i18n
from cinco.frontends.kivy_app import language


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.init_language("en")


def test_the_saved_language_is_used_when_nobody_asked_for_one(tmp_path: Path) -> None:
    language.remember_language("cs", tmp_path)
    i18n.init_language(None, {"LANG": "it_IT.UTF-8"})
    assert language.start_language(tmp_path) == "cs"


@pytest.mark.parametrize(
    ("option", "environ"), [("uk", {}), (None, {"CINCO_LANG": "uk", "LANG": "it_IT"})]
)
def test_lang_and_cinco_lang_outrank_the_saved_language(
    tmp_path: Path, option: str | None, environ: dict[str, str]
) -> None:
    language.remember_language("cs", tmp_path)
    i18n.init_language(option, environ)
    assert language.start_language(tmp_path) == "uk"


def test_without_a_saved_language_the_system_locale_decides(tmp_path: Path) -> None:
    i18n.init_language(None, {"LANG": "ru_RU.UTF-8"})
    assert language.start_language(tmp_path) == "ru"


@pytest.mark.parametrize("content", ["{not json", '["cs"]', '{"language": "xx"}', ""])
def test_a_damaged_or_stale_settings_file_is_ignored(tmp_path: Path, content: str) -> None:
    (tmp_path / language.SETTINGS_FILE).write_text(content, encoding="utf-8")
    i18n.init_language(None, {"LANG": "C.UTF-8"})
    assert language.saved_language(tmp_path) is None
    assert language.start_language(tmp_path) == "en"
    language.remember_language("it", tmp_path)  # and it is written anew
    assert language.saved_language(tmp_path) == "it"


def test_the_chooser_names_every_language_by_its_own_name() -> None:
    names = language.language_names()
    assert names == list(i18n.LANGUAGES.values())
    assert [language.code_of(name) for name in names] == list(i18n.LANGUAGES)
    assert language.code_of("Klingon") is None
