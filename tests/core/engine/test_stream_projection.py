"""One projection of a viewer's stream (:mod:`cinco.core.engine.projection`): over any pattern
of deliveries (prefixes, repeats from overlapping resubscriptions, gaps, undos in the log) it
holds the fold of the viewer's events up to its cursor; and the one rule for where
``subscribe(after)`` resumes, as the table follows it."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cinco.core.engine.commands import Exchange
from cinco.core.engine.config import GameConfig
from cinco.core.engine.events import SPECTATOR, Event, Viewer
from cinco.core.engine.projection import NOTHING, Projection, StreamCursor
from cinco.core.engine.state import fold
from cinco.core.game.game import Game
from cinco.core.table.log import turns
from cinco.core.table.protocol import Accepted, Envelope, Message, Prompt, Subscribe
from cinco.core.table.requests import ViewerRequest
from cinco.core.table.table import Table


def played_log(seed: int, moves: int) -> list[Event]:
    """A two-person game's log with undos in it, from *seed*."""
    game = Game.new(GameConfig.for_players(2, seed=seed, first_seat=0))
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        counted = turns(game.store)
        if counted and rng.random() < 0.2:
            turn = rng.choice(counted)
            game.undo(turn.seat, turn.start)
            continue
        legal = game.legal_actions()
        game.execute(legal[rng.randrange(len(legal))])
    return list(game.store)


deliveries = st.lists(st.tuples(st.integers(-12, 3), st.integers(1, 25)), max_size=15)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**16),
    moves=st.integers(0, 40),
    viewer=st.sampled_from([0, 1, SPECTATOR]),
    plan=deliveries,
)
def test_the_projection_is_the_fold_of_what_it_took(
    seed: int, moves: int, viewer: Viewer, plan: list[tuple[int, int]]
) -> None:
    seen = [event.seen_by(viewer) for event in played_log(seed, moves)]
    stream = [Envelope("t", seq, event) for seq, event in enumerate(seen)]
    projection: Projection[Envelope] = Projection()
    for offset, length in plan:
        # A resubscription from before the cursor (repeats), at it, or past it (a gap).
        start = min(max(0, projection.seq + 1 + offset), len(stream))
        for envelope in stream[start : start + length]:
            before = projection.seq
            taken = projection.take(envelope)
            assert taken == (envelope.seq == before + 1)
        assert projection.log == stream[: projection.seq + 1]
        if projection.seq >= 0:
            assert projection.state == fold(seen[: projection.seq + 1])
    # The rule: subscribe(projection.seq) brings the rest, and nothing twice.
    cursor = StreamCursor()
    cursor.resume(projection.seq)
    for envelope in stream:
        if cursor.envelope_due(envelope.seq):
            assert projection.take(envelope)
    assert projection.log == stream
    assert projection.state == fold(seen)
    assert projection.after(3) == stream[4:]


def test_a_cursor_resumes_after_the_seq_it_is_given_and_prompts_again() -> None:
    cursor = StreamCursor()
    assert cursor.next == 0 and cursor.prompt_due(-1)
    assert [seq for seq in range(5) if cursor.envelope_due(seq)] == [0, 1, 2, 3, 4]
    assert cursor.prompt_due(4) and not cursor.prompt_due(4)  # once per event
    assert not cursor.prompt_due(3)  # a stale prompt, before the last event sent
    cursor.resume(2)
    assert cursor.next == 3
    assert [seq for seq in range(5) if cursor.envelope_due(seq)] == [3, 4]
    assert cursor.prompt_due(4)  # the prompt again: the viewer may have lost it
    cursor.resume(NOTHING - 5)  # nothing before the start
    assert cursor.next == 0


def test_the_table_resumes_a_subscription_after_its_seq() -> None:
    with Table.create(GameConfig.for_players(2, seed=5, first_seat=0)) as table:
        ann = table.seat(0)
        ann.submit(Exchange(seat=0))
        ben = table.seat(1)
        last = ben.seq
        assert ben.legal().can_exchange  # prompted once
        ben.pump()
        # The handle's channel, asked directly (the table's side of the rule): subscribe
        # after event 5.
        stream_id = ben._stream
        answer = ben._channel.call(ViewerRequest(stream_id, Subscribe(5)))
        messages = ben._inbox
        resent: list[Message] = []
        while not messages.empty():
            resent.append(messages.get_nowait())
        envelopes = [m for m in resent if isinstance(m, Envelope)]
        assert [e.seq for e in envelopes] == list(range(6, last + 1))
        assert [m.seq for m in resent if isinstance(m, Prompt)] == [last]  # prompted again
        assert isinstance(answer, Accepted) and answer.seq == last
