"""A log's turns are checked against the rules: tampered records are refused with the line at
fault, and a turn cut short by a killed process can be left out on resume."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from cinco import Game, GameConfig, RecordError, Seat, default_registry, load_record
from cinco.core.engine.events import CardPlayed, EventError, TurnEnded
from cinco.core.engine.verify import TurnError, check_turns
from cinco.core.records.record import dumps, header

SETUP = 2 + 4 * 2


def bot_game(seed: int = 3, turns: int | None = None, variants: tuple[str, ...] = ()) -> Game:
    seats = [Seat("a", bot="greedy"), Seat("b", bot="random")]
    config = default_registry().configure(
        2, seats=seats, seed=seed, turn_limit=300, variants=variants
    )
    game = Game.new(config)
    game.play_bots(max_turns=turns)
    return game


def write_record(path: Path, events: list) -> Path:
    lines = [json.dumps(header())] + [dumps(e) for e in events]
    path.write_text("\n".join(lines) + "\n")
    return path


def first_play(events: list) -> int:
    return next(i for i, e in enumerate(events) if isinstance(e, CardPlayed) and e.space)


def test_a_finished_game_passes_the_rule_check():
    game = bot_game()
    assert check_turns(list(game.events), game.rules, SETUP) == len(game.events)


def test_A1_a_record_placing_a_token_below_its_card_is_refused(tmp_path):
    events = list(bot_game().events)
    i = first_play(events)
    played = events[i]
    below = next(n for n in range(1, played.card) if game_free(events[:i], n))
    events[i] = replace(played, space=below)
    with pytest.raises(RecordError) as error:
        load_record(write_record(tmp_path / "t.jsonl", events))
    assert error.value.line == i + 2
    assert "or higher" in str(error.value)


def game_free(events: list, space: int) -> bool:
    return Game.from_events(events).state.is_free(space)


def test_P4_a_record_passing_the_turn_to_the_wrong_seat_is_refused(tmp_path):
    events = list(bot_game().events)
    i = next(i for i, e in enumerate(events) if isinstance(e, TurnEnded))
    events[i] = replace(events[i], next_seat=events[i].seat)
    with pytest.raises(RecordError) as error:
        load_record(write_record(tmp_path / "t.jsonl", events))
    # The bad turn_ended, or the next event, which then comes from the wrong seat.
    assert error.value.line in (i + 2, i + 3)


def test_E1_a_record_that_goes_on_after_a_win_is_refused(tmp_path):
    """The winning play must be followed by game_ended: a turn_ended there is refused."""
    game = bot_game()
    events = list(game.events)
    assert game.state.result is not None and game.state.result.reason == "line"
    ended = events[-1]
    events[-1] = TurnEnded(seat=ended.seat, action=ended.action, next_seat=1 - ended.seat)
    with pytest.raises(RecordError) as error:
        load_record(write_record(tmp_path / "t.jsonl", events))
    assert error.value.line == len(events) + 1
    assert "game_ended" in str(error.value) or "GameEnded" in str(error.value)


def test_the_rule_check_can_be_skipped_for_foreign_logs(tmp_path):
    events = list(bot_game().events)
    i = first_play(events)
    below = next(n for n in range(1, events[i].card) if game_free(events[:i], n))
    events[i] = replace(events[i], space=below)
    record = load_record(write_record(tmp_path / "t.jsonl", events), check_rules=False)
    assert len(record.events) == len(events)


def test_from_events_refuses_a_turn_the_rules_forbid():
    events = list(bot_game().events)
    i = first_play(events)
    events[i] = replace(events[i], space=events[i].card - 1 or None)
    with pytest.raises(EventError):
        Game.from_events(events)


def test_a_turn_cut_short_is_dropped_on_resume():
    """A kill between a play and its turn_ended leaves half a turn: resuming starts that turn
    again instead of letting the player act twice."""
    game = bot_game(turns=6)
    events = list(game.events)
    cut = events
    game.play_bot_turn()
    half = list(game.events)[: len(events) + 1]  # the next turn's first event only
    assert not isinstance(half[-1], TurnEnded)
    kept = Game.from_events(half)  # a valid prefix: accepted as it is
    assert len(kept.events) == len(half)
    resumed = Game.from_events(half, complete_turns=True)
    assert len(resumed.events) == len(cut)
    assert resumed.state == Game.from_events(cut).state


def test_turn_error_names_the_event():
    events = list(bot_game().events)
    i = first_play(events)
    events[i] = replace(events[i], space=None)
    game = Game.from_events(events[:i])
    with pytest.raises(TurnError) as error:
        check_turns(events, game.rules, SETUP)
    assert error.value.index == i


def test_joker_records_are_checked_with_joker_rules(tmp_path):
    game = bot_game(seed=11, variants=("joker",))
    path = write_record(tmp_path / "j.jsonl", list(game.events))
    assert load_record(path).events == list(game.events)
    config = game.config
    assert isinstance(config, GameConfig) and config.variants == ("joker",)


def test_a_record_whose_variant_is_not_installed_is_refused_naming_it(tmp_path):
    from cinco import Registry, Variant, hookimpl

    class Plain:
        """A variant with no rule hooks of its own: plays like the standard game."""

    class Plugin:
        @hookimpl
        def cinco_register_variants(self) -> list[Variant]:
            return [Variant("elsewhere", "only installed elsewhere", rules=Plain())]

    registry = Registry(entry_points=False, plugins=[Plugin()])
    seats = [Seat("a", bot="greedy"), Seat("b", bot="random")]
    config = registry.configure(2, seats=seats, seed=2, variants=("elsewhere",), turn_limit=50)
    game = Game.new(config, registry=registry)
    game.play_bots()
    path = write_record(tmp_path / "v.jsonl", list(game.events))
    with pytest.raises(RecordError, match="elsewhere") as info:
        load_record(path)
    assert info.value.line == 2 and "Install" in str(info.value)
    # Its format can still be read, unchecked against the rules.
    assert load_record(path, check_rules=False).events == list(game.events)
