"""SQLite faults under a real phone (issue 29): the phone reads Muster's own words (never Streamlit's error box, a
path or a traceback), the healthy file keeps its bytes, and the server's log has no traceback (`Server.stop`).

Pages of the file overwritten with garbage while the server runs (43 tracebacks in the log once, and the
project's message for a damaged file never reached a phone), a store from a newer Muster at start, and a tap
while another program holds the write lock or the disk is full.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import TIMEOUT
from playwright.sync_api import Error as PlaywrightError
from test_browser import Server, settle
from test_postgres_app import MOVES
from test_postgres_outage import _mover, _tap
from test_store_faults import AS_PLAIN_OWNER, _digests, hold_lock, output, small_disk  # noqa: F401  (a fixture)

from companion.store import SCHEMA_VERSION, open_store
from companion.table_page import POLL_SECONDS
from companion.tables import Tables


def _phone(new_phone: Callable[[], Any], server: Server, query: str) -> Any:
    page = new_phone()
    page.goto(f"{server.url}/?{query}", timeout=TIMEOUT)
    return page


def test_garbage_pages_mid_run_reach_the_phone_as_musters_words(tmp_path: Path, new_phone: Callable[[], Any]) -> None:
    server = Server(tmp_path / "data")
    path = tmp_path / "data" / "muster.sqlite3"
    server.start()
    try:
        tables = Tables(open_store(path))
        table = tables.create("warfare", ["Ann", "Bob"], {})
        for n in range(30):  # pages enough that overwriting some leaves the header whole
            tables.create("warfare", [f"A{n}", f"B{n}"], {})
        tables.store.close()
        phone = _phone(new_phone, server, f"table={table.code}&seat={table.seats[0].token}")
        phone.get_by_text("You are").first.wait_for(timeout=TIMEOUT)
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        data = bytearray(path.read_bytes())
        for page in range(2, len(data) // 4096):
            data[4096 * page: 4096 * (page + 1)] = os.urandom(4096)
        path.write_bytes(bytes(data))
        phone.reload()
        said = phone.get_by_text("reports damage").first
        said.wait_for(timeout=TIMEOUT)
        text = said.inner_text()
        assert "Restart the companion" in text and str(path) not in text and "/" not in text
        assert phone.get_by_text("This app has encountered an error").count() == 0
    finally:
        server.stop()


def _newer_muster(conn: sqlite3.Connection) -> None:
    conn.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA_VERSION + 1),))


def _newer_sqlite(conn: sqlite3.Connection) -> None:
    conn.execute("CREATE TABLE later (x)")
    conn.execute("PRAGMA writable_schema=ON")
    conn.execute("UPDATE sqlite_master SET sql='CREATE TABLE later (x) WITH FUTURE OPTIONS' WHERE name='later'")


@pytest.mark.parametrize(("change", "said"), [(_newer_muster, "written by a newer Muster"),
                                              (_newer_sqlite, "cannot read: a newer SQLite may have written it")],
                         ids=["newer Muster", "schema this SQLite cannot parse"])
def test_a_store_this_muster_cannot_use_is_refused_on_the_phone_and_kept_byte_for_byte(
        tmp_path: Path, new_phone: Callable[[], Any], change: Callable[[sqlite3.Connection], None], said: str) -> None:
    data = tmp_path / "data"
    path = data / "muster.sqlite3"
    data.mkdir()
    open_store(path).close()
    conn = sqlite3.connect(path, isolation_level=None)
    change(conn)
    conn.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    server = Server(data)
    try:
        server.start()
    except RuntimeError:  # the server may refuse to start on it: then its terminal says why
        assert said in server.log.read_text(encoding="utf-8")
    else:
        phone = _phone(new_phone, server, "")
        shown = phone.get_by_text(said).first
        shown.wait_for(timeout=TIMEOUT)
        assert str(path) not in shown.inner_text()
    finally:
        server.stop()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before and not list(data.glob("*corrupt*"))


@contextmanager
def _served(data: Path, prefix: list[str] | None = None) -> Iterator[tuple[Server, Any]]:
    """`muster app` on `data` (under the command `prefix`), and the test's own store on the same file; both
    closed after (the server's log checked by `Server.stop`)."""
    server = Server(data, prefix=prefix or [])
    server.start()
    store = open_store(data / "muster.sqlite3")
    try:
        yield server, store
    finally:
        store.close()
        server.stop()


def _seated(server: Server, store: Any, new_phone: Callable[[], Any]) -> tuple[Any, list[Any], Any, int]:
    """A warfare table with a phone at each seat: (the table, the phones, the one offered a move, settled, and
    the moves stored so far)."""
    table = Tables(store).create("warfare", ["Ann", "Bob"], {})
    phones = [_phone(new_phone, server, f"table={table.code}&seat={table.seats[seat].token}") for seat in (0, 1)]
    for page in phones:
        page.get_by_text("You are").first.wait_for(timeout=TIMEOUT)
    phone = _mover(phones)
    settle(phone)
    return table, phones, phone, len(store.log(table.id))


def _next_tap_stored(store: Any, table_id: int, phones: list[Any], moves: int) -> None:
    """The store is back: the next tap of whichever phone is offered a move is stored."""
    phone = _mover(phones)
    settle(phone)
    _tap(phone)
    deadline = time.time() + TIMEOUT / 1000
    while time.time() < deadline and len(store.log(table_id)) == moves:
        time.sleep(0.2)
    assert len(store.log(table_id)) == moves + 1


def _locked(path: Path) -> Callable[[], None]:
    """Another program holds the write lock (`hold_lock`)."""
    holder = hold_lock(path)
    return lambda: output(holder)  # its stdin closed: it rolls back and ends


def _full(path: Path) -> Callable[[], None]:
    """The store's small file system filled to its last byte."""
    ballast = path.parent / "ballast"
    with open(ballast, "wb", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 512)
        except OSError:
            pass
    return ballast.unlink


@pytest.mark.parametrize(("fault", "said"), [(_locked, "is locked by another program"),
                                             (_full, "cannot be written: the disk is full")],
                         ids=["locked", "full disk"])
def test_a_tap_on_a_locked_or_full_store_is_told_beside_its_button_and_the_next_is_stored(
        tmp_path: Path, small_disk: Path | None, new_phone: Callable[[], Any],
        fault: Callable[[Path], Callable[[], None]], said: str) -> None:
    """A tap's run is a run of the table part (a `st.fragment`): the store refuses the write, and the phone reads
    Muster's words beside the tapped button (never a path), with the page around it; the file keeps its bytes;
    the message stays while the fault lasts, goes by itself once the lock is freed or the disk has room (the
    page's poll asks `Store.answers`), and the next tap is stored. The log has one
    line per fault, no traceback (`Server.stop`). The full disk is a 1 MB tmpfs (`small_disk`), skipped where
    this machine cannot mount one; no SQLite pragma stands in for it."""
    if fault is _full and small_disk is None:
        pytest.skip("this machine does not let the test mount a small file system to fill")
    data = small_disk if fault is _full and small_disk is not None else tmp_path / "data"
    path = data / "muster.sqlite3"
    with _served(data) as (server, store):
        table, phones, phone, moves = _seated(server, store, new_phone)
        free = fault(path)
        before = _digests(data)
        _tap(phone)
        message = phone.get_by_text(said).first
        message.wait_for(timeout=TIMEOUT)
        text = message.inner_text()
        assert "Nothing was changed" in text and str(data) not in text and "/" not in text
        assert phone.get_by_text("You are").count() > 0  # the page around the part is still drawn
        assert phone.get_by_text("This app has encountered an error").count() == 0
        after = _digests(data)  # the file keeps every byte; a write that failed may leave frames past the WAL's end
        assert after[path.name] == before[path.name] and not list(data.glob("*corrupt*"))
        phone.wait_for_timeout(2 * POLL_SECONDS * 1000 + 500)  # two polls of the page: the fault still there...
        assert message.is_visible()  # ...so its message stays (a full disk grants an empty write transaction)
        free()
        message.wait_for(state="detached", timeout=TIMEOUT)  # the store answers: the message goes, with no tap
        _next_tap_stored(store, table.id, phones, moves)


def test_a_fault_mid_run_shows_musters_words_and_the_page_comes_back_by_itself(
        tmp_path: Path, new_phone: Callable[[], Any]) -> None:
    """The file is swapped for a copy under the running server, which refuses every use of it, and a phone taps:
    the run the tap causes (the table part's) or the poll's, whichever meets it first, shows Muster's words; once
    the file is put back the page comes back without a reload, and the next tap is stored. (Which run meets it
    first is a race with the 1.5 s poll, so the test does not say it was the table part's.)"""
    data = tmp_path / "data"
    path = data / "muster.sqlite3"
    with _served(data) as (server, store):
        table, phones, phone, moves = _seated(server, store, new_phone)
        kept = data / "kept.sqlite3"
        os.link(path, kept)  # the same file under a second name, to put back
        copy = data / "copy.sqlite3"
        copy.write_bytes(path.read_bytes())
        os.replace(copy, path)
        message = phone.get_by_text("was replaced by another file").first
        try:  # the player taps; if the poll met the fault first, its message already stands where the moves were
            phone.locator(MOVES).first.click(timeout=5_000)
        except PlaywrightError:
            pass
        message.wait_for(timeout=TIMEOUT)
        text = message.inner_text()
        assert "tries again by itself" in text and str(data) not in text
        assert phone.get_by_text("This app has encountered an error").count() == 0
        os.replace(kept, path)
        message.wait_for(state="detached", timeout=TIMEOUT)  # the page back by itself, no reload
        _next_tap_stored(store, table.id, phones, moves)


def test_a_store_made_read_only_mid_run_is_told_on_the_phone_and_not_written(
        tmp_path: Path, new_phone: Callable[[], Any]) -> None:
    """The server runs as a plain owner of its data folder (root without the powers that ignore file modes,
    `AS_PLAIN_OWNER`), and the store is made read-only (`chmod 444`) under it: a tap reads Muster's words naming
    a read-only file, never a path; the file keeps its bytes, though the connections opened before could still
    write; the log has no traceback. Made writable again, the message goes and the next tap is stored."""
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        pytest.skip("running as root, and no setpriv to drop the powers that let root write a read-only file")
    data = tmp_path / "data"
    path = data / "muster.sqlite3"
    with _served(data, AS_PLAIN_OWNER if os.geteuid() == 0 else []) as (server, store):
        table, phones, phone, moves = _seated(server, store, new_phone)
        path.chmod(0o444)
        before = _digests(data)
        _tap(phone)
        message = phone.get_by_text("is read-only").first
        message.wait_for(timeout=TIMEOUT)
        text = message.inner_text()
        assert text.startswith("The table store is read-only. Nothing was changed") and "/" not in text
        assert phone.get_by_text("This app has encountered an error").count() == 0
        assert _digests(data)[path.name] == before[path.name] and len(store.log(table.id)) == moves
        path.chmod(0o644)
        message.wait_for(state="detached", timeout=TIMEOUT)
        _next_tap_stored(store, table.id, phones, moves)
