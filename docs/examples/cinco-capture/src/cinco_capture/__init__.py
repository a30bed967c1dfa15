"""Capture: a Cinco variant in which a low card may replace an opponent's token.

A card of 1 to :data:`CAPTURE_MAX` may, instead of being played as usual, be played onto a
space an opponent's token holds, numbered at least the card: that token goes back to its team
and one of the player's own takes its place. A capture that completes a line of five wins, as
any placement does (E1).

The variant adds an action of its own through the ``cinco_declare_actions`` hook (hook API 3):
its name, its command's fields, when it is legal, what it does, and how players see it. The
engine lists it among the legal actions (so every bot can choose it and both frontends offer
it), checks it, records it, and replays it.

Its words (the variant's title, description and rules, the action's title, narration, usage
and description) are in its own gettext domain, ``cinco_capture``: the catalogs in
``locale/`` (Ukrainian, Russian, Czech, Italian) are shipped with the package, and Cinco shows
each text in the player's language (``cinco --lang cs rules --variant capture``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from cinco import ActionSpec, Effect, GameState, Place, Remove, Variant, hookimpl
from cinco.core.words.domains import TextDomain

__version__ = "1.0.0"

#: The Cinco hook API this plugin is written for (cinco_declare_actions is new in API 3).
CINCO_HOOK_API = 3

#: The highest card that captures.
CAPTURE_MAX = 5

#: The plugin's own words: its gettext domain and the folder of its compiled catalogs.
words = TextDomain("cinco_capture", Path(__file__).parent / "locale")


def options(state: GameState, seat: int) -> list[tuple[int, int]]:
    """Every (card, space) *seat* may capture with now: a card of 1 to CAPTURE_MAX in hand,
    a space numbered at least the card that another team's token holds. *state* may be the
    seat's own view: only its own hand and the board are read."""
    team = state.team_of(seat)
    cards = sorted({card for card in state.hands[seat] if 1 <= card <= CAPTURE_MAX})
    return [
        (card, space)
        for card in cards
        for space in range(card, 91)
        if state.owner(space) is not None and state.owner(space) != team
    ]


def effects(state: GameState, seat: int, values: Mapping[str, int]) -> list[Effect]:
    """The opponent's token comes off, then the card is played onto the freed space."""
    return [Remove(values["space"]), Place(values["card"], values["space"])]


CAPTURE = ActionSpec(
    "capture",
    ("card", "space"),
    options=options,
    effects=effects,
    # TRANSLATORS: the action's button and its name in the terminal's help, and the variant's
    # name (the rules' heading, the lists of variants): one word for both.
    title=words.N_("Capture"),
    # TRANSLATORS: the move log, in the present tense. {name} is a player's name, or "You"
    # (translated) for the player reading: a verb agreeing with it cannot fit both, so the
    # card may be the subject ("{name}: karta {card} bere {space}").
    narration=words.N_("{name} captured {space} with a {card}"),
    key="c",
    # TRANSLATORS: the terminal's help: what is typed after the key c (capitals, no spaces
    # inside one placeholder).
    usage=words.N_("CARD SPACE"),
    # TRANSLATORS: what the action does, in the terminal's help and the button's tooltip.
    description=words.N_(
        "Play a card of 1 to 5 onto an opponent's token at or above it, replacing it."
    ),
)


class CaptureRules:
    """Rule hooks of a game played with captures: one declared action, nothing else."""

    @hookimpl
    def cinco_declare_actions(self) -> list[ActionSpec]:
        return [CAPTURE]


@hookimpl
def cinco_register_variants() -> list[Variant]:
    return [
        Variant(
            "capture",
            words.N_("Capture: a card of 1 to 5 may replace an opponent's token at or above it."),
            rules=CaptureRules(),
            rules_text=words.N_(
                "**Capture.** Instead of playing a card as usual, a card of 1 to 5 may be "
                "played onto a space an opponent's token holds, numbered at least the card: "
                "that token goes back to its team and yours takes its place "
                "(`c CARD SPACE` in the terminal)."
            ),
            title=words.N_("Capture"),
        )
    ]
