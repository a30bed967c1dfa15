"""The hooks plugins implement. Every built-in variant, layout, bot and logger uses only these.

Hooks come in three groups:

*Registration* hooks are called once on the :class:`~cinco.core.registry.Registry` to learn
what a plugin adds: layouts, variants and bots.

*Rule* hooks are called on a game's own plugin manager, which holds the standard rules
(:mod:`cinco.core.standard_rules`, registered last-resort with ``trylast``) and the ``rules``
object of every variant the game enables. A variant's implementation is called before the
standard one; returning ``None`` defers to the next.

*Lifecycle* hooks tell subscribers what happens: both installed plugins and a game's own
plugins (for example a record writer) receive them. They see the **referee's** stream; a plugin
that shows anything to a person must project it with :meth:`cinco.core.events.Event.seen_by`.

Write an implementation with :data:`hookimpl`::

    from cinco import hookimpl

    @hookimpl
    def cinco_register_variants():
        return [Variant("lucky7", "The 7 is wild.", rules=LuckySeven())]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from .commands import Command
    from .config import Layout
    from .events import Event
    from .game import Game
    from .registry import BotSpec, Variant
    from .rules import Outcome
    from .state import GameState

PROJECT = "cinco"
#: Version of the hook API described here. Plugins may declare the version they target.
HOOK_API_VERSION = 1

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# -- registration -----------------------------------------------------------------------------


@hookspec
def cinco_register_layouts() -> list[Layout]:
    """Return the team/seat layouts this plugin adds (P2).

    Called once per registry; every result is collected. A layout's name is ``TxS``: *T* teams
    of *S* players, for example ``Layout("2x3", players=6, teams=2)``.
    """


@hookspec
def cinco_register_variants() -> list[Variant]:
    """Return the rule variants this plugin adds.

    Called once per registry; every result is collected. A :class:`~cinco.core.registry.Variant`
    carries a ``rules`` object whose rule hooks are registered only in games that enable it.
    """


@hookspec
def cinco_register_bots() -> list[BotSpec]:
    """Return the bots this plugin adds.

    Called once per registry; every result is collected. A
    :class:`~cinco.core.registry.BotSpec` names the bot and how to create one for a seat.
    """


# -- rules ------------------------------------------------------------------------------------


@hookspec(firstresult=True)
def cinco_legal_spaces(state: GameState, seat: int, card: int) -> tuple[int, ...] | None:
    """Return the spaces on which *seat* may place a token by playing *card*.

    The first non-``None`` result wins. An empty tuple means the card burns (A2). The standard
    rule (A1): every free space numbered *card* or higher. Called only when *card* is in the
    player's hand and it is their turn.
    """


@hookspec(firstresult=True)
def cinco_game_end(state: GameState, command: Command) -> Outcome | None:
    """Decide whether the game ends after *command*; *state* already includes its effects.

    The first non-``None`` result wins. Return an :class:`~cinco.core.rules.Outcome` to end the
    game, :data:`~cinco.core.rules.ONGOING` to say it goes on (overruling the standard rules),
    or ``None`` to defer. The standard rules are E1–E4.
    """


# -- lifecycle --------------------------------------------------------------------------------


@hookspec
def cinco_game_started(game: Game) -> None:
    """A game was created (new, or rebuilt from a record) and its first events are stored."""


@hookspec
def cinco_event(game: Game, event: Event) -> None:
    """*event* was appended to *game*'s log (the referee's event: project before showing it)."""


@hookspec
def cinco_game_ended(game: Game) -> None:
    """*game* is over; ``game.state.result`` says how."""
