"""The tablet app's table logic, which needs no display: privacy (S2), undo, autosave and
Continue, the move log. The promise that ``import cinco`` never imports Kivy, and that the app
only ever holds seat handles (never the referee's game)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cinco.core.engine.commands import Draw, Exchange, PlayCard
from cinco.core.engine.config import GameConfig, Seat
from cinco.core.engine.events import SPECTATOR, GameEnded
from cinco.core.engine.state import fold
from cinco.core.records.record import load_record
from cinco.frontends.kivy_app.session import (
    TableSession,
    data_dir,
    new_record_path,
    turn_boundaries,
    unfinished_games,
)

KIVY_APP = Path(__file__).resolve().parents[3] / "frontends" / "kivy_app"


def config(*bots: str | None, seed: int = 3, first: int = 0) -> GameConfig:
    seats = tuple(
        Seat(name, bot=bot) for name, bot in zip(("Ann", "Bob", "Cid", "Dee"), bots, strict=False)
    )
    return GameConfig(
        seats=seats,
        teams=2 if len(seats) != 3 else 3,
        layout="2x1" if len(seats) == 2 else ("3x1" if len(seats) == 3 else "2x2"),
        seed=seed,
        first_seat=first,
    )


@pytest.fixture
def sessions() -> Iterator[list[TableSession]]:
    """Sessions made by a test, closed after it (each table has a thread)."""
    made: list[TableSession] = []
    yield made
    for session in made:
        session.close()


def new(made: list[TableSession], cfg: GameConfig, path: Path | None = None) -> TableSession:
    session = TableSession.new(cfg, path=path)
    made.append(session)
    return session


def play_any(session: TableSession) -> None:
    """The person to move plays the first legal command."""
    assert session.submit(next(iter(session.legal()))) is None


def test_import_cinco_and_the_cli_never_import_kivy() -> None:
    code = (
        "import sys, cinco, cinco.frontends.main, cinco.frontends.kivy_app, "
        "cinco.frontends.kivy_app.session; "
        "print(sorted(m for m in sys.modules if m == 'kivy' or m.startswith('kivy.')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


#: What the app must never reach for: the referee's game, its rules, its record writer, the
#: seed, a referee state's hidden parts. It holds seat handles, and draws their views.
FORBIDDEN = {
    "Game.": re.compile(r"\bGame\."),
    "RecordWriter": re.compile(r"\bRecordWriter\b"),
    "decide(": re.compile(r"\bdecide\("),
    ".state.hands": re.compile(r"\.state\.hands\b"),
    "a referee state's draw pile": re.compile(r"\b(state|game)\.(state\.)?draw_pile\b"),
    "config.seed": re.compile(r"\bconfig\.seed\b|\.seed\b"),
    ".rules": re.compile(r"(?<!engine)\.rules\b|\bRuleSet\b"),
}


def test_the_app_holds_seat_handles_never_the_referees_game() -> None:
    """No module of the Kivy app imports ``cinco.core.game.game`` or uses the referee's game, rules,
    record writer or seed: it renders handles' projected views only."""
    sources = sorted(KIVY_APP.glob("*.py")) + sorted(KIVY_APP.glob("*.kv"))
    assert len(sources) >= 8, sources
    problems = []
    for path in sources:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            for node in ast.walk(ast.parse(text)):
                modules: list[str] = []
                if isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom):
                    modules = [node.module or ""]
                    if node.module in ("cinco.core", "cinco") or node.level:
                        modules += [f"{node.module}.{a.name}" for a in node.names]
                for module in modules:
                    if module.endswith(("core.game", "cinco.plugins.record_writer")):
                        problems.append(f"{path.name}:{node.lineno}: imports {module}")
        for number, line in enumerate(text.splitlines(), start=1):
            code = line.split("#", 1)[0]
            for what, pattern in FORBIDDEN.items():
                if pattern.search(code):
                    problems.append(f"{path.name}:{number}: uses {what}: {line.strip()}")
    assert not problems, "\n".join(problems)


def test_the_scan_would_see_a_referee(tmp_path: Path) -> None:
    """The patterns above do catch what they are for."""
    bad = [
        "game = Game.new(config)",
        "writer = RecordWriter(path)",
        "decide(state, command, rules)",
        "cards = session.game.state.hands[0]",
        "left = len(game.state.draw_pile)",
        "print(config.seed)",
        "self.game.rules",
    ]
    for line in bad:
        assert any(p.search(line) for p in FORBIDDEN.values()), line


def test_one_person_always_sees_their_own_hand(sessions: list[TableSession]) -> None:
    """S2: with one person and a bot, the screen shows that person's view, even on the bot's
    turn, and never needs the privacy screen."""
    session = new(sessions, config(None, "greedy"))
    assert session.viewer() == 0 and not session.needs_privacy(None)
    play_any(session)
    assert session.bot_to_move and session.viewer() == 0
    view = session.view()
    assert view.hand(1) == (0,) * view.hand_size(1) and all(view.hand(0))


def test_privacy_between_two_people(sessions: list[TableSession]) -> None:
    """S2: the next person's hand is only shown after the tablet is passed."""
    session = new(sessions, config(None, None))
    assert session.needs_privacy(shown=None)
    assert not session.needs_privacy(shown=0)
    play_any(session)
    assert session.to_move == 1 and session.needs_privacy(shown=0)
    assert not session.needs_privacy(shown=1)
    assert session.view().hand(0) == (0,) * session.view().hand_size(0), "Ann's cards hidden"


def test_no_hand_while_a_bot_moves_between_people(sessions: list[TableSession]) -> None:
    session = new(sessions, config(None, "greedy", None, "greedy"))
    play_any(session)
    assert session.bot_to_move and session.viewer() is SPECTATOR
    assert not any(any(session.view().hand(seat)) for seat in range(4))


def test_refusals_are_the_tables_words(sessions: list[TableSession]) -> None:
    """A5: with four cards Draw is refused and Exchange allowed; after a play, the reverse."""
    session = new(sessions, config(None, None))
    assert "full" in (session.draw_refusal() or "")
    assert session.exchange_refusal() is None
    card, spaces = session.legal().plays[0]
    assert session.submit(PlayCard(0, card, spaces[0] if spaces else None)) is None
    assert session.submit(Exchange(1)) is None
    assert session.draw_refusal() is None
    assert "full hand" in (session.exchange_refusal() or "")
    assert session.legal().can_draw and not session.legal().can_exchange
    refused = session.submit(Exchange(0))
    assert refused is not None and "full hand" in refused.message
    assert session.submit(Draw(0)) is None


def test_undo_takes_back_the_persons_play_and_the_bots_reply(
    sessions: list[TableSession], tmp_path: Path
) -> None:
    path = tmp_path / "g.jsonl"
    session = new(sessions, config(None, "greedy"), path)
    assert not session.can_undo and "nothing to undo" in (session.undo_refusal() or "")
    for _turn in range(40):  # until the bot's reply showed no card (it drew or exchanged)
        hand = session.view().hand(0)
        board = session.view().board
        legal = session.legal()
        if not legal.plays:
            assert session.submit(Draw(0)) is None
        else:
            card, spaces = legal.plays[0]
            assert session.submit(PlayCard(0, card, spaces[0] if spaces else None)) is None
            assert session.can_undo  # the bot has not replied yet: only it saw the card
        assert session.play_bot_turn() is None
        assert session.to_move == 0
        if session.can_undo:
            break
        # The bot played a card Ann saw (or Ann drew): that stays.
        refusal = session.undo_refusal() or ""
        assert "Bob has played a card" in refusal or "showed you" in refusal, refusal
    assert session.can_undo
    before = session.event_count
    assert session.undo() is None
    view = session.view()
    assert view.hand(0) == hand and view.board == board and session.to_move == 0
    assert session.event_count > before, "an undo is an event: nothing is removed"
    assert session.log()[-1] == "You took back your last move."  # Ann sees her own undo
    record = load_record(path).events
    assert len(record) == session.event_count, "the autosave has the undo too"
    assert fold(record).hand(0) == hand


def test_undo_after_a_draw_says_why_not(sessions: list[TableSession]) -> None:
    """The table's policy: a draw or an exchange showed new cards, so it stays."""
    session = new(sessions, config(None, "greedy"))
    assert session.submit(Exchange(0)) is None
    assert session.play_bot_turn() is None
    assert not session.can_undo
    assert "showed you new cards" in (session.undo_refusal() or "")
    refused = session.undo()
    assert refused is not None and "new cards" in refused.message


def test_undo_between_people_follows_the_tables_policy(sessions: list[TableSession]) -> None:
    """With several people, Undo is offered for the last to move, and the table refuses it:
    the others saw the card played, which would go back into the player's hand."""
    session = new(sessions, config(None, None))
    card, spaces = session.legal().plays[0]
    assert session.submit(PlayCard(0, card, spaces[0] if spaces else None)) is None
    assert session.undo_seat() == 0 and not session.can_undo
    assert "Bob has seen the card you played" in (session.undo_refusal() or "")
    refused = session.undo()
    assert refused is not None and refused.code == "undo_seen_by_others"
    assert session.to_move == 1
    play_any(session)  # Bob moved since: Undo is about his move now
    assert session.undo_seat() == 1


def test_continue_finds_the_newest_unfinished_game(
    sessions: list[TableSession], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CINCO_DATA_DIR", str(tmp_path))
    assert data_dir() == tmp_path
    folder = tmp_path / "games"
    old = new(sessions, config(None, "greedy", seed=1), folder / "a.jsonl")
    play_any(old)
    fresh = new(sessions, config(None, "greedy", seed=2), folder / "b.jsonl")
    play_any(fresh)
    (folder / "junk.jsonl").write_text("not a record\n")
    os.utime(folder / "a.jsonl", (1, 1))
    assert unfinished_games() == [folder / "b.jsonl", folder / "a.jsonl"]
    fresh.close()  # a record being played is locked: another table may not open it
    resumed = TableSession.resume(folder / "b.jsonl")
    sessions.append(resumed)
    assert resumed.event_count == fresh.event_count
    assert resumed.view().to_dict() == fresh.handle(0).view.to_dict()
    assert resumed.path == folder / "b.jsonl"


def test_record_names_never_hold_the_seed(tmp_path: Path) -> None:
    path = new_record_path(tmp_path)
    assert path.parent == tmp_path and path.suffix == ".jsonl"
    assert "12345" not in path.name


def test_rematch_is_a_new_table_and_a_new_file(
    sessions: list[TableSession], tmp_path: Path
) -> None:
    first = new(sessions, config(None, "greedy"), tmp_path / "a.jsonl")
    again = first.rematch()
    sessions.append(again)
    assert again.table is not first.table and again.config.seats == first.config.seats
    assert again.path is not None and again.path.parent == tmp_path
    assert again.path != first.path and again.path.exists()


def test_move_log_is_the_narrators_and_private_per_viewer(
    sessions: list[TableSession],
) -> None:
    session = new(sessions, config(None, None))
    assert session.submit(Exchange(0)) is None
    public = session.log(viewer=SPECTATOR)
    assert public[-1] == "Ann exchanged their hand"
    mine = session.log(viewer=0)
    assert mine[-1].startswith("You exchanged your hand and got ")
    hand = session.handle(0).view.hand(0)
    assert not any(str(card) in " ".join(public[1:]) for card in hand)
    assert session.log() == session.log(viewer=1), "now Bob's view: Bob to move"


def test_a_finished_game_is_not_listed_for_continue(
    sessions: list[TableSession], tmp_path: Path
) -> None:
    session = new(sessions, config("random", "greedy"), tmp_path / "games" / "done.jsonl")
    while not session.is_over:
        assert session.play_bot_turn() is None
    session.close()
    assert unfinished_games(tmp_path / "games") == []
    assert any(
        isinstance(e, GameEnded) for e in load_record(tmp_path / "games" / "done.jsonl").events
    )
    assert session.result() and session.log()[-1] == session.result()


def test_turn_boundaries_step_through_whole_turns(sessions: list[TableSession]) -> None:
    session = new(sessions, config(None, None))
    for _ in range(4):
        play_any(session)
    events = list(session.events)
    bounds = turn_boundaries(events)
    assert len(bounds) == 5
    assert [fold(events[:b]).turn for b in bounds] == [0, 1, 2, 3, 4]
