"""The narrator (frontends/narration.py) tells a stand-in's moves as the stand-in's: to the
person it played for ("Your stand-in (greedy) played …"), to the others and to spectators
("Ann's stand-in (greedy) …"), from the zombie-mode notices of the log, and "You …" again
once the person is back. Issue 24 (drops are visible)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cinco.core.engine.config import GameConfig
from cinco.core.engine.events import (
    SPECTATOR,
    CardDrawn,
    CardPlayed,
    Event,
    Notice,
    TurnEnded,
    Viewer,
)
from cinco.frontends.narration import Narrator


def notice(code: str, seat: int, **params: str) -> Notice:
    return Notice(code=code, params=tuple(sorted({"name": "Ann", **params}.items())), seat=seat)


def play(seat: int, card: int, space: int | None) -> list[Event]:
    return [CardPlayed(seat=seat, card=card, space=space), TurnEnded(seat, "play", 1 - seat)]


def told(viewer: Viewer, events: list[Event]) -> list[str]:
    narrator = Narrator(GameConfig.for_players(2), viewer, in_setup=False)
    for event in events:
        narrator.feed(event.seen_by(viewer))  # as the viewer is sent it
    return [line.text for line in narrator.lines]


def test_a_stand_ins_moves_are_its_own_until_the_person_is_back() -> None:
    events = [
        notice("stand_in", 0, bot="greedy", reason="disconnected"),
        *play(0, 57, 60),
        *play(1, 21, 30),
        CardDrawn(seat=0, card=5),
        TurnEnded(0, "draw", 1),
        *play(1, 88, None),
        notice("stand_in_ended", 0, reason="back"),
        *play(0, 40, 41),
    ]
    ann = told(0, events)
    assert ann[1] == "Your stand-in (greedy) played 57 and placed on 60"
    assert ann[3] == "Your stand-in (greedy) drew 5"
    assert ann[-1] == "You played 40 and placed on 41"
    for viewer in (1, SPECTATOR):
        lines = told(viewer, events)
        assert lines[1] == "Ann's stand-in (greedy) played 57 and placed on 60"
        assert lines[-1] == "Ann played 40 and placed on 41"
    assert told(1, events)[3] == "Ann's stand-in (greedy) drew a card"  # Bob sees no card
    assert told(SPECTATOR, events)[2] == "Bob played 21 and placed on 30"


def test_a_turn_played_for_someone_out_of_time_is_the_bots_and_only_that_one() -> None:
    events = [
        notice("played_for", 0, bot="greedy", reason="timeout"),
        *play(0, 20, None),
        *play(1, 30, 31),
        *play(0, 33, 34),
    ]
    assert told(0, events)[1:] == [
        "Your stand-in (greedy) burned 20",
        "Bob played 30 and placed on 31",
        "You played 33 and placed on 34",
    ]
    assert told(1, events)[1] == "Ann's stand-in (greedy) burned 20"


@given(st.lists(st.sampled_from(["stand_in", "stand_in_ended", "played_for", "move"]), max_size=30))
def test_only_a_stand_ins_turn_is_told_as_a_stand_ins(steps: list[str]) -> None:
    """Whatever order the notices come in, a turn of seat 0 is told "Your stand-in" exactly
    when a stand-in plays the seat, or a bot plays that one turn for it."""
    standing = once = False
    events: list[Event] = []
    expected: list[bool] = []
    for step in steps:
        if step == "move":
            events += play(0, 50, 51)
            expected.append(standing or once)
            once = False
        else:
            events.append(notice(step, 0, bot="greedy", reason="x"))
            standing = {"stand_in": True, "stand_in_ended": False}.get(step, standing)
            once = once or step == "played_for"
    lines = [text for text in told(0, events) if "51" in text]
    assert [text.startswith("Your stand-in (greedy)") for text in lines] == expected
