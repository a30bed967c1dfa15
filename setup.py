"""Build the bots' hot modules with mypyc; everything else is in pyproject.toml.

``pip install .`` (or ``-e .``) compiles the bots' hot modules, ``plugins/bots/kernel.py`` and
``plugins/bots/search.py`` (the list is ``COMPILED_MODULES`` in ``plugins/bots/builds.py``),
into extension modules with mypyc (a build requirement) and the C compiler. The build never
fails for want of them: without mypyc, without a C compiler, with a compile error, or with
``CINCO_PURE_PYTHON=1``, it prints one line and installs the pure-Python modules, which are
the same source (``docs/bots.md``, "Compiled kernel").

mypyc is only run when extensions are really built (not for pip's metadata steps).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.machinery
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
#: The module that chooses a build at run time, and names what a build holds.
BUILDS = ROOT / "plugins" / "bots" / "builds.py"


def builds_constant(name: str) -> Any:
    """The literal value of *name* in ``plugins/bots/builds.py``, read from its source (the
    package being built cannot be imported yet)."""
    for node in ast.parse(BUILDS.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        else:
            continue
        if any(isinstance(target, ast.Name) and target.id == name for target in targets):
            return ast.literal_eval(node.value)
    raise LookupError(f"{BUILDS} assigns no literal {name}")


#: The compiled modules (their package is ``cinco.plugins.bots``, in ``plugins/bots``).
HOT: tuple[str, ...] = builds_constant("COMPILED_MODULES")
#: The build stamp (see ``plugins/bots/builds.py``).
STAMP: str = builds_constant("STAMP")
PACKAGE = "cinco.plugins.bots"
#: The source tree as mypy sees the installed package: ``cinco/`` with ``core``, ``plugins``
#: (mapped folders in this repository, see [tool.setuptools] package-dir).
TREE = ROOT / "build" / "mypyc-src"


def notice(reason: str) -> None:
    print(f"cinco: {reason}: installing the pure-Python bot kernel (slower bots)", file=sys.stderr)


def source_tree() -> list[str]:
    """Lay out the package as it is imported (``cinco.core`` …) for mypy; the hot files."""
    if TREE.exists():
        shutil.rmtree(TREE)
    package = TREE / "cinco"
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.pyc")
    shutil.copytree(ROOT / "cinco", package, ignore=ignore)
    for folder in ("core", "plugins"):
        shutil.copytree(ROOT / folder, package / folder, ignore=ignore)
    return [str(package / "plugins" / "bots" / f"{name}.py") for name in HOT]


class OptionalMypycBuild(build_ext):
    """build_ext that runs mypyc first and falls back to pure Python on any failure."""

    def finalize_options(self) -> None:
        self.distribution.ext_modules = self.mypyc_extensions()
        super().finalize_options()

    def mypyc_extensions(self) -> list[Extension]:
        if os.environ.get("CINCO_PURE_PYTHON", "") not in ("", "0"):
            notice("CINCO_PURE_PYTHON is set")
            return []
        try:
            from mypyc.build import mypycify
        except ImportError:
            notice("mypyc is not installed")
            return []
        try:
            return mypycify(
                [
                    "--ignore-missing-imports",
                    "--follow-imports=silent",
                    "--always-true=COMPILED",
                    *source_tree(),
                ],
                opt_level="3",
                debug_level="0",  # no debug information: a quicker compile, a smaller file
                separate=[(source_tree_paths(), f"{PACKAGE}.native")],
                target_dir=str(ROOT / "build" / "mypyc"),
            )
        except (Exception, SystemExit) as error:  # mypy found a type error
            notice(f"mypyc failed ({describe(error)})")
            return []

    def run(self) -> None:
        if not self.extensions:
            self.remove_outputs()
            return
        try:
            super().run()
        except (Exception, SystemExit) as error:  # no compiler, a compile error, …
            self.remove_outputs()
            notice(f"the compiled build failed ({describe(error)})")
            return
        self.write_stamp()

    def copy_extensions_to_source(self) -> None:
        """Replace (not overwrite) the in-place extension modules: a program running the old
        ones keeps its file, where writing over a loaded library would crash it."""
        build_py = self.get_finalized_command("build_py")
        for extension in self.extensions:
            inplace, _built = self._get_inplace_equivalent(build_py, extension)
            Path(inplace).unlink(missing_ok=True)
        super().copy_extensions_to_source()

    def package_folder(self) -> Path:
        return Path(self.get_ext_fullpath(f"{PACKAGE}.kernel")).parent

    def remove_outputs(self) -> None:
        """Remove a compiled build (an earlier one, in place, too) and its stamp: the
        pure-Python modules are then what runs."""
        folder = self.package_folder()
        for name in (*HOT, "native__mypyc"):
            for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                (folder / f"{name}{suffix}").unlink(missing_ok=True)
        (folder / STAMP).unlink(missing_ok=True)

    def write_stamp(self) -> None:
        """Record the source compiled (see ``plugins/bots/builds.py``)."""
        folder = self.package_folder()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / STAMP).write_text(stamp_text())


def stamp_text() -> str:
    """The stamp of a build of the source here: ``builds.source_digests`` of ``plugins/bots``
    (one line per compiled module, ``sha256  NAME.py``)."""
    lines = []
    for name in HOT:
        digest = hashlib.sha256((ROOT / "plugins" / "bots" / f"{name}.py").read_bytes())
        lines.append(f"{digest.hexdigest()}  {name}.py\n")
    return "".join(lines)


def describe(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def source_tree_paths() -> list[str]:
    return [str(TREE / "cinco" / "plugins" / "bots" / f"{name}.py") for name in HOT]


setup(
    # A placeholder, so that setuptools runs build_ext (which replaces it with mypyc's).
    ext_modules=[Extension(f"{PACKAGE}.{name}", sources=[]) for name in HOT],
    cmdclass={"build_ext": OptionalMypycBuild},
)
