"""English game terms left in another language's output: the finder the language tests use
on `cinco rules`, every `--help` and a game played in tmux (issue 27)."""

from __future__ import annotations

import re

from cinco.frontends.main import COMMANDS

#: English words of the game (and of click) that must not be left in another language's
#: `cinco rules` and `--help`. Matched as whole words, case-insensitively.
GAME_TERMS = (
    "card",
    "cards",
    "token",
    "tokens",
    "space",
    "spaces",
    "board",
    "player",
    "players",
    "team",
    "teams",
    "draw",
    "exchange",
    "burn",
    "burns",
    "hand",
    "turn",
    "turns",
    "variant",
    "variants",
    "joker",
    "seed",
    "win",
    "wins",
    "rules",
    "game",
    "games",
    "layout",
    "usage",
    "options",
    "commands",
    "command",
    "default",
    "required",
    "integer",
    "range",
    "name",
    "file",
    "directory",
    "seconds",
    "args",
    "the",
    "and",
    "of",
)

#: What is typed, not read: `code`, --options, cinco and its subcommands, choices [a|b],
#: addresses, and the proper names (Cinco, Elo, JSON...).
TYPED = (
    re.compile(r"`[^`]*`"),
    re.compile(r"(?<![\w-])--?[\w-]+(=\S*)?"),
    re.compile(r"\bcinco(\s+(" + "|".join(COMMANDS) + r"))?\b"),
    re.compile(r"\[[^\]]*\|[^\]]*\]"),
    re.compile(r"\w+://\S+"),
    re.compile(r"^ {2}(" + "|".join(COMMANDS) + r")\b", re.M),
    re.compile(r"\b(greedy|random|ismcts|joker|cli|kivy)\b"),  # names typed as they are
)


#: Words of the language itself that are spelt as an English term: Czech "variant" (of the
#: variants), Italian "file".
OWN_WORDS = {"cs": {"variant"}, "it": {"file"}}


def english_terms(text: str, code: str = "") -> list[str]:
    for pattern in TYPED:
        text = pattern.sub(" ", text)
    words = re.findall(r"[A-Za-z]+", text)
    own = OWN_WORDS.get(code, set())
    return sorted({w for w in words if w.lower() in GAME_TERMS and w.lower() not in own})
