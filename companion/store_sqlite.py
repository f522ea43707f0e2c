"""The SQLite table store: one file, the default for a table of friends on one machine.

Writes take the database lock from the start (`BEGIN IMMEDIATE`), so appends are serialised
and `head + 1` is always free; `UNIQUE(table_id, seq)` is the backstop. WAL with
`synchronous=FULL`: a commit is on disk before the phone hears "done", so a power cut loses
nothing acknowledged (the cost is measured in docs/performance.md).

Telling a sick file from a busy one: only SQLite itself calling the file malformed
(SQLITE_CORRUPT, SQLITE_NOTADB, or `PRAGMA quick_check` finding damage) sets the file aside,
renamed with its `-wal` and `-shm`, and starts a fresh store with a notice. Busy, read-only,
full or unreadable files, an SQLite database of another application, and a database from a
newer Muster are `StoreUnavailable`: the file is left exactly as it is. A file deleted or
replaced under the running app is noticed before every use; if it was deleted, what the
open connections still hold is written back to its path first, so nothing acknowledged is lost.
"""

from __future__ import annotations

import os
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

from companion.store import SCHEMA_VERSION, Store, StoreUnavailable, recovered, unavailable

POOL_SIZE = 8
BUSY_TIMEOUT = 2.0
"""How long a write waits for another program's lock before the phone is told the store is locked. A tap is
one short transaction (a few ms with its fdatasync), so this server's own writers never wait this long for
each other (bench/bench_store_lock.py: none of thousands of concurrent taps did); a program that holds the
lock longer (a backup tool, an sqlite3 shell inside BEGIN) is named within 2 s, not after a 30 s wait with
the tap dimmed. Nothing was written, so the player's next tap is safe (its request id stores it once)."""
ROOM = 16 * 4096
"""Free bytes on the store's file system that `answers` asks for: a tap appends a few pages to the WAL (its
action, the index entries, the table's change counter), each 4 KB and a frame header, so 16 pages is room for
one with a margin, and little enough that a nearly full disk with room to play is not called full."""
SYNCHRONOUS = "FULL"  # with WAL: every commit survives a power cut (bench/bench_store.py measures NORMAL too)
# SQLite's primary result codes (the low byte of `sqlite_errorcode`).
BUSY, LOCKED, READONLY, IOERR, CORRUPT, FULL, CANTOPEN, NOTADB = 5, 6, 8, 10, 11, 13, 14, 26

SCHEMA = [
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE tables (
        id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, seed TEXT NOT NULL, options TEXT NOT NULL,
        code TEXT NOT NULL UNIQUE, created REAL NOT NULL, last_activity REAL NOT NULL,
        status TEXT NOT NULL DEFAULT 'playing', winner INTEGER, ended_by TEXT, host_token TEXT,
        changed INTEGER NOT NULL DEFAULT 0, host_device TEXT)""",
    """CREATE TABLE seats (
        table_id INTEGER NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, name TEXT NOT NULL,
        token TEXT NOT NULL UNIQUE, claimed INTEGER NOT NULL DEFAULT 0, device TEXT, PRIMARY KEY (table_id, seat))""",
    """CREATE TABLE actions (
        id INTEGER PRIMARY KEY AUTOINCREMENT, table_id INTEGER NOT NULL REFERENCES tables(id),
        seq INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL, at REAL NOT NULL, request_id TEXT,
        UNIQUE (table_id, seq))""",
    "CREATE UNIQUE INDEX actions_request ON actions (table_id, request_id)",
    """CREATE TABLE results (
        table_id INTEGER NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, name TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')), at REAL NOT NULL,
        PRIMARY KEY (table_id, seat))""",
    "CREATE INDEX tables_lobby ON tables (status, last_activity)",
]
# Columns every Muster store has had since version 1: without them a file is not ours.
CORE_COLUMNS = {
    "tables": {"id", "game", "seed", "options", "code", "created", "last_activity", "status", "winner", "ended_by"},
    "seats": {"table_id", "seat", "name", "token"},
}
UPGRADES: dict[int, list[str]] = {
    # 1 -> 2: host links and seat claims (old seats count as claimed: their links are already out).
    1: ["ALTER TABLE tables ADD COLUMN host_token TEXT",
        "ALTER TABLE seats ADD COLUMN claimed INTEGER NOT NULL DEFAULT 1",
        """CREATE TABLE IF NOT EXISTS actions (
            id INTEGER PRIMARY KEY AUTOINCREMENT, table_id INTEGER NOT NULL REFERENCES tables(id),
            seq INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL, at REAL NOT NULL,
            UNIQUE (table_id, seq))""",
        """CREATE TABLE IF NOT EXISTS results (
            table_id INTEGER NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, name TEXT NOT NULL,
            outcome TEXT NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')), at REAL NOT NULL,
            PRIMARY KEY (table_id, seat))"""],
    # 2 -> 3: request ids, the phone holding a seat, the change counter phones poll.
    2: ["ALTER TABLE actions ADD COLUMN request_id TEXT",
        "CREATE UNIQUE INDEX actions_request ON actions (table_id, request_id)",
        "ALTER TABLE seats ADD COLUMN device TEXT",
        "ALTER TABLE tables ADD COLUMN changed INTEGER NOT NULL DEFAULT 0"],
    # 3 -> 4: the lobby's newest tables in progress come from an index, not a scan of every table ever played.
    3: ["CREATE INDEX tables_lobby ON tables (status, last_activity)"],
    # 4 -> 5: the phone that opened a table's host link, so its lobby offers that link again.
    4: ["ALTER TABLE tables ADD COLUMN host_device TEXT"],
}

T = TypeVar("T")


class _Damaged(Exception):
    """SQLite itself reports the file malformed."""


class _Connection(sqlite3.Connection):
    """A connection that knows how long it waits for another program's lock (`_wait`); every connection of the
    store is one (`SQLiteStore._new_connection`)."""

    busy_ms = -1


def _wait(conn: _Connection, ms: int) -> None:
    """Set how long `conn` waits for another program's lock, only when that changes: a write asks at every tap,
    and a statement is not free (it lets go of Python's lock, which another thread may then hold a while)."""
    if conn.busy_ms != ms:
        conn.execute(f"PRAGMA busy_timeout={ms}")
        conn.busy_ms = ms


def _code(err: sqlite3.Error) -> int | None:
    code = getattr(err, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


class SQLiteStore(Store):
    """Every table in one SQLite file; safe to share between threads and processes."""

    def __init__(self, path: Path, busy_timeout: float | None = None) -> None:
        self.path = Path(path)
        self.busy_timeout = BUSY_TIMEOUT if busy_timeout is None else busy_timeout
        self.notice: str | None = None
        self._pool: queue.Queue[_Connection] = queue.Queue(maxsize=POOL_SIZE)
        self._identity: tuple[int, int] | None = None
        self._turn = threading.Lock()  # this server's writers, in turn (`_write`)
        self._locked_out = False  # the last write found another program holding the lock
        self._open()

    @property
    def location(self) -> str:
        return str(self.path)

    # -- opening, upgrading, and setting a damaged file aside ------------------------------------

    def _open(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise self._fault(f"The folder for the table store {self.path} cannot be created"
                              f"{self._read_only_fs() or f' ({err.strerror or err})'}.") from None
        try:
            self._prepare()
        except _Damaged as err:
            self.close()
            kept = self._set_aside()
            self._prepare()
            self.notice = (f"The table store at {self.path} is damaged ({err}). It was kept as {kept.name} "
                           "(with its -wal and -shm files) and a fresh store was started.")
        self._identity = self._stat()

    def _prepare(self) -> None:
        """Check the file, then create or upgrade the schema in one transaction."""
        existed = self.path.exists() and self.path.stat().st_size > 0
        conn: sqlite3.Connection | None = None
        try:
            if existed:
                self._inspect()
            conn = self._new_connection(create=True)
            conn.execute("BEGIN IMMEDIATE")
            self._schema(conn)
            conn.execute("COMMIT")
            conn.execute("PRAGMA journal_mode=WAL")  # only once the file is known to be ours
        except sqlite3.Error as err:
            if _code(err) in (CORRUPT, NOTADB):
                raise _Damaged(str(err)) from None
            raise self._explain(err) from None
        finally:
            if conn is not None:
                conn.close()  # closing rolls back whatever was not committed

    def _inspect(self) -> None:
        """Check an existing file before any connection that could write to it opens: its integrity
        (`PRAGMA quick_check`), that it is a Muster store, and that this Muster knows its schema version.

        Read-only, so a file refused here keeps every byte: a read-only connection never checkpoints the
        WAL into the file. A WAL file without its -shm needs a writer to open; then a reader is opened
        beside it and the writer closed first, so it is not the last connection and does not checkpoint.
        A schema this SQLite cannot parse (as a newer SQLite may write) is not proof of damage: refused,
        left as it is."""
        try:
            self._inspect_with(self._reader())
        except sqlite3.DatabaseError as err:
            if "malformed database schema" not in str(err):
                raise
            raise self._fault(
                f"The table store {self.path} has a schema this SQLite ({sqlite3.sqlite_version}) cannot read "
                f"({err}): a newer SQLite may have written it. Muster left the file as it is; run Muster with "
                "a newer Python (and its SQLite), or choose another data folder.") from None

    def _reader(self) -> _Connection:
        """A read-only connection (see `_inspect` for a WAL file without its -shm)."""
        try:
            return self._new_connection(mode="ro")
        except sqlite3.Error as err:
            if _code(err) != CANTOPEN:
                raise
        writer = self._new_connection()
        try:
            return self._new_connection(mode="ro")
        finally:
            writer.close()  # not the last connection: no checkpoint

    def _inspect_with(self, conn: sqlite3.Connection) -> None:
        try:
            row = conn.execute("PRAGMA quick_check").fetchone()
            if row is None or row[0] != "ok":
                raise _Damaged(f"integrity check: {row[0] if row else 'no answer'}")
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
                     if not r[0].startswith("sqlite_")}
            if names:
                self._known_version(self._version(conn, names))
        finally:
            conn.close()

    def _known_version(self, version: int) -> None:
        if version > SCHEMA_VERSION:
            raise self._fault(
                f"The table store {self.path} was written by a newer Muster (schema version {version}; "
                f"this one knows up to {SCHEMA_VERSION}). Upgrade Muster to use it; the file was not changed.")

    def _schema(self, conn: sqlite3.Connection) -> None:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
                 if not r[0].startswith("sqlite_")}
        if not names:
            for statement in SCHEMA:
                conn.execute(statement)
        else:
            version = self._version(conn, names)
            self._known_version(version)
            if version == SCHEMA_VERSION:
                return  # opening never writes to an up-to-date store
            for step in range(version, SCHEMA_VERSION):
                for statement in UPGRADES[step]:
                    conn.execute(statement)
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))

    def _version(self, conn: sqlite3.Connection, names: set[str]) -> int:
        """The schema version of a Muster store, or StoreUnavailable for a database of another application."""
        row = None
        if "meta" in names and {"tables", "seats"} <= names and all(
                needed <= {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
                for table, needed in CORE_COLUMNS.items()):
            row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None or not str(row[0]).isdigit():
            raise self._fault(
                f"The file {self.path} is an SQLite database of another application (it has the tables "
                f"{', '.join(sorted(names))}), not a Muster table store. Muster leaves it as it is; "
                "choose another data folder (--data-dir) or database (--database).")
        return int(row[0])

    def _set_aside(self) -> Path:
        """Rename the damaged file (and its WAL companions) with a timestamp; never overwrite one."""
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
        self.path.rename(target)
        for suffix in ("-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                side.rename(target.with_name(target.name + suffix))
        return target

    # -- connections, and what their errors mean -------------------------------------------------

    def _new_connection(self, create: bool = False, mode: str = "rw") -> _Connection:
        """A connection that never creates the file, except when opening the store."""
        uri = f"file:{quote(str(self.path.resolve()))}?mode={'rwc' if create else mode}"
        conn = sqlite3.connect(uri, uri=True, timeout=self.busy_timeout, isolation_level=None,
                               check_same_thread=False, factory=_Connection)
        _wait(conn, int(self.busy_timeout * 1000))
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
        return conn

    def _stat(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_dev, st.st_ino)

    def _fault(self, text: str, *, writing: bool = False) -> StoreUnavailable:
        return unavailable(text, str(self.path), writing=writing)

    def _read_only_fs(self) -> str:
        """' on a read-only file system (…)' when the store's folder is on one, else ''."""
        folder = self.path.parent
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        try:
            read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
        except OSError:
            return ""
        return f" is on a read-only file system ({folder})" if read_only else ""

    def _read_only(self, read_only_fs: str) -> str:
        where = f"The table store {self.path}"
        if read_only_fs:
            return (f"{where}{read_only_fs}, so nothing new can be saved. Everything saved so far is kept; "
                    "mount that file system writable (or choose another data folder), then try again.")
        return f"{where} is read-only. Nothing was changed; make the file and its folder writable, then try again."

    def _explain(self, err: sqlite3.Error) -> StoreUnavailable:
        code = _code(err)
        where = f"The table store {self.path}"
        read_only_fs = self._read_only_fs() if code in (READONLY, IOERR, FULL, CANTOPEN) else ""
        if code in (BUSY, LOCKED):
            text = (f"{where} is locked by another program (still busy after {self.busy_timeout:g} s). "
                    "Nothing was changed; try again in a moment.")
        elif read_only_fs or code == READONLY:
            text = self._read_only(read_only_fs)
        elif code in (FULL, IOERR):
            text = (f"{where} cannot be written: the disk is full or failing ({err}). Nothing was changed; "
                    "free some space, then try again.")
        elif code == CANTOPEN:
            text = (f"{where} cannot be opened ({err}); check that the file and its folder exist and are "
                    "readable and writable, then try again.")
        elif code in (CORRUPT, NOTADB):
            text = (f"{where} reports damage ({err}). Restart the companion: it keeps the damaged file aside, "
                    "as it is, and starts a fresh store.")
        else:
            text = f"{where} failed ({err}). Nothing was changed; try again."
        return self._fault(text, writing=code in (BUSY, LOCKED, READONLY, FULL) or bool(read_only_fs))

    def _file_changed(self, conn: sqlite3.Connection | None) -> StoreUnavailable:
        """The file was deleted or replaced under us: write back what we still hold if its path is free."""
        where = f"The table store {self.path}"
        if self._stat() is not None:
            return self._fault(f"{where} was replaced by another file while the companion was running. "
                                    "Muster will not write to it; restart the companion to use the new file.")
        if conn is None:
            return self._fault(f"{where} was deleted while the companion was running, and no open "
                                    "connection still held it. Restart the companion to start a fresh store.")
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            rescued = sqlite3.connect(self.path)
            try:
                conn.backup(rescued)
            finally:
                rescued.close()
        except (sqlite3.Error, OSError) as err:
            return self._fault(f"{where} was deleted while the companion was running, and its tables "
                                    f"could not be written back ({err}). Restart the companion.")
        conn.close()
        self.close()
        self._identity = self._stat()
        return self._fault(f"{where} was deleted while the companion was running. Muster wrote the "
                                "tables it still held back to that file; nothing was lost. Try again.")

    @contextmanager
    def _connect(self) -> Iterator[_Connection]:
        """A pooled connection (reopening per call would checkpoint the WAL on every close), on our file."""
        try:
            conn: _Connection | None = self._pool.get_nowait()
        except queue.Empty:
            conn = None
        if self._stat() != self._identity:
            raise self._file_changed(conn)
        if conn is None:
            try:
                conn = self._new_connection()
            except sqlite3.Error as err:
                raise self._explain(err) from None
        try:
            yield conn
        except sqlite3.Error as err:
            raise self._explain(err) from None
        finally:
            if conn.in_transaction:
                conn.close()
            else:
                try:
                    self._pool.put_nowait(conn)
                except queue.Full:
                    conn.close()

    def answers(self) -> None:
        """A read answers while another program holds the write lock (WAL readers never wait), so ask for the
        lock itself: an empty write transaction, which writes nothing. A full disk, or a file made read-only
        under a connection opened before, grants the lock all the same, so first ask the file system
        (`_writable`): else a page's message that the disk is full went within one poll, the disk still full."""
        self._writable(room=True)
        self._write(lambda conn: None)

    def _writable(self, room: bool) -> None:
        """The store's file can take a tap: writable, on a file system that is (and with `ROOM` free).

        Asked before every write too: a file made read-only under the running app still takes writes through
        the connections opened before (and into its -wal), so without this a `chmod 444` was not honoured."""
        try:
            free = os.statvfs(self.path.parent)
            writable = os.access(self.path, os.W_OK) or not self.path.exists()  # a deleted file: `_connect`
        except OSError:
            return  # the write that follows says what is wrong
        if not writable or free.f_flag & os.ST_RDONLY:
            raise self._fault(self._read_only(self._read_only_fs()), writing=True)
        if room and free.f_bavail * free.f_frsize < ROOM:
            raise self._fault(f"The table store {self.path} cannot be written: the disk is full (less than "
                              f"{ROOM // 1024} KB free in {self.path.parent}). Nothing was changed; free some "
                              "space, then try again.", writing=True)

    def close(self) -> None:
        while True:
            try:
                self._pool.get_nowait().close()
            except queue.Empty:
                return

    def _read(self, fn: Callable[[Any], T]) -> T:
        with self._connect() as conn:
            result = fn(conn)
        recovered(by_read=True)
        return result

    def _write(self, fn: Callable[[Any], T], *, retry_conflicts: bool = False) -> T:
        """One transaction holding the write lock from the start, so no other writer can interleave.

        This server's own writers take turns on `_turn`, first come first served, rather than in SQLite's busy
        handler: that one wakes its waiters on a timer, and under load let some of them wait past the busy
        timeout for this server's own taps and be told the store was locked (bench/bench_store_lock.py). Only
        another program's lock is waited for, `busy_timeout` at most, and not again by the writers queued
        behind a tap that met it: they are told at once, until a write gets the lock."""
        self._writable(room=False)
        with self._turn, self._connect() as conn:
            _wait(conn, 0 if self._locked_out else int(self.busy_timeout * 1000))
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as err:
                self._locked_out = _code(err) in (BUSY, LOCKED)
                raise
            self._locked_out = False
            try:
                result = fn(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        recovered()
        return result
