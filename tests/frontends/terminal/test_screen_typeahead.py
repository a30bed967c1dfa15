"""Lines typed while it is not the player's turn (:func:`typed_while_waiting`), read from a real
pseudo-terminal: thrown away, except ``q``, which answers at once; the wait lasts its time."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator

import pytest

from cinco.frontends.terminal.screen import QuitGame, typed_while_waiting

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a POSIX terminal")


@pytest.fixture
def keyboard(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """A pseudo-terminal as standard input; yields the end the keys are typed into."""
    master, slave = os.openpty()
    stdin = os.fdopen(slave, "r")
    monkeypatch.setattr(sys, "stdin", stdin)
    try:
        yield master
    finally:
        stdin.close()
        os.close(master)


def test_nothing_typed_waits_its_time(keyboard: int) -> None:
    started = time.monotonic()
    assert typed_while_waiting(0.3) is False
    assert time.monotonic() - started >= 0.29


def test_a_move_or_a_hint_typed_ahead_is_thrown_away(keyboard: int) -> None:
    os.write(keyboard, b"34 36\nh\n")
    started = time.monotonic()
    assert typed_while_waiting(0.3) is True  # read, and the wait went on to its end
    assert time.monotonic() - started >= 0.29
    assert typed_while_waiting(0.0) is False  # nothing is left to be done later


@pytest.mark.parametrize("typed", [b"q\n", b"h\n Quit \n", b"\x04"])
def test_q_or_the_end_of_input_answers_at_once(keyboard: int, typed: bytes) -> None:
    os.write(keyboard, typed)
    started = time.monotonic()
    with pytest.raises(QuitGame):
        typed_while_waiting(30.0)
    assert time.monotonic() - started < 5


def test_not_a_terminal_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    read, write = os.pipe()
    os.write(write, b"q\n")  # a script's answer to a later prompt: left for it
    with os.fdopen(read, "r") as pipe:
        monkeypatch.setattr(sys, "stdin", pipe)
        assert typed_while_waiting(0.0) is False
        assert pipe.readline() == "q\n"
    os.close(write)
