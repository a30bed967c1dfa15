"""docs/rules.md is the text `cinco rules` prints (in English, with the built-in variants),
so the two never drift apart."""

from __future__ import annotations

from pathlib import Path

from cinco.core.host.registry import Registry
from cinco.frontends.terminal.rules_text import rules_page

ROOT = Path(__file__).resolve().parents[3]


def test_docs_rules_page_is_the_text_cinco_rules_prints() -> None:
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert page.strip() == rules_page(Registry(entry_points=False)).strip(), (
        "docs/rules.md is stale: regenerate it with\n"
        "python -c 'from cinco.frontends.terminal.rules_text import rules_page; "
        "from cinco.core.host.registry import Registry; "
        'print(rules_page(Registry(entry_points=False)), end="")\' > docs/rules.md'
    )
