"""Messages are data: a code and its parameters. This module turns them into words.

Refusals (:class:`~cinco.core.engine.errors.IllegalCommand`), notices
(:class:`~cinco.core.engine.events.Notice`)
and the table's answers carry a ``code`` and JSON parameters; nothing is formatted when they are
raised or recorded. :func:`render` is the one place that turns a code into a sentence, through
gettext, so that every frontend (and a translation) says the same thing.

>>> render("space_taken", {"space": 34})
'Space 34 is already taken.'
>>> render("hand_full_play", {"limit": 4})
'Your hand is full (4 cards): play a card.'
>>> render("not_a_code", {"x": 1})
'not_a_code (x=1)'
>>> render("bot_replaced", {"bot": "greedy", "name": "Bob", "problem": "illegal"})
'The greedy bot of Bob made an illegal move; a random move was played instead.'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cinco.core.words.i18n import N_, Nn_, _, ngettext
from cinco.core.words.numbers import Local

#: Parameter values a message may carry: JSON scalars, and lists of whole numbers.
Param = str | int | float | bool | None | tuple[int, ...]


#: Every code a refusal, a notice or a table answer may carry, with its English template.
#: A template's ``{names}`` are the message's parameters.
TEMPLATES: dict[str, str] = {
    # -- refusals of a command (the rules) --------------------------------------------------
    "game_over": N_("The game is over."),
    "not_your_turn": N_("It is {to_move_name}'s turn, not {seat_name}'s."),
    "empty_hand": N_("You have no cards: draw one."),
    "card_not_in_hand": N_("You have no {card}. Your hand: {hand}."),
    "cannot_place_burns": N_(
        "No space is free for {card}: the card burns. Play it without a space."
    ),
    "space_required": N_("Choose a space for {card}: any free space from {low} up."),
    "no_such_space": N_("There is no space {space}: spaces are numbered 1 to {spaces}."),
    "space_taken": N_("Space {space} is already taken."),
    "space_below_card": N_("A {card} goes on {card} or higher, not on {space}."),
    "cannot_place": N_("{card} cannot go on {space} in this game."),
    "action_not_allowed": N_("You cannot {action} in this game: {reason}."),
    "malformed_command": N_("That is not a command this game understands: {problem}."),
    "plugin_failed": N_(
        "The {plugin} failed in {hook} ({error}). The move was refused and the game is "
        "unchanged: save it, then upgrade or uninstall that plugin."
    ),
    # -- refusals of the table --------------------------------------------------------------
    "not_seated": N_("Only a player at the table can do that; you are watching."),
    "busy": N_(
        "A command was sent from inside a hook or a subscriber while the table was still "
        "storing the last one; it was refused. Send it after the hook returns."
    ),
    "record_failed": N_(
        "The move could not be stored ({error}), so it was not played: nothing has changed. "
        "Try again in a moment."
    ),
    "record_stopped": N_(
        "The game record could not be written ({error}). The game is stopped so that nothing "
        "is played unrecorded; save it somewhere else."
    ),
    "table_closed": N_("This table is closed."),
    "wrong_seat": N_("You play seat {seat}; that command is for seat {other}."),
    "no_bot_to_move": N_("No bot is to move."),
    "no_hint_now": N_("A hint is given only on your own turn."),
    "no_hint_bot": N_("No hint: none of the hint bots ({bots}) could answer."),
    "nothing_to_undo": N_("There is nothing to undo yet."),
    "undo_showed_cards": N_(
        "Your last action showed you new cards ({action}), so it cannot be taken back."
    ),
    "undo_other_moved": N_(
        "{name} has moved since your last turn: undo would take that back too, so it is not "
        "allowed."
    ),
    "undo_not_allowed": N_("This table does not allow undo."),
    "undo_game_over": N_("The game is over: its moves can no longer be taken back."),
    "undo_card_seen": N_(
        "{name} has played a card since your move: undo would put a card you have seen back "
        "into their hand, so it is not allowed."
    ),
    "undo_seen_by_others": N_(
        "{name} has seen the card you played: undo would show them a card in your hand, so it "
        "is not allowed."
    ),
    "undo_stand_in": N_("Your last move was played for you by a bot; it cannot be taken back."),
    # -- notices ----------------------------------------------------------------------------
    "bot_replaced": N_("The {bot} bot of {name} made {problem}; a random move was played instead."),
    "bot_replaced_move": N_("It tried: {move}."),
    "bot_replaced_error": N_("It raised {error}."),
    "plugin_switched_off": N_(
        "Plugin {plugin} failed in {hook} ({error}); it is switched off for this game."
    ),
    "subscriber_failed": N_(
        "A watcher of this game failed ({error}); it was switched off. The game goes on."
    ),
    "plugin_conflict": N_(
        "Two plugins add the {kind} {name!r}: using the one from {used}, ignoring {others}."
    ),
    "undone": N_("{name} took back their last move."),
    "stand_in": N_("{name} is away: the {bot} bot plays for them until they come back."),
    "stand_in_ended": N_("{name} is back and plays again."),
    "played_for": N_("{name} ran out of time: the {bot} bot played this turn for them."),
    # -- a seat's connection (the server's ``presence`` messages, not events) ----------------
    "seat_away": N_(
        "{name} is not connected: the {bot} bot plays for them in {seconds} s unless they connect."
    ),
    "seat_back": N_("{name} is connected again."),
    "seat_stand_in": N_("{name} has not come back: the {bot} bot plays for them."),
    # -- what a bot's bad answer was (a parameter of bot_replaced) ---------------------------
    "problem_illegal": N_("an illegal move"),
    "problem_late": N_("a move too late ({elapsed:.2f} s, over its budget of {budget:g} s)"),
    "problem_error": N_("an error"),
}

#: The codes whose sentence holds a count: (singular, plural, the parameter counted), so that
#: each language takes its own plural form (1 card, 2 cards; 1 карта, 2 карти, 5 карт).
COUNTED: dict[str, tuple[str, str, str]] = {
    "hand_full": (
        *Nn_(
            "Your hand is full ({limit} card): play a card or exchange your hand.",
            "Your hand is full ({limit} cards): play a card or exchange your hand.",
        ),
        "limit",
    ),
    "hand_full_play": (
        *Nn_(
            "Your hand is full ({limit} card): play a card.",
            "Your hand is full ({limit} cards): play a card.",
        ),
        "limit",
    ),
    "hand_not_full": (
        *Nn_(
            "Only a full hand of {limit} card can be exchanged; you hold {held}. Play or draw.",
            "Only a full hand of {limit} cards can be exchanged; you hold {held}. Play or draw.",
        ),
        "limit",
    ),
}
TEMPLATES.update({code: plural for code, (_one, plural, _count) in COUNTED.items()})


#: Sentences for a message whose ``action`` parameter is a draw or an exchange: the action in
#: the sentence's own words (a translator cannot put the code ``draw`` into words alone).
BY_ACTION: dict[str, dict[str, str]] = {
    "action_not_allowed": {
        "draw": N_("You cannot draw a card in this game: {reason}."),
        "exchange": N_("You cannot exchange your hand in this game: {reason}."),
    },
    "undo_showed_cards": {
        "draw": N_("Your last draw showed you a new card, so it cannot be taken back."),
        "exchange": N_("Your last exchange showed you new cards, so it cannot be taken back."),
    },
}

#: How games end (the ``reason`` of ``game_ended``), for reports that count them.
END_REASONS = {
    "line": N_("five in a row"),
    "stalemate": N_("stalemate (E2)"),
    "board_full": N_("board full (E3)"),
    "turn_limit": N_("turn limit (E4)"),
}


#: The words variants declared for their own reasons (``Variant.end_reasons``): code → msgid
#: (a plugin's :class:`~cinco.core.words.domains.DomainText`, translated by its catalog).
_DECLARED_REASONS: dict[str, str] = {}


def declare_end_reasons(words: Mapping[str, str]) -> None:
    """Remember a variant's words for its end reasons (a ``Variant`` declares them as it is
    made); the standard reasons keep their own words."""
    for reason, msgid in words.items():
        if reason not in END_REASONS:
            _DECLARED_REASONS[reason] = msgid


def end_reason(reason: str) -> str:
    """Words for how a game ended; a reason no one declared words for is shown as it is.

    >>> declare_end_reasons({"scored": N_("the most points")})
    >>> end_reason("board_full"), end_reason("scored"), end_reason("odd")
    ('board full (E3)', 'the most points', 'odd')
    """
    if reason in END_REASONS:
        return _(END_REASONS[reason])
    declared = _DECLARED_REASONS.get(reason)
    return _(declared) if declared is not None else reason


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
    action = params.get("action")
    if isinstance(action, str) and action in BY_ACTION.get(code, {}):
        template = BY_ACTION[code][action]
    if code == "cannot_place" and params.get("burns"):
        template = TEMPLATES["cannot_place_burns"]
    if code == "bot_replaced" and isinstance(params.get("problem"), str):
        problem = params["problem"]
        params["problem"] = render(f"problem_{problem}", params)
    if isinstance(params.get("hand"), tuple | list):
        params["hand"] = ", ".join(map(str, sorted(params["hand"])))
    counted = COUNTED.get(code)
    count = params.get(counted[2]) if counted else None
    if counted and isinstance(count, int):
        translated = ngettext(counted[0], counted[1], count)
    else:
        translated = _(template)
    # Fractional numbers (a bot's time) as the language writes them; whole ones (spaces,
    # cards, seconds left) read the same everywhere.
    for key, value in params.items():
        if isinstance(value, float):
            params[key] = Local(value)
    try:
        return translated.format(**params)
    except (KeyError, IndexError, ValueError):  # a translation or caller lacking a parameter
        return translated


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
