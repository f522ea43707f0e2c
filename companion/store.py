"""The table store: one SQLite file holding every table, its seats and its action log.

A table's state is never stored, only its log: the state is a replay (see `companion.tables`).
Appends take the database write lock (`BEGIN IMMEDIATE`) and number the action
`last seq + 1`, so two phones acting at once are serialised; `UNIQUE(table_id, seq)`
is the backstop that turns any slip into an error instead of a lost or duplicated action.

Seat claims are not game actions: a seat's `claimed` flag and token change in place
(claiming is one conditional UPDATE, so two phones cannot take the same seat; a release
rotates the token so the old link stops working), while the action log stays append-only.

A file that is not a readable Muster database is renamed aside with a timestamp
suffix (never overwritten) and a fresh store is started; `Store.notice` says so.
"""

from __future__ import annotations

import json
import os
import queue
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

SCHEMA_VERSION = 2
DB_NAME = "muster.sqlite3"
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
POOL_SIZE = 8

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    seed TEXT NOT NULL,
    options TEXT NOT NULL,
    code TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    last_activity REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',
    winner INTEGER,
    ended_by TEXT,
    host_token TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    claimed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    UNIQUE (table_id, seq)
);
CREATE TABLE IF NOT EXISTS results (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seat)
);
"""

T = TypeVar("T")


class StoreError(Exception):
    """A store operation the user asked for cannot be done; the message says why."""


@dataclass(frozen=True)
class Seat:
    """A named place at a table; `token` is the secret in that seat's private link, `claimed` that a phone holds it."""

    seat: int
    name: str
    token: str
    claimed: bool = False


@dataclass(frozen=True)
class TableInfo:
    """One table row with its seats, as the pages need it."""

    id: int
    game: str
    seed: str
    options: dict[str, Any]
    code: str
    created: float
    last_activity: float
    status: str
    winner: int | None
    ended_by: str | None
    seats: tuple[Seat, ...]
    host_token: str | None = None

    @property
    def playing(self) -> bool:
        return self.status == "playing"

    def seat_by_token(self, token: str | None) -> Seat | None:
        if not token:
            return None
        return next((s for s in self.seats if secrets.compare_digest(s.token, token)), None)

    def is_host(self, token: str | None) -> bool:
        """Whether `token` is this table's host token (tables made before hosts existed have none)."""
        return bool(token and self.host_token and secrets.compare_digest(self.host_token, token))

    @property
    def free_seats(self) -> tuple[Seat, ...]:
        """Seats no phone has claimed yet: what joining by code offers."""
        return tuple(s for s in self.seats if not s.claimed)


@dataclass(frozen=True)
class LogEntry:
    """One stored action: `id` is unique across the store, so an undo and a new action differ."""

    id: int
    seq: int
    seat: int
    action: dict[str, Any]
    at: float


@dataclass(frozen=True)
class PlayerRecord:
    name: str
    wins: int
    losses: int
    draws: int


def default_data_dir() -> Path:
    """MUSTER_DATA_DIR, else $XDG_DATA_HOME/muster, else ~/.local/share/muster."""
    env = os.environ.get("MUSTER_DATA_DIR")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "muster"


def check_data_dir(path: Path) -> Path:
    """Create the data folder if needed and prove it is writable, or raise StoreError saying why."""
    if path.exists() and not path.is_dir():
        raise StoreError(f"the data folder '{path}' is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise StoreError(f"cannot create the data folder '{path}': {err.strerror or err}") from None
    probe = path / f".write-test-{os.getpid()}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as err:
        raise StoreError(f"the data folder '{path}' is not writable: {err.strerror or err}") from None
    return path


class Store:
    """Every table, seat, action and result in one SQLite file; safe to share between threads and processes."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.notice: str | None = None
        self._pool: queue.Queue[sqlite3.Connection] = queue.Queue(maxsize=POOL_SIZE)
        self._open()

    # -- opening, and recovery from a damaged file ---------------------------------------

    def _open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        existed = self.path.exists() and self.path.stat().st_size > 0
        try:
            self._init_schema(check=existed)
        except sqlite3.DatabaseError as err:
            self.close()
            kept = self._set_aside()
            self._init_schema(check=False)
            self.notice = (f"The table store at {self.path} could not be read ({err}). "
                           f"It was kept as {kept.name} and a fresh store was started.")

    def _init_schema(self, *, check: bool) -> None:
        with self._connect() as conn:
            if check:
                row = conn.execute("PRAGMA quick_check").fetchone()
                if row is None or row[0] != "ok":
                    raise sqlite3.DatabaseError(f"integrity check failed: {row[0] if row else 'no answer'}")
                names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                if names and "tables" not in names:
                    raise sqlite3.DatabaseError("it is an SQLite file, but not a Muster table store")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(SCHEMA)
            _migrate(conn)
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))

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

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A pooled connection: reopening per call would checkpoint the WAL on every close (slow)."""
        try:
            conn = self._pool.get_nowait()
        except queue.Empty:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA busy_timeout=30000")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA synchronous=NORMAL")  # with WAL: a crash of the app loses nothing committed
        try:
            yield conn
        finally:
            if conn.in_transaction:
                conn.close()
            else:
                try:
                    self._pool.put_nowait(conn)
                except queue.Full:
                    conn.close()

    def close(self) -> None:
        """Close pooled connections (tests and tools that reopen the same file)."""
        while True:
            try:
                self._pool.get_nowait().close()
            except queue.Empty:
                return

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction holding the database lock from the start (BEGIN IMMEDIATE)."""
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        with self._connect() as conn:
            return fn(conn)

    # -- tables and seats ------------------------------------------------------------------

    def create_table(self, game: str, seat_names: list[str], options: dict[str, Any],
                     seed: str | None = None) -> TableInfo:
        """A new table with a fresh join code, seed, host token and one secret (unclaimed) token per seat."""
        names = [n.strip() for n in seat_names]
        if any(not n for n in names):
            raise StoreError("Every seat needs a name.")
        if len({n.casefold() for n in names}) != len(names):
            raise StoreError("Two seats have the same name; give each player a different name.")
        seed = seed or secrets.token_hex(8)
        now = time.time()
        with self.transaction() as conn:
            for _ in range(100):
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
                if conn.execute("SELECT 1 FROM tables WHERE code=?", (code,)).fetchone() is None:
                    break
            cur = conn.execute(
                "INSERT INTO tables (game, seed, options, code, created, last_activity, host_token) "
                "VALUES (?,?,?,?,?,?,?)",
                (game, seed, json.dumps(options, sort_keys=True), code, now, now, secrets.token_urlsafe(12)))
            table_id = int(cur.lastrowid or 0)
            for i, name in enumerate(names):
                conn.execute("INSERT INTO seats (table_id, seat, name, token, claimed) VALUES (?,?,?,?,0)",
                             (table_id, i, name, secrets.token_urlsafe(9)))
        return self.table(table_id)

    def table(self, table_id: int) -> TableInfo:
        return self._read(lambda conn: _table(conn, "id=?", table_id))

    def table_by_code(self, code: str) -> TableInfo | None:
        """The table with this join code (case and spaces ignored), or None."""
        clean = "".join(code.split()).upper()
        if not clean:
            return None
        try:
            return self._read(lambda conn: _table(conn, "code=?", clean))
        except StoreError:
            return None

    def tables(self, status: str | None = None) -> list[TableInfo]:
        """Tables, most recently active first."""
        def fetch(conn: sqlite3.Connection) -> list[TableInfo]:
            where, params = ("WHERE status=?", (status,)) if status else ("", ())
            ids = [r[0] for r in conn.execute(f"SELECT id FROM tables {where} ORDER BY last_activity DESC", params)]
            return [_table(conn, "id=?", i) for i in ids]
        return self._read(fetch)

    # -- claiming and releasing seats (not game actions: the log is untouched) -------------------

    def claim_seat(self, table_id: int, seat: int) -> Seat:
        """Take a free seat for this phone; one conditional UPDATE, so of two phones racing only one gets it."""
        with self.transaction() as conn:
            _playing(conn, table_id, "Its seats can no longer be taken.")
            taken = conn.execute("UPDATE seats SET claimed=1 WHERE table_id=? AND seat=? AND claimed=0",
                                 (table_id, seat)).rowcount
            if not taken:
                if conn.execute("SELECT 1 FROM seats WHERE table_id=? AND seat=?", (table_id, seat)).fetchone():
                    raise StoreError("Another phone has just taken that seat; pick a free one or watch.")
                raise StoreError("This table has no such seat.")
            return _seat(conn, table_id, seat)

    def mark_claimed(self, table_id: int, token: str) -> None:
        """A seat's link was opened: its holder has the seat, so joining by code stops offering it."""
        with self._connect() as conn:
            conn.execute("UPDATE seats SET claimed=1 WHERE table_id=? AND token=? AND claimed=0", (table_id, token))

    def release_seat(self, table_id: int, seat: int, host_token: str | None) -> Seat:
        """The host frees a seat: a new token (the old link stops working) and the seat can be claimed again."""
        with self.transaction() as conn:
            row = conn.execute("SELECT host_token FROM tables WHERE id=?", (table_id,)).fetchone()
            if row is None:
                raise StoreError("This table does not exist.")
            if not (host_token and row[0] and secrets.compare_digest(row[0], host_token)):
                raise StoreError("Only the host's link can release a seat.")
            _playing(conn, table_id, "Its seats can no longer be released.")
            changed = conn.execute("UPDATE seats SET token=?, claimed=0 WHERE table_id=? AND seat=?",
                                   (secrets.token_urlsafe(9), table_id, seat)).rowcount
            if not changed:
                raise StoreError("This table has no such seat.")
            return _seat(conn, table_id, seat)

    # -- the action log ----------------------------------------------------------------------

    def head(self, table_id: int) -> tuple[int, int]:
        """(last seq, id of that action) — changes on every append and every undo."""
        return self._read(lambda conn: _head(conn, table_id))

    def signature(self, table_id: int) -> tuple[int, int, str, str]:
        """What a watching phone polls: (last seq, its id, status, seats); any change means "redraw".

        The seats part changes when a seat is claimed or released, so a released phone learns at once."""
        def fetch(conn: sqlite3.Connection) -> tuple[int, int, str, str]:
            row = conn.execute("SELECT status FROM tables WHERE id=?", (table_id,)).fetchone()
            seats = conn.execute("SELECT group_concat(token || ':' || claimed, ',') FROM "
                                 "(SELECT token, claimed FROM seats WHERE table_id=? ORDER BY seat)",
                                 (table_id,)).fetchone()
            return (*_head(conn, table_id), row[0] if row else "gone", seats[0] or "")
        return self._read(fetch)

    def log(self, table_id: int, after_seq: int = 0, conn: sqlite3.Connection | None = None) -> list[LogEntry]:
        if conn is not None:
            return _log(conn, table_id, after_seq)
        return self._read(lambda c: _log(c, table_id, after_seq))

    def append(self, table_id: int, seat: int, action: dict[str, Any],
               check: Callable[[sqlite3.Connection, tuple[int, int]], None] | None = None,
               then: Callable[[sqlite3.Connection], None] | None = None) -> LogEntry:
        """Add an action as `last seq + 1`, under the write lock.

        `check(conn, head)` runs inside the transaction once the lock is held and before the
        insert, so the caller verifies the action against the newest log, not a stale one;
        anything it raises aborts the append. `then(conn)` runs after the insert, in the
        same transaction (to record a result when the action ends the game).
        """
        with self.transaction() as conn:
            status = conn.execute("SELECT status FROM tables WHERE id=?", (table_id,)).fetchone()
            if status is None:
                raise StoreError("This table does not exist.")
            if status[0] != "playing":
                raise StoreError("This table has ended; no more actions can be taken.")
            head = _head(conn, table_id)
            if check is not None:
                check(conn, head)
            now = time.time()
            cur = conn.execute("INSERT INTO actions (table_id, seq, seat, action, at) VALUES (?,?,?,?,?)",
                               (table_id, head[0] + 1, seat, json.dumps(action, sort_keys=True), now))
            conn.execute("UPDATE tables SET last_activity=? WHERE id=?", (now, table_id))
            if then is not None:
                then(conn)
            return LogEntry(int(cur.lastrowid or 0), head[0] + 1, seat, action, now)

    def undo(self, table_id: int, seat: int | None) -> LogEntry:
        """Remove the last action. A seat may take back only its own last action (None: any, for tools)."""
        with self.transaction() as conn:
            status = conn.execute("SELECT status FROM tables WHERE id=?", (table_id,)).fetchone()
            if status is None:
                raise StoreError("This table does not exist.")
            if status[0] != "playing":
                raise StoreError("This table has ended; its last action can no longer be taken back.")
            rows = _log(conn, table_id, _head(conn, table_id)[0] - 1)
            if not rows:
                raise StoreError("There is nothing to undo.")
            last = rows[-1]
            if seat is not None and last.seat != seat:
                raise StoreError("Only the player who took the last action can take it back.")
            conn.execute("DELETE FROM actions WHERE id=?", (last.id,))
            conn.execute("UPDATE tables SET last_activity=? WHERE id=?", (time.time(), table_id))
            return last

    # -- ending a table and the players' records -------------------------------------------

    def finish(self, table_id: int, winner: int | None, ended_by: str,
               conn: sqlite3.Connection | None = None, outcomes: dict[int, str] | None = None) -> None:
        """Mark a table ended and record each seat's result.

        By default the winner wins and every other seat loses; no winner is a draw for all.
        `outcomes` (seat -> 'win'|'loss'|'draw') overrides that; seats left out get no result.
        """
        def run(c: sqlite3.Connection) -> None:
            row = c.execute("SELECT status FROM tables WHERE id=?", (table_id,)).fetchone()
            if row is None or row[0] != "playing":
                return
            now = time.time()
            c.execute("UPDATE tables SET status='ended', winner=?, ended_by=?, last_activity=? WHERE id=?",
                      (winner, ended_by, now, table_id))
            for seat, name in c.execute("SELECT seat, name FROM seats WHERE table_id=?", (table_id,)).fetchall():
                if outcomes is not None:
                    outcome = outcomes.get(seat)
                else:
                    outcome = "draw" if winner is None else ("win" if seat == winner else "loss")
                if outcome:
                    c.execute("INSERT OR REPLACE INTO results VALUES (?,?,?,?,?)", (table_id, seat, name, outcome, now))
        if conn is not None:
            run(conn)
            return
        with self.transaction() as c:
            run(c)

    def concede(self, table_id: int, seat: int) -> None:
        """The seat gives up and loses; with exactly one opponent that opponent wins, otherwise the others get no result."""
        with self.transaction() as conn:
            row = conn.execute("SELECT status FROM tables WHERE id=?", (table_id,)).fetchone()
            if row is None:
                raise StoreError("This table does not exist.")
            if row[0] != "playing":
                raise StoreError("This table has already ended.")
            seats = [r[0] for r in conn.execute("SELECT seat FROM seats WHERE table_id=?", (table_id,))]
            others = [s for s in seats if s != seat]
            winner = others[0] if len(others) == 1 else None
            outcomes = {seat: "loss"} | ({winner: "win"} if winner is not None else {})
            self.finish(table_id, winner, f"concede:{seat}", conn, outcomes)

    def records(self) -> list[PlayerRecord]:
        """Wins, losses and draws per player name (players are named seats), best first."""
        rows = self._read(lambda conn: conn.execute(
            "SELECT name, SUM(outcome='win'), SUM(outcome='loss'), SUM(outcome='draw') FROM results "
            "GROUP BY name COLLATE NOCASE ORDER BY 2 DESC, 3 ASC, name").fetchall())
        return [PlayerRecord(r[0], int(r[1]), int(r[2]), int(r[3])) for r in rows]


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring a version 1 store up to date: host tokens and seat claims (old seats count as claimed: their links are out)."""
    columns = {r[1] for r in conn.execute("PRAGMA table_info(tables)")}
    if "host_token" not in columns:
        conn.execute("ALTER TABLE tables ADD COLUMN host_token TEXT")
    columns = {r[1] for r in conn.execute("PRAGMA table_info(seats)")}
    if "claimed" not in columns:
        conn.execute("ALTER TABLE seats ADD COLUMN claimed INTEGER NOT NULL DEFAULT 1")


def _playing(conn: sqlite3.Connection, table_id: int, ended: str) -> None:
    row = conn.execute("SELECT status FROM tables WHERE id=?", (table_id,)).fetchone()
    if row is None:
        raise StoreError("This table does not exist.")
    if row[0] != "playing":
        raise StoreError(f"This table has ended. {ended}")


def _seat(conn: sqlite3.Connection, table_id: int, seat: int) -> Seat:
    s, n, t, c = conn.execute("SELECT seat, name, token, claimed FROM seats WHERE table_id=? AND seat=?",
                              (table_id, seat)).fetchone()
    return Seat(s, n, t, bool(c))


def _table(conn: sqlite3.Connection, where: str, value: Any) -> TableInfo:
    row = conn.execute(f"SELECT id, game, seed, options, code, created, last_activity, status, winner, ended_by, "
                       f"host_token FROM tables WHERE {where}", (value,)).fetchone()
    if row is None:
        raise StoreError("There is no such table.")
    seats = tuple(Seat(s, n, t, bool(c)) for s, n, t, c in conn.execute(
        "SELECT seat, name, token, claimed FROM seats WHERE table_id=? ORDER BY seat", (row[0],)))
    return TableInfo(row[0], row[1], row[2], json.loads(row[3]), row[4], row[5], row[6], row[7], row[8], row[9], seats,
                     row[10])


def _head(conn: sqlite3.Connection, table_id: int) -> tuple[int, int]:
    row = conn.execute("SELECT seq, id FROM actions WHERE table_id=? ORDER BY seq DESC LIMIT 1", (table_id,)).fetchone()
    return (int(row[0]), int(row[1])) if row else (0, 0)


def _log(conn: sqlite3.Connection, table_id: int, after_seq: int) -> list[LogEntry]:
    return [LogEntry(i, s, seat, json.loads(a), at) for i, s, seat, a, at in conn.execute(
        "SELECT id, seq, seat, action, at FROM actions WHERE table_id=? AND seq>? ORDER BY seq", (table_id, after_seq))]
