"""The frontends reach a game only through a table's seat handles (``docs/seat-protocol.md``).

No module of ``frontends/`` (the Kivy app has its own check) may hold the referee's game: no
``cinco.core.game.game`` import, no ``Game.``, no record writer, no referee state's hands or draw
pile, and never the seed of a configuration (it fixes every shuffle: S2).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

FRONTENDS = Path(__file__).resolve().parents[2] / "frontends"

FORBIDDEN = [
    (re.compile(r"^\s*(from|import)\s+cinco\.core\.game\b", re.M), "imports cinco.core.game.game"),
    (re.compile(r"^\s*from\s+cinco\.core\s+import\s+[^\n]*\bgame\b", re.M), "imports the game"),
    (re.compile(r"^\s*from\s+\.+core\.game\b", re.M), "imports cinco.core.game.game"),
    (re.compile(r"\bGame\."), "uses Game."),
    (re.compile(r"\bRecordWriter\b"), "uses RecordWriter"),
    (re.compile(r"\.state\.hands\b"), "reads a referee state's hands"),
    (re.compile(r"\.state\.draw_pile\b"), "reads a referee state's draw pile"),
    (re.compile(r"\bgame\.state\b"), "reads a game's referee state"),
    (re.compile(r"\bconfig\.seed\b"), "reads config.seed"),
]


def modules() -> list[Path]:
    return sorted(
        path
        for path in FRONTENDS.rglob("*.py")
        if "kivy_app" not in path.relative_to(FRONTENDS).parts
    )


def test_the_scan_sees_the_terminal() -> None:
    names = {path.relative_to(FRONTENDS).as_posix() for path in modules()}
    assert {"main.py", "options.py", "terminal/app.py", "terminal/hint.py"} <= names
    assert not any(name.startswith("kivy_app/") for name in names)


@pytest.mark.parametrize("path", modules(), ids=lambda path: path.relative_to(FRONTENDS).as_posix())
def test_no_frontend_module_touches_the_referee(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = [
        f"line {text.count(chr(10), 0, match.start()) + 1}: {why} ({match.group(0).strip()!r})"
        for pattern, why in FORBIDDEN
        for match in pattern.finditer(text)
    ]
    assert not found, f"{path.relative_to(FRONTENDS)}: " + "; ".join(found)


@pytest.mark.parametrize(
    "source",
    [
        "from cinco.core.game.game import Game\n",
        "game = Game.new(config)\n",
        "writer = RecordWriter(path)\n",
        "cards = table.state.hands[0]\n",
        "left = game.state.draw_pile\n",
        "print(options.config.seed)\n",
    ],
)
def test_the_scan_catches_each_kind(source: str) -> None:
    assert any(pattern.search(source) for pattern, _why in FORBIDDEN)
