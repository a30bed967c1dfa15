"""The hook reference, generated from the docstrings of :mod:`cinco.core.hooks.hookspecs`.

The reference lives between two markers in Markdown files (``docs/hooks.md`` and
``docs/plugins.md``)::

    <!-- hook-reference: begin -->
    ...generated...
    <!-- hook-reference: end -->

Regenerate it after changing a hookspec (a test fails while it is stale)::

    python -m cinco.core.tools.hookdoc            # rewrites docs/hooks.md and docs/plugins.md
    python -m cinco.core.tools.hookdoc --check    # exit status 1 if they are out of date

>>> "### `cinco_legal_spaces`" in reference()
True
>>> to_markdown("See :class:`~cinco.core.engine.rules.Outcome` and ``None``.")
'See `Outcome` and `None`.'
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from cinco.core.hooks import hookspecs

BEGIN = "<!-- hook-reference: begin -->"
END = "<!-- hook-reference: end -->"
#: Where the reference goes, relative to the repository root.
DEFAULT_FILES = ("docs/hooks.md", "docs/plugins.md")

GROUPS = (
    (
        "Registration hooks",
        "Called on the registry (the installed plugins) to learn what each plugin adds.",
    ),
    (
        "Rule hooks",
        "Called on a game's own rules: the standard rules plus the `rules` object of each "
        "variant the game enables. The first non-`None` result wins, except for "
        "`cinco_game_params`, which each variant answers in turn.",
    ),
    (
        "Lifecycle hooks",
        "Called on every installed plugin and on the game's own plugins as a game goes on.",
    ),
)

_ROLE = re.compile(r":(?:class|func|data|meth|mod|attr|exc):`(~?)([^`]+)`")


def to_markdown(text: str) -> str:
    """Turn the reStructuredText of a docstring into Markdown: roles and ``literals`` become
    code, and ``Example::`` blocks become fenced Python."""

    def role(match: re.Match[str]) -> str:
        short, target = match.groups()
        return f"`{target.rsplit('.', 1)[-1] if short else target}`"

    text = _ROLE.sub(role, text)
    text = re.sub(r"``([^`]+)``", r"`\1`", text)
    out: list[str] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.rstrip().endswith("::"):
            out.append(line.rstrip()[:-1])  # "Example::" -> "Example:"
            block: list[str] = []
            index += 1
            while index < len(lines) and (not lines[index].strip() or lines[index][:1] == " "):
                block.append(lines[index])
                index += 1
            code = textwrap.dedent("\n".join(block)).strip("\n")
            out += ["", "```python", code, "```", ""]
            continue
        out.append(line)
        index += 1
    return "\n".join(out).strip()


#: Rule hooks that are not ``firstresult``: each variant answers in turn.
CHAINED = ("cinco_game_params",)
#: Rule hooks whose answers are all collected (hook API 3: a variant's declared actions).
COLLECTED = ("cinco_declare_actions",)


def _group(name: str, spec: dict[str, Any]) -> int:
    if name.startswith(f"{hookspecs.PROJECT}_register_"):
        return 0
    return 1 if spec.get("firstresult") or name in CHAINED or name in COLLECTED else 2


def hooks() -> list[tuple[str, Callable[..., Any], dict[str, Any]]]:
    """Every hookspec, in the order of the module: name, function, pluggy options."""
    marker = f"{hookspecs.PROJECT}_spec"
    found = [
        (name, function, getattr(function, marker))
        for name, function in vars(hookspecs).items()
        if callable(function) and hasattr(function, marker)
    ]
    return sorted(found, key=lambda item: item[1].__code__.co_firstlineno)


def _hook_section(name: str, function: Callable[..., Any], spec: dict[str, Any]) -> str:
    signature = inspect.signature(function)
    params = ", ".join(
        f"{p.name}: {p.annotation}" if p.annotation is not p.empty else p.name
        for p in signature.parameters.values()
    )
    returns = signature.return_annotation
    header = f"def {name}({params}) -> {returns}"
    if spec.get("firstresult"):
        result = "the **first** non-`None` result wins; later implementations are not called."
    elif name in CHAINED:
        result = (
            "each enabled variant is asked in turn, in the order of the game's variants; a "
            "non-`None` answer is what the next one sees, and the last answer is the game's."
        )
    elif name in COLLECTED:
        result = "every enabled variant is asked once, when a game is set up; every list is kept."
    else:
        kind = "collected from every plugin" if _group(name, spec) == 0 else "ignored"
        result = f"every implementation is called; results are {kind}."
    arguments = [f"- `{p.name}`: `{p.annotation}`" for p in signature.parameters.values()]
    if arguments:
        arguments = [
            "**Arguments** (an implementation may take any of them, by name):",
            "",
            *arguments,
            "",
        ]
    else:
        arguments = ["**Arguments:** none.", ""]
    doc = to_markdown(inspect.getdoc(function) or "")
    return "\n".join(
        [
            f"### `{name}`",
            "",
            "```python",
            header,
            "```",
            "",
            f"**Result:** {result}",
            "",
            *arguments,
            doc,
        ]
    )


def _supported() -> str:
    oldest, newest = hookspecs.OLDEST_HOOK_API_VERSION, hookspecs.HOOK_API_VERSION
    if oldest == newest:
        return f"Plugins targeting API {newest} are loaded; others are refused at load."
    return f"Plugins targeting API {oldest} to {newest} are loaded; others are refused at load."


def reference() -> str:
    """The whole generated reference, in Markdown."""
    parts = [
        "<!-- Generated by `python -m cinco.core.tools.hookdoc` from core/hooks/hookspecs.py: "
        "do not edit by hand. -->",
        "",
        f"Hook API version: **{hookspecs.HOOK_API_VERSION}**. {_supported()} Declare the "
        f"version your plugin targets with `CINCO_HOOK_API = {hookspecs.HOOK_API_VERSION}` in "
        "the plugin module.",
    ]
    found = hooks()
    for index, (title, text) in enumerate(GROUPS):
        parts += ["", f"## {title}", "", text]
        for name, function, spec in found:
            if _group(name, spec) == index:
                parts += ["", _hook_section(name, function, spec)]
    return "\n".join(parts).rstrip() + "\n"


HOOKS_PAGE = """# Hooks

The hooks a Cinco plugin implements, generated from the docstrings of `core/hooks/hookspecs.py`.
How to write, test and publish a plugin: [Writing plugins](plugins.md).

{begin}
{end}
"""


def update(text: str, generated: str) -> str:
    """*text* with the part between the markers replaced by *generated*."""
    try:
        head, rest = text.split(BEGIN, 1)
        _old, tail = rest.split(END, 1)
    except ValueError:
        raise ValueError(f"the markers {BEGIN} and {END} are missing") from None
    return f"{head}{BEGIN}\n{generated}{END}{tail}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cinco.core.tools.hookdoc", description=__doc__)
    parser.add_argument("files", nargs="*", type=Path, help="default: " + " ".join(DEFAULT_FILES))
    parser.add_argument("--check", action="store_true", help="only check, change nothing")
    args = parser.parse_args(argv)
    generated = reference()
    stale = []
    for path in args.files or [Path(name) for name in DEFAULT_FILES]:
        if path.exists():
            old = path.read_text(encoding="utf-8")
        elif args.check:
            print(f"{path}: not found (run this at the repository root)", file=sys.stderr)
            return 1
        else:
            old = HOOKS_PAGE.format(begin=BEGIN, end=END)
        try:
            new = update(old, generated)
        except ValueError as exc:
            print(f"{path}: {exc}", file=sys.stderr)
            return 2
        if new != old:
            stale.append(path)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    for path in stale:
        print(f"{path}: {'out of date' if args.check else 'updated'}", file=sys.stderr)
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
