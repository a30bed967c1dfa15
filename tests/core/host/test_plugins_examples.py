"""The example third-party plugins in docs/examples, installed with pip and played through the
``cinco`` command, with no change to Cinco (issue 6).

They are installed into a throwaway folder (``pip install --target``) put on ``PYTHONPATH`` of
the commands run here, so the test environment itself is never changed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from cinco import CardPlayed, GameStarted, load_record

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "docs" / "examples"
PACKAGES = (
    "cinco-lucky7",
    "cinco-neighbourly",
    "cinco-hand-of-five",
    "cinco-no-exchange",
    "cinco-four-in-a-row",
)
#: The hook API 2 examples: distribution, variant, and the parameters it records.
VARIANTS = (
    ("cinco-hand-of-five", "hand5", {"hand_limit": 5, "deal": 5, "exchange_size": 5}),
    ("cinco-no-exchange", "no-exchange", None),
    ("cinco-four-in-a-row", "four-in-a-row", {"winning_length": 4}),
)


def pip_install(sources: Sequence[Path], target: Path) -> None:
    """Install *sources* into *target*: offline first (setuptools from this environment), then
    with pip's usual isolated build (which fetches setuptools from PyPI)."""
    base = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--no-deps",
        "--quiet",
        "--disable-pip-version-check",
        "--no-input",
        "--target",
        str(target),
    ]
    offline = subprocess.run(
        [*base, "--no-build-isolation", *map(str, sources)], capture_output=True, text=True
    )
    if offline.returncode == 0:
        return
    isolated = subprocess.run([*base, *map(str, sources)], capture_output=True, text=True)
    assert isolated.returncode == 0, offline.stderr + isolated.stderr


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding every example distribution, installed by pip."""
    sources = tmp_path_factory.mktemp("example-sources")
    copies = []
    for name in PACKAGES:
        # Built from a copy: pip builds in place and would leave build/ and *.egg-info behind.
        copy = sources / name
        shutil.copytree(
            EXAMPLES / name,
            copy,
            ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"),
        )
        copies.append(copy)
    target = tmp_path_factory.mktemp("site-packages")
    pip_install(copies, target)
    return target


def environment(*paths: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*map(str, paths), *filter(None, [env.get("PYTHONPATH")])])
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
    assert f"### {variant}" in rules.stdout
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
