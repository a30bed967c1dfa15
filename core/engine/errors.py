"""The errors Cinco raises. Every message says what is wrong and what to do instead."""

from __future__ import annotations

from typing import Any

from cinco.core.words.messages import freeze, render, thaw


class CincoError(Exception):
    """Base class of every error Cinco raises on purpose."""


class ConfigError(CincoError, ValueError):
    """A game cannot be set up as asked (bad player count, unknown variant, ...)."""


class IllegalCommand(CincoError):
    """A command was refused by the rules; nothing changed.

    A refusal is data: ``code`` is a stable machine-readable name (for bots, tests and network
    clients) and ``params`` its parameters; :attr:`message` puts them into words
    (:func:`cinco.core.words.messages.render`). ``IllegalCommand("words")`` still works, for plugins
    that raise their own: the words become the ``text`` parameter.

    >>> SpaceTaken(space=34).to_dict()
    {'code': 'space_taken', 'params': {'space': 34}}
    >>> str(SpaceTaken(space=34))
    'Space 34 is already taken.'
    """

    code = "illegal"

    def __init__(self, message: str | None = None, /, **params: Any) -> None:
        if message is not None:
            params = {"text": message, **params}
        self.params: dict[str, Any] = params
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return render(self.code, self.params)

    def to_dict(self) -> dict[str, Any]:
        """The refusal as the seat protocol sends it."""
        return {"code": self.code, "params": thaw(freeze(self.params))}


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


class HandFullPlay(HandFull):
    """A full hand may not draw, and this game does not let it exchange either: play a card."""

    code = "hand_full_play"


class HandNotFull(IllegalCommand):
    code = "hand_not_full"


class EmptyHand(IllegalCommand):
    code = "empty_hand"


class ActionNotAllowed(IllegalCommand):
    """A variant's ``cinco_action_allowed`` hook refused a draw or an exchange: ``action`` and
    the variant's ``reason`` (words for the player)."""

    code = "action_not_allowed"


class ActionRefused(IllegalCommand):
    """A variant's own action (hook API 3) that its ``options`` do not list now: the words
    (``text``) say which."""

    code = "action_refused"


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

    def __init__(self, plugin: str = "", hook: str = "", error: str = "") -> None:
        super().__init__(plugin=plugin, hook=hook, error=error)
        self.plugin = plugin
        self.hook = hook


class TableRefusal(IllegalCommand):
    """The table refused a request (not a seat, undo not allowed, the record failed, ...).
    ``code`` says which; it is set per instance."""

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        super().__init__(**params)


class MalformedCommand(IllegalCommand):
    """A command whose fields are not what a command holds: a seat, card or space that is not
    a whole number (``40.0``, ``False``), or an object that is not a command at all. Refused
    before the rules look at it, so that nothing malformed reaches the log."""

    code = "malformed_command"
