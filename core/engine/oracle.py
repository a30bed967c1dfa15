"""A bot's rules oracle: the questions a bot may ask of its game's rules, and nothing else.

A bot looks ahead: where could this card go, would this play end the game? It asks a
:class:`RulesOracle`. The oracle answers about any state the bot hands it (its own view, or a
guess at the hidden cards); it holds no state of its own, cannot register hooks, and leads to no
plugin manager, record writer or referee state.

>>> from cinco.core.engine.config import GameConfig
>>> from cinco.core.game.game import Game
>>> game = Game.new(GameConfig.for_players(2, seed=5, first_seat=0))
>>> oracle = RulesOracle.of(game.rules)
>>> oracle.legal_spaces(game.view(0), 0, 88)
(88, 89, 90)
>>> oracle
RulesOracle(owners=('cinco.core.engine.standard_rules',))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cinco.core.engine.legal import LegalActions, legal_actions
from cinco.core.engine.rules import CompiledRules, decide

if TYPE_CHECKING:
    from cinco.core.engine.commands import Command
    from cinco.core.engine.events import Event
    from cinco.core.engine.rules import RuleSet
    from cinco.core.engine.state import GameState


class RulesOracle(CompiledRules):
    """Read-only answers from one game's rules (standard rules plus its variants)."""

    __slots__ = ()

    @classmethod
    def of(cls, rules: RuleSet) -> RulesOracle:
        """The oracle of *rules*: its compiled hook chains, without the rule set itself."""
        oracle = cls()
        oracle._legal_spaces = rules._legal_spaces
        oracle._game_end = rules._game_end
        oracle._action_allowed = rules._action_allowed
        oracle._standard_actions = rules._standard_actions
        oracle._owners = rules.owners
        oracle._hook_owners = rules._hook_owners
        oracle._declared = rules._declared
        oracle._declared_by = rules._declared_by
        return oracle

    def legal_actions(self, state: GameState, seat: int | None = None) -> LegalActions:
        """Everything *seat* (default: the seat to move) may do in *state*."""
        return legal_actions(state, self, seat)

    def decide(self, state: GameState, command: Command) -> tuple[Event, ...]:
        """The events *command* would make in *state*, or an ``IllegalCommand``."""
        return decide(state, command, self)

    def __repr__(self) -> str:
        return f"RulesOracle(owners={self._owners!r})"
