"""docs/architecture.md's module map names every module of the package, and only those.

A newcomer reads the map to find where a thing lives; a module the map leaves out, or one it
names that no longer exists, sends them to the wrong room."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {
    "cinco": ROOT / "cinco",
    "cinco.core": ROOT / "core",
    "cinco.plugins": ROOT / "plugins",
    "cinco.frontends": ROOT / "frontends",
}


def modules() -> set[str]:
    """Every module and package of the installed layout, by its import name."""
    found: set[str] = set()
    for package, folder in SOURCES.items():
        for path in folder.rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found.add(".".join([package, *parts]))
    return found


def mapped() -> set[str]:
    """The module names in the first column of the "Modules" section's table."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = page.split("\n## Modules", 1)[1].split("\n## ", 1)[0]
    names: set[str] = set()
    for line in section.splitlines():
        if line.startswith("| `cinco"):
            first = line.split("|")[1]
            names.update(re.findall(r"`(cinco[\w.]*)`", first))
    return names


def test_the_module_map_names_every_module() -> None:
    missing = sorted(modules() - mapped())
    assert not missing, f"docs/architecture.md's module map leaves out: {', '.join(missing)}"


def test_the_module_map_names_no_module_that_is_gone() -> None:
    gone = sorted(mapped() - modules())
    assert not gone, f"docs/architecture.md's module map names modules that do not exist: {gone}"
