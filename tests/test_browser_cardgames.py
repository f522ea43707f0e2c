"""The card-game panels in a real browser (Playwright + system Chromium, 390x844), against one `muster app` process.

Two seats and a spectator per table, moves made by tapping the buttons each phone shows.
What is checked is what each phone says after the key events: the "What just happened"
strip (written per viewer by the engine), the hands with their values, and the
"Reconnecting…" card a server restart shows instead of Streamlit's developer dialog.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import TIMEOUT
from test_browser import Server, tap_move

from companion.store import DB_NAME, open_store
from companion.tables import Tables

# Warfare, seed "s0", Ann first: her hand can make Bob discard at random (Howitzers) and look at his hand (Chasseurs).
WARFARE_SEED = "s0"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("cardgames") / "data")
    srv.start()
    yield srv
    srv.stop()


def phone(new_phone: Callable[[], Any], url: str, who: str) -> Any:
    """A new phone opened on `url`, once it shows `who` it is."""
    page = new_phone()
    page.goto(url)
    page.get_by_text(who).first.wait_for()
    return page


def wait_for(check: Any, page: Any) -> None:
    """Poll the table on the server side while the page keeps working (no fixed sleeps)."""
    for _ in range(600):
        if check():
            return
        page.wait_for_timeout(100)
    raise AssertionError("the table did not reach the expected position")


def strip(page: Any, text: str) -> None:
    """Wait until this phone's "What just happened" strip holds `text`."""
    page.locator(".st-key-news", has_text=text).wait_for()


def test_browser_warfare_random_discard_and_look_reach_both_players(app: Server, new_phone: Callable[[], Any]) -> None:
    tables = Tables(open_store(app.data_dir / DB_NAME))
    table = tables.create("warfare", ["Ann", "Bob"], {"first_player": 0}, seed=WARFARE_SEED)
    base = f"{app.url}/?table={table.code}"
    ann = phone(new_phone, f"{base}&seat={table.seats[0].token}", "You are Ann")
    bob = phone(new_phone, f"{base}&seat={table.seats[1].token}", "You are Bob")
    watcher = phone(new_phone, base, "You are watching as a spectator")

    # Hands show each card's type and force, and each card links to its look-up.
    hand = ann.locator(".st-key-private")
    assert "Howitzers · Artillery Unit 3" in hand.inner_text()
    assert "card=howitzers" in (hand.get_by_role("link", name="Howitzers · Artillery Unit 3").get_attribute("href") or "")

    tap_move(ann, ann.get_by_role("button", name="Discard Howitzers (AU 3): your opponent discards a random card"))  # a move that cannot be taken back asks first
    cards = tables.entries()["warfare"].data.card_index
    wait_for(lambda: len(tables.snapshot(table).state.view(None)["discard"]) == 2, ann)
    lost_name = cards[tables.snapshot(table).state.view(None)["discard"][-1]].name
    line = f"Bob discarded {lost_name}, drawn at random"
    for page in (ann, bob, watcher):  # which card the random discard took: every phone reads it
        strip(page, line)
    assert lost_name not in bob.locator(".st-key-private").inner_text()

    tap_move(ann, ann.get_by_role("button", name="Discard Chasseurs (CU 1) to look at your opponent's hand"))  # a move that cannot be taken back asks first
    strip(bob, "Ann looked at Bob's hand")  # the defender is told
    strip(watcher, "Ann looked at Bob's hand")
    bob_hand = {cards[i].name for i in tables.snapshot(table).state.view(1)["hand"]}
    ann.locator(".st-key-private", has_text="Opponent's hand (you looked)").wait_for()
    assert all(n in ann.locator(".st-key-private").inner_text() for n in bob_hand)
    shown = {cards[i].name for i in tables.snapshot(table).state.view(None)["discard"]}
    assert all(n not in watcher.locator("body").inner_text() for n in bob_hand - shown)

    # A line stays until seen: a refresh keeps it; "Seen" clears it on that phone only.
    bob.reload()
    strip(bob, "Ann looked at Bob's hand")
    bob.locator(".st-key-news").get_by_role("button", name="Seen").click()
    bob.locator(".st-key-news").wait_for(state="detached")
    strip(watcher, "Ann looked at Bob's hand")

    # A server restart: a calm "Reconnecting…" card, never Streamlit's developer dialog; then the page comes back.
    app.stop()
    dialog = watcher.locator("section[role=dialog]")
    dialog.wait_for()
    assert dialog.evaluate("el => getComputedStyle(el, '::before').content") == \
        '"Reconnecting… The table is safe on the server; this page comes back by itself."'
    assert dialog.get_by_text("Connection error").is_hidden()
    assert dialog.get_by_text("streamlit run").count() == 0 or dialog.get_by_text("streamlit run").is_hidden()
    app.start()
    dialog.wait_for(state="detached", timeout=TIMEOUT)
    strip(watcher, "Ann looked at Bob's hand")


def test_browser_medieval_battle_and_printed_resolver(app: Server, new_phone: Callable[[], Any]) -> None:
    tables = Tables(open_store(app.data_dir / DB_NAME))
    table = tables.create("medieval", ["Ann", "Bob"], {}, seed="mb")
    base = f"{app.url}/?table={table.code}"
    ann = phone(new_phone, f"{base}&seat={table.seats[0].token}", "You are Ann")
    bob = phone(new_phone, f"{base}&seat={table.seats[1].token}", "You are Bob")
    watcher = phone(new_phone, base, "You are watching as a spectator")

    # The advice is a suggestion with its expected result, beside the other placements.
    ann.get_by_text("Suggested: Place Pikeman left, Archer centre, Knight right").wait_for()
    assert ann.locator(".st-key-moves .stButton button, .st-key-moves [data-baseweb=select]").count() >= 1
    tap_move(ann, ann.get_by_role("button", name="Place as suggested"))  # a move that cannot be taken back asks first
    strip(bob, "Ann placed their reenforcements face down")  # what, only Ann's phone knows
    strip(ann, "Ann placed Pikeman left, Archer centre, Knight right (face down)")
    assert "Archer centre" not in bob.locator("body").inner_text()
    tap_move(bob, bob.get_by_role("button", name="Place as suggested"))  # a move that cannot be taken back asks first
    for page in (ann, bob, watcher):  # the reveal and the battle, on every phone
        strip(page, "Reenforcements revealed: Ann placed Pikeman left, Archer centre, Knight right; "
                    "Bob placed Pikeman left, Pikeman centre, Mercenary right")
        strip(page, "Battle 1: left to Bob (10–12), centre to Bob (4–8), right to Ann (7–4)")

    # The printed-card resolver: a re-tapped column stays chosen, and the card lands where it shows.
    ann.get_by_text("Battle resolver (printed cards)").click()
    ann.get_by_text("Tap a card to add it").wait_for()
    right = ann.get_by_role("radio", name="right", exact=True)
    right.click()
    ann.locator("[role=radio][aria-checked=true]", has_text="right").wait_for()
    right.click()  # Streamlit would clear it; the resolver keeps it
    ann.locator("[role=radio][aria-checked=true]", has_text="right").wait_for(timeout=10_000)
    assert right.bounding_box()["height"] >= 44  # a tap target a thumb can hit
    ann.locator("button[data-variant=pills]", has_text="Knight · Fighter 7").click()
    ann.get_by_text("Right: Knight 7 vs — — — reenforcements still to lay").wait_for()
