"""The public API of ``cinco`` (``cinco/__init__.py``) is one list, seen alike by type checkers
and by the interpreter.

The package lists each public name twice: an import under ``TYPE_CHECKING`` (what mypy and IDEs
read) and an entry of ``_EXPORTS`` (what the interpreter imports on first use); ``__all__`` is
``_EXPORTS``' names. These tests keep the two in step, and every name importable from the module
it is listed under (other modules move names between modules: this is where a move shows).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import cinco

INIT = Path(cinco.__file__)


def type_checking_imports() -> dict[str, str]:
    """Each name imported under ``if TYPE_CHECKING:`` in ``cinco/__init__.py``, and its module;
    every one an explicit re-export (``from M import X as X``)."""
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    blocks = [
        node
        for node in tree.body
        if isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
    ]
    assert len(blocks) == 1, "one `if TYPE_CHECKING:` block of imports"
    found: dict[str, str] = {}
    for statement in blocks[0].body:
        assert isinstance(statement, ast.ImportFrom) and statement.module is not None
        for alias in statement.names:
            assert alias.asname == alias.name, f"import {alias.name} as {alias.name}"
            assert alias.name not in found, f"{alias.name} is imported twice"
            found[alias.name] = statement.module
    return found


def test_the_type_checkers_names_are_the_interpreters() -> None:
    """The ``TYPE_CHECKING`` imports and ``_EXPORTS`` list the same names from the same
    modules."""
    assert type_checking_imports() == cinco._EXPORTS


def test_all_is_every_export() -> None:
    assert cinco.__all__ == ["__version__", *cinco._EXPORTS]
    assert len(set(cinco.__all__)) == len(cinco.__all__)
    assert dir(cinco) == sorted(cinco.__all__)


@pytest.mark.parametrize("name", sorted(cinco._EXPORTS))
def test_every_export_imports_from_its_module(name: str) -> None:
    module = importlib.import_module(cinco._EXPORTS[name])
    assert getattr(cinco, name) is getattr(module, name)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        cinco.Nothing  # noqa: B018
