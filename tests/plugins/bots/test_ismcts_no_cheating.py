"""No cheating, proven: the ``ismcts`` bot's inputs hold no hidden card of another player
(S2, A7), and its choice — for a fixed seed and iteration budget — is the same in every game
that differs only in cards it cannot see.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cinco.core.engine.commands import Command
from cinco.core.engine.config import Seat
from cinco.core.engine.events import CardDrawn, CardPlayed, DeckShuffled, Event, HandDiscarded
from cinco.core.engine.legal import LegalActions
from cinco.core.engine.state import PUBLIC, UNKNOWN, GameState
from cinco.core.game.game import Game
from cinco.core.host.declarations import BotContext
from cinco.core.host.registry import Registry
from cinco.plugins.bots.ismcts import IsmctsBot

REGISTRY = Registry(entry_points=False)


def check_inputs(
    game: Game, seat: int, view: GameState, legal: LegalActions, context: BotContext
) -> None:
    """Everything a bot is given is public or its own player's."""
    referee = game.state
    for other in range(view.players):
        if other != seat:
            assert set(view.hands[other]) <= {UNKNOWN}, "another player's hand leaked"
    assert view.hands[seat] == referee.hands[seat]
    assert set(view.draw_pile) <= {UNKNOWN}, "the draw pile's order leaked"
    for i, card in enumerate(view.discard_pile):
        if card != UNKNOWN:
            assert card == referee.discard_pile[i]
            assert referee.discard_from[i] in (PUBLIC, seat), "an exchanged card leaked"
    assert {card for card, _spaces in legal.plays} <= set(referee.hands[seat])
    hidden = context.config.seed is None and game.config.seed is not None
    assert hidden, "the seed fixes the deck (S2)"


def test_ismcts_inputs_hold_no_hidden_card_in_whole_games() -> None:
    """S2/A7: at every move of whole games (4 players in teams, and 3 players with Joker), the
    view, legal actions and context given to each ismcts seat hide every other card."""
    for players, variants in ((4, ()), (3, ("joker",))):
        seats = [Seat(f"s{i}", bot="ismcts" if i % 2 == 0 else "greedy") for i in range(players)]
        config = REGISTRY.configure(
            players,
            seats=seats,
            seed=99,
            variants=variants,
            turn_limit=300,
            options={"bot_iterations": 8},
        )
        game = Game.new(config, registry=REGISTRY)
        checked = 0
        for seat in range(0, players, 2):
            bot = game.bot(seat)
            assert isinstance(bot, IsmctsBot)
            original = bot.choose
            context = bot.context

            def spy(
                view: GameState,
                legal: LegalActions,
                *,
                _seat: int = seat,
                _original: Any = original,
                _context: BotContext = context,
                _game: Game = game,
            ) -> Command:
                nonlocal checked
                check_inputs(_game, _seat, view, legal, _context)
                checked += 1
                result: Command = _original(view, legal)
                return result

            bot.choose = spy  # type: ignore[method-assign]
        game.play_bots()
        assert game.is_over and checked > 5


def never_seen(game: Game, seat: int) -> list[int]:
    """Cards that never appeared in anything *seat* was shown."""
    seen: set[int] = set()
    for event in game.events_for(seat):
        if isinstance(event, CardDrawn | CardPlayed) and event.card is not None:
            seen.add(event.card)
        elif isinstance(event, HandDiscarded) and event.cards is not None:
            seen.update(event.cards)
        elif isinstance(event, DeckShuffled) and event.order is not None:
            seen.update(event.order)
    return [card for card in range(1, 91) if card not in seen]


def relabel(event: Event, mapping: dict[int, int]) -> Event:
    """*event* with the cards of *mapping* swapped (only referee-only fields hold them)."""

    def swap(card: int | None) -> int | None:
        return None if card is None else mapping.get(card, card)

    if isinstance(event, CardDrawn):
        return dataclasses.replace(event, card=swap(event.card))
    if isinstance(event, DeckShuffled) and event.order is not None:
        return dataclasses.replace(event, order=tuple(mapping.get(c, c) for c in event.order))
    if isinstance(event, HandDiscarded) and event.cards is not None:
        return dataclasses.replace(event, cards=tuple(mapping.get(c, c) for c in event.cards))
    if isinstance(event, CardPlayed):
        assert event.card not in mapping  # played cards are seen by everyone
    return event


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(1, 10_000),
    turns=st.integers(0, 40),
    data=st.data(),
)
def test_choice_does_not_depend_on_cards_the_bot_cannot_see(
    players: int, seed: int, turns: int, data: st.DataObject
) -> None:
    """Swap the cards the bot's player never saw for any other arrangement (other hands, draw
    pile, face-down discards): its view is the same, and so is its move (seed and iterations
    fixed), though the real hidden cards differ."""
    config = REGISTRY.configure(
        players,
        seats=[Seat(f"g{i}", bot="greedy") for i in range(players)],
        seed=seed,
        turn_limit=500,
    )
    game = Game.new(config, registry=REGISTRY)
    game.play_bots(max_turns=turns)
    if game.is_over:
        return
    seat = game.state.current_seat
    hidden = never_seen(game, seat)
    shuffled = data.draw(st.permutations(hidden), label="arrangement")
    mapping = dict(zip(hidden, shuffled, strict=True))
    other = Game.from_events([relabel(e, mapping) for e in game.events], registry=REGISTRY)

    assert other.view(seat) == game.view(seat)
    if any(a != b for a, b in mapping.items()):
        assert other.state != game.state  # the hidden cards really are elsewhere

    def move(g: Game) -> Command:
        context = BotContext(
            seat=seat, config=g.view(seat).config, rules=g.rules, seed=1234, iterations=60
        )
        return IsmctsBot(context).choose(g.view(seat), g.legal_actions(seat))

    assert move(other) == move(game)
