"""Capture: a Cinco variant in which a low card may replace an opponent's token.

A card of 1 to :data:`CAPTURE_MAX` may, instead of being played as usual, be played onto a
space an opponent's token holds, numbered at least the card: that token goes back to its team
and one of the player's own takes its place. A capture that completes a line of five wins, as
any placement does (E1).

The variant adds an action of its own through the ``cinco_declare_actions`` hook (hook API 3):
its name, its command's fields, when it is legal, what it does, and how players see it. The
engine lists it among the legal actions (so every bot can choose it and both frontends offer
it), checks it, records it, and replays it.
"""

from __future__ import annotations

from collections.abc import Mapping

from cinco import ActionSpec, Effect, GameState, Place, Remove, Variant, hookimpl

__version__ = "1.0.0"

#: The Cinco hook API this plugin is written for (cinco_declare_actions is new in API 3).
CINCO_HOOK_API = 3

#: The highest card that captures.
CAPTURE_MAX = 5


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
    title="Capture",
    narration="{name} captured {space} with a {card}",
    key="c",
    usage="CARD SPACE",
    description="Play a card of 1 to 5 onto an opponent's token at or above it, replacing it.",
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
            "Capture: a card of 1 to 5 may replace an opponent's token at or above it.",
            rules=CaptureRules(),
            rules_text=(
                "**Capture.** Instead of playing a card as usual, a card of 1 to 5 may be "
                "played onto a space an opponent's token holds, numbered at least the card: "
                "that token goes back to its team and yours takes its place "
                "(`c CARD SPACE` in the terminal)."
            ),
        )
    ]
