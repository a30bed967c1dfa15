"""Building game positions for rule tests.

A position starts from real events (``GameStarted``, a ``DeckShuffled`` whose order deals the
hands we want, the ``CardDrawn`` deal of S1), folded into a state. Tokens already on the board
and short hands are then set on that state directly, keeping the 90 cards accounted for: the
cards that "placed" those tokens, and the cards a short hand lacks, lie in the discard pile.
:func:`cinco.core.engine.rules.decide` is pure, so it can be asked about any such state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import fields, replace

from cinco.core.engine.board import SPACES
from cinco.core.engine.commands import Command
from cinco.core.engine.config import GameConfig
from cinco.core.engine.events import CardDrawn, DeckShuffled, Event, GameStarted
from cinco.core.engine.rules import RuleSet, decide
from cinco.core.engine.state import FREE, HAND_LIMIT, GameState, evolve, fold
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host.declarations import Bot, BotContext, BotSpec
from cinco.core.host.registry import Registry, default_registry

ALL_CARDS = tuple(range(1, SPACES + 1))


def config_for(
    players: int = 2,
    *,
    teams: int | None = None,
    first_seat: int | None = 0,
    variants: Sequence[str] = (),
    turn_limit: int | None = None,
    seed: int = 0,
) -> GameConfig:
    """A configuration checked by the default registry (the built-in layouts and variants)."""
    base = GameConfig.for_players(players, teams=teams)
    return default_registry().configure(
        players,
        layout=base.layout,
        variants=tuple(variants),
        seed=seed,
        first_seat=first_seat,
        turn_limit=turn_limit,
    )


def opening_events(
    config: GameConfig,
    hands: Mapping[int, Sequence[int]] | None = None,
    *,
    top: Sequence[int] = (),
) -> list[Event]:
    """Set-up events (S1) dealing ``hands[seat]`` to each seat given (padded to four with
    unused cards, lowest last), then ``top`` on top of the draw pile, then the rest ascending."""
    hands = dict(hands or {})
    players = config.players
    first = config.first_seat or 0
    used = [card for hand in hands.values() for card in hand] + list(top)
    if len(set(used)) != len(used):
        raise ValueError(f"a card is used twice: {sorted(used)}")
    spare = [card for card in reversed(ALL_CARDS) if card not in used]
    full: dict[int, list[int]] = {}
    for seat in range(players):
        cards = list(hands.get(seat, ()))
        if len(cards) > HAND_LIMIT:
            raise ValueError("a hand holds at most four cards")
        while len(cards) < HAND_LIMIT:
            cards.append(spare.pop(0))
        full[seat] = cards
    order: list[int] = []
    for round_ in range(HAND_LIMIT):
        for i in range(players):
            order.append(full[(first + i) % players][round_])
    order.extend(top)
    order.extend(sorted(card for card in ALL_CARDS if card not in order))
    events: list[Event] = [
        GameStarted(config=config, first_seat=first),
        DeckShuffled(size=SPACES, order=tuple(order), reshuffle=False),
    ]
    for round_ in range(HAND_LIMIT):
        for i in range(players):
            seat = (first + i) % players
            events.append(CardDrawn(seat=seat, card=full[seat][round_]))
    return events


def position(
    players: int = 2,
    hands: Mapping[int, Sequence[int]] | None = None,
    *,
    board: Mapping[int, int] | None = None,
    current: int | None = None,
    teams: int | None = None,
    variants: Sequence[str] = (),
    turn_limit: int | None = None,
    top: Sequence[int] = (),
    seed: int = 0,
) -> GameState:
    """A referee's state: *hands* dealt (a hand shorter than four really is short), tokens on
    *board* (space → team), *current* to move (by default seat 0, the first player)."""
    hands = dict(hands or {})
    config = config_for(
        players, teams=teams, variants=variants, turn_limit=turn_limit, seed=seed, first_seat=0
    )
    state = fold(opening_events(config, hands, top=top))
    # Short hands: the padding cards go to the discard pile.
    discard = list(state.discard_pile)
    new_hands = list(state.hands)
    for seat, wanted in hands.items():
        extra = [card for card in new_hands[seat] if card not in wanted]
        new_hands[seat] = tuple(card for card in new_hands[seat] if card in wanted)
        discard.extend(extra)
    state = with_piles(replace(state, hands=tuple(new_hands)), discard=discard)
    if board:
        state = place(state, board)
    if current is not None:
        state = replace(state, current_seat=current)
    return state


def place(state: GameState, board: Mapping[int, int]) -> GameState:
    """*state* with a token of ``board[space]``'s team on each space (and as many cards moved
    from the bottom of the draw pile to the discard pile, as if they had placed them)."""
    cells = list(state.board)
    tokens = list(state.tokens)
    for space, team in board.items():
        if cells[space] != FREE:
            raise ValueError(f"space {space} is taken twice")
        cells[space] = team
        tokens[team] += 1
    draw = list(state.draw_pile)
    moved = min(len(board), max(0, len(draw) - 8))  # keep a few cards to draw
    spent = draw[len(draw) - moved :]
    del draw[len(draw) - moved :]
    state = replace(state, board=tuple(cells), tokens=tuple(tokens))
    return with_piles(state, draw=draw, discard=(*state.discard_pile, *spent))


def with_piles(
    state: GameState, *, draw: Iterable[int] | None = None, discard: Iterable[int] | None = None
) -> GameState:
    """*state* with new draw and/or discard piles (discarded cards count as played: public)."""
    changes: dict[str, object] = {}
    if draw is not None:
        changes["draw_pile"] = tuple(draw)
    if discard is not None:
        changes["discard_pile"] = tuple(discard)
        if "discard_from" in {f.name for f in fields(GameState)}:
            changes["discard_from"] = (-1,) * len(changes["discard_pile"])  # type: ignore[arg-type]
    return replace(state, **changes)  # type: ignore[arg-type]


def rules_of(state: GameState) -> RuleSet:
    """The rules of *state*'s game: the standard rules and its variants."""
    return default_registry().rules_for(state.config)


def run(state: GameState, command: Command) -> tuple[tuple[Event, ...], GameState]:
    """Decide *command* on *state*; return its events and the state after them."""
    events = decide(state, command, rules_of(state))
    after = state
    for event in events:
        after = evolve(after, event)
    return events, after


def apply(state: GameState, events: Iterable[Event]) -> GameState:
    for event in events:
        state = evolve(state, event)
    return state


def card_count(state: GameState) -> int:
    """Cards in hands and piles (C1: always 90 for the referee)."""
    return sum(len(hand) for hand in state.hands) + len(state.draw_pile) + len(state.discard_pile)


def registry_with_bots(**bots: Callable[[BotContext], Bot]) -> Registry:
    """A registry of the built-ins plus test bots (name → factory), added through the public
    ``cinco_register_bots`` hook like any plugin's."""

    class TestBots:
        @hookimpl
        def cinco_register_bots(self) -> list[BotSpec]:
            return [BotSpec(name, f"test bot {name}", create=make) for name, make in bots.items()]

    return Registry(entry_points=False, plugins=[TestBots()])
