"""The hooks plugins implement. Every built-in variant, layout, bot and logger uses only these.

Hooks come in three groups:

*Registration* hooks are called once on the :class:`~cinco.core.host.registry.Registry` to learn
what a plugin adds: layouts, variants and bots.

*Rule* hooks are called on a game's own plugin manager, which holds the standard rules
(:mod:`cinco.core.engine.standard_rules`, registered last-resort with ``trylast``) and the ``rules``
object of every variant the game enables. A variant's implementation is called before the
standard one; returning ``None`` defers to the next. Rule hooks answer from the game's state
alone: they cannot read the clocks (turn timers are the server's, and a record replays and is
checked without them), so no rule may depend on time.

*Lifecycle* hooks tell subscribers what happens: both installed plugins and a game's own
plugins (for example a record writer) receive them. They see the **referee's** stream; a plugin
that shows anything to a person must project it with :meth:`cinco.core.engine.events.Event.seen_by`.

Write an implementation with :data:`hookimpl`::

    from cinco import hookimpl

    @hookimpl
    def cinco_register_variants():
        return [Variant("lucky7", "The 7 is wild.", rules=LuckySeven())]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from cinco.core.engine.actions import ActionSpec
    from cinco.core.engine.commands import Command
    from cinco.core.engine.config import GameConfig, Layout
    from cinco.core.engine.events import Event
    from cinco.core.engine.outcome import Outcome
    from cinco.core.engine.params import GameParams
    from cinco.core.engine.state import GameState
    from cinco.core.game.game import Game
    from cinco.core.host.declarations import BotSpec, Setting, TeamStyle, Variant

PROJECT = "cinco"
#: Version of the hook API described here. A plugin declares the version it targets with a
#: module attribute ``CINCO_HOOK_API = 1``; one targeting a newer API than this, or an older one
#: than :data:`OLDEST_HOOK_API_VERSION`, is refused at load with a message saying what to upgrade.
#:
#: API 2 added :func:`cinco_game_params`, :func:`cinco_action_allowed`,
#: :func:`cinco_register_team_styles`, :func:`cinco_register_settings`, :func:`cinco_game_closed`,
#: ``game.id`` and the ``standard`` argument
#: of :func:`cinco_game_end`; API 1 plugins load and play unchanged (every API 1 hook is in
#: API 2 as it was: an implementation takes only the arguments it names).
#:
#: API 3 added :func:`cinco_declare_actions`: a variant adds actions of its own (a capture, a
#: pass, ...); API 1 and 2 plugins load and play unchanged.
HOOK_API_VERSION = 3
#: The oldest hook API this Cinco still runs plugins for.
OLDEST_HOOK_API_VERSION = 1
#: The hook API that introduced each hook after the first (a plugin declaring an older API
#: than a hook's is refused when it implements it).
HOOK_SINCE = {
    "cinco_game_params": 2,
    "cinco_action_allowed": 2,
    "cinco_register_team_styles": 2,
    "cinco_register_settings": 2,
    "cinco_game_closed": 2,
    "cinco_declare_actions": 3,
}

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# -- registration -----------------------------------------------------------------------------


@hookspec
def cinco_register_layouts() -> list[Layout]:
    """Return the team/seat layouts this plugin adds (P2).

    Called once per registry, the first time anyone asks for the layouts; every plugin's list
    is collected. A layout's name is ``TxS``: *T* teams of *S* players. When two plugins add
    the same name, the first registered keeps it (built-ins come first) and ``cinco plugins``
    reports the clash.

    A layout Cinco cannot play is refused here, not in the middle of a game: 2 to 6 teams of
    the same size, at most 12 players, a name that is a word, given once by the plugin, and
    (when it reads ``TxS``) says the layout's teams and size. ``cinco plugins`` names the
    plugin, the layout and what is wrong; the plugin's other layouts are used. A layout of
    more than 3 teams should come with :func:`cinco_register_team_styles` for the others.

    Example::

        from cinco import Layout, hookimpl


        @hookimpl
        def cinco_register_layouts():
            return [Layout("2x3", players=6, teams=2, description="2 teams of 3")]
    """


@hookspec
def cinco_register_variants() -> list[Variant]:
    """Return the rule variants this plugin adds.

    Called once per registry; every plugin's list is collected. A
    :class:`~cinco.core.host.declarations.Variant` carries a ``rules`` object implementing rule
    hooks (:func:`cinco_legal_spaces`, :func:`cinco_game_end`, and in API 2
    :func:`cinco_game_params`, :func:`cinco_action_allowed`); it is registered only in the games
    that enable the variant. The first plugin to add a name keeps it.

    A variant may declare (hook API 2) the variants it cannot be combined with,
    ``incompatible=("joker",)``, and those it must be played with, ``requires=(...)``: a game
    choosing an incompatible pair, or the variant without what it requires, is refused before
    it starts (``cinco --variant``, a table or game of such a configuration, a lobby game, the
    app's chooser, which greys such variants out), with a message naming both.

    Example::

        from cinco import Variant, hookimpl


        class LuckySeven:
            @hookimpl
            def cinco_legal_spaces(self, state, seat, card):
                return state.free_spaces(1) if card == 7 else None


        @hookimpl
        def cinco_register_variants():
            return [
                Variant("lucky7", "The 7 is wild.", rules=LuckySeven(), incompatible=("joker",))
            ]
    """


@hookspec
def cinco_register_bots() -> list[BotSpec]:
    """Return the bots this plugin adds.

    Called once per registry; every plugin's list is collected. A
    :class:`~cinco.core.host.declarations.BotSpec` names the bot and gives ``create(context)``,
    called once per seat with a :class:`~cinco.core.host.declarations.BotContext` (seat,
    configuration, rules, level, seed, time budget). The bot's ``choose(view, legal)`` gets only its
    seat's view and returns one of the legal commands. The first plugin to add a name keeps it.

    Example::

        from cinco import BotSpec, hookimpl


        class FirstChoice:
            def __init__(self, context):
                self.seat = context.seat

            def choose(self, view, legal):
                return legal[0]


        @hookimpl
        def cinco_register_bots():
            return [BotSpec("first", "Plays the first legal action.", create=FirstChoice)]
    """


@hookspec
def cinco_register_team_styles() -> list[TeamStyle]:
    """Return the team styles this plugin adds: how the frontends draw a team beyond the ones
    already registered.

    *(Hook API 2.)* Called once per registry; every plugin's list is collected, in registration
    order (the built-in plugin :mod:`cinco.plugins.team_styles` comes first, with blue, orange and
    pink), and team *i* of a game is drawn in the *i*-th style. A
    :class:`~cinco.core.host.declarations.TeamStyle` has a name (``"green"``), a colour
    (``"#009E73"``), a symbol (``"◆"``) and a symbol for plain-ASCII terminals (``"+"``). A plugin
    whose layout has more teams than there are styles adds the missing ones: without them the styles
    repeat (team 3 looks like team 0). A style whose name is taken already is left out, as are
    styles whose symbol another style has (``cinco plugins`` reports both).

    Example::

        from cinco import TeamStyle, hookimpl


        @hookimpl
        def cinco_register_team_styles():
            return [TeamStyle("green", colour="#009E73", symbol="◆", ascii_symbol="+")]
    """


@hookspec
def cinco_register_settings() -> list[Setting]:
    """Return the settings this plugin declares: what a player may choose per game.

    *(Hook API 2.)* Called once per registry; every plugin's list is collected (the first to declare
    a name keeps it). A :class:`~cinco.core.host.declarations.Setting` has a name (call it after the
    plugin: ``"tally.every"``), a description, a default (text, a whole number, a number or
    true/false: its type) and, optionally, the choices allowed. A player chooses it with
    ``cinco --setting tally.every=5`` (or ``Registry.configure(settings={...})``); the value is
    checked against the setting's type and choices and recorded in the game's options
    (``"settings"``), so a replay knows it. Read it with ``game.setting("tally.every")``: the
    value chosen, or the default. ``cinco plugins`` lists each plugin's settings.

    Example::

        from cinco import Setting, hookimpl


        @hookimpl
        def cinco_register_settings():
            return [Setting("tally.every", "Print the score every N turns.", default=10)]


        @hookimpl
        def cinco_game_ended(game):
            print("tally every", game.setting("tally.every"), "turns")
    """


# -- rules ------------------------------------------------------------------------------------


@hookspec(firstresult=True)
def cinco_legal_spaces(state: GameState, seat: int, card: int) -> tuple[int, ...] | None:
    """Return the spaces on which *seat* may place a token by playing *card*.

    Called on a game's rules whenever the legal actions are listed or a card is played, only
    when *card* is in *seat*'s hand and it is their turn. *state* may be a player's view (hidden
    cards are 0): answer from public facts only, and the same for the same arguments (a bot's
    move is checked against the legal actions listed for it, without asking again). The first
    non-``None`` result wins; return ``None`` to defer. An empty tuple means the card burns
    (A2). The standard rule (A1): every free space numbered *card* or higher. If the hook
    raises, the command is refused with an error naming the plugin, and the game is unchanged.

    Example::

        class LuckySeven:
            @hookimpl
            def cinco_legal_spaces(self, state, seat, card):
                if card == 7:
                    return state.free_spaces(1)  # the 7 is wild
                return None  # any other card: the standard rule
    """


@hookspec(firstresult=True)
def cinco_game_end(state: GameState, command: Command, standard: Outcome | None) -> Outcome | None:
    """Decide whether the game ends after *command*; *state* already includes its effects.

    Called on a game's rules once per accepted command, before its events are stored. The first
    non-``None`` result wins. Return an :class:`~cinco.core.engine.outcome.Outcome` to end the game,
    :data:`~cinco.core.engine.outcome.ONGOING` to say it goes on (overruling the standard rules), or
    ``None`` to defer. The standard rules are E1-E4, by the game's parameters (winning length,
    tokens per team, blocked spaces). An ``Outcome`` may carry ``scores``, one whole number per
    team (hook API 2): they are recorded in ``game_ended`` and shown with the result. If the
    hook raises, the command is refused with an error naming the plugin, and the game is
    unchanged.

    *standard* (hook API 2) is the standard rules' verdict on the same move: an ``Outcome``
    (a line, a stalemate, a full board, the turn limit) or ``None`` (the game goes on). A
    variant refines it instead of detecting the standard ends again: keep it (return
    ``None``), overrule it (``ONGOING``), or replace it (an ``Outcome`` with scores, say).
    It is worked out only for games with an implementation that names the argument; one that
    does not (every API 1 plugin) is called as before. Rule hooks cannot be pluggy wrappers
    (``hookwrapper=True``): this argument is how a variant sees the verdict it would wrap.

    Example::

        from cinco import ONGOING


        class SixInARow:
            @hookimpl
            def cinco_game_end(self, state, command, standard):
                if standard is not None and standard.reason == "line" and len(standard.line) < 6:
                    return ONGOING  # five is not enough in this variant
                return None  # anything else: the standard verdict stands
    """


@hookspec
def cinco_game_params(params: GameParams, config: GameConfig) -> GameParams | None:
    """Return the game parameters of a new game with this variant, or ``None`` to keep *params*.

    *(Hook API 2.)* Called once, when a new game is created (:meth:`cinco.core.game.game.Game.new`),
    of each enabled variant in the order of the game's variants (``config.variants``, the order
    of the ``--variant`` options), each seeing the parameters so far: the standard game's
    (:data:`cinco.core.engine.params.STANDARD_PARAMS`), or an earlier variant's answer. The result
    is
    recorded in the game's configuration, so a record is replayed by the parameters it was
    played with, whatever this hook says later. Return absolute values
    (``dataclasses.replace(params, hand_limit=5)``), not increments: the hook may be asked
    again for a game started from an earlier game's configuration. If it raises, or returns
    anything but :class:`~cinco.core.engine.params.GameParams`, the game is not created and the
    error
    names the plugin.

    The parameters are the hand limit (A5), the deal (S1), the cards a draw takes (A3: a draw
    of several cards stops at the hand limit, so a hand one card below it draws one), the
    hand size that may be exchanged (A4), the length of a winning line (E1), the tokens per
    team (C1, E2) and the blocked spaces (no token may take them; E3 counts them as full).
    The standard rules, the bots' kernel, the hints and the frontends all read them.

    Example::

        from dataclasses import replace


        class HandOfFive:
            @hookimpl
            def cinco_game_params(self, params):
                return replace(params, hand_limit=5, deal=5, exchange_size=5)
    """


@hookspec(firstresult=True)
def cinco_action_allowed(state: GameState, seat: int, action: str) -> bool | str | None:
    """Whether *seat* may *action* now: ``"draw"`` (A3) or ``"exchange"`` (A4).

    *(Hook API 2.)* Called on a game's rules whenever the legal actions are listed and when a
    draw or an exchange is decided, only on *seat*'s turn, so a bot never sees as legal what it
    would be refused. The first non-``None`` answer wins: ``True`` allows the action, ``False``
    or a reason in words (which the player is shown: "this game has no exchange") refuses it;
    ``None`` defers. The standard rules allow a draw below the hand limit and an exchange of a
    hand of exactly ``exchange_size`` cards. No variant can let a full hand draw (A5), forbid
    an empty hand to draw (it could do nothing else), or let an empty hand be exchanged. As
    for :func:`cinco_legal_spaces`, *state* may be a player's view: answer from public facts.
    If the hook raises, the command is refused with an error naming the plugin.

    Example::

        class NoExchange:
            @hookimpl
            def cinco_action_allowed(self, state, seat, action):
                if action == "exchange":
                    return "this game has no exchange"
                return None  # a draw: the standard rule
    """


@hookspec
def cinco_declare_actions() -> list[ActionSpec]:
    """Return the actions this variant adds to a turn, besides play, draw and exchange.

    *(Hook API 3.)* A rule hook: implement it on a variant's ``rules`` object. Called once when
    a game with the variant is set up (and for ``cinco plugins``, which checks the
    declarations); every variant's list is collected. An
    :class:`~cinco.core.engine.actions.ActionSpec` gives the action's ``name`` (its command's
    kind and the turn's action in the log), its command's ``fields`` (whole numbers), when it is
    legal (``options(state, seat)``: every tuple of field values the seat may send now) and what
    it does (``effects(state, seat, values)``: :class:`~cinco.core.engine.actions.Place`,
    :class:`~cinco.core.engine.actions.Remove`, :class:`~cinco.core.engine.actions.Take`), and
    how players see it (``title``, ``narration``, the terminal's ``key`` and ``usage``).

    The engine does the rest as for the built-in actions: the legal actions list the
    :class:`~cinco.core.engine.commands.Act` commands (so bots and frontends offer them),
    ``decide`` checks one against ``options`` and records an ``action_taken`` event and its
    effects' events (``token_removed``, ``card_played``, ``card_drawn``), the end of the game is
    decided by :func:`cinco_game_end` as after any action (the standard rules look for a line
    through the acting team's tokens), and records replay and are checked like any other. As
    for :func:`cinco_legal_spaces`, ``options`` may be given a player's view: answer from
    public facts and the seat's own hand. If ``options`` or ``effects`` raises or answers
    something else, the command is refused with an error naming the plugin. A person takes a
    declared action back as a play: when no one else saw a card it showed (a drawn card too).

    Example::

        from cinco import ActionSpec, Place, Remove, hookimpl


        class Capture:
            @hookimpl
            def cinco_declare_actions(self):
                return [
                    ActionSpec(
                        "capture",
                        ("card", "space"),
                        options=lambda state, seat: [
                            (1, n)
                            for n in range(1, 91)
                            if 1 in state.hands[seat]
                            and state.owner(n) not in (None, state.team_of(seat))
                        ],
                        effects=lambda state, seat, v: [
                            Remove(v["space"]),
                            Place(v["card"], v["space"]),
                        ],
                        title="Capture",
                        key="c",
                        usage="1 SPACE",
                    )
                ]
    """


# -- lifecycle --------------------------------------------------------------------------------


@hookspec
def cinco_game_started(game: Game) -> None:
    """A game was created (new, or rebuilt from a record) and its first events are stored.

    The first lifecycle hook of every game, whichever command plays it (``cinco``, ``simulate``,
    ``arena``, ``serve``, a resumed record): then :func:`cinco_event` for every event from
    ``game_started`` on (a new game's deal too: it is stored first and passed on after this
    hook, so a watcher opening a file here misses nothing), :func:`cinco_game_ended` right
    after the ``game_ended`` event, and :func:`cinco_game_closed` once, last. A game rebuilt
    from a record (``game.resumed`` is true) has its past events already (``game.events``):
    :func:`cinco_event` follows only for new ones. ``cinco replay`` plays no game and calls no
    lifecycle hook.

    Called on every installed plugin and on the game's own plugins; results are ignored. If an
    implementation raises anything (``BaseException`` included: ``SystemExit``,
    ``GeneratorExit``, an exception class of its own), a ``plugin_switched_off`` notice naming
    the plugin, the hook and the error is added to the game once the turn being stored is
    whole, that plugin gets no more calls from this game, and the game goes on: a turn is
    stored whole or not at all. Only the user's Ctrl-C (a ``KeyboardInterrupt`` in the main
    thread) stops the program, once the turn is whole.
    ``game.id`` (hook API 2) names the game: its table's id, the same in its record's header,
    when it is resumed, and in :func:`cinco_game_closed`.

    Example::

        @hookimpl
        def cinco_game_started(game):
            print("game", game.id, "for", game.config.players, "players")
    """


@hookspec
def cinco_event(game: Game, event: Event) -> None:
    """*event* was appended to *game*'s log (the referee's event: project before showing it).

    Called on every installed plugin and on the game's own plugins, once per event, in order;
    results are ignored. Not called while a game is rebuilt from a record (resumed), nor
    before :func:`cinco_game_started`. Failures are handled
    as for :func:`cinco_game_started`.

    Example::

        from cinco import SPECTATOR


        @hookimpl
        def cinco_event(game, event):
            print(event.seen_by(SPECTATOR).to_dict())  # public facts only
    """


@hookspec
def cinco_game_ended(game: Game) -> None:
    """*game* is over; ``game.state.result`` says how.

    Called right after the ``game_ended`` event has been passed to :func:`cinco_event`; results
    are ignored. Failures are handled as for :func:`cinco_game_started`.

    Example::

        @hookimpl
        def cinco_game_ended(game):
            result = game.state.result
            print("winner:", result.winner, "reason:", result.reason)
    """


@hookspec
def cinco_game_closed(game: Game, reason: str) -> None:
    """*game* is closed: nothing more will happen to it in this process.

    *(Hook API 2.)* Called once per game, when the :class:`~cinco.core.table.table.Table` that has
    it closes (the player quits, the program or the server shuts the table, a lobby game is
    abandoned), or when a program playing a bare :class:`~cinco.core.game.game.Game` calls
    :meth:`~cinco.core.game.game.Game.close`. *reason* is ``"ended"`` (the game is over)
    or ``"abandoned"`` (it stopped before its end; its record may still be resumed). A resumed
    game starts again with :func:`cinco_game_started` under the same ``game.id``. Use it to
    release what a watcher keeps for a game (a file, a connection). Results are ignored;
    failures are logged as for :func:`cinco_game_started`.

    Example::

        @hookimpl
        def cinco_game_closed(game, reason):
            print("game", game.id, "closed:", reason)
    """
