"""The browser for the web client's tests (tests/helpers/browser.py): a fresh headless
Chromium per test, each page in a context of its own (its own storage, as another device).

Without Chromium or Playwright the tests skip, saying which is missing, except in CI
(``CI=true``), where ``.ci/run`` installs both: there they fail.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from browser import NoBrowser, chromium

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture
def browser() -> Iterator[Browser]:
    try:
        with chromium() as launched:
            yield launched
    except NoBrowser as exc:
        if os.environ.get("CI"):
            pytest.fail(f"{exc}: .ci/run installs it")
        pytest.skip(str(exc))
