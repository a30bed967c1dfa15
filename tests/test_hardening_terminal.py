"""The terminal, the command line and ``cinco arena`` under bad input (issue 11, "The
terminal"): hot-seat privacy, injected control characters and markup, crashes, answers taken
too easily, and a tournament that is too big or is killed."""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from terminal_script import play_script
from tmux_terminal import TMUX, Terminal

from cinco.core.bots.matches import ArenaSpec, Entrant, parse_entrants
from cinco.core.bots.statistics import Report
from cinco.core.bots.tournament import run
from cinco.core.engine.config import Seat
from cinco.core.engine.events import TurnEnded
from cinco.core.host.registry import default_registry
from cinco.core.records.record import load_record
from cinco.core.table.table import Table
from cinco.frontends import arena as arena_module
from cinco.frontends.main import main
from cinco.frontends.options import PlayOptions, clean_text
from cinco.frontends.terminal.app import PLAIN_PASS_LINES
from cinco.frontends.terminal.screen import Screen

CINCO = Path(sys.executable).parent / "cinco"


def run_cli(args: list[str], text: str, data: Path) -> Result:
    return CliRunner().invoke(main, args, input=text, env={"CINCO_DATA_DIR": str(data)})


def hot_seat(seed: int, record: Path) -> list[str]:
    return ["--players", "2", "--name", "1=Ann", "--name", "2=Bob", "--seed", str(seed),
            "--delay", "0", "--record", str(record)]  # fmt: skip


# -- hot seat -----------------------------------------------------------------------------------


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


# -- injection ----------------------------------------------------------------------------------

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


def test_the_arena_table_reads_no_markup_and_no_escapes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    label = "[bold red]evil[/bold red]\x1b]0;pwned\x07"
    spec = ArenaSpec(entrants=(Entrant(label), Entrant("random")), players=2, games=0)
    report = Report.of(spec, 2, [], 0.0)
    arena_module._print_report(report)
    out = capsys.readouterr().out
    assert "[bold red]evil[/bold red]" in out
    assert "\x1b" not in out and "\x07" not in out


# -- crashes ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["--seed", "9" * 300],
        ["simulate", "--bots", "greedy", "-n", "1", "--seed", "9" * 300],
        ["arena", "--bots", "greedy,random", "-n", "1", "--seed", "9" * 300],
        ["--delay", "inf"],
        ["--delay", "nan"],
        ["--delay", "-1"],
        ["--delay", "1e400"],
        ["arena", "--bots", "greedy,random", "-n", "1", "--budget", "inf"],
        ["arena", "--bots", "greedy,random", "-n", "1", "--budget", "nan"],
        ["--screenshot", "shot.png", "--players", "2"],
    ],
    ids=lambda args: " ".join(a[:12] for a in args),
)
def test_bad_numbers_are_refused_cleanly(args: list[str], tmp_path: Path) -> None:
    result = run_cli([*args, "--bot", "2=greedy"] if args[0].startswith("--") else args, "q\n",
                     tmp_path)  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "Error:" in result.output
    assert not list(tmp_path.rglob("*.jsonl"))


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


def test_kivy_missing_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "kivy", None)  # import kivy fails, as without the extra
    for name in [n for n in sys.modules if n.startswith("cinco.frontends.kivy_app.")]:
        monkeypatch.delitem(sys.modules, name)
    for missing in (True, False):
        monkeypatch.setattr("cinco.frontends.launch._kivy_missing", lambda m=missing: m)
        result = run_cli(["--frontend", "kivy"], "", tmp_path)
        assert result.exit_code in (1, 2), result.output
        assert "Traceback" not in result.output
        assert result.output.strip().count("\n") == 0, result.output
        assert "cinco[kivy]" in result.output


# -- too forgiving ------------------------------------------------------------------------------


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


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--bot", "2=gredy"], "Installed bots: greedy, ismcts, random"),
        (["--bot", "2=greedy:hrad"], "no level"),
        (["--bot", "2=greedy", "--bot", "2=random"], "Seat 2 is given twice"),
        (["--bot", "2=greedy", "--name", "1=Ann", "--name", "1=Bo"], "Seat 1 is given twice"),
    ],
)
def test_bad_seats_are_refused(args: list[str], words: str, tmp_path: Path) -> None:
    result = run_cli(["--players", "2", *args], "q\n", tmp_path)
    assert result.exit_code == 2, result.output
    assert words in result.output
    assert not list(tmp_path.rglob("*.jsonl"))


def test_simulate_takes_levels() -> None:
    result = CliRunner().invoke(
        main, ["simulate", "--bots", "ismcts:easy,greedy", "-n", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    bad = CliRunner().invoke(main, ["simulate", "--bots", "ismcts:eassy", "-n", "1"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output and "easy" in bad.output


# -- arena --------------------------------------------------------------------------------------

STREAM = textwrap.dedent(
    """
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
    from click.testing import CliRunner
    from cinco.core.bots import tournament
    from cinco.frontends.main import main
    played = []
    def play_one(spec, index, seed, arrangement):
        played.append(index)
        if len(played) == 5:
            raise KeyboardInterrupt
        return tournament.GameResult(index, seed, arrangement, 0, "line", 10, 0)
    tournament.play_one = play_one
    result = CliRunner().invoke(
        main, ["arena", "--bots", "greedy,random", "--games", "100000000", "--jobs", "1"]
    )
    print("PLAYED", len(played), type(result.exception).__name__)
    """
)


def test_a_huge_arena_does_not_build_every_deal() -> None:
    """--games 100,000,000 starts at once, in bounded memory (1.5 GB of address space)."""
    done = subprocess.run(
        [sys.executable, "-c", STREAM], capture_output=True, text=True, timeout=120
    )
    assert "PLAYED 5" in done.stdout, done.stdout + done.stderr[-2000:]


def test_streamed_games_are_the_tournaments_games() -> None:
    spec = ArenaSpec(entrants=parse_entrants("greedy,random"), players=2, games=5, seed=3)
    expected = run(spec, jobs=1).results
    assert arena_module.play_games(spec, jobs=2).results == expected
    assert arena_module.play_games(spec, jobs=1).results == expected


def children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(n) for n in text.split()]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc")
def test_sigterm_ends_the_arenas_workers(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [str(CINCO), "arena", "--bots", "greedy,random", "--games", "1000000", "--jobs", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(workers) < 2:
            workers = [pid for pid in children(process.pid) if alive(pid)]
            time.sleep(0.1)
        assert len(workers) >= 2, "the workers never started"
        time.sleep(1)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(alive(pid) for pid in workers):
            time.sleep(0.1)
        assert not [pid for pid in workers if alive(pid)]
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for pid in {*children(process.pid), *workers}:  # never leave a worker behind
            if alive(pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)


# -- in a real terminal -------------------------------------------------------------------------


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    if TMUX is None:
        pytest.skip("tmux is not installed")
    folder = Path(tempfile.mkdtemp(prefix="cinco-tmux-"))
    term = Terminal(folder / "sock")
    yield term
    subprocess.run([TMUX, "-S", str(term.socket), "kill-server"], capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)


def start(terminal: Terminal, tmp_path: Path, args: str) -> None:
    command = f"env CINCO_DATA_DIR={tmp_path} TERM=xterm-256color {CINCO} {args}; sleep 60"
    terminal.tmux("new-session", "-d", "-s", "game", "-x", "80", "-y", "24", command)


def turns_of(record: Path, seat: int) -> int:
    return sum(1 for e in load_record(record).events if isinstance(e, TurnEnded) and e.seat == seat)


@pytest.mark.tmux
def test_a_move_typed_while_a_bot_thinks_is_not_played(terminal: Terminal, tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    start(terminal, tmp_path, f"--players 2 --bot 2=greedy --seed 7 --delay 2 --record {record}")
    terminal.wait_for(lambda s: "Ann, your move:" in s, "Ann's prompt")
    terminal.keys("x")  # a full hand: the exchange is legal
    terminal.wait_for(lambda s: "thinking" in s, "the bot thinking")
    terminal.keys("x")  # typed while the bot thinks: forgotten
    terminal.wait_for(
        lambda s: (
            "Greedy 2 " in s.split("Recent moves")[-1]
            and "Ann, your move:" in s
            and "thinking" not in s
        ),
        "the bot's answer",
    )
    time.sleep(1.0)
    assert turns_of(record, 0) == 1
    assert turns_of(record, 1) == 1


@pytest.mark.tmux
def test_a_double_enter_does_not_show_the_next_hand(terminal: Terminal, tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    start(terminal, tmp_path, f"{' '.join(hot_seat(5, record))}")
    screen = terminal.wait_for(lambda s: "Pass to " in s, "the first pass screen")
    first, second = ("Ann", "Bob") if "Pass to Ann" in screen else ("Bob", "Ann")
    assert "'s hand" not in screen
    terminal.keys("")  # Enter: not an answer
    time.sleep(0.5)
    assert "'s hand" not in terminal.screen()
    terminal.keys("y")
    terminal.wait_for(lambda s: f"{first}, your move:" in s, "the first prompt")
    terminal.keys("x", "", "")  # a move, and two Enters too many
    screen = terminal.wait_for(lambda s: f"Pass to {second}" in s, "the pass screen")
    time.sleep(1.0)
    screen = terminal.screen()
    assert f"Pass to {second}" in screen and "'s hand" not in screen
    terminal.keys("q")
    terminal.wait_for(lambda s: "Game saved in" in s, "the save")
    seat = 0 if first == "Ann" else 1
    assert turns_of(record, seat) == 1 and turns_of(record, 1 - seat) == 0
