"""Imports are at the top of a module (issue 26): an ``import`` statement inside a function or
method is kept only for an optional dependency, one an installation may lack (an extra of
pyproject.toml, or a module that exists only on some platforms). A module of Cinco's own that
must wait (the command line's subcommands, the frontends, the plugin catalogue behind an option
that the help declares) is loaded with :func:`importlib.import_module`, named by a string, never
by an import statement tucked into a function: that way an import inside a function cannot hide
a cycle between modules, and the reader sees every dependency of a module at its top.

Imports under ``if TYPE_CHECKING:`` are for type checkers only and are not looked at.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest


def _root() -> Path:
    """The checkout: the nearest folder above this file that holds pyproject.toml (so that the
    test keeps working if it moves into a sub-folder of tests/)."""
    for folder in Path(__file__).resolve().parents:
        if (folder / "pyproject.toml").is_file():
            return folder
    raise AssertionError("no pyproject.toml above tests/")


ROOT = _root()

#: The source folders, and the package each is installed as (pyproject.toml's package-dir).
PACKAGES = {"core": "cinco.core", "plugins": "cinco.plugins", "frontends": "cinco.frontends"}
#: cinco/__init__.py: its public names are loaded on first use (PEP 562) with importlib.
PACKAGE_INIT = ROOT / "cinco" / "__init__.py"

#: Optional third-party dependencies, by the name they are imported as, and the distribution
#: an extra of pyproject.toml lists for each (dask comes with distributed; httpx with httpx2).
OPTIONAL: dict[str, str] = {
    "kivy": "kivy",
    "starlette": "starlette",
    "uvicorn": "uvicorn",
    "websockets": "websockets",
    "httpx": "httpx2",
    "psycopg": "psycopg",
    "distributed": "distributed",
    "dask": "distributed",
    "fontTools": "fonttools",
}
#: Modules that exist only on some platforms: POSIX terminals (termios, tty), Windows
#: consoles (msvcrt), and Android (python-for-android's android, pyjnius's jnius).
PLATFORM_ONLY = frozenset({"termios", "tty", "msvcrt", "android", "jnius"})
ALLOWED = frozenset(OPTIONAL) | PLATFORM_ONLY


def source_files() -> list[Path]:
    """Every module of core/, plugins/ and frontends/, and cinco/__init__.py."""
    files = [PACKAGE_INIT]
    for folder in PACKAGES:
        files += sorted((ROOT / folder).rglob("*.py"))
    return files


def _module_name(path: Path) -> str:
    """The dotted name *path* is installed as (``frontends/net/app.py``:
    ``cinco.frontends.net.app``)."""
    relative = path.relative_to(ROOT)
    if relative.parts[0] == "cinco":
        return "cinco"
    parts = [PACKAGES[relative.parts[0]], *relative.with_suffix("").parts[1:]]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported_modules(node: ast.Import | ast.ImportFrom, path: Path) -> list[str]:
    """The absolute names *node* imports (a relative import resolved against *path*'s package)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level == 0:
        return [node.module or ""]
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package.pop()
    base = package[: len(package) - (node.level - 1)]
    return [".".join([*base, *([node.module] if node.module else [])])]


def imports_in_functions(path: Path) -> Iterator[tuple[int, str]]:
    """``(line, module)`` for each import statement inside a function or method of *path*,
    leaving out ``if TYPE_CHECKING:`` blocks."""
    return imports_in_source(path.read_text(encoding="utf-8"), path)


def imports_in_source(source: str, path: Path) -> Iterator[tuple[int, str]]:
    """:func:`imports_in_functions` of *source*, read as the module at *path*."""
    tree = ast.parse(source, filename=str(path))

    def visit(node: ast.AST, in_function: bool) -> Iterator[tuple[int, str]]:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                yield from visit(child, in_function)
            return
        if in_function and isinstance(node, ast.Import | ast.ImportFrom):
            for module in _imported_modules(node, path):
                yield node.lineno, module
        inside = in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for child in ast.iter_child_nodes(node):
            yield from visit(child, inside)

    yield from visit(tree, False)


def _allowed(module: str) -> bool:
    return module.partition(".")[0] in ALLOWED


def test_imports_inside_functions_are_only_of_optional_dependencies() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: import of {module}"
        for path in source_files()
        for line, module in imports_in_functions(path)
        if not _allowed(module)
    ]
    assert not found, (
        "Import these at the top of the module (a module of Cinco's own that must load late: "
        "importlib.import_module, named by a string):\n" + "\n".join(found)
    )


def _distribution(requirement: str) -> str:
    """``"psycopg[binary]>=3.1"`` → ``"psycopg"`` (names compared as PEP 503 normalises them)."""
    name = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert name is not None, requirement
    return re.sub(r"[-_.]+", "-", name.group()).lower()


def test_the_allowed_dependencies_are_optional_ones() -> None:
    # Each allowed library is in an extra of pyproject.toml, never among the dependencies
    # every installation has: those are imported at the top like any other module.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    required = {_distribution(text) for text in project["dependencies"]}
    extras = {
        _distribution(text) for texts in project["optional-dependencies"].values() for text in texts
    }
    for module, distribution in OPTIONAL.items():
        assert distribution in extras, (module, distribution)
        assert distribution not in required, (module, distribution)


def test_the_package_exports_load_through_importlib() -> None:
    # cinco/__init__.py loads its public names on first use with importlib, not with an
    # import statement in __getattr__: it is scanned like the rest and has none.
    assert PACKAGE_INIT in source_files()
    assert list(imports_in_functions(PACKAGE_INIT)) == []
    getattr_function = next(
        node
        for node in ast.walk(ast.parse(PACKAGE_INIT.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__"
    )
    assert "importlib.import_module" in ast.unparse(getattr_function)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import os\ndef f():\n    import json\n", [(3, "json")]),
        ("def f():\n    from .sibling import x\n", [(2, "cinco.frontends.net.sibling")]),
        ("def f():\n    from .. import options\n", [(2, "cinco.frontends")]),
        ("class C:\n    def m(self):\n        import kivy.core\n", [(3, "kivy.core")]),
        ("def f():\n    if TYPE_CHECKING:\n        import json\n", []),
        ("import importlib\ndef f():\n    return importlib.import_module('json')\n", []),
        ("try:\n    import termios\nexcept ImportError:\n    pass\n", []),
    ],
)
def test_the_walk_finds_what_it_should(source: str, expected: list[tuple[int, str]]) -> None:
    # read as a module of frontends/net, so that relative imports resolve as they would there
    path = ROOT / "frontends" / "net" / "probe.py"
    assert list(imports_in_source(source, path)) == expected
