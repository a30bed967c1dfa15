"""A game: its event log, its rules, its plugins, and the views of everyone watching.

>>> from cinco import Game, GameConfig, Draw
>>> game = Game.new(GameConfig.for_players(2, seed=1, first_seat=0))
>>> len(game.view(0).hand(0)), game.view(0).hand(1)
(4, (0, 0, 0, 0))
>>> game.execute(Draw(seat=0))[-1]
TurnEnded(seat=0, action='draw', next_seat=1)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .commands import Command
from .config import GameConfig
from .errors import EventError
from .events import REFEREE, Event, GameEnded, GameStarted, Notice, Viewer
from .i18n import _
from .rules import LegalActions, RuleSet, decide, legal_actions, setup_events
from .state import GameState, evolve, start
from .store import EventStore

if TYPE_CHECKING:
    from .registry import Bot, Registry

Listener = Callable[[Event, "Game"], None]


class Game:
    """One game of Cinco. Create it with :meth:`new` or :meth:`from_events`."""

    def __init__(
        self,
        config: GameConfig,
        *,
        registry: Registry | None = None,
        plugins: Sequence[object] = (),
    ) -> None:
        from .registry import default_registry

        self.config = config
        self.registry = registry if registry is not None else default_registry()
        self.rules: RuleSet = self.registry.rules_for(config)
        for plugin in plugins:
            self.rules.pm.register(plugin)
        self.plugins = tuple(plugins)
        self.store = EventStore()
        self._state: GameState | None = None
        self._views: dict[Viewer, tuple[int, GameState]] = {}
        self._bots: dict[int, Bot] = {}
        self._notify = True

    # -- creating -----------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        config: GameConfig,
        *,
        registry: Registry | None = None,
        plugins: Sequence[object] = (),
    ) -> Game:
        """A new game: shuffle, deal, choose the first player (S1, P5)."""
        game = cls(config, registry=registry, plugins=plugins)
        for event in setup_events(config):
            game._append(event)
        game._call("cinco_game_started", game=game)
        return game

    @classmethod
    def from_events(
        cls,
        events: Sequence[Event],
        *,
        registry: Registry | None = None,
        plugins: Sequence[object] = (),
    ) -> Game:
        """Rebuild a game from its log (resume, replay, undo). Every event is checked against
        the state before it; an inconsistent log raises :class:`EventError` naming the event."""
        if not events or not isinstance(events[0], GameStarted):
            raise EventError(_("a game must begin with a game_started event"))
        game = cls(events[0].config, registry=registry, plugins=plugins)
        game._notify = False
        for index, event in enumerate(events):
            try:
                game._append(event)
            except EventError as exc:
                raise EventError(
                    _("event {n}: {error}").format(n=index + 1, error=exc)
                ) from None
        game._notify = True
        game._call("cinco_game_started", game=game)
        return game

    # -- the log and the state ----------------------------------------------------------------

    def _append(self, event: Event) -> None:
        self._state = start(event) if isinstance(event, GameStarted) and self._state is None \
            else evolve(self._require_state(), event)
        self.store.append(event)
        if self._notify:
            self._call("cinco_event", game=self, event=event)
            if isinstance(event, GameEnded):
                self._call("cinco_game_ended", game=self)

    def _require_state(self) -> GameState:
        if self._state is None:
            raise EventError(_("a game must begin with a game_started event"))
        return self._state

    def _call(self, hook: str, **kwargs: object) -> None:
        getattr(self.registry.pm.hook, hook)(**kwargs)
        getattr(self.rules.pm.hook, hook)(**kwargs)

    @property
    def events(self) -> EventStore:
        return self.store

    @property
    def state(self) -> GameState:
        """The referee's state: everything, hands and deck included."""
        return self._require_state()

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def view(self, viewer: Viewer) -> GameState:
        """The state as *viewer* sees it: a seat number, ``None`` (a spectator) or
        :data:`~cinco.core.events.REFEREE`."""
        if viewer == REFEREE:
            return self.state
        count, state = self._views.get(viewer, (0, None))  # type: ignore[arg-type]
        events = self.store
        if state is None:
            state = start(events[0].seen_by(viewer))  # type: ignore[arg-type]
            count = 1
        for event in events[count:]:
            state = evolve(state, event.seen_by(viewer))
        self._views[viewer] = (len(events), state)
        return state

    def events_for(self, viewer: Viewer) -> list[Event]:
        """The whole log as *viewer* may see it."""
        return [event.seen_by(viewer) for event in self.store]

    def state_at(self, count: int) -> GameState:
        """The referee's state after the first *count* events."""
        return self.store.state_at(count)

    def subscribe(self, listener: Listener, viewer: Viewer = REFEREE) -> Callable[[], None]:
        """Call *listener(event, game)* with each new event as *viewer* sees it."""
        return self.store.subscribe(lambda _index, event: listener(event.seen_by(viewer), self))

    def rewind(self, count: int, plugins: Sequence[object] = ()) -> Game:
        """A new game holding only the first *count* events (undo). This game is unchanged."""
        return Game.from_events(list(self.store)[:count], registry=self.registry, plugins=plugins)

    # -- playing ------------------------------------------------------------------------------

    def legal_actions(self, seat: int | None = None) -> LegalActions:
        return legal_actions(self.state, self.rules, seat)

    def execute(self, command: Command) -> tuple[Event, ...]:
        """Carry out *command*: store and announce its events, or raise ``IllegalCommand``
        and change nothing."""
        events = decide(self.state, command, self.rules)
        for event in events:
            self._append(event)
        return events

    def notice(self, kind: str, text: str, seat: int | None = None) -> None:
        """Record something players should be told (no effect on the rules)."""
        self._append(Notice(kind=kind, text=text, seat=seat))

    def bot(self, seat: int) -> Bot | None:
        """The bot playing *seat*, or ``None`` for a person."""
        from .registry import BotContext

        spec = self.config.seats[seat]
        if spec.bot is None:
            return None
        if seat not in self._bots:
            seed = random.Random(f"cinco:{self.config.seed}:bot:{seat}").getrandbits(32)
            context = BotContext(
                seat=seat, config=self.config, rules=self.rules, level=spec.level, seed=seed
            )
            self._bots[seat] = self.registry.create_bot(context, spec.bot)
        return self._bots[seat]

    def play_bot_turn(self) -> tuple[Event, ...]:
        """Let the bot whose turn it is move. A bot that fails or answers with an illegal move
        loses the move to a random legal one, and a notice says so."""
        seat = self.state.current_seat
        bot = self.bot(seat)
        if bot is None:
            raise ValueError(f"seat {seat} is not a bot")
        legal = self.legal_actions(seat)
        try:
            command = bot.choose(self.view(seat), legal)
            problem = None if command in legal else _("an illegal move ({move})").format(
                move=command
            )
        except Exception as exc:  # a bot must never cost a player the game
            problem = _("an error ({error})").format(error=f"{type(exc).__name__}: {exc}")
        if problem is not None:
            rng = random.Random(f"cinco:{self.config.seed}:fallback:{len(self.store)}")
            command = legal[rng.randrange(len(legal))]
            self.notice(
                "bot_replaced",
                _("{bot} bot of {name} made {problem}; a random move was played instead.").format(
                    bot=self.config.seats[seat].bot, name=self.config.seats[seat].name,
                    problem=problem,
                ),
                seat=seat,
            )
        return self.execute(command)

    def play_bots(self, max_turns: int | None = None) -> int:
        """Let bots move until a person is to move or the game ends; returns turns played."""
        played = 0
        while not self.is_over and self.config.seats[self.state.current_seat].is_bot:
            if max_turns is not None and played >= max_turns:
                break
            self.play_bot_turn()
            played += 1
        return played

    def __repr__(self) -> str:
        state = self.state
        status = "over" if state.is_over else f"turn {state.turn}, seat {state.current_seat}"
        return f"<Game {self.config.players}p {self.config.layout} {status}, {len(self.store)} events>"
