"""``cinco arena --isolate``: every bot in a process of its own, seeing only its seat's stream;
bots that misbehave lose their moves, never the game; no bot's randomness comes from the deck's
seed."""

from __future__ import annotations

import json
import os
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import cinco.core.bots.isolation as isolation
from cinco.core.bots.matches import ArenaSpec, parse_entrants
from cinco.core.bots.tournament import run
from cinco.core.engine.events import DeckShuffled, GameEnded, GameStarted, TurnEnded
from cinco.core.records.record import load_record
from cinco.core.table.protocol import Envelope, Prompt, message_from_dict
from cinco.frontends.main import main


def arena(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["arena", *args])
    return result.exit_code, result.output


def test_an_isolated_arena_plays_whole_games(tmp_path: Path) -> None:
    records = tmp_path / "games"
    code, output = arena(
        "--bots", "greedy,random", "--games", "2", "--isolate", "--records", str(records), "--json"
    )
    assert code == 0, output
    report = json.loads(output)
    assert report["games"] == 2 and report["isolated"] is True
    assert report["replaced_moves"] == 0
    standings = {s["entrant"]: s for s in report["standings"]}
    assert standings["greedy"]["games"] == 2
    # No --seed: the deals come from a seed drawn at random, told in the report.
    assert report["seed"] != 0
    saved = sorted(records.glob("*.jsonl"))
    assert len(saved) == 2
    first = load_record(saved[0])
    started = first.events[0]
    assert isinstance(started, GameStarted)
    assert started.config.seed == report["seed"]
    # The referee plays nobody's moves: every seat is a player from outside.
    assert not any(seat.is_bot for seat in started.config.seats)


TEE = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    log = Path(os.environ["ARENA_TEE"]) / f"{os.getpid()}.jsonl"

    def lines(source):
        with log.open("a", encoding="utf-8") as out:
            for line in source:
                out.write(line)
                out.flush()
                yield line

    sys.stdin = lines(sys.stdin)
    from cinco.core.bots.isolation import main
    sys.exit(main())
    """
)


def test_each_bot_process_gets_only_its_seats_stream(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What reaches each bot's process is exactly its seat's projection of the game's log,
    from the first event on, and its own prompts: never another seat's cards, the deck's
    order or the seed."""
    tee, logs, records = tmp_path / "tee.py", tmp_path / "seen", tmp_path / "games"
    tee.write_text(TEE)
    logs.mkdir()
    monkeypatch.setenv("ARENA_TEE", str(logs))
    monkeypatch.setattr(isolation, "CHILD", (sys.executable, str(tee)))
    spec = ArenaSpec(
        entrants=parse_entrants("greedy,random"),
        players=3,
        games=2,
        seed=4242,
        records=records,
        isolate=True,
    )
    report = run(spec, jobs=1)
    assert len(report.results) == 2 and report.replaced == 0
    seen = sorted(logs.glob("*.jsonl"))
    # A process per seat, kept for the task's next game: greedy plays two teams, random one.
    assert len(seen) == 3
    assert str(os.getpid()) not in {path.stem for path in seen}
    records_by_table = {}
    for path in sorted(records.glob("*.jsonl")):
        loaded = load_record(path)
        records_by_table[loaded.header["table"]] = loaded.events
    seats: Counter[tuple[str, int]] = Counter()
    for path in seen:
        messages = [message_from_dict(json.loads(line)) for line in path.read_text().splitlines()]
        assert str(spec.seed) not in path.read_text()
        by_table: dict[str, list[Envelope | Prompt]] = {}
        for message in messages:
            if isinstance(message, Envelope | Prompt):
                by_table.setdefault(message.table, []).append(message)
        for table, stream in by_table.items():
            envelopes = [m for m in stream if isinstance(m, Envelope)]
            prompts = [m for m in stream if isinstance(m, Prompt)]
            assert prompts, "the bot was never asked to move"
            seat = prompts[0].legal.seat
            assert {p.legal.seat for p in prompts} == {seat}
            full = records_by_table[table]
            assert [e.seq for e in envelopes] == list(range(len(full)))  # all of it, in order
            for envelope in envelopes:
                assert envelope.event.to_dict() == full[envelope.seq].seen_by(seat).to_dict()
                event = envelope.event
                if isinstance(event, GameStarted):
                    assert event.config.seed is None
                if isinstance(event, DeckShuffled):
                    assert event.order is None
            seats[(table, seat)] += 1
    assert len(seats) == 6 and set(seats.values()) == {1}  # every seat of both games, once


MISBEHAVING = textwrap.dedent(
    """
    import json, sys, time
    how = sys.argv[1]
    if how == "random" and {how!r} == "unknown-bot":  # a bot this machine does not have
        from cinco.core.bots.isolation import main
        sys.exit(main(["no-such-bot"]))
    if how == "random":
        how = {how!r}
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] != "prompt":
                continue
            seat = message["seat"]
            if how == "nonsense":
                print("{{not json", flush=True)
            elif how == "other-seat":
                print(json.dumps({{"type": "submit", "v": 1,
                    "command": {{"kind": "draw", "seat": 1 - seat}}}}), flush=True)
            elif how == "undo":
                print(json.dumps({{"type": "undo", "v": 1, "check": False}}), flush=True)
            elif how == "illegal":
                print(json.dumps({{"type": "submit", "v": 1,
                    "command": {{"kind": "play", "seat": seat, "card": 999, "space": 0}}}}),
                    flush=True)
            elif how == "dies":
                sys.exit(3)
            elif how == "silent":
                pass
        sys.exit(0)
    from cinco.core.bots.isolation import main
    sys.exit(main())
    """
)


@pytest.mark.parametrize(
    "how", ["nonsense", "other-seat", "undo", "illegal", "dies", "silent", "unknown-bot"]
)
def test_a_bot_that_misbehaves_loses_its_moves_not_the_game(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "bad.py"
    script.write_text(MISBEHAVING.format(how=how))
    monkeypatch.setattr(isolation, "CHILD", (sys.executable, str(script)))
    monkeypatch.setattr(isolation, "MOVE_TIMEOUT", 0.5)
    monkeypatch.setattr(isolation, "START_TIMEOUT", 3.0)
    records = tmp_path / "games"
    games = 1 if how == "silent" else 2  # each of its moves waits for the time-out
    spec = ArenaSpec(
        entrants=parse_entrants("greedy,random"),
        games=games,
        seed=8,
        records=records,
        isolate=True,
        turn_limit=12 if how == "silent" else 30,
    )
    report = run(spec, jobs=1)
    assert len(report.results) == games
    bad_moves = 0
    for result, path in zip(report.results, sorted(records.glob("*.jsonl")), strict=True):
        bad_seat = result.teams.index(1)  # random's seat: the misbehaving process
        events = load_record(path).events
        # Every action ends with a turn_ended, the last one with the game_ended instead.
        bad_moves += sum(
            1 for e in events if isinstance(e, TurnEnded | GameEnded) and e.seat == bad_seat
        )
    assert bad_moves > 0 and report.replaced == bad_moves  # each one, and no good bot's


def test_isolated_bots_get_no_seed_from_the_deck(tmp_path: Path) -> None:
    """The same --seed deals the same cards, but an isolated bot's randomness comes from the
    operating system: two runs of random against random play different moves."""
    moves = []
    for run_number in range(2):
        records = tmp_path / f"run{run_number}"
        code, output = arena(
            "--bots",
            "random,random",
            "--games",
            "1",
            "--seed",
            "77",
            "--isolate",
            "--records",
            str(records),
            "--json",
        )
        assert code == 0, output
        events = load_record(next(records.glob("*.jsonl"))).events
        deal = [e.to_dict() for e in events if isinstance(e, GameStarted | DeckShuffled)]
        moves.append((deal[:2], [e.to_dict() for e in events[2:]]))
    assert moves[0][0] == moves[1][0]  # the same deal
    assert moves[0][1] != moves[1][1]  # other moves


PEEK = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    records = Path(os.environ["ARENA_RECORDS"])
    log = Path(os.environ["ARENA_PEEK"])

    def lines(source):
        for line in source:
            if '"prompt"' in line:  # a curious bot looks at the disk before each move
                with log.open("a") as out:
                    for path in sorted(records.glob("*.jsonl")):
                        text = path.read_text()
                        out.write(("over " if '"game_ended"' in text else "LIVE ") + path.name)
                        out.write("\\n")
                    out.write("looked\\n")
            yield line

    sys.stdin = lines(sys.stdin)
    from cinco.core.bots.isolation import main
    sys.exit(main())
    """
)


def test_no_file_holds_a_game_being_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot's process runs as the arena's user: the record of a game (its deck, its seed) is
    written only once the game is over."""
    script, records, log = tmp_path / "peek.py", tmp_path / "games", tmp_path / "peek.log"
    script.write_text(PEEK)
    monkeypatch.setenv("ARENA_RECORDS", str(records))
    monkeypatch.setenv("ARENA_PEEK", str(log))
    monkeypatch.setattr(isolation, "CHILD", (sys.executable, str(script)))
    spec = ArenaSpec(
        entrants=parse_entrants("greedy,random"), games=3, seed=1, records=records, isolate=True
    )
    report = run(spec, jobs=1)
    assert len(report.results) == 3 and len(list(records.glob("*.jsonl"))) == 3
    seen = log.read_text().splitlines()
    assert seen.count("looked") > 20 and any(line.startswith("over ") for line in seen)
    assert not [line for line in seen if line.startswith("LIVE ")]
