"""Undo: linear in the log however many undos it holds, and it never shows anyone a card.

An :class:`~cinco.core.engine.events.Undone` event takes the game back to the state after the log's
first ``back_to`` events. Folding that by re-folding the log before it made every undo replay
each earlier one: the cost doubled with each undo (issue 23). The work is counted here as calls
of :func:`cinco.core.engine.state.evolve` (the step every fold is made of), never as time; a fold
over budget stops at once, so that an exponential one fails instead of running for hours.

At a table (:class:`~cinco.core.table.table.Table`), an undo must not tell any person (a seat no bot
plays) where a card is that they could not know without it. Precisely: every card an event
taken back by the undo showed a person face up (a play shows its card to everyone; a draw or
an exchange shows the cards to its seat) must, after the undo, be in that person's own hand,
and not in another seat's hand or the deck. And nothing is taken back once the game is over.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cinco.core.engine import state as state_module
from cinco.core.engine.commands import Draw, PlayCard
from cinco.core.engine.config import GameConfig, Seat
from cinco.core.engine.events import CardDrawn, CardPlayed, Event, HandDiscarded, Undone
from cinco.core.engine.state import GameState, fold
from cinco.core.engine.verify import check_log
from cinco.core.game.game import Game
from cinco.core.records.record import dumps, header, load_record, loads
from cinco.core.table.handle import SeatHandle
from cinco.core.table.log import turns
from cinco.core.table.protocol import Accepted, Refused
from cinco.core.table.table import Table

#: A fold of a log may evolve each event this many times over (a game stores an event once
#: and checks its turn once more) ...
PER_EVENT = 4
#: ... and each undo may cost this many more evolutions: finding the state it goes back to
#: from the nearest state kept (at most ``KEEP_EVERY`` events before it).
PER_UNDO = getattr(state_module, "KEEP_EVERY", 32)

#: The codes an undo at a table may be refused with (anything else is a bug).
UNDO_REFUSALS = {
    "nothing_to_undo",
    "undo_showed_cards",
    "undo_other_moved",
    "undo_stand_in",
    "undo_game_over",
    "undo_card_seen",
    "undo_seen_by_others",
}


class TooMuchWork(Exception):
    """More evolutions than the budget: the fold is not linear in the log."""


@contextmanager
def counted_evolve(budget: int) -> Iterator[list[int]]:
    """Count the calls of ``evolve`` (wherever the state module's fold, undo and timeline
    call it) while inside; raise :class:`TooMuchWork` past *budget*."""
    original = state_module.evolve
    calls = [0]

    def evolve(state: GameState, event: Event) -> GameState:
        calls[0] += 1
        if calls[0] > budget:
            raise TooMuchWork(f"over {budget} evolutions")
        return original(state, event)

    state_module.evolve = evolve  # type: ignore[assignment]
    try:
        yield calls
    finally:
        state_module.evolve = original  # type: ignore[assignment]


def undo_count(log: Sequence[Event]) -> int:
    return sum(type(event) is Undone for event in log)


def without_undone(log: Sequence[Event]) -> list[list[Event]]:
    """For each count *n* of *log*'s events, the log that the first *n* mean with every undone
    event and every undo left out (the meaning of an undo, worked out by list surgery)."""
    kept: list[list[Event]] = [[], [log[0]]]
    for index in range(1, len(log)):
        event = log[index]
        if type(event) is Undone:
            assert isinstance(event, Undone)
            kept.append(kept[event.back_to])
        else:
            kept.append([*kept[index], event])
    return kept


def same_position(a: GameState, b: GameState) -> bool:
    """Equal but for ``events`` (which counts every event, undone ones included)."""
    return replace(a, events=0) == replace(b, events=0)


# -- (a) and (d): a log with many undos folds in linear time, and means what it did -----------


#: Building a game costs at most this many evolutions a step (a turn's events, worked out
#: once, or an undo) beyond the deal.
PER_STEP = 16 + PER_UNDO


@st.composite
def games_with_undos(draw: st.DrawFn) -> tuple[GameConfig, list[int]]:
    """A game of bots, and its steps: a bot's turn (-1), or an undo back to the start of a
    turn still counted (which one, from the newest), as often as every other step (the
    engine's undo: the table's policy is not asked)."""
    players = draw(st.sampled_from([2, 4]))
    config = GameConfig.for_players(
        players,
        bots=("random",) * players,
        seed=draw(st.integers(0, 2**32)),
        turn_limit=400,
        variants=draw(st.sampled_from([(), ("joker",)])),
    )
    steps = draw(st.lists(st.one_of(st.just(-1), st.integers(0, 40)), min_size=20, max_size=160))
    return config, steps


def build(config: GameConfig, steps: Sequence[int]) -> Game:
    """The game *steps* make (see :func:`games_with_undos`), in linear work."""
    with counted_evolve(200 + PER_STEP * len(steps)):
        game = Game.new(config)
        for step in steps:
            if game.is_over:
                break
            counted = turns(game.store)
            if step >= 0 and counted:
                turn = counted[-1 - step % len(counted)]
                game.undo(turn.seat, turn.start)
            else:
                game.play_bot_turn()
    return game


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games_with_undos())
def test_a_log_with_undos_folds_in_time_linear_in_its_length(
    plan: tuple[GameConfig, list[int]],
) -> None:
    """(a) Playing, folding, rebuilding a game from, checking and reading a log with K undos
    costs at most a few evolutions per event and ``KEEP_EVERY`` per undo. (d) Its fold is
    the fold of the same log with the undone events left out, after every one of its events."""
    log = list(build(*plan).store)
    budget = PER_EVENT * len(log) + PER_UNDO * undo_count(log)
    with counted_evolve(budget):
        folded = fold(log)
    with counted_evolve(budget):
        game = Game.from_events(log)
    with counted_evolve(budget):
        check_log(log, game.rules)
    text = "\n".join([json.dumps(header()), *(dumps(event) for event in log)]) + "\n"
    for check_rules in (True, False):
        with counted_evolve(budget):
            record = loads(text, check_rules=check_rules)
        assert record.events == log
    event(f"undos: {undo_count(log) // 10 * 10}+")

    meant = without_undone(log)
    assert same_position(folded, fold(meant[-1]))
    assert game.state == folded
    # The states a game keeps, and those it works out from them: around every undo, and a
    # spread of the others.
    counts = set(range(1, len(log) + 1, 1 + len(log) // 30))
    for index, undone in enumerate(log):
        if type(undone) is Undone:
            assert isinstance(undone, Undone)
            counts |= {index, index + 1, undone.back_to, undone.back_to + 1}
    for count in sorted(counts & set(range(1, len(log) + 1))):
        assert same_position(game.state_at(count), fold(meant[count]))


def test_the_fold_of_many_undos_stays_linear() -> None:
    """The issue's case: a record with 80 undos (each taking back one turn, as a person
    would) folds in a few evolutions per event, like one without undos."""
    config = GameConfig.for_players(2, bots=("random", "random"), seed=23)
    # Two turns of three are taken back (each the newest turn), so that the game goes on.
    game = build(config, [-1, 0, -1, -1, 0, -1] * 40)
    log = list(game.store)
    assert undo_count(log) == 80
    with counted_evolve(PER_EVENT * len(log) + PER_UNDO * 80) as calls:
        assert same_position(fold(log), fold(without_undone(log)[-1]))
    assert calls[0] <= 2 * len(log) + PER_UNDO * 80


# -- (b) and (c): at a table, an undo shows nobody a card, and the end is final ---------------


def shown(event: Event) -> tuple[int, ...]:
    """The cards *event* (as one person saw it) showed them face up."""
    if isinstance(event, CardPlayed):
        return (event.card,)
    if isinstance(event, CardDrawn) and event.card is not None:
        return (event.card,)
    if isinstance(event, HandDiscarded) and event.cards is not None:
        return event.cards
    return ()


def check_nothing_shown(
    handles: dict[int, SeatHandle], undone: Undone, at: int, path: Path
) -> None:
    """(b) After the undo at *at* (its seq), each person holds every card the events it took
    back showed them; none of those cards is in another hand or the draw pile."""
    referee = fold(load_record(path).events)
    for person, handle in handles.items():
        log = [envelope.event for envelope in handle.events()]
        assert log[at] == undone
        seen = {card for event in log[undone.back_to : at] for card in shown(event)}
        mine = set(handle.view.hand(person))
        elsewhere = {
            card
            for card in seen - mine
            if card in referee.draw_pile
            or any(card in hand for seat, hand in enumerate(referee.hands) if seat != person)
        }
        assert not elsewhere, f"seat {person} knows where {sorted(elsewhere)} are, after {undone}"
        assert seen <= mine, f"seat {person} saw {sorted(seen - mine)} taken back elsewhere"


SEATS = st.sampled_from(["person", "person", "random", "greedy"])


@st.composite
def tables(draw: st.DrawFn) -> GameConfig:
    players = draw(st.sampled_from([2, 4]))
    kinds = draw(st.lists(SEATS, min_size=players, max_size=players))
    if "person" not in kinds:
        kinds[draw(st.integers(0, players - 1))] = "person"
    seats = tuple(
        Seat(f"P{n}") if kind == "person" else Seat(f"B{n}", bot=kind)
        for n, kind in enumerate(kinds)
    )
    teams = 2
    return GameConfig(
        seats=seats,
        teams=teams,
        layout=f"{teams}x{players // teams}",
        seed=draw(st.integers(0, 2**32)),
        variants=draw(st.sampled_from([(), ("joker",)])),
    )


def finish(table: Table, handles: dict[int, SeatHandle]) -> None:
    """Play the game to its end: bots as they will, people their first play (or action)."""
    for _step in range(3000):
        status = table.status()
        if status.is_over:
            return
        if status.bot_to_move:
            assert isinstance(table.play_bot_turn(), Accepted)
            continue
        legal = list(handles[status.to_move].legal())
        plays = [command for command in legal if isinstance(command, PlayCard)]
        assert isinstance(handles[status.to_move].submit((plays or legal)[0]), Accepted)
    raise AssertionError("the game did not end")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=tables(), data=st.data())
def test_an_undo_never_shows_a_card_and_the_end_is_final(
    config: GameConfig, data: st.DataObject
) -> None:
    """Random games at tables of people and bots, with undos tried at random moments by
    random people: (b) after every accepted undo no person knows where a card is that they
    would not know without it, and a refused one changes nothing; (c) once the game is over,
    every undo is refused (``undo_game_over``) and the log stays as it is."""
    people = [n for n, seat in enumerate(config.seats) if not seat.is_bot]
    accepted = 0
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        with Table.create(config, record=path) as table:
            handles = {person: table.seat(person) for person in people}
            for _step in range(data.draw(st.integers(10, 80), label="steps")):
                status = table.status()
                if status.is_over:
                    break
                if data.draw(st.integers(0, 9), label="try undo") < 3:
                    person = data.draw(st.sampled_from(people), label="who undoes")
                    before = handles[person].seq
                    answer = handles[person].undo()
                    if isinstance(answer, Accepted):
                        accepted += 1
                        log = [e.event for e in handles[person].events()]
                        undone = next(e for e in log[before + 1 :] if type(e) is Undone)
                        assert isinstance(undone, Undone)
                        check_nothing_shown(handles, undone, log.index(undone, before + 1), path)
                    else:
                        assert isinstance(answer, Refused) and answer.code in UNDO_REFUSALS
                        assert handles[person].seq == before, "a refused undo changed nothing"
                    continue
                if status.bot_to_move:
                    assert isinstance(table.play_bot_turn(), Accepted)
                    continue
                handle = handles[status.to_move]
                command = data.draw(st.sampled_from(list(handle.legal())), label="move")
                assert isinstance(handle.submit(command), Accepted)
            finish(table, handles)
            events = table.status().seq
            for handle in handles.values():
                refusal = handle.undo_refusal()
                assert refusal is not None and refusal.code == "undo_game_over", refusal
                answer = handle.undo()
                assert isinstance(answer, Refused) and answer.code == "undo_game_over"
                assert "over" in answer.message
            assert table.status().seq == events, "nothing follows the end"
        # (d) for what each person saw, too: their fold is that of the log without undone
        # events, and the record's is the referee's.
        log = load_record(path).events
        assert same_position(fold(log), fold(without_undone(log)[-1]))
        assert fold(log).is_over and undo_count(log) == accepted
    event(f"undos accepted: {min(accepted, 3)}{'+' if accepted > 3 else ''}")
    event(f"people: {len(people)} of {config.players}")


def test_the_rule_in_three_tables() -> None:
    """The rule, each way it refuses, at tables of known seeds: a person alone with a bot
    may take a play back until the bot plays a card (then ``undo_card_seen``, naming the
    bot); with two people, the other saw the card (``undo_seen_by_others``, naming them); a
    draw showed a card (``undo_showed_cards``)."""
    against = GameConfig(
        seats=(Seat("Ann"), Seat("Bot", bot="greedy")), teams=2, layout="2x1", seed=5
    )
    with Table.create(replace(against, first_seat=0)) as table:
        ann = table.seat(0)
        play = ann.legal().plays[0]
        assert isinstance(ann.submit(_play(0, play)), Accepted)
        assert ann.undo_refusal() is None  # only the bot saw it
        for _turn in range(60):
            last = table.status().seq
            table.play_bots()
            replied = [e.event for e in ann.events(last)]
            refusal = ann.undo_refusal()
            if any(isinstance(e, CardPlayed) for e in replied):
                assert refusal is not None and refusal.code == "undo_card_seen"
                assert "Bot has played a card" in refusal.message
                break
            assert refusal is None  # the bot drew or exchanged: Ann saw no card of it
            assert isinstance(ann.submit(_play(0, ann.legal().plays[0])), Accepted)
        else:
            raise AssertionError("the bot never played")
    people = GameConfig(seats=(Seat("Ann"), Seat("Bob")), teams=2, layout="2x1", seed=5)
    with Table.create(replace(people, first_seat=0)) as table:
        ann = table.seat(0)
        assert isinstance(ann.submit(_play(0, ann.legal().plays[0])), Accepted)
        refusal = ann.undo_refusal()
        assert refusal is not None and refusal.code == "undo_seen_by_others"
        assert "Bob has seen the card you played" in refusal.message
    with Table.create(replace(against, first_seat=0)) as table:
        ann = table.seat(0)
        while ann.legal().plays:  # play the hand out, then draw
            assert isinstance(ann.submit(_play(0, ann.legal().plays[0])), Accepted)
            table.play_bots()
        assert isinstance(ann.submit(Draw(0)), Accepted)
        refusal = ann.undo_refusal()
        assert refusal is not None and refusal.code == "undo_showed_cards"


def _play(seat: int, play: tuple[int, tuple[int, ...]]) -> PlayCard:
    card, spaces = play
    return PlayCard(seat, card, spaces[0] if spaces else None)
