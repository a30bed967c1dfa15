"""Catalog upkeep for translators: Babel extractors and the pybabel steps in one command.

Needs Babel (``pip install -e '.[translate]'``; the game itself only needs the stdlib's
gettext). Run from the repository's root::

    python -m cinco.core.tools.i18n_tools extract    # the sources -> core/locale/cinco.pot
    python -m cinco.core.tools.i18n_tools update     # the .pot -> every <lang>/LC_MESSAGES/cinco.po
    python -m cinco.core.tools.i18n_tools compile    # every .po -> its .mo (shipped in the package)
    python -m cinco.core.tools.i18n_tools init xx    # a new language's catalog
    python -m cinco.core.tools.i18n_tools all        # extract, update, compile

Each step is one ``pybabel`` command (printed as it runs; docs/translating.md lists them).
The two extractors named in ``babel.cfg`` live here: Python sources (gettext calls, plus the
docstrings of click commands, which click shows as their help) and Kivy ``.kv`` files (the
``app.tr('...')`` and ``_('...')`` calls in their Python expressions).
"""

from __future__ import annotations

import ast
import io
import os
import sys
from collections.abc import Collection, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

# Babel is one of Cinco's dependencies (numbers are formatted with it, cinco.core.words.numbers).
from babel.messages import extract as babel_extract
from babel.messages.frontend import CommandLineInterface

from cinco import __version__

#: The repository's root (the folder with babel.cfg and pyproject.toml).
ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "babel.cfg"
LOCALE = Path("core") / "locale"
POT = LOCALE / "cinco.pot"
DOMAIN = "cinco"

#: Extracted (lineno, function, message(s), comments), as Babel's extractors yield them
#: (Babel's own annotations of its extractors disagree with what they yield: kept loose).
Extracted = tuple[Any, ...]

#: The gettext functions in .kv expressions: the app's ``tr`` and ``_``.
KV_KEYWORDS: dict[str, Any] = {"tr": None, "_": None, "ngettext": (1, 2)}


def _is_click_decorator(node: ast.expr) -> bool:
    func = node.func if isinstance(node, ast.Call) else node
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    has_help = isinstance(node, ast.Call) and any(kw.arg == "help" for kw in node.keywords)
    return name in {"command", "group"} and not has_help


def command_docstrings(source: str) -> Iterator[tuple[int, str]]:
    """The cleaned docstrings of the functions decorated as click commands or groups."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
            _is_click_decorator(d) for d in node.decorator_list
        ):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                yield node.body[0].lineno, doc


def extract_python_commands(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: dict[str, Any],
) -> Iterator[Extracted]:
    """Babel's Python extractor, plus each click command's docstring (its help)."""
    extract_python: Any = babel_extract.extract_python
    data = fileobj.read()
    yield from extract_python(io.BytesIO(data), keywords, comment_tags, options)
    for lineno, doc in command_docstrings(data.decode(options.get("encoding", "utf-8"))):
        yield lineno, None, doc, []


def extract_kv(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: dict[str, Any],
) -> Iterator[Extracted]:
    """The translatable texts of a Kivy layout file: each property's value (the part after
    ``name:``) is a Python expression, read by Babel's Python extractor."""
    extract_python: Any = babel_extract.extract_python
    text = fileobj.read().decode(options.get("encoding", "utf-8"))
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("#") or ("tr(" not in stripped and "_(" not in stripped):
            continue
        head, colon, rest = stripped.partition(":")
        expression = rest if colon and head.replace("_", "").isalnum() else stripped
        found = extract_python(
            io.BytesIO(expression.encode("utf-8")), KV_KEYWORDS, comment_tags, options
        )
        for _line, funcname, messages, comments in found:
            # Babel checks the function against its own keywords: tr is a gettext.
            yield lineno, "_" if funcname == "tr" else funcname, messages, comments


def pybabel_steps(step: str, args: Sequence[str] = ()) -> list[list[str]]:
    """The ``pybabel`` argument lists of *step* (``extract``, ``update``, ``compile``,
    ``init LANG``, ``all``), relative to the repository's root."""
    extract = [
        "extract",
        "-F",
        "babel.cfg",
        "-o",
        str(POT),
        "--project=Cinco",
        f"--version={__version__}",
        "--add-comments=TRANSLATORS:",
        "--keyword=Nn_:1,2",  # a counted message marked at import (core/words/i18n.py)
        "--sort-by-file",
        "--width=100",
        "core",
        "frontends",
        "plugins",
        "cinco",
    ]
    update = ["update", "-i", str(POT), "-d", str(LOCALE), "-D", DOMAIN, "--width=100"]
    compile_ = ["compile", "-d", str(LOCALE), "-D", DOMAIN, "--statistics"]
    if step == "extract":
        return [extract + list(args)]
    if step == "update":
        return [update + list(args)]
    if step == "compile":
        return [compile_ + list(args)]
    if step == "init":
        if len(args) != 1:
            raise SystemExit("init needs one language code, for example: init pl")
        return [["init", "-i", str(POT), "-d", str(LOCALE), "-D", DOMAIN, "-l", args[0]]]
    if step == "all":
        return [extract, update, compile_]
    raise SystemExit(f"Unknown step {step!r}: extract, update, compile, init LANG or all.")


def run_pybabel(argv: Sequence[str]) -> None:
    """Run one pybabel command in this process, from the repository's root."""
    print("pybabel " + " ".join(argv), flush=True)
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        CommandLineInterface().run(["pybabel", *argv])  # type: ignore[no-untyped-call]
    finally:
        os.chdir(here)


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        raise SystemExit(__doc__)
    for step in pybabel_steps(argv[0], argv[1:]):
        run_pybabel(step)


if __name__ == "__main__":
    main()
