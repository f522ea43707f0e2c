"""A real PostgreSQL server for the tests: initdb and pg_ctl on a temporary folder and a free port.

initdb refuses to run as root, and CI runs as root: then the server runs as the `postgres`
user the Debian package creates (else `nobody`), owning its temporary folder. If the server
cannot start, `PostgresServer.start` raises with the reason (the tests fail; they never skip).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

import psycopg

# Speed over safety: a throwaway server whose data dies with the test session.
FAST = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300"


class PostgresUnavailable(RuntimeError):
    """The test server could not be started; the message says why."""


def binaries() -> Path:
    """The folder of initdb and pg_ctl: on PATH, else the newest /usr/lib/postgresql/N/bin."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(os.path.realpath(found)).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                      key=lambda p: int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0)
    if not versions:
        raise PostgresUnavailable("no PostgreSQL server programs (initdb, pg_ctl) on PATH or in "
                                  "/usr/lib/postgresql/*/bin; install the 'postgresql' package (scripts/test does)")
    return Path(versions[-1]).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """One server; `url(db)` for a database on it, `new_database()` for a fresh empty one."""

    def __init__(self) -> None:
        self.bin = binaries()
        self.folder = Path(tempfile.mkdtemp(prefix="muster-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = next((u for u in ("postgres", "nobody") if _exists(u)), None)
            if self.user is None:
                raise PostgresUnavailable("running as root and no 'postgres' or 'nobody' user to run the server as")

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.folder)
        if done.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise PostgresUnavailable(f"{args[0]} failed ({done.returncode}): {done.stderr.strip()} {tail}".strip())

    def start(self, durable: bool = False) -> PostgresServer:
        """Start the server; fast and unsafe for tests, `durable` (fsync and synchronous commits) for benchmarks."""
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "muster", "--auth=trust", "-E", "UTF8", "--no-sync",
                  "--no-instructions")
        settings = "-c max_connections=300" if durable else FAST
        self.options = f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.folder} {settings}"
        self.resume()
        return self

    def pause(self) -> None:
        """Stop the server as an administrator would (`pg_ctl stop -m fast`), keeping its data for `resume`."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start the server (again) on its data folder and port."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"), "-o", self.options, "-w",
                  "-t", "60", "start")

    def stop(self, mode: str = "immediate") -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://muster@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} STRATEGY FILE_COPY")  # faster than WAL_LOG for tiny databases
        return self.url(name)

    def drop_database(self, url: str) -> None:
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)")


def _exists(user: str) -> bool:
    try:
        pwd.getpwnam(user)
    except KeyError:
        return False
    return True
