"""A plugin's own words (issue 25): a variant's title, description, rules text and end
reasons, a layout's description and a bot's title, translated through the plugin's own
gettext domain (its .mo files, cinco.core.words.domains), and shown so by `cinco rules`, the
narrator (the terminal, the Kivy app and the web page all tell the end with it) and the web
client's lobby. The built-in plugins' words are in Cinco's own catalog."""

from __future__ import annotations

import pickle
import types
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from cinco.core.engine.config import GameConfig, Layout
from cinco.core.engine.events import GameEnded
from cinco.core.engine.state import GameState
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host.declarations import Variant
from cinco.core.host.registry import Registry
from cinco.core.words import i18n
from cinco.core.words.domains import DomainText, TextDomain
from cinco.core.words.i18n import _, ngettext, speaking
from cinco.core.words.messages import end_reason
from cinco.frontends.narration import describe_result, variant_label, variant_labels
from cinco.frontends.terminal.rules_text import rules_page
from cinco.frontends.web.narrated import table_choices

#: Each test leaves the language as it found it: English (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("english_afterwards")

DOMAIN = "cinco_words_test"

#: The plugin's Czech catalog: msgid → translation.
CZECH = {
    "Dice": "Kostky",
    "A die decides where a burnt card goes.": "Kostka rozhodne, kam jde spálená karta.",
    "Roll the die: the space it shows is yours.": "Hoď kostkou: pole, které padne, je tvoje.",
    "the die ran out": "kostce došla čísla",
    "6 players in 3 rows": "6 hráčů ve 3 řadách",
    "Die thrower": "Házeč",
}


@pytest.fixture(scope="module")
def locale_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A plugin's compiled catalogs, laid out as pybabel compiles them."""
    folder = tmp_path_factory.mktemp("plugin-locale")
    catalog = Catalog(locale="cs", domain=DOMAIN)
    for msgid, text in CZECH.items():
        catalog.add(msgid, text)
    catalog.add(("{n} pip", "{n} pips"), ("{n} oko", "{n} oka", "{n} ok"))
    out = folder / "cs" / "LC_MESSAGES"
    out.mkdir(parents=True)
    with (out / f"{DOMAIN}.mo").open("wb") as file:
        write_mo(file, catalog)
    return folder


class Plain:
    """Rules that change nothing (the words are what is tested)."""

    @hookimpl
    def cinco_legal_spaces(self, state: GameState, seat: int, card: int) -> tuple[int, ...]:
        return state.free_spaces(card)


def dice_plugin(words: TextDomain) -> types.ModuleType:
    module = types.ModuleType("cinco_dice_for_tests")
    module.CINCO_HOOK_API = 2  # type: ignore[attr-defined]

    @hookimpl
    def cinco_register_variants() -> list[Variant]:
        return [
            Variant(
                "dice",
                words.N_("A die decides where a burnt card goes."),
                rules=Plain(),
                rules_text=words.N_("Roll the die: the space it shows is yours."),
                title=words.N_("Dice"),
                end_reasons={"die_out": words.N_("the die ran out")},
            ),
            # Cinco's own words work in a plugin's domain too.
            Variant("wild", "Wild.", rules=Plain(), title=words.N_("Joker")),
        ]

    @hookimpl
    def cinco_register_layouts() -> list[Layout]:
        return [Layout("3rows", players=6, teams=3, description=words.N_("6 players in 3 rows"))]

    module.cinco_register_variants = cinco_register_variants  # type: ignore[attr-defined]
    module.cinco_register_layouts = cinco_register_layouts  # type: ignore[attr-defined]
    return module


@pytest.fixture
def words(locale_dir: Path) -> TextDomain:
    return TextDomain(DOMAIN, locale_dir)


@pytest.fixture
def registry(words: TextDomain) -> Registry:
    return Registry(entry_points=False, plugins=[dice_plugin(words)])


def test_a_plugins_words_come_from_its_own_catalog(words: TextDomain) -> None:
    title = words.N_("Dice")
    assert title == "Dice" and isinstance(title, str)  # the msgid, for commands and records
    assert _(title) == "Dice"
    with speaking("cs"):
        assert _(title) == "Kostky"
        assert _(words.N_("Joker")) == "Žolík"  # Cinco's catalog behind the plugin's
        assert _(words.N_("Not translated")) == "Not translated"
        one, many = words.Nn_("{n} pip", "{n} pips")
        assert [ngettext(one, many, n).format(n=n) for n in (1, 3, 5)] == [
            "1 oko",
            "3 oka",
            "5 ok",
        ]
    with speaking("uk"):  # no Ukrainian catalog of its own: its English words
        assert _(title) == "Dice"
    # It follows the language the user chose, as Cinco's own words do.
    i18n.set_language("cs")
    assert _(title) == "Kostky"


def test_a_plugins_words_keep_their_domain_through_pickling(words: TextDomain) -> None:
    """Arena workers and bot processes get the declarations pickled."""
    copy = pickle.loads(pickle.dumps(words.N_("Dice")))
    assert isinstance(copy, DomainText) and copy.domain == words
    with speaking("cs"):
        assert _(copy) == "Kostky"


def test_cinco_rules_shows_a_variant_in_its_plugins_words(registry: Registry) -> None:
    with speaking("cs"):
        page = rules_page(registry)
    assert page.count("## Varianty") == 1 or page.count("## Variants") == 1  # one section
    assert "### Kostky" in page and "### dice" not in page
    assert "Kostka rozhodne, kam jde spálená karta." in page
    assert "Hoď kostkou: pole, které padne, je tvoje." in page
    assert "### Žolík" in page  # the second variant's title, in Cinco's words


def test_the_rules_stand_on_their_own_with_one_variants_section() -> None:
    page = rules_page(Registry(entry_points=False))
    assert "rules-reference" not in page and ".md" not in page
    assert page.count("## Variants") == 1
    assert "### Joker" in page and "### joker" not in page
    # Every rule a player needs, with nothing to look up: the piles, the secret hand, the
    # draws (E2, E3, E4), what everyone sees (A7), the six-player layouts (V2).
    for words in ("35th token", "board fills up", "turn limit", "face down", "`--layout 3x2`"):
        assert words in page, words


def test_a_variants_end_reason_is_told_in_its_words(registry: Registry) -> None:
    config = registry.configure(2, variants=["dice"])
    draw = GameEnded(seat=0, action="play", winner=None, reason="die_out")
    won = GameEnded(seat=0, action="play", winner=1, reason="die_out")
    assert describe_result(config, draw) == "A draw: the die ran out."
    with speaking("cs"):
        assert "kostce došla čísla" in describe_result(config, draw)
        assert "kostce došla čísla" in describe_result(config, won)
        assert end_reason("die_out") == "kostce došla čísla"
        assert "die_out" not in describe_result(config, won)
    # A reason nobody declared words for is still told (as its code), and a win on a line
    # says the line, as always.
    assert "odd_reason" in describe_result(
        config, GameEnded(seat=0, action="play", winner=None, reason="odd_reason")
    )
    plain = GameConfig.for_players(2)
    line = GameEnded(seat=0, action="play", winner=0, reason="line", line=(1, 2, 3, 4, 5))
    assert describe_result(plain, line) == "Ann wins with the line 1-2-3-4-5!"


def test_the_frontends_name_variants_by_their_titles(registry: Registry) -> None:
    with speaking("cs"):
        assert variant_label("dice", registry) == "Kostky"
        assert variant_labels(["dice", "wild"], registry) == "Kostky, Žolík"
        assert variant_label("joker") == "Žolík"  # the installation's registry
    assert variant_label("gone", registry) == "gone"  # a record's variant not installed here


def test_the_web_lobby_gets_titles_and_descriptions_in_the_pages_language(
    registry: Registry,
) -> None:
    choices = table_choices(registry, "cs")
    assert choices["variants"] == ["dice", "joker", "wild"]  # the names a request sends
    by_name = {v["name"]: v for v in choices["variant_words"]}
    assert by_name["dice"]["title"] == "Kostky"
    assert by_name["dice"]["description"] == "Kostka rozhodne, kam jde spálená karta."
    layouts = {layout["name"]: layout for layout in choices["players"]["6"]}
    assert layouts["3rows"]["description"] == "6 hráčů ve 3 řadách"
    bots = {bot["name"]: bot for bot in choices["bots"]}
    assert bots["greedy"]["title"] and bots["ismcts"]["levels"]
