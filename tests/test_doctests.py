"""Every docstring example in the package runs: each module of cinco.core, cinco.plugins and
cinco.frontends (and ``cinco`` itself) that has one.

Modules are found by walking the installed packages (:mod:`pkgutil`), not the folders: with the
package-dir mapping (``core/`` is ``cinco.core``) a path-based ``--doctest-modules`` would import
``core/engine/state.py`` a second time as ``core.engine.state``, a module of its own whose
classes are not the package's. A module whose source has no ``>>>`` has no examples and is not
imported. A module that needs an optional dependency that is not installed (Kivy, Starlette,
psycopg …) is skipped, saying which. A bot module that mypyc compiled keeps no docstrings:
its examples run in its source (:func:`cinco.plugins.bots.builds.pure_module`).

The Kivy app's modules run in one child process (this file run as a script), with Kivy set up
as the app sets it up (:func:`cinco.frontends.kivy_app.prepare_environment`, a ``KIVY_HOME`` of
its own) and ``kivy.core.window`` refused, so that no window opens and this process never
imports Kivy: a module that needs a window is skipped.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import io
import json
import os
import pkgutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

PACKAGES = ("cinco.core", "cinco.plugins", "cinco.frontends")
#: Its modules' examples run in a child process (see the module's docstring).
KIVY_PACKAGE = "cinco.frontends.kivy_app"
#: The module that opens a window when it is imported.
WINDOW = "kivy.core.window"
#: Third-party packages that only some extras install: a module needing one is skipped.
OPTIONAL = frozenset(
    {"kivy", "starlette", "uvicorn", "websockets", "psycopg", "distributed", "babel", "fontTools"}
)


@dataclass(frozen=True)
class Outcome:
    """One module's examples: how many ran, how many failed, doctest's report of the
    failures, and why the module was skipped (empty if it was not)."""

    attempted: int = 0
    failed: int = 0
    report: str = ""
    skipped: str = ""


@cache
def all_modules() -> tuple[str, ...]:
    """Every module of the package, by its installed name."""
    names = ["cinco"]
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        names.append(package_name)
        names.extend(
            info.name for info in pkgutil.walk_packages(package.__path__, package_name + ".")
        )
    return tuple(names)


def source_of(name: str) -> Path | None:
    """*name*'s Python source: its file, or for a compiled module the ``.py`` file of its name
    in its package's folder (the extension's own path may be elsewhere)."""
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None, name
    if spec.origin.endswith(".py"):
        return Path(spec.origin)
    package, _, leaf = name.rpartition(".")
    for folder in importlib.import_module(package).__path__:
        if (candidate := Path(folder) / f"{leaf}.py").exists():
            return candidate
    return None


def has_examples(name: str) -> bool:
    """Whether *name*'s source has an example (read, not imported)."""
    source = source_of(name)
    return source is not None and ">>>" in source.read_text(encoding="utf-8")


def with_examples() -> list[str]:
    return [name for name in all_modules() if has_examples(name)]


def run_examples(name: str) -> Outcome:
    """Import *name* and run its examples (``ELLIPSIS`` on), leaving ``os.environ`` as it was
    (an example may set a variable, as the app's failure log's does)."""
    try:
        module: ModuleType = importlib.import_module(name)
    except ImportError as exc:
        missing = exc.name or ""
        if missing == WINDOW:
            return Outcome(skipped=f"{name} opens a window when imported")
        if missing.partition(".")[0] in OPTIONAL:
            return Outcome(skipped=f"{name} needs {missing}, which is not installed")
        raise
    if not str(module.__file__).endswith(".py"):  # a bot module mypyc compiled: no docstrings
        from cinco.plugins.bots.builds import pure_module

        module = pure_module(name.rpartition(".")[2])
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report = io.StringIO()
    environ = dict(os.environ)
    try:
        for test in doctest.DocTestFinder().find(module):
            runner.run(test, out=report.write)
    finally:
        os.environ.clear()
        os.environ.update(environ)
    return Outcome(runner.tries, runner.failures, report.getvalue())


class _NoWindow(importlib.abc.MetaPathFinder):
    """Refuses ``kivy.core.window``: importing it opens the app's window."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname == WINDOW:
            raise ModuleNotFoundError("no window in the doctests' process", name=WINDOW)
        return None


def run_without_window(names: Sequence[str]) -> dict[str, Outcome]:
    """The child process's work: Kivy set up as the app does, no window, *names* run."""
    from cinco.frontends.kivy_app import prepare_environment

    prepare_environment()
    sys.meta_path.insert(0, _NoWindow())
    return {name: run_examples(name) for name in names}


@pytest.fixture(scope="module")
def kivy_outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    """The Kivy app's modules' outcomes, from one child process (this file as a script)."""
    names = [name for name in with_examples() if name.startswith(KIVY_PACKAGE + ".")]
    environment = {**os.environ, "KIVY_HOME": str(tmp_path_factory.mktemp("kivy-home"))}
    child = subprocess.run(
        [sys.executable, __file__, *names],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
        check=False,
    )
    assert child.returncode == 0, child.stderr
    return {name: Outcome(**fields) for name, fields in json.loads(child.stdout).items()}


@pytest.mark.parametrize("name", with_examples())
def test_doctests(name: str, request: pytest.FixtureRequest) -> None:
    if name.startswith(KIVY_PACKAGE + "."):
        outcome: Outcome = request.getfixturevalue("kivy_outcomes")[name]
    else:
        outcome = run_examples(name)
    if outcome.skipped:
        pytest.skip(outcome.skipped)
    assert outcome.attempted > 0, f"{name} has '>>>' in its source but no example was found"
    assert outcome.failed == 0, f"{outcome.failed} doctest(s) failed in {name}:\n{outcome.report}"


def test_doctests_found_where_expected() -> None:
    """The walk really reaches the modules that carry examples, in all three folders."""
    names = with_examples()
    for name in (
        "cinco",
        "cinco.core.engine.board",
        "cinco.core.engine.events",
        "cinco.core.engine.state",
        "cinco.plugins.bots.kernel",
        "cinco.plugins.bots.builds",
        "cinco.frontends.options",
        "cinco.frontends.net.store",
        "cinco.frontends.terminal.parsing",
        "cinco.frontends.kivy_app.session",
        "cinco.frontends.kivy_app.hold",
    ):
        assert name in names
    assert len(names) >= 40


def test_every_source_file_is_walked() -> None:
    """Each ``.py`` file under the three folders is a module the walk reaches (a folder without
    an ``__init__.py`` would hide its modules' examples)."""
    walked = set(all_modules())
    for package_name in PACKAGES:
        folder = Path(importlib.import_module(package_name).__path__[0])
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            name = ".".join((package_name, *parts))
            assert name in walked, f"{path} is not reached as {name}"


if __name__ == "__main__":  # the Kivy app's modules, in the child process
    outcomes = run_without_window(sys.argv[1:])
    print(json.dumps({name: asdict(outcome) for name, outcome in outcomes.items()}))
