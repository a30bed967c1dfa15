"""No input makes the record loader crash, hang or fill the memory: damaged
lines, deep JSON, huge numbers, wrong types, FIFOs, /dev/zero, files and lines over the
limits, and a fuzz test whose every record is refused cleanly or is a legal game.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from damaged_records import (
    ALL_CARDS,
    _config,
    a_notice,
    bot_game,
    exchange_game,
    record_lines,
    refused,
    text_of,
    turn_starts,
)

from cinco.core.engine.board import SPACES, line_through
from cinco.core.engine.errors import RecordError
from cinco.core.engine.events import (
    CardDrawn,
    CardPlayed,
    DeckShuffled,
    Event,
    GameEnded,
    GameStarted,
    HandDiscarded,
    Notice,
    TurnEnded,
)
from cinco.core.engine.rules import setup_events
from cinco.core.engine.state import FREE, fold
from cinco.core.records.record import (
    HEADER_FIELDS,
    MAX_FILE_BYTES,
    MAX_LINE_BYTES,
    dumps,
    header,
    load_record,
    loads,
)

# -- folded in from the hardening campaign's test_hardening_records.py (issue 26) -----------------


def write(tmp_path: Path, lines: Sequence[str], name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(text_of(lines), encoding="utf-8")
    return path


class _End(Exception):
    """The log stops here (a valid prefix)."""


def assert_legal_game(events: Sequence[Event]) -> None:
    """Check *events* is a legal standard game (no variants), or a prefix of one, with plain
    lists: nothing here uses the fold or the rule code under test (only the board's lines)."""
    referee = _Referee(events)
    with contextlib.suppress(_End):
        referee.run()


class _Referee:
    """The state :func:`assert_legal_game` keeps in plain lists, and its steps: the header
    checked at once, then the deal and the turns as the log goes on."""

    def __init__(self, events: Sequence[Event]) -> None:
        started = events[0]
        assert isinstance(started, GameStarted)
        config = started.config
        players, teams = config.players, config.teams
        assert (players, teams) in {(2, 2), (3, 3), (4, 2), (6, 2), (6, 3)}
        assert not config.variants
        first = started.first_seat
        assert 0 <= first < players
        assert config.first_seat in (None, first)
        self.events, self.config, self.first = events, config, first
        self.players, self.teams = players, teams
        self.position = 1
        self.pile: list[int] = []
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.board = [FREE] * (SPACES + 1)
        self.tokens = [0] * teams

    def take(self) -> Event:
        """The log's next event, notices skipped; :class:`_End` where the log stops."""
        events = self.events
        while self.position < len(events) and isinstance(events[self.position], Notice):
            self.position += 1
        if self.position >= len(events):
            raise _End
        event = events[self.position]
        self.position += 1
        return event

    def draw(self, seat: int) -> None:
        if not self.pile:
            shuffle = self.take()
            assert isinstance(shuffle, DeckShuffled) and shuffle.reshuffle
            assert shuffle.order is not None and sorted(shuffle.order) == sorted(self.discard)
            assert shuffle.size == len(self.discard) > 0
            self.pile, self.discard = list(shuffle.order), []
        drawn = self.take()
        assert isinstance(drawn, CardDrawn) and drawn.seat == seat
        assert drawn.card == self.pile.pop(0)
        self.hands[seat].append(drawn.card)

    def run(self) -> None:
        deck = self.take()
        assert isinstance(deck, DeckShuffled) and not deck.reshuffle and deck.size == SPACES
        assert deck.order is not None and sorted(deck.order) == ALL_CARDS
        self.pile = list(deck.order)
        for k in range(4 * self.players):
            self.draw((self.first + k) % self.players)
        seat, turn = self.first, 0
        while True:
            action, space = self.action(seat)
            wanted = self.turn_end(seat, action, space, turn)
            assert self.take() == wanted
            if isinstance(wanted, GameEnded):
                assert self.position == len(self.events), "events after the end of the game"
                return
            seat, turn = (seat + 1) % self.players, turn + 1

    def action(self, seat: int) -> tuple[str, int | None]:
        """*seat*'s action this turn, checked and applied: its name, and the space a token
        went on (``None`` if none did)."""
        event = self.take()
        hand = self.hands[seat]
        if isinstance(event, CardPlayed):
            assert event.seat == seat and event.card in hand
            hand.remove(event.card)
            self.discard.append(event.card)
            self.place(event)
            return "play", event.space
        if isinstance(event, HandDiscarded):
            assert event.seat == seat and len(hand) == 4 and event.count == 4
            assert event.cards is not None and sorted(event.cards) == sorted(hand)
            self.discard.extend(event.cards)
            self.hands[seat] = []
            for _ in range(4):
                self.draw(seat)
            return "exchange", None
        assert isinstance(event, CardDrawn | DeckShuffled), event
        assert len(hand) < 4
        self.position -= 1
        self.draw(seat)
        return "draw", None

    def place(self, event: CardPlayed) -> None:
        free = [n for n in range(event.card, SPACES + 1) if self.board[n] == FREE]
        if event.space is None:
            assert not free, "a card burned with a free space for it (A2)"
        else:
            assert event.space in free, "a token below its card or on a taken space"
            self.board[event.space] = event.seat % self.teams
            self.tokens[event.seat % self.teams] += 1

    def turn_end(self, seat: int, action: str, space: int | None, turn: int) -> Event:
        """The event that must end this turn: the next seat's, or the game's end."""
        wanted: Event = TurnEnded(seat, action, (seat + 1) % self.players)
        team, tokens = seat % self.teams, self.tokens
        if space is not None and len(line := line_through(self.board, space, team)) >= 5:
            wanted = GameEnded(seat, action, team, "line", line)
        elif space is not None and tokens[team] >= 35:
            wanted = GameEnded(seat, action, None, "stalemate")
        elif space is not None and sum(tokens) >= SPACES:
            wanted = GameEnded(seat, action, None, "board_full")
        elif self.config.turn_limit is not None and turn + 1 >= self.config.turn_limit:
            wanted = GameEnded(seat, action, None, "turn_limit")
        return wanted


def test_single_line_deletions_duplications_and_swaps_are_clean_errors_or_legal_games():
    events = list(bot_game(seed=4, turn_limit=40).events)
    lines = record_lines(events)
    for i in range(1, len(lines)):
        damaged = [lines[:i] + lines[i + 1 :], lines[: i + 1] + lines[i:]]
        if i + 1 < len(lines):
            damaged.append(lines[:i] + [lines[i + 1], lines[i]] + lines[i + 2 :])
        for variant in damaged:
            _clean_or_legal(text_of(variant), len(variant))


def test_json_nested_very_deep_is_a_clean_error():
    head = json.dumps(header())
    for depth in (100_000, 20_000):
        error = refused([head, "[" * depth + "]" * depth])
        assert error.line == 2
    options = {"a": 1}
    for _ in range(40):
        options = {"a": options}
    started = json.loads(dumps(setup_events(_config(2, 2, "2x1"))[0]))
    started["config"]["options"] = options
    error = refused([head, json.dumps(started)])
    assert error.line == 2 and "options" in str(error)


def test_an_integer_of_thousands_of_digits_is_a_clean_error():
    lines = record_lines(list(bot_game().events)[:3])
    data = json.loads(lines[2])
    lines[2] = json.dumps(data).replace('"size": 90', '"size": 1' + "0" * 5000)
    error = refused(lines)
    assert error.line == 3 and "digits" in str(error)
    lines[2] = json.dumps(data).replace('"size": 90', '"size": NaN')
    assert refused(lines).line == 3


@pytest.mark.parametrize(
    "config_change",
    [
        {"seed": 1e400},
        {"seed": "7"},
        {"teams": 2.0},
        {"teams": True},
        {"seats": "ab"},
        {"seats": [{"name": ["x"]}, {"name": "y"}]},
        {"variants": "joker"},
        {"options": [1]},
        {"first_seat": 0.0},
    ],
)
def test_a_configuration_of_the_wrong_types_is_a_clean_error(config_change):
    data = json.loads(dumps(setup_events(_config(2, 2, "2x1"))[0]))
    data["config"].update(config_change)
    error = refused([json.dumps(header()), json.dumps(data)])
    assert error.line == 2


def test_unknown_header_fields_are_kept_apart_and_never_passed_on(tmp_path):
    """A header field the reader does not know (``path``!) must not reach the writer, which
    takes the known fields as keyword arguments (``RecordWriter(path, **fields)``)."""
    lines = record_lines(list(bot_game().events), frontend="cli", path="/elsewhere", table="t1")
    record = load_record(write(tmp_path, lines))
    assert set(record.header) <= set(HEADER_FIELDS)
    assert record.header["frontend"] == "cli" and record.header["table"] == "t1"
    assert record.extra_header == {"path": "/elsewhere"}

    def writer(path: Path, **fields: Any) -> dict[str, Any]:
        return fields

    # What frontends/terminal/session.py does on --resume:
    passed = {k: v for k, v in record.header.items() if k not in ("format", "version", "cinco")}
    assert writer(tmp_path / "x.jsonl", **passed) == {"frontend": "cli", "table": "t1"}
    # A known field of the wrong type is not trusted either.
    lines[0] = json.dumps(header(frontend=["cli"]))
    record = load_record(write(tmp_path, lines))
    assert "frontend" not in record.header and record.extra_header == {"frontend": ["cli"]}
    lines[0] = json.dumps({**header(), "version": True})
    assert refused(lines).line == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_fifo_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    outcome: list[BaseException | None] = []

    def read() -> None:
        try:
            load_record(fifo)
        except BaseException as exc:  # reported below
            outcome.append(exc)
        else:
            outcome.append(None)

    worker = threading.Thread(target=read, daemon=True)
    worker.start()
    worker.join(10)
    if worker.is_alive():  # the old reader waits for a writer: give it one, then fail
        descriptor = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(descriptor)
        worker.join(5)
        pytest.fail("load_record waited on a named pipe")
    [error] = outcome
    assert isinstance(error, RecordError) and "not a regular file" in str(error)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_dev_zero_is_refused_at_once_without_reading_it():
    """Checked in a child process with a memory limit and a timeout, so that a reader that
    reads for ever cannot harm the machine running the tests."""
    script = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n"
        "from cinco.core.records.record import load_record\n"
        "from cinco.core.engine.errors import RecordError\n"
        "try:\n"
        "    load_record('/dev/zero')\n"
        "except RecordError as exc:\n"
        "    print(exc)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "not a regular file" in result.stdout


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "big.jsonl"
    with big.open("wb") as file:
        file.write((json.dumps(header()) + "\n").encode())
        file.truncate(MAX_FILE_BYTES + 1)  # sparse: nothing is written
    with pytest.raises(RecordError, match="larger than 64 MiB"):
        load_record(big)
    with pytest.raises(RecordError, match="larger than"):
        loads("\n" * (MAX_FILE_BYTES + 1))


def test_a_line_over_the_length_limit_is_refused(tmp_path):
    lines = record_lines(list(bot_game().events))
    long_notice = {"type": "notice", "v": 1, "kind": "x", "text": "é" * (MAX_LINE_BYTES // 2)}
    lines.insert(12, json.dumps(long_notice, ensure_ascii=False))
    with pytest.raises(RecordError, match="longer than 64 KiB") as caught:
        load_record(write(tmp_path, lines))
    assert caught.value.line == 12 + 1
    # Even as the last line with no newline (it is not a line cut short).
    text = text_of(lines[:12]) + "[" + " " * MAX_LINE_BYTES
    with pytest.raises(RecordError, match="longer than") as caught:
        loads(text)
    assert caught.value.line == 13


def _clean_or_legal(text: str | bytes, line_count: int, path: Path | None = None) -> str:
    """Load *text*: either a clean RecordError naming a line (or the whole file), or a record
    whose events are a legal game (or the prefix of one). Returns which."""
    try:
        if isinstance(text, bytes):
            assert path is not None
            path.write_bytes(text)
            record = load_record(path)
        else:
            record = loads(text)
    except RecordError as error:
        assert error.__cause__ is None, f"an internal error, not a clean refusal: {error}"
        assert error.line is None or 1 <= error.line <= line_count + 1, error
        assert "could not be checked" not in str(error)
        return "refused"
    assert_legal_game(record.events)
    state = fold(record.events)
    assert state.occupied == sum(1 for n in range(1, SPACES + 1) if state.board[n] != FREE)
    cards = sorted([*state.draw_pile, *state.discard_pile, *(c for h in state.hands for c in h)])
    assert len(record.events) < 2 + 4 * state.players or cards == ALL_CARDS
    return "accepted"


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a parsed JSON value, as a path of keys and indices."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def _replacement(rng: random.Random, old: Any) -> Any:
    number = old if isinstance(old, int) and not isinstance(old, bool) else 7
    choices: list[Any] = [
        number + 1,
        number - 1,
        0,
        -1,
        1,
        89,
        90,
        91,
        10**30,
        -(10**30),
        float(number),
        1.5,
        True,
        False,
        None,
        "x",
        str(number),
        "",
        [],
        [number],
        {},
        {"a": number},
        rng.randrange(-5, 100),
    ]
    return rng.choice(choices)


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    value[path[0]] = _set(value[path[0]], path[1:], new)
    return value


def _mutate(lines: list[str], rng: random.Random) -> str | bytes:
    kind = rng.choice(
        ["delete", "duplicate", "swap", "move", "flip", "number", "number", "type", "cut"]
    )
    lines = list(lines)
    i = rng.randrange(len(lines))
    j = rng.randrange(len(lines))
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    elif kind == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "move":
        lines.insert(j, lines.pop(i))
    elif kind == "flip":
        data = bytearray(text_of(lines).encode())
        for _ in range(rng.choice((1, 1, 2, 3))):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        return bytes(data)
    elif kind == "cut":
        text = text_of(lines)
        return text[: rng.randrange(len(text))]
    else:
        data = json.loads(lines[i])
        path = rng.choice(_paths(data))
        old: Any = data
        for key in path:
            old = old[key]
        if kind == "number" and not isinstance(old, int):
            numbers = [p for p in _paths(data) if _leaf_is_number(data, p)]
            if numbers:
                path = rng.choice(numbers)
                old = data
                for key in path:
                    old = old[key]
        data = _set(data, path, _replacement(rng, old))
        lines[i] = json.dumps(data)
    return text_of(lines)


def _leaf_is_number(data: Any, path: tuple[Any, ...]) -> bool:
    for key in path:
        data = data[key]
    return isinstance(data, int) and not isinstance(data, bool)


def _corpus() -> list[list[str]]:
    with_notices = list(bot_game(seed=6).events)
    starts = turn_starts(with_notices)
    for at in (starts[5], starts[1], starts[0]):
        with_notices.insert(at, a_notice())
    games = [
        with_notices,
        list(bot_game(players=3, seed=2, turn_limit=60).events),
        list(bot_game(players=4, seed=3, bots=("greedy", "random"), turn_limit=60).events),
        list(exchange_game(turns=44).events),
    ]
    return [record_lines(events, frontend="cli") for events in games]


def test_fuzz_damaged_records_are_refused_cleanly_or_are_legal_games(tmp_path):
    """Real records, damaged at random (lines deleted, duplicated, swapped, moved; bytes
    flipped; numbers and types changed; the file cut short): each is a clean RecordError
    naming a line, or a game that a referee written independently accepts. Never another
    exception, a hang, or an illegal game."""
    rng = random.Random(20240531)
    corpus = _corpus()
    for lines in corpus:
        assert _clean_or_legal(text_of(lines), len(lines)) == "accepted"
    outcomes = {"refused": 0, "accepted": 0}
    path = tmp_path / "fuzz.jsonl"
    for _round in range(600):
        lines = rng.choice(corpus)
        damaged = _mutate(lines, rng)
        outcomes[_clean_or_legal(damaged, len(lines) + 1, path)] += 1
    assert outcomes["refused"] > 300 and outcomes["accepted"] > 5, outcomes
