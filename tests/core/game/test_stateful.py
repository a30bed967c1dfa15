"""A hypothesis state machine mixing legal and illegal commands (and undo by rewinding).

Illegal commands must raise an ``IllegalCommand`` and change nothing: not the event log, not
the state, not any view. Legal ones keep every invariant.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from positions import config_for

from cinco.core.engine.board import SPACES
from cinco.core.engine.commands import Command, Draw, Exchange, PlayCard
from cinco.core.engine.errors import GameOver, IllegalCommand, NotYourTurn
from cinco.core.engine.events import TurnEnded
from cinco.core.engine.state import HAND_LIMIT, TOKENS_PER_TEAM, fold
from cinco.core.game.game import Game

LAYOUTS = [(2, 2), (3, 3), (4, 2), (6, 2), (6, 3)]


class CincoMachine(RuleBasedStateMachine):
    game: Game

    @initialize(
        layout=st.sampled_from(LAYOUTS),
        joker=st.booleans(),
        seed=st.integers(0, 10_000),
        limit=st.sampled_from([None, 30, 200]),
    )
    def start(self, layout, joker, seed, limit):
        players, teams = layout
        config = config_for(
            players,
            teams=teams,
            variants=["joker"] if joker else [],
            seed=seed,
            first_seat=None,
            turn_limit=limit,
        )
        self.game = Game.new(config)
        self.legal_done = 0
        self.refused = 0

    # -- commands -----------------------------------------------------------------------------

    def _snapshot(self):
        game = self.game
        return list(game.events), game.state, game.view(0), game.view(None)

    def _submit(self, command: Command) -> None:
        """Execute *command*: if the rules list it as legal it must succeed, else be refused
        with nothing changed."""
        game = self.game
        legal = game.legal_actions(command.seat) if not game.is_over else None
        if legal is not None and command in legal:
            before = len(game.events)
            events = game.execute(command)
            assert list(game.events)[before:] == list(events)
            self.legal_done += 1
            return
        before = self._snapshot()
        try:
            game.execute(command)
        except IllegalCommand as exc:
            assert str(exc)
            if game.is_over:
                assert isinstance(exc, GameOver)
            elif command.seat != game.state.current_seat:
                assert isinstance(exc, NotYourTurn)
        else:
            raise AssertionError(f"{command} was accepted but is not a legal action")
        assert self._snapshot() == before
        self.refused += 1

    @precondition(lambda self: not self.game.is_over)
    @rule(pick=st.integers(0, 10_000))
    def legal_move(self, pick):
        legal = self.game.legal_actions()
        command = legal[pick % len(legal)]
        self._submit(command)
        assert self.legal_done > 0

    @rule(
        seat=st.integers(-1, 6),
        kind=st.sampled_from(["play", "draw", "exchange"]),
        card=st.integers(0, 92),
        space=st.one_of(st.none(), st.integers(-1, 92)),
    )
    def any_command(self, seat, kind, card, space):
        """Mostly illegal: any seat, any card, any space."""
        command: Command
        if kind == "play":
            command = PlayCard(seat, card, space)
        elif kind == "draw":
            command = Draw(seat)
        else:
            command = Exchange(seat)
        self._submit(command)

    @precondition(lambda self: not self.game.is_over)
    @rule(offset=st.sampled_from([-1, 1, -30, 91]), pick=st.integers(0, 1000))
    def near_miss(self, offset, pick):
        """A held card on a space next to a legal one, a taken one, or none at all."""
        state = self.game.state
        seat = state.current_seat
        hand = state.hands[seat]
        if not hand:
            self._submit(Exchange(seat))
            return
        card = hand[pick % len(hand)]
        taken = [n for n in range(1, SPACES + 1) if not state.is_free(n)]
        choices = [card + offset, None, *(taken[:1])]
        self._submit(PlayCard(seat, card, choices[pick % len(choices)]))

    @precondition(lambda self: self.game.state.turn > 2)
    @rule(back=st.integers(1, 5))
    def undo(self, back):
        """Undo *back* turns by rewinding to the end of an earlier turn: the state there is
        the state after that many events, and play goes on from it."""
        ends = [i + 1 for i, e in enumerate(self.game.events) if isinstance(e, TurnEnded)]
        count = ends[-min(back, len(ends))]
        earlier = self.game.rewind(count)
        assert earlier.state == self.game.state_at(count)
        assert earlier.state.turn == self.game.state_at(count).turn
        assert not earlier.is_over
        self.game = earlier

    # -- invariants ---------------------------------------------------------------------------

    @invariant()
    def cards_tokens_hands(self):
        state = self.game.state
        cards = sorted(
            [c for hand in state.hands for c in hand] + [*state.draw_pile, *state.discard_pile]
        )
        assert cards == list(range(1, SPACES + 1))
        board_tokens = [
            sum(1 for n in range(1, SPACES + 1) if state.board[n] == t) for t in range(state.teams)
        ]
        assert list(state.tokens) == board_tokens
        assert max(state.tokens) <= TOKENS_PER_TEAM
        assert all(len(hand) <= HAND_LIMIT for hand in state.hands)

    @invariant()
    def state_is_the_fold(self):
        game = self.game
        assert fold(game.events) == game.state
        seat = len(game.events) % game.config.players
        assert fold(game.events_for(seat)) == game.view(seat)


CincoMachine.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_stateful_legal_and_illegal_commands = CincoMachine.TestCase
