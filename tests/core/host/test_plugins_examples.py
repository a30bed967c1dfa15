"""The example third-party plugins in docs/examples, installed with pip and played through the
``cinco`` command, with no change to Cinco (issue 6).

They are installed into a throwaway folder (``pip install --target``) put on ``PYTHONPATH`` of
the commands run here, so the test environment itself is never changed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from example_plugins import EXAMPLES, install_examples, with_site

from cinco import ActionTaken, CardPlayed, GameStarted, fold, load_record

PACKAGES = (
    "cinco-lucky7",
    "cinco-neighbourly",
    "cinco-hand-of-five",
    "cinco-no-exchange",
    "cinco-four-in-a-row",
    "cinco-eight",
    "cinco-capture",
)
#: The hook API 2 examples: distribution, variant, and the parameters it records.
VARIANTS = (
    ("cinco-hand-of-five", "hand5", {"hand_limit": 5, "deal": 5, "exchange_size": 5}),
    ("cinco-no-exchange", "no-exchange", None),
    ("cinco-four-in-a-row", "four-in-a-row", {"winning_length": 4}),
)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding every example distribution, installed by pip."""
    return install_examples(
        PACKAGES,
        tmp_path_factory.mktemp("example-sources"),
        tmp_path_factory.mktemp("site-packages"),
    )


def environment(*paths: Path) -> dict[str, str]:
    env = with_site(*paths)
    env.pop("COLUMNS", None)
    return env


def cinco(
    args: Sequence[str], *paths: Path, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the ``cinco`` command installed beside this Python."""
    script = Path(sys.executable).with_name("cinco")
    command = (
        [str(script)]
        if script.exists()
        else [
            sys.executable,
            "-c",
            "import sys; from cinco.frontends.main import main; sys.exit(main())",
        ]
    )
    return subprocess.run(
        [*command, *args],
        capture_output=True,
        text=True,
        env=environment(*paths),
        cwd=cwd,
        timeout=300,
    )


def test_cinco_plugins_lists_the_installed_examples(site: Path) -> None:
    result = cinco(["plugins", "--json"], site)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    plugins = {plugin["name"]: plugin for plugin in data["plugins"]}
    lucky = plugins["lucky7"]
    assert (lucky["origin"], lucky["distribution"], lucky["version"], lucky["hook_api"]) == (
        "entry point",
        "cinco-lucky7",
        "1.0.0",
        1,
    )
    assert lucky["hooks"] == ["cinco_register_variants"]
    assert lucky["variant_hooks"] == {"lucky7": ["cinco_legal_spaces"]}
    bot = plugins["neighbourly"]
    assert bot["distribution"] == "cinco-neighbourly" and bot["bots"] == ["neighbourly"]
    assert data["problems"] == [] and data["conflicts"] == []
    text = cinco(["plugins"], site).stdout
    assert "lucky7  (entry point, cinco-lucky7 1.0.0, hook API 1)" in text


def test_simulate_with_the_example_variant_and_bot(site: Path, tmp_path: Path) -> None:
    records = tmp_path / "records"
    result = cinco(
        [
            "simulate",
            "--variant",
            "lucky7",
            "--bots",
            "neighbourly,greedy",
            "--games",
            "5",
            "--seed",
            "11",
            "--records",
            str(records),
            "--json",
        ],
        site,
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["games"] == 5
    assert sum(summary["wins"].values()) + summary["draws"] == 5
    files = sorted(records.glob("*.jsonl"))
    assert len(files) == 5
    for path in files:
        # The rules are checked by `cinco replay` below, where the variant is installed.
        events = load_record(path, check_rules=False).events
        started = events[0]
        assert isinstance(started, GameStarted)
        assert started.config.variants == ("lucky7",)
        assert [seat.bot for seat in started.config.seats] == ["neighbourly", "greedy"]
        # No move had to be replaced, and every card but the 7 obeyed A1.
        assert not [e for e in events if e.type == "notice"]
        for event in events:
            if isinstance(event, CardPlayed) and event.space is not None and event.card != 7:
                assert event.space >= event.card
        replay = cinco(["replay", str(path), "--json"], site)
        assert replay.returncode == 0, replay.stderr
        assert json.loads(replay.stdout)


@pytest.mark.parametrize(("distribution", "variant", "params"), VARIANTS)
def test_api_2_variants_are_played_by_every_bot(
    site: Path, tmp_path: Path, distribution: str, variant: str, params: dict[str, int] | None
) -> None:
    """Each hook API 2 example is listed as API 2, and played by random, greedy and ismcts with
    no replaced move; its records hold its parameters and replay with the rules checked."""
    listing = json.loads(cinco(["plugins", "--json"], site).stdout)
    plugins = {plugin["distribution"]: plugin for plugin in listing["plugins"]}
    assert plugins[distribution]["hook_api"] == 2
    assert listing["problems"] == []
    rules = cinco(["rules", "--variant", variant], site)
    assert rules.returncode == 0, rules.stderr
    # The variant has no title: its heading is its name in words ("Four in a row").
    headings = [line[4:] for line in rules.stdout.splitlines() if line.startswith("### ")]
    assert [h.lower().replace(" ", "-") for h in headings] == [variant], headings
    if params:
        assert "Game parameters:" in rules.stdout
    records = tmp_path / "records"
    result = cinco(
        [
            "simulate",
            "--variant",
            variant,
            "--bots",
            "ismcts:easy,greedy,random",
            "--players",
            "3",
            "--games",
            "3",
            "--seed",
            "5",
            "--records",
            str(records),
            "--json",
        ],
        site,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 3
    for path in sorted(records.glob("*.jsonl")):
        events = load_record(path, check_rules=False).events
        started = events[0]
        assert isinstance(started, GameStarted) and started.config.variants == (variant,)
        assert started.config.params.to_dict() == (params or {})
        assert not [e for e in events if e.type == "notice"]  # no bot_replaced
        if variant == "no-exchange":
            assert not [e for e in events if e.type == "hand_discarded"]
        replay = cinco(["replay", str(path), "--json"], site)
        assert replay.returncode == 0, replay.stderr


def test_the_examples_own_tests_pass_once_installed(site: Path, tmp_path: Path) -> None:
    for name in PACKAGES:
        tests = tmp_path / name
        shutil.copytree(EXAMPLES / name / "tests", tests / "tests")
        shutil.copy(EXAMPLES / name / "pyproject.toml", tests)
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "-p",
                "no:xdist",
                "tests",
            ],
            capture_output=True,
            text=True,
            cwd=tests,
            env=environment(site),
            timeout=300,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        assert "passed" in result.stdout and "skipped" not in result.stdout, result.stdout


def fake_distribution(root: Path, dist: str, name: str, module: str) -> None:
    info = root / f"{dist.replace('-', '_')}-2.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 2.0\n")
    (info / "entry_points.txt").write_text(f"[cinco]\n{name} = {module}\n")


def test_broken_and_incompatible_plugins_do_not_stop_cinco(site: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken-site"
    broken.mkdir()
    (broken / "cinco_crash.py").write_text("1 / 0\n")
    (broken / "cinco_future.py").write_text("CINCO_HOOK_API = 7\n")
    fake_distribution(broken, "cinco-crash", "crash", "cinco_crash")
    fake_distribution(broken, "cinco-future", "future", "cinco_future")
    result = cinco(
        ["simulate", "--bots", "neighbourly,random", "--games", "2", "--json"], site, broken
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 2
    # Reported on stderr, naming the entry point, its distribution and what to upgrade.
    assert "'crash'" in result.stderr and "cinco-crash 2.0" in result.stderr
    assert "ZeroDivisionError" in result.stderr and "Traceback" not in result.stderr
    assert "'future'" in result.stderr and "upgrade Cinco" in result.stderr
    listing = cinco(["plugins"], site, broken)
    assert listing.returncode == 0
    assert "Plugins that failed" in listing.stdout and "cinco-future" in listing.stdout


def test_eight_players_through_the_commands(site: Path, tmp_path: Path) -> None:
    """cinco-eight's layouts and team style are listed; random, greedy and ismcts play 2x4
    and 4x2 with no move replaced; the records name the plugin and replay with it, and a
    Cinco without it says what to install."""
    listing = json.loads(cinco(["plugins", "--json"], site).stdout)
    eight = next(p for p in listing["plugins"] if p["name"] == "eight")
    assert (eight["distribution"], eight["layouts"]) == ("cinco-eight", ["2x4", "4x2"])
    assert [style["name"] for style in eight["team_styles"]] == ["green"]
    assert [style["name"] for style in listing["team_styles"]][3] == "green"
    assert listing["problems"] == []
    text = cinco(["plugins"], site).stdout
    assert "team styles: green #009E73" in text
    for layout, bots, turns in (
        ("2x4", "random,greedy", "600"),
        ("4x2", "random,greedy", "600"),
        # Eight seats make the search slow: its games are cut short (a draw), kept cheap.
        ("2x4", "ismcts:easy,greedy", "30"),
        ("4x2", "ismcts:easy,random", "30"),
    ):
        records = tmp_path / f"{layout}-{bots}"
        result = cinco(
            [
                *("simulate", "--players", "8", "--layout", layout, "--bots", bots),
                *("--games", "1", "--seed", "3", "--turn-limit", turns),
                *("--records", str(records), "--json"),
            ],
            site,
        )
        assert result.returncode == 0, result.stderr
        summary = json.loads(result.stdout)
        assert summary["games"] == 1
        assert set(summary["replaced_moves"].values()) == {0}, summary
        (record,) = records.glob("*.jsonl")
        header = json.loads(record.read_text().splitlines()[0])
        assert header["layouts"] == {
            layout: {"distribution": "cinco-eight", "version": "1.0.0", "entry_point": "eight"}
        }
        replay = cinco(["replay", str(record), "--json"], site)
        assert replay.returncode == 0, replay.stderr
    without = cinco(["replay", str(record), "--json"])
    assert without.returncode == 1
    assert "pip install 'cinco-eight>=1.0.0'" in without.stderr
    assert "entry point eight" in without.stderr


def test_a_parameters_only_variant_replays_without_its_plugin(site: Path, tmp_path: Path) -> None:
    """A hand5 record (written by simulate) names its plugin, and replays where it is not
    installed, with its recorded parameters and a notice saying so and what to install."""
    records = tmp_path / "records"
    result = cinco(
        [
            *("simulate", "--variant", "hand5", "--bots", "greedy,random", "--games", "1"),
            *("--records", str(records)),
        ],
        site,
    )
    assert result.returncode == 0, result.stderr
    (record,) = records.glob("*.jsonl")
    header = json.loads(record.read_text().splitlines()[0])
    assert header["variants"]["hand5"] == {
        "distribution": "cinco-hand-of-five",
        "version": "1.0.0",
        "entry_point": "hand5",
        "hooks": ["cinco_game_params"],
    }
    with_plugin = cinco(["replay", str(record), "--json"], site)
    without = cinco(["replay", str(record), "--json"])
    assert without.returncode == 0, without.stderr
    assert json.loads(without.stdout) == json.loads(with_plugin.stdout)
    assert "'hand5'" in without.stderr and "is not installed here" in without.stderr
    assert "pip install 'cinco-hand-of-five>=1.0.0'" in without.stderr
    # A variant with rules of its own (lucky7: where a card may go) still needs its plugin.
    result = cinco(
        [
            *("simulate", "--variant", "lucky7", "--bots", "greedy", "--games", "1"),
            *("--records", str(tmp_path / "lucky")),
        ],
        site,
    )
    (lucky,) = (tmp_path / "lucky").glob("*.jsonl")
    refused = cinco(["replay", str(lucky), "--json"])
    assert refused.returncode == 1
    assert "pip install 'cinco-lucky7>=1.0.0'" in refused.stderr


# -- hook API 3: the capture example declares an action of its own (issue 25) ----------------


def test_the_capture_example_is_played_by_every_bot_and_replays(site: Path, tmp_path: Path) -> None:
    """``cinco simulate`` plays the declared action with random, greedy and ismcts (few games,
    low budget); every record replays with the rules checked, captures included."""
    listing = json.loads(cinco(["plugins", "--json"], site).stdout)
    plugins = {plugin["distribution"]: plugin for plugin in listing["plugins"]}
    assert plugins["cinco-capture"]["hook_api"] == 3
    assert plugins["cinco-capture"]["variant_hooks"] == {"capture": ["cinco_declare_actions"]}
    assert listing["problems"] == []
    # Its words are in its own catalogs, shipped with the package: the rules' heading is its
    # title, in English and in Ukrainian (from cinco_capture's catalog, not Cinco's).
    for lang, title, rule in (
        ("en", "Capture", "**Capture.** Instead of playing a card as usual"),
        ("uk", "Захоплення", "**Захоплення.** Замість звичайного ходу"),
    ):
        rules = cinco(["--lang", lang, "rules", "--variant", "capture"], site)
        assert rules.returncode == 0, rules.stderr
        headings = [line[4:] for line in rules.stdout.splitlines() if line.startswith("### ")]
        assert headings == [title], headings
        assert rule in rules.stdout
    captures = 0
    for bots, games in (("random,random", 4), ("greedy,random", 2), ("ismcts:easy,greedy", 1)):
        records = tmp_path / bots.replace(",", "-").replace(":", "_")
        result = cinco(
            [
                *("simulate", "--variant", "capture", "--bots", bots, "--games", str(games)),
                *("--seed", "1", "--records", str(records), "--json"),
            ],
            site,
        )
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["games"] == games
        for path in sorted(records.glob("*.jsonl")):
            events = load_record(path, check_rules=False).events
            assert not [e for e in events if e.type == "notice"]  # no bot_replaced
            captures += sum(1 for e in events if isinstance(e, ActionTaken))
            replay = cinco(["replay", str(path), "--json"], site)
            assert replay.returncode == 0, replay.stderr
            assert json.loads(replay.stdout)["result"] is not None
    assert captures > 0


def test_the_terminal_offers_the_capture_and_plays_it(site: Path, tmp_path: Path) -> None:
    """``cinco --variant capture``: the keys line and the help offer ``c``, ``c CARD SPACE``
    captures, the move log tells it, and the record holds it."""
    record = tmp_path / "game.jsonl"
    env = {**environment(site), "CINCO_DATA_DIR": str(tmp_path / "data")}
    script = Path(sys.executable).with_name("cinco")

    def play(args: list[str], typed: str) -> str:
        result = subprocess.run(
            [str(script), *args, "--delay", "0"],
            input=typed,
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    # Seed 0: the greedy bot begins, then Ann holds a 5 and may capture its token.
    first = play(
        ["--variant", "capture", "--seed", "0", "--bot", "2=greedy", "--record", str(record)], "q\n"
    )
    assert "c capture" in first
    state = fold(list(load_record(record, check_rules=False).events))
    taken = next(n for n in range(1, 91) if state.owner(n) == 1)
    card = min(state.hands[0])
    assert card <= 5 <= taken
    text = play(["--resume", str(record)], f"?\n\nc {card}\nc {card} {taken}\nq\n")
    assert "This game's own actions" in text and "c CARD SPACE" in text
    assert "Type c CARD SPACE to capture." in text  # the fields could not be read
    assert f"You captured {taken} with a {card}" in text
    events = load_record(record, check_rules=False).events
    assert ActionTaken(0, "capture", (card, taken)) in events
    replay = cinco(["replay", str(record), "--json"], site)
    assert replay.returncode == 0, replay.stderr
