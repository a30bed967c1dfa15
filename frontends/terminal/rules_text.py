"""The rules of Cinco in a page, for ``cinco rules``: the whole game in the user's language,
with nothing to look up elsewhere (an installed Cinco has no docs folder), then one
"Variants" section with each installed variant in its own words (its title, description,
parameters and rules text, translated through the plugin's catalog)."""

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
    N_(
        "The first player is chosen at random. Your hand is secret: only you see your cards,\n"
        "not even your team-mates."
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
    N_("## What everyone sees"),
    N_(
        "Played cards are shown to everyone. The cards of an exchange are discarded face down\n"
        "and stay hidden. Everyone knows how many cards each player holds, and how many are\n"
        "in the draw pile and the discard pile."
    ),
    N_("## Winning"),
    N_(
        "The game ends at once when a team has **5 or more tokens in a straight line** "
        "along one of\n"
        "the board's three directions; that team wins. The empty centre breaks a line.\n"
        "If a team places its 35th token without winning, or the board fills up, the "
        "game is a draw."
    ),
    N_(
        "A game may also be given a turn limit (games of bots alone have one): reaching it\n"
        "ends the game in a draw."
    ),
    N_("## Examples"),
    N_(
        "- A played 68 may go on 68, 69, 70 or any higher space that is free.\n"
        "- Spaces 87, 88 and 89 are taken: a played 87 may go only on 90.\n"
        "- Spaces 87, 88, 89 and 90 are taken: a played 88 burns."
    ),
)

#: How to play in the terminal: after the variants, at the end of the page.
TERMINAL_PARAGRAPHS: tuple[str, ...] = (
    N_("## In the terminal game"),
    N_(
        "Type `34` to play card 34 on space 34, `34 36` to play it on space 36, `d` to draw,\n"
        "`x` to exchange, `u` to undo, `h` for a hint, `?` for help and `q` to save and quit."
    ),
)


def rules_markdown(variants: str = "") -> str:
    """The rules as Markdown (rich draws it in a terminal; plain text reads fine too), with
    *variants* (:func:`variants_markdown`) before the terminal's own section."""
    parts = [_(paragraph) for paragraph in RULES_PARAGRAPHS]
    if variants.strip():
        parts.append(variants.strip())
    parts += [_(paragraph) for paragraph in TERMINAL_PARAGRAPHS]
    return "\n\n".join(parts) + "\n"


#: Said under "Variants" when the game is set up with six players (the layouts are not a
#: variant, but this is where a player looks for them).
SIX_PLAYERS = N_(
    "Six players choose their teams when the game is set up: two teams of three "
    "(`--layout 2x3`) or three teams of two (`--layout 3x2`)."
)


def variants_markdown(registry: Registry, names: Sequence[str] = ()) -> str:
    """The one "Variants" section: the installed variants (or those *names*) in their own
    words, each under its title: its description, the game parameters it declares
    (``cinco_game_params``), and its own rules text. Without *names*, the six-player
    layouts too, when they are installed."""
    variants = registry.variants()
    chosen = list(names) or sorted(variants, key=lambda name: variants[name].label.casefold())
    six = not names and 6 in registry.player_counts()
    if not chosen and not six:
        return ""
    parts = [_("## Variants"), ""]
    if six:
        parts += [_(SIX_PLAYERS), ""]
    for name in chosen:
        variant = variants[name]
        parts += [f"### {variant.label}", "", _(variant.description), ""]
        try:
            config = registry.configure(2, variants=[name])
            params = registry.rules_for(config).params(config)
        except CincoError as exc:
            parts += [_("(Its game parameters could not be read: {error}.)").format(error=exc), ""]
        else:
            if not params.is_standard:
                line = _("Game parameters: {params}.").format(params=", ".join(params.describe()))
                parts += [line, ""]
        if variant.rules_text.strip():  # the plugin's words, in its catalog (words.domains)
            parts += [_(variant.rules_text).strip(), ""]
    return "\n".join(parts)


def rules_page(registry: Registry, variants: Sequence[str] = ()) -> str:
    """What ``cinco rules`` prints: the rules with *registry*'s variants (or those named)
    in the user's language (docs/rules.md is this page in English, with the built-ins)."""
    return rules_markdown(variants_markdown(registry, variants))


def print_rules(variants: Sequence[str] = ()) -> None:
    """Print the rules and the installed variants (or those named): formatted in a colour
    terminal, as plain Markdown otherwise."""
    text = rules_page(default_registry(), variants)
    screen = Screen()
    if screen.color:
        screen.show(Markdown(text))
    else:
        screen.console.print(text, end="", soft_wrap=True)
