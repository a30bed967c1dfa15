"""Actions a variant declares (hook API 3): listed, checked, decided, folded, projected, recorded
and checked again like the built-in ones (issue 25)."""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from dataclasses import replace

import pytest

from cinco.core.engine.actions import ActionSpec, Effect, Place, Remove, Take, spec_problem
from cinco.core.engine.commands import Act, Draw, PlayCard, check_command, command_from_dict
from cinco.core.engine.config import GameConfig
from cinco.core.engine.errors import (
    ActionRefused,
    EventError,
    MalformedCommand,
    PluginError,
    RuleHookError,
)
from cinco.core.engine.events import (
    REFEREE,
    ActionTaken,
    CardPlayed,
    Event,
    GameEnded,
    TokenRemoved,
    TurnEnded,
    event_from_dict,
)
from cinco.core.engine.legal import legal_actions
from cinco.core.engine.oracle import RulesOracle
from cinco.core.engine.rules import RuleSet, decide, setup_events
from cinco.core.engine.state import FREE, GameState, evolve, fold, project
from cinco.core.engine.verify import TurnError, check_log
from cinco.core.hooks.hookspecs import HOOK_API_VERSION, OLDEST_HOOK_API_VERSION, hookimpl
from cinco.core.host.declarations import Variant
from cinco.core.host.registry import Registry


def capture_options(state: GameState, seat: int) -> list[tuple[int, int]]:
    team = state.team_of(seat)
    return [
        (card, space)
        for card in sorted({c for c in state.hands[seat] if 1 <= c <= 30})
        for space in range(card, 91)
        if state.owner(space) not in (None, team)
    ]


def capture_effects(state: GameState, seat: int, values: Mapping[str, int]) -> list[Effect]:
    return [Remove(values["space"]), Place(values["card"], values["space"])]


CAPTURE = ActionSpec(
    "capture",
    ("card", "space"),
    capture_options,
    capture_effects,
    narration="{name} captured {space} with a {card}",
    key="c",
)
#: A pass: nothing happens, the turn goes on to the next seat.
PASS = ActionSpec("pass", (), lambda state, seat: [()], lambda state, seat, values: [])
#: Play two cards at once, each on its own number (both must be free).
PLAY_TWO = ActionSpec(
    "two",
    ("first", "second"),
    lambda state, seat: [
        (a, b)
        for a in state.hands[seat]
        for b in state.hands[seat]
        if a < b and state.is_free(a) and state.is_free(b)
    ],
    lambda state, seat, v: [Place(v["first"], v["first"]), Place(v["second"], v["second"])],
)
#: Burn a card to take two.
REFILL = ActionSpec(
    "refill",
    ("card",),
    lambda state, seat: [(c,) for c in state.hands[seat]],
    lambda state, seat, v: [Place(v["card"], None), Take(2)],
)


class Declares:
    """A variant's rules declaring *specs*."""

    def __init__(self, *specs: ActionSpec) -> None:
        self.specs = list(specs)

    @hookimpl
    def cinco_declare_actions(self) -> list[ActionSpec]:
        return self.specs


def game(rules: RuleSet, seed: int = 4, players: int = 2) -> list[Event]:
    return setup_events(GameConfig.for_players(players, seed=seed, first_seat=0))


def play(log: list[Event], rules: RuleSet, command: object) -> GameState:
    state = fold(log)
    log.extend(decide(state, command, rules))  # type: ignore[arg-type]
    return fold(log)


def placed(log: list[Event], rules: RuleSet) -> GameState:
    """*log* after seat 0 places a token with its first card and seat 1 draws (if it can)."""
    state = fold(log)
    card = state.hands[0][0]
    state = play(log, rules, PlayCard(0, card, legal_actions(state, rules).spaces_for(card)[0]))
    legal = legal_actions(state, rules)
    return play(log, rules, next(iter(legal)))


def test_the_api_is_3_and_still_runs_api_1_and_2_plugins() -> None:
    assert HOOK_API_VERSION == 3 and OLDEST_HOOK_API_VERSION == 1


def test_a_capture_is_listed_decided_and_folded_into_the_board() -> None:
    rules = RuleSet([Declares(CAPTURE)], names=["capture"])
    log = game(rules)
    state = fold(log)
    assert not legal_actions(state, rules).acts  # nothing to capture on an empty board
    card = next(c for c in state.hands[0] if c > 30)
    state = play(log, rules, PlayCard(0, card, card))
    legal = legal_actions(state, rules)
    low = [c for c in state.hands[1] if c <= card and c <= 30]
    assert low  # the deal of seed 4 gives seat 1 a card that captures
    target = Act(1, "capture", (("card", low[0]), ("space", card)))
    assert target in legal and target in list(legal)
    assert len(legal) == len(list(legal)) and legal[len(legal) - 1] == legal.acts[-1]
    events = decide(state, target, rules)
    assert [type(e) for e in events] == [ActionTaken, TokenRemoved, CardPlayed, TurnEnded]
    assert events[0] == ActionTaken(1, "capture", (low[0], card))
    assert events[-1] == TurnEnded(1, "capture", 0)
    log.extend(events)
    after = fold(log)
    assert after.owner(card) == 1 and after.tokens == (0, 1)
    assert low[0] not in after.hands[1] and after.discard_pile[-1] == low[0]
    assert check_log(log, rules) == len(log)  # the checker knows the action


def test_the_fields_may_come_in_any_order_and_unknown_actions_are_malformed() -> None:
    rules = RuleSet([Declares(PASS, CAPTURE)], names=["v"])
    state = fold(game(rules))
    assert decide(state, Act(0, "pass", ()), rules)[-1] == TurnEnded(0, "pass", 1)
    with pytest.raises(MalformedCommand, match="no action 'fly'"):
        decide(state, Act(0, "fly", ()), rules)
    with pytest.raises(MalformedCommand, match="takes the fields card, space"):
        decide(state, Act(0, "capture", (("card", 1),)), rules)
    with pytest.raises(ActionRefused, match=r"That capture is not allowed now \(card 1, sp"):
        decide(state, Act(0, "capture", (("space", 40), ("card", 1))), rules)
    with pytest.raises(MalformedCommand):
        check_command(Act(0, "capture", (("card", 1.0), ("space", 40))))  # type: ignore[arg-type]
    with pytest.raises(MalformedCommand):
        check_command(Act(0, "draw", ()))  # a built-in's name is not a declared action


def test_pass_play_two_and_refill_are_actions_too() -> None:
    rules = RuleSet([Declares(PASS, PLAY_TWO, REFILL)], names=["v"])
    log = game(rules, seed=9)
    state = fold(log)
    hand = sorted(state.hands[0])
    two = Act(0, "two", (("first", hand[0]), ("second", hand[1])))
    assert two in legal_actions(state, rules)
    state = play(log, rules, two)
    assert state.owner(hand[0]) == 0 and state.owner(hand[1]) == 0 and state.tokens == (2, 0)
    state = play(log, rules, Act(1, "pass", ()))
    assert state.current_seat == 0 and len(state.hands[1]) == 4
    card = state.hands[0][0]
    state = play(log, rules, Act(0, "refill", (("card", card),)))
    assert len(state.hands[0]) == 3  # two left, one burned, two drawn, up to the limit of 4
    assert check_log(log, rules) == len(log)


def test_a_capture_that_makes_a_line_wins_E1() -> None:
    """E1: a token a declared action places wins like any other."""
    rules = RuleSet([Declares(CAPTURE)], names=["capture"])
    state = fold(game(rules))
    board = list(state.board)
    for space in (89, 38, 39, 40):  # B5: 89, 38, 39, 40, 41 is a line
        board[space] = 0
    board[41] = 1
    hands = list(state.hands)
    hands[0] = (1, *hands[0][1:])
    state = replace(state, board=tuple(board), hands=tuple(hands), tokens=(4, 1))
    events = decide(state, Act(0, "capture", (("card", 1), ("space", 41))), rules)
    last = events[-1]
    assert isinstance(last, GameEnded) and last.winner == 0 and last.reason == "line"
    assert last.action == "capture" and set(last.line or ()) == {89, 38, 39, 40, 41}


def test_the_events_round_trip_as_version_4_and_an_older_version_is_refused() -> None:
    for event in (ActionTaken(0, "capture", (1, 34)), TokenRemoved(1, 34)):
        data = event.to_dict()
        assert data["v"] == 4
        assert event_from_dict(data) == event
        assert event.seen_by(0) == event == event.seen_by(None)  # public
    with pytest.raises(EventError, match="version 5"):
        event_from_dict({**TokenRemoved(1, 34).to_dict(), "v": 5})
    with pytest.raises(EventError, match="version 4"):
        event_from_dict({**CardPlayed(0, 3, 4).to_dict(), "v": 4})  # unchanged since 2


def test_the_command_round_trips_with_the_games_action_names() -> None:
    act = Act(0, "capture", (("card", 1), ("space", 34)))
    assert command_from_dict(act.to_dict(), actions=("capture",)) == act
    with pytest.raises(EventError):
        command_from_dict(act.to_dict())  # a game without it: unknown
    with pytest.raises(EventError):
        command_from_dict({**act.to_dict(), "card": True}, actions=("capture",))


def test_the_fold_refuses_removing_a_free_space() -> None:
    state = fold(game(RuleSet()))
    with pytest.raises(EventError, match="no token on space 40"):
        evolve(state, TokenRemoved(0, 40))


def test_a_players_view_folds_to_the_projection() -> None:
    rules = RuleSet([Declares(CAPTURE, REFILL)], names=["v"])
    log = game(rules, seed=2)
    for _turn in range(30):
        state = fold(log)
        if state.result is not None:
            break
        legal = legal_actions(state, rules)
        command = legal.acts[0] if legal.acts else legal[0]
        log.extend(decide(state, command, rules))
    assert any(type(e) is ActionTaken for e in log)
    referee = fold(log)
    for viewer in (0, 1, None):
        seen = fold([e.seen_by(viewer) for e in log])
        assert seen == project(referee, viewer, seen.config)
        assert fold([e.seen_by(REFEREE) for e in log]) == referee


def test_the_checker_refuses_an_action_the_rules_do_not_allow() -> None:
    rules = RuleSet([Declares(CAPTURE)], names=["capture"])
    log = game(rules)
    state = fold(log)
    card = state.hands[0][0]
    # Seat 0 "captures" an empty space: the fold refuses the removal, the checker says so.
    forged = [ActionTaken(0, "capture", (card, 50)), TokenRemoved(0, 50)]
    with pytest.raises(TurnError):
        check_log([*log, *forged], rules)
    # A game without the variant refuses the action itself.
    with pytest.raises(TurnError, match="no action 'capture'"):
        check_log([*log, ActionTaken(0, "capture", (card, 50))], RuleSet())


def test_failing_options_or_effects_refuse_the_command_naming_the_plugin() -> None:
    def broken(state: GameState, seat: int) -> Sequence[tuple[int]]:
        raise ZeroDivisionError("oops")

    rules = RuleSet([Declares(ActionSpec("bad", ("n",), broken, capture_effects))], ["bad one"])
    state = fold(game(rules))
    with pytest.raises(RuleHookError) as refused:
        legal_actions(state, rules)
    assert refused.value.plugin == "bad one" and refused.value.hook == "bad.options"
    wrong = ActionSpec("odd", (), lambda s, n: [()], lambda s, n, v: [Remove(40)])
    rules = RuleSet([Declares(wrong)], ["odd one"])
    with pytest.raises(RuleHookError, match="odd one"):
        decide(fold(game(rules)), Act(0, "odd", ()), rules)
    assert fold(game(rules)).board[40] == FREE  # nothing changed


def test_declarations_are_checked() -> None:
    assert spec_problem(PASS) is None
    bad = [
        ActionSpec("Pass", (), PASS.options, PASS.effects),
        ActionSpec("exchange", (), PASS.options, PASS.effects),
        ActionSpec("hop", ("seat",), PASS.options, PASS.effects),
        ActionSpec("hop", ("a", "a"), PASS.options, PASS.effects),
        ActionSpec("hop", (), PASS.options, PASS.effects, key="C!"),
    ]
    assert all(spec_problem(spec) for spec in bad)
    with pytest.raises(PluginError, match="twice"):
        RuleSet([Declares(PASS, PASS)], ["v"])


def test_the_oracle_lists_and_decides_the_actions_as_the_rules_do() -> None:
    rules = RuleSet([Declares(PASS)], names=["v"])
    oracle = RulesOracle.of(rules)
    state = fold(game(rules))
    assert oracle.declared == rules.declared == (PASS,)
    assert oracle.legal_actions(state).acts == (Act(0, "pass", ()),)
    assert oracle.decide(state, Act(0, "pass", ())) == decide(state, Act(0, "pass", ()), rules)
    assert Draw(0) not in oracle.legal_actions(state)  # a full hand, as ever


def test_a_variant_declaring_a_bad_action_is_left_out_at_registration() -> None:
    """``cinco plugins`` says what is wrong; the plugin's good variant is kept."""
    plugin = types.ModuleType("declares_badly")
    plugin.CINCO_HOOK_API = 3  # type: ignore[attr-defined]
    bad = ActionSpec("draw", (), PASS.options, PASS.effects)
    plugin.cinco_register_variants = hookimpl(  # type: ignore[attr-defined]
        lambda: [
            Variant("bad", "Bad.", rules=Declares(bad)),
            Variant("good", "Good.", rules=Declares(PASS)),
        ]
    )
    registry = Registry(entry_points=False, plugins=[plugin])
    assert "good" in registry.variants() and "bad" not in registry.variants()
    messages = [p.message for p in registry.problems if p.plugin == "declares_badly"]
    assert any("its action 'draw'" in m and "built-in" in m for m in messages), messages
