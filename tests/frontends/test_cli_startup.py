"""A quick command line (issue 15): ``cinco --help`` and shell completion, which runs the
program at every Tab, import neither the engine, the plugins, rich nor kivy; every subcommand
is still there, loaded when it runs. (The time it takes is in ``benchmarks/cli_startup.py``.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from cinco.frontends import main as main_module
from cinco.frontends.net import commands as net_commands

HEAVY = (
    "cinco.core.game.game",
    "cinco.core.host.registry",
    "cinco.core.engine.rules",
    "rich.console",
    "kivy",
)

PROBE = """
import json, sys
from cinco.frontends.main import main
try:
    main(sys.argv[1:], prog_name="cinco")
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def modules_after(*args: str, env: dict[str, str] | None = None) -> tuple[str, set[str]]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
        check=False,
    )
    return result.stdout, set(json.loads(result.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize("args", [["--help"], ["--lang", "uk", "--help"], ["--version"]])
def test_help_and_version_import_no_engine(args: list[str]) -> None:
    out, loaded = modules_after(*args)
    assert out.strip()
    assert not [name for name in loaded for heavy in HEAVY if name.startswith(heavy)]


def test_the_help_lists_every_command_with_its_line() -> None:
    out, _loaded = modules_after("--help")
    listing = out.split("Commands:")[1]
    for name, (_path, line) in main_module.COMMANDS.items():
        assert f"{name} " in listing and line.split()[0] in listing


def test_completion_offers_commands_without_the_engine() -> None:
    out, loaded = modules_after(
        env={"_CINCO_COMPLETE": "bash_complete", "COMP_WORDS": "cinco s", "COMP_CWORD": "1"}
    )
    assert out.split() == ["plain,serve", "plain,simulate"]
    assert "cinco.core.game.game" not in loaded


@pytest.mark.parametrize("name", sorted(main_module.COMMANDS))
def test_each_listed_command_loads_and_its_line_says_what_it_does(name: str) -> None:
    command = main_module.main.get_command(click.Context(main_module.main), name)
    assert isinstance(command, click.Command) and command.name == name
    # the listed line and the command's own help start alike (the line is its summary)
    line = main_module.COMMANDS[name][1]
    first = (command.callback.__doc__ if command.callback else command.help) or ""
    assert first.split()[0] == line.split()[0], (first, line)


def test_every_network_command_is_listed() -> None:
    # a command added to a module but not to the table would be unreachable
    assert {command.name for command in net_commands.COMMANDS} <= set(main_module.COMMANDS)


def test_the_startup_benchmark_prints_its_ratios() -> None:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "cli_startup.py"
    result = subprocess.run(
        [sys.executable, script, "--runs", "1"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines() if line.startswith("cinco --")]
    assert len(rows) == 2 and all(float(row[-1]) > 0 for row in rows)
