"""The rule hooks' answers, checked: a game's rules call the hooks ``cinco_legal_spaces``,
``cinco_game_end`` and ``cinco_action_allowed`` through :func:`first_result`, which names the
plugin whose answer is wrong (or which raised) instead of letting it into the game.

>>> check_allowed((), "only on Sundays"), check_allowed((), False)
('only on Sundays', False)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pluggy

from cinco.core.engine.board import SPACES
from cinco.core.engine.errors import PluginError, RuleHookError
from cinco.core.engine.faults import user_interrupt
from cinco.core.engine.outcome import ONGOING, Outcome
from cinco.core.hooks import hookspecs
from cinco.core.words.i18n import _

if TYPE_CHECKING:
    from collections.abc import Sequence

    from cinco.core.engine.state import GameState


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
        raise PluginError(wrapper_refusal(wrapped[0], hook.name))
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


def wrapper_refusal(plugin: str, hook: str) -> str:
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


def owner_name(plugin: object) -> str:
    """A rule plugin's qualified name: its module's, or its class's (``pkg.mod.Class``)."""
    if isinstance(plugin, type(pluggy)):
        return plugin.__name__
    cls = type(plugin)
    return f"{cls.__module__}.{cls.__qualname__}"
