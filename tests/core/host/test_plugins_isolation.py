"""A broken plugin never costs a player the game (issue 6: isolation).

Lifecycle hooks that raise are reported and switched off for the game; rule hooks that raise
refuse the command and change nothing; bots that raise, cheat or overrun their time budget
lose the move to a random one. Each case leaves a notice in the game that every player sees.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from rule_plugins import registry_with

from cinco import (
    BotSpec,
    Command,
    Draw,
    Event,
    Game,
    GameState,
    IllegalCommand,
    LegalActions,
    Notice,
    Outcome,
    PlayCard,
    PluginError,
    Registry,
    Seat,
    Variant,
    hookimpl,
    load_record,
)
from cinco.core.engine.errors import ConfigError, RuleHookError
from cinco.core.game.game import BUDGET_GRACE
from cinco.plugins.record_writer import RecordWriter


class Recorder:
    """A well-behaved game plugin: remembers every event it is told about."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    @hookimpl
    def cinco_event(self, game: Game, event: Event) -> None:
        self.events.append(event)


class FailsOnEvent:
    """Raises on the *fail_at*-th event it sees."""

    def __init__(self, fail_at: int = 3) -> None:
        self.calls = 0
        self.fail_at = fail_at

    @hookimpl
    def cinco_event(self, game: Game, event: Event) -> None:
        self.calls += 1
        if self.calls == self.fail_at:
            raise RuntimeError("disk on fire")


def notices(game: Game, kind: str) -> list[Notice]:
    return [e for e in game.events if isinstance(e, Notice) and e.code == kind]


def bot_config(registry: Registry, bots: tuple[str, str], **options: Any) -> Any:
    seats = [Seat(f"{bot} {i}", bot=bot) for i, bot in enumerate(bots)]
    return registry.configure(
        2, seats=seats, seed=5, first_seat=0, turn_limit=300, options=options or None
    )


# -- lifecycle hooks ---------------------------------------------------------------------------


def test_failing_game_plugin_is_reported_and_switched_off(tmp_path: Path) -> None:
    registry = Registry(entry_points=False)
    failing, recorder = FailsOnEvent(fail_at=3), Recorder()
    writer = RecordWriter(tmp_path / "game.jsonl")
    config = bot_config(registry, ("greedy", "random"))
    game = Game.new(config, registry=registry, plugins=[failing, writer, recorder])
    game.play_bots()
    assert game.is_over
    # Reported once, naming the plugin and the hook; the plugin got no more calls.
    [notice] = notices(game, "plugin_switched_off")
    assert "FailsOnEvent" in notice.text and "cinco_event" in notice.text
    assert "disk on fire" in notice.text
    assert failing.calls == 3
    assert [p.hook for p in game.problems] == ["cinco_event"]
    # The others saw every event, the notice included, in the log's order.
    assert recorder.events == list(game.events)
    # The record is intact: it replays to the same game.
    record = load_record(tmp_path / "game.jsonl")
    assert list(record.events) == list(game.events)
    assert Game.from_events(record.events, registry=registry).state == game.state


def test_failing_installed_plugin_is_isolated_per_game() -> None:
    class Broken:
        CINCO_HOOK_API = 1

        @hookimpl
        def cinco_event(self, game: Game, event: Event) -> None:
            raise ValueError("bad plugin")

    registry = Registry(entry_points=False, plugins=[Broken()])
    games = [Game.new(bot_config(registry, ("random", "random")), registry=registry)]
    games.append(Game.new(bot_config(registry, ("random", "random")), registry=registry))
    for game in games:
        game.play_bots()
        assert game.is_over
        # Each game reports it once (the first event), then plays on without it.
        [notice] = notices(game, "plugin_switched_off")
        assert "Broken" in notice.text and "cinco_event" in notice.text
        # Stored as soon as the deal (2 + 4 * 2 events) is complete: a deal is never split.
        assert list(game.events).index(notice) == 10
        # Every player is shown the notice.
        assert all(notice in game.events_for(seat) for seat in (0, 1))


@pytest.mark.parametrize("hook", ["cinco_game_started", "cinco_game_ended"])
def test_failing_start_or_end_hook_keeps_the_game(hook: str) -> None:
    class Broken:
        pass

    def fail(self: object, game: Game) -> None:
        raise KeyError(hook)

    setattr(Broken, hook, hookimpl(fail))
    registry = Registry(entry_points=False)
    game = Game.new(
        bot_config(registry, ("greedy", "greedy")), registry=registry, plugins=[Broken()]
    )
    game.play_bots()
    assert game.is_over
    [problem] = game.problems
    assert hook in problem.message and "Broken" in problem.message
    if hook == "cinco_game_ended":
        # Nothing follows game_ended in a log (a record must end there): told, not stored.
        assert not notices(game, "plugin_switched_off") and game.events[-1].type == "game_ended"
    else:
        [notice] = notices(game, "plugin_switched_off")
        assert hook in notice.text and "Broken" in notice.text
    # The log with the notice still folds and replays.
    assert Game.from_events(list(game.events), registry=registry).state == game.state


def test_failing_registration_hook_leaves_out_that_plugin_only() -> None:
    class BrokenBots:
        @hookimpl
        def cinco_register_bots(self) -> list[BotSpec]:
            raise RuntimeError("cannot count")

    class WrongType:
        @hookimpl
        def cinco_register_variants(self) -> list[object]:
            return ["not a variant"]

    registry = Registry(entry_points=False, plugins=[BrokenBots(), WrongType()])
    assert {"random", "greedy"} <= set(registry.bots())
    assert "joker" in registry.variants()
    hooks = {(p.plugin, p.hook) for p in registry.problems}
    assert ("BrokenBots", "cinco_register_bots") in hooks
    assert ("WrongType", "cinco_register_variants") in hooks
    text = " ".join(p.message for p in registry.problems)
    assert "cannot count" in text and "not a variant" in text


# -- rule hooks --------------------------------------------------------------------------------


class ExplodingRules:
    def __init__(self, hook: str) -> None:
        self.hook = hook

    @hookimpl
    def cinco_legal_spaces(self, state: GameState, seat: int, card: int) -> None:
        if self.hook == "cinco_legal_spaces" and state.turn >= 1:
            raise ZeroDivisionError("oops")

    @hookimpl
    def cinco_game_end(self, state: GameState, command: Command) -> None:
        if self.hook == "cinco_game_end" and state.turn >= 1:
            raise ZeroDivisionError("oops")


def exploding_registry(hook: str) -> Registry:
    class Plugin:
        @hookimpl
        def cinco_register_variants(self) -> list[Variant]:
            return [Variant("boom", "Fails on the second turn.", rules=ExplodingRules(hook))]

    return Registry(entry_points=False, plugins=[Plugin()])


@pytest.mark.parametrize("hook", ["cinco_legal_spaces", "cinco_game_end"])
def test_failing_rule_hook_refuses_the_command_and_changes_nothing(hook: str) -> None:
    registry = exploding_registry(hook)
    game = Game.new(
        registry.configure(2, variants=["boom"], seed=2, first_seat=0), registry=registry
    )
    game.execute(Draw(seat=0) if len(game.state.hands[0]) < 4 else game.legal_actions()[0])
    before, count = game.state, len(game.events)
    seat = game.state.current_seat
    card = game.state.hands[seat][0]
    with pytest.raises(RuleHookError) as caught:
        game.execute(PlayCard(seat, card, 90 if game.state.is_free(90) else None))
    error = caught.value
    assert isinstance(error, IllegalCommand) and isinstance(error, PluginError)
    assert error.code == "plugin_failed" and error.hook == hook
    assert "boom" in str(error) and hook in str(error) and "unchanged" in str(error)
    assert game.state == before and len(game.events) == count


def test_failing_rule_hook_in_a_bot_game_is_a_clear_error() -> None:
    registry = exploding_registry("cinco_legal_spaces")
    config = registry.configure(
        2, variants=["boom"], seed=2, seats=[Seat("a", bot="random"), Seat("b", bot="random")]
    )
    game = Game.new(config, registry=registry)
    with pytest.raises(RuleHookError, match="boom"):
        game.play_bots()
    assert Game.from_events(list(game.events), registry=registry).state == game.state


# -- bots --------------------------------------------------------------------------------------


class Misbehaving:
    """A bot that misbehaves in the way its name says, on every move."""

    def __init__(self, how: str, seat: int) -> None:
        self.how, self.seat = how, seat

    def choose(self, view: GameState, legal: LegalActions) -> Command:
        if self.how == "raises":
            raise RuntimeError("bot crashed")
        if self.how == "illegal":
            return PlayCard(self.seat, 999, 1)
        if self.how == "slow":
            time.sleep(BUDGET_GRACE + 0.15)
        return legal[0]


def misbehaving_registry() -> Registry:
    class Plugin:
        @hookimpl
        def cinco_register_bots(self) -> list[BotSpec]:
            specs = [
                BotSpec(how, how, create=lambda c, how=how: Misbehaving(how, c.seat))
                for how in ("raises", "illegal", "slow")
            ]

            def cannot_start(context: object) -> Misbehaving:
                raise OSError("no model file")

            return [*specs, BotSpec("unborn", "fails to start", create=cannot_start)]

    return Registry(entry_points=False, plugins=[Plugin()])


@pytest.mark.parametrize(
    ("bot", "says"),
    [("raises", "bot crashed"), ("illegal", "illegal move"), ("unborn", "no model file")],
)
def test_bad_bot_loses_the_move_to_a_random_one(bot: str, says: str) -> None:
    registry = misbehaving_registry()
    game = Game.new(bot_config(registry, (bot, "greedy")), registry=registry)
    events = game.play_bot_turn()
    assert game.state.turn == 1 and events  # a legal move was played for it
    [notice] = notices(game, "bot_replaced")
    assert notice.seat == 0 and says in notice.text and "random move" in notice.text
    # The bot's own seat is told in full; everyone else without what the bot tried or raised
    # (either may show a card of its hand: S2).
    assert notice in game.events_for(0)
    for viewer in (1, None):
        [public] = [e for e in game.events_for(viewer) if isinstance(e, Notice)]
        assert public.private is None and "random move" in public.text
        assert "It tried" not in public.text and "It raised" not in public.text
        if bot != "illegal":  # "an illegal move" is public; the move itself is not
            assert says not in public.text


def test_bot_over_its_time_budget_loses_the_move() -> None:
    registry = misbehaving_registry()
    game = Game.new(
        bot_config(registry, ("slow", "greedy"), bot_time_budget=0.01), registry=registry
    )
    bot = game.bot(0)
    assert isinstance(bot, Misbehaving)
    game.play_bot_turn()
    [notice] = notices(game, "bot_replaced")
    assert "too late" in notice.text and "0.01" in notice.text
    assert game.state.turn == 1


def test_bot_within_its_time_budget_keeps_its_move() -> None:
    registry = misbehaving_registry()
    game = Game.new(bot_config(registry, ("greedy", "slow"), bot_time_budget=5), registry=registry)
    game.play_bot_turn()
    assert not notices(game, "bot_replaced")


def test_time_budget_is_told_to_bots_and_checked() -> None:
    registry = Registry(entry_points=False)
    seen: list[float | None] = []

    class Spy:
        @hookimpl
        def cinco_register_bots(self) -> list[BotSpec]:
            def create(context: Any) -> Misbehaving:
                seen.append(context.time_budget)
                return Misbehaving("fine", context.seat)

            return [BotSpec("spy", "spy", create=create)]

    registry = Registry(entry_points=False, plugins=[Spy()])
    game = Game.new(bot_config(registry, ("spy", "spy"), bot_time_budget=1.5), registry=registry)
    game.play_bot_turn()
    assert seen == [1.5]
    assert game.events[0].config.options == {"bot_time_budget": 1.5}  # recorded with the game
    with pytest.raises(ConfigError, match="bot_time_budget"):
        Game.new(bot_config(registry, ("spy", "spy"), bot_time_budget="soon"), registry=registry)


# -- folded in from the hardening campaign's test_hardening_core.py (issue 26) --------------------


def game_with(rules: object) -> Game:
    registry = registry_with(rules)
    seats = [Seat("a"), Seat("b", bot="random")]
    config = registry.configure(2, variants=["odd"], seats=seats, seed=1, first_seat=0)
    return Game.new(config, registry=registry)


def spaces_rules(answer: Any) -> object:
    class Rules:
        @hookimpl
        def cinco_legal_spaces(self, state: GameState, seat: int, card: int) -> Any:
            return answer(state) if callable(answer) else answer

    return Rules()


def end_rules(answer: Any) -> object:
    class Rules:
        @hookimpl
        def cinco_game_end(self, state: GameState, command: Command) -> Any:
            return answer

    return Rules()


def refused_naming_the_plugin(game: Game, command: Command, hook: str) -> RuleHookError:
    before = list(game.events)
    state = game.state
    with pytest.raises(RuleHookError) as caught:
        game.execute(command)
    error = caught.value
    assert error.hook == hook and "'odd'" in error.plugin and "Plugin" in error.plugin
    assert "'odd'" in error.message and "unchanged" in error.message
    assert list(game.events) == before and game.state is state
    return error


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        ("x", "not a tuple"),
        ([200], "200"),
        ((0,), "numbered 1 to 90"),
        ((True,), "not a space"),
        ((40.0,), "not a space"),
        ((50, 50), "twice"),
        (5, "not a tuple"),
    ],
)
def test_legal_spaces_of_garbage_refuse_the_command_naming_the_plugin(
    answer: Any, says: str
) -> None:
    game = game_with(spaces_rules(answer))
    card = min(game.state.hands[0])
    error = refused_naming_the_plugin(game, PlayCard(0, card, 60), "cinco_legal_spaces")
    assert says in error.message
    with pytest.raises(RuleHookError):
        game.legal_actions(0)


def test_legal_spaces_naming_a_taken_space_are_refused() -> None:
    """A space already covered would make the turn's events impossible to fold."""

    def taken(state: GameState) -> tuple[int, ...] | None:
        covered = [n for n in range(1, 91) if not state.is_free(n)]
        return tuple(covered[:1]) or None  # nothing covered yet: the standard rule

    game = game_with(spaces_rules(taken))
    first = min(game.state.hands[0])
    game.execute(PlayCard(0, first, first))
    card = min(game.state.hands[1])
    error = refused_naming_the_plugin(game, PlayCard(1, card, first), "cinco_legal_spaces")
    assert f"space {first}, which is taken" in error.message


def test_a_list_of_free_spaces_is_a_fine_answer() -> None:
    game = game_with(spaces_rules(lambda state: list(state.free_spaces(1))))
    card = max(game.state.hands[0])
    spaces = game.legal_actions(0).spaces_for(card)
    assert type(spaces) is tuple and spaces[0] == 1
    game.execute(PlayCard(0, card, 1))  # below the card: the variant allows it
    assert game.state.owner(1) == 0


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        (5, "not an Outcome"),
        ("line", "not an Outcome"),
        (Outcome(winner=7, reason="line"), "winner 7"),
        (Outcome(winner=True, reason="line"), "winner True"),  # type: ignore[arg-type]
        (Outcome(winner=0, reason=""), "reason"),
        (Outcome(winner=0, reason=3), "reason"),  # type: ignore[arg-type]
        (Outcome(winner=0, reason="six", line=(1, 200)), "line"),
        (Outcome(winner=0, reason="six", over="yes"), "over"),  # type: ignore[arg-type]
    ],
)
def test_a_game_end_of_garbage_refuses_the_command_naming_the_plugin(answer: Any, says: str):
    game = game_with(end_rules(answer))
    card = min(game.state.hands[0])
    error = refused_naming_the_plugin(game, PlayCard(0, card, card), "cinco_game_end")
    assert says in error.message


def test_a_good_game_end_is_used_a_line_as_a_list_becoming_a_tuple() -> None:
    game = game_with(end_rules(Outcome(winner=1, reason="six", line=[1, 2, 3])))  # type: ignore[arg-type]
    card = min(game.state.hands[0])
    ended = game.execute(PlayCard(0, card, card))[-1]
    assert ended.type == "game_ended" and ended.line == (1, 2, 3)  # type: ignore[attr-defined]
    assert game.state.result is not None and game.state.result.winner == 1


def test_notice_parameters_stay_immutable_whatever_a_plugin_passes() -> None:
    """A plugin's notice with a nested object keeps an immutable, JSON-able value."""
    import json as json_module

    from cinco.core.words.messages import freeze

    frozen = freeze({"cards": [3, 4], "detail": {"a": [1]}, "names": ["x"]})
    assert dict(frozen)["cards"] == (3, 4)
    assert all(isinstance(value, str) for key, value in frozen if key != "cards")
    hash(frozen)
    json_module.dumps(dict(frozen))
