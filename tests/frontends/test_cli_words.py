"""Everything the command line shows is in the user's language (issue 27): click's usage line
and placeholders (``[OPTIONS]``, ``INTEGER RANGE``), the ``[y/N]`` questions and the answers
accepted (``т`` in Ukrainian, ``д`` in Russian, ``a`` in Czech, ``s`` in Italian), the names
of variants; and no English game term is left in `cinco rules` or any `--help` in another
language.

The machinery is checked with a catalog of its own (the shipped Ukrainian one, plus the words
under test), so that it is tested whatever the shipped catalogs hold; the last tests read the
shipped catalogs, and fail while a translation is missing.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from click.testing import CliRunner
from english_terms import english_terms

from cinco.core.words import i18n
from cinco.core.words.answers import is_no, is_yes, yes_no_hint
from cinco.core.words.i18n import speaking
from cinco.frontends.cli_i18n import METAVARS, english_metavar
from cinco.frontends.main import COMMANDS, load, main

#: Each test leaves the language as it found it: English (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("english_afterwards")

LOCALE = Path(i18n.LOCALE_DIR)

#: The words under test, in the test's Ukrainian catalog.
TEST_WORDS = {
    "[OPTIONS]": "[ПАРАМЕТРИ]",
    "[COMMAND] [ARGS]...": "[КОМАНДА] [АРГУМЕНТИ]...",
    "INTEGER RANGE": "ЦІЛЕ З ПРОМІЖКУ",
    "INTEGER": "ЦІЛЕ",
    "NAME": "НАЗВА",
    "RECORD": "ЗАПИС",
    "[y/N]": "[т/Н]",
    "y yes": "т так",
    "n no": "н ні",
    "Please answer {yes} or {no}.": "Будь ласка, відповідайте {yes} або {no}.",
    "Joker": "Джокер",
    "{variant}: {description} Play with this variant?": "{variant}: {description} Грати з ним?",
}


@pytest.fixture(scope="module")
def test_catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A locale folder whose ``uk`` is the shipped catalog with :data:`TEST_WORDS`."""
    folder = tmp_path_factory.mktemp("words-locale")
    with (LOCALE / "uk" / "LC_MESSAGES" / "cinco.po").open("rb") as file:
        catalog = read_po(file)
    for msgid, text in TEST_WORDS.items():
        catalog.add(msgid, text)
    out = folder / "uk" / "LC_MESSAGES"
    out.mkdir(parents=True)
    with (out / "cinco.mo").open("wb") as file:
        write_mo(file, catalog)
    return folder


def help_text(*args: str, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(
        main, [*args, "--help"], env=env, catch_exceptions=False, prog_name="cinco"
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_the_usage_line_and_placeholders_are_translated(test_catalog: Path) -> None:
    env = {i18n.LOCALE_DIR_VAR: str(test_catalog)}
    top = help_text("--lang", "uk", env=env)
    assert "cinco [ПАРАМЕТРИ] [КОМАНДА] [АРГУМЕНТИ]..." in top
    assert "[OPTIONS]" not in top and "[COMMAND]" not in top
    simulate = help_text("--lang", "uk", "simulate", env=env)
    assert "--games ЦІЛЕ З ПРОМІЖКУ" in simulate and "--variant НАЗВА" in simulate
    assert "--seed ЦІЛЕ" in simulate
    assert "ЗАПИС" in help_text("--lang", "uk", "replay", env=env)
    # What one types stays as it is typed: the options, a choice's values.
    assert "--frontend [cli|kivy]" in top
    # And English again, in the same process (the English msgids were kept).
    english = help_text("--lang", "en", "simulate")
    assert "[OPTIONS]" in english and "--games INTEGER RANGE" in english


def test_yes_or_no_in_the_users_language(test_catalog: Path) -> None:
    os.environ[i18n.LOCALE_DIR_VAR] = str(test_catalog)
    i18n.set_language("uk")
    assert yes_no_hint() == "[т/Н]"
    assert is_yes("т") and is_yes(" Так ") and is_yes("y") and is_yes("YES")
    assert is_no("") and is_no("н") and is_no("ні") and is_no("n")
    assert not is_yes("") and not is_yes("н") and not is_no("т")


def test_the_terminal_setup_asks_yes_or_no_in_the_users_words(
    test_catalog: Path, tmp_path: Path
) -> None:
    """`cinco` with no options: the variant is asked by its name, in the user's language,
    answered with the language's yes; the table then names it so."""
    typed = "s\n2\n\ngreedy\nт\nq\n"
    env = {
        **os.environ,
        i18n.LOCALE_DIR_VAR: str(test_catalog),
        "CINCO_DATA_DIR": str(tmp_path),
        "COLUMNS": "100",
        "LINES": "40",
    }
    cinco = str(Path(sys.executable).with_name("cinco"))
    ran = subprocess.run(
        [cinco, "--lang", "uk", "--seed", "1"],
        input=typed,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    out = ran.stdout
    assert "Джокер: " in out and "Грати з ним? [т/Н]" in out, out
    assert re.search(r"Варіанти: Джокер", out), out
    assert "joker" not in out


def test_the_english_term_finder_finds_what_it_should() -> None:
    assert english_terms("Usage: cinco rules [OPTIONS]  `--layout 2x3` Spaces 34") == [
        "OPTIONS",
        "Spaces",
        "Usage",
    ]
    assert english_terms("  board     Nakreslit hrací plochu, například joker") == []


LANGS = [code for code in i18n.LANGUAGES if code != i18n.SOURCE_LANGUAGE]


@pytest.mark.parametrize("code", LANGS)
def test_no_english_game_term_in_cinco_rules(code: str) -> None:
    result = CliRunner().invoke(
        main, ["--lang", code, "rules"], catch_exceptions=False, prog_name="cinco"
    )
    assert result.exit_code == 0, result.output
    assert english_terms(result.output, code) == [], result.output


@pytest.mark.parametrize("code", LANGS)
def test_no_english_game_term_in_any_help(code: str) -> None:
    left: dict[str, list[str]] = {}
    for command in ["", *sorted(COMMANDS)]:
        args = ["--lang", code, *([command] if command else [])]
        found = english_terms(help_text(*args), code)
        if found:
            left[command or "cinco"] = found
    assert not left, left


def test_english_is_still_english_and_the_terms_are_found_there() -> None:
    """The check can fail: English output is full of the terms."""
    assert {"Usage", "OPTIONS", "players"} <= set(english_terms(help_text("simulate")))
    with speaking("en"):
        assert yes_no_hint() == "[y/N]"


def test_the_help_stays_quick_without_babel() -> None:
    """Numbers need Babel, the help does not: `cinco --help` (and shell completion) does not
    load it, nor the number formatting."""
    probe = (
        "import sys\n"
        "from cinco.frontends.main import main\n"
        "try:\n"
        "    main(['--lang', 'cs', '--help'], prog_name='cinco')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('babel', 'cinco.core.words'))))\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    loaded = ran.stdout.strip().splitlines()[-1]
    assert "babel" not in loaded and "numbers" not in loaded, loaded


def test_cinco_rules_names_the_installed_variants_to_type_and_to_read() -> None:
    result = CliRunner().invoke(main, ["--lang", "cs", "rules", "--variant", "nope"])
    assert result.exit_code == 2
    assert "joker (Žolík)" in result.output  # what to type, and its name in Czech
    one = CliRunner().invoke(main, ["--lang", "cs", "rules", "--variant", "joker"])
    assert one.exit_code == 0 and "### Žolík" in one.output and "### joker" not in one.output


def test_every_placeholder_of_every_command_is_a_msgid() -> None:
    """A new option's placeholder (or a new type's) is in METAVARS, so the extractor puts it
    in the catalog and translators see it."""
    commands: list[click.Command] = [main] + [load(path) for path, _line in COMMANDS.values()]
    missing = set()
    while commands:
        command = commands.pop()
        for param in command.params:
            if isinstance(param, click.Option) and param.is_flag:
                continue
            metavar = english_metavar(param)
            if metavar is not None and metavar not in METAVARS:
                missing.add(f"{command.name}: {metavar}")
        if isinstance(command, click.Group):
            commands += list(command.commands.values())
    assert not missing, sorted(missing)
