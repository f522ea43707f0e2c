"""Several servers on one PostgreSQL: six phones on two server processes, kill -9, resent taps, lost notices.

A "server" here is a process with its own PostgresStore and table service, as each `muster app`
process has; its phones are threads. (tests/test_postgres_app.py runs real `muster app`
processes with browsers.) Nothing is mocked: the database is a real server started by the tests.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).parent))

from companion_game import TallyGame  # noqa: E402

from companion.store import open_store  # noqa: E402
from companion.tables import Tables  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ACTIONS = 1000
SERVER = textwrap.dedent("""
    import sys, threading, uuid
    sys.path.insert(0, "tests")
    from companion_game import TallyGame
    from companion.store import open_store
    from companion.tables import Tables
    from engine.core import Action, Refusal

    url, table_id, seats, target = sys.argv[1], int(sys.argv[2]), [int(s) for s in sys.argv[3].split(",")], int(sys.argv[4])
    service = Tables(open_store(url), {"tally": TallyGame()})
    table = service.store.table(table_id)
    said = threading.Lock()

    def phone(seat):
        while True:
            total = sum(service.snapshot(table).state.counts)
            if total >= target:
                return
            try:
                snap = service.act(table, seat, Action("add", seat, {"n": total + 1}))
            except Refusal:
                continue  # another phone, maybe on the other server, got there first
            with said:
                print("ack", seat, snap.head[0], flush=True)

    threads = [threading.Thread(target=phone, args=(s,)) for s in seats]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("done", flush=True)
""")


def start_server(url: str, table_id: int, seats: list[int]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", SERVER, url, str(table_id), ",".join(map(str, seats)), str(ACTIONS)],
                            cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def acks(lines: list[str]) -> list[tuple[int, int]]:
    return [(int(seat), int(seq)) for _, seat, seq in (line.split() for line in lines if line.startswith("ack"))]


def test_postgres_two_servers_six_phones_kill_9_lose_nothing(postgres_url: str) -> None:
    """1,000 actions at one table from six phones on two servers; server A is killed -9 mid-game.

    Every acknowledged action is in the log, numbered 1…1000 with none lost, duplicated or out
    of order; B's phones finish the game alone; a phone of A, reopened on another server, finds everything.
    """
    setup = Tables(open_store(postgres_url), {"tally": TallyGame()})
    table = setup.create("tally", [f"P{i}" for i in range(6)], {"players": 6})
    a = start_server(postgres_url, table.id, [0, 2, 4])
    b = start_server(postgres_url, table.id, [1, 3, 5])
    assert a.stdout is not None and b.stdout is not None
    a_lines: list[str] = []
    while len(acks(a_lines)) < 150:  # A is well into the game
        line = a.stdout.readline()
        assert line, a.stderr.read() if a.stderr else "server A stopped"
        a_lines.append(line)
    a.send_signal(signal.SIGKILL)
    a_lines += a.stdout.read().splitlines()
    a.wait()
    b_out, b_err = b.communicate(timeout=600)
    assert b.returncode == 0 and b_out.splitlines()[-1] == "done", b_err
    log = setup.store.log(table.id)
    assert [e.seq for e in log] == list(range(1, ACTIONS + 1))
    assert [e.action["args"]["n"] for e in log] == list(range(1, ACTIONS + 1))  # in order: each saw the one before
    by_seq = {e.seq: e.seat for e in log}
    acked = acks(a_lines) + acks(b_out.splitlines())
    assert all(by_seq[seq] == seat for seat, seq in acked)  # every acknowledged action is there, as acknowledged
    assert len({seq for _, seq in acked}) == len(acked)
    unacked = set(by_seq) - {seq for _, seq in acked}
    assert len(unacked) <= 3 and all(by_seq[s] in (0, 2, 4) for s in unacked)  # committed as A died, before it said so
    assert {s for _, s in acks(b_out.splitlines())} & set(range(max(s for _, s in acks(a_lines)), ACTIONS + 1))
    reopened = Tables(open_store(postgres_url), {"tally": TallyGame()})  # a phone of A, now on another server
    counts = reopened.snapshot(reopened.store.table(table.id)).state.counts
    assert counts == [sum(1 for e in log if e.seat == seat) for seat in range(6)] and sum(counts) == ACTIONS


def test_postgres_same_request_id_on_two_servers_is_stored_once(postgres_url: str) -> None:
    """A tap resent to the other server while the first is still answering: one entry, both told the same."""
    one, two = open_store(postgres_url), open_store(postgres_url)
    table = one.create_table("race", ["Ann", "Bob"], {})
    barrier = threading.Barrier(8)
    got: list[object] = []

    def resend(store: object) -> None:
        barrier.wait()
        got.append(store.append(table.id, 0, {"kind": "roll", "player": 0, "args": {}}, request_id="tap-7"))  # type: ignore[attr-defined]

    threads = [threading.Thread(target=resend, args=(s,)) for s in (one, two) * 4]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 8 and all(entry == got[0] for entry in got)
    assert [(e.seq, e.request_id) for e in two.log(table.id)] == [(1, "tap-7")]


def test_postgres_listener_reconnects_and_reloads_heads(postgres_url: str) -> None:
    """NOTIFY has no replay: a change made while server B's listener was cut still reaches B's phones."""
    a, b = open_store(postgres_url), open_store(postgres_url)
    wait_for(lambda: admin_count(postgres_url) == 2)  # both servers are listening
    table = a.create_table("race", ["Ann", "Bob"], {})
    wait_for(lambda: b.signature(table.id) == a.signature(table.id))
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        cut = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            "WHERE query = 'LISTEN muster' AND datname = current_database()").fetchall()
        assert len(cut) == 2  # one listening connection per store (server)
        a.append(table.id, 0, {"kind": "roll", "player": 0, "args": {}})  # its notice may reach nobody
    wait_for(lambda: b.signature(table.id) == a.signature(table.id) == (1, a.head(table.id)[1], 1))
    wait_for(lambda: admin_count(postgres_url) == 2)  # both listeners are back


def test_postgres_polling_reads_the_head_table_not_the_database(postgres_server, postgres_url: str) -> None:
    """Once B has heard of a table, its phones' polls cost no query; another server's commit still shows."""
    with psycopg.connect(postgres_url, autocommit=True) as conn:  # the server logs every statement on this database
        conn.execute(f"ALTER DATABASE {postgres_url.rsplit('/', 1)[1]} SET log_statement = 'all'")
    log = postgres_server.folder / "server.log"

    def polls() -> int:
        return log.read_text(errors="replace").count("SELECT t.changed, a.seq, a.id FROM tables t")

    a, b = open_store(postgres_url), open_store(postgres_url)
    wait_for(lambda: admin_count(postgres_url) == 2)  # both servers are listening
    table = a.create_table("race", ["Ann", "Bob"], {})
    seen = a.signature(table.id)
    wait_for(lambda: b.signature(table.id) == seen)
    before = polls()
    assert before >= 1  # the first poll asked the database
    for _ in range(200):
        assert b.signature(table.id) == seen
    assert polls() == before
    a.append(table.id, 0, {"kind": "roll", "player": 0, "args": {}})
    wait_for(lambda: b.signature(table.id)[0] == 1)
    assert polls() == before  # the news came by NOTIFY


def admin_count(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        return int(conn.execute("SELECT count(*) FROM pg_stat_activity WHERE query = 'LISTEN muster' "
                                "AND datname = current_database()").fetchone()[0])


def wait_for(condition: object, within: float = 30) -> None:
    """Wait for something another process does; the limit only stops a broken test from hanging."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError("the condition did not come true within the limit")


def test_postgres_database_from_a_newer_muster_or_another_application_is_refused(postgres_url: str) -> None:
    """Refused with a message, and not changed: the schema row and the foreign table are as they were."""
    from companion.store import SCHEMA_VERSION, StoreUnavailable

    open_store(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("UPDATE meta SET value=%s WHERE key='schema'", (str(SCHEMA_VERSION + 1),))
    try:
        open_store(postgres_url)
    except StoreUnavailable as err:
        assert f"was written by a newer Muster (schema version {SCHEMA_VERSION + 1}" in str(err)
    else:
        raise AssertionError("a database from a newer Muster was opened")
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        assert conn.execute("SELECT value FROM meta").fetchall() == [(str(SCHEMA_VERSION + 1),)]
        conn.execute("DROP TABLE results, actions, seats, tables, meta")
        conn.execute("CREATE TABLE tables (id INTEGER PRIMARY KEY, legs INTEGER)")
    try:
        open_store(postgres_url)
    except StoreUnavailable as err:
        assert "belongs to another application (it has the tables tables), not Muster" in str(err)
    else:
        raise AssertionError("another application's database was opened")
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        names = conn.execute("SELECT table_name FROM information_schema.tables WHERE table_schema='public'").fetchall()
        assert names == [("tables",)]
