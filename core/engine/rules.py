"""Deciding: a command checked against the state becomes events, or is refused.

:func:`decide` is pure: the same state and command always give the same events, and a refused
command raises an :class:`~cinco.core.engine.errors.IllegalCommand` that says why. Where the rules
can
vary (placement, the end of the game), it asks the game's :class:`RuleSet`, whose answers come
from the rule hooks of the standard rules and of the enabled variants.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import pluggy

from cinco.core.engine import standard_rules
from cinco.core.engine.actions import (
    ActionSpec,
    Effect,
    Place,
    Remove,
    Take,
    check_effects,
    check_options,
    remember,
    spec_problem,
)
from cinco.core.engine.board import SPACES
from cinco.core.engine.commands import (
    DRAW,
    EXCHANGE,
    PLAY,
    Act,
    Command,
    Draw,
    Exchange,
    PlayCard,
    check_command,
)
from cinco.core.engine.config import GameConfig
from cinco.core.engine.errors import (
    ActionNotAllowed,
    ActionRefused,
    CannotPlace,
    CardNotInHand,
    EmptyHand,
    EventError,
    GameOver,
    HandFull,
    HandFullPlay,
    HandNotFull,
    MalformedCommand,
    NoSuchSpace,
    NotYourTurn,
    PluginError,
    SpaceBelowCard,
    SpaceRequired,
    SpaceTaken,
)
from cinco.core.engine.events import (
    ActionTaken,
    CardDrawn,
    CardPlayed,
    DeckShuffled,
    Event,
    GameEnded,
    GameStarted,
    HandDiscarded,
    TokenRemoved,
    TurnEnded,
)
from cinco.core.engine.faults import user_interrupt
from cinco.core.engine.legal import LegalActions
from cinco.core.engine.outcome import Outcome
from cinco.core.engine.params import GameParams
from cinco.core.engine.rule_hooks import (
    STANDARD_RULES,
    check_allowed,
    check_outcome,
    check_spaces,
    first_result,
    owner_name,
    rule_hook_error,
    rule_wrappers,
    wrapper_refusal,
)
from cinco.core.engine.state import GameState, evolve
from cinco.core.hooks import hookspecs
from cinco.core.words.i18n import _

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence


class Rules(Protocol):
    """What deciding asks of a game's rules: a :class:`RuleSet`, or a bot's read-only
    :class:`~cinco.core.engine.oracle.RulesOracle`."""

    @property
    def owners(self) -> tuple[str, ...]: ...

    def legal_spaces(self, state: GameState, seat: int, card: int) -> tuple[int, ...]: ...

    def outcome(self, state: GameState, command: Command) -> Outcome | None: ...

    def allowed(self, state: GameState, seat: int, action: str) -> bool | str: ...

    def actions(self, state: GameState, seat: int) -> tuple[bool, bool]: ...

    @property
    def declared(self) -> tuple[ActionSpec, ...]: ...

    def declared_action(self, name: str) -> ActionSpec | None: ...

    def declared_by(self, name: str) -> str: ...

    def action_options(
        self, state: GameState, seat: int, spec: ActionSpec
    ) -> tuple[tuple[int, ...], ...]: ...

    def action_effects(
        self, state: GameState, seat: int, spec: ActionSpec, values: tuple[int, ...]
    ) -> tuple[Effect, ...]: ...


class CompiledRules:
    """The answers of a game's rule hooks, from their compiled chains (:func:`first_result`):
    shared by the :class:`RuleSet` and a bot's read-only
    :class:`~cinco.core.engine.oracle.RulesOracle`."""

    __slots__ = (
        "_action_allowed",
        "_declared",
        "_declared_by",
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
    #: The actions the variants declare (hook API 3), and the plugin declaring each (by name).
    _declared: tuple[ActionSpec, ...]
    _declared_by: dict[str, str]

    @property
    def declared(self) -> tuple[ActionSpec, ...]:
        """The actions this game's variants declare (``cinco_declare_actions``, hook API 3),
        in the order of the variants: empty in a game without any."""
        return self._declared

    def declared_action(self, name: str) -> ActionSpec | None:
        """The declared action called *name*, or ``None``."""
        for spec in self._declared:
            if spec.name == name:
                return spec
        return None

    def declared_by(self, name: str) -> str:
        """The plugin that declares the action *name* (its name in the rule set)."""
        return self._declared_by.get(name, name)

    def action_options(
        self, state: GameState, seat: int, spec: ActionSpec
    ) -> tuple[tuple[int, ...], ...]:
        """Every tuple of field values *seat* may send for the declared action *spec* now (its
        ``options``, checked). A failing one raises :class:`RuleHookError` naming its plugin."""
        try:
            return check_options(spec, spec.options(state, seat))
        except BaseException as exc:
            if user_interrupt(exc):  # the user's Ctrl-C; anything else: the plugin's
                raise
            raise rule_hook_error(self.declared_by(spec.name), f"{spec.name}.options", exc) from exc

    def action_effects(
        self, state: GameState, seat: int, spec: ActionSpec, values: tuple[int, ...]
    ) -> tuple[Effect, ...]:
        """What the declared action *spec* with *values* does (its ``effects``, checked)."""
        try:
            return check_effects(
                spec.effects(state, seat, dict(zip(spec.fields, values, strict=True)))
            )
        except BaseException as exc:
            if user_interrupt(exc):  # the user's Ctrl-C; anything else: the plugin's
                raise
            raise rule_hook_error(self.declared_by(spec.name), f"{spec.name}.effects", exc) from exc

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
            raise PluginError(wrapper_refusal(label, wrapped[0]))
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
        self._declare_actions()

    def _declare_actions(self) -> None:
        """Ask the variants for their actions (``cinco_declare_actions``), once, in the order
        they were registered; a declaration that fails its checks is refused naming the
        plugin."""
        impls = {
            impl.plugin_name: impl for impl in self.pm.hook.cinco_declare_actions.get_hookimpls()
        }
        declared: list[ActionSpec] = []
        by: dict[str, str] = {}
        for name, _plugin in self.pm.list_name_plugin():
            impl = impls.get(name)
            if impl is None:
                continue
            try:
                answer = impl.function()
                specs = list(answer) if isinstance(answer, list | tuple) else None
                if specs is None:
                    raise TypeError(f"returned {answer!r}, not a list of ActionSpec")
                for spec in specs:
                    problem = spec_problem(spec)
                    if problem is None and spec.name in by:
                        problem = f"the action {spec.name!r} is declared twice"
                    if problem is not None:
                        raise ValueError(problem)
                    declared.append(spec)
                    by[spec.name] = name
                    remember(spec)
            except BaseException as exc:
                if user_interrupt(exc):
                    raise
                raise rule_hook_error(name, "cinco_declare_actions", exc) from exc
        self._declared = tuple(declared)
        self._declared_by = by


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


def _act_values(rules: Rules, command: Act) -> tuple[ActionSpec, tuple[int, ...]]:
    """The declared action *command* names and its field values in the declared order, or a
    :class:`MalformedCommand` saying what is wrong."""
    spec = rules.declared_action(command.action)
    if spec is None:
        names = ", ".join(spec.name for spec in rules.declared) or "-"
        raise MalformedCommand(
            problem=_("this game has no action {action!r} (its own actions: {names})").format(
                action=command.action, names=names
            )
        )
    given = dict(command.values)
    if len(given) != len(command.values) or set(given) != set(spec.fields):
        raise MalformedCommand(
            problem=_("{action} takes the fields {fields}, not {given}").format(
                action=spec.name,
                fields=", ".join(spec.fields) or "-",
                given=", ".join(name for name, _value in command.values) or "-",
            )
        )
    return spec, tuple(given[field] for field in spec.fields)


def _act(
    steps: list[Step], state: GameState, rules: Rules, command: Act, legal: LegalActions | None
) -> tuple[GameState, str]:
    """A declared action (hook API 3): checked against its ``options``, then its
    ``action_taken`` event and its effects' events. Returns the state after them and the
    action's name."""
    seat = command.seat
    spec, values = _act_values(rules, command)
    named = Act(seat, spec.name, tuple(zip(spec.fields, values, strict=True)))
    checked = legal is not None and legal.seat == seat and named in legal
    if not checked and values not in rules.action_options(state, seat, spec):
        fields = ", ".join(
            f"{name} {value}" for name, value in zip(spec.fields, values, strict=True)
        )
        raise ActionRefused(
            _("That {action} is not allowed now ({fields}).").format(
                action=spec.name, fields=fields or "-"
            )
        )
    effects = rules.action_effects(state, seat, spec, values)
    after = _apply(steps, state, ActionTaken(seat, spec.name, values))
    try:
        for effect in effects:
            after = _effect(steps, after, seat, effect)
    except EventError as exc:  # an effect that cannot happen: the variant's fault
        raise rule_hook_error(rules.declared_by(spec.name), f"{spec.name}.effects", exc) from exc
    return after, spec.name


def _effect(steps: list[Step], state: GameState, seat: int, effect: Effect) -> GameState:
    """The events of one effect of a declared action, applied to *state*."""
    if isinstance(effect, Place):
        return _apply(steps, state, CardPlayed(seat, effect.card, effect.space))
    if isinstance(effect, Remove):
        return _apply(steps, state, TokenRemoved(seat, effect.space))
    assert isinstance(effect, Take)
    room = state.config.params.hand_limit - len(state.hands[seat])
    count = min(effect.count, room)
    if count > 0 and not state.draw_pile and not state.discard_pile:
        raise EventError(_("a card must be drawn, but both piles are empty"))
    return _draw(steps, state, seat, max(0, count))


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
    elif isinstance(command, Act):
        after, action = _act(steps, state, rules, command, legal)
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
