"""The terminal game under bad input (issue 11,
"The terminal"): hot-seat privacy, injected control characters and markup, answers taken
too easily.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from terminal_input import hot_seat, run_cli
from terminal_script import play_script

from cinco.core.engine.config import Seat
from cinco.core.engine.events import TurnEnded
from cinco.core.host.registry import default_registry
from cinco.core.records.record import load_record
from cinco.core.table.table import Table
from cinco.frontends.main import main
from cinco.frontends.options import PlayOptions, clean_text
from cinco.frontends.terminal.app import PLAIN_PASS_LINES
from cinco.frontends.terminal.screen import Screen

# -- folded in from the hardening campaign's test_hardening_terminal.py (issue 26) ----------------


def test_enter_does_not_dismiss_the_pass_screen_and_q_quits(tmp_path: Path) -> None:
    """A double Enter (or any stray key) at "Pass to ..." shows no hand; ``q`` saves and
    quits."""
    record = tmp_path / "g.jsonl"
    result = run_cli(hot_seat(4, record), "\n\nd\n34\nq\n", tmp_path)
    assert result.exit_code == 0, result.output
    assert re.search(r"Pass to (Ann|Bob)\n", result.output)
    assert result.output.count("type y") == 5
    assert "'s hand" not in result.output
    assert "Game saved in" in result.output
    assert not [e for e in load_record(record).events if isinstance(e, TurnEnded)]


def test_y_at_the_pass_screen_shows_the_hand(tmp_path: Path) -> None:
    result = run_cli(hot_seat(4, tmp_path / "g.jsonl"), "y\nq\n", tmp_path)
    assert result.exit_code == 0, result.output
    assert "Bob's hand" in result.output and "Ann's hand" not in result.output  # Bob begins


def test_plain_text_pushes_the_last_hand_out_of_sight(tmp_path: Path) -> None:
    """Not a terminal (nothing can be cleared): before every pass screen the last player's
    hand and new cards are pushed out of sight by empty lines."""
    options = PlayOptions(players=2, names={0: "Ann", 1: "Bob"}, seed=6, delay=0)
    script, _game = play_script(options, policy_seed=3, moves=8)
    record = tmp_path / "g.jsonl"
    result = run_cli(hot_seat(6, record), script.text + "q\n", tmp_path)
    assert result.exit_code == 0, result.output
    pieces = re.split(r"=+\nPass to (?:Ann|Bob)\n", result.output)
    assert len(pieces) == len(script.hands) + 2  # and the pass screen q is typed at
    for before in pieces[:-1]:
        tail = before.splitlines()[-PLAIN_PASS_LINES:]
        assert len(tail) == PLAIN_PASS_LINES and all(not line.strip() for line in tail)


def test_type_ahead_is_flushed_before_the_pass_and_every_prompt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keys typed earlier are forgotten right before each pass prompt and before each
    person's first prompt of a turn."""
    calls: list[str] = []
    original = Screen.ask

    def ask(self: Screen, prompt: str) -> str:
        calls.append(prompt)
        return original(self, prompt)

    monkeypatch.setattr(Screen, "ask", ask)
    monkeypatch.setattr(Screen, "flush_input", lambda self: calls.append("<flush>"))
    options = PlayOptions(players=3, names={0: "Ann", 1: "Bob"}, bots={2: ("greedy", None)},
                          seed=8, delay=0)  # fmt: skip
    script, _game = play_script(options, policy_seed=1, moves=6)
    args = [*hot_seat(8, tmp_path / "g.jsonl"), "--players", "3", "--bot", "3=greedy"]
    result = run_cli(args, script.text + "q\n", tmp_path)
    assert result.exit_code == 0, result.output
    for before, prompt in itertools.pairwise(calls):
        if "type y" in prompt:
            assert before == "<flush>"
    firsts = [
        i
        for i, prompt in enumerate(calls)
        if prompt.endswith("your move: ") and calls[i - 1] == "<flush>"
    ]
    assert len(firsts) == len(script.hands)  # (q is typed at a pass screen)


EVIL = "A\x1b]0;pwned\x07\x1b[2K\rBob's hand 1 2 3\x9b\u202en"


def test_names_lose_their_control_characters(tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    args = ["--players", "2", "--bot", "2=greedy", "--name", f"1={EVIL}", "--seed", "2",
            "--delay", "0", "--record", str(record)]  # fmt: skip
    result = run_cli(args, "q\n", tmp_path)
    assert result.exit_code == 0, result.output
    name = load_record(record).events[0].config.seats[0].name  # type: ignore[attr-defined]
    assert name == clean_text(EVIL)[:20] and "\x1b" not in name
    assert "\x1b" not in result.output and "\x07" not in result.output


def test_a_record_cannot_write_to_the_terminal(tmp_path: Path) -> None:
    """Names in a record someone else wrote reach the screen without their escapes, in the
    game (--resume) and in a replay."""
    registry = default_registry()
    record = tmp_path / "evil.jsonl"
    try:
        config = registry.configure(
            2, seats=[Seat(EVIL), Seat(f"B[bold]{EVIL}", bot="greedy")], seed=3
        )
    except Exception as exc:  # the engine itself refuses such names: nothing to show
        pytest.skip(f"the engine refuses the names ({exc})")
    Table.create(config, registry=registry, record=record).close()
    result = run_cli(["--resume", str(record), "--delay", "0"], "q\n", tmp_path)
    assert result.exit_code == 0, result.output
    assert "pwned" in result.output  # the name is shown...
    assert "\x1b" not in result.output and "\x07" not in result.output  # ...harmless
    assert "[bold]" in result.output  # markup is text, not a style
    shown = CliRunner().invoke(main, ["replay", str(record), "--no-interactive"])
    assert shown.exit_code == 0, shown.output
    assert "pwned" in shown.output and "\x1b" not in shown.output


@pytest.mark.parametrize("typed", ["²", "4" * 5000, "٣٤", "34 ²", "²?"])
def test_odd_numbers_at_a_prompt_are_not_moves(typed: str, tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    args = ["--players", "2", "--bot", "2=greedy", "--seed", "1", "--delay", "0",
            "--record", str(record)]  # fmt: skip
    result = run_cli(args, f"{typed}\nq\n", tmp_path)
    assert result.exit_code == 0, result.output
    assert "is not a move" in result.output and "Something went wrong" not in result.output
    assert "Game saved in" in result.output


def test_odd_numbers_at_the_space_prompt(tmp_path: Path) -> None:
    """Asked where a card goes (its own space is taken): ``²`` and 5,000 digits are not
    spaces."""
    for seed in range(60):
        options = PlayOptions(players=2, bots={1: ("greedy", None)}, seed=seed, delay=0)
        script, game = play_script(options, policy_seed=0, moves=1 + seed % 8)
        if game.is_over:
            continue
        state = game.seat(0).view
        own = next((c for c in state.hand(0) if not state.is_free(c)), None)
        if own is not None and game.seat(0).legal().spaces_for(own):
            break
    else:
        pytest.fail("no game where a card's own space is taken")
    args = ["--players", "2", "--bot", "2=greedy", "--seed", str(seed), "--delay", "0"]
    text = script.text + f"{own}\n²\n{'7' * 5000}\n\nq\n"
    result = run_cli(args, text, tmp_path)
    assert result.exit_code == 0, result.output
    assert result.output.count("is not a space number") == 2
    assert "Something went wrong" not in result.output


@pytest.mark.parametrize(
    ("answers", "said"),
    [
        (["q"], "No game was started"),
        (["x", "quit"], "Please press Enter, or type s or q."),
    ],
)
def test_the_first_question_takes_only_enter_s_or_q(
    answers: list[str], said: str, tmp_path: Path
) -> None:
    result = run_cli(["--delay", "0"], "\n".join(answers) + "\n", tmp_path)
    assert result.exit_code == 0, result.output
    assert said in result.output
    assert "your move" not in result.output
    assert not list(tmp_path.rglob("*.jsonl"))


def test_a_mistyped_bot_in_the_setup_is_questioned(tmp_path: Path) -> None:
    answers = ["s", "2", "Zoe", "gredy", "greedy", "", "q"]
    result = run_cli(["--delay", "0"], "\n".join(answers) + "\n", tmp_path)
    assert result.exit_code == 0, result.output
    assert "gredy is not a bot" in result.output
    (path,) = (tmp_path / "games").glob("*.jsonl")
    seats = load_record(path).events[0].config.seats  # type: ignore[attr-defined]
    assert [(s.name, s.bot) for s in seats] == [("Zoe", None), ("Greedy 2", "greedy")]


def test_a_mistyped_bot_typed_twice_is_a_person(tmp_path: Path) -> None:
    answers = ["s", "2", "Zoe", "Greg", "Greg", "y", "q"]
    result = run_cli(["--delay", "0"], "\n".join(answers) + "\n", tmp_path)
    assert result.exit_code == 0, result.output
    (path,) = (tmp_path / "games").glob("*.jsonl")
    seats = load_record(path).events[0].config.seats  # type: ignore[attr-defined]
    assert [(s.name, s.bot) for s in seats] == [("Zoe", None), ("Greg", None)]
