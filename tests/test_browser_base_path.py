"""The companion served under a path, as behind a reverse proxy at https://club.example/muster/ (Streamlit's
`server.baseUrlPath`, set in a config.toml): a real `muster app`, two phones in a real browser. Everything Muster
adds to Streamlit's page goes under the path too: the address and QR code `muster app` prints, the seat links and
QR codes on screen (decoded by zbarimg), the style sheet the page links (`companion.page_styles`: loaded, and its
rules applied), the table surface's code its elements import (`companion.components.Frontend`; its first fetch failing on one phone, as on a dropped link, it is fetched again), and the route a table's listener waits on (`companion.heads`): with the poll at 10 minutes, a
move on Ann's phone shows on Bob's through that route alone (as tests/test_browser_moved.py, at the root).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from test_browser import Server, settle
from test_browser_moved import TRIGGER, move_reaches

from companion.components import LOST
from companion.store import DB_NAME, open_store
from companion.table_page import POLL_ENV
from companion.tables import Tables

BASE = "club/muster"  # two segments: a path is never taken for one name
STYLES = f"/{BASE}/_muster/styles.css"
MOVED = f"/{BASE}/_muster/moved"
SURFACE_JS = f"/{BASE}/_muster/js/muster_surface.js"


@pytest.fixture
def based_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """`muster app` with the base path in the user's own Streamlit config file (~/.streamlit/config.toml)."""
    home = tmp_path / "home"
    (home / ".streamlit").mkdir(parents=True)
    (home / ".streamlit" / "config.toml").write_text(f'[server]\nbaseUrlPath = "{BASE}"\n', encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv(POLL_ENV, "600")
    srv = Server(tmp_path / "data", base=BASE)
    srv.start()
    yield srv
    srv.stop()


def answers(page: Any, path: str) -> list[int]:
    """The statuses of the page's requests to `path` on its server, as they come (a list the page fills)."""
    seen: list[int] = []
    page.on("response", lambda r: seen.append(r.status) if r.url.split("?")[0].endswith(path) else None)
    return seen


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbarimg (zbar-tools) is not installed")
def test_the_companion_under_a_base_path(based_server: Server, new_phone: Callable[[], Any], tmp_path: Path) -> None:
    printed = re.search(r"Muster companion: (\S+)", based_server.log.read_text(encoding="utf-8"))
    assert printed, "muster app printed no address"
    assert printed[1].endswith(f":{based_server.port}/{BASE}/")  # and the QR code under it carries the same
    public = printed[1].rstrip("/")
    tables = Tables(open_store(based_server.data_dir / DB_NAME))
    table = tables.create("warfare", ["Ann", "Bob"], {"first_player": 0}, seed="base-path")

    ann = new_phone()
    styles = answers(ann, STYLES)
    ann.goto(f"{based_server.url}/")
    ann.get_by_role("heading", name="New table").wait_for()
    assert styles == [200]  # the lobby linked the style sheet under the path

    ann.goto(f"{based_server.url}/?table={table.code}&host={table.host_token}")
    links = ann.locator("a", has_text="open this seat")
    links.nth(1).wait_for()
    seat_urls = [f"{public}/?table={table.code}&seat={s.token}" for s in table.seats]
    assert [a.get_attribute("href") for a in links.all()] == seat_urls
    qr = ann.get_by_role("img", name="QR code of Bob's seat link")
    with urllib.request.urlopen(urljoin(ann.url, qr.get_attribute("src"))) as answer:
        (tmp_path / "bob.png").write_bytes(answer.read())
    decoded = subprocess.run(["zbarimg", "--quiet", "--raw", str(tmp_path / "bob.png")],
                             capture_output=True, text=True, check=True).stdout.strip()
    assert decoded == seat_urls[1]

    sent: list[bytes] = []  # what Bob's phone sends Streamlit over its websocket
    bob = new_phone()
    moved = answers(bob, MOVED)
    code = answers(bob, SURFACE_JS)
    fetches: list[str] = []  # Bob's phone asks for the surface's code; at its address it fails, as on a dropped link

    def fails_at_its_address(route: Any) -> None:
        fetches.append(route.request.url)
        route.continue_() if "&again=" in route.request.url else route.abort()
    bob.route(f"**{SURFACE_JS}*", fails_at_its_address)
    bob.on("websocket", lambda ws: ws.on("framesent", lambda p: sent.append(p if isinstance(p, bytes) else p.encode())))
    for phone, seat_url, who in ((ann, seat_urls[0], "Ann"), (bob, seat_urls[1], "Bob")):
        phone.goto(seat_url.replace(public, based_server.url))
        phone.get_by_text(f"You are {who}").first.wait_for()
        settle(phone)
    assert ann.evaluate("getComputedStyle(document.querySelector('.muster-sheet')).display") == "flex"  # muster.css
    move_reaches(ann, bob)
    # the surface's code under the path: its fetches at its own address failed (the preload's, the stub's), so the
    # stub fetched it once more at an address of its own, and only then (its elements, redrawn, carry a stub); Bob's
    # table drew and played all the same
    assert code == [200] and ["&again=" in url for url in fetches][-2:] == [False, True], fetches
    assert any(TRIGGER in frame for frame in sent), "Bob's phone did not learn of the move through the route"
    lost = new_phone()  # a phone whose every fetch of the code fails: the table says so in a player's words
    lost.route(f"**{SURFACE_JS}*", lambda route: route.abort())
    lost.goto(f"{based_server.url}/?table={table.code}")
    lost.get_by_text(LOST).first.wait_for()
    settle(lost)
    assert lost.get_by_text(LOST).count() == 1  # said once, where the page begins, not in each of its elements
    assert moved and set(moved) == {200}  # Bob's listener waited on the route under the path, and was answered
    tables.store.close()
