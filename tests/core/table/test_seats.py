"""The table and its seat handles (issue 10): submit, the sequenced stream, undo without
peeking, a sturdy stream, persistence, and the defects the seats issue listed, each with a test
that failed before the table existed."""

from __future__ import annotations

import ast
import json
import threading
from pathlib import Path

import pytest

from cinco import (
    CardPlayed,
    Draw,
    Event,
    Exchange,
    Game,
    GameConfig,
    Layout,
    Notice,
    PlayCard,
    Registry,
    Seat,
    TurnEnded,
    hookimpl,
    load_record,
)
from cinco.core.engine.errors import RecordError
from cinco.core.engine.events import Undone
from cinco.core.engine.state import GameState
from cinco.core.records.saves import new_record_path
from cinco.core.table.handle import SeatHandle
from cinco.core.table.log import turns
from cinco.core.table.protocol import (
    Accepted,
    Envelope,
    Prompt,
    Refused,
    Submit,
    Subscribe,
    Undo,
    message_from_dict,
)
from cinco.core.table.table import Table

ROOT = Path(__file__).resolve().parents[3]
REGISTRY = Registry(entry_points=False)


def two_people(**kwargs: object) -> GameConfig:
    return REGISTRY.configure(2, seats=[Seat("Ann"), Seat("Bob")], first_seat=0, **kwargs)  # type: ignore[arg-type]


def against_bot(**kwargs: object) -> GameConfig:
    seats = [Seat("Ann"), Seat("Bot", bot="greedy")]
    return REGISTRY.configure(2, seats=seats, first_seat=0, **kwargs)  # type: ignore[arg-type]


def first_play(legal: object) -> PlayCard | Draw:
    """A play if the hand has a card (undo allows taking it back), else a draw."""
    commands = list(legal)  # type: ignore[call-overload]
    return next((c for c in commands if isinstance(c, PlayCard)), commands[0])


# -- handles ---------------------------------------------------------------------------------


def test_a_seat_submits_for_itself_only_and_refusals_are_data() -> None:
    with Table.create(two_people(seed=11), registry=REGISTRY) as table:
        ann, bob, watcher = table.seat(0), table.seat(1), table.spectator()
        assert len(ann.legal()) > 0 and len(bob.legal()) == 0  # only the seat to move
        refused = bob.submit(Draw(seat=0))
        assert isinstance(refused, Refused) and refused.code == "wrong_seat"
        refused = bob.submit(Draw(seat=1))
        assert isinstance(refused, Refused) and refused.code == "not_your_turn"
        assert "Ann" in refused.message and refused.to_dict()["params"]["to_move_name"] == "Ann"
        assert watcher.submit(Draw(seat=0)).code == "not_seated"  # type: ignore[union-attr]
        before = ann.seq
        refused = ann.submit(Draw(seat=0))  # a full hand cannot draw (A5)
        assert isinstance(refused, Refused) and refused.code == "hand_full" and ann.seq == before
        answer = ann.submit(first_play(ann.legal()))
        assert isinstance(answer, Accepted) and answer.seq == ann.seq == bob.seq == watcher.seq
        assert bob.view.turn == 1 and len(bob.legal()) > 0


def test_every_viewer_gets_every_event_in_order_projected() -> None:
    with Table.create(against_bot(seed=5), registry=REGISTRY) as table:
        ann, watcher = table.seat(0), table.spectator()
        for _ in range(5):
            ann.submit(first_play(ann.legal()))
            table.play_bots()
        mine, public = ann.events(), watcher.events()
        assert [e.seq for e in mine] == list(range(len(mine))) == [e.seq for e in public]
        assert all(e.table == table.id for e in mine)
        # The projections differ only where Ann may know more.
        drawn = [e.event for e in mine if e.event.type == "card_drawn"]
        assert any(getattr(e, "card", None) for e in drawn)
        assert all(
            getattr(e.event, "card", None) is None for e in public if e.event.type == "card_drawn"
        )
        # The handle's own fold equals what it was sent, folded again.
        from cinco.core.engine.state import fold

        assert fold([e.event for e in mine]) == ann.view


def test_subscribing_after_a_seq_continues_with_nothing_missed_or_repeated() -> None:
    with Table.create(against_bot(seed=8), registry=REGISTRY) as table:
        ann = table.seat(0)
        ann.submit(first_play(ann.legal()))
        table.play_bots()
        seen = ann.events()
        later = table.seat(0)  # a second device of the same player, say
        later._request(Subscribe(after=seen[5].seq))  # a reconnect after event 5
        ann.submit(first_play(ann.legal()))
        again = [e.seq for e in later.events()]
        assert again == list(range(len(again)))  # no repeat, no gap
        assert later.events()[-1] == ann.events()[-1]


def test_messages_round_trip_through_json() -> None:
    """The handle's messages are the wire protocol: each survives JSON unchanged."""
    with Table.create(two_people(seed=2), registry=REGISTRY) as table:
        ann = table.seat(0)
        prompts: list[object] = []
        ann.listen(prompts.append)
        ann.submit(first_play(ann.legal()))
        messages = [
            *ann.events(),
            Submit(Draw(seat=1)),
            Subscribe(4),
            Refused("space_taken", (("space", 3),)),
        ]
        for message in messages:
            text = json.dumps(message.to_dict())
            assert message_from_dict(json.loads(text)) == message
        assert any(isinstance(m, Envelope) for m in prompts)
    prompt = Prompt("t", 3, ann.legal())
    assert message_from_dict(json.loads(json.dumps(prompt.to_dict()))).to_dict() == prompt.to_dict()


# -- undo ------------------------------------------------------------------------------------


def play_until_undoable(table: Table, ann: SeatHandle) -> GameState:
    """Ann plays (or draws) and the bot replies until the reply showed her no card (a draw or
    an exchange): only then may she take her play back. Returns her view before that play."""
    for _turn in range(200):
        before = ann.view
        command = first_play(ann.legal())
        ann.submit(command)
        if isinstance(command, PlayCard) and not ann.view.is_over:
            assert ann.undo_refusal() is None  # the bot has not replied: only bots saw it
        table.play_bots()
        refusal = ann.undo_refusal()
        if refusal is None:
            return before
        assert not ann.view.is_over, "no undoable turn before the end: try another seed"
        # A bot's play showed its card; her own draw showed her one.
        assert refusal.code in ("undo_card_seen", "undo_showed_cards"), refusal
        assert refusal.code != "undo_card_seen" or "Bot" in refusal.message
    raise AssertionError("no undoable turn in 200")


def test_undo_takes_back_a_play_and_the_bots_reply_and_is_recorded(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    with Table.create(against_bot(seed=21), registry=REGISTRY, record=path) as table:
        ann = table.seat(0)
        before = play_until_undoable(table, ann)
        assert ann.view.turn == before.turn + 2
        lines_before = path.read_text().splitlines()
        assert isinstance(ann.undo(), Accepted)
        assert ann.view.turn == before.turn and ann.view.board == before.board
        assert ann.view.hands[0] == before.hands[0] and len(ann.legal()) > 0
        lines_after = path.read_text().splitlines()
    # Nothing removed: the record only grew, by the undo and its notice.
    assert lines_after[: len(lines_before)] == lines_before
    kinds = [json.loads(line).get("type") for line in lines_after[len(lines_before) :]]
    assert kinds == ["undone", "notice"]
    record = load_record(path, registry=REGISTRY)
    assert any(isinstance(e, Undone) for e in record.events)
    assert Game.from_events(record.events, registry=REGISTRY).state.turn == before.turn
    # And the game goes on from there when resumed.
    with Table.resume(path, registry=REGISTRY) as again:
        assert again.seat(0).view.turn == before.turn


def test_undo_is_refused_after_a_draw_an_exchange_or_another_persons_move() -> None:
    """Undoing a draw or an exchange would let a player see the next cards and choose again;
    undoing a play another person saw would show them a card in the player's hand."""
    with Table.create(against_bot(seed=4), registry=REGISTRY) as table:
        ann = table.seat(0)
        assert ann.undo_refusal().code == "nothing_to_undo"  # type: ignore[union-attr]
        ann.submit(Exchange(seat=0))
        table.play_bots()
        refused = ann.undo()
        assert isinstance(refused, Refused) and refused.code == "undo_showed_cards"
    with Table.create(two_people(seed=4), registry=REGISTRY) as table:
        ann, bob = table.seat(0), table.seat(1)
        ann.submit(first_play(ann.legal()))
        # Bob has not acted yet, but he saw Ann's card: taking it back would tell him it is
        # in her hand.
        refused = ann.undo()
        assert isinstance(refused, Refused) and refused.code == "undo_seen_by_others"
        assert "Bob" in refused.message
        bob.submit(first_play(bob.legal()))
        refused = ann.undo()
        assert isinstance(refused, Refused) and refused.code == "undo_other_moved"
        assert "Bob" in refused.message


def test_turns_leave_out_what_an_undo_took_back() -> None:
    with Table.create(against_bot(seed=9), registry=REGISTRY) as table:
        ann = table.seat(0)
        before = play_until_undoable(table, ann)
        assert isinstance(ann.undo(), Accepted)
        ann.submit(first_play(ann.legal()))
        log = [e.event for e in ann.events()]
    counted = turns(log)
    # The undone play and the bot's reply are gone: the turns before them, then the new one.
    assert counted[:-1] == turns(log[: before.events])
    undone = max(i for i, e in enumerate(log) if isinstance(e, Undone))
    assert counted[-1].seat == 0
    assert counted[-1].start == undone + 1 and counted[-1].end == len(log)


# -- a sturdy stream ---------------------------------------------------------------------------


def test_a_listener_that_raises_mid_turn_leaves_the_turn_whole() -> None:
    """Issue 10: a subscriber raising at card_played left the turn without its turn_ended."""
    game = Game.new(two_people(seed=3), registry=REGISTRY)

    def bad(event: Event, _game: Game) -> None:
        if isinstance(event, CardPlayed):
            raise RuntimeError("listener on fire")

    game.subscribe(bad)
    game.execute(first_play(game.legal_actions()))
    types = [e.type for e in game.events][-3:]
    assert types == ["card_played", "turn_ended", "notice"]
    notice = game.events[-1]
    assert isinstance(notice, Notice) and notice.code == "subscriber_failed"
    assert game.state.current_seat == 1
    assert Game.from_events(list(game.events), registry=REGISTRY).state == game.state
    game.execute(first_play(game.legal_actions()))  # switched off: told once only
    assert sum(isinstance(e, Notice) for e in game.events) == 1


def test_a_command_or_notice_from_inside_a_hook_never_corrupts_the_log() -> None:
    """Issue 10: game.execute() or game.notice() called from a cinco_event hook."""
    answers: list[object] = []

    class Meddler:
        @hookimpl
        def cinco_event(self, game: Game, event: Event) -> None:
            if isinstance(event, CardPlayed):
                try:
                    game.execute(Draw(seat=1))
                except Exception as exc:
                    answers.append(exc)
                game.notice("meddler", "saw a card")

    game = Game.new(two_people(seed=6), registry=REGISTRY, plugins=[Meddler()])
    game.execute(first_play(game.legal_actions()))
    assert len(answers) == 1 and getattr(answers[0], "code", None) == "busy"
    types = [e.type for e in game.events][-3:]
    assert types == ["card_played", "turn_ended", "notice"]  # the notice waits for the turn
    assert Game.from_events(list(game.events), registry=REGISTRY).state == game.state


def test_a_handle_used_from_inside_the_table_is_refused_not_deadlocked() -> None:
    seats_seen: list[object] = []

    class Hook:
        handle = None

        @hookimpl
        def cinco_event(self, game: Game, event: Event) -> None:
            if isinstance(event, TurnEnded) and Hook.handle is not None:
                seats_seen.append(Hook.handle.submit(Draw(seat=1)))

    registry = Registry(entry_points=False, plugins=[Hook()])
    with Table.create(two_people(seed=6), registry=registry) as table:
        ann = table.seat(0)
        Hook.handle = table.seat(1)
        ann.submit(first_play(ann.legal()))
    assert seats_seen and all(getattr(a, "code", None) == "busy" for a in seats_seen)


def test_a_request_its_caller_gave_up_is_not_carried_out_and_the_table_goes_on() -> None:
    """An event loop awaits ``handle.send(...)``; a cancelled task cancels the request it
    was waiting for. Cancelled before the table reached it, it is skipped; the table's
    thread must not die answering it (it did: the server's shutdown then hung)."""
    entered, release = threading.Event(), threading.Event()

    class Slow:
        @hookimpl
        def cinco_event(self, game: Game, event: Event) -> None:
            if isinstance(event, TurnEnded) and not release.is_set():
                entered.set()
                release.wait(10)

    registry = Registry(entry_points=False, plugins=[Slow()])
    # Against a bot: an undo another person saw the play of would be refused.
    with Table.create(against_bot(seed=6), registry=registry) as table:
        ann = table.seat(0)
        first = ann.send(Submit(first_play(ann.legal())))
        assert entered.wait(10)  # the table is busy with Ann's turn
        given_up = ann.send(Undo())
        assert given_up.cancel()
        release.set()
        assert isinstance(first.result(10), Accepted)
        # The undo was never carried out; the table still answers, and would allow it.
        assert not any(isinstance(e.event, Undone) for e in ann.events())
        assert isinstance(ann.undo(), Accepted)
        assert any(isinstance(e.event, Undone) for e in ann.events())
    assert ann.undo() == Refused("table_closed")  # close() returned


# -- persistence ---------------------------------------------------------------------------------


def test_a_record_that_cannot_be_written_stops_the_game_and_can_be_saved_elsewhere(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.jsonl"
    with Table.create(against_bot(seed=12), registry=REGISTRY, record=path) as table:
        ann = table.seat(0)
        assert table.status().saved
        path.chmod(0o444)
        # Simulate a full disk: the record's file object refuses to write.
        import cinco.core.records.recording as recording

        original = recording.RecordFile._write

        def full(self: object, line: str) -> None:
            raise OSError(28, "No space left on device")

        recording.RecordFile._write = full  # type: ignore[method-assign]
        try:
            ann.submit(first_play(ann.legal()))
        finally:
            recording.RecordFile._write = original  # type: ignore[method-assign]
        status = table.status()
        assert not status.saved and status.problem is not None
        assert status.problem.code == "record_stopped" and "No space" in status.problem.message
        refused = ann.submit(Draw(seat=0))
        assert isinstance(refused, Refused) and refused.code == "record_stopped"
        elsewhere = table.save_as(tmp_path / "rescued.jsonl")
        assert table.status().saved
        events = ann.events()
    record = load_record(elsewhere, registry=REGISTRY)
    assert len(record.events) == len(events)


class FlakySink:
    """An :class:`EventSink` (a server's database) whose commit fails when told to."""

    path = None

    def __init__(self) -> None:
        self.rows: list[dict[str, object]] = []
        self.batch: list[dict[str, object]] = []
        self.fail = False

    def append(self, event: object) -> None:
        self.batch.append(event.to_dict())  # type: ignore[attr-defined]

    def commit(self) -> None:
        if self.fail:
            self.batch = []
            raise OSError("the database went away")
        self.rows += self.batch
        self.batch = []

    def sync(self) -> None: ...

    def close(self) -> None: ...


def test_a_turn_the_store_could_not_commit_is_refused_and_taken_back() -> None:
    """Accepted means stored (issue 23): when a sink's commit fails, the move is refused
    ``record_failed``, no handle is sent its events, and the game is the stored log again, so
    that the same move is judged afresh, and accepted, once the store works."""
    sink = FlakySink()
    with Table.create(against_bot(seed=3), registry=REGISTRY, sink=lambda: sink) as table:
        ann = table.seat(0)
        committed = len(sink.rows)
        assert [e.seq for e in ann.events()] == list(range(committed))
        before = table.status()
        move = first_play(ann.legal())
        sink.fail = True
        refused = ann.submit(move)
        assert isinstance(refused, Refused) and refused.code == "record_failed"
        assert len(sink.rows) == committed  # nothing of the turn was stored...
        assert [e.seq for e in ann.events()] == list(range(committed))  # ...nor sent
        assert table.status() == before  # ...nor kept: the game is what is stored
        sink.fail = False
        accepted = ann.submit(move)  # the same card is still in the hand, the space free
        assert isinstance(accepted, Accepted)
        assert len(sink.rows) == accepted.seq + 1
        assert [e.seq for e in ann.events()] == list(range(len(sink.rows)))


def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "saved.jsonl"
    path.write_text("my unfinished game\n")
    with pytest.raises(RecordError, match="exists"):
        Table.create(against_bot(), registry=REGISTRY, record=path)
    assert path.read_text() == "my unfinished game\n"


def test_a_record_open_at_one_table_cannot_be_resumed_at_another(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    with (
        Table.create(against_bot(seed=3), registry=REGISTRY, record=path),
        pytest.raises(RecordError, match="open in another"),
    ):
        Table.resume(path, registry=REGISTRY)
    with Table.resume(path, registry=REGISTRY) as table:  # closed: now it may
        assert table.status().saved


# -- the seed -----------------------------------------------------------------------------------


def test_a_game_without_a_seed_draws_one_from_the_os() -> None:
    """Issue 10: an API game created without a seed used seed 0, a deck everyone knew."""
    decks = set()
    for _ in range(3):
        game = Game.new(GameConfig.for_players(2))
        assert game.config.seed is not None and game.config.seed != 0
        decks.add(game.state.draw_pile)
    assert len(decks) == 3


def test_the_seed_is_in_no_file_name_and_no_notice(tmp_path: Path) -> None:
    seed = 987_654_321_987
    assert str(seed) not in new_record_path(tmp_path).name

    class Quoter:
        @hookimpl
        def cinco_event(self, game: Game, event: Event) -> None:
            raise RuntimeError(f"cannot handle {game.config!r}")

    game = Game.new(two_people(seed=seed), registry=REGISTRY, plugins=[Quoter()])
    [notice] = [e for e in game.events if isinstance(e, Notice)]
    assert "cannot handle" in notice.text and str(seed) not in notice.text
    assert str(seed) not in json.dumps(notice.to_dict())


# -- the table's shape comes from the registry ---------------------------------------------------


def test_player_counts_and_layouts_come_from_the_installed_layouts() -> None:
    """Issue 10: core allowed exactly 2/3/4/6 players; a third-party layout could not be
    chosen. Now the layouts say who may play (P1 is what the built-in layouts register)."""

    class Eight:
        @hookimpl
        def cinco_register_layouts(self) -> list[Layout]:
            return [Layout("2x4", players=8, teams=2, description="8 players in 2 teams of 4")]

    registry = Registry(entry_points=False, plugins=[Eight()])
    assert REGISTRY.player_counts() == (2, 3, 4, 6)
    assert registry.player_counts() == (2, 3, 4, 6, 8)
    assert [lay.name for lay in registry.layouts_for(6)] == ["2x3", "3x2"]
    config = registry.configure(
        8, seats=[Seat(f"p{i}", bot="random") for i in range(8)], turn_limit=20
    )
    with Table.create(config, registry=registry) as table:
        assert table.play_bots() > 0 and table.spectator().view.players == 8


def test_core_imports_no_plugin_and_no_frontend() -> None:
    """Issue 10: core/bots/simulation.py and core/bots/tournament.py imported the record writer."""
    offenders = []
    for path in (ROOT / "core").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            offenders += [
                f"{path.name}: {name}"
                for name in names
                if name.startswith(("cinco.plugins", "cinco.frontends"))
            ]
    assert not offenders


def test_a_variant_failing_while_legal_moves_are_worked_out_is_told_not_raised() -> None:
    """A rule hook that raises when the table works out the legal moves of the seat to move
    reaches that seat as a refusal naming the plugin; seating it does not raise."""
    from cinco import Variant

    class Broken:
        @hookimpl
        def cinco_legal_spaces(self, state: object, seat: int, card: int) -> tuple[int, ...]:
            raise RuntimeError("hook on fire")

    class Plugin:
        @hookimpl
        def cinco_register_variants(self) -> list[Variant]:
            return [Variant("broken", "fails", rules=Broken())]

    registry = Registry(entry_points=False, plugins=[Plugin()])
    config = registry.configure(
        2, seats=[Seat("Ann"), Seat("Bob")], variants=["broken"], first_seat=0
    )
    with Table.create(config, registry=registry) as table:
        ann = table.seat(0)
        assert len(ann.legal()) == 0
        assert ann.blocked is not None and ann.blocked.code == "plugin_failed"
        assert "hook on fire" in ann.blocked.message and "broken" in ann.blocked.message
        assert table.seat(1).blocked is None  # only the seat to move is told
