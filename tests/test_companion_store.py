"""The table store and the table service: persistence, concurrency, undo, seat authorisation, damaged files."""

from __future__ import annotations

import sqlite3
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from companion_game import RaceGame, TallyGame  # noqa: E402

from companion.store import SCHEMA_VERSION, Store, StoreError, StoreUnavailable, check_data_dir, default_data_dir, open_store  # noqa: E402
from companion.store_sqlite import SQLiteStore  # noqa: E402
from companion.tables import Tables  # noqa: E402
from engine.core import Action, Refusal  # noqa: E402


@pytest.fixture
def service(store_target: str) -> Tables:
    """A table service on each backend (the test names say which: [sqlite] or [postgres])."""
    return Tables(open_store(store_target), {"race": RaceGame(), "tally": TallyGame()})


def roll(service: Tables, table, seat: int):
    return service.act(table, seat, Action("roll", seat))


def test_create_gives_code_and_private_tokens(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob", "Cy"], {"players": 3})
    assert len(table.code) == 5 and table.code.isupper()
    assert [s.name for s in table.seats] == ["Ann", "Bob", "Cy"]
    assert len({s.token for s in table.seats}) == 3
    assert service.store.table_by_code(table.code.lower()) == table
    assert table.seat_by_token(table.seats[1].token).seat == 1
    assert table.seat_by_token("forged") is None and table.seat_by_token(None) is None
    later = service.create("race", ["Di", "Ed"], {"players": 2})
    service.concede(later, 1)
    assert service.store.tables() == [service.store.table(later.id), table]  # most recently active first
    assert service.store.tables("playing") == [table]


def test_create_refuses_bad_options_and_names(service: Tables) -> None:
    with pytest.raises(Refusal, match="2 to 4 players"):
        service.create("race", ["A", "B"], {"players": 9})
    with pytest.raises(Refusal, match="names look alike"):
        service.create("race", ["Ann", "ann"], {"players": 2})
    with pytest.raises(Refusal, match="cannot be played"):
        service.create("chess", ["A", "B"], {})


def test_log_survives_a_new_process(store_target: str) -> None:
    first = Tables(open_store(store_target), {"race": RaceGame()})
    table = first.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    for seat in (0, 1, 0, 1):
        roll(first, table, seat)
    before = first.snapshot(table).state.view(None)
    second = Tables(open_store(store_target), {"race": RaceGame()})  # a restart: empty cache
    after = second.snapshot(second.store.table_by_code(table.code))
    assert after.head[0] == 4
    assert after.state.view(None) == before


def bank(service: Tables, table, seat: int):
    return service.act(table, seat, Action("bank", seat, {"amount": 1}))


def test_a_roll_cannot_be_taken_back_so_it_cannot_be_rolled_again(service: Tables) -> None:
    """Chance decided the roll: the engine's undo_refusal says no, and nothing is appended."""
    table = service.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    roll(service, table, 0)
    with pytest.raises(Refusal, match="chance decided part of it"):
        service.undo(table, 0)
    assert [e.action["kind"] for e in service.store.log(table.id)] == ["roll"]


def test_undo_only_own_last_action(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    bank(service, table, 0)
    with pytest.raises(Refusal, match="by the player who made it"):
        service.undo(table, 1)
    with pytest.raises(Refusal, match="Spectators"):
        service.undo(table, None)
    service.undo(table, 0)
    with pytest.raises(Refusal, match="nothing to take back"):
        service.undo(table, 0)


def test_seat_acts_only_for_itself_and_spectators_never(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2})
    with pytest.raises(Refusal, match="own seat"):
        service.act(table, 1, Action("roll", 0))
    with pytest.raises(Refusal, match="Spectators cannot act"):
        service.act(table, None, Action("roll", 0))
    with pytest.raises(Refusal, match="not your turn"):
        roll(service, table, 1)
    with pytest.raises(Refusal, match="Spectators cannot concede"):
        service.concede(table, None)
    assert service.store.head(table.id) == (0, 0)


def test_refusal_leaves_log_and_cache_unchanged(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2})
    roll(service, table, 0)
    before = service.snapshot(table)
    with pytest.raises(Refusal, match="exactly 1"):
        service.act(table, 1, Action("bank", 1, {"amount": 5}))
    after = service.snapshot(table)
    assert after.head == before.head and after.state.view(None) == before.state.view(None)


def test_private_view_is_private(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2})
    state = service.snapshot(table).state
    assert "your_card" not in state.view(None)
    assert state.view(0)["your_card"] != state.view(1)["your_card"]


def test_game_end_records_results_and_blocks_further_moves(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2, "target": 1})
    roll(service, table, 0)
    ended = service.store.table(table.id)
    assert ended.status == "ended" and ended.winner == 0
    records = {r.name: (r.wins, r.losses) for r in service.store.records()}
    assert records == {"Ann": (1, 0), "Bob": (0, 1)}
    with pytest.raises(StoreError, match="has ended"):
        roll(service, ended, 1)
    with pytest.raises(Refusal, match="has ended"):
        service.undo(ended, 0)


def test_concede_two_players_and_many(service: Tables) -> None:
    duel = service.create("race", ["Ann", "Bob"], {"players": 2})
    service.concede(duel, 1)
    assert service.store.table(duel.id).winner == 0
    crowd = service.create("race", ["Ann", "Bob", "Cy"], {"players": 3})
    service.concede(crowd, 2)
    assert service.store.table(crowd.id).winner is None
    records = {r.name: (r.wins, r.losses) for r in service.store.records()}
    assert records == {"Ann": (1, 0), "Bob": (0, 1), "Cy": (0, 1)}
    with pytest.raises(Refusal, match="already ended"):
        service.concede(crowd, 0)


def test_concurrent_phones_lose_and_duplicate_nothing(store_target: str) -> None:
    """Six threads, some with their own Tables (as separate server processes would be), race to add to one tally."""
    path = store_target
    setup = Tables(open_store(path), {"tally": TallyGame()})
    table = setup.create("tally", [f"P{i}" for i in range(6)], {"players": 6})
    shared = Tables(open_store(path), {"tally": TallyGame()})
    per_thread = 40
    accepted: list[list[int]] = [[] for _ in range(6)]
    errors: list[BaseException] = []

    def phone(seat: int) -> None:
        service = shared if seat % 2 else Tables(open_store(path), {"tally": TallyGame()})
        done = 0
        while done < per_thread:
            snap = service.snapshot(table)
            action = snap.state.legal_actions(seat)[0]
            try:
                result = service.act(table, seat, action)
            except Refusal:
                continue  # another phone got there first: the engine re-verified and refused a stale count
            except BaseException as err:  # pragma: no cover - reported below
                errors.append(err)
                return
            accepted[seat].append(result.head[0])
            done += 1

    threads = [threading.Thread(target=phone, args=(s,)) for s in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    log = setup.store.log(table.id)
    seqs = [e.seq for e in log]
    assert seqs == list(range(1, 6 * per_thread + 1))
    assert sorted(s for a in accepted for s in a) == seqs
    assert [e.action["args"]["n"] for e in log] == seqs
    assert setup.snapshot(table).state.counts == [per_thread] * 6


def test_unique_seq_is_enforced_by_the_sqlite_file(tmp_path: Path) -> None:
    service = Tables(open_store(tmp_path / "muster.sqlite3"), {"race": RaceGame()})
    table = service.create("race", ["Ann", "Bob"], {"players": 2})
    roll(service, table, 0)
    with sqlite3.connect(service.store.path) as conn, pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO actions (table_id, seq, seat, action, at) VALUES (?, 1, 0, '{}', 0)", (table.id,))


def test_cache_follows_undo_then_new_action(store_target: str) -> None:
    """Another process undoes and acts again: the cache must notice the new entries."""
    path = store_target
    a = Tables(open_store(path), {"race": RaceGame()})
    b = Tables(open_store(path), {"race": RaceGame()})
    table = a.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    bank(a, table, 0)
    assert a.snapshot(table).state.rolls == [1]
    b.undo(table, 0)
    roll(b, table, 0)
    seen, theirs = a.snapshot(table), b.snapshot(table)
    assert [e.action["kind"] for e in seen.entries] == ["bank", "undo", "roll"] and seen.head == theirs.head
    assert seen.state.rolls == theirs.state.rolls and len(seen.state.rolls) == 1  # the bank is gone, the roll is in


def test_corrupt_file_is_kept_aside_and_a_fresh_store_starts(tmp_path: Path) -> None:
    path = tmp_path / "muster.sqlite3"
    path.write_bytes(b"this is not a database at all" * 100)
    store = open_store(path)
    assert store.notice and "is damaged (file is not a database)" in store.notice
    kept = list(tmp_path.glob("muster.sqlite3.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_bytes().startswith(b"this is not")
    assert store.tables() == []
    store.close()
    for side in tmp_path.glob("muster.sqlite3-*"):
        side.unlink()
    path.write_bytes(b"garbage again" * 100)
    open_store(path)
    assert len(list(tmp_path.glob("muster.sqlite3.corrupt-*"))) == 2  # the first one is never overwritten


@pytest.mark.parametrize("schema", [
    "CREATE TABLE recipes (name TEXT)",
    "CREATE TABLE tables (id INTEGER PRIMARY KEY, legs INTEGER, wood TEXT)",  # another app's 'tables'
    "CREATE TABLE meta (key TEXT); CREATE TABLE tables (id INTEGER PRIMARY KEY, game TEXT); CREATE TABLE seats (x)",
])
def test_a_database_of_another_application_is_refused_and_left_alone(tmp_path: Path, schema: str) -> None:
    path = tmp_path / "muster.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.executescript(schema)
    before = path.read_bytes()
    with pytest.raises(StoreUnavailable, match="database of another application") as refused:
        open_store(path)
    assert str(path) in refused.value.full and "--data-dir" in refused.value.full and str(path) not in str(refused.value)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["muster.sqlite3"]


def test_missing_file_starts_fresh_without_a_warning(tmp_path: Path) -> None:
    store = open_store(tmp_path / "new" / "muster.sqlite3")
    assert store.notice is None and store.tables() == []


def test_data_dir_resolution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MUSTER_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_data_dir() == tmp_path / "xdg" / "muster"
    monkeypatch.setenv("MUSTER_DATA_DIR", str(tmp_path / "mine"))
    assert default_data_dir() == tmp_path / "mine"
    (tmp_path / "file").write_text("x")
    with pytest.raises(StoreError, match="is a file"):
        check_data_dir(tmp_path / "file")


def test_seats_start_free_and_a_claim_is_atomic(store_target: str) -> None:
    """Phones of several processes (stores) race for one seat: exactly one gets it."""
    path = store_target
    setup = Tables(open_store(path), {"race": RaceGame()})
    table = setup.create("race", ["Ann", "Bob"], {"players": 2})
    assert table.host_token and [s.claimed for s in table.seats] == [False, False]
    assert table.free_seats == table.seats
    stores = [open_store(path) for _ in range(8)]
    won: list[str] = []
    refused: list[str] = []
    barrier = threading.Barrier(len(stores))

    def phone(store: Store) -> None:
        barrier.wait()
        try:
            won.append(store.claim_seat(table.id, 1).token)
        except StoreError as err:
            refused.append(str(err))

    threads = [threading.Thread(target=phone, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert won == [table.seats[1].token] and len(refused) == 7
    assert all("Another phone has just taken that seat" in r for r in refused)
    after = setup.store.table(table.id)
    assert [s.name for s in after.free_seats] == ["Ann"]
    with pytest.raises(StoreError, match="just taken"):
        setup.store.claim_seat(table.id, 1)
    with pytest.raises(StoreError, match="no such seat"):
        setup.store.claim_seat(table.id, 7)


def test_reissue_rotates_the_token_and_frees_the_seat(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    service.store.claim_seat(table.id, 0)
    service.store.claim_seat(table.id, 1)
    roll(service, table, 0)
    service.store.hold_seat(table.id, table.seats[0].token, "phone-a")
    with pytest.raises(StoreError, match="Only the host"):
        service.store.reissue_seat(table.id, 0, "forged")
    with pytest.raises(StoreError, match="Only the host"):
        service.store.reissue_seat(table.id, 0, None)
    freed = service.store.reissue_seat(table.id, 0, table.host_token)
    after = service.store.table(table.id)
    assert freed.token != table.seats[0].token and not freed.claimed and freed.device is None and freed.reserved
    assert after.seat_by_token(table.seats[0].token) is None and after.seat_by_token(freed.token).seat == 0
    assert after.free_seats == ()  # kept for its new link: joining by code cannot take it
    with pytest.raises(StoreError, match="The host re-issued this seat; only its new link takes it"):
        service.store.claim_seat(table.id, 0)
    assert service.store.head(table.id)[0] == 1  # claims and releases are not actions; the log is untouched
    assert service.snapshot(after).state.scores[0] > 0
    service.store.mark_claimed(table.id, freed.token)  # opening the new link takes the seat
    assert service.store.table(table.id).free_seats == ()
    service.concede(after, 1)
    with pytest.raises(StoreError, match="has ended"):
        service.store.claim_seat(table.id, 1)
    with pytest.raises(StoreError, match="has ended"):
        service.store.reissue_seat(table.id, 0, table.host_token)


def old_store(folder: Path, version: int, rows: str) -> Path:
    """A store file as an older Muster left it, with `rows` inserted. Version 1: tables and seats, without hosts
    or seat claims. Version 2: those, the log and the results, without request ids, seat holders or the change
    counter."""
    v2 = version == 2
    log = """CREATE TABLE actions (id INTEGER PRIMARY KEY AUTOINCREMENT, table_id INTEGER NOT NULL, seq INTEGER NOT NULL,
                seat INTEGER NOT NULL, action TEXT NOT NULL, at REAL NOT NULL, UNIQUE (table_id, seq));
            CREATE TABLE results (table_id INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
                outcome TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (table_id, seat));"""
    path = folder / "muster.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.executescript(f"""
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE tables (id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, seed TEXT NOT NULL,
                options TEXT NOT NULL, code TEXT NOT NULL UNIQUE, created REAL NOT NULL, last_activity REAL NOT NULL,
                status TEXT NOT NULL DEFAULT 'playing', winner INTEGER, ended_by TEXT{', host_token TEXT' if v2 else ''});
            CREATE TABLE seats (table_id INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
                token TEXT NOT NULL UNIQUE,{' claimed INTEGER NOT NULL DEFAULT 0,' if v2 else ''} PRIMARY KEY (table_id, seat));
            {log if v2 else ''}
            INSERT INTO meta VALUES ('schema', '{version}');
            {rows}
        """)
    return path


def test_a_version_1_store_gains_hosts_and_claims(tmp_path: Path) -> None:
    """Tables made before seat claims keep their links working: their seats count as handed out."""
    path = old_store(tmp_path, 1, """
        INSERT INTO tables (game, seed, options, code, created, last_activity) VALUES ('race', 's', '{}', 'OLD22', 0, 0);
        INSERT INTO seats VALUES (1, 0, 'Ann', 'tok-a'), (1, 1, 'Bob', 'tok-b');
    """)
    store = open_store(path)
    assert store.notice is None
    old = store.table_by_code("OLD22")
    assert old is not None and old.host_token is None and old.free_seats == ()
    assert old.seat_by_token("tok-b").seat == 1 and not old.is_host(None) and not old.is_host("x")


def test_undo_is_an_appended_entry_and_nothing_is_deleted(service: Tables) -> None:
    """Contract B: the log only grows; an undo names the seq it takes back, and seqs are never reused."""
    table = service.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    bank(service, table, 0)
    entry = service.undo(table, 0)
    assert (entry.seq, entry.seat, entry.action) == (2, 0, {"kind": "undo", "player": 0, "args": {"seq": 1}})
    bank(service, table, 0)
    log = service.store.log(table.id)
    assert [(e.seq, e.action["kind"]) for e in log] == [(1, "bank"), (2, "undo"), (3, "bank")]
    assert service.snapshot(table).state.scores == [1, 0]
    assert len({e.id for e in log}) == 3


def test_same_request_id_twice_is_stored_once(service: Tables) -> None:
    """A tap resent after a dropped connection: the stored entry comes back and `check` is not run again."""
    table = service.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    checks: list[tuple[int, int]] = []
    first = service.store.append(table.id, 0, {"kind": "roll", "player": 0, "args": {}},
                                 check=lambda tx, head: checks.append(head), request_id="tap-1")
    again = service.store.append(table.id, 0, {"kind": "roll", "player": 0, "args": {}},
                                 check=lambda tx, head: checks.append(head), request_id="tap-1")
    assert again == first and checks == [(0, 0)]
    other = service.store.append(table.id, 1, {"kind": "roll", "player": 1, "args": {}}, request_id="tap-2")
    assert [(e.seq, e.request_id) for e in service.store.log(table.id)] == [(1, "tap-1"), (2, "tap-2")]
    assert other.seq == 2
    with pytest.raises(StoreError, match="1 to 128 characters"):
        service.store.append(table.id, 0, {"kind": "roll", "player": 0, "args": {}}, request_id="x" * 129)


def test_check_reads_inside_the_transaction_with_the_opaque_handle(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    roll(service, table, 0)
    seen: list[object] = []

    def check(tx, head: tuple[int, int]) -> None:
        seen.append((head, service.store.head(table.id, conn=tx), [e.seq for e in service.store.log(table.id, 0, conn=tx)]))

    service.store.append(table.id, 1, {"kind": "roll", "player": 1, "args": {}}, check=check)
    assert seen == [((1, service.store.log(table.id)[0].id), (1, service.store.log(table.id)[0].id), [1])]


def test_hold_seat_says_which_phone_held_it_before(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2})
    token = table.seats[1].token
    signature = service.store.signature(table.id)
    assert service.store.hold_seat(table.id, token, "phone-a") is None
    assert service.store.signature(table.id) != signature
    assert service.store.hold_seat(table.id, token, "phone-a") is None
    assert service.store.hold_seat(table.id, token, "phone-b") == "phone-a"
    seat = service.store.table(table.id).seats[1]
    assert (seat.device, seat.claimed) == ("phone-b", True)
    with pytest.raises(StoreError, match="no longer valid"):
        service.store.hold_seat(table.id, "forged", "phone-c")


def test_a_version_2_store_is_upgraded_in_place(tmp_path: Path) -> None:
    """Request ids, seat holders and the change counter arrive; the old log and links are kept."""
    path = old_store(tmp_path, 2, """
        INSERT INTO tables (game, seed, options, code, created, last_activity, host_token)
            VALUES ('race', 's', '{"players": 2, "target": 99}', 'OLD33', 0, 0, 'host');
        INSERT INTO seats VALUES (1, 0, 'Ann', 'tok-a', 1), (1, 1, 'Bob', 'tok-b', 0);
        INSERT INTO actions (table_id, seq, seat, action, at) VALUES (1, 1, 0, '{"kind": "roll", "player": 0, "args": {}}', 0);
    """)
    service = Tables(open_store(path), {"race": RaceGame()})
    table = service.store.table_by_code("OLD33")
    assert [(s.name, s.claimed, s.device) for s in table.seats] == [("Ann", True, None), ("Bob", False, None)]
    assert service.snapshot(table).head[0] == 1
    entry = service.store.append(table.id, 1, {"kind": "roll", "player": 1, "args": {}}, request_id="r")
    assert (entry.seq, entry.request_id) == (2, "r")
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == (str(SCHEMA_VERSION),)


def test_a_store_from_a_newer_muster_is_refused_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "muster.sqlite3"
    open_store(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA_VERSION + 1),))
    before = path.read_bytes()
    with pytest.raises(StoreUnavailable, match=f"newer Muster \\(schema version {SCHEMA_VERSION + 1}"):
        open_store(path)
    assert path.read_bytes() == before


def test_what_a_tap_and_a_poll_ask_the_store_statement_by_statement(tmp_path: Path) -> None:
    """A table is one statement, a signature one, and a write sets its lock wait only when it changes: each
    statement is a round trip to PostgreSQL and lets go of Python's lock in SQLite, at every tap and poll."""
    said: list[str] = []

    class Traced(SQLiteStore):
        def _new_connection(self, create: bool = False, mode: str = "rw") -> Any:
            conn = super()._new_connection(create, mode)
            conn.set_trace_callback(lambda sql: said.append(sql.split()[0] + " " + sql.split()[1]))
            return conn

    store = Traced(tmp_path / "muster.db")
    table = store.create_table("race", ["Ann", "Bob", "Cy"], {})
    empty = store.create_table("race", [], {})
    first = store.append(table.id, 0, {"kind": "roll", "player": 0, "args": {}})
    said.clear()
    assert [s.name for s in store.table(table.id).seats] == ["Ann", "Bob", "Cy"]
    assert store.table(empty.id).seats == ()
    assert store.signature(table.id) == (1, first.id, 1) and store.signature(empty.id) == (0, 0, 0)
    assert store.signature(999) == (0, 0, -1)
    assert said == ["SELECT t.id,"] * 2 + ["SELECT t.changed,"] * 3
    said.clear()
    store.append(table.id, 1, {"kind": "roll", "player": 1, "args": {}})
    assert said == ["BEGIN IMMEDIATE", "SELECT t.status,", "INSERT INTO", "UPDATE tables"]  # and COMMIT, untraced
