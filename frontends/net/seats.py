"""The seats this person holds on servers, kept on disk so that ``cinco join`` can come back.

A seat token is the only key to a seat. ``cinco join URL CODE`` writes it to ``seats.json`` in
Cinco's user data folder (``~/.local/share/cinco`` on Linux; the file is made with mode 0600,
readable by this user only), keyed by the server's address and the table's id, with the
SHA-256 of the invite code it was joined with. If the client process stops (a crash, a closed
terminal, Ctrl-C), the same ``cinco join URL CODE`` finds the entry, asks the server for the
seat back (the token rotates: the stored one is replaced by the new one) and carries on.
Leaving the table (``q``) or the game's end removes the entry.

>>> import tempfile
>>> book = SeatBook(Path(tempfile.mkdtemp()) / "seats.json")
>>> book.remember("http://h:8765", "t1", 0, "tok", "ABCD-EFGH-JKMN")
>>> book.find("http://h:8765", "abcd-efgh-jkmn")["token"]
'tok'
>>> oct(book.path.stat().st_mode & 0o777)
'0o600'
>>> book.forget("http://h:8765", "t1"); book.find("http://h:8765", "ABCD-EFGH-JKMN") is None
True
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .store import digest


def normal_code(code: str) -> str:
    return code.strip().upper().replace(" ", "")


def default_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("cinco")) / "seats.json"


class SeatBook:
    """``seats.json``: ``{"SERVER|TABLE": {"server", "table", "seat", "token", "code"}}``."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {key: value for key, value in data.items() if isinstance(value, dict)}

    def _write(self, data: dict[str, dict[str, Any]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # A new file of mode 0600 renamed over the old one: never readable by others, never
        # half written.
        handle, name = tempfile.mkstemp(prefix=".seats-", dir=self.path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(data, out, indent=1, sort_keys=True)
            os.chmod(name, 0o600)
            os.replace(name, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(name)
            raise

    @staticmethod
    def key(server: str, table: str) -> str:
        return f"{server.rstrip('/')}|{table}"

    def remember(self, server: str, table: str, seat: int, token: str, code: str) -> None:
        data = self._read()
        data[self.key(server, table)] = {
            "server": server.rstrip("/"),
            "table": table,
            "seat": seat,
            "token": token,
            "code": digest(normal_code(code)),
        }
        self._write(data)

    def forget(self, server: str, table: str) -> None:
        data = self._read()
        if data.pop(self.key(server, table), None) is not None:
            self._write(data)

    def get(self, server: str, table: str) -> dict[str, Any] | None:
        return self._read().get(self.key(server, table))

    def find(self, server: str, code: str) -> dict[str, Any] | None:
        """The seat held at *server*'s table with invite *code*, if this person has one."""
        hashed = digest(normal_code(code))
        for entry in self._read().values():
            if entry.get("server") == server.rstrip("/") and entry.get("code") == hashed:
                return entry
        return None
