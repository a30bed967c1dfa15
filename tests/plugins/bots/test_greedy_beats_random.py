"""Behaviour of the built-in bots: greedy (a real heuristic) beats random by a wide margin.

A behavioural check over a few seeded games, not a benchmark (figures: ``benchmarks/``).
"""

from __future__ import annotations

from cinco.core.bots.simulation import simulate
from cinco.core.host.registry import default_registry


def test_greedy_wins_clearly_more_than_random():
    """Over 30 two-player games, greedy sitting first in half and second in the other half
    (so neither seat's advantage decides), greedy wins far more often than random."""
    registry = default_registry()
    first = simulate(registry, players=2, bots=["greedy", "random"], games=15, seed=100)
    second = simulate(registry, players=2, bots=["random", "greedy"], games=15, seed=200)
    greedy = first.wins[0] + second.wins[1]
    random_ = first.wins[1] + second.wins[0]
    assert first.games + second.games == 30
    assert greedy >= 24, (greedy, random_)
    assert greedy >= 4 * max(random_, 1)


def test_greedy_team_beats_random_team_in_four_player_games():
    """P3: two greedy team-mates against two random ones."""
    summary = simulate(default_registry(), players=4, bots=["greedy", "random"], games=10, seed=5)
    assert summary.wins[0] >= 8


def test_random_bot_is_uniform_over_legal_actions():
    """The random bot picks every legal action with the same chance (a chi-square-free check:
    over many picks every action of a fixed position comes up, none dominates)."""
    from collections import Counter

    from positions import config_for

    from cinco.core.game.game import Game
    from cinco.plugins.bots.random_bot import RandomBot

    game = Game.new(config_for(2, seed=4))
    legal = game.legal_actions()
    bot = RandomBot(seed=1)
    counts = Counter(bot.choose(game.view(0), legal) for _ in range(40 * len(legal)))
    assert set(counts) == set(legal)
    assert max(counts.values()) < 3 * min(counts.values())


def test_two_greedy_bots_play_their_game_out():
    """On an empty board nothing is worth a card to greedy; with a full hand it must still play
    (exchanging only a hand of high cards), or two greedy bots would exchange until the turn
    limit (E4). Their games end with a line."""
    summary = simulate(default_registry(), players=2, bots=["greedy", "greedy"], games=20, seed=9)
    assert sum(summary.wins.values()) >= 17, summary
    assert summary.actions < 20 * 200  # real games, not 1,000 turns of exchanges


def test_greedy_exchanges_only_a_hand_of_high_cards():
    """With a full hand and nothing worth a card, greedy exchanges four high cards but plays a
    hand holding a low card."""
    from positions import position

    from cinco.core.engine.commands import Exchange, PlayCard
    from cinco.core.engine.legal import legal_actions
    from cinco.plugins.bots.greedy import GreedyBot

    for hand, expected in (([50, 61, 77, 88], Exchange), ([12, 61, 77, 88], PlayCard)):
        state = position(2, {0: hand}, current=0)
        legal = legal_actions(state, default_registry().rules_for(state.config))
        assert isinstance(GreedyBot(0).choose(state, legal), expected), hand
