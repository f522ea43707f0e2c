"""SQLite faults under a real phone (issue 29): the phone reads Muster's own words (never Streamlit's error box, a
path or a traceback), the healthy file keeps its bytes, and the server's log has no traceback (`Server.stop`).

Pages of the file overwritten with garbage while the server runs (43 tracebacks in the log once, and the
project's message for a damaged file never reached a phone), and a store from a newer Muster at start.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import TIMEOUT
from test_browser import Server

from companion.store import SCHEMA_VERSION, open_store
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
