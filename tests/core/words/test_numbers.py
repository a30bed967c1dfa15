"""Numbers as each language writes them (cinco.core.words.numbers), and every number that
`cinco simulate` and `cinco arena` show goes through it: decimal commas in Czech and Russian,
the percent sign where the language puts it, the same way in every line."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from cinco.core.words.i18n import speaking
from cinco.core.words.numbers import Local, decimal, local, percent, whole
from cinco.frontends.main import main

#: Each test leaves the language as it found it: English (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("english_afterwards")

NBSP = "\xa0"


@pytest.mark.parametrize(
    ("code", "share", "seconds", "big"),
    [
        ("en", "52.4%", "0.01", "12,345.5"),
        ("uk", "52,4%", "0,01", f"12{NBSP}345,5"),
        ("ru", f"52,4{NBSP}%", "0,01", f"12{NBSP}345,5"),
        ("cs", f"52,4{NBSP}%", "0,01", f"12{NBSP}345,5"),
        ("it", "52,4%", "0,01", "12.345,5"),
    ],
)
def test_each_language_writes_its_numbers_its_way(
    code: str, share: str, seconds: str, big: str
) -> None:
    with speaking(code):
        assert percent(0.5244) == share
        assert decimal(0.0099, 2) == seconds
        assert decimal(12345.46, 1) == big
        assert whole(7) == "7"


def test_a_format_specification_is_applied_the_languages_way() -> None:
    template = "{t:.2f} s, {p:.1%}, {g:g}, {e:+g}, {n}, {w:>7.1f}|"
    params = local(t=0.006, p=0.324, g=2.5, e=-35.0, n=1234, w=3.14159)
    assert template.format(**params) == "0.01 s, 32.4%, 2.5, -35, 1,234,     3.1|"
    with speaking("cs"):
        assert template.format(**params) == (f"0,01 s, 32,4{NBSP}%, 2,5, -35, 1{NBSP}234,     3,1|")
    # What is not a number is left alone; a bool is not a number here.
    assert local(name="Ann", flag=True) == {"name": "Ann", "flag": True}
    assert format(Local(float("nan")), ".1f") == "nan"


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


#: A number written with a decimal point: "0.39", "52.4%".
POINT = re.compile(r"\d\.\d")
COMMA = re.compile(r"\d,\d")


@pytest.mark.parametrize("code", ["cs", "ru"])
def test_simulate_shows_decimal_commas(code: str) -> None:
    out = _run("--lang", code, "simulate", "--bots", "random,greedy", "-n", "3")
    assert not POINT.search(out), out
    assert re.search(r"\d,\d\d", out), out  # the time, to the hundredth


@pytest.mark.parametrize("code", ["cs", "ru"])
def test_arena_shows_decimal_commas_and_one_kind_of_percent(code: str) -> None:
    out = _run("--lang", code, "arena", "--bots", "random,greedy", "-n", "4", "--jobs", "1")
    assert not POINT.search(out), out
    assert COMMA.search(out), out
    # Every percentage computed is written as the language writes one: "50,0 %" (a space
    # before the sign, never "50,0%").
    assert re.search(rf"\d,\d{NBSP}%", out), out
    assert not re.search(r"\d,\d%", out), out


def test_english_output_keeps_its_points() -> None:
    out = _run("--lang", "en", "simulate", "--bots", "random,greedy", "-n", "3")
    assert re.search(r"\d\.\d\d s", out), out
