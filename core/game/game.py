"""A game: its event log, its rules, its plugins, and the views of everyone watching.

>>> from cinco import Game, GameConfig, Exchange
>>> game = Game.new(GameConfig.for_players(2, seed=1, first_seat=0))
>>> len(game.view(0).hand(0)), game.view(0).hand(1)
(4, (0, 0, 0, 0))
>>> game.execute(Exchange(seat=0))[-1]
TurnEnded(seat=0, action='exchange', next_seat=1)
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from cinco.core.engine.commands import Command
from cinco.core.engine.config import GameConfig
from cinco.core.engine.errors import ConfigError, EventError, TableRefusal
from cinco.core.engine.events import REFEREE, Event, GameEnded, GameStarted, Notice, Undone, Viewer
from cinco.core.engine.faults import user_interrupt
from cinco.core.engine.legal import LegalActions, legal_actions
from cinco.core.engine.oracle import RulesOracle
from cinco.core.engine.rules import RuleSet, decide_steps, setup_events
from cinco.core.engine.state import GameState, Timeline, project
from cinco.core.engine.verify import check_turns
from cinco.core.game.store import EventStore
from cinco.core.host.declarations import Bot, BotContext
from cinco.core.host.registry import Registry, default_registry
from cinco.core.host.sources import Conflict, PluginProblem, describe_error, logger
from cinco.core.words.i18n import _
from cinco.core.words.messages import freeze, render

Listener = Callable[[Event, "Game"], None]
#: One implementation of a lifecycle hook: plugin name, function, and the positions of the
#: hook's arguments it takes (``None``: all of them).
_Impl = tuple[str, Callable[..., object], tuple[int, ...] | None]

#: The game option giving the seconds a bot may think per move (see :meth:`Game.play_bot_turn`).
BOT_TIME_BUDGET = "bot_time_budget"
#: The game option giving a search bot's iterations per move (reproducible, unlike time).
BOT_ITERATIONS = "bot_iterations"
#: A bot is over its budget only beyond this much more (clocks on a busy machine jitter).
BUDGET_GRACE = 0.25


def _iterations(config: GameConfig) -> int | None:
    """The game's ``bot_iterations`` option: a search bot's iterations per move."""
    count = config.options.get(BOT_ITERATIONS)
    if count is None:
        return None
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ConfigError(
            _("The option {option} must be a positive whole number, not {value!r}.").format(
                option=BOT_ITERATIONS, value=count
            )
        )
    return count


def _time_budget(config: GameConfig) -> float | None:
    budget = config.options.get(BOT_TIME_BUDGET)
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, int | float) or budget <= 0:
        raise ConfigError(
            _("The option {option} must be a positive number of seconds, not {value!r}.").format(
                option=BOT_TIME_BUDGET, value=budget
            )
        )
    return float(budget)


class Game:
    """One game of Cinco. Create it with :meth:`new` or :meth:`from_events`."""

    def __init__(
        self,
        config: GameConfig,
        *,
        registry: Registry | None = None,
        plugins: Sequence[object] = (),
        game_id: str | None = None,
    ) -> None:
        self.config = config
        #: Names the game for watchers (hook API 2): its table's id, which its record's header
        #: holds too, so that a resumed game keeps it; a bare game draws one.
        self.id = game_id or secrets.token_hex(6)
        #: Set by :meth:`close` (the ``cinco_game_closed`` hook has been called).
        self.closed = False
        #: Rebuilt from a log (resume, undo): ``cinco_event`` is not called for the events it
        #: held already (they are in :attr:`events` when ``cinco_game_started`` is called).
        self.resumed = False
        self.registry = registry if registry is not None else default_registry()
        self.registry.check_layout(config)
        # Games without plugins of their own share their variants' rule set (see rules_for).
        self.rules: RuleSet = self.registry.rules_for(config, shared=not plugins)
        for plugin in plugins:
            self.rules.register(plugin, name=self._free_name(plugin))
        self.plugins = tuple(plugins)
        #: Plugins that failed in a lifecycle hook of this game (each is then switched off).
        self.problems: list[PluginProblem] = []
        self.bot_time_budget = _time_budget(config)
        self._disabled: set[str] = set()
        self._hooks: dict[str, list[_Impl]] = {}
        self._pending: list[Notice] = []
        #: The user's Ctrl-C, held until the turn being stored is whole.
        self._interrupt: BaseException | None = None
        self._dispatching = 0
        self.store = EventStore()
        self._state: GameState | None = None
        self._states: Timeline | None = None
        self._views: dict[Viewer, tuple[GameState, GameState]] = {}
        self._view_configs: dict[Viewer, GameConfig] = {}
        self._bots: dict[int, Bot] = {}
        self._notify = True
        #: How deep the game is in storing an event (and telling hooks and subscribers of it):
        #: a command given meanwhile would be decided on a half-stored turn, so it is refused.
        self._storing = 0
        #: Subscribers that raised: each is switched off and reported once.
        self.store.on_error = self._subscriber_failed

    # -- creating -----------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        config: GameConfig,
        *,
        registry: Registry | None = None,
        plugins: Sequence[object] = (),
        keep_params: bool = False,
        game_id: str | None = None,
    ) -> Game:
        """A new game: shuffle, deal, choose the first player (S1, P5).

        A configuration without a seed gets one from the operating system: a seed fixes every
        shuffle, so a seed anyone could guess would tell them the deck. The game's parameters
        are *config*'s as the variants' ``cinco_game_params`` hooks declare them; with
        *keep_params* (dealing again a recorded game cut off in its deal), *config*'s own."""
        if config.seed is None:
            config = replace(config, seed=secrets.randbits(63))
        game = cls(config, registry=registry, plugins=plugins, game_id=game_id)
        if not keep_params:  # a new game (not a recorded one dealt again): variants that combine
            game.registry.check_variants(config.variants)
        # The variants' game parameters, resolved once and recorded in game_started.
        params = config.params if keep_params else game.rules.params(config)
        if params != config.params:
            config = game.config = replace(config, params=params)
        # The deal is stored first and told afterwards, so that cinco_game_started comes
        # before the first cinco_event: a watcher opening its file there misses nothing.
        game._notify = False
        game._store_whole([(event, None) for event in setup_events(config)])
        game._notify = True
        game._dispatching += 1  # notices wait until every plugin has seen the deal
        try:
            game._call("cinco_game_started", game)
            for event in tuple(game.store):
                game._call("cinco_event", game, event)
        finally:
            game._dispatching -= 1
        game._flush_notices()
        for conflict in game._conflicts():
            # Say which plugin's variant, layout or bot this game uses (the first registered).
            game.notice(
                "plugin_conflict",
                {
                    "kind": conflict.kind,
                    "name": conflict.name,
                    "used": conflict.used,
                    "others": ", ".join(conflict.ignored),
                },
            )
        return game

    @classmethod
    def from_events(
        cls,
        events: Sequence[Event],
        *,
        registry: Registry | None = None,
        plugins: Sequence[object] = (),
        complete_turns: bool = False,
        game_id: str | None = None,
    ) -> Game:
        """Rebuild a game from its log (resume, replay, undo).

        Every event is checked against the state before it, and every turn against the rules
        (:mod:`cinco.core.engine.verify`); an inconsistent log raises :class:`EventError` naming the
        event. With *complete_turns*, a last turn cut short (a process killed between two of
        its events) is left out, so that the game resumes at the start of that turn.
        """
        if not events or not isinstance(events[0], GameStarted):
            raise EventError(_("a game must begin with a game_started event"))
        game = cls(events[0].config, registry=registry, plugins=plugins, game_id=game_id)
        game.resumed = True
        game._notify = False
        for index, event in enumerate(events):
            try:
                game._append(event)
            except EventError as exc:
                raise EventError(_("event {n}: {error}").format(n=index + 1, error=exc)) from None
        setup = 2 + game.config.params.deal * game.config.players
        complete = check_turns(events, game.rules, setup) if len(events) > setup else len(events)
        if complete_turns and complete < len(events):
            return cls.from_events(
                events[:complete], registry=registry, plugins=plugins, game_id=game_id
            )
        game._notify = True
        game._call("cinco_game_started", game)
        return game

    # -- the log and the state ----------------------------------------------------------------

    def _append(self, event: Event, after: GameState | None = None) -> None:
        """Store *event*; *after* is the state it leads to, when the caller knows it already."""
        if type(event) is Notice and self._state is not None and self._state.is_over:
            # Nothing follows game_ended in a log (a record ends there): a notice about the
            # end (a plugin failing in cinco_game_ended) is logged and kept in problems.
            logger.warning("%s", event.text)
            return
        states = self._states
        if isinstance(event, GameStarted) and self._state is None:
            states = self._states = Timeline(event)
            after = states.state
        else:
            # Kept in step with the store, even by a Ctrl-C between the two appends.
            if states is None or len(states) != len(self.store):
                states = self._timeline()
            after = states.append(event, after)
        self._state = after
        self._storing += 1
        try:
            self.store.append(event)
            if self._notify:
                self._call("cinco_event", self, event)
                if type(event) is GameEnded:
                    self._call("cinco_game_ended", self)
        finally:
            self._storing -= 1

    def _timeline(self) -> Timeline:
        """The log's states kept for undo (:class:`~cinco.core.engine.state.Timeline`); made again
        from the store if they ever part (cheap, linear)."""
        if self._states is None or len(self._states) != len(self.store):
            if not self.store:
                raise EventError(_("a game must begin with a game_started event"))
            self._states = Timeline.of(self.store)
        return self._states

    def _require_state(self) -> GameState:
        if self._state is None:
            raise EventError(_("a game must begin with a game_started event"))
        return self._state

    def _call(self, hook: str, *arguments: object) -> None:
        """Call a lifecycle hook's implementations one by one, with *arguments* in the order
        of the hookspec. One that raises anything, ``BaseException`` included
        (:mod:`cinco.core.engine.faults`), is reported (a ``plugin_switched_off`` notice naming the
        plugin and the hook) and switched off for this game; the others still run, and the
        log stays intact. The user's Ctrl-C is held until the turn is stored whole
        (:meth:`_flush_notices` raises it then)."""
        chain = self._hooks.get(hook)
        if chain is None:
            chain = self._hooks[hook] = self._chain(hook)
        if not chain:
            return
        self._dispatching += 1
        try:
            for name, function, positions in chain:
                if name in self._disabled:
                    continue
                try:
                    if positions is None:
                        function(*arguments)
                    else:
                        function(*[arguments[i] for i in positions])
                except BaseException as exc:  # a plugin must never cost a player the game
                    if user_interrupt(exc):
                        self._interrupt = self._interrupt or exc
                    else:
                        self._plugin_failed(name, hook, exc)
        finally:
            self._dispatching -= 1
        self._flush_notices()

    def _flush_notices(self) -> None:
        if self._dispatching:
            return
        if self._pending:
            # Notices are stored after every plugin has seen the event that caused them, so
            # that all plugins see the events in the same order.
            pending, self._pending = self._pending, []
            for notice in pending:
                self._append(notice)
        if self._interrupt is not None and not self._storing:
            # The user's Ctrl-C, held while a turn was stored: the turn is whole now.
            interrupt, self._interrupt = self._interrupt, None
            raise interrupt

    def _chain(self, hook: str) -> list[_Impl]:
        """*hook*'s implementations, in pluggy's order, each with the positions of the
        arguments it takes (``None``: all of them, in order), worked out once per game: the
        ``cinco_event`` hook is called on every event."""
        chain: list[_Impl] = []
        for prefix, pm in (("", self.registry.pm), ("game:", self.rules.pm)):
            caller = getattr(pm.hook, hook)
            argnames = tuple(caller.spec.argnames)
            for impl in reversed(caller.get_hookimpls()):
                if impl.hookwrapper or impl.wrapper:  # wrappers: not for lifecycle hooks
                    continue
                positions: tuple[int, ...] | None = tuple(map(argnames.index, impl.argnames))
                if positions == tuple(range(len(argnames))):
                    positions = None
                chain.append((prefix + impl.plugin_name, impl.function, positions))
        return chain

    def _plugin_failed(self, name: str, hook: str, exc: BaseException) -> None:
        self._disabled.add(name)
        plugin = self.registry.describe(name.removeprefix("game:"))
        params = {"plugin": plugin, "hook": hook, "error": self.scrub(describe_error(exc))}
        text = render("plugin_switched_off", params)
        logger.warning("%s", text)
        self.problems.append(PluginProblem(plugin, hook, text))
        if self._notify:
            self._pending.append(Notice(code="plugin_switched_off", params=freeze(params)))

    def _subscriber_failed(self, exc: BaseException) -> None:
        """A subscriber raised: the store has switched it off; tell everyone once."""
        params = {"error": self.scrub(describe_error(exc))}
        logger.warning("%s", render("subscriber_failed", params))
        notice = Notice(code="subscriber_failed", params=freeze(params))
        if self._dispatching or self._storing:
            self._pending.append(notice)
        else:
            self._append(notice)

    def scrub(self, text: str) -> str:
        """*text* without the game's seed (it fixes every shuffle: S2), for anything shown to
        players or logged: an error message may quote a configuration."""
        seed = self.config.seed
        if seed is None or len(str(seed)) < 3:
            return text
        return text.replace(str(seed), "[seed]")

    def _free_name(self, plugin: object) -> str:
        base = getattr(plugin, "__name__", None) or type(plugin).__name__
        name, n = base, 1
        while self.rules.pm.has_plugin(name):
            n += 1
            name = f"{base}-{n}"
        return name

    def _conflicts(self) -> list[Conflict]:
        config = self.config
        used = {
            ("layout", config.layout),
            *(("variant", name) for name in config.variants),
            *(("bot", seat.bot) for seat in config.seats if seat.bot is not None),
        }
        return [c for c in self.registry.conflicts() if (c.kind, c.name) in used]

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
        :data:`~cinco.core.engine.events.REFEREE`."""
        if viewer == REFEREE:
            return self.state
        state = self._require_state()
        cached = self._views.get(viewer)
        if cached is not None and cached[0] is state:
            return cached[1]
        if not isinstance(viewer, int | None):
            raise ValueError(f"not a viewer: {viewer!r}")
        config = self._view_configs.get(viewer)
        if config is None:
            started = self.store[0].seen_by(viewer)
            assert isinstance(started, GameStarted)
            config = self._view_configs[viewer] = started.config
        view = project(state, viewer, config)
        self._views[viewer] = (state, view)
        return view

    def events_for(self, viewer: Viewer) -> list[Event]:
        """The whole log as *viewer* may see it."""
        return [event.seen_by(viewer) for event in self.store]

    def state_at(self, count: int) -> GameState:
        """The referee's state after the first *count* events (found from a state kept near
        it: see :class:`~cinco.core.engine.state.Timeline`)."""
        if not 1 <= count <= len(self.store):
            raise IndexError(f"a state exists after 1 to {len(self.store)} events, not {count}")
        return self._timeline().state_at(count)

    def subscribe(self, listener: Listener, viewer: Viewer = REFEREE) -> Callable[[], None]:
        """Call *listener(event, game)* with each new event as *viewer* sees it."""
        return self.store.subscribe(lambda _index, event: listener(event.seen_by(viewer), self))

    def rewind(self, count: int, plugins: Sequence[object] = ()) -> Game:
        """A new game holding only the first *count* events (undo). This game is unchanged."""
        return Game.from_events(
            list(self.store)[:count], registry=self.registry, plugins=plugins, game_id=self.id
        )

    def setting(self, name: str) -> Any:
        """The plugin setting *name* in this game (hook API 2): the value chosen for it, as
        recorded in the options, else its default (``cinco_register_settings``)."""
        return self.registry.setting(self.config, name)

    def close(self) -> None:
        """Say that nothing more will happen to this game here: the ``cinco_game_closed`` hook
        is called once, with ``"ended"`` or ``"abandoned"``. A
        :class:`~cinco.core.table.table.Table`
        calls it when it closes; a program playing a bare game calls it when done. A plugin
        failing in the hook is logged (the log is not changed any more)."""
        if self.closed:
            return
        self.closed = True
        self._notify = False  # a failure is logged, not added to a closed game's log
        self._call("cinco_game_closed", self, "ended" if self.is_over else "abandoned")

    # -- playing ------------------------------------------------------------------------------

    def legal_actions(self, seat: int | None = None) -> LegalActions:
        return legal_actions(self.state, self.rules, seat)

    def execute(self, command: Command) -> tuple[Event, ...]:
        """Carry out *command*: store and announce its events, or raise ``IllegalCommand``
        and change nothing. A command given by a hook or a subscriber while the game is still
        storing a turn is refused (code ``busy``): it would be decided on half a turn."""
        return self._execute(command, None)

    def _store_whole(self, steps: Sequence[tuple[Event, GameState | None]]) -> None:
        """Store a turn's events (or the deal's), each with the state it leads to if known.
        A plugin's notice waits until the whole turn is stored (*after* states are exact);
        the user's Ctrl-C between two of its events is held until the rest is stored too,
        then raised (:meth:`_flush_notices`): a turn is stored whole or not at all."""
        self._dispatching += 1
        stored = len(self.store)
        try:
            for event, after in steps:
                self._append(event, after)
        except KeyboardInterrupt as exc:  # (a plugin's is contained in _call)
            self._interrupt = self._interrupt or exc
            for event, after in steps[len(self.store) - stored :]:
                self._append(event, after)
        finally:
            self._dispatching -= 1
        self._flush_notices()

    def _refuse_if_busy(self) -> None:
        if self._storing or self._dispatching:
            raise TableRefusal("busy")

    def _execute(self, command: Command, legal: LegalActions | None) -> tuple[Event, ...]:
        self._refuse_if_busy()
        steps = decide_steps(self._require_state(), command, self.rules, legal)
        self._store_whole(steps)
        events = []
        for event, _after in steps:
            events.append(event)
        return tuple(events)

    def notice(
        self,
        code: str,
        params: Mapping[str, Any] | str | None = None,
        seat: int | None = None,
        *,
        private: Mapping[str, Any] | None = None,
    ) -> None:
        """Record something players should be told (no effect on the rules): a message code
        and its parameters (:mod:`cinco.core.words.messages`). *private* parameters are shown only
        to *seat*. Given while a turn is being stored, it waits until the turn is whole.

        Plain words instead of parameters (``notice("mine", "Hello")``) are kept as the
        ``text`` parameter."""
        if isinstance(params, str):
            params = {"text": params}
        notice = Notice(
            code=code,
            params=freeze(params),
            seat=seat,
            private=None if private is None else freeze(private),
        )
        if self._storing or self._dispatching:
            self._pending.append(notice)
        else:
            self._append(notice)
            self._flush_notices()

    def undo(self, seat: int, back_to: int) -> Undone:
        """Take the game back to the state after its first *back_to* events, on *seat*'s
        behalf; the moves taken back stay in the log. The table decides who may undo what
        (:class:`cinco.core.table.table.Table`); this only checks that the target is a turn's
        start."""
        self._refuse_if_busy()
        if not 1 <= back_to < len(self.store):
            raise TableRefusal("nothing_to_undo")
        event = Undone(seat=seat, back_to=back_to)
        self._append(event)
        self._flush_notices()
        return event

    def bot(self, seat: int) -> Bot | None:
        """The bot playing *seat*, or ``None`` for a person."""
        bot = self._bots.get(seat)
        if bot is not None:
            return bot
        spec = self.config.seats[seat]
        if spec.bot is None:
            return None
        seed = random.Random(f"cinco:{self.config.seed}:bot:{seat}").getrandbits(32)
        context = BotContext(
            seat=seat,
            # The view's config: a bot must not learn the game's seed (S2).
            config=self.view(seat).config,
            rules=RulesOracle.of(self.rules),
            level=spec.level,
            seed=seed,
            time_budget=self.bot_time_budget,
            iterations=_iterations(self.config),
        )
        self._bots[seat] = self.registry.create_bot(context, spec.bot)
        return self._bots[seat]

    def play_bot_turn(self) -> tuple[Event, ...]:
        """Let the bot whose turn it is move.

        A bot that raises (when created or when choosing), answers with anything but one of
        its legal moves, or takes longer than the game's ``bot_time_budget`` option (plus
        :data:`BUDGET_GRACE`) loses the move to a random legal one, and a ``bot_replaced``
        notice says so: to everyone, the bot and what kind of trouble; to the bot's own seat
        only, the move it tried or the error it raised (either may show a card of its hand).
        A late bot is not interrupted: its answer is measured, then set aside.
        """
        self._refuse_if_busy()
        state = self._require_state()
        seat = state.current_seat
        if not self.config.seats[seat].is_bot:
            raise ValueError(f"seat {seat} is not a bot")
        legal = legal_actions(state, self.rules, seat)
        budget = self.bot_time_budget
        public: dict[str, Any] = {}
        private: dict[str, Any] = {}
        chosen: Command | None = None
        try:
            bot = self.bot(seat)
            assert bot is not None
            started = time.perf_counter()
            answer: object = bot.choose(self.view(seat), legal)
            elapsed = time.perf_counter() - started
            if budget is not None and elapsed > budget + BUDGET_GRACE:
                public = {"problem": "late", "elapsed": round(elapsed, 3), "budget": budget}
            else:
                chosen = _legal_one(answer, legal)
                if chosen is None:
                    public = {"problem": "illegal"}
                    private = {"move": self.scrub(_describe_answer(answer))}
        except BaseException as exc:  # a bot must never cost a player the game
            if user_interrupt(exc):  # the user's Ctrl-C while it thinks: nothing is stored
                raise
            public = {"problem": "error"}
            private = {"error": self.scrub(f"{type(exc).__name__}: {exc}")}
        if chosen is None:
            rng = random.Random(f"cinco:{self.config.seed}:fallback:{len(self.store)}")
            chosen = legal[rng.randrange(len(legal))]
            spec = self.config.seats[seat]
            self.notice(
                "bot_replaced",
                {"bot": spec.bot, "name": spec.name, **public},
                seat=seat,
                private=private or None,
            )
        return self._execute(chosen, legal)

    def play_bots(self, max_turns: int | None = None) -> int:
        """Let bots move until a person is to move or the game ends; returns turns played."""
        played = 0
        seats = self.config.seats
        while (state := self._require_state()).result is None and seats[state.current_seat].is_bot:
            if max_turns is not None and played >= max_turns:
                break
            self.play_bot_turn()
            played += 1
        return played

    def __repr__(self) -> str:
        state = self.state
        status = "over" if state.is_over else f"turn {state.turn}, seat {state.current_seat}"
        config = self.config
        return f"<Game {config.players}p {config.layout} {status}, {len(self.store)} events>"


def _legal_one(answer: object, legal: LegalActions) -> Command | None:
    """The legal command equal to a bot's *answer*, or ``None``. The command played is the
    legal one, so that an answer like ``PlayCard(0, 40.0, 41)`` (equal, but a float) never
    reaches the log."""
    if not isinstance(answer, Command):
        return None
    for command in legal:
        if type(command) is type(answer) and command == answer:
            return command
    return None


def _describe_answer(answer: object) -> str:
    text = repr(answer)
    return text if len(text) <= 200 else text[:199] + "…"
