"""The table store: every table, its seats, its append-only action log and the players' results.

One interface (`Store`), two databases: SQLite (`companion.store_sqlite`, the default, one
file next to one server) and PostgreSQL (`companion.store_postgres`, shared by several
servers). `open_store` picks one from a path or URL. The SQL lives here once, written with
`?` placeholders; a backend supplies connections, write transactions (with retry where its
concurrency is optimistic), the schema and its upgrades, and how other servers learn of a change.

A table's state is never stored, only its log: the state is a replay (see `companion.tables`).
The log is append-only: an entry is numbered `head + 1` and never changed or deleted, so a
sequence number is never reused; undo is itself an entry (`{"kind": "undo", ...}`). Every
change to a table bumps its `changed` counter, which is what watching phones poll.

Errors: `StoreError` is a request the store refuses (table ended, seat taken);
`StoreUnavailable` (a subclass) is an operational problem (busy, read-only, disk full, file
deleted, server down, database of another application or of a newer Muster): the message
says what to do, nothing was changed, and trying again later is safe.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

SCHEMA_VERSION = 5
DB_NAME = "muster.sqlite3"
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
MAX_REQUEST_ID = 128
# Rows copied by `copy_store`, in an order that satisfies the foreign keys.
COPIED = {
    "tables": ("id", "game", "seed", "options", "code", "created", "last_activity", "status", "winner",
               "ended_by", "host_token", "changed", "host_device"),
    "seats": ("table_id", "seat", "name", "token", "claimed", "device"),
    "actions": ("id", "table_id", "seq", "seat", "action", "at", "request_id"),
    "results": ("table_id", "seat", "name", "outcome", "at"),
}

T = TypeVar("T")
LOG = logging.getLogger("muster.companion")


class StoreError(Exception):
    """A store operation the user asked for cannot be done; the message says why.

    `str(err)` is what a phone may read; `full` is the message for the server's log and terminal. They differ
    for an error raised with the store's `location` (a file path, a database URL): a phone is not told where
    the server keeps its data, nor the database's own words in parentheses (paths, hosts and ports)."""

    def __init__(self, message: str, location: str | None = None) -> None:
        super().__init__(message)
        self.full = message
        self.location = location

    def __str__(self) -> str:
        return for_phones(self.full, self.location)


class StoreUnavailable(StoreError):
    """The database cannot be used right now (busy, read-only, full, gone, foreign, too new); nothing changed."""


def for_phones(text: str, location: str | None) -> str:
    """A store message without the store's location, and without the parenthesised details that name a path,
    a host or a port (the database's own words often do; see `StoreError`)."""
    if not location:
        return text
    text = re.sub(r"\s+(?:at\s+)?" + re.escape(location), "", text)
    text = re.sub(r"\s*\((?:[^()]|\([^()]*\))*(?:/|@|\"|\bport\b|\bhost\b)(?:[^()]|\([^()]*\))*\)", "", text)
    return re.sub(r"\s+([.,;:])", r"\1", text)


_last_fault: tuple[str, float, bool] = ("", 0.0, False)  # (message, when logged, met by writes only)
FAULT_LOG_EVERY_S = 60.0  # the same fault, still there, is logged again after this long


def unavailable(message: str, location: str, *, writing: bool = False) -> StoreUnavailable:
    """The error for an operational fault, logged once with its cause (`full`): not once per poll of every
    phone while it lasts, and never as a traceback. `writing`: a fault only writes meet (a lock held by another
    program, a full disk, a read-only file), which a read that answers does not end (`recovered`)."""
    global _last_fault
    now = time.monotonic()
    if _last_fault[0] != message or now - _last_fault[1] > FAULT_LOG_EVERY_S:
        _last_fault = (message, now, writing)
        LOG.warning("table store unavailable: %s", message)
    return StoreUnavailable(message, location)


def recovered(*, by_read: bool = False) -> None:
    """The store answered after a fault: say so once in the log, when it is true. A read that answered
    (`by_read`) says nothing of a fault only writes meet: while another program holds the lock, every phone's
    poll still reads, and the log said "answers again" after every "unavailable" line."""
    global _last_fault
    if _last_fault[0] and not (by_read and _last_fault[2]):
        LOG.warning("table store answers again (after: %s)", _last_fault[0])
        _last_fault = ("", 0.0, False)


@dataclass(frozen=True)
class Tx:
    """An open write transaction, handed to `append`'s callbacks; pass it back as `conn=` to read inside it."""

    conn: Any


@dataclass(frozen=True)
class Seat:
    """A named place at a table: `token` is the secret in its link, `claimed` that a phone holds it, `device` which one.

    `reserved` is a seat the host re-issued, waiting for its new link: joining by code never
    offers it, because mid-game a seat carries a hand that only its player may see.
    Stored in the `claimed` column: 0 free, 1 claimed, 2 reserved.
    """

    seat: int
    name: str
    token: str
    claimed: bool = False
    device: str | None = None
    reserved: bool = False


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
    host_device: str | None = None  # the phone that last opened the host link: "Your tables" offers it that link

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
        """Seats no phone has claimed yet and not kept for a re-issued link: what joining by code offers."""
        return tuple(s for s in self.seats if not (s.claimed or s.reserved))


@dataclass(frozen=True)
class LogEntry:
    """One stored log entry; `seq` numbers it within its table, `request_id` is the phone's id for the tap."""

    id: int
    seq: int
    seat: int
    action: dict[str, Any]
    at: float
    request_id: str | None = None


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


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


def is_postgres_url(target: str | Path) -> bool:
    return str(target).startswith(("postgresql://", "postgres://"))


def open_store(target: str | Path) -> Store:
    """The store at a path, `sqlite:///path`, or `postgresql://user@host/db`; StoreError for anything else."""
    text = str(target)
    if is_postgres_url(text):
        from companion.store_postgres import PostgresStore

        return PostgresStore(text)
    if text.startswith("sqlite:///"):
        text = text[len("sqlite://"):]
    elif "://" in text:
        raise StoreError(f"'{text}' is not a database this Muster can use; give a file path, "
                         "sqlite:///path/to/file or postgresql://user@host/database")
    from companion.store_sqlite import SQLiteStore

    return SQLiteStore(Path(text).expanduser())


def database_target(database: str | None, data_dir: Path) -> str:
    """Which database to use: --database, else MUSTER_DATABASE_URL, else the SQLite file in the data folder."""
    return database or os.environ.get("MUSTER_DATABASE_URL") or str(data_dir / DB_NAME)


class Store(ABC):
    """Every table, seat, log entry and result; safe to share between threads, and between processes."""

    notice: str | None = None

    # -- what a backend provides --------------------------------------------------------

    @property
    @abstractmethod
    def location(self) -> str:
        """Where the data is, for messages (a file path, or a URL without its password)."""

    @abstractmethod
    def _read(self, fn: Callable[[Any], T]) -> T:
        """Run `fn(conn)` on a connection, outside any write transaction."""

    @abstractmethod
    def _write(self, fn: Callable[[Any], T], *, retry_conflicts: bool = False) -> T:
        """Run `fn(conn)` in one write transaction; with `retry_conflicts`, run it again when another
        writer took the same log sequence number first (optimistic backends only)."""

    @abstractmethod
    def close(self) -> None:
        """Release connections (tests and tools that reopen the same database)."""

    def answers(self) -> None:
        """Return when the store would take a tap now, else raise StoreUnavailable: a page that met a fault asks
        this every few seconds to know when to draw itself again (`faults.until_back`). One small read (a join
        code no table has: codes never hold an O)."""
        self._read(lambda conn: self._x(conn, "SELECT 1 FROM tables WHERE code='PROBE'").fetchone())

    def _sql(self, sql: str) -> str:
        """The SQL in this backend's placeholder style (written here with `?`)."""
        return sql

    def watch_changes(self, callback: Callable[[int], object]) -> None:
        """Call `callback(table_id)` (from another thread) when this process learns that another server
        changed a table: PostgreSQL's NOTIFY. SQLite serves one process, whose pages wake each other."""

    def _x(self, conn: Any, sql: str, params: tuple[Any, ...] = ()) -> Any:
        return conn.execute(self._sql(sql), params)

    # -- tables and seats ------------------------------------------------------------------

    def create_table(self, game: str, seat_names: list[str], options: dict[str, Any],
                     seed: str | None = None, holders: dict[int, str] | None = None) -> TableInfo:
        """A new table with a fresh join code, seed, host token and one secret (unclaimed) token per seat.

        `seat_names` are stored as given: what a seat name may be (and which two are too alike) is
        `companion.names.clean`'s one rule, applied where names enter (`Tables.create`). `holders` are seats held
        from the start, by who holds them (a bot, `companion.bot_seats`), in the same transaction as the table."""
        names = list(seat_names)
        held = dict(holders or {})
        seed = seed or secrets.token_hex(8)
        now = time.time()

        def run(conn: Any) -> int:
            for _ in range(100):
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
                if self._x(conn, "SELECT 1 FROM tables WHERE code=?", (code,)).fetchone() is None:
                    break
            table_id = int(self._x(conn,
                "INSERT INTO tables (game, seed, options, code, created, last_activity, host_token, changed) "
                "VALUES (?,?,?,?,?,?,?,0) RETURNING id",
                (game, seed, json.dumps(options, sort_keys=True), code, now, now,
                 secrets.token_urlsafe(12))).fetchone()[0])
            for i, name in enumerate(names):
                self._x(conn, "INSERT INTO seats (table_id, seat, name, token, claimed, device) VALUES (?,?,?,?,?,?)",
                        (table_id, i, name, secrets.token_urlsafe(9), int(i in held), held.get(i)))
            return table_id
        return self.table(self._write(run))

    def table(self, table_id: int) -> TableInfo:
        return self._read(lambda conn: self._table(conn, "id=?", table_id))

    def table_by_code(self, code: str) -> TableInfo | None:
        """The table with this join code (case and spaces ignored), or None."""
        clean = "".join(code.split()).upper()
        if not clean:
            return None
        try:
            return self._read(lambda conn: self._table(conn, "code=?", clean))
        except StoreUnavailable:
            raise
        except StoreError:
            return None

    def tables(self, status: str | None = None, limit: int | None = None) -> list[TableInfo]:
        """Tables, most recently active first; at most `limit` of them (the lobby shows a page, not the archive)."""
        def fetch(conn: Any) -> list[TableInfo]:  # two queries however many tables a convention runs
            where, params = ("WHERE status=?", (status,)) if status else ("", ())
            chosen = f"SELECT id FROM tables {where} ORDER BY last_activity DESC"
            if limit is not None:
                chosen += f" LIMIT {int(limit)}"
            rows = self._x(conn, f"SELECT {TABLE_COLUMNS} FROM tables WHERE id IN ({chosen}) "
                                 "ORDER BY last_activity DESC", params).fetchall()
            seats: dict[int, list[Seat]] = {}
            for table_id, *seat in self._x(conn, f"SELECT table_id, {SEAT_COLUMNS} FROM seats WHERE table_id IN "
                                                 f"({chosen}) ORDER BY table_id, seat", params):
                seats.setdefault(table_id, []).append(_seat_of(seat))
            return [_table_of(row, seats.get(row[0], [])) for row in rows]
        return self._read(fetch)

    def held_like(self, pattern: str) -> list[int]:
        """The tables in play where a seat's holder matches the SQL LIKE `pattern` (`bot:%`: the bots' tables)."""
        return [int(r[0]) for r in self._read(lambda conn: self._x(conn,
                "SELECT DISTINCT s.table_id FROM seats s JOIN tables t ON t.id=s.table_id "
                "WHERE t.status='playing' AND s.device LIKE ? ORDER BY s.table_id", (pattern,)).fetchall())]

    def held_by(self, device: str, limit: int) -> list[TableInfo]:
        """The tables where phone `device` holds a seat (it opened the seat's link) or hosts (it opened the host
        link last), playing or ended, most recently active first: what the lobby shows that phone as its own."""
        def fetch(conn: Any) -> list[TableInfo]:
            ids = [r[0] for r in self._x(conn, "SELECT id FROM tables WHERE host_device=? OR id IN (SELECT table_id "
                                               "FROM seats WHERE device=?) ORDER BY last_activity DESC LIMIT ?",
                                         (device, device, int(limit))).fetchall()]
            return [self._table(conn, "id=?", i) for i in dict.fromkeys(ids)]
        return self._read(fetch)

    # -- seats (not game actions: the log is untouched) ------------------------------------------

    def claim_seat(self, table_id: int, seat: int) -> Seat:
        """Take a free seat for this phone; one conditional UPDATE, so of two phones racing only one gets it."""
        def run(conn: Any) -> Seat:
            self._playing(conn, table_id, "Its seats can no longer be taken.")
            taken = self._x(conn, "UPDATE seats SET claimed=1 WHERE table_id=? AND seat=? AND claimed=0",
                            (table_id, seat)).rowcount
            if not taken:
                row = self._x(conn, "SELECT claimed FROM seats WHERE table_id=? AND seat=?", (table_id, seat)).fetchone()
                if row is None:
                    raise StoreError("This table has no such seat.")
                if row[0] == 2:
                    raise StoreError("The host re-issued this seat; only its new link takes it.")
                raise StoreError("Another phone has just taken that seat; pick a free one or watch.")
            self._touch(conn, table_id)
            return self._seat(conn, table_id, seat)
        return self._write(run)

    def host_on(self, table_id: int, device: str) -> None:
        """Phone `device` opened the table's host link (checked by the page): the lobby offers that link to it.
        Nothing any page shows changes, so the table is not touched."""
        self._write(lambda conn: self._x(conn, "UPDATE tables SET host_device=? WHERE id=? AND "
                                               "(host_device IS NULL OR host_device<>?)", (device, table_id, device)))

    def mark_claimed(self, table_id: int, token: str) -> None:
        """A seat's link was opened: its holder has the seat, so joining by code stops offering it."""
        def run(conn: Any) -> None:
            if self._x(conn, "UPDATE seats SET claimed=1 WHERE table_id=? AND token=? AND claimed<>1",
                       (table_id, token)).rowcount:
                self._touch(conn, table_id)
        self._write(run)

    def hold_seat(self, table_id: int, token: str, device: str) -> str | None:
        """Record that phone `device` holds the seat of `token`; the previous phone's id if another phone held it."""
        def run(conn: Any) -> str | None:
            row = self._x(conn, "SELECT seat, device FROM seats WHERE table_id=? AND token=?",
                          (table_id, token)).fetchone()
            if row is None:
                raise StoreError("This seat link is no longer valid; the host may have re-issued the seat.")
            if row[1] == device:
                return None
            self._x(conn, "UPDATE seats SET device=?, claimed=1 WHERE table_id=? AND seat=?", (device, table_id, row[0]))
            self._touch(conn, table_id)
            previous: str | None = row[1]
            return previous
        return self._write(run)

    def reissue_seat(self, table_id: int, seat: int, host_token: str | None) -> Seat:
        """The host re-issues a seat: a new token (the old link stops working), held by no phone, and kept for
        that new link (reserved), so nobody joining by the table's code can take the seat and see its hand."""
        def run(conn: Any) -> Seat:
            row = self._x(conn, "SELECT host_token FROM tables WHERE id=?", (table_id,)).fetchone()
            if row is None:
                raise StoreError("This table does not exist.")
            if not (host_token and row[0] and secrets.compare_digest(row[0], host_token)):
                raise StoreError("Only the host's link can re-issue a seat.")
            self._playing(conn, table_id, "Its seats can no longer be re-issued.")
            changed = self._x(conn, "UPDATE seats SET token=?, claimed=2, device=NULL WHERE table_id=? AND seat=?",
                              (secrets.token_urlsafe(9), table_id, seat)).rowcount
            if not changed:
                raise StoreError("This table has no such seat.")
            self._touch(conn, table_id)
            return self._seat(conn, table_id, seat)
        return self._write(run)

    # -- the action log ----------------------------------------------------------------------

    def head(self, table_id: int, conn: Tx | None = None) -> tuple[int, int]:
        """(last seq, id of that entry); (0, 0) for an empty log. Inside `append`'s check, pass its `tx`."""
        if conn is not None:
            return self._head(conn.conn, table_id)
        return self._read(lambda c: self._head(c, table_id))

    def signature(self, table_id: int) -> tuple[int, int, int]:
        """What a watching phone polls: (last seq, its id, change count); any change means "redraw"."""
        return self._read(lambda conn: self._signature(conn, table_id))

    def log(self, table_id: int, after_seq: int = 0, conn: Tx | None = None) -> list[LogEntry]:
        if conn is not None:
            return self._log(conn.conn, table_id, after_seq)
        return self._read(lambda c: self._log(c, table_id, after_seq))

    def append(self, table_id: int, seat: int, action: dict[str, Any],
               check: Callable[[Tx, tuple[int, int]], None] | None = None,
               then: Callable[[Tx], None] | None = None, request_id: str | None = None) -> LogEntry:
        """Add an entry as `head + 1`, verified against that head.

        `check(tx, head)` runs inside the write transaction before the insert, so the caller
        verifies the action against the newest log; anything it raises aborts the append. If
        another server took `head + 1` first, `check` runs again against the new head. `then(tx)`
        runs after the insert, in the same transaction (to record a result when the game ends).
        A `request_id` already stored for this table returns that entry, without running `check`:
        a tap resent after a dropped connection is applied once.
        """
        if request_id is not None and not (0 < len(request_id) <= MAX_REQUEST_ID):
            raise StoreError(f"A request id must have 1 to {MAX_REQUEST_ID} characters.")

        def run(conn: Any) -> LogEntry:
            # One round trip for what an append needs to know first: the table's status, its head, and
            # whether this request is already stored (a server pays a network round trip per statement).
            row = self._x(conn,
                "SELECT t.status, a.seq, a.id, (SELECT r.seq FROM actions r WHERE r.table_id=t.id AND r.request_id=?) "
                "FROM tables t LEFT JOIN actions a ON a.table_id=t.id "
                "AND a.seq=(SELECT MAX(m.seq) FROM actions m WHERE m.table_id=t.id) WHERE t.id=?",
                (request_id, table_id)).fetchone()
            if row is not None and row[3] is not None:
                return self._entries(conn, "table_id=? AND seq=?", (table_id, row[3]))[0]
            if row is None:
                raise StoreError("This table does not exist.")
            if row[0] != "playing":
                raise StoreError("This table has ended; no more actions can be taken.")
            head = (int(row[1]), int(row[2])) if row[1] is not None else (0, 0)
            if check is not None:
                check(Tx(conn), head)
            now = time.time()
            payload = json.dumps(action, sort_keys=True)  # after `check`, which may complete it (an undo's seq)
            entry_id = int(self._x(conn,
                "INSERT INTO actions (table_id, seq, seat, action, at, request_id) VALUES (?,?,?,?,?,?) RETURNING id",
                (table_id, head[0] + 1, seat, payload, now, request_id)).fetchone()[0])
            self._touch(conn, table_id, now)
            if then is not None:
                then(Tx(conn))
            return LogEntry(entry_id, head[0] + 1, seat, json.loads(payload), now, request_id)
        return self._write(run, retry_conflicts=True)

    # -- ending a table and the players' records -------------------------------------------

    def finish(self, table_id: int, winner: int | None, ended_by: str,
               conn: Tx | None = None, outcomes: dict[int, str] | None = None) -> None:
        """Mark a table ended and record each seat's result.

        By default the winner wins and every other seat loses; no winner is a draw for all.
        `outcomes` (seat -> 'win'|'loss'|'draw') overrides that; seats left out get no result.
        """
        def run(c: Any) -> None:
            row = self._x(c, "SELECT status FROM tables WHERE id=?", (table_id,)).fetchone()
            if row is None or row[0] != "playing":
                return
            now = time.time()
            self._x(c, "UPDATE tables SET status='ended', winner=?, ended_by=? WHERE id=?", (winner, ended_by, table_id))
            for seat, name in self._x(c, "SELECT seat, name FROM seats WHERE table_id=? ORDER BY seat",
                                      (table_id,)).fetchall():
                if outcomes is not None:
                    outcome = outcomes.get(seat)
                else:
                    outcome = "draw" if winner is None else ("win" if seat == winner else "loss")
                if outcome:
                    self._x(c, "INSERT INTO results (table_id, seat, name, outcome, at) VALUES (?,?,?,?,?)",
                            (table_id, seat, name, outcome, now))
            self._touch(c, table_id, now)
        if conn is not None:
            run(conn.conn)
            return
        self._write(run)

    def concede(self, table_id: int, seat: int) -> None:
        """The seat gives up and loses; with exactly one opponent that opponent wins, otherwise the others get no result."""
        def run(conn: Any) -> None:
            row = self._x(conn, "SELECT status FROM tables WHERE id=?", (table_id,)).fetchone()
            if row is None:
                raise StoreError("This table does not exist.")
            if row[0] != "playing":
                raise StoreError("This table has already ended.")
            seats = [r[0] for r in self._x(conn, "SELECT seat FROM seats WHERE table_id=?", (table_id,))]
            others = [s for s in seats if s != seat]
            winner = others[0] if len(others) == 1 else None
            outcomes = {seat: "loss"} | ({winner: "win"} if winner is not None else {})
            self.finish(table_id, winner, f"concede:{seat}", Tx(conn), outcomes)
        self._write(run)

    def records_by_game(self) -> dict[str, list[PlayerRecord]]:
        """Wins, losses and draws per game and per player of that game (case ignored), best first: a record
        says who beat whom at which game, never one total over different games."""
        rows = self._read(lambda conn: self._x(conn,
            "SELECT t.game, MIN(r.name), SUM(CASE WHEN r.outcome='win' THEN 1 ELSE 0 END), "
            "SUM(CASE WHEN r.outcome='loss' THEN 1 ELSE 0 END), SUM(CASE WHEN r.outcome='draw' THEN 1 ELSE 0 END) "
            "FROM results r JOIN tables t ON t.id=r.table_id GROUP BY t.game, LOWER(r.name) "
            "ORDER BY 1, 3 DESC, 4 ASC, 2").fetchall())
        found: dict[str, list[PlayerRecord]] = {}
        for game, *rest in rows:
            found.setdefault(game, []).append(PlayerRecord(rest[0], int(rest[1]), int(rest[2]), int(rest[3])))
        return found

    def records(self) -> list[PlayerRecord]:
        """Wins, losses and draws per player name (players are named seats, case ignored), best first."""
        rows = self._read(lambda conn: self._x(conn,
            "SELECT MIN(name), SUM(CASE WHEN outcome='win' THEN 1 ELSE 0 END), "
            "SUM(CASE WHEN outcome='loss' THEN 1 ELSE 0 END), SUM(CASE WHEN outcome='draw' THEN 1 ELSE 0 END) "
            "FROM results GROUP BY LOWER(name) ORDER BY 2 DESC, 3 ASC, 1").fetchall())
        return [PlayerRecord(r[0], int(r[1]), int(r[2]), int(r[3])) for r in rows]

    # -- copying between databases (`muster db copy`) ---------------------------------------------

    def rows(self, name: str) -> Iterator[tuple[Any, ...]]:
        """Every row of one of the COPIED tables, in key order."""
        columns = COPIED[name]
        rows = self._read(lambda conn: self._x(conn, f"SELECT {', '.join(columns)} FROM {name} "
                                                     f"ORDER BY {', '.join(columns[:2])}").fetchall())
        yield from (tuple(r) for r in rows)

    def is_empty(self) -> bool:
        return bool(self._read(lambda conn: self._x(conn, "SELECT COUNT(*) FROM tables").fetchone()[0] == 0))

    def load(self, data: dict[str, list[tuple[Any, ...]]]) -> None:
        """Insert copied rows as they are (ids included), all in one transaction."""
        def run(conn: Any) -> None:
            for name, rows in data.items():
                columns = COPIED[name]
                sql = f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
                for row in rows:
                    self._x(conn, sql, row)
            self._after_load(conn)
        self._write(run)

    def _after_load(self, conn: Any) -> None:
        """Bring id generators past the copied ids (PostgreSQL identities do not follow explicit ids)."""

    # -- shared queries ----------------------------------------------------------------------------

    def _touch(self, conn: Any, table_id: int, now: float | None = None) -> None:
        """Count a change to the table (what polling compares); PostgreSQL also tells the other servers, in the
        same transaction (SQLite serves one process: its pages poll)."""
        self._x(conn, "UPDATE tables SET changed=changed+1, last_activity=? WHERE id=?", (now or time.time(), table_id))

    def _playing(self, conn: Any, table_id: int, ended: str) -> None:
        row = self._x(conn, "SELECT status FROM tables WHERE id=?", (table_id,)).fetchone()
        if row is None:
            raise StoreError("This table does not exist.")
        if row[0] != "playing":
            raise StoreError(f"This table has ended. {ended}")

    def _seat(self, conn: Any, table_id: int, seat: int) -> Seat:
        return _seat_of(self._x(conn, f"SELECT {SEAT_COLUMNS} FROM seats WHERE table_id=? AND seat=?",
                                (table_id, seat)).fetchone())

    def _table(self, conn: Any, where: str, value: Any) -> TableInfo:
        """A table and its seats in one statement (a row per seat): a page reads its table at every run, a tap
        twice, and every statement is a round trip to PostgreSQL and lets go of Python's lock for SQLite."""
        rows = self._x(conn, f"SELECT {_TABLE_T}, {_SEAT_S} FROM tables t LEFT JOIN seats s ON s.table_id=t.id "
                             f"WHERE t.{where} ORDER BY s.seat", (value,)).fetchall()
        if not rows:
            raise StoreError("There is no such table.")
        return _table_of(rows[0], [_seat_of(row[_WIDTH:]) for row in rows if row[_WIDTH] is not None])

    def _head(self, conn: Any, table_id: int) -> tuple[int, int]:
        row = self._x(conn, "SELECT seq, id FROM actions WHERE table_id=? ORDER BY seq DESC LIMIT 1",
                      (table_id,)).fetchone()
        return (int(row[0]), int(row[1])) if row else (0, 0)

    def _signature(self, conn: Any, table_id: int) -> tuple[int, int, int]:
        """(last seq, its id, change count) in one statement: every open page asks at every poll."""
        row = self._x(conn,
            "SELECT t.changed, a.seq, a.id FROM tables t LEFT JOIN actions a ON a.table_id=t.id "
            "AND a.seq=(SELECT MAX(m.seq) FROM actions m WHERE m.table_id=t.id) WHERE t.id=?", (table_id,)).fetchone()
        if row is None:
            return (0, 0, -1)
        return (0, 0, int(row[0])) if row[1] is None else (int(row[1]), int(row[2]), int(row[0]))

    def _entries(self, conn: Any, where: str, params: tuple[Any, ...]) -> list[LogEntry]:
        return [LogEntry(i, s, seat, json.loads(a), at, r) for i, s, seat, a, at, r in self._x(conn,
                f"SELECT id, seq, seat, action, at, request_id FROM actions WHERE {where} ORDER BY seq", params)]

    def _log(self, conn: Any, table_id: int, after_seq: int) -> list[LogEntry]:
        return self._entries(conn, "table_id=? AND seq>?", (table_id, after_seq))


TABLE_COLUMNS = ("id, game, seed, options, code, created, last_activity, status, winner, ended_by, host_token, "
                 "host_device")
SEAT_COLUMNS = "seat, name, token, claimed, device"
_TABLE_T = ", ".join(f"t.{c.strip()}" for c in TABLE_COLUMNS.split(","))
_WIDTH = len(TABLE_COLUMNS.split(","))  # where a table's row ends and its seat's begins (`Store._table`)
_SEAT_S = ", ".join(f"s.{c.strip()}" for c in SEAT_COLUMNS.split(","))


def _seat_of(row: Any) -> Seat:
    s, n, t, c, d = row
    return Seat(s, n, t, c == 1, d, c == 2)


def _table_of(row: Any, seats: list[Seat]) -> TableInfo:
    return TableInfo(row[0], row[1], row[2], json.loads(row[3]), row[4], row[5], row[6], row[7], row[8], row[9],
                     tuple(seats), row[10], row[11])


def copy_store(source: Store, target: Store) -> dict[str, int]:
    """Copy every table, seat, log entry and result into an empty store; how many of each were copied."""
    if not target.is_empty():
        raise StoreError(f"The target {target.location} already has tables; copy only into an empty database.")
    data = {name: list(source.rows(name)) for name in COPIED}
    target.load(data)
    return {name: len(rows) for name, rows in data.items()}
