"""Another phone learns of a move through the server's own route and its listener element alone (issue 34), in a
real browser against one `muster app` whose table pages poll only every 10 minutes (`table_page.POLL_ENV`): a
move made on Ann's phone shows on Bob's at once, which nothing but the push can do (the route `companion.heads`,
the listener, listen.js in `companion.components.surface`); without the route it would wait out the poll. Bob's listener asks
Streamlit for the table part's rerun through its trigger; Ann's phone, which drew its own move, never does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser import Server, player_taps, settle

from companion.store import DB_NAME, open_store
from companion.table_page import POLL_ENV
from companion.tables import Tables

SEED = "moved"
TRIGGER = b'"event":"moved"'  # what a listener's trigger sends to Streamlit (the table part's rerun)


@pytest.fixture
def quiet_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    monkeypatch.setenv(POLL_ENV, "600")
    srv = Server(tmp_path / "data")
    srv.start()
    yield srv
    srv.stop()


def head(page: Any) -> int:
    """The log head the page shows (its `span.muster-head`), -1 before it drew the table."""
    marks = page.locator("span.muster-head")
    return int(marks.last.get_attribute("data-head") or -1) if marks.count() else -1


def move_reaches(ann: Any, bob: Any) -> None:
    """Ann, whose page shows the head Bob's shows, takes a move; Bob's page draws it (waited for: nothing is timed)."""
    before = head(ann)
    assert before >= 0 and head(bob) == before
    player_taps(ann)
    after = head(ann)
    assert after > before
    bob.wait_for_function(f"() => [...document.querySelectorAll('span.muster-head')].some(m => +m.dataset.head >= {after})")
    assert head(bob) == after


def test_another_phone_sees_a_move_by_the_push_alone(quiet_server: Server, new_phone: Callable[[], Any]) -> None:
    tables = Tables(open_store(quiet_server.data_dir / DB_NAME))
    table = tables.create("warfare", ["Ann", "Bob"], {"first_player": 0}, seed=SEED)
    base = f"{quiet_server.url}/?table={table.code}"
    sent: dict[str, list[bytes]] = {"Ann": [], "Bob": []}  # what each phone sent Streamlit over its websocket
    phones = []
    for seat, who in zip(table.seats, sent):
        page = new_phone()
        page.on("websocket", lambda ws, who=who: ws.on(
            "framesent", lambda p, who=who: sent[who].append(p if isinstance(p, bytes) else p.encode())))
        page.goto(f"{base}&seat={seat.token}")
        page.get_by_text(f"You are {who}").first.wait_for()
        phones.append(page)
    ann, bob = phones
    settle(ann)
    settle(bob)
    move_reaches(ann, bob)
    assert any(TRIGGER in frame for frame in sent["Bob"])
    settle(ann)
    assert not any(TRIGGER in frame for frame in sent["Ann"]), "Ann's phone was asked to redraw her own move"
    tables.store.close()
