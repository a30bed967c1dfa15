"""A PostgreSQL server of the tests' own (``initdb`` in a temporary folder, ``postgres`` on
127.0.0.1 and a free port; as root, run as the ``postgres`` user), for the tests of the
PostgreSQL store: the ``postgres`` fixture in tests/conftest.py starts one per test session.
Needs psycopg and the PostgreSQL server binaries (Debian: ``apt-get install postgresql``).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
from live_server import free_port


class NoPostgres(Exception):
    """PostgreSQL cannot be run here (the reason): the tests that need it are skipped."""


def postgres_bin() -> Path | None:
    """The folder with ``initdb`` and ``postgres``: Debian's newest, or the PATH's."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "postgres").exists():
            return Path(folder)
    initdb, postgres = shutil.which("initdb"), shutil.which("postgres")
    if initdb and postgres and Path(initdb).parent == Path(postgres).parent:
        return Path(initdb).parent
    return None


@dataclass
class Postgres:
    """A PostgreSQL server of the tests' own, on 127.0.0.1:port, user ``cinco``, no password."""

    port: int
    process: subprocess.Popen[bytes]
    data: Path

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://cinco@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        name = f"t_{secrets.token_hex(4)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return self.url(name)


def _runner() -> tuple[list[str], pwd.struct_passwd | None]:
    """The command prefix that runs PostgreSQL (it refuses to run as root: as root, it runs
    as its own user) and that user."""
    if os.geteuid() != 0:
        return [], None
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        raise NoPostgres(
            "running as root and there is no postgres user to run PostgreSQL as"
        ) from None
    return ["runuser", "-u", "postgres", "--"], user


def _wait_until_up(server: Postgres, log: Path) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            psycopg.connect(server.url(), connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            assert server.process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "PostgreSQL did not start in 60 s"
            time.sleep(0.2)


def _stop(server: Postgres) -> None:
    pid_file = server.data / "postmaster.pid"  # the server's own pid (runuser is its parent)
    if pid_file.exists():
        os.kill(int(pid_file.read_text().split()[0]), signal.SIGINT)  # fast shutdown
    try:
        server.process.wait(30)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait(10)


@contextlib.contextmanager
def running_postgres() -> Iterator[Postgres]:
    """A PostgreSQL server for the block, stopped and removed at its end; :class:`NoPostgres`
    if there are no binaries to run."""
    folder = postgres_bin()
    if folder is None:
        raise NoPostgres(
            "no PostgreSQL server binaries (initdb, postgres) in /usr/lib/postgresql/*/bin or"
            " on PATH: apt-get install postgresql"
        )
    prefix, user = _runner()
    root = Path(tempfile.mkdtemp(prefix="cinco-pg-"))
    try:
        if user is not None:
            os.chown(root, user.pw_uid, user.pw_gid)
        data = root / "data"
        initdb = subprocess.run(
            [*prefix, str(folder / "initdb"), "-D", str(data), "-U", "cinco"]
            + ["--auth=trust", "-E", "UTF8", "--no-sync"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert initdb.returncode == 0, f"initdb failed: {initdb.stderr}"
        port = free_port()
        with open(root / "postgres.log", "wb") as log:
            process = subprocess.Popen(
                [*prefix, str(folder / "postgres"), "-D", str(data), "-k", str(root)]
                + ["-p", str(port), "-h", "127.0.0.1", "-c", "max_connections=60"],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            server = Postgres(port, process, data)
            try:
                _wait_until_up(server, root / "postgres.log")
                yield server
            finally:
                _stop(server)
    finally:
        shutil.rmtree(root, ignore_errors=True)
