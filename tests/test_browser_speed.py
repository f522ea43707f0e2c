"""What the speed work changed, checked in a real browser for behaviour (never for time; `bench/bench_browser.py`
measures that): when one phone moves, the other phones at the table are sent the part of the page a move
changes, not the whole page again."""

from __future__ import annotations

import urllib.request
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect
from test_browser import Server, settle
from test_browser_cardgames import app  # noqa: F401  (the module's server)
from test_browser_cardgames import wait_for
from test_browser_trust import SEATS, SEED, Phone, seat_phones, tables  # noqa: F401  (tables: a fixture)

from companion import page_styles, paths
from companion.context import PAGE_TITLE
from companion.tables import Tables

HEADERS = {"Ann": "You are <strong>Ann</strong>.", "Bob": "You are <strong>Bob</strong>.",
           "spectator": "You are watching as a spectator."}  # as the page header (a surface) sends them


# Each transition begun on a box of a table part (a surface's stretch, `st-key-table-N`), by the property it eases.
FADES = """() => { window.__fades = []; document.addEventListener("transitionrun", (e) => {
  const box = e.target.closest && e.target.closest("[class*=' st-key-table-']");
  if (box) window.__fades.push(e.propertyName); }, true); }"""


def test_a_move_sends_the_other_phones_only_the_table_part(app: Server, new_phone: Callable[[], Any],
                                                           tables: Tables) -> None:
    """Ann keeps her hand, takes it back and keeps it again, then Bob does the same: each time the other phones
    are woken and redraw their table part alone; the new log head reaches them by websocket, their page header
    ("You are …", outside that part) is not sent again. A phone busy with a run of its own when woken (its
    1.5 s poll) is redrawn whole, as a fallback, so each phone must show the table part alone for at least
    one of the moves it was woken for (three at least each). No phone's table part begins Streamlit's fade of a
    box a run has yet to reach (a transition begun and cancelled at every run, in the moments a tap's redraw is on
    its way: streamlit.css)."""
    table = tables.create("imperial", SEATS, {}, seed=SEED)
    ann, bob, watcher = seat_phones(new_phone, app, table, 0)
    phones = {"Ann": ann, "Bob": bob, "spectator": watcher}
    for phone in phones.values():
        phone.page.evaluate(FADES)
    part_only: dict[str, list[bool]] = {name: [] for name in phones}
    taps = [(mover, button) for mover in ("Ann", "Bob")
            for button in ("Keep your hand", "↩ Undo my last move", "Keep your hand")]
    for mover, button in taps:
        others = {name: phone for name, phone in phones.items() if name != mover}
        for phone in phones.values():
            settle(phone.page)
        for phone in others.values():
            phone.frames.clear()
        before = tables.store.signature(table.id)[0]
        phones[mover].page.get_by_role("button", name=button, exact=True).first.click()
        wait_for(lambda: tables.store.signature(table.id)[0] > before, phones[mover].page)  # kept, or taken back
        head = tables.store.signature(table.id)[0]
        for name, phone in others.items():
            phone.page.locator(f'span.muster-head[data-head="{head}"]').wait_for(state="attached")
            received = b"".join(phone.frames)
            # the move came by websocket (the mark is in a surface's JSON, its quotes escaped)
            assert f'data-head=\\"{head}\\"'.encode() in received
            part_only[name].append(HEADERS[name].encode() not in received)
    for phone in (bob, watcher):
        phone.page.get_by_text("Bob kept their hand").first.wait_for(state="attached")
    assert all(any(seen) for seen in part_only.values()), part_only
    assert "You are Bob" in bob.text() and "You are watching as a spectator" in watcher.text()
    assert {name: phone.page.evaluate("() => window.__fades") for name, phone in phones.items()} == {
        name: [] for name in phones}


BLOCK_PADDING = "() => getComputedStyle(document.querySelector('.block-container')).paddingLeft"


def test_the_page_links_the_styles_and_the_header_is_one_element(app: Server, new_phone: Callable[[], Any],
                                                                tables: Tables) -> None:
    """The page Streamlit serves, at any address, links the companion's style sheet closing its body (its one change:
    `page_styles.LinkStyles`), and the sheet is kept a year by its version; no run sends a style element; the tab
    reads Muster's title; the table page's header (game, code, who this phone is) is one element, with no
    Markdown element above the table."""
    link = f'<link rel="stylesheet" href="/{page_styles.PATH}?v={page_styles.VERSION}">'
    for path in ("/?table=ABCDE", "/index.html"):
        with urllib.request.urlopen(f"{app.url}{path}", timeout=30) as reply:
            page = reply.read().decode()
            # once, at the body's end (the surface's code preloaded beside it, then `</body>`)
            assert page.count(link) == 1 and page.index("<body") < page.index(link) < page.index("</body>")
            assert "etag" not in reply.headers
    with urllib.request.urlopen(f"{app.url}/{page_styles.PATH}?v={page_styles.VERSION}", timeout=30) as reply:
        assert reply.read() == page_styles.CSS and reply.headers["Cache-Control"] == paths.KEEP
    table = tables.create("imperial", SEATS, {}, seed=SEED)
    ann, _, watcher = seat_phones(new_phone, app, table, 0)
    for phone, who in ((ann, "You are Ann."), (watcher, "You are watching as a spectator.")):
        page = phone.page
        assert page.title() == PAGE_TITLE
        assert page.locator("[data-testid=stMarkdown], [data-testid=stHtml]").count() == 0
        # the styles apply: the page's own margins, and the header's heading as Streamlit's Markdown draws one
        assert page.evaluate(BLOCK_PADDING) == "12.8px"
        header = page.locator(".st-key-head-0")
        assert header.locator("h3").inner_text() == f"{tables.game_name('imperial')} · {table.code}"
        assert header.locator("h3").evaluate("h => getComputedStyle(h).fontSize") == "28px"
        assert header.locator(".muster-caption").inner_text() == who
