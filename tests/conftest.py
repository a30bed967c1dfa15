"""Shared test setup: the tests read English unless a test chooses a language itself.

A developer whose locale is Ukrainian (``LANG=uk_UA.UTF-8``) gets a Ukrainian ``cinco``; the
tests that assert English texts must not depend on that, so ``CINCO_LANG`` defaults to ``en``
here (tests/core/words/test_i18n.py sets and clears the language variables itself).

The ``server`` fixture is a real ``cinco serve`` on 127.0.0.1 with a fresh SQLite database,
for the networked tests (tests/helpers/live_server.py); a module may define its own instead. The
``postgres`` fixture is a PostgreSQL server of the session's own (pg_server.py), for the
tests of the PostgreSQL store; they are skipped where psycopg or PostgreSQL is missing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from xvfb import NoDisplay, private_display

if TYPE_CHECKING:
    from live_server import Server
    from pg_server import Postgres

os.environ.setdefault("CINCO_LANG", "en")


@pytest.fixture
def english_afterwards() -> Iterator[None]:
    """The language back to English after the test, and no test catalog folder left set:
    a test that chooses a language leaves the next one in English."""
    from cinco.core.words import i18n

    yield
    os.environ.pop(i18n.LOCALE_DIR_VAR, None)
    i18n.set_language(i18n.SOURCE_LANGUAGE)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    from live_server import Server, free_port  # only the networked tests need the client

    running = Server(tmp_path / "server.db", free_port(), tmp_path / "server.log")
    running.start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    """A display for the Kivy app: the one there is, or a private Xvfb for the session. Without
    either the test skips, except in CI (CI=true), where .ci/run installs Xvfb: there it fails."""
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    try:
        with private_display() as number:
            yield number
    except NoDisplay as exc:
        if os.environ.get("CI"):
            pytest.fail(f"{exc} (.ci/run installs it)")
        pytest.skip(str(exc))


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """One PostgreSQL server for the session (each test makes its databases on it)."""
    pytest.importorskip("psycopg")
    from pg_server import NoPostgres, running_postgres  # needs psycopg

    try:
        with running_postgres() as running:
            yield running
    except NoPostgres as exc:
        pytest.skip(str(exc))
