"""The two builds of the bots' hot modules (``kernel``, ``search``): which one is imported, and
that they play alike.

The compiled build (mypyc, made by ``pip install -e .`` where a C compiler is found) is an
extension module next to each source file; :mod:`cinco.plugins.bots.builds` decides which one
is imported. The differential test of ``test_kernel.py`` checks both builds against the
reference engine; here: ``CINCO_PURE_PYTHON=1`` gives the source modules, a stale build is
never run, and the compiled bot makes exactly the pure bot's moves (the same search, faster).
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cinco.core.engine.config import Seat
from cinco.core.game.game import Game
from cinco.core.host.declarations import BotContext
from cinco.core.host.registry import Registry
from cinco.plugins.bots import builds

REGISTRY = Registry(entry_points=False)
PROBE = (
    "import json, cinco.plugins.bots.kernel as k, cinco.plugins.bots.search as s, "
    "cinco.plugins.bots.builds as b; "
    "print(json.dumps([k.__file__, s.__file__, k.COMPILED, b.status()]))"
)


def probe(**environment: str) -> tuple[str, str, bool, str]:
    """(kernel file, search file, COMPILED, status) in a new interpreter with *environment*."""
    env = {k: v for k, v in os.environ.items() if k != builds.PURE_VARIABLE} | environment
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, check=True
    )
    kernel, search, compiled, status = json.loads(result.stdout)
    return kernel, search, compiled, status


def needs_compiled_build() -> None:
    if builds.status() != "compiled":
        pytest.skip(f"no compiled build here ({builds.status()}; pip install -e . makes one)")


def test_pure_python_variable_imports_the_source_modules() -> None:
    """CINCO_PURE_PYTHON=1: both hot modules are the .py source, and say so."""
    kernel, search, compiled, status = probe(CINCO_PURE_PYTHON="1")
    assert kernel.endswith("kernel.py") and search.endswith("search.py")
    assert compiled is False
    assert status == "pure: CINCO_PURE_PYTHON=1"


def test_without_the_variable_the_compiled_build_is_imported() -> None:
    """Where a compiled build is installed, a plain import gets it (the extension modules)."""
    needs_compiled_build()
    kernel, search, compiled, status = probe()
    assert status == "compiled" and compiled is True
    assert not kernel.endswith(".py") and not search.endswith(".py")
    assert Path(kernel).name.startswith("kernel.") and Path(search).name.startswith("search.")


def test_pure_package_is_the_source_in_any_build() -> None:
    """``cinco.plugins.bots.pure.NAME`` is the source of NAME, importing pure modules only."""
    ismcts = builds.pure_module("ismcts")
    kernel = builds.pure_module("kernel")
    assert ismcts.__file__ is not None and ismcts.__file__.endswith("ismcts.py")
    assert kernel.COMPILED is False
    assert ismcts.Search.__module__ == "cinco.plugins.bots.pure.search"
    assert ismcts.Search.determinise.__code__  # interpreted: a Python function


def test_a_stale_compiled_build_is_never_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An extension module built from other source (its stamp does not match) is refused: the
    source modules are used, with a warning that says to rebuild."""
    monkeypatch.delenv(builds.PURE_VARIABLE, raising=False)
    folder = Path(builds.__file__).parent
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]  # .cpython-311-x86_64-linux-gnu.so
    for name in builds.COMPILED_MODULES:
        shutil.copy(folder / f"{name}.py", tmp_path / f"{name}.py")
        (tmp_path / f"{name}{suffix}").write_bytes(b"")
    assert builds.extension_of("kernel", tmp_path) is not None
    (tmp_path / builds.STAMP).write_text(builds.source_digests(tmp_path))
    assert builds._decide(tmp_path) == "compiled"
    with (tmp_path / "kernel.py").open("a") as source:
        source.write("# edited after the build\n")
    with pytest.warns(RuntimeWarning, match=r"built from other source.*pip install -e \."):
        assert builds._decide(tmp_path) == "pure: the compiled build is stale"
    (tmp_path / builds.STAMP).unlink()
    with pytest.warns(RuntimeWarning):
        assert builds._decide(tmp_path) == "pure: the compiled build is stale"
    for name in builds.COMPILED_MODULES:
        (tmp_path / f"{name}{suffix}").unlink()
    assert builds._decide(tmp_path) == "pure: no compiled build"


@pytest.mark.parametrize(("players", "variants"), [(2, ()), (3, ("joker",)), (4, ())])
def test_compiled_and_pure_bots_make_the_same_moves(
    players: int, variants: tuple[str, ...]
) -> None:
    """With a fixed budget of iterations, ``ismcts`` compiled and pure Python search the same
    tree and choose the same move, at every turn of whole games."""
    needs_compiled_build()
    from cinco.plugins.bots import ismcts

    pure = builds.pure_module("ismcts")
    config = REGISTRY.configure(
        players,
        variants=variants,
        seats=[Seat(f"g{i}", bot="greedy") for i in range(players)],
        seed=players,
        first_seat=0,
        turn_limit=400,
    )
    game = Game.new(config, registry=REGISTRY)
    compared = 0
    while not game.is_over:
        seat = game.state.current_seat
        view, legal = game.view(seat), game.legal_actions(seat)
        context = BotContext(seat=seat, config=view.config, rules=game.rules, seed=7, iterations=25)
        fast, slow = ismcts.IsmctsBot(context), pure.IsmctsBot(context)
        move = fast.choose(view, legal)
        assert move == slow.choose(view, legal), (game.state.turn, seat)
        if fast.last is not None and slow.last is not None:
            visits = {m: c.visits for m, c in fast.last.root.children.items()}
            assert visits == {m: c.visits for m, c in slow.last.root.children.items()}
            compared += 1
        game.execute(move)
    assert compared > 5


@pytest.mark.parametrize("name", builds.COMPILED_MODULES)
def test_doctests_of_the_pure_modules(name: str) -> None:
    """The hot modules' examples run on their source too (test_doctests.py imports the
    compiled build where there is one, whose functions doctest cannot see into)."""
    import doctest

    results = doctest.testmod(builds.pure_module(name), optionflags=doctest.ELLIPSIS)
    assert results.failed == 0
    assert name != "kernel" or results.attempted >= 5


def test_setup_compiles_the_modules_that_builds_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """``setup.py`` reads the compiled module list and the stamp's name from ``builds.py``
    (one place), and stamps a build as :func:`builds.source_digests` checks it."""
    import runpy

    import setuptools

    declared: dict[str, object] = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kwargs: declared.update(kwargs))
    root = Path(__file__).resolve().parents[3]
    setup = runpy.run_path(str(root / "setup.py"), run_name="setup_under_test")
    assert setup["HOT"] == builds.COMPILED_MODULES
    assert setup["STAMP"] == builds.STAMP
    extensions = declared["ext_modules"]
    assert isinstance(extensions, list)
    assert [extension.name for extension in extensions] == [
        f"{setup['PACKAGE']}.{name}" for name in builds.COMPILED_MODULES
    ]
    assert setup["stamp_text"]() == builds.source_digests(root / "plugins" / "bots")
