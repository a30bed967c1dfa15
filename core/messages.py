"""Messages are data: a code and its parameters. This module turns them into words.

Refusals (:class:`~cinco.core.errors.IllegalCommand`), notices (:class:`~cinco.core.events.Notice`)
and the table's answers carry a ``code`` and JSON parameters; nothing is formatted when they are
raised or recorded. :func:`render` is the one place that turns a code into a sentence, through
gettext, so that every frontend (and a translation) says the same thing.

>>> render("space_taken", {"space": 34})
'Space 34 is already taken.'
>>> render("not_a_code", {"x": 1})
'not_a_code (x=1)'
>>> render("bot_replaced", {"bot": "greedy", "name": "Bob", "problem": "illegal"})
'The greedy bot of Bob made an illegal move; a random move was played instead.'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .i18n import _

#: Parameter values a message may carry: JSON scalars, and lists of whole numbers.
Param = str | int | float | bool | None | tuple[int, ...]


def _n_(message: str) -> str:
    """Mark *message* for translation without translating it yet (gettext's ``N_``)."""
    return message


#: Every code a refusal, a notice or a table answer may carry, with its English template.
#: A template's ``{names}`` are the message's parameters.
TEMPLATES: dict[str, str] = {
    # -- refusals of a command (the rules) --------------------------------------------------
    "game_over": _n_("The game is over."),
    "not_your_turn": _n_("It is {to_move_name}'s turn, not {seat_name}'s."),
    "empty_hand": _n_("You have no cards: draw one."),
    "card_not_in_hand": _n_("You have no {card}. Your hand: {hand}."),
    "cannot_place_burns": _n_(
        "No space is free for {card}: the card burns. Play it without a space."
    ),
    "space_required": _n_("Choose a space for {card}: any free space from {low} up."),
    "no_such_space": _n_("There is no space {space}: spaces are numbered 1 to {spaces}."),
    "space_taken": _n_("Space {space} is already taken."),
    "space_below_card": _n_("A {card} goes on {card} or higher, not on {space}."),
    "cannot_place": _n_("{card} cannot go on {space} in this game."),
    "hand_full": _n_("Your hand is full ({limit} cards): play a card or exchange your hand."),
    "hand_full_play": _n_("Your hand is full ({limit} cards): play a card."),
    "hand_not_full": _n_(
        "Only a full hand of {limit} can be exchanged; you hold {held}. Play or draw."
    ),
    "action_not_allowed": _n_("You cannot {action} in this game: {reason}."),
    "malformed_command": _n_("That is not a command this game understands: {problem}."),
    "plugin_failed": _n_(
        "The {plugin} failed in {hook} ({error}). The move was refused and the game is "
        "unchanged: save it, then upgrade or uninstall that plugin."
    ),
    # -- refusals of the table --------------------------------------------------------------
    "not_seated": _n_("Only a player at the table can do that; you are watching."),
    "busy": _n_(
        "A command was sent from inside a hook or a subscriber while the table was still "
        "storing the last one; it was refused. Send it after the hook returns."
    ),
    "record_failed": _n_(
        "The game record could not be written ({error}). The game is stopped so that nothing "
        "is played unrecorded; save it somewhere else."
    ),
    "table_closed": _n_("This table is closed."),
    "wrong_seat": _n_("You play seat {seat}; that command is for seat {other}."),
    "no_bot_to_move": _n_("No bot is to move."),
    "no_hint_now": _n_("A hint is given only on your own turn."),
    "no_hint_bot": _n_("No hint: none of the hint bots ({bots}) could answer."),
    "nothing_to_undo": _n_("There is nothing to undo yet."),
    "undo_showed_cards": _n_(
        "Your last action showed you new cards ({action}), so it cannot be taken back."
    ),
    "undo_other_moved": _n_(
        "{name} has moved since your last turn: undo would take that back too, so it is not "
        "allowed."
    ),
    "undo_not_allowed": _n_("This table does not allow undo."),
    # -- notices ----------------------------------------------------------------------------
    "bot_replaced": _n_(
        "The {bot} bot of {name} made {problem}; a random move was played instead."
    ),
    "bot_replaced_move": _n_("It tried: {move}."),
    "bot_replaced_error": _n_("It raised {error}."),
    "plugin_switched_off": _n_(
        "Plugin {plugin} failed in {hook} ({error}); it is switched off for this game."
    ),
    "subscriber_failed": _n_(
        "A watcher of this game failed ({error}); it was switched off. The game goes on."
    ),
    "plugin_conflict": _n_(
        "Two plugins add the {kind} {name!r}: using the one from {used}, ignoring {others}."
    ),
    "undone": _n_("{name} took back their last move."),
    # -- what a bot's bad answer was (a parameter of bot_replaced) ---------------------------
    "problem_illegal": _n_("an illegal move"),
    "problem_late": _n_("a move too late ({elapsed:.2f} s, over its budget of {budget:g} s)"),
    "problem_error": _n_("an error"),
}

#: Old records carry a notice's words, not a code: they are shown as they are.
TEXT = "text"


def render(code: str, params: Mapping[str, Any] | None = None) -> str:
    """The sentence for message *code* with *params*, in the user's language.

    An unknown code (a newer plugin's, say) still says something useful: the code and its
    parameters. A message with a ``text`` parameter and no template of its own (a notice read
    from an old record) is its text.
    """
    params = dict(params or {})
    template = TEMPLATES.get(code)
    if template is None:
        text = params.get(TEXT)
        if isinstance(text, str):
            return text
        shown = ", ".join(f"{key}={value}" for key, value in sorted(params.items()))
        return f"{code} ({shown})" if shown else code
    if code == "cannot_place" and params.get("burns"):
        template = TEMPLATES["cannot_place_burns"]
    if code == "bot_replaced" and isinstance(params.get("problem"), str):
        problem = params["problem"]
        params["problem"] = render(f"problem_{problem}", params)
    if isinstance(params.get("hand"), tuple | list):
        params["hand"] = ", ".join(map(str, sorted(params["hand"])))
    try:
        return _(template).format(**params)
    except (KeyError, IndexError, ValueError):  # a translation or caller lacking a parameter
        return _(template)


def freeze(params: Mapping[str, Any] | None) -> tuple[tuple[str, Param], ...]:
    """*params* as an immutable, ordered value: what events and refusals hold.

    Values are JSON scalars and lists of whole numbers; anything else (a nested object, a
    set, a list of text) is kept as its text, so that a message stays immutable and JSON.

    >>> freeze({"b": [1, 2], "a": "x", "c": {"d": 1}})
    (('a', 'x'), ('b', (1, 2)), ('c', "{'d': 1}"))
    """
    if not params:
        return ()
    frozen: list[tuple[str, Param]] = []
    for key, value in sorted(params.items(), key=lambda item: str(item[0])):
        if isinstance(value, list | tuple) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            value = tuple(value)
        elif not (value is None or isinstance(value, str | int | float | bool)):
            value = str(value)
        frozen.append((str(key), value))
    return tuple(frozen)


def thaw(params: tuple[tuple[str, Param], ...] | None) -> dict[str, Any]:
    """The JSON form of frozen *params* (lists for tuples)."""
    return {key: list(value) if isinstance(value, tuple) else value for key, value in params or ()}
