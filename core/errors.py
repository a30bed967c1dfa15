"""The errors Cinco raises. Every message says what is wrong and what to do instead."""

from __future__ import annotations


class CincoError(Exception):
    """Base class of every error Cinco raises on purpose."""


class ConfigError(CincoError, ValueError):
    """A game cannot be set up as asked (bad player count, unknown variant, ...)."""


class IllegalCommand(CincoError):
    """A command was refused by the rules; nothing changed.

    ``code`` is a stable machine-readable name (for bots, tests and network clients); the
    message is for people.
    """

    code = "illegal"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class GameOver(IllegalCommand):
    code = "game_over"


class NotYourTurn(IllegalCommand):
    code = "not_your_turn"


class CardNotInHand(IllegalCommand):
    code = "card_not_in_hand"


class NoSuchSpace(IllegalCommand):
    code = "no_such_space"


class SpaceTaken(IllegalCommand):
    code = "space_taken"


class SpaceBelowCard(IllegalCommand):
    code = "space_below_card"


class SpaceRequired(IllegalCommand):
    code = "space_required"


class CannotPlace(IllegalCommand):
    code = "cannot_place"


class HandFull(IllegalCommand):
    code = "hand_full"


class HandNotFull(IllegalCommand):
    code = "hand_not_full"


class EmptyHand(IllegalCommand):
    code = "empty_hand"


class EventError(CincoError, ValueError):
    """An event (from a record or a network peer) is malformed or does not fit the game."""


class RecordError(CincoError):
    """A game record cannot be read. ``line`` is the 1-based line number, when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        where = f"line {line}: " if line is not None else ""
        super().__init__(where + message)
        self.line = line
        self.reason = message


class PluginError(CincoError):
    """A plugin failed or clashes with another; the message names the plugin."""


class RuleHookError(IllegalCommand, PluginError):
    """A plugin's rule hook (``cinco_legal_spaces``, ``cinco_game_end``) raised an exception.

    The command is refused and nothing changed, like any illegal command: the game's log stays
    intact and it can be saved. ``plugin`` and ``hook`` say who failed where.
    """

    code = "plugin_failed"

    def __init__(self, message: str, plugin: str = "", hook: str = "") -> None:
        super().__init__(message)
        self.plugin = plugin
        self.hook = hook
