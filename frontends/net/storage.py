"""Which store ``cinco serve --db`` opens: an SQLite file (the default, one process) or a
PostgreSQL database (``postgresql://USER@HOST:PORT/DB``: several processes; needs psycopg).

>>> is_database_url("postgresql://cinco@db.example:5432/cinco"), is_database_url("server.db")
(True, False)
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from cinco.core.table.sink import EventSink

from .store import SeatRow, Store, StoreError, TableRow

SCHEMES = ("postgresql://", "postgres://")


class LobbyStore(Protocol):
    """What the server asks of its store: the SQLite :class:`Store` and :class:`PgStore`."""

    def add_table(
        self,
        table_id: str,
        settings: dict[str, Any],
        hashes: tuple[str, str, str],
        seats: Sequence[tuple[str | None, str | None, str | None]],
        *,
        held: Sequence[str | None] | None = None,
    ) -> None: ...

    def tables(self) -> list[TableRow]: ...

    def seats(self, table_id: str) -> list[SeatRow]: ...

    def set_seat(
        self,
        table_id: str,
        seat: int,
        name: str | None,
        token_hash: str | None,
        *,
        held: str | None = None,
    ) -> None: ...

    def set_rematch(self, table_id: str, rematch: str) -> None: ...

    def set_state(self, table_id: str, state: str) -> None: ...

    def set_clocks(self, table_id: str, readings: dict[str, Any], *, wait: bool = True) -> None: ...

    def clocks(self, table_id: str) -> dict[str, Any] | None: ...

    def sink(self, table_id: str, keep: int = 0) -> EventSink:
        """Where *table_id*'s events go from event number *keep* on (made and used in the
        table's own thread)."""
        ...

    def events(self, table_id: str) -> list[dict[str, Any]]: ...

    def close(self) -> None: ...


def is_database_url(db: object) -> bool:
    """Whether *db* names a PostgreSQL database rather than an SQLite file."""
    return isinstance(db, str) and db.startswith(SCHEMES)


#: The PostgreSQL store, loaded by name: it needs psycopg, which only such a database asks for.
STORE_PG = "cinco.frontends.net.store_pg"


def open_store(db: str | Path, *, owner: str | None = None) -> LobbyStore:
    """The store *db* names: :class:`PgStore` for a ``postgresql://`` URL (*owner*: this
    process's name in its leases), else the SQLite file's :class:`Store`, locked for this
    process. :class:`StoreError` says why it cannot be used: taken by another server,
    read-only, not a database, unreachable."""
    if is_database_url(db):
        try:
            store_pg = importlib.import_module(STORE_PG)  # needs psycopg, an extra
        except ImportError as exc:
            raise StoreError(
                f"a PostgreSQL --db needs psycopg: pip install 'cinco[server]' ({exc})"
            ) from None
        store: LobbyStore = store_pg.PgStore(str(db), owner=owner)
        return store
    return Store(db)
