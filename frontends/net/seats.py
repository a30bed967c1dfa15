"""The seats this person holds on servers, kept on disk so that ``cinco join`` can come back.

A seat token is the only key to a seat. ``cinco join URL CODE`` writes it to ``seats.json`` in
Cinco's user data folder (``~/.local/share/cinco`` on Linux; the file is made with mode 0600,
readable by this user only), keyed by the server's address and the table's id, with the
SHA-256 of the invite code it was joined with, and by *who* joined: the ``--name`` given (so
that two people on one computer account hold two seats), or ``--bot NAME`` for a nameless bot
client. Each entry also names the process that holds the seat: while it runs, another
``cinco join`` does not take the seat over (it joins a seat of its own). If that process stops
(a crash, a closed terminal, Ctrl-C, ``kill -9``), the same ``cinco join URL CODE`` finds the
entry, asks the server for the seat back (the token rotates: the stored one is replaced by
the new one) and carries on. Leaving the table (``q``) removes the entry.

>>> import tempfile
>>> book = SeatBook(Path(tempfile.mkdtemp()) / "seats.json")
>>> book.remember("http://h:8765", "t1", 0, "tok", "ABCD-EFGH-JKMN")
>>> book.find("http://h:8765", "abcd-efgh-jkmn")["token"]
'tok'
>>> oct(book.path.stat().st_mode & 0o777)
'0o600'
>>> book.find("http://h:8765", "ABCDEFGHJKMN", who="bob") is None  # another person's
True
>>> book.forget("http://h:8765", "t1"); book.find("http://h:8765", "ABCD-EFGH-JKMN") is None
True
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir


def digest(secret: str) -> str:
    """The stored form of a token or a code: its SHA-256, in hex (here, beside the codes, so
    that a client, the app included, imports nothing of the server's store)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def normal_code(code: str) -> str:
    """As the server reads codes: without spaces or dashes, in any case (``lobby.py``)."""
    letters = "".join(ch for ch in code.upper() if ch.isascii() and ch.isalnum())
    return "-".join(letters[i : i + 4] for i in range(0, len(letters), 4))


def who_of(name: str | None, bot: str | None = None) -> str:
    """Whose seat an entry is: the name given at join (case and spaces aside), else
    ``--bot NAME`` for a bot client, else ``""`` (a person who gave no name)."""
    if name is not None and name.strip():
        return " ".join(name.casefold().split())
    return f"--bot {bot}" if bot else ""


def _started(pid: int) -> str | None:
    """When process *pid* started (clock ticks since boot, from /proc), where that can be
    read: with its pid, it tells a process from a later one that got the same pid."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()
    return fields[19] if len(fields) > 19 else None


def running(pid: object, started: object) -> bool:
    """Whether the process that wrote an entry still runs (this process does not count)."""
    if not isinstance(pid, int) or pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process has that pid now
        return False
    return started is None or _started(pid) in (None, started)


def default_path() -> Path:
    return Path(user_data_dir("cinco")) / "seats.json"


class SeatBook:
    """``seats.json``: ``{"SERVER|TABLE[|WHO]": {"server", "table", "seat", "token", "code",
    "who", "pid", "started"}}``."""

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
    def key(server: str, table: str, who: str = "") -> str:
        base = f"{server.rstrip('/')}|{table}"
        return f"{base}|{who}" if who else base

    def remember(
        self, server: str, table: str, seat: int, token: str, code: str, *, who: str = ""
    ) -> None:
        data = self._read()
        data[self.key(server, table, who)] = {
            "server": server.rstrip("/"),
            "table": table,
            "seat": seat,
            "token": token,
            "code": digest(normal_code(code)),
            "who": who,
            "pid": os.getpid(),
            "started": _started(os.getpid()),
        }
        self._write(data)

    def forget(self, server: str, table: str, *, who: str = "") -> None:
        data = self._read()
        if data.pop(self.key(server, table, who), None) is not None:
            self._write(data)

    def get(self, server: str, table: str, *, who: str | None = None) -> dict[str, Any] | None:
        """The entry of *who* at *table* (``None``: anyone's on this account)."""
        data = self._read()
        if who is not None:
            return data.get(self.key(server, table, who))
        server = server.rstrip("/")
        found = [e for e in data.values() if e.get("server") == server and e.get("table") == table]
        return found[0] if found else None

    def find(self, server: str, code: str, *, who: str = "") -> dict[str, Any] | None:
        """The seat *who* holds at *server*'s table with invite *code*, unless another
        process that still runs holds it (that one plays it: this one needs its own)."""
        hashed = digest(normal_code(code))
        for entry in self._read().values():
            if (
                entry.get("server") == server.rstrip("/")
                and entry.get("code") == hashed
                and entry.get("who", "") == who
                and not running(entry.get("pid"), entry.get("started"))
            ):
                return entry
        return None
