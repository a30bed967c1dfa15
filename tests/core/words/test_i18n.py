"""Translations: the catalogs are complete and current, plural forms follow CLDR, the language
is chosen as documented and switches at once, and records stay language-neutral.

Completeness is checked for the languages listed in ``core/locale/COMPLETE``: a
translator adds their language there when its catalog is done, and from then on a missing,
empty, fuzzy or mismatched entry, or a new source string nobody translated, fails here. The
machinery itself is checked with a pseudo-translation of every msgid (``⟦...⟧``), so it is
tested before any real catalog is filled.
"""

from __future__ import annotations

import gettext
import io
import os
import re
import shutil
import string
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from click.testing import CliRunner
from tmux_terminal import TMUX, Terminal

from cinco.core.tools.i18n_tools import POT, ROOT, pybabel_steps
from cinco.core.words import i18n

#: Each test leaves the language as it found it: English (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("english_afterwards")

LOCALE = ROOT / "core" / "locale"
CINCO = str(Path(sys.executable).with_name("cinco"))

#: The shipped languages other than the source, and those of them that are complete.
TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.SOURCE_LANGUAGE]
COMPLETE = [code for code in i18n.complete_languages() if code != i18n.SOURCE_LANGUAGE]
#: Every complete language, English included (the checks that need no catalog run for it too).
PLAYABLE = [i18n.SOURCE_LANGUAGE, *COMPLETE]

#: The counts the issue names, for every plural check.
COUNTS = (1, 2, 5, 11, 21, 22, 25)
PSEUDO = "uk"  # the shipped code the pseudo-translation is installed under


def po_path(code: str) -> Path:
    return LOCALE / code / "LC_MESSAGES" / "cinco.po"


def load_po(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def msgids(catalog: Catalog) -> set[object]:
    return {message.id for message in catalog if message.id}


def placeholders(text: str) -> list[tuple[str, str | None, str | None]]:
    """The ``{name!r:.2f}`` fields and ``%(name)s`` specifiers of *text*, sorted."""
    fields = [
        (name, conversion, spec)
        for _literal, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    ]
    fields += [(name, None, kind) for name, kind in re.findall(r"%\((\w+)\)([sdfr])", text)]
    return sorted(fields, key=repr)


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without any locale choice (English), plus *extra*."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in (*i18n.LOCALE_VARIABLES, i18n.ENV_VAR, i18n.LOCALE_DIR_VAR)
    }
    env["LANG"] = "C.UTF-8"
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def pseudo_dir() -> Iterator[Path]:
    """A catalog folder where language ``uk`` is every msgid wrapped in ``⟦ ⟧``."""
    folder = Path(tempfile.mkdtemp(prefix="cinco-pseudo-"))
    catalog = load_po(ROOT / POT, locale=PSEUDO)
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            forms = catalog.num_plurals
            ids = list(message.id)
            message.string = tuple(f"⟦{ids[min(k, 1)]}⟧" for k in range(forms))
        else:
            message.string = f"⟦{message.id}⟧"
    out = folder / PSEUDO / "LC_MESSAGES"
    out.mkdir(parents=True)
    with (out / "cinco.mo").open("wb") as file:
        write_mo(file, catalog)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


# -- the catalogs -----------------------------------------------------------------------------


def test_pot_is_current_with_the_sources(tmp_path: Path) -> None:
    """Re-extract the sources: a new or changed string without `extract`+`update` fails."""
    fresh = tmp_path / "fresh.pot"
    (argv,) = pybabel_steps("extract")
    argv[argv.index("-o") + 1] = str(fresh)
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        CommandLineInterface().run(["pybabel", "-q", *argv])
    finally:
        os.chdir(here)
    committed, extracted = msgids(load_po(ROOT / POT)), msgids(load_po(fresh))
    assert committed == extracted, (
        f"core/locale/cinco.pot is stale: new {sorted(map(str, extracted - committed))[:5]}, "
        f"gone {sorted(map(str, committed - extracted))[:5]}. Run: "
        "python -m cinco.core.tools.i18n_tools all"
    )


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_catalog_follows_the_pot(code: str) -> None:
    """Each shipped .po holds exactly the template's msgids (``update`` was run)."""
    assert po_path(code).exists(), (
        f"no catalog for {code}: python -m cinco.core.tools.i18n_tools init"
    )
    catalog = load_po(po_path(code))
    assert msgids(catalog) == msgids(load_po(ROOT / POT)), (
        f"{po_path(code)} is not updated: python -m cinco.core.tools.i18n_tools update"
    )


@pytest.mark.parametrize("code", TRANSLATED)
def test_mo_is_compiled_from_its_po(code: str) -> None:
    buffer = io.BytesIO()
    write_mo(buffer, load_po(po_path(code)))
    buffer.seek(0)
    expected = gettext.GNUTranslations(buffer)._catalog  # type: ignore[attr-defined]
    with (po_path(code).with_suffix(".mo")).open("rb") as file:
        shipped = gettext.GNUTranslations(file)._catalog  # type: ignore[attr-defined]
    assert shipped == expected, (
        f"{code}'s .mo is stale: python -m cinco.core.tools.i18n_tools compile"
    )


def test_complete_languages_are_shipped() -> None:
    assert set(i18n.complete_languages()) <= set(i18n.LANGUAGES)


@pytest.mark.parametrize("code", COMPLETE)
def test_complete_catalog_has_every_entry(code: str) -> None:
    catalog = load_po(po_path(code))
    problems = []
    for message in catalog:
        if not message.id:
            continue
        ids = list(message.id) if isinstance(message.id, tuple | list) else [message.id]
        strings = (
            list(message.string) if isinstance(message.string, tuple | list) else [message.string]
        )
        where = repr(ids[0])[:60]
        if message.fuzzy:
            problems.append(f"fuzzy: {where}")
        if not all(strings) or (message.pluralizable and len(strings) != catalog.num_plurals):
            problems.append(f"missing or empty: {where}")
            continue
        # Each form keeps the placeholders of the singular or of the plural msgid (a Slavic
        # form [0] serves 1 and 21, so it may need the plural's {n}).
        wanted = [placeholders(i) for i in ids]
        for text in strings:
            if placeholders(text) not in wanted:
                problems.append(f"placeholders differ: {where} -> {text!r}")
    assert not problems, f"{code}: {len(problems)} problems:\n" + "\n".join(problems[:30])


def _cldr_index(code: str, n: int) -> int:
    """The gettext form index CLDR expects for *n*: the categories whole numbers take in
    *code*, in CLDR's order (zero, one, two, few, many, other), as Babel numbers the forms."""
    order = ("zero", "one", "two", "few", "many", "other")
    rule = Locale.parse(code).plural_form
    samples = [*range(0, 1000), 10**6, 2 * 10**6, 10**9]  # Italian has a form for millions
    used = sorted({rule(k) for k in samples}, key=order.index)
    return used.index(rule(n))


@pytest.mark.parametrize("code", TRANSLATED)
def test_plural_forms_header_agrees_with_cldr(code: str) -> None:
    catalog = load_po(po_path(code))
    header = catalog.plural_forms  # "nplurals=3; plural=(...);"
    expression = re.search(r"plural=(.*?);?\s*$", header)
    assert expression, header
    plural = gettext.c2py(expression.group(1))
    got = {n: plural(n) for n in COUNTS}
    expected = {n: _cldr_index(code, n) for n in COUNTS}
    assert got == expected, f"{code}: Plural-Forms {header!r} gives {got}, CLDR {expected}"


@pytest.mark.parametrize("code", COMPLETE)
def test_counted_messages_take_the_language_form(code: str) -> None:
    """A complete catalog's counted texts have a distinct text per form, chosen by CLDR."""
    i18n.set_language(code)
    catalog = load_po(po_path(code))
    counted = [m for m in catalog if m.id and m.pluralizable]
    assert counted
    for message in counted:
        singular, plural = message.id[0], message.id[1]
        for n in COUNTS:
            shown = i18n.ngettext(singular, plural, n)
            assert shown == message.string[_cldr_index(code, n)], (code, singular, n)


# -- choosing the language --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "environ", "expected"),
    [
        (None, {}, "en"),
        (None, {"LANG": "uk_UA.UTF-8"}, "uk"),
        (None, {"LANG": "uk_UA.UTF-8", "LC_MESSAGES": "cs_CZ.UTF-8"}, "cs"),
        (None, {"LANG": "uk_UA.UTF-8", "LC_ALL": "ru_RU.UTF-8", "LC_MESSAGES": "cs_CZ"}, "ru"),
        (None, {"LANGUAGE": "it:uk", "LC_ALL": "ru_RU.UTF-8"}, "it"),
        (None, {"LANGUAGE": "de:uk", "LANG": "ru_RU.UTF-8"}, "uk"),
        (None, {"LANG": "de_DE.UTF-8"}, "en"),  # a language Cinco lacks: English
        (None, {"LANG": "C.UTF-8"}, "en"),
        (None, {"LANG": "uk_UA.UTF-8", "CINCO_LANG": "cs"}, "cs"),
        ("it", {"LANG": "uk_UA.UTF-8", "CINCO_LANG": "cs"}, "it"),
        ("en", {"LANGUAGE": "ru"}, "en"),
    ],
)
def test_language_precedence(option: str | None, environ: dict[str, str], expected: str) -> None:
    assert i18n.choose_language(option, environ) == expected


def test_unknown_language_names_the_languages() -> None:
    with pytest.raises(i18n.UnknownLanguage) as caught:
        i18n.set_language("xx")
    for code, name in i18n.LANGUAGES.items():
        assert code in str(caught.value) and name in str(caught.value)
    with pytest.raises(i18n.UnknownLanguage):
        i18n.choose_language(None, {"CINCO_LANG": "klingon"})


@pytest.mark.parametrize(
    ("args", "env", "hint"),
    [(["--lang", "xx", "rules"], {}, "'--lang'"), (["--help"], {"CINCO_LANG": "zz"}, "CINCO_LANG")],
)
def test_cli_refuses_an_unknown_language(args: list[str], env: dict[str, str], hint: str) -> None:
    done = subprocess.run(
        [CINCO, *args], env=clean_env(**env), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert hint in done.stderr and "Unknown language" in done.stderr
    assert all(code in done.stderr for code in i18n.LANGUAGES), done.stderr


def _cli(args: list[str], env: dict[str, str]) -> str:
    from cinco.frontends.main import main

    result = CliRunner().invoke(main, args, env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_help_follows_lang_option_env_and_locale(pseudo_dir: Path) -> None:
    """`cinco --lang uk --help`, a subcommand's help, CINCO_LANG and LANG: all translated
    (the pseudo-translation), and the option beats the variable beats the locale."""
    os.environ[i18n.LOCALE_DIR_VAR] = str(pseudo_dir)
    base = {key: "" for key in (*i18n.LOCALE_VARIABLES, i18n.ENV_VAR)}
    english = _cli(["--help"], base)
    assert "⟦" not in english and "Usage:" in english
    for args, env in [
        (["--lang", "uk", "--help"], base),
        (["--help"], {**base, "CINCO_LANG": "uk"}),
        (["--help"], {**base, "LANG": "uk_UA.UTF-8"}),
        (["--lang", "uk", "--help"], {**base, "CINCO_LANG": "en"}),
    ]:
        shown = _cli(args, env)
        assert "⟦Usage:⟧" in shown and "⟦Show this message and exit.⟧" in shown, args
        assert "⟦Cinco: five in a row" in shown
    shown = _cli(["--lang", "en", "--help"], {**base, "CINCO_LANG": "uk"})
    assert "⟦" not in shown
    # A subcommand's help: its docstring and its options.
    shown = _cli(["--lang", "uk", "board", "--help"], base)
    assert "⟦Draw the board" in shown and "⟦Print the spaces' coordinates as JSON.⟧" in shown
    shown = _cli(["--lang", "uk", "rules"], base)
    assert "⟦# Cinco⟧" in shown or "⟦" in shown
    # The language in force before the command is back afterwards.
    assert i18n.current_language() == "en"


# -- switching at run time and records --------------------------------------------------------


def test_switching_language_changes_the_narrator_at_once(pseudo_dir: Path) -> None:
    from cinco.core.engine.config import GameConfig
    from cinco.core.engine.events import CardPlayed, TurnEnded
    from cinco.core.words.messages import render
    from cinco.frontends.narration import Narrator

    os.environ[i18n.LOCALE_DIR_VAR] = str(pseudo_dir)
    narrator = Narrator(GameConfig.for_players(2), viewer=1, in_setup=False)
    narrator.feed(CardPlayed(seat=0, card=34, space=36))
    narrator.feed(TurnEnded(seat=0, action="play", next_seat=1))
    assert narrator.lines[-1].text == "Ann played 34 and placed on 36"
    i18n.set_language(PSEUDO)
    assert i18n.current_language() == PSEUDO
    narrator.feed(CardPlayed(seat=0, card=40, space=None))
    narrator.feed(TurnEnded(seat=0, action="play", next_seat=1))
    assert narrator.lines[-1].text == "⟦{name}'s {card} burned⟧".format(name="Ann", card=40)
    assert render("space_taken", {"space": 34}) == "⟦Space 34 is already taken.⟧"
    i18n.set_language("en")
    assert render("space_taken", {"space": 34}) == "Space 34 is already taken."


@pytest.mark.parametrize("code", PLAYABLE)
def test_real_catalog_switches_the_narrator(code: str) -> None:
    from cinco.core.words.messages import render

    i18n.set_language(code)
    expected = i18n._("Space {space} is already taken.").format(space=34)
    assert render("space_taken", {"space": 34}) == expected
    if code != i18n.SOURCE_LANGUAGE:
        assert expected != "Space 34 is already taken."


def test_records_are_language_neutral(pseudo_dir: Path, tmp_path: Path) -> None:
    """The same seeded games recorded in English and in the pseudo-language hold the same
    events, and a record made in one language replays to the same state in the other."""
    from cinco.core.records.record import load_record

    records = {}
    for lang in ("en", PSEUDO):
        folder = tmp_path / lang
        env = clean_env(CINCO_LOCALE_DIR=str(pseudo_dir), CINCO_DATA_DIR=str(tmp_path))
        done = subprocess.run(
            [CINCO, "--lang", lang, "simulate", "--bots", "greedy,random", "--games", "2",
             "--seed", "5", "--records", str(folder)],
            env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert ("⟦" in done.stdout) == (lang == PSEUDO), done.stdout
        records[lang] = sorted(folder.glob("*.jsonl"))
        assert records[lang]
    for en_file, other_file in zip(records["en"], records[PSEUDO], strict=True):
        assert "⟦" not in other_file.read_text(encoding="utf-8")
        assert load_record(en_file).events == load_record(other_file).events
        states = set()
        for lang in ("en", PSEUDO):
            done = subprocess.run(
                [CINCO, "--lang", lang, "replay", "--json", str(other_file)],
                env=clean_env(CINCO_LOCALE_DIR=str(pseudo_dir)),
                capture_output=True, text=True, timeout=60,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            states.add(done.stdout)
        assert len(states) == 1


# -- the terminal game in each language, under tmux -------------------------------------------


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    if TMUX is None:
        pytest.skip("tmux is not installed (.ci/run installs it)")
    folder = Path(tempfile.mkdtemp(prefix="cinco-tmux-"))
    term = Terminal(folder / "sock")
    yield term
    subprocess.run([TMUX, "-S", str(term.socket), "kill-server"], capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)


def longest_literal(text: str) -> str:
    """The longest stretch of *text* between its placeholders (what a screen must show)."""
    parts = [literal for literal, *_ in string.Formatter().parse(text)]
    return max((part.strip() for part in parts), key=len)


def play_a_short_game(terminal: Terminal, tmp_path: Path, lang: str, env: str = "") -> str:
    """Start a game in *lang*, make a refused move and a draw or play, open the help, quit;
    returns everything the screen showed."""
    record = tmp_path / "game.jsonl"
    command = (
        f"env {env} LANG=C.UTF-8 CINCO_DATA_DIR={tmp_path} TERM=xterm-256color {CINCO} "
        f"--lang {lang} --players 2 --bot 2=greedy --seed 7 --delay 0 --record {record}; "
        "sleep 60"
    )
    terminal.tmux("new-session", "-d", "-s", "game", "-x", "100", "-y", "30", command)
    prompt = longest_literal(i18n._("{name}, your move: "))
    seen = [terminal.wait_for(lambda s: prompt in s, "the prompt")]
    terminal.keys("d")  # the hand is full: refused, with the engine's reason
    refusal = longest_literal(
        i18n.ngettext(
            "Your hand is full ({limit} card): play a card or exchange your hand.",
            "Your hand is full ({limit} cards): play a card or exchange your hand.",
            4,
        )
    )
    seen.append(terminal.wait_for(lambda s: refusal[:20] in s, "the refusal"))
    terminal.keys("?")
    from cinco.frontends.terminal.help import help_text

    help_title = help_text().splitlines()[0].strip()
    seen.append(terminal.wait_for(lambda s: help_title in s, "the help"))
    terminal.keys("")
    terminal.keys("q")
    saved = longest_literal(i18n._("Game saved in {path}"))
    seen.append(terminal.wait_for(lambda s: saved[:15] in s, "the saved message"))
    return "\n".join(seen)


@pytest.mark.tmux
@pytest.mark.parametrize("lang", PLAYABLE)
def test_terminal_game_in_each_language(terminal: Terminal, tmp_path: Path, lang: str) -> None:
    i18n.set_language(lang)
    shown = play_a_short_game(terminal, tmp_path, lang)
    for msgid in ("Draw pile {draw} · discard {discard}", "Turn {n} · {name} to move"):
        assert longest_literal(i18n._(msgid)) in shown, msgid


@pytest.mark.tmux
def test_terminal_game_is_all_translated(
    terminal: Terminal, tmp_path: Path, pseudo_dir: Path
) -> None:
    """Under the pseudo-translation, the table, its keys line, the prompt, a refusal and the
    help all come from the catalog (every msgid is wrapped in ⟦ ⟧)."""
    os.environ[i18n.LOCALE_DIR_VAR] = str(pseudo_dir)
    i18n.set_language(PSEUDO)
    shown = play_a_short_game(terminal, tmp_path, PSEUDO, env=f"CINCO_LOCALE_DIR={pseudo_dir}")
    for start in ("⟦Draw pile", "⟦Turn", "⟦Play a card: type it", "⟦Recent moves⟧", "⟦Tokens⟧"):
        assert start in shown, start
    assert "⟦Your hand is full" in shown and "⟦How to play" in shown
