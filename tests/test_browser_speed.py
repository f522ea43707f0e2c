"""What the speed work changed, checked in a real browser for behaviour (never for time; `bench/bench_browser.py`
measures that): when one phone moves, the other phones at the table are sent the part of the page a move
changes, not the whole page again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from test_browser import Server
from test_browser_cardgames import app  # noqa: F401  (the module's server)
from test_browser_trust import SEATS, SEED, Phone, seat_phones, tables, tap  # noqa: F401  (tables: a fixture)

from companion.tables import Tables


def test_a_move_sends_the_other_phones_only_the_table_part(app: Server, new_phone: Callable[[], Any],
                                                           tables: Tables) -> None:
    """Bob's and the spectator's phones are woken by Ann's move and redraw the table part alone: the new log
    head reaches them by websocket, their page header ("You are …", outside that part) is not sent again."""
    table = tables.create("imperial", SEATS, {}, seed=SEED)
    ann, bob, watcher = seat_phones(new_phone, app, table, 0)
    for phone in (bob, watcher):
        phone.frames.clear()
    tap(ann.page, "Keep your hand", tables, table)
    head = tables.store.signature(table.id)[0]
    for phone, header in ((bob, "You are **Bob**."), (watcher, "You are watching as a spectator.")):
        phone.page.locator(f'span.muster-head[data-head="{head}"]').wait_for(state="attached")
        phone.page.get_by_text("Ann kept their hand").first.wait_for(state="attached")
        received = b"".join(phone.frames)
        assert f'data-head=\\"{head}\\"'.encode() in received or f'data-head="{head}"'.encode() in received
        assert header.encode() not in received, f"the whole page was sent again to {header!r}"
    assert "You are Bob" in bob.text() and "You are watching as a spectator" in watcher.text()
