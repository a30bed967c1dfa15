"""The short setup asked when ``cinco`` starts with no options.

Enter at the first question starts the quick game: one person against the greedy bot.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import replace

from cinco.core.engine.config import DEFAULT_NAMES
from cinco.core.host.registry import Registry
from cinco.core.words.answers import is_no, is_yes, please_answer, yes_no_hint
from cinco.core.words.i18n import _
from cinco.frontends.board_view import team_name, team_symbol
from cinco.frontends.options import DEFAULT_BOT, PlayOptions, clean_name
from cinco.frontends.terminal.screen import QuitGame, Screen


def _choice(screen: Screen, question: str, choices: tuple[str, ...], default: str) -> str:
    by_key = {choice.lower(): choice for choice in choices}
    while True:
        answer = screen.ask(f"{question} [{default}]: ").strip().lower() or default.lower()
        if answer in by_key:
            return by_key[answer]
        screen.say(_("Please answer one of: {choices}.").format(choices=", ".join(choices)))


def _or_list(words: Sequence[str]) -> str:
    """``2, 3, 4 or 6``."""
    if len(words) <= 1:
        return "".join(words)
    return _("{first} or {last}").format(first=", ".join(words[:-1]), last=words[-1])


def _yes(screen: Screen, question: str) -> bool:
    while True:  # [y/N] and the answers in the user's language (English ones too)
        answer = screen.ask(f"{question} {yes_no_hint()}: ")
        if is_no(answer):
            return False
        if is_yes(answer):
            return True
        screen.say(please_answer())


def ask_setup(screen: Screen, registry: Registry, options: PlayOptions) -> PlayOptions:
    """Ask who plays. Returns *options* completed with the answers."""
    screen.say(_("Cinco: make five in a row on a board of 90 numbered spaces."), "bold")
    if not _wants_setup(screen):
        return options
    # What the installed layouts allow (a plugin may add more), not a list of our own.
    counts = tuple(str(n) for n in registry.player_counts())
    default_count = "2" if "2" in counts else counts[0]
    players = int(
        _choice(
            screen,
            _("How many players? {counts}").format(counts=_or_list(counts)),
            counts,
            default_count,
        )
    )
    layout = _ask_layout(screen, registry, players)
    teams = registry.layout(players, layout).teams
    bot_levels = {name: spec.levels for name, spec in registry.bots().items()}
    bot_names = ", ".join(sorted(bot_levels))
    chosen_bots: dict[int, tuple[str, str | None]] = {}
    names: dict[int, str] = {}
    screen.say(
        _(
            "Seats take turns in order; seat 1 is you. For each seat type a person's "
            "name, or the name of a bot ({bots})."
        ).format(bots=bot_names)
    )
    for seat in range(players):
        player = _ask_seat(screen, seat, seat % teams, bot_levels)
        if isinstance(player, str):
            names[seat] = player
        else:
            chosen_bots[seat] = player
    variants = _ask_variants(screen, registry)
    return replace(
        options, players=players, layout=layout, bots=chosen_bots, names=names, variants=variants
    )


def _ask_variants(screen: Screen, registry: Registry) -> tuple[str, ...]:
    """Each installed variant, asked by its name in the user's words (one that cannot go with
    those chosen is not asked)."""
    chosen: list[str] = []
    installed = registry.variants()
    for name in sorted(installed, key=lambda n: installed[n].label.casefold()):
        variant = installed[name]
        if name in registry.incompatible_with(chosen):
            continue
        question = _("{variant}: {description} Play with this variant?").format(
            variant=variant.label, description=_(variant.description)
        )
        if _yes(screen, question):
            chosen.append(name)
    return tuple(chosen)


def _wants_setup(screen: Screen) -> bool:
    """The first question: Enter plays the quick game (``False``), s sets up a table."""
    while True:
        answer = (
            screen.ask(
                _("Press Enter to play against the computer, s to set up a table, q to quit: ")
            )
            .strip()
            .lower()
        )
        if answer == "":
            return False
        if answer in ("q", "quit", "exit"):
            raise QuitGame
        if answer in ("s", "set", "setup", "set up"):
            return True
        screen.say(_("Please press Enter, or type s or q."))


def _ask_layout(screen: Screen, registry: Registry, players: int) -> str | None:
    """The layout for *players*, asked only when there is a choice (``None``: the one)."""
    layouts = registry.layouts_for(players)
    if len(layouts) <= 1:
        return None
    screen.say(_("Layouts for {n} players:").format(n=players))
    for choice in layouts:
        screen.say(f"  {choice.name:<6} {_(choice.description)}".rstrip())
    return _choice(
        screen,
        _("Which layout? {names}").format(names=_or_list([lay.name for lay in layouts])),
        tuple(lay.name for lay in layouts),
        layouts[0].name,
    )


def _ask_seat(
    screen: Screen, seat: int, team: int, bot_levels: Mapping[str, tuple[str, ...]]
) -> tuple[str, str | None] | str:
    """Who plays *seat*: a bot and its level (``None``: its default), or a person's name.
    *bot_levels*: every bot's levels, by the bot's name."""
    default = DEFAULT_NAMES[seat] if seat == 0 else DEFAULT_BOT
    typo: str | None = None
    while True:
        answer = (
            screen.ask(
                _("Seat {n} (team {symbol} {colour}) [{default}]: ").format(
                    n=seat + 1,
                    symbol=team_symbol(team, screen.ascii_only),
                    colour=team_name(team),
                    default=default,
                )
            ).strip()
            or default
        )
        answer = clean_name(answer)
        if not answer:
            continue
        bot, _sep, level = answer.lower().partition(":")
        if bot in bot_levels:
            levels = bot_levels[bot]
            if level and level not in levels:
                screen.say(
                    _("{bot} has no level {level}. Levels: {levels}.").format(
                        bot=bot, level=level, levels=", ".join(levels) or "-"
                    )
                )
                continue
            return bot, level or None
        close = difflib.get_close_matches(bot, list(bot_levels), n=1, cutoff=0.6)
        if close and answer != typo:
            # "gredy": most likely a bot's name mistyped, not a person. Typed again, it is a
            # person's name.
            typo = answer
            screen.say(
                _(
                    "{answer} is not a bot (bots: {bots}). Type a bot's name, or "
                    "{answer} again to seat a person of that name."
                ).format(answer=answer, bots=", ".join(sorted(bot_levels)))
            )
            continue
        return answer
