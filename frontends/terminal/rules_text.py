"""The rules of Cinco in a page, for ``cinco rules`` (full reference: docs/rules-reference.md)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.markdown import Markdown

from cinco.core.engine.errors import CincoError
from cinco.core.host.registry import Registry, default_registry
from cinco.core.words.i18n import N_, _
from cinco.frontends.terminal.screen import Screen

#: The rules, one translatable unit per paragraph (a heading, a list, a paragraph): a
#: translator works paragraph by paragraph, and a change to one asks for one new translation.
RULES_PARAGRAPHS: tuple[str, ...] = (
    N_("# Cinco"),
    N_(
        "Five in a row on a hexagonal board of **90 numbered spaces** around an empty centre.\n"
        "The numbers wind ring by ring outwards, so neighbouring numbers are neighbouring spaces."
    ),
    N_("Clause by clause: see [rules-reference.md](rules-reference.md)."),
    N_("## Players and teams"),
    N_(
        "2, 3, 4 or 6 players. 2 players: one against one. 3 players: three teams of one.\n"
        "4 players: two teams of two. 6 players: two teams of three, or three teams of two.\n"
        "Seats alternate teams, and turns go round the table. Each team has a colour; team-mates\n"
        "place the same tokens and win together, but never see each other's cards."
    ),
    N_("## Setting up"),
    N_(
        "Shuffle the 90 cards (one per number) and deal 4 to each player. The rest is "
        "the draw pile."
    ),
    N_("## Your turn: do exactly one thing"),
    N_(
        "- **Play a card**: show it and put one of your team's tokens on any **free** space whose\n"
        "  number is **at least the card's number**. The card goes to the discard pile.\n"
        "  A card with no free space at or above it **burns**: it is discarded and no "
        "token is placed.\n"
        "- **Draw** the top card of the draw pile: only when you hold fewer than 4 cards.\n"
        "- **Exchange**: only when you hold exactly 4 cards, discard them all face down and draw 4."
    ),
    N_(
        "With no cards you must draw. When the draw pile runs out, the discard pile is "
        "shuffled into\n"
        "a new draw pile."
    ),
    N_("## Winning"),
    N_(
        "The game ends at once when a team has **5 or more tokens in a straight line** "
        "along one of\n"
        "the board's three directions; that team wins. The empty centre breaks a line.\n"
        "If a team places its 35th token without winning, or the board fills up, the "
        "game is a draw."
    ),
    N_("## Variants"),
    N_(
        "- **Joker**: a card with no free space at or above it counts as a 1, so its "
        "token may go on\n"
        "  any free space (it burns only when the board is full).\n"
        "- **Six players**: 2 teams of 3 (`--layout 2x3`) or 3 teams of 2 (`--layout 3x2`)."
    ),
    N_("## In the terminal game"),
    N_(
        "Type `34` to play card 34 on space 34, `34 36` to play it on space 36, `d` to draw,\n"
        "`x` to exchange, `u` to undo, `h` for a hint, `?` for help and `q` to save and quit."
    ),
)


def rules_markdown() -> str:
    """The rules as Markdown (rich draws it in a terminal; plain text reads fine too)."""
    return "\n\n".join(_(paragraph) for paragraph in RULES_PARAGRAPHS) + "\n"


def variants_markdown(registry: Registry, names: Sequence[str] = ()) -> str:
    """The installed variants (or those *names*) in Markdown: each one's description, the game
    parameters it declares (``cinco_game_params``), and its own rules text."""
    variants = registry.variants()
    chosen = list(names) or sorted(variants)
    if not chosen:
        return ""
    parts = [_("## Variants"), ""]
    for name in chosen:
        variant = variants[name]
        parts += [f"### {name}", "", _(variant.description), ""]
        try:
            config = registry.configure(2, variants=[name])
            params = registry.rules_for(config).params(config)
        except CincoError as exc:
            parts += [_("(Its game parameters could not be read: {error}.)").format(error=exc), ""]
        else:
            if not params.is_standard:
                line = _("Game parameters: {params}.").format(params=", ".join(params.describe()))
                parts += [line, ""]
        if variant.rules_text.strip():
            parts += [variant.rules_text.strip(), ""]
    return "\n".join(parts)


def print_rules(variants: Sequence[str] = ()) -> None:
    """Print the rules and the installed variants (or those named): formatted in a colour
    terminal, as plain Markdown otherwise."""
    text = rules_markdown()
    extra = variants_markdown(default_registry(), variants)
    if extra:
        text = text.rstrip("\n") + "\n\n" + extra
    screen = Screen()
    if screen.color:
        screen.show(Markdown(text))
    else:
        screen.console.print(text, end="", soft_wrap=True)
