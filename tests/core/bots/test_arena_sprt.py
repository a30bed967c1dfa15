"""``cinco arena --sprt``: the sequential test's arithmetic, its error rates on synthetic
results, where it stops, and the command line."""

from __future__ import annotations

import json
import math
import random

import pytest
from click.testing import CliRunner

from cinco.core.bots.matches import ArenaSpec, GameResult, parse_entrants
from cinco.core.bots.statistics import Sprt, bernoulli_llr, expected_score
from cinco.core.bots.tournament import _Collector, run
from cinco.core.engine.errors import ConfigError
from cinco.frontends.main import main


def arena(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["arena", *args])
    return result.exit_code, result.output


# -- the arithmetic, against values worked out by hand ------------------------------------------


def test_the_llr_is_walds_for_a_bernoulli_variable() -> None:
    # p0 = 1/2, p1 = 3/4: a win adds ln(3/2), a loss ln(1/2).
    assert math.isclose(bernoulli_llr(3, 1, 0.5, 0.75), 3 * 0.4054651081 - 0.6931471806)
    assert bernoulli_llr(0, 0, 0.5, 0.75) == 0
    # Elo 0 against Elo 50: p1 = 1 / (1 + 10^(-1/8)) = 0.5714631174.
    assert math.isclose(expected_score(50), 0.5714631174083814)
    test = Sprt(elo0=0, elo1=50, alpha=0.05, beta=0.05)
    # 10 ln(p1 / p0) + 3 ln((1 - p1) / (1 - p0)) = 10 × 0.1335918463 − 3 × 0.1542312904
    assert math.isclose(test.llr(10, 3), 0.8732245915310509)
    # ln(β / (1 − α)) and ln((1 − β) / α): ln(0.05 / 0.95) = −2.9444389792
    lower, upper = test.bounds
    assert math.isclose(lower, -2.9444389791664403) and math.isclose(upper, -lower)
    uneven = Sprt(alpha=0.01, beta=0.1)
    assert math.isclose(uneven.bounds[0], math.log(0.1 / 0.99))
    assert math.isclose(uneven.bounds[1], math.log(0.9 / 0.01))


def test_the_verdict_changes_exactly_at_the_bounds() -> None:
    test = Sprt(elo0=0, elo1=50)
    # 2.9444 / 0.13359 = 22.04 wins in a row; 2.9444 / 0.15423 = 19.09 losses in a row.
    assert test.verdict(22, 0) is None and test.verdict(23, 0) == "H1"
    assert test.verdict(0, 19) is None and test.verdict(0, 20) == "H0"
    # Balanced results drift towards H0 (p1 > 1/2): each win-loss pair adds −0.0206.
    assert test.verdict(100, 100) is None and test.verdict(143, 143) == "H0"


@pytest.mark.parametrize(
    "settings",
    [
        {"alpha": 0.0},
        {"alpha": 0.5},
        {"beta": -0.1},
        {"elo0": 50, "elo1": 50},
        {"elo0": 10, "elo1": 0},
        {"elo1": 5000},
    ],
)
def test_settings_that_make_no_test_are_refused(settings: dict[str, float]) -> None:
    with pytest.raises(ConfigError, match="SPRT"):
        Sprt(**settings)


# -- error rates on synthetic result sequences --------------------------------------------------


def sequential(test: Sprt, p: float, rng: random.Random, cap: int = 20_000) -> str | None:
    wins = losses = 0
    for _game in range(cap):
        if rng.random() < p:
            wins += 1
        else:
            losses += 1
        verdict = test.verdict(wins, losses)
        if verdict is not None:
            return verdict
    return None


@pytest.mark.parametrize(("alpha", "beta"), [(0.05, 0.05), (0.1, 0.02)])
def test_the_error_rates_hold_on_synthetic_matches(alpha: float, beta: float) -> None:
    """1,000 simulated matches where H0 holds accept H1 at most α of the time (plus three
    standard errors of the estimate), and where H1 holds accept H0 at most β of the time.
    Wald's bounds are conservative: the observed rates lie below α and β."""
    test = Sprt(elo0=0, elo1=100, alpha=alpha, beta=beta)
    rng = random.Random(2026)
    runs = 1000
    under_h0 = [sequential(test, expected_score(0), rng) for _ in range(runs)]
    under_h1 = [sequential(test, expected_score(100), rng) for _ in range(runs)]
    assert None not in under_h0 and None not in under_h1  # every match decides
    false_h1 = under_h0.count("H1") / runs
    false_h0 = under_h1.count("H0") / runs
    assert false_h1 <= alpha + 3 * math.sqrt(alpha * (1 - alpha) / runs)
    assert false_h0 <= beta + 3 * math.sqrt(beta * (1 - beta) / runs)
    # ... and the test has power: it mostly gets it right.
    assert under_h0.count("H0") / runs > 0.85 and under_h1.count("H1") / runs > 0.85


def test_a_large_difference_is_found_in_few_games() -> None:
    """Wald's approximation of the expected length under p = 0.95 (a bot that wins almost
    everything): upper / E[step] = 2.944 / (0.95 × 0.2412 + 0.05 × (−0.3151)) ≈ 13.8."""
    test = Sprt(elo0=0, elo1=100)
    rng = random.Random(7)
    lengths = []
    for _run in range(200):
        wins = losses = 0
        while test.verdict(wins, losses) is None:
            if rng.random() < 0.95:
                wins += 1
            else:
                losses += 1
        lengths.append(wins + losses)
    assert 10 <= sum(lengths) / len(lengths) <= 20


# -- where the arena stops ----------------------------------------------------------------------


def result(index: int, winner: int | None) -> GameResult:
    teams = (0, 1) if index % 2 == 0 else (1, 0)
    return GameResult(index, index // 2, teams, winner, "line", 10, 0)


def test_the_test_reads_results_in_the_games_order_whatever_order_they_come_in() -> None:
    """Results arrive from the workers in any order; the test stops at the same game."""
    rng = random.Random(5)
    games = [result(k, rng.choice([0, 0, 0, 1])) for k in range(400)]
    stops = set()
    for shuffle in range(5):
        arrived = list(games)
        random.Random(shuffle).shuffle(arrived)
        collector = _Collector(Sprt(elo0=0, elo1=100), None)
        for k in range(0, len(arrived), 7):
            collector.add(arrived[k : k + 7])
        assert collector.done
        kept = collector.results()
        assert [r.index for r in kept] == list(range(len(kept)))
        stops.add((collector.stop_at, collector.tally))
    assert len(stops) == 1


def test_random_against_greedy_accepts_h1_quickly() -> None:
    spec = ArenaSpec(entrants=parse_entrants("greedy,random"), games=500, seed=11)
    report = run(spec, jobs=1, sprt=Sprt(elo0=0, elo1=50))
    assert report.sprt is not None and report.sprt.verdict == "H1"
    assert len(report.results) <= 40  # greedy wins about every game: 23 in a row suffice
    assert report.sprt.llr >= report.sprt.upper
    # The same match, the other way round: H0 (random is not 50 Elo stronger than greedy).
    reverse = ArenaSpec(entrants=parse_entrants("random,greedy"), games=500, seed=11)
    back = run(reverse, jobs=2, sprt=Sprt(elo0=0, elo1=50), batch=3)
    assert back.sprt is not None and back.sprt.verdict == "H0"
    assert back.sprt.llr <= back.sprt.lower


def test_identical_bots_do_not_accept_h1_in_most_seeds() -> None:
    accepted = []
    for seed in range(4):
        spec = ArenaSpec(entrants=parse_entrants("greedy,greedy"), games=200, seed=seed * 1000)
        report = run(spec, jobs=2, sprt=Sprt(elo0=0, elo1=100))
        assert report.sprt is not None
        accepted.append(report.sprt.verdict)
    assert accepted.count("H1") <= 1, accepted
    assert accepted.count("H0") >= 3, accepted  # balanced results drift below the bound


def test_the_stop_is_the_same_on_one_process_and_on_workers_in_batches() -> None:
    spec = ArenaSpec(entrants=parse_entrants("greedy,random"), games=300, seed=3)
    test = Sprt(elo0=0, elo1=50)
    alone = run(spec, jobs=1, sprt=test)
    spread = run(spec, jobs=2, batch=5, sprt=test)
    assert alone.results == spread.results and alone.sprt == spread.sprt


# -- the command line ---------------------------------------------------------------------------


def test_the_command_reports_llr_bounds_and_verdict() -> None:
    code, output = arena("--bots", "greedy,random", "--sprt", "--jobs", "1", "--json")
    assert code == 0, output
    report = json.loads(output)
    sprt = report["sprt"]
    assert sprt["verdict"] == "H1" and sprt["elo0"] == 0 and sprt["elo1"] == 50
    assert sprt["llr"] >= sprt["upper"] == pytest.approx(2.9444, abs=1e-4)
    assert report["games"] == sprt["wins"] + sprt["draws"] + sprt["losses"] < 100
    code, output = arena("--bots", "greedy,random", "--sprt", "--elo1", "20", "--alpha", "0.01")
    assert code == 0, output
    assert "H1 accepted" in output and "LLR" in output and "bounds" in output


def test_an_undecided_match_says_so() -> None:
    code, output = arena("--bots", "greedy,greedy", "--sprt", "--games", "4", "--jobs", "1")
    assert code == 0, output
    assert "No verdict" in output and "raise --games" in output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bots", "greedy,random,greedy", "--players", "3", "--sprt"), "exactly two bots"),
        (("--bots", "greedy", "--sprt"), "exactly two bots"),
        (("--bots", "greedy,random", "--elo1", "30"), "add --sprt"),
        (("--bots", "greedy,random", "--sprt", "--elo0", "60"), "greater than its elo0"),
        (("--bots", "greedy,random", "--sprt", "--alpha", "0.7"), "--alpha"),
    ],
)
def test_bad_sprt_settings_are_explained(args: tuple[str, ...], message: str) -> None:
    code, output = arena(*args, "--games", "2", "--jobs", "1")
    assert code != 0 and message in output and "Traceback" not in output, output


def test_a_match_of_a_trillion_games_streams_and_stops() -> None:
    """The games are made as the workers need them: a trillion-game cap costs nothing."""
    spec = ArenaSpec(entrants=parse_entrants("greedy,random"), games=10**12, seed=2)
    report = run(spec, jobs=2, batch=4, sprt=Sprt(elo0=0, elo1=50))
    assert report.sprt is not None and report.sprt.verdict == "H1"
    assert len(report.results) < 100
