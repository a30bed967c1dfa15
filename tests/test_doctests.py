"""Every docstring example in cinco.core and cinco.plugins (and the top-level package) runs."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import cinco
import cinco.core
import cinco.plugins


def modules() -> list[str]:
    names = ["cinco"]
    for package in (cinco.core, cinco.plugins):
        names.append(package.__name__)
        names.extend(
            info.name for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
        )
    return names


@pytest.mark.parametrize("name", modules())
def test_doctests(name):
    module: ModuleType = importlib.import_module(name)
    results = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert results.failed == 0, f"{results.failed} doctest(s) failed in {name}"


def test_doctests_found_where_expected():
    """The walk really reaches the modules that carry examples."""
    names = modules()
    for name in (
        "cinco.core.engine.board",
        "cinco.core.engine.events",
        "cinco.core.engine.state",
        "cinco.plugins.bots.greedy",
        "cinco.plugins.joker",
    ):
        assert name in names
    attempted = sum(
        doctest.testmod(importlib.import_module(n), report=False).attempted for n in names
    )
    assert attempted >= 20
