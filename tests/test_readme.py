"""The README's Python example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

from cinco.core.table.handle import SeatHandle
from cinco.core.table.protocol import Accepted

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    assert blocks, "the README has no Python example"
    for block in blocks:
        namespace: dict[str, object] = {}
        exec(compile(block, str(README), "exec"), namespace)
        # The example sits Ann at a table: her play is accepted and the bot answers, all seen
        # through her seat handle (its view is hers, folded from her stream).
        ann = namespace["ann"]
        assert isinstance(ann, SeatHandle)
        assert isinstance(namespace["answer"], Accepted)
        assert ann.view.turn >= 2  # Ann moved, the bot answered
        assert all(card == 0 for card in ann.view.hand(1))  # the bot's cards stay hidden
