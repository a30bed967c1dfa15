"""Isolated bots (``cinco arena --isolate``): every bot plays in a process of its own, seeing
only its seat's stream, so that a third party's bot plays a fair game.

The arena's process is the referee: it holds the game in a :class:`~cinco.core.table.table.Table`
whose seats are all left to players from outside, and gives each seat a child process
(``python -m cinco.core.bots.isolation BOT [LEVEL]``; a :class:`Bench` keeps them for the next
games of the same task, each playing one seat at a time) that talks the seat protocol
(docs/seat-protocol.md) over its standard input and output, one JSON message a line:

- the referee sends what the seat's handle receives: its projected ``event`` envelopes (never
  another seat's cards, the deck or the seed), its ``prompt`` when it is to move, and the
  answer to each of its requests;
- the bot answers a prompt with one ``submit`` line. Nothing else is carried out (no undo,
  no hint): any other message is refused.

A bot that raises (or is not installed where its process runs), answers with an illegal move,
does not answer in time (its time budget and :data:`GRACE`, or :data:`MOVE_TIMEOUT` without
one), writes nonsense or dies loses the move to a random legal one, counted in the report's
replaced moves. The child's randomness comes from
the operating system, never from the deck's seed. Its standard error is dropped.

This isolates what a bot is *told*; it is no sandbox. A bot's process runs as the arena's user
and could read that user's files, so nothing on disk holds a game's secrets while it is played
(``--records`` are written when each game is over). For code you distrust more, run the
arena as a user of its own, or in a container.
"""

from __future__ import annotations

import contextlib
import json
import queue
import random
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

from cinco.core.bots.matches import ArenaSpec, GameResult, game_config, record_path
from cinco.core.engine.errors import CincoError
from cinco.core.engine.faults import user_interrupt
from cinco.core.engine.oracle import RulesOracle
from cinco.core.engine.projection import Projection, closes_turn
from cinco.core.game.game import _iterations, _time_budget
from cinco.core.host.declarations import BotContext
from cinco.core.host.registry import default_registry
from cinco.core.table.protocol import (
    Accepted,
    Envelope,
    Message,
    Prompt,
    Refused,
    Submit,
    message_from_dict,
)
from cinco.core.table.table import Table
from cinco.core.words.i18n import _

if TYPE_CHECKING:
    from cinco.core.engine.legal import LegalActions
    from cinco.core.engine.state import GameState
    from cinco.core.table.handle import SeatHandle

#: Seconds a bot may take for a move when the game sets no time budget.
MOVE_TIMEOUT = 30.0
#: Seconds more than its budget a bot may take (starting a process, pipes, a busy machine).
GRACE = 2.0
#: Seconds a bot has to start (import itself) before its first move counts as late.
START_TIMEOUT = 30.0
#: The longest line a bot may write (a move is about a hundred bytes).
MAX_LINE = 64 * 1024
#: The command that starts a bot's process (its bot's name and level follow).
CHILD = (sys.executable, "-m", "cinco.core.bots.isolation")


class _Player:
    """One bot's child process, and a thread reading its lines into a queue."""

    def __init__(self, entrant_bot: str, level: str | None) -> None:
        command = [*CHILD, entrant_bot]
        if level:
            command.append(level)
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self.key = (entrant_bot, level)
        self.lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self.alive = True
        self.started = False
        #: It failed a move: a late answer of its may still come, so it is not kept.
        self.failed = False
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while line := stream.readline(MAX_LINE):
                self.lines.put(line)
        self.lines.put(None)

    def send(self, messages: Sequence[Message]) -> None:
        if not self.alive or not messages:
            return
        assert self.process.stdin is not None
        try:
            self.process.stdin.write("".join(json.dumps(m.to_dict()) + "\n" for m in messages))
            self.process.stdin.flush()
        except OSError:  # it died: it plays no more moves
            self.alive = False

    def drain(self) -> None:
        """Forget lines written before the prompt they would answer."""
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self.alive = False
                return

    def answer(self, timeout: float) -> Message | None:
        """The bot's next message, or ``None`` (late, dead or nonsense)."""
        if not self.alive:
            return None
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is None:
            self.alive = False
            return None
        try:
            return message_from_dict(json.loads(line))
        except Exception:  # anything a bot writes is untrusted: nonsense loses the move
            return None

    def close(self) -> None:
        process = self.process
        with contextlib.suppress(OSError):
            assert process.stdin is not None
            process.stdin.close()
        try:
            process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


class Bench:
    """The bots' processes, kept from one game to the next of a task (starting one costs a
    Python start and an import: more than most games), and ended with it. A process that
    failed a move or died is not kept. Use it as a context manager."""

    def __init__(self) -> None:
        self._idle: dict[tuple[str, str | None], list[_Player]] = {}

    def take(self, bot: str, level: str | None) -> _Player:
        idle = self._idle.get((bot, level), [])
        while idle:
            player = idle.pop()
            if player.alive and player.process.poll() is None:
                return player
            player.close()
        return _Player(bot, level)

    def put(self, player: _Player) -> None:
        if player.alive and not player.failed and player.process.poll() is None:
            self._idle.setdefault(player.key, []).append(player)
        else:
            player.close()

    def close(self) -> None:
        for players in self._idle.values():
            for player in players:
                player.close()
        self._idle.clear()

    def __enter__(self) -> Bench:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def play_isolated(
    spec: ArenaSpec,
    index: int,
    seed: int,
    arrangement: tuple[int, ...],
    bench: Bench | None = None,
) -> GameResult:
    """Play one arena game with every bot in its own process (see the module's text), taking
    the processes from *bench* and giving them back after the game (without: new ones)."""
    if bench is None:
        with Bench() as own:
            return play_isolated(spec, index, seed, arrangement, own)
    registry = default_registry()
    config = game_config(spec, seed, arrangement, bots=False)
    teams = registry.layout(spec.players, spec.layout).teams
    record = record_path(spec, index) if spec.records is not None else None
    # The record is written once the game is over: while it is played, no file holds the deck
    # (a bot's process runs as this user, and could read one).
    table = Table.create(config, registry=registry, frontend="arena", undo=False)
    players: list[_Player] = []
    finished = False
    try:
        for i in range(spec.players):
            entrant = spec.entrants[arrangement[i % teams]]
            players.append(bench.take(entrant.bot, entrant.level))
        final, replaced = _play_out(table, players, index, spec.budget)
        finished = final.is_over
        if record is not None:
            table.save_as(record)
    finally:
        for player in players:
            if finished:
                bench.put(player)
            else:
                player.close()
        table.close()
    result = final.result
    assert result is not None  # the loop above ends only with the game
    return GameResult(
        index=index,
        seed=seed,
        teams=arrangement,
        winner=result.winner,
        reason=result.reason,
        turns=final.turn,
        first_team=config.team_of(0),
        replaced=sum(replaced),
        replaced_teams=tuple(replaced),
    )


def _play_out(
    table: Table, players: Sequence[_Player], index: int, budget: float | None
) -> tuple[GameState, list[int]]:
    """Play game *index* at *table* to its end, seat *i* by ``players[i]``'s process (a move
    that fails goes to a random legal one): the final state, and how many moves were
    replaced, per team."""
    fallback = random.Random(secrets.randbits(64))
    replaced = [0] * table.config.teams
    handles = [table.seat(i) for i in range(len(players))]
    outboxes = _outboxes(handles)

    def flush() -> None:
        for player, outbox in zip(players, outboxes, strict=True):
            player.send(outbox)
            outbox.clear()

    watcher = handles[0]
    while True:
        for handle in handles:
            handle.pump()
        state = watcher.view
        if state.is_over:
            flush()
            return state, replaced
        seat = state.current_seat
        handle, player = handles[seat], players[seat]
        legal = handle.legal()
        if not legal:
            if handle.blocked is not None:  # a variant's rule hook failed
                raise CincoError(
                    _("Game {n} cannot go on: {reason}").format(
                        n=index + 1, reason=handle.blocked.message
                    )
                )
            handle.wait(timeout=1.0)
            continue
        player.drain()
        flush()
        if not _take_turn(handle, player, legal, _move_timeout(player, budget)):
            player.failed = True
            replaced[table.config.team_of(seat)] += 1
            handle.submit(legal[fallback.randrange(len(legal))])


def _outboxes(handles: Sequence[SeatHandle]) -> list[list[Message]]:
    """One outbox per handle, filled with whatever the handle takes in (whoever pumps it), in
    order, for its seat's process."""
    outboxes: list[list[Message]] = [[] for _ in handles]
    for handle, outbox in zip(handles, outboxes, strict=True):
        handle.listen(outbox.append)
        # What the handle took in before it was listened to: the stream so far, and the
        # prompt if it is to move.
        outbox.extend(handle.events())
        if handle.legal():
            outbox.append(Prompt(handle.table, handle.seq, handle.legal()))
    return outboxes


def _move_timeout(player: _Player, budget: float | None) -> float:
    """The seconds *player* has for this move: its budget and :data:`GRACE` (else
    :data:`MOVE_TIMEOUT`), and :data:`START_TIMEOUT` more for its first move."""
    timeout = MOVE_TIMEOUT if budget is None else budget + GRACE
    if not player.started:
        timeout += START_TIMEOUT
        player.started = True
    return timeout


def _take_turn(handle: SeatHandle, player: _Player, legal: LegalActions, timeout: float) -> bool:
    """Let *player* move for *handle*'s seat; whether it made a legal move in time."""
    deadline = time.monotonic() + timeout
    message = player.answer(timeout)
    if not isinstance(message, Submit) or time.monotonic() > deadline:
        if message is not None:
            player.send([Refused("malformed_command")])
        return False
    answer = handle.submit(message.command)
    player.send([answer])
    return isinstance(answer, Accepted)


# -- the bot's side ----------------------------------------------------------------------------


class _Seat:
    """The child's fold of its seat's stream (as a network client's), and its bot."""

    def __init__(self, bot: str, level: str | None) -> None:
        self.registry = default_registry()
        self.bot_name = bot
        self.level = level
        #: This game's stream, folded (a new game starts a new one).
        self.projection: Projection[Envelope] = Projection()
        self.prompt: Prompt | None = None
        self.bot: Any = None

    def take(self, message: Message) -> dict[str, Any] | None:
        """Fold *message*; the answer to send if it prompts this seat: a ``submit``, or (the
        bot failed) a line the referee will not take, which loses the move at once."""
        if isinstance(message, Envelope):
            if message.seq == 0:  # a new game (the process plays the next games of its task)
                self.projection, self.prompt, self.bot = Projection(), None, None
            if self.projection.take(message) and closes_turn(message.event):
                self.prompt = None
            return None
        if isinstance(message, Prompt):
            return self._answer(message)
        return None

    def _answer(self, prompt: Prompt) -> dict[str, Any] | None:
        """The answer to *prompt*, if it is news: the prompt for the last event taken, not
        answered already."""
        state = self.projection.state
        if state is None or state.is_over or prompt.seq != self.projection.seq:
            return None
        if self.prompt is not None and self.prompt.seq == prompt.seq:
            return None  # answered already
        self.prompt = prompt
        legal = prompt.legal
        try:
            if self.bot is None:
                self.bot = self._make_bot(state, legal.seat)
            return Submit(self.bot.choose(state, legal)).to_dict()
        except BaseException as exc:  # the referee plays a random move instead, and counts it
            if user_interrupt(exc):  # (SystemExit from a bot too: the process serves on)
                raise
            return {"type": "failed", "error": f"{type(exc).__name__}: {exc}"}

    def _make_bot(self, state: GameState, seat: int) -> Any:
        config = state.config  # as this seat sees it: no seed
        context = BotContext(
            seat=seat,
            config=config,
            rules=RulesOracle.of(self.registry.rules_for(config)),
            level=self.level,
            seed=secrets.randbits(32),  # nothing to do with the deck's seed
            time_budget=_time_budget(config),
            iterations=_iterations(config),
        )
        return self.registry.create_bot(context, self.bot_name)


def main(argv: Sequence[str] | None = None) -> int:
    """The child: ``python -m cinco.core.bots.isolation BOT [LEVEL]``, the seat protocol on its
    standard input and output, for one game after another, until its input closes."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not 1 <= len(args) <= 2:
        print(_("usage: python -m cinco.core.bots.isolation BOT [LEVEL]"), file=sys.stderr)
        return 2
    seat = _Seat(args[0], args[1] if len(args) > 1 else None)
    for line in sys.stdin:
        try:
            message = message_from_dict(json.loads(line))
        except Exception:
            continue
        answer = seat.take(message)
        if answer is not None:
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
