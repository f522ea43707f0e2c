"""Two real `muster app` servers on one PostgreSQL, with phones (browser contexts) on both.

A move tapped on server A appears on server B's phones without a reload (the lag is printed,
not asserted: timing belongs to bench/bench_postgres.py). Then server A is killed with
SIGKILL: B's phones keep playing, and A's phone, reopened on B, finds the whole table.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

sys.path.insert(0, str(Path(__file__).parent))

from conftest import TIMEOUT  # noqa: E402
from test_browser import Server, settle, tap_move, wait_moves  # noqa: E402

from companion.store import Store, open_store  # noqa: E402
from companion.tables import Tables  # noqa: E402

MOVES = ".st-key-moves .sf-block:not(.st-key-builder) .mp-btn:not([disabled])"  # a move (a builder's card is none)
UNITS = ".st-key-builder button:enabled"  # warfare's attack builder: units chosen (no move) before its move's button


def tap_a_move(pages: list[object], store: Store, table_id: int, played: int) -> tuple[object, float]:
    """Whichever seat is offered a move taps the first one, confirming it if the page asks (again if a
    redraw swallowed the tap, as a player would; a stale tap is refused by the page); a seat choosing its
    attacking units first chooses one more until the attack's button shows (the deal decides when that step
    comes); that page, and when the move was committed."""
    deadline = time.monotonic() + 120  # monotonic: a step of the wall clock (a VM's clock sync) is no timeout
    while time.monotonic() < deadline:
        for page in pages:
            settle(page)
            yes = page.get_by_role("button", name="Yes, do it")  # type: ignore[attr-defined]
            if yes.count():  # a confirmation still open from a tap a redraw interrupted: answer it
                yes.first.click()
            elif page.locator(MOVES).count():  # type: ignore[attr-defined]
                try:
                    tap_move(page, page.locator(MOVES).first)  # type: ignore[attr-defined]
                except PlaywrightTimeout:  # the page was redrawing under the tap: look again, as a player would
                    continue
                for _ in range(75):
                    log = store.log(table_id)
                    if len(log) > played:
                        return page, log[played].at
                    time.sleep(0.2)
            else:
                unit = page.locator(UNITS).filter(has_not_text="✓")  # type: ignore[attr-defined]
                if unit.count():
                    unit.first.click()
        pages[0].wait_for_timeout(200)  # type: ignore[attr-defined]
    raise AssertionError("no seat's tap became a move")


def test_postgres_two_app_servers_phones_follow_and_survive_kill_9(
        postgres_url: str, tmp_path: Path, new_phone: Callable[[], object], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MUSTER_DATABASE_URL", postgres_url)
    a, b = Server(tmp_path / "a"), Server(tmp_path / "b")
    a.start()
    b.start()
    try:
        store = open_store(postgres_url)
        table = Tables(store).create("warfare", ["Ann", "Bob"], {})

        def phone(server: Server, seat: int | None) -> object:
            page = new_phone()
            query = f"table={table.code}" + (f"&seat={table.seats[seat].token}" if seat is not None else "")
            page.goto(f"{server.url}/?{query}", timeout=TIMEOUT)
            page.get_by_text("You are" if seat is not None else "watching as a spectator").first.wait_for(timeout=TIMEOUT)
            return page

        ann, bob, watcher = phone(a, 0), phone(b, 1), phone(b, None)
        lags = []
        entries = moves = 0  # the store's log counts every entry; "Moves so far" counts moves only
        for _ in range(3):
            _, committed = tap_a_move([ann, bob], store, table.id, entries)
            entries += 1
            moves += 1
            wait_moves(watcher, moves, within=30)  # B's spectator follows without a reload
            lags.append(time.time() - committed)
            for page in (ann, bob):
                wait_moves(page, moves, within=30)
        with capsys.disabled():
            print(f"\n[move committed -> shown on server B's spectator: {', '.join(f'{x:.2f} s' for x in lags)}]")

        a.proc.kill()  # type: ignore[union-attr]  # SIGKILL: no goodbye to anyone
        a.proc.wait()  # type: ignore[union-attr]
        a.proc = None
        ann.goto(f"{b.url}/?table={table.code}&seat={table.seats[0].token}", timeout=TIMEOUT)  # Ann's phone, now on server B
        ann.get_by_text("You are").first.wait_for(timeout=TIMEOUT)
        # Server B's origin is a new browser to the seat: it takes the seat over, and the log gets
        # that notice as an entry of its own. It is not a move: the page shows it, the count stays.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(store.log(table.id)) == entries:
            time.sleep(0.2)
        assert [e.action["kind"] for e in store.log(table.id)[entries:]] == ["notice"]
        entries += 1
        bob.get_by_text("Ann's seat was opened on another phone, which now plays it.").first.wait_for(timeout=30_000)
        wait_moves(ann, moves, within=30)
        for _ in range(2):
            tap_a_move([ann, bob], store, table.id, entries)
            entries += 1
            moves += 1
            for page in (ann, bob, watcher):
                wait_moves(page, moves, within=30)
        assert [e.seq for e in store.log(table.id)] == list(range(1, entries + 1))
    finally:
        a.stop()
        b.stop()
