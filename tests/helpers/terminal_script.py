"""Scripts for the terminal game: what a player would type, worked out by playing the same
game at a table first.

The table plays the game exactly as the terminal will (same configuration, same seeded bots),
through seat handles as the terminal does; the people's moves are chosen by a seeded policy
and written down as the keys a person types. Feeding that script to ``cinco`` must then
produce the very same record.
"""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from cinco.core.engine.commands import Command, Draw, Exchange, PlayCard
from cinco.core.engine.events import Event
from cinco.core.engine.state import GameState, fold
from cinco.core.host.registry import default_registry
from cinco.core.records.record import load_record
from cinco.core.table.handle import SeatHandle
from cinco.core.table.protocol import Accepted
from cinco.core.table.table import Table
from cinco.frontends.options import PlayOptions
from cinco.plugins.bots.greedy import GreedyBot


@dataclass
class Script:
    lines: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    #: (seat, the person's own hand at the start of that person's turn), in order.
    hands: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)


@dataclass
class Played:
    """A game played at a table by :func:`play_script`, recorded in ``record``."""

    table: Table
    record: Path
    handles: dict[int, SeatHandle]

    @property
    def events(self) -> list[Event]:
        """The referee's log, as the record holds it."""
        return list(load_record(self.record).events)

    @property
    def state(self) -> GameState:
        return fold(self.events)

    @property
    def is_over(self) -> bool:
        return self.table.status().is_over

    def seat(self, seat: int) -> SeatHandle:
        if seat not in self.handles:
            self.handles[seat] = self.table.seat(seat)
        return self.handles[seat]


def start(options: PlayOptions) -> Played:
    """A table for *options*, recorded in a temporary file."""
    registry = default_registry()
    assert options.seed is not None
    record = Path(tempfile.mkdtemp(prefix="cinco-script-")) / "expected.jsonl"
    table = Table.create(options.config(registry), registry=registry, record=record)
    return Played(table, record, {})


def resume(path: Path) -> Played:
    """The game in a copy of *path*, resumed at a table as ``cinco --resume`` does."""
    copy = Path(tempfile.mkdtemp(prefix="cinco-script-")) / "expected.jsonl"
    copy.write_bytes(path.read_bytes())
    return Played(Table.resume(copy, registry=default_registry()), copy, {})


def keys_for(view: GameState, command: Command, rng: random.Random, lines: list[str]) -> None:
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
        elif not view.is_free(card) and rng.random() < 0.5:
            lines += [str(card), str(space)]  # "34" is taken: asked where, answer 36
        else:
            lines.append(rng.choice([f"{card} {space}", f"{card} on {space}", f"{card}>{space}"]))


def noise(view: GameState, seat: int, rng: random.Random, lines: list[str]) -> None:
    """Sometimes type something refused first: the game must re-prompt and change nothing."""
    if rng.random() > 0.25:
        return
    hand = view.hand(seat)
    options = ["fish", "?", "0", "91 91"]
    options.append("d" if len(hand) == 4 else "x")  # hand full / not full: refused
    lines.append(rng.choice(options))


def play_script(
    options: PlayOptions,
    *,
    policy_seed: int = 0,
    random_share: float = 0.3,
    moves: int | None = None,
    played: Played | None = None,
    owner: int | None = None,
    plays_only: bool = False,
) -> tuple[Script, Played]:
    """Play the game *options* describe at a table; the people play greedy moves with a
    share of random ones (*plays_only*: only moves that place or burn a card, which undo may
    take back). Stops after *moves* moves by people (``None``: the whole game). A game
    *played* already continues (after an undo, or a resume); *owner* is the person on screen
    then."""
    if played is None:
        played = start(options)
    table = played.table
    config = table.config
    humans = [i for i, seat in enumerate(config.seats) if not seat.is_bot]
    rng = random.Random(policy_seed)
    script = Script()
    made = 0
    while True:
        status = table.status()
        if status.is_over:
            break
        seat = status.to_move
        if status.bot_to_move:
            assert isinstance(table.play_bot_turn(), Accepted)
            continue
        if moves is not None and made >= moves:
            break
        if len(humans) > 1 and owner != seat:
            script.lines.append("y")  # "Pass to ...": y and Enter
        owner = seat
        handle = played.seat(seat)
        view = handle.view
        script.hands.append((seat, view.hand(seat)))
        legal = handle.legal()
        choices: list[Command] = list(legal)
        if plays_only:
            choices = [c for c in choices if isinstance(c, PlayCard)] or choices
        if rng.random() < random_share or plays_only:
            command = choices[rng.randrange(len(choices))]
        else:
            command = GreedyBot(seat).choose(view, legal)
        noise(view, seat, rng, script.lines)
        keys_for(view, command, rng, script.lines)
        assert isinstance(handle.submit(command), Accepted)
        made += 1
    script.events = played.events
    return script, played
