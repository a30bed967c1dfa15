"""Which build of the bots' hot modules runs: compiled (mypyc) or pure Python.

:mod:`.kernel` and :mod:`.search` are plain, typed Python. ``setup.py`` compiles them with mypyc
into extension modules next to their source (``kernel.cpython-311-….so``), which Python
prefers when it imports them. This module, installed as an import hook when the package
:mod:`cinco.plugins.bots` is imported, keeps the pure-Python source as the fallback:

* ``CINCO_PURE_PYTHON=1`` in the environment: the source modules are imported even where a
  compiled build exists;
* a compiled build made from other source (its stamp, ``compiled.sha256``, records the source
  it was made from): the source modules, with a warning to rebuild — a stale build is never
  run;
* ``cinco.plugins.bots.pure.NAME`` is always the source of ``cinco.plugins.bots.NAME``, so a
  program (the differential test, the strength benchmark) can run both builds in one process.

Either both hot modules are compiled or neither is: compiled code checks the classes of what
it is given, so a compiled search cannot run on a pure kernel.

>>> status() in ("compiled", "pure: no compiled build", "pure: CINCO_PURE_PYTHON=1",
...              "pure: the compiled build is stale")
True
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: The modules a compiled build holds (in this package). ``setup.py`` compiles these: it reads
#: this literal, and :data:`STAMP`, from this file's source (keep them literals).
COMPILED_MODULES = ("kernel", "search")
#: The environment variable that forces the pure-Python modules.
PURE_VARIABLE = "CINCO_PURE_PYTHON"
#: The build stamp: one line per compiled module, ``sha256  NAME.py``.
STAMP = "compiled.sha256"
#: The package holding the pure-Python source of every module of this one.
PURE_PACKAGE = "pure"

FOLDER = Path(__file__).resolve().parent
PACKAGE = __name__.rpartition(".")[0]

_status: str | None = None


def source_digests(folder: Path = FOLDER) -> str:
    """The stamp a build of *folder*'s hot modules writes: their source's digests."""
    lines = []
    for name in COMPILED_MODULES:
        digest = hashlib.sha256((folder / f"{name}.py").read_bytes()).hexdigest()
        lines.append(f"{digest}  {name}.py\n")
    return "".join(lines)


def extension_of(name: str, folder: Path = FOLDER) -> Path | None:
    """The compiled extension module of *name* in *folder*, if there is one."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = folder / f"{name}{suffix}"
        if path.exists():
            return path
    return None


def wants_pure() -> bool:
    """Whether the environment forces the pure-Python modules (``CINCO_PURE_PYTHON`` set to
    anything but ``0`` or nothing)."""
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


def status() -> str:
    """``compiled``, or ``pure: WHY`` — which build the hot modules are imported from (decided
    once per process, on first use)."""
    global _status
    if _status is None:
        _status = _decide()
    return _status


def _decide(folder: Path = FOLDER) -> str:
    """Which build of *folder*'s hot modules to import (see :func:`status`)."""
    if wants_pure():
        return f"pure: {PURE_VARIABLE}=1"
    if not all(extension_of(name, folder) for name in COMPILED_MODULES):
        return "pure: no compiled build"
    try:
        fresh = (folder / STAMP).read_text() == source_digests(folder)
    except OSError:
        fresh = False
    if not fresh:
        warnings.warn(
            f"cinco: the compiled bot kernel in {folder} was built from other source; using "
            "the pure-Python modules (rebuild with: pip install -e .)",
            RuntimeWarning,
            stacklevel=3,
        )
        return "pure: the compiled build is stale"
    return "compiled"


class _EmptyPackage(importlib.abc.Loader):
    """The loader of :data:`PURE_PACKAGE`: a package whose modules only :class:`SourceFinder`
    finds."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        module.__doc__ = f"The pure-Python source of the modules of {PACKAGE}."


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the source (``.py``) of this package's modules: for ``PACKAGE.pure.NAME`` always,
    and for the hot modules themselves when the compiled build is not to be used."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        pure = f"{PACKAGE}.{PURE_PACKAGE}"
        if fullname == pure:
            return importlib.machinery.ModuleSpec(fullname, _EmptyPackage(), is_package=True)
        parent, _dot, name = fullname.rpartition(".")
        if parent == pure or (
            parent == PACKAGE and name in COMPILED_MODULES and status() != "compiled"
        ):
            source = FOLDER / f"{name}.py"
            if source.is_file():
                loader = importlib.machinery.SourceFileLoader(fullname, str(source))
                return importlib.util.spec_from_file_location(fullname, source, loader=loader)
        return None


def install() -> None:
    """Put :class:`SourceFinder` first on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, SourceFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder())


def pure_module(name: str) -> ModuleType:
    """The pure-Python module ``PACKAGE.pure.NAME`` (*name*: ``kernel``, ``search``,
    ``ismcts``, …), whose hot modules are pure too, in any build.

    >>> pure_module("kernel").COMPILED
    False
    """
    install()
    return importlib.import_module(f"{PACKAGE}.{PURE_PACKAGE}.{name}")


__all__ = [
    "COMPILED_MODULES",
    "PURE_VARIABLE",
    "STAMP",
    "SourceFinder",
    "install",
    "pure_module",
    "source_digests",
    "status",
    "wants_pure",
]
