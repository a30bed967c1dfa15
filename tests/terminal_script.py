"""Scripts for the terminal game: what a player would type, worked out by playing the same
game through the engine first.

The engine plays the game exactly as the terminal will (same configuration, same seeded bots);
the people's moves are chosen by a seeded policy and written down as the keys a person types.
Feeding that script to ``cinco`` must then produce the very same record.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from cinco.core.commands import Command, Draw, Exchange, PlayCard
from cinco.core.events import Event
from cinco.core.game import Game
from cinco.core.registry import default_registry
from cinco.frontends.options import PlayOptions
from cinco.plugins.bots.greedy import GreedyBot


@dataclass
class Script:
    lines: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    #: (seat, referee hand at the start of that person's turn), in order.
    hands: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)


def keys_for(game: Game, command: Command, rng: random.Random, lines: list[str]) -> None:
    """Append what a person types for *command*, using the different forms the game accepts."""
    if isinstance(command, Draw):
        lines.append(rng.choice(["d", "draw", "D"]))
    elif isinstance(command, Exchange):
        lines.append(rng.choice(["x", "exchange"]))
    else:
        assert isinstance(command, PlayCard)
        card, space = command.card, command.space
        if space is None:
            lines += [str(card), "y"]  # the burn is confirmed
        elif space == card:
            lines.append(rng.choice([str(card), f"{card} {space}"]))
        elif not game.state.is_free(card) and rng.random() < 0.5:
            lines += [str(card), str(space)]  # "34" is taken: asked where, answer 36
        else:
            lines.append(rng.choice([f"{card} {space}", f"{card} on {space}", f"{card}>{space}"]))


def noise(game: Game, seat: int, rng: random.Random, lines: list[str]) -> None:
    """Sometimes type something refused first: the game must re-prompt and change nothing."""
    if rng.random() > 0.25:
        return
    hand = game.state.hands[seat]
    options = ["fish", "?", "0", "91 91"]
    options.append("d" if len(hand) == 4 else "x")  # hand full / not full: refused
    lines.append(rng.choice(options))


def play_script(
    options: PlayOptions,
    *,
    policy_seed: int = 0,
    random_share: float = 0.3,
    moves: int | None = None,
    game: Game | None = None,
    owner: int | None = None,
) -> tuple[Script, Game]:
    """Play the game *options* describe in the engine; the people play greedy moves with a
    share of random ones. Stops after *moves* moves by people (``None``: the whole game).
    A *game* already under way continues (resume); *owner* is the person on screen then."""
    registry = default_registry()
    if game is None:
        assert options.seed is not None
        game = Game.new(options.config(registry, options.seed), registry=registry)
    config = game.config
    humans = [i for i, seat in enumerate(config.seats) if not seat.is_bot]
    rng = random.Random(policy_seed)
    script = Script()
    made = 0
    while not game.is_over:
        seat = game.state.current_seat
        if config.seats[seat].is_bot:
            game.play_bot_turn()
            continue
        if moves is not None and made >= moves:
            break
        if len(humans) > 1 and owner != seat:
            script.lines.append("")  # "Pass to ... — press Enter"
        owner = seat
        script.hands.append((seat, game.state.hand(seat)))
        legal = game.legal_actions(seat)
        if rng.random() < random_share:
            command = legal[rng.randrange(len(legal))]
        else:
            command = GreedyBot(seat).choose(game.view(seat), legal)
        noise(game, seat, rng, script.lines)
        keys_for(game, command, rng, script.lines)
        game.execute(command)
        made += 1
    script.events = list(game.events)
    return script, game
