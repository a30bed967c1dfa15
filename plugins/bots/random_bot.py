"""The ``random`` bot: uniform over the legal actions."""

from __future__ import annotations

import random

from cinco.core.engine.commands import Command
from cinco.core.engine.legal import LegalActions
from cinco.core.engine.state import GameState
from cinco.core.hooks.hookspecs import hookimpl
from cinco.core.host.declarations import BotContext, BotSpec
from cinco.core.words.i18n import N_


class RandomBot:
    """Picks any legal action, each with the same chance."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: GameState, legal: LegalActions) -> Command:
        return legal[self.rng.randrange(len(legal))]


@hookimpl
def cinco_register_bots() -> list[BotSpec]:
    return [
        BotSpec(
            "random",
            N_("Plays any legal action at random."),
            create=lambda context: RandomBot(context.seed),
            title=N_("Random"),
        )
    ]


__all__ = ["BotContext", "RandomBot"]
