"""Deciding: a command checked against the state becomes events, or is refused.

:func:`decide` is pure: the same state and command always give the same events, and a refused
command raises an :class:`~cinco.core.engine.errors.IllegalCommand` that says why. Where the rules
can
vary (placement, the end of the game), it asks the game's :class:`RuleSet`, whose answers come
from the rule hooks of the standard rules and of the enabled variants.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import pluggy

from cinco.core.engine import standard_rules
from cinco.core.engine._fast_init import quick_init
from cinco.core.engine.board import SPACES
from cinco.core.engine.commands import (
    DRAW,
    EXCHANGE,
    PLAY,
    Command,
    Draw,
    Exchange,
    PlayCard,
    check_command,
)
from cinco.core.engine.config import GameConfig
from cinco.core.engine.errors import (
    ActionNotAllowed,
    CannotPlace,
    CardNotInHand,
    EmptyHand,
    GameOver,
    HandFull,
    HandFullPlay,
    HandNotFull,
    NoSuchSpace,
    NotYourTurn,
    PluginError,
    RuleHookError,
    SpaceBelowCard,
    SpaceRequired,
    SpaceTaken,
)
from cinco.core.engine.events import (
    CardDrawn,
    CardPlayed,
    DeckShuffled,
    Event,
    GameEnded,
    GameStarted,
    HandDiscarded,
    TurnEnded,
)
from cinco.core.engine.faults import user_interrupt
from cinco.core.engine.outcome import ONGOING, Outcome
from cinco.core.engine.params import GameParams
from cinco.core.engine.state import GameState, evolve
from cinco.core.hooks import hookspecs
from cinco.core.words.i18n import _

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence


#: Checks a rule hook's answer, given the hook's arguments: returns the answer to use, or
#: raises (``TypeError``, ``ValueError``) saying what is wrong with it.
ResultCheck = Callable[[tuple[Any, ...], Any], Any]

#: The plugin name of the standard rules in a :class:`RuleSet` (their answers are not checked).
STANDARD_RULES = "standard_rules"


def first_result(
    hook: pluggy.HookCaller,
    check: ResultCheck | None = None,
    argnames: Sequence[str] | None = None,
) -> Callable[..., Any]:
    """A function calling *hook*'s implementations in pluggy's order until one answers.

    It takes the hook's arguments by position, in the hookspec's order (or *argnames*', a
    leading part of them that every implementation keeps to). It gives the same
    answer as calling a ``firstresult`` hook, without pluggy's per-call bookkeeping, which the
    rules pay on every move. An implementation that raises, or (with *check*) gives an answer
    *check* refuses, raises :class:`RuleHookError` naming its plugin: the command is refused
    and nothing changes. The standard rules' answers are not checked.

    Wrappers (``hookwrapper=True``, ``wrapper=True``) are not rule hooks: a rule set refuses
    them when they are registered (:func:`rule_wrappers`), and so does this.
    """
    spec = hook.spec
    assert spec is not None
    argnames = tuple(spec.argnames if argnames is None else argnames)
    impls = hook.get_hookimpls()
    wrapped = [impl.plugin_name for impl in impls if impl.hookwrapper or impl.wrapper]
    if wrapped:
        raise PluginError(_wrapper_refusal(wrapped[0], hook.name))
    # Implementations may take any subset of the arguments: which positions each one wants.
    chain = [
        (
            impl.function,
            tuple(argnames.index(name) for name in impl.argnames),
            impl.plugin_name,
            check if impl.plugin_name != STANDARD_RULES else None,
        )
        for impl in reversed(impls)
    ]
    # The functions below hold the hook's name, not the hook: a bot's rules oracle is built
    # from them, and must lead to no plugin manager (cinco.core.engine.oracle).
    name = hook.name
    if len(chain) == 1 and chain[0][1] == tuple(range(len(argnames))) and chain[0][3] is None:
        # Only the standard rules: the call costs one frame more than calling them directly.
        function, _positions, plugin, _check = chain[0]

        def call_one(*args: Any) -> Any:
            try:
                return function(*args)
            except BaseException as exc:
                if user_interrupt(exc):  # the user's Ctrl-C; anything else: the plugin's
                    raise
                raise rule_hook_error(plugin, name, exc) from exc

        return call_one

    def call(*args: Any) -> Any:
        for function, positions, plugin, checked in chain:
            try:
                result = function(*[args[i] for i in positions])
                if result is not None and checked is not None:
                    result = checked(args, result)
            except BaseException as exc:  # a broken variant is refused, never half-applied
                if user_interrupt(exc):  # the user's Ctrl-C; anything else: the plugin's
                    raise
                raise rule_hook_error(plugin, name, exc) from exc
            if result is not None:
                return result
        return None

    return call


def _wrapper_refusal(plugin: str, hook: str) -> str:
    return _(
        "Plugin {plugin!r} implements the rule hook {hook} as a wrapper (hookwrapper=True or "
        "wrapper=True). Rule hooks answer or defer (return None); they cannot wrap other "
        "plugins' answers. Make it an ordinary @hookimpl."
    ).format(plugin=plugin, hook=hook)


def rule_wrappers(plugin: object) -> list[str]:
    """The rule hooks (``cinco_legal_spaces``, ``cinco_game_end``, ``cinco_action_allowed``,
    ``cinco_game_params``) *plugin* implements as pluggy wrappers, which a rule set refuses."""
    marker = f"{hookspecs.PROJECT}_impl"
    found = []
    for hook in (*RULE_HOOKS, "cinco_game_params"):
        options = getattr(getattr(plugin, hook, None), marker, None)
        if isinstance(options, dict) and (options.get("hookwrapper") or options.get("wrapper")):
            found.append(hook)
    return found


#: The hooks a game's rules answer (first result wins).
RULE_HOOKS = ("cinco_legal_spaces", "cinco_game_end", "cinco_action_allowed")


def check_allowed(args: tuple[Any, ...], result: Any) -> bool | str:
    """A ``cinco_action_allowed`` answer: ``True``, ``False``, or a reason in words."""
    if isinstance(result, bool):
        return result
    if isinstance(result, str) and result.strip():
        return result
    raise TypeError(f"returned {result!r}, not True, False, a reason (text) or None")


def check_spaces(args: tuple[Any, ...], result: Any) -> tuple[int, ...]:
    """A ``cinco_legal_spaces`` answer: free spaces of the board, each a whole number once."""
    state: GameState = args[0]
    if not isinstance(result, tuple | list):
        raise TypeError(f"returned {result!r}, not a tuple of spaces (or None)")
    seen: set[int] = set()
    for space in result:
        if isinstance(space, bool) or not isinstance(space, int):
            raise TypeError(f"returned {result!r}: {space!r} is not a space number")
        if not 1 <= space <= SPACES:
            raise ValueError(f"returned space {space}: spaces are numbered 1 to {SPACES}")
        if space in seen:
            raise ValueError(f"returned space {space} twice")
        if not state.is_free(space):
            raise ValueError(f"returned space {space}, which is taken")
        seen.add(space)
    return tuple(result)


def check_outcome(args: tuple[Any, ...], result: Any) -> Outcome:
    """A ``cinco_game_end`` answer: an :class:`Outcome` whose winner is a team of the game."""
    state: GameState = args[0]
    if type(result).__name__ != "Outcome" or not all(
        hasattr(result, name) for name in ("winner", "reason", "line", "over")
    ):
        raise TypeError(f"returned {result!r}, not an Outcome (or None)")
    over, winner, reason, line = result.over, result.winner, result.reason, result.line
    if not isinstance(over, bool):
        raise TypeError(f"returned an Outcome whose over is {over!r}, not true or false")
    if not over:
        return ONGOING
    teams = state.config.teams
    if winner is not None and (
        isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < teams
    ):
        raise ValueError(f"returned winner {winner!r}: the teams are 0 to {teams - 1} (or None)")
    if not isinstance(reason, str) or not reason:
        raise TypeError(f"returned reason {reason!r}, not a word such as 'line'")
    if line is not None:
        if not isinstance(line, tuple | list) or not all(
            isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= SPACES for n in line
        ):
            raise ValueError(f"returned line {line!r}, not a tuple of spaces 1 to {SPACES}")
        line = tuple(line)
    scores = getattr(result, "scores", None)
    if scores is not None:
        if (
            not isinstance(scores, tuple | list)
            or len(scores) != teams
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in scores)
        ):
            raise ValueError(f"returned scores {scores!r}, not one whole number per team")
        scores = tuple(scores)
    if type(result) is Outcome and line is result.line and scores is result.scores:
        return result
    return Outcome(winner=winner, reason=reason, line=line, scores=scores)


def rule_hook_error(plugin: str, hook: str, exc: BaseException) -> RuleHookError:
    """The error refusing a command because *plugin*'s rule hook raised *exc*."""
    return RuleHookError(plugin=plugin, hook=hook, error=f"{type(exc).__name__}: {exc}")


class Rules(Protocol):
    """What deciding asks of a game's rules: a :class:`RuleSet`, or a bot's read-only
    :class:`~cinco.core.engine.oracle.RulesOracle`."""

    @property
    def owners(self) -> tuple[str, ...]: ...

    def legal_spaces(self, state: GameState, seat: int, card: int) -> tuple[int, ...]: ...

    def outcome(self, state: GameState, command: Command) -> Outcome | None: ...

    def allowed(self, state: GameState, seat: int, action: str) -> bool | str: ...

    def actions(self, state: GameState, seat: int) -> tuple[bool, bool]: ...


def owner_name(plugin: object) -> str:
    """A rule plugin's qualified name: its module's, or its class's (``pkg.mod.Class``)."""
    if isinstance(plugin, type(pluggy)):
        return plugin.__name__
    cls = type(plugin)
    return f"{cls.__module__}.{cls.__qualname__}"


class CompiledRules:
    """The answers of a game's rule hooks, from their compiled chains (:func:`first_result`):
    shared by the :class:`RuleSet` and a bot's read-only
    :class:`~cinco.core.engine.oracle.RulesOracle`."""

    __slots__ = (
        "_action_allowed",
        "_game_end",
        "_hook_owners",
        "_legal_spaces",
        "_owners",
        "_standard_actions",
    )

    _legal_spaces: Callable[..., Any]
    _game_end: Callable[..., Any]
    _action_allowed: Callable[..., Any]
    #: Whether only the standard rules answer ``cinco_action_allowed`` (the quick path).
    _standard_actions: bool
    _owners: tuple[str, ...]
    _hook_owners: dict[str, tuple[str, ...]]

    def owners_of(self, hook: str) -> tuple[str, ...]:
        """Who implements the rule hook *hook* here (as :attr:`owners`, for one hook)."""
        return self._hook_owners.get(hook, ())

    @property
    def owners(self) -> tuple[str, ...]:
        """Who implements the rule hooks here: each plugin's :func:`owner_name`, standard rules
        first. A bot's kernel knows some of them (``cinco.plugins.bots.kernel.supports``)."""
        return self._owners

    def legal_spaces(self, state: GameState, seat: int, card: int) -> tuple[int, ...]:
        """Where *card* may go in *state*; empty when it burns."""
        spaces: tuple[int, ...] | None = self._legal_spaces(state, seat, card)
        return () if spaces is None else spaces

    def outcome(self, state: GameState, command: Command) -> Outcome | None:
        """How the game ends after *command* led to *state* (``None``: it goes on)."""
        outcome: Outcome | None = self._game_end(state, command)
        if outcome is None or not outcome.over:
            return None
        return outcome

    def allowed(self, state: GameState, seat: int, action: str) -> bool | str:
        """Whether *seat* may *action* (``"draw"`` or ``"exchange"``) in *state* on their turn:
        ``True``, or why not (``False``, the standard refusals ``"hand_full"`` and
        ``"hand_not_full"``, or a variant's reason in words)."""
        answer: bool | str | None = self._action_allowed(state, seat, action)
        return False if answer is None else answer

    def actions(self, state: GameState, seat: int) -> tuple[bool, bool]:
        """Whether *seat* may draw, and exchange, in *state* (it being their turn)."""
        if self._standard_actions:
            size = len(state.hands[seat])
            params = state.config.params
            return size < params.hand_limit, size == params.exchange_size
        size = len(state.hands[seat])
        return (
            size == 0
            or (size < state.config.params.hand_limit and self.allowed(state, seat, DRAW) is True),
            size > 0 and self.allowed(state, seat, EXCHANGE) is True,
        )


class RuleSet(CompiledRules):
    """The rules of one game: the standard rules plus the enabled variants' rule hooks.

    It is a pluggy plugin manager of its own, so that enabling a variant in one game never
    changes another game running in the same process. Register plugins with :meth:`register`
    (not on ``pm`` directly), so that the hook chains are rebuilt.
    """

    def __init__(
        self, rule_plugins: Iterable[object] = (), names: Sequence[str] | None = None
    ) -> None:
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.pm.register(standard_rules, name=STANDARD_RULES)
        for index, plugin in enumerate(rule_plugins):
            # *names* label the variants in error messages (see rule_hook_error).
            self._add(plugin, names[index] if names else None)
        self._compile()

    def register(self, plugin: object, name: str | None = None) -> None:
        """Add a plugin to this game only (a variant's rules, a record writer, ...). A plugin
        implementing a rule hook as a wrapper is refused (:class:`PluginError`)."""
        self._add(plugin, name)
        self._compile()

    def _add(self, plugin: object, name: str | None) -> None:
        wrapped = rule_wrappers(plugin)
        if wrapped:
            label = name or getattr(plugin, "__name__", None) or owner_name(plugin)
            raise PluginError(_wrapper_refusal(label, wrapped[0]))
        self.pm.register(plugin, name=name)

    def params(self, config: GameConfig) -> GameParams:
        """The game parameters of a new game with *config*: its own (the standard game's unless
        given), then each variant's ``cinco_game_params`` answer, asked in the order of the
        variants, each seeing the parameters so far. A variant that raises or answers anything
        but :class:`GameParams` (or ``None``) is refused with an error naming it."""
        params = config.params
        impls = {impl.plugin_name: impl for impl in self.pm.hook.cinco_game_params.get_hookimpls()}
        for name, _plugin in self.pm.list_name_plugin():  # in the order of registration
            impl = impls.get(name)
            if impl is None:
                continue
            try:
                arguments = {"params": params, "config": config}
                answer = impl.function(*[arguments[n] for n in impl.argnames])
                if answer is not None and not isinstance(answer, GameParams):
                    raise TypeError(f"returned {answer!r}, not GameParams (or None)")
            except BaseException as exc:
                if user_interrupt(exc):  # the user's Ctrl-C; anything else: the plugin's
                    raise
                raise rule_hook_error(name, "cinco_game_params", exc) from exc
            if answer is not None:
                params = answer
        return params

    def _compile(self) -> None:
        self._legal_spaces = first_result(self.pm.hook.cinco_legal_spaces, check_spaces)
        self._game_end = _game_end_chain(self.pm.hook.cinco_game_end)
        allowed = self.pm.hook.cinco_action_allowed
        self._action_allowed = first_result(allowed, check_allowed)
        self._standard_actions = all(
            impl.plugin_name == STANDARD_RULES for impl in allowed.get_hookimpls()
        )
        hooks = (self.pm.hook.cinco_legal_spaces, self.pm.hook.cinco_game_end, allowed)
        self._hook_owners = {
            hook.name: tuple(
                dict.fromkeys(owner_name(impl.plugin) for impl in reversed(hook.get_hookimpls()))
            )
            for hook in hooks
        }
        self._owners = tuple(
            dict.fromkeys(
                owner_name(impl.plugin) for hook in hooks for impl in hook.get_hookimpls()
            )
        )


def _game_end_chain(hook: pluggy.HookCaller) -> Callable[[GameState, Command], Any]:
    """The ``cinco_game_end`` chain, called with ``(state, command)``. The standard verdict
    (the ``standard`` argument, hook API 2) is worked out first only when an implementation
    names it: every other game keeps the standard rules' quick path."""
    wanted = any(
        "standard" in impl.argnames
        for impl in hook.get_hookimpls()
        if impl.plugin_name != STANDARD_RULES
    )
    if not wanted:
        return first_result(hook, check_outcome, argnames=("state", "command"))
    chain = first_result(hook, check_outcome)
    standard = standard_rules.cinco_game_end
    name = hook.name  # not the hook: a bot's oracle must lead to no plugin manager

    def game_end(state: GameState, command: Command) -> Any:
        try:
            verdict = standard(state, command)
        except BaseException as exc:
            if user_interrupt(exc):  # the user's Ctrl-C; anything else: the plugin's
                raise
            raise rule_hook_error(STANDARD_RULES, name, exc) from exc
        return chain(state, command, verdict)

    return game_end


@quick_init
@dataclass(frozen=True, slots=True)
class LegalActions:
    """Everything *seat* may do now.

    ``plays`` pairs each card in hand with the spaces it may go on (empty: it burns).

    Iterating gives every legal command; ``len()`` counts them, a burn counting once.
    """

    seat: int
    plays: tuple[tuple[int, tuple[int, ...]], ...]
    can_draw: bool
    can_exchange: bool

    def __iter__(self) -> Iterator[Command]:
        for card, spaces in self.plays:
            if spaces:
                for space in spaces:
                    yield PlayCard(self.seat, card, space)
            else:
                yield PlayCard(self.seat, card, None)
        if self.can_draw:
            yield Draw(self.seat)
        if self.can_exchange:
            yield Exchange(self.seat)

    def __len__(self) -> int:
        count = self.can_draw + self.can_exchange
        for _card, spaces in self.plays:
            count += len(spaces) or 1
        return count

    def __getitem__(self, index: int) -> Command:
        """The *index*-th command of the iteration order, without building the others."""
        if index < 0:
            index += len(self)
        for card, spaces in self.plays:
            width = len(spaces) or 1
            if index < width:
                return PlayCard(self.seat, card, spaces[index] if spaces else None)
            index -= width
        if self.can_draw:
            if index == 0:
                return Draw(self.seat)
            index -= 1
        if self.can_exchange and index == 0:
            return Exchange(self.seat)
        raise IndexError("no such legal action")

    def __contains__(self, command: object) -> bool:
        if isinstance(command, PlayCard):
            for card, spaces in self.plays:
                if card == command.card:
                    return command.space in spaces if spaces else command.space is None
            return False
        if isinstance(command, Draw):
            return self.can_draw
        if isinstance(command, Exchange):
            return self.can_exchange
        return False

    def spaces_for(self, card: int) -> tuple[int, ...]:
        for held, spaces in self.plays:
            if held == card:
                return spaces
        return ()


def legal_actions(state: GameState, rules: Rules, seat: int | None = None) -> LegalActions:
    """The legal actions of *seat* (by default the player to move); none once the game is over
    or when it is not their turn. Needs only what *seat* can see."""
    current = state.current_seat
    if seat is None:
        seat = current
    if state.result is not None or seat != current:
        return LegalActions(seat, (), False, False)
    hand = state.hands[seat]
    spaces = rules.legal_spaces
    # Plain loops, not comprehensions, on the engine's hot path: on a hand of four, CPython
    # 3.11 spends longer setting a comprehension up than running it.
    plays = []
    for card in sorted(set(hand)):
        plays.append((card, spaces(state, seat, card)))
    can_draw, can_exchange = rules.actions(state, seat)
    return LegalActions(seat, tuple(plays), can_draw, can_exchange)


def reshuffle_order(state: GameState) -> tuple[int, ...]:
    """A6: the new draw pile made from the discard pile. Its randomness comes from the game's
    seed and the number of shuffles so far, so :func:`decide` stays pure."""
    rng = random.Random(f"cinco:{state.config.seed}:shuffle:{state.shuffles}")
    order = list(state.discard_pile)
    rng.shuffle(order)
    return tuple(order)


#: One step of a turn: an event and the state right after it.
Step = tuple[Event, GameState]


def _apply(steps: list[Step], state: GameState, event: Event) -> GameState:
    state = evolve(state, event)
    steps.append((event, state))
    return state


def _draw(steps: list[Step], state: GameState, seat: int, count: int) -> GameState:
    for _i in range(count):
        if not state.draw_pile:
            order = reshuffle_order(state)
            state = _apply(steps, state, DeckShuffled(size=len(order), order=order, reshuffle=True))
        state = _apply(steps, state, CardDrawn(seat, state.draw_pile[0]))
    return state


def _check_play(state: GameState, rules: Rules, command: PlayCard) -> None:
    card, space = command.card, command.space
    hand = state.hands[command.seat]
    if not hand:
        raise EmptyHand()
    if card not in hand:
        raise CardNotInHand(card=card, hand=tuple(sorted(hand)))
    legal = rules.legal_spaces(state, command.seat, card)
    if not legal:
        if space is not None:
            raise CannotPlace(card=card, space=space, burns=True)
        return
    if space is None:
        raise SpaceRequired(card=card, low=legal[0])
    if space in legal:
        return
    if not 1 <= space <= SPACES:
        raise NoSuchSpace(space=space, spaces=SPACES)
    if not state.is_free(space):
        raise SpaceTaken(space=space)
    if space < card:
        raise SpaceBelowCard(card=card, space=space)
    raise CannotPlace(card=card, space=space)


def _check_allowed(state: GameState, rules: Rules, seat: int, action: str) -> None:
    """Refuse *action* unless the rules allow it (``cinco_action_allowed``). No variant can
    let a full hand draw (A5), forbid an empty hand to draw (it could do nothing else), or let
    an empty hand be exchanged."""
    params = state.config.params
    held = len(state.hands[seat])
    if action == DRAW and held >= params.hand_limit:
        if not rules.actions(state, seat)[1]:  # nor may it exchange: say only what is left
            raise HandFullPlay(limit=params.hand_limit)
        raise HandFull(limit=params.hand_limit)
    if action == DRAW and held == 0:
        return
    answer = rules.allowed(state, seat, action) if action == DRAW or held else "hand_not_full"
    if answer is True:
        return
    if answer == "hand_full":
        raise HandFull(limit=params.hand_limit)
    if answer == "hand_not_full" or (
        answer is False and action == EXCHANGE and held != params.exchange_size
    ):
        raise HandNotFull(limit=params.exchange_size, held=held)
    if answer is False:
        answer = _("the rules of this game do not allow it now")
    raise ActionNotAllowed(action=action, reason=str(answer))


def decide(state: GameState, command: Command, rules: Rules) -> tuple[Event, ...]:
    """The events that carrying out *command* produces, or an ``IllegalCommand``.

    Each accepted command makes one whole turn: the action's events, then ``TurnEnded`` or
    ``GameEnded``.
    """
    return tuple(event for event, _state in decide_steps(state, command, rules))


def decide_steps(
    state: GameState, command: Command, rules: Rules, legal: LegalActions | None = None
) -> list[Step]:
    """:func:`decide`, with the state after each event (which deciding computes anyway).

    *legal*, when the caller has them already, are the legal actions in *state* under *rules*
    (:func:`legal_actions`): a play among them needs no more checks.
    """
    check_command(command)  # exact whole numbers, before anything else (MalformedCommand)
    if state.result is not None:
        raise GameOver()
    seat = command.seat
    if seat != state.current_seat:
        raise NotYourTurn(
            seat=seat,
            to_move=state.current_seat,
            to_move_name=state.config.seats[state.current_seat].name,
            seat_name=state.config.seats[seat].name if 0 <= seat < state.players else str(seat),
        )
    hand = state.hands[seat]
    steps: list[Step] = []
    if isinstance(command, PlayCard):
        if legal is None or legal.seat != seat or command not in legal:
            _check_play(state, rules, command)
        after = _apply(steps, state, CardPlayed(seat, command.card, command.space))
        action = PLAY
    elif isinstance(command, Draw):
        params = state.config.params
        _check_allowed(state, rules, seat, DRAW)
        room = params.hand_limit - len(hand)
        after = _draw(steps, state, seat, min(params.cards_per_draw, room))
        action = DRAW
    elif isinstance(command, Exchange):
        _check_allowed(state, rules, seat, EXCHANGE)
        discarded = HandDiscarded(seat=seat, count=len(hand), cards=tuple(hand))
        after = _draw(steps, _apply(steps, state, discarded), seat, len(hand))
        action = EXCHANGE
    else:
        raise TypeError(f"not a command: {command!r}")
    outcome = rules.outcome(after, command)
    last: Event
    if outcome is not None:
        last = GameEnded(
            seat=seat,
            action=action,
            winner=outcome.winner,
            reason=outcome.reason,
            line=outcome.line,
            scores=outcome.scores,
        )
    else:
        last = TurnEnded(seat, action, (seat + 1) % state.config.players)
    _apply(steps, after, last)
    return steps


def first_seat(config: GameConfig) -> int:
    """P5: the configured first seat, or one drawn reproducibly from the game's seed."""
    if config.first_seat is not None:
        return config.first_seat
    return random.Random(f"cinco:{config.seed}:first").randrange(config.players)


def setup_events(config: GameConfig) -> list[Event]:
    """The events that open a game: :class:`GameStarted`, the shuffle, and the deal (S1): four
    cards (the ``deal`` game parameter) to each player, one at a time round the table from the
    first player."""
    first = first_seat(config)
    order = list(range(1, SPACES + 1))
    random.Random(f"cinco:{config.seed}:deal").shuffle(order)
    events: list[Event] = [
        GameStarted(config=config, first_seat=first),
        DeckShuffled(size=SPACES, order=tuple(order), reshuffle=False),
    ]
    cards = iter(order)
    for _round in range(config.params.deal):
        for i in range(config.players):
            events.append(CardDrawn(seat=(first + i) % config.players, card=next(cards)))
    return events
