"""Real faults on the SQLite store: each is an operational error with a message, never a "corrupt" file.

A lock held by another process past the busy timeout, a read-only file, a full disk, a
database of another application and a file deleted under the running app: in each case the
healthy file keeps its name and its bytes (or, once deleted, gets its tables back), and the
user reads what is wrong. Only a file SQLite itself calls malformed is set aside.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from companion_game import RaceGame  # noqa: E402

from companion.store import StoreUnavailable, open_store  # noqa: E402
from companion.store_sqlite import SQLiteStore  # noqa: E402
from companion.tables import Tables  # noqa: E402
from engine.core import Action  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# Root ignores file permissions; without these capabilities it obeys them like any other owner.
AS_PLAIN_OWNER = ["setpriv", "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]


def healthy_store(path: Path, tables: int = 3) -> bytes:
    """A closed store with `tables` tables and a few actions; its bytes, to prove they never change."""
    service = Tables(open_store(path), {"race": RaceGame()})
    for i in range(tables):
        table = service.create("race", [f"Ann{i}", f"Bob{i}"], {"players": 2, "target": 99})
        service.act(table, 0, Action("roll", 0))
    service.store.close()
    return path.read_bytes()


def run_store(path: Path, code: str, *, plain: bool = False, fsize: int | None = None,
              stdin: int | None = None) -> subprocess.Popen[str]:
    """Run `code` (with `store_at(path)` defined) in another process, without root's powers or with a file size limit."""
    script = textwrap.dedent("""
        import sys
        from pathlib import Path
        from companion.store import StoreUnavailable
        from companion.store_sqlite import SQLiteStore
        path = Path(sys.argv[1])
        def store_at(p=path, busy=0.3):
            return SQLiteStore(p, busy_timeout=busy)
    """) + textwrap.dedent(code)

    def limit() -> None:
        if fsize is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    wrapper = AS_PLAIN_OWNER if plain and os.geteuid() == 0 else []
    return subprocess.Popen([*wrapper, sys.executable, "-c", script, str(path)], cwd=ROOT, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)), stdin=stdin,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limit)


def hold_lock(path: Path) -> subprocess.Popen[str]:
    """Another process holding the store's write lock (as a backup tool or an sqlite3 shell inside BEGIN would)
    until its stdin closes. Another process, as closing any copy of the file in this one would drop its locks."""
    holder = run_store(path, """
        import sqlite3
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        print("locked", flush=True)
        sys.stdin.read()
        conn.execute("ROLLBACK")
    """, stdin=subprocess.PIPE)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    return holder


def output(proc: subprocess.Popen[str]) -> str:
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Traceback" not in out + err
    return out.strip()


def untouched(folder: Path, before: bytes) -> None:
    """The store file is still there under its name with the same bytes, and nothing was set aside."""
    assert (folder / "muster.sqlite3").read_bytes() == before
    assert not list(folder.glob("*corrupt*"))


def test_a_lock_held_past_the_busy_timeout_is_busy_not_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "muster.sqlite3"
    before = healthy_store(path)
    running = SQLiteStore(path, busy_timeout=0.3)  # the app, started before the lock
    holder = hold_lock(path)
    assert holder.stdin is not None
    try:
        with pytest.raises(StoreUnavailable) as at_start:
            SQLiteStore(path, busy_timeout=0.3)
        with pytest.raises(StoreUnavailable) as in_play:
            running.append(1, 1, {"kind": "roll", "player": 1, "args": {}})
        for err in (at_start.value, in_play.value):
            assert err.full == (f"The table store {path} is locked by another program (still busy after 0.3 s). "
                                "Nothing was changed; try again in a moment.")
        assert len(running.tables()) == 3  # reading still works while another program writes
        with pytest.raises(StoreUnavailable) as asked:  # so a page that met the lock asks for the lock itself
            running.answers()
        assert asked.value.full == in_play.value.full
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    running.answers()  # the lock is free: the page draws itself again, and asking wrote nothing
    untouched(tmp_path, before)
    entry = running.append(1, 1, {"kind": "roll", "player": 1, "args": {}})  # the retry, once the lock is gone
    assert entry.seq == 2 and len(SQLiteStore(path).tables()) == 3


def test_a_read_only_file_is_reported_and_kept(tmp_path: Path) -> None:
    folder = tmp_path
    path = folder / "muster.sqlite3"
    before = healthy_store(path)
    path.chmod(0o444)
    proc = run_store(path, """
        try:
            store = store_at()
            print(len(store.tables()), "tables;", end=" ")
            store.create_table("race", ["A", "B"], {})
            print("written")
        except StoreUnavailable as err:
            print(err.full)
    """, plain=True)
    said = output(proc)
    assert said.endswith(f"The table store {path} is read-only. Nothing was changed; "
                         "make the file and its folder writable, then try again."), said
    untouched(folder, before)
    path.chmod(0o644)
    assert len(open_store(path).tables()) == 3


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path | None]:
    """A 1 MB tmpfs when this machine lets the test mount one, else None (then RLIMIT_FSIZE plays the full disk)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    try:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                                 capture_output=True).returncode == 0
    except OSError:  # no mount command
        mounted = False
    if not mounted:
        yield None
        return
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_a_full_disk_is_reported_and_the_file_kept(tmp_path: Path, small_disk: Path | None) -> None:
    folder = small_disk or tmp_path
    path = folder / "muster.sqlite3"
    before = healthy_store(path)
    fsize = None
    if small_disk is not None:
        with open(small_disk / "ballast", "wb", buffering=0) as ballast:  # fill the disk to the last byte
            try:
                while True:
                    ballast.write(b"\0" * 512)
            except OSError:
                pass
    else:
        fsize = 0  # no file may grow: every write fails as on a full disk
    proc = run_store(path, """
        for attempt in ("start", "play"):
            try:
                store = store_at()
                for i in range(200):
                    store.create_table("race", [f"A{i}", f"B{i}"], {})
                print(attempt, "fit")
            except StoreUnavailable as err:
                print(attempt, err.full)
                break
    """, fsize=fsize)
    said = output(proc)
    assert f"The table store {path} cannot be written: the disk is full or failing" in said, said
    assert said.endswith("Nothing was changed; free some space, then try again.")
    assert not list(folder.glob("*corrupt*"))
    if small_disk is not None:
        (small_disk / "ballast").unlink()
    else:
        untouched(folder, before)
    store = open_store(path)
    assert store.notice is None and len(store.tables()) >= 3
    store.close()


def test_a_full_disk_is_told_by_answers_until_there_is_room(tmp_path: Path, small_disk: Path | None) -> None:
    """An empty write transaction writes nothing, so a full disk grants it: `answers`, which a page that met the
    fault asks before drawing itself again, asks the file system for room for a tap, else the page's message
    went within one poll while the disk was still full."""
    if small_disk is None:
        pytest.skip("this machine does not let the test mount a small file system to fill")
    path = small_disk / "muster.sqlite3"
    healthy_store(path)
    running = SQLiteStore(path)
    try:
        _asked_on_a_full_disk(running, path, small_disk)
    finally:
        running.close()


def _asked_on_a_full_disk(running: SQLiteStore, path: Path, small_disk: Path) -> None:
    running.answers()
    with open(small_disk / "ballast", "wb", buffering=0) as ballast:
        try:
            while True:
                ballast.write(b"\0" * 512)
        except OSError:
            pass
    with pytest.raises(StoreUnavailable) as full:
        running.answers()
    assert full.value.full == (f"The table store {path} cannot be written: the disk is full (less than 64 KB free "
                               f"in {small_disk}). Nothing was changed; free some space, then try again.")
    assert str(full.value) == ("The table store cannot be written: the disk is full. Nothing was changed; "
                               "free some space, then try again.")
    assert len(running.tables()) == 3  # reading still works
    (small_disk / "ballast").unlink()
    running.answers()


def test_a_lock_is_logged_once_and_its_end_once_when_it_is_true(tmp_path: Path,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    """While another program holds the lock every phone's poll still reads: a read says nothing of a fault only
    writes meet, so the log says "answers again" once, when a write gets the lock, not after every tap's
    "unavailable" line."""
    path = tmp_path / "muster.sqlite3"
    healthy_store(path)
    running = SQLiteStore(path, busy_timeout=0.3)
    caplog.set_level("WARNING", logger="muster.companion")
    said = f"The table store {path} is locked by another program (still busy after 0.3 s). Nothing was changed; "
    said += "try again in a moment."

    def lines() -> list[str]:
        return [r.getMessage() for r in caplog.records if str(path) in r.getMessage()]

    holder = hold_lock(path)
    assert holder.stdin is not None
    try:
        for _ in range(2):
            with pytest.raises(StoreUnavailable):
                running.append(1, 1, {"kind": "roll", "player": 1, "args": {}})
            assert len(running.tables()) == 3
            with pytest.raises(StoreUnavailable):
                running.answers()
        assert lines() == [f"table store unavailable: {said}"]
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    running.tables()
    assert lines() == [f"table store unavailable: {said}"]
    running.answers()
    running.tables()
    assert lines() == [f"table store unavailable: {said}", f"table store answers again (after: {said})"]
    running.close()


def test_a_file_deleted_under_the_running_app_is_noticed_and_written_back(tmp_path: Path) -> None:
    path = tmp_path / "muster.sqlite3"
    service = Tables(open_store(path), {"race": RaceGame()})
    table = service.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    for seat in (0, 1) * 20:
        service.act(table, seat, Action("roll", seat))  # 40 acknowledged actions
    for side in tmp_path.glob("muster.sqlite3*"):
        side.unlink()
    with pytest.raises(StoreUnavailable) as noticed:
        service.act(table, 0, Action("roll", 0))
    assert noticed.value.full == (f"The table store {path} was deleted while the companion was running. Muster wrote "
                                  "the tables it still held back to that file; nothing was lost. Try again.")
    assert [e.seq for e in open_store(path).log(table.id)] == list(range(1, 41))
    assert service.act(table, 0, Action("roll", 0)).head[0] == 41  # the retry lands in the restored file


def test_a_file_replaced_under_the_running_app_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "muster.sqlite3"
    store = open_store(path)
    store.create_table("race", ["Ann", "Bob"], {})
    other = tmp_path / "other.sqlite3"
    healthy_store(other, tables=1)
    other.replace(path)
    replaced = path.read_bytes()
    with pytest.raises(StoreUnavailable, match="was replaced by another file while the companion was running"):
        store.create_table("race", ["Cy", "Di"], {})
    assert path.read_bytes() == replaced


def test_only_a_malformed_file_is_set_aside_with_its_wal_and_shm(tmp_path: Path) -> None:
    """A page of the file overwritten: SQLite reports it malformed; the file and its companions move together."""
    path = tmp_path / "muster.sqlite3"
    healthy_store(path, tables=30)
    data = bytearray(path.read_bytes())
    data[4096 * 2: 4096 * 3] = os.urandom(4096)  # a table's page, not the header
    path.write_bytes(bytes(data))
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").write_bytes(b"")
    store = open_store(path)
    assert store.notice is not None and "is damaged" in store.notice and store.tables() == []
    kept = sorted(p.name.split(".corrupt-")[1][15:] for p in tmp_path.glob("muster.sqlite3.corrupt-*"))
    assert kept == ["", "-shm", "-wal"]


def test_the_app_says_the_store_is_busy_and_offers_a_retry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lock held at start: the page names the file and the problem, with a button to try again, no traceback."""
    from streamlit.testing.v1 import AppTest

    from apptest_helpers import APP, pad_buttons

    from companion.faults import KEPT

    path = tmp_path / "muster.sqlite3"
    before = healthy_store(path)
    monkeypatch.setenv("MUSTER_DATA_DIR", str(tmp_path))
    monkeypatch.setattr("companion.store_sqlite.BUSY_TIMEOUT", 0.3)
    holder = run_store(path, """
        import sqlite3
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        print("locked", flush=True)
        sys.stdin.read()
    """, stdin=subprocess.PIPE)
    assert holder.stdout is not None and holder.stdin is not None
    try:
        assert holder.stdout.readline().strip() == "locked"
        at = AppTest.from_file(APP, default_timeout=30).run()
        assert not at.exception
        assert [e.value for e in at.error] == ["The table store cannot be opened. The table store is locked by another "
                                               "program (still busy after 0.3 s). Nothing was changed; try again in a "
                                               f"moment. {KEPT}"]  # and never where the file is
        assert at.button(key="store-retry").label == "Try again"
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    untouched(tmp_path, before)
    at.button(key="store-retry").click().run()
    assert not at.error and sum(b.key.startswith("watch-") for b in pad_buttons(at)) == 3  # the lobby, all tables there


def _digests(folder: Path) -> dict[str, str]:
    """Each file of the folder (the store and its -wal and -shm) by its SHA-256."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def test_a_newer_schema_with_its_wal_is_refused_and_no_byte_changes(tmp_path: Path) -> None:
    """Issue 29: opening a store of a newer Muster checkpointed its WAL, so the file changed though the message
    said it had not. Now it is inspected read-only: the file and its WAL keep their bytes (hashed)."""
    path = tmp_path / "muster.sqlite3"
    output(run_store(path, """
        import os, sqlite3
        store = store_at()
        store.create_table("race", ["A", "B"], {})
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("UPDATE meta SET value='99' WHERE key='schema'")
        print("written", flush=True)
        os._exit(0)  # no close: the change stays in the WAL, not yet in the file
    """))
    assert Path(f"{path}-wal").stat().st_size > 0
    before = _digests(tmp_path)
    for _ in range(2):
        with pytest.raises(StoreUnavailable) as refused:
            open_store(path)
        assert str(refused.value) == ("The table store was written by a newer Muster (schema version 99; this one "
                                      "knows up to 5). Upgrade Muster to use it; the file was not changed.")
    after = _digests(tmp_path)
    assert {k: v for k, v in after.items() if k != "muster.sqlite3-shm"} == {
        k: v for k, v in before.items() if k != "muster.sqlite3-shm"}  # the -shm is SQLite's scratch index


def test_a_schema_this_sqlite_cannot_parse_is_refused_not_set_aside(tmp_path: Path) -> None:
    """Issue 29: a healthy store whose schema SQL this SQLite cannot parse (as a newer SQLite may write) was set
    aside as damaged and every table vanished. Now: a clear refusal, the bytes identical, nothing moved."""
    path = tmp_path / "muster.sqlite3"
    healthy_store(path)
    import sqlite3

    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE later (x)")
    conn.execute("PRAGMA writable_schema=ON")
    conn.execute("UPDATE sqlite_master SET sql='CREATE TABLE later (x) WITH FUTURE OPTIONS' WHERE name='later'")
    conn.close()
    before = _digests(tmp_path)
    with pytest.raises(StoreUnavailable) as refused:
        open_store(path)
    assert str(refused.value).startswith(f"The table store has a schema this SQLite ({sqlite3.sqlite_version}) "
                                         "cannot read: a newer SQLite may have written it. Muster left the file")
    assert str(path) in refused.value.full and "malformed database schema (later)" in refused.value.full
    after = _digests(tmp_path)  # a reader of a WAL store makes an empty -wal and SQLite's scratch -shm, no more
    assert after["muster.sqlite3"] == before["muster.sqlite3"] and after.get("muster.sqlite3-wal") in (
        None, before.get("muster.sqlite3-wal"), hashlib.sha256(b"").hexdigest())
    assert not list(tmp_path.glob("*corrupt*"))


@pytest.fixture
def read_only_mount(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs holding a healthy store, remounted read-only (skipped where this machine cannot mount)."""
    mount = tmp_path / "ro"
    mount.mkdir()
    try:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)],
                                 capture_output=True).returncode == 0
    except OSError:
        mounted = False
    if not mounted:
        pytest.skip("this machine does not let the test mount a file system")
    try:
        healthy_store(mount / "muster.sqlite3")
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        yield mount
    finally:
        subprocess.run(["umount", "--lazy", str(mount)], check=True)  # lazy: a connection may still hold it


def test_a_read_only_file_system_is_named_as_such(read_only_mount: Path) -> None:
    """Issue 29: a read-only file system was reported as "disk is full or failing"."""
    path = read_only_mount / "muster.sqlite3"
    before = _digests(read_only_mount)
    try:
        store = open_store(path)
        assert len(store.tables()) == 3
        with pytest.raises(StoreUnavailable) as refused:
            store.create_table("race", ["A", "B"], {})
        store.close()
    except StoreUnavailable as err:  # or already on opening, when SQLite needs to write its -shm
        refused = pytest.ExceptionInfo.from_exception(err)
    assert f"is on a read-only file system ({read_only_mount})" in refused.value.full
    assert str(refused.value) == ("The table store is on a read-only file system, so nothing new can be saved. "
                                  "Everything saved so far is kept; mount that file system writable (or choose "
                                  "another data folder), then try again.")
    assert _digests(read_only_mount) == before
