"""PostgreSQL stopped and started again under a real phone (issue 29): the phone reads Muster's own message, not
Streamlit's error box, the page comes back by itself, and the first tap after the restart is stored (the pool
checks each connection as it hands it out). The server's log holds no traceback (`Server.stop` checks).

How soon the message shows is printed, not asserted (timing belongs to bench/ and docs/reliability.md).
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from conftest import TIMEOUT  # noqa: E402
from postgres_server import PostgresServer, PostgresUnavailable  # noqa: E402
from test_browser import Server, settle  # noqa: E402
from test_postgres_app import MOVES  # noqa: E402

from companion.store import open_store  # noqa: E402
from companion.tables import Tables  # noqa: E402

OUTAGE = "cannot be reached|cannot be used right now|cannot be opened"


@pytest.fixture
def own_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server of this test's own, as it is stopped and started (the session's is shared)."""
    try:
        server = PostgresServer().start()
    except PostgresUnavailable as err:
        pytest.fail(f"PostgreSQL could not start: {err}")
    yield server
    server.stop()


def _mover(pages: list[object]) -> object:
    """The phone offered a move (whichever seat is to act)."""
    deadline = time.time() + TIMEOUT / 1000
    while time.time() < deadline:
        for page in pages:
            if page.locator(MOVES).count():  # type: ignore[attr-defined]
                return page
        pages[0].wait_for_timeout(200)  # type: ignore[attr-defined]
    raise AssertionError("no phone is offered a move")


def _tap(page: object) -> None:
    page.locator(MOVES).first.click()  # type: ignore[attr-defined]
    yes = page.get_by_role("button", name="Yes, do it")  # type: ignore[attr-defined]
    page.wait_for_timeout(500)  # type: ignore[attr-defined]
    if yes.count():
        yes.first.click()


def test_postgres_stopped_and_restarted_under_a_phone(own_postgres: PostgresServer, tmp_path: Path,
                                                      new_phone: Callable[[], object],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    url = own_postgres.new_database()
    monkeypatch.setenv("MUSTER_DATABASE_URL", url)
    app = Server(tmp_path / "app")
    app.start()
    try:
        store = open_store(url)
        table = Tables(store).create("warfare", ["Ann", "Bob"], {})
        store.close()  # the test's own reads use a store opened after the outage: the app's is the one tested
        phones = []
        for seat in (0, 1):
            page = new_phone()
            page.goto(f"{app.url}/?table={table.code}&seat={table.seats[seat].token}", timeout=TIMEOUT)
            page.get_by_text("You are").first.wait_for(timeout=TIMEOUT)
            phones.append(page)
        phone = _mover(phones)
        settle(phone)
        own_postgres.pause()
        tapped = time.time()
        _tap(phone)
        message = phone.get_by_text(re.compile(OUTAGE)).first  # type: ignore[attr-defined]
        message.wait_for(timeout=TIMEOUT)
        print(f"[tap during the outage at {time.strftime('%H:%M:%S', time.localtime(tapped))} -> Muster's message: "
              f"{time.time() - tapped:.2f} s]")
        text = message.inner_text()
        assert "tries again by itself" in text and "kept" in text
        assert "postgresql://" not in text and str(own_postgres.port) not in text
        assert phone.get_by_text("This app has encountered an error").count() == 0  # type: ignore[attr-defined]
        phone.wait_for_timeout(3000)  # type: ignore[attr-defined]  # the outage lasts a while; the page keeps trying
        own_postgres.resume()
        for page in phones:  # each page comes back by itself, no reload
            page.get_by_text(re.compile(OUTAGE)).first.wait_for(state="detached", timeout=TIMEOUT)
        phone = _mover(phones)
        settle(phone)
        store = open_store(url)
        before = len(store.log(table.id))
        _tap(phone)  # the first tap after the restart
        deadline = time.time() + TIMEOUT / 1000
        while time.time() < deadline and len(store.log(table.id)) == before:
            time.sleep(0.2)
        assert len(store.log(table.id)) == before + 1
        store.close()
    finally:
        app.stop()
