"""The tablet app's table logic, which needs no display: privacy (S2), undo, autosave and
Continue, the move log. And the promise that ``import cinco`` never imports Kivy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cinco.core.commands import Draw, Exchange, PlayCard
from cinco.core.config import GameConfig, Seat
from cinco.core.events import SPECTATOR
from cinco.core.record import load_record
from cinco.core.state import fold
from cinco.frontends.kivy_app.session import (
    TableSession,
    data_dir,
    describe,
    turn_boundaries,
    unfinished_games,
)


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


def play_any(session: TableSession) -> None:
    """The person to move plays the first legal command."""
    session.execute(next(iter(session.legal())))


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


def test_one_person_always_sees_their_own_hand() -> None:
    """S2: with one person and a bot, the screen shows that person's view, even on the bot's
    turn, and never needs the privacy screen."""
    session = TableSession.new(config(None, "greedy"), path=None)
    assert session.viewer() == 0 and not session.needs_privacy(None)
    play_any(session)
    assert session.bot_to_move and session.viewer() == 0
    assert session.view().hand(1) == (0,) * session.state.hand_size(1)


def test_privacy_between_two_people() -> None:
    """S2: the next person's hand is only shown after the tablet is passed."""
    session = TableSession.new(config(None, None), path=None)
    assert session.needs_privacy(shown=None)
    assert not session.needs_privacy(shown=0)
    play_any(session)
    assert session.to_move == 1 and session.needs_privacy(shown=0)
    assert not session.needs_privacy(shown=1)


def test_no_hand_while_a_bot_moves_between_people() -> None:
    session = TableSession.new(config(None, "greedy", None, "greedy"), path=None)
    play_any(session)
    assert session.bot_to_move and session.viewer() is SPECTATOR


def test_refusals_are_the_engines_words() -> None:
    """A5: with four cards Draw is refused and Exchange allowed; after a play, the reverse."""
    session = TableSession.new(config(None, None), path=None)
    assert "full" in (session.draw_refusal() or "")
    assert session.exchange_refusal() is None
    card, spaces = session.legal().plays[0]
    session.execute(PlayCard(0, card, spaces[0] if spaces else None))
    session.execute(Exchange(1))
    assert session.draw_refusal() is None
    assert "full hand" in (session.exchange_refusal() or "")
    assert session.legal().can_draw and not session.legal().can_exchange
    session.execute(Draw(0))


def test_undo_goes_back_to_the_persons_previous_turn(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    session = TableSession.new(config(None, "greedy"), path=path)
    assert not session.can_undo
    start = len(session.game.events)
    hand = session.view().hand(0)
    session.execute(Exchange(0))
    session.play_bot_turn()
    assert session.can_undo
    session.undo()
    assert len(session.game.events) == start and session.view().hand(0) == hand
    assert len(load_record(path).events) == start, "the autosave is rewritten"


def test_no_undo_between_people() -> None:
    session = TableSession.new(config(None, None), path=None)
    play_any(session)
    assert not session.can_undo


def test_continue_finds_the_newest_unfinished_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CINCO_DATA_DIR", str(tmp_path))
    assert data_dir() == tmp_path
    folder = tmp_path / "games"
    old = TableSession.new(config(None, "greedy", seed=1), path=folder / "a.jsonl")
    play_any(old)
    new = TableSession.new(config(None, "greedy", seed=2), path=folder / "b.jsonl")
    play_any(new)
    (folder / "junk.jsonl").write_text("not a record\n")
    import os

    os.utime(folder / "a.jsonl", (1, 1))
    assert unfinished_games() == [folder / "b.jsonl", folder / "a.jsonl"]
    resumed = TableSession.resume(folder / "b.jsonl")
    assert resumed.state == new.state


def test_move_log_uses_public_information_only() -> None:
    session = TableSession.new(config(None, None), path=None)
    session.execute(Exchange(0))
    lines = session.log()
    assert lines == ["Ann exchanged their hand"]
    hand = session.game.state.hand(0)
    assert not any(str(card) in " ".join(lines) for card in hand)


def test_turn_boundaries_step_through_whole_turns() -> None:
    session = TableSession.new(config(None, None), path=None)
    for _ in range(4):
        play_any(session)
    events = list(session.game.events)
    bounds = turn_boundaries(events)
    assert len(bounds) == 5
    assert [fold(events[:b]).turn for b in bounds] == [0, 1, 2, 3, 4]


def test_describe_burn_and_play() -> None:
    from cinco.core.events import CardPlayed

    cfg = config(None, None)
    assert describe(CardPlayed(seat=1, card=88, space=None), cfg) == "Bob's 88 burned"
