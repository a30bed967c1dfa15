"""Fixtures of the server's in-process tests (Starlette's TestClient): a database file and a
client of a server on it. The server's packages are an extra: a test module that uses these
skips itself first when they are missing (``pytest.importorskip``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Where the server keeps its tables (a new file each test)."""
    return tmp_path / "server.db"


@pytest.fixture
def client(db: Path) -> Iterator[Any]:
    """A TestClient of a server on :func:`db`, started and stopped around the test."""
    from starlette.testclient import TestClient

    from cinco.frontends.net.app import create_app

    with TestClient(create_app(db)) as test_client:
        yield test_client
