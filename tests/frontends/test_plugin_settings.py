"""Plugin settings everywhere (issue 25): the settings file (``settings.toml`` in Cinco's config
folder, a section per plugin), ``--setting`` over it, for the game, ``simulate``, ``arena`` and
``serve``; ``cinco plugins`` shows each value and where it comes from; a bad file is refused
saying which file, what is wrong and what to do."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from example_plugins import CINCO, module_plugin, run_cinco

from cinco import Registry, Setting, hookimpl
from cinco.core.engine.errors import ConfigError
from cinco.frontends.plugin_settings import chosen_settings, read_file, resolve

TALLY = '''
"""Declares two settings, and writes what each game is told of them to $CINCO_TALLY_LOG."""
import json, os
from cinco import Setting, hookimpl

CINCO_HOOK_API = 2

@hookimpl
def cinco_register_settings():
    return [
        Setting("tally.every", "Print the score every N turns.", default=10),
        Setting("tally.style", "How to print it.", default="short", choices=("short", "long")),
    ]

@hookimpl
def cinco_game_started(game):
    with open(os.environ["CINCO_TALLY_LOG"], "a") as out:
        told = {"every": game.setting("tally.every"), "style": game.setting("tally.style")}
        out.write(json.dumps(told) + "\\n")
'''


class Tally:
    @hookimpl
    def cinco_register_settings(self) -> list[Setting]:
        return [
            Setting("tally.every", "Print the score every N turns.", default=10),
            Setting("tally.ratio", "A number.", default=0.5),
            Setting("tally.style", "How to print it.", default="short", choices=("short", "long")),
        ]


@pytest.fixture
def registry() -> Registry:
    return Registry(entry_points=False, plugins=[Tally()])


# -- the file and the command line, in-process ------------------------------------------------


def test_the_file_then_the_command_line(registry: Registry, tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('[tally]\nevery = 5\nratio = 1\nstyle = "long"\n')
    chosen = resolve(registry, {"tally.style": "short"}, path=path)
    assert (chosen["tally.every"].value, chosen["tally.every"].source) == (5, "file")
    assert chosen["tally.every"].path == path
    assert (chosen["tally.ratio"].value, chosen["tally.ratio"].source) == (1.0, "file")
    assert (chosen["tally.style"].value, chosen["tally.style"].source) == ("short", "command_line")
    assert chosen_settings(registry, {}, path=path) == {
        "tally.every": 5,
        "tally.ratio": 1.0,
        "tally.style": "long",
    }
    # No file: the defaults, and nothing chosen to record.
    missing = tmp_path / "none.toml"
    assert {c.source for c in resolve(registry, {}, path=missing).values()} == {"default"}
    assert chosen_settings(registry, {}, path=missing) == {}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[tally\nevery = 5\n", "it is not valid TOML"),
        ('[tally]\nevery = "often"\n', "[tally] every: The setting tally.every takes a whole"),
        ('[tally]\nstyle = "loud"\n', "[tally] style: The setting tally.style is one of"),
        ("[tally]\nevery = [1, 2]\n", "[tally] every is [1, 2]; a setting is text, a number"),
    ],
)
def test_a_bad_file_says_where_what_and_what_to_do(
    registry: Registry, tmp_path: Path, text: str, says: str
) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as refused:
        read_file(registry, path)
    message = str(refused.value)
    assert str(path) in message and says in message
    assert "Fix it (cinco plugins lists each plugin's settings" in message
    assert "move it away to use the defaults" in message


def test_a_setting_of_an_uninstalled_plugin_is_left_out_with_a_warning(
    registry: Registry, tmp_path: Path
) -> None:
    path = tmp_path / "settings.toml"
    path.write_text("[gone]\nlevel = 3\n[tally]\nevery = 4\n")
    told: list[str] = []
    assert read_file(registry, path, told.append) == {"tally.every": 4}
    assert len(told) == 1 and "[gone] level: no installed plugin has this setting" in told[0]


def test_a_bad_command_line_setting_names_the_option(registry: Registry, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"--setting: Unknown setting 'tally\.often'"):
        resolve(registry, {"tally.often": "1"}, path=tmp_path / "none.toml")


# -- every command, as a user runs it -----------------------------------------------------------


@pytest.fixture
def installed(tmp_path: Path) -> Iterator[tuple[dict[str, str], Path, Path]]:
    """The environment of a Cinco with the tally plugin installed (an entry point), its
    settings file (not written yet) and the log of what games were told."""
    env = module_plugin(tmp_path / "site", "tally", TALLY)
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    env["CINCO_TALLY_LOG"] = str(tmp_path / "told.jsonl")
    env.pop("COLUMNS", None)
    settings = tmp_path / "config" / "cinco" / "settings.toml"
    settings.parent.mkdir(parents=True)
    yield env, settings, tmp_path / "told.jsonl"


def told(log: Path) -> list[dict[str, object]]:
    lines = log.read_text().splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return [json.loads(line) for line in lines]


def test_every_command_reads_the_file_and_the_command_line(
    installed: tuple[dict[str, str], Path, Path], tmp_path: Path
) -> None:
    env, settings, log = installed
    settings.write_text('[tally]\nevery = 5\nstyle = "long"\n')
    run_cinco(env, "simulate", "--bots", "random", "--games", "2", "--records", str(tmp_path / "r"))
    assert told(log) == [{"every": 5, "style": "long"}] * 2
    # Recorded with the game, so that a replay knows them.
    record = sorted((tmp_path / "r").glob("*.jsonl"))[0]
    started = json.loads(record.read_text().splitlines()[1])
    assert started["config"]["options"]["settings"] == {"tally.every": 5, "tally.style": "long"}
    run_cinco(env, "simulate", "--bots", "random", "--games", "1", "--setting", "tally.every=7")
    assert told(log) == [{"every": 7, "style": "long"}]
    run_cinco(env, "arena", "--bots", "random,greedy", "--games", "2", "--jobs", "1", "--json",
        "--setting", "tally.style=short")  # fmt: skip
    assert told(log) == [{"every": 5, "style": "short"}] * 2
    run_cinco(env, "--players", "2", "--bot", "1=random", "--bot", "2=random", "--delay", "0",
        "--record", str(tmp_path / "game.jsonl"), "--setting", "tally.every=3")  # fmt: skip
    assert told(log) == [{"every": 3, "style": "long"}]


def test_plugins_lists_each_value_and_its_source(
    installed: tuple[dict[str, str], Path, Path],
) -> None:
    env, settings, _log = installed
    settings.write_text("[tally]\nevery = 5\n")
    text = run_cinco(env, "plugins", "--setting", "tally.style=long").stdout
    assert (
        f"setting:  tally.every = 5 (from {settings}; default 10): Print the score every N "
        "turns." in text
    )
    assert "setting:  tally.style = 'long' (from the command line; default 'short')" in text
    assert f"Settings file: {settings}" in text
    listing = json.loads(run_cinco(env, "plugins", "--json").stdout)
    (tally,) = [p for p in listing["plugins"] if p["name"] == "tally"]
    values = {s["name"]: (s["value"], s["source"], s["file"]) for s in tally["settings"]}
    assert values == {
        "tally.every": (5, "file", str(settings)),
        "tally.style": ("short", "default", None),
    }


def test_a_bad_file_stops_every_command_with_a_clear_message(
    installed: tuple[dict[str, str], Path, Path],
) -> None:
    env, settings, log = installed
    settings.write_text('[tally]\nevery = "often"\n')
    for args in (
        ("simulate", "--bots", "random", "--games", "1"),
        ("arena", "--bots", "random,greedy", "--games", "1", "--jobs", "1"),
        ("--players", "2", "--bot", "1=random", "--bot", "2=random", "--delay", "0"),
    ):
        result = run_cinco(env, *args, code=1)
        assert f"The settings file {settings} cannot be used" in result.stderr, args
        assert "[tally] every: The setting tally.every takes a whole number" in result.stderr
        assert "Traceback" not in result.stderr
    assert told(log) == []
    # cinco plugins, where one looks up the settings, says so and lists them all anyway.
    listing = run_cinco(env, "plugins")
    assert f"warning: The settings file {settings} cannot be used" in listing.stderr
    assert "setting:  tally.every = 10 (default): Print the score" in listing.stdout


def test_a_server_deals_its_tables_with_its_settings(
    installed: tuple[dict[str, str], Path, Path], tmp_path: Path
) -> None:
    from live_server import Server, free_port

    env, settings, log = installed
    settings.write_text("[tally]\nevery = 5\n")
    saved = dict(os.environ)
    os.environ.update(env)  # the server's process inherits it
    try:
        server = Server(tmp_path / "server.db", free_port(), tmp_path / "server.log",
                        extra=("--setting", "tally.style=long"))  # fmt: skip
        server.start()
        try:
            created = run_cinco(env, "table", "create", "--server", server.url, "--bot", "2=random",
                          "--json")  # fmt: skip
            code = json.loads(created.stdout)["code"]
            joining = subprocess.Popen(
                [str(CINCO), "join", server.url, code, "--bot", "random", "--name", "Gus"],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not log.exists():
                time.sleep(0.2)
            joining.kill()
            joining.wait(10)
        finally:
            server.stop()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    assert told(log) == [{"every": 5, "style": "long"}]
