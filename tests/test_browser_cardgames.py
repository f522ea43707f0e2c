"""The card-game panels in a real browser (Playwright + system Chromium, 390x844), against one `muster app` process.

Two seats and a spectator per table, moves made by tapping the buttons each phone shows.
What is checked is what each phone says after the key events: the "What just happened"
strip (written per viewer by the engine), the hands with their values, and the
"Reconnecting…" card a server restart shows instead of Streamlit's developer dialog.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from conftest import TIMEOUT, sharing
from test_browser import Server, lay_placement, settle, tap_move

from companion.store import DB_NAME, open_store
from companion.tables import Tables

# Warfare, seed "s0", Ann first: her hand can make Bob discard at random (Howitzers) and look at his hand (Chasseurs).
WARFARE_SEED = "s0"


@pytest.fixture(scope="module")
def app(one_server: Server) -> Iterator[Server]:
    """The session's shared server (conftest's `sharing`), for this module's tests and those that import this
    fixture: each opens tables of its own."""
    with sharing(one_server) as srv:
        yield srv


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


def warfare_table(app: Server, new_phone: Callable[[], Any]) -> tuple[Tables, Any, tuple[Any, Any, Any]]:
    """A new warfare table (seed WARFARE_SEED, Ann first) open on Ann's, Bob's and a spectator's phone."""
    tables = Tables(open_store(app.data_dir / DB_NAME))
    table = tables.create("warfare", ["Ann", "Bob"], {"first_player": 0}, seed=WARFARE_SEED)
    base = f"{app.url}/?table={table.code}"
    return tables, table, (phone(new_phone, f"{base}&seat={table.seats[0].token}", "You are Ann"),
                           phone(new_phone, f"{base}&seat={table.seats[1].token}", "You are Bob"),
                           phone(new_phone, base, "You are watching as a spectator"))


def strip(page: Any, text: str) -> None:
    """Wait until this phone's "What just happened" strip holds `text`."""
    page.locator(".st-key-news", has_text=text).wait_for()


def test_browser_warfare_random_discard_and_look_reach_both_players(app: Server, new_phone: Callable[[], Any]) -> None:
    tables, table, (ann, bob, watcher) = warfare_table(app, new_phone)

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

    # The advice is a highlight (★): beside each card of the hand and on the chosen card's column; the placement
    # is laid card by card, tapping the card, then its column, and only the tap that settles it is the move.
    ann.get_by_text("Suggested: Place Pikeman left, Archer centre, Knight right").first.wait_for()
    hand = ann.locator(".st-key-medieval-hand")
    assert "Pikeman · ★ left" in hand.inner_text() and ann.get_by_text("as suggested").count() == 0
    assert ann.locator(".st-key-move-list").count() == 0  # nothing is played by one tap
    hand.get_by_role("button", name="Pikeman · ★ left").click()
    settle(ann)
    ann.locator(".st-key-medieval-field").get_by_role("button", name="★ Left", exact=True).wait_for()
    for page, who in ((ann, "player"), (bob, "opponent"), (watcher, "spectator")):
        shot(page, who, ".st-key-moves" if page is not watcher else None, prefix="companion-medieval-placing-",
             block="end")
    lay_placement(ann, [("Pikeman", "left"), ("Archer", "centre")])
    strip(bob, "Ann placed their reenforcements face down")  # what, only Ann's phone knows
    strip(ann, "Ann placed Pikeman left, Archer centre, Knight right (face down)")
    assert "Archer centre" not in bob.locator("body").inner_text()
    lay_placement(bob, [("Pikeman", "left"), ("Pikeman", "centre")])
    for page in (ann, bob, watcher):  # the reveal and the battle, on every phone
        strip(page, "Reenforcements revealed: Ann placed Pikeman left, Archer centre, Knight right; "
                    "Bob placed Pikeman left, Pikeman centre, Mercenary right")
        strip(page, "Battle 1: left to Bob (10–12), centre to Bob (4–8), right to Ann (7–4)")
        # The battle stays on screen, every card named, until this phone moves on; battle 2 waits.
        result = page.locator(".st-key-battle-result")
        result.get_by_text("Battle 1: the result").wait_for()
        assert "Taken by" in result.inner_text() and "Mercenary" in result.inner_text()
        assert page.get_by_text("Battle 2:").count() == 0
    for page, who in ((ann, "player"), (bob, "opponent"), (watcher, "spectator")):
        page.wait_for_function("() => document.querySelectorAll('.st-key-seat-tools').length <= 1")  # redrawn
        shot(page, who, ".st-key-battle-result", prefix="companion-medieval-result-")
    onward = ann.get_by_role("button", name="On to battle 2", exact=True)
    onward.click()
    ann.get_by_text("Battle 2:").first.wait_for()
    ann.locator(".st-key-moves").get_by_role("button").first.wait_for()
    assert bob.get_by_text("Battle 2:").count() == 0, "each phone moves on by itself"

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


SHOTS = os.environ.get("MUSTER_SHOTS")  # a folder: the warfare test saves its screens there (docs/img)


def shot(page: Any, name: str, top: str | None = None, prefix: str = "companion-warfare-", block: str = "start") -> None:
    """Save the phone's screen, scrolled so that the element `top` starts at the top (or, `block` "end", ends at the
    bottom), when MUSTER_SHOTS is set."""
    if SHOTS:
        settle(page)
        if top:
            page.locator(top).first.evaluate(f"el => el.scrollIntoView({{block: '{block}'}})")
        page.screenshot(path=str(Path(SHOTS) / f"{prefix}{name}.png"))


class Taps:
    """Every tap a player makes in the warfare test, counted per phone (the taps table in docs/)."""

    def __init__(self) -> None:
        self.count: dict[str, int] = {}

    def tap(self, who: str, page: Any, name: str, asks: bool = False, where: str = ".st-key-moves") -> None:
        """Tap the button `name` (exactly); a move that cannot be taken back asks first, and "Yes" is a tap too."""
        button = page.locator(where).get_by_role("button", name=name, exact=True)
        button.click()
        self.count[who] = self.count.get(who, 0) + 1
        if asks:
            page.get_by_role("button", name="Yes, do it").click()
            self.count[who] += 1
        settle(page)


def buttons(page: Any, where: str) -> list[tuple[str, bool]]:
    """The buttons in one part of a phone, as (text, enabled), once they stand: no button settling (one drawn or
    moved a moment ago is aria-disabled for 300 ms: the tap guard) and the same list read twice, 300 ms apart (a
    loaded run once read the support step while its list was still being drawn)."""
    read = ("(where) => document.querySelector(where + ' .mp-btn[data-settling]') ? null : "
            "[...document.querySelectorAll(where + ' button')].map((b) => "
            "[b.innerText.trim(), !b.disabled && b.getAttribute('aria-disabled') !== 'true'])")
    last = None
    for _ in range(200):
        now = page.evaluate(read, where)
        if now is not None and now == last:
            return [(text, enabled) for text, enabled in now]
        last = now
        page.wait_for_timeout(300)
    raise AssertionError(f"the buttons in {where} never stood still: {last}")


YIELD = "Take the attack: no more replies to it"
REPLY_HINT = "“Take the attack” answers the whole attack in one tap: no Blunder, no more counters, no Morale."


def test_browser_warfare_attack_builder_and_the_defenders_one_tap(app: Server, new_phone: Callable[[], Any]) -> None:
    tables, table, (ann, bob, watcher) = warfare_table(app, new_phone)
    taps = Taps()

    def moves(page: Any, first: str) -> list[str]:
        """The move buttons once the list starting with `first` is drawn (the "Other move" form left out)."""
        page.locator(".st-key-moves").get_by_role("button", name=first, exact=True).wait_for()
        return [text for text, _ in buttons(page, ".st-key-moves") if text != "Try this move"]

    # An attack with one counter. Ann declares; Bob holds no Blunder, but counters are open to him.
    taps.tap("Ann", ann, "Attack")
    bob.get_by_text(REPLY_HINT).wait_for()
    assert moves(bob, YIELD) == ["No Enemy Blunder: let the attack go ahead", YIELD]
    taps.tap("Bob", bob, "No Enemy Blunder: let the attack go ahead")

    # The attack builder: Ann's hand as cards; the engine disables what cannot join, and says why in a few words.
    builder = ".st-key-builder"
    ann.locator(builder).wait_for()
    assert ann.locator(builder).get_by_text("Attack builder: your units").is_visible()
    first = buttons(ann, builder)
    assert ("Howitzers · Artillery Unit 3", True) in first and ("Old Guard · Infantry Unit 3", True) in first
    assert ("Square Formation · Infantry Tactic 3 — not a Unit", False) in first
    taps.tap("Ann", ann, "Old Guard · Infantry Unit 3", where=builder)
    ann.locator(builder).get_by_role("button", name="✓ Old Guard · Infantry Unit 3", exact=True).wait_for()
    taps.tap("Ann", ann, "Sappers · Infantry Unit 1", where=builder)
    ann.locator(builder).get_by_role("button", name="✓ Sappers · Infantry Unit 1", exact=True).wait_for()
    after = buttons(ann, builder)
    assert ("Howitzers · Artillery Unit 3 — one unit type per attack", False) in after
    assert ("Chasseurs · Cavalry Unit 1 — one unit type per attack", False) in after
    ann.get_by_text("Would inflict: forces 4 (2 card(s), no bonus) = 4 → 4 casualties").wait_for()
    shot(ann, "attack-builder", builder)
    taps.tap("Ann", ann, "Attack with Old Guard (IU 3), Sappers (IU 1)")

    # Bob counters one unit, then takes the rest of the attack in one tap (no more counters, no Morale).
    assert moves(bob, YIELD) == ["Discard 12-Pounders (AU 3) to remove Old Guard (IU 3)",
                          "Discard 12-Pounders (AU 3) to remove Sappers (IU 1)", "No more counters", YIELD]
    taps.tap("Bob", bob, "Discard 12-Pounders (AU 3) to remove Old Guard (IU 3)")
    for page in (ann, bob, watcher):
        strip(page, "Bob discarded 12-Pounders to remove Old Guard")
    taps.tap("Bob", bob, YIELD)
    for page in (ann, bob, watcher):
        strip(page, "Bob took the attack: no more counters, no Morale")

    ann.locator(builder).get_by_text("Attack builder: support").wait_for()
    support = buttons(ann, builder)
    assert ("Square Formation · Infantry Tactic 3", True) in support
    assert ("Sabers & Pistols · Cavalry Tactic 1 — cannot back Infantry Units", False) in support
    taps.tap("Ann", ann, "Square Formation · Infantry Tactic 3", where=builder)
    ann.locator(builder).get_by_role("button", name="✓ Square Formation · Infantry Tactic 3", exact=True).wait_for()
    taps.tap("Ann", ann, "Back the attack with Square Formation (IT 3)", asks=True)  # the next turn draws: asked first
    for page in (ann, bob, watcher):
        strip(page, "Bob lost 4 troop points; troops now Ann 100, Bob 96")
    # Counted for docs/companion-cardgames.md: 10 taps (Ann 7 with "Yes", Bob 3), four hand-offs.
    assert taps.count == {"Ann": 7, "Bob": 3}

    # Bob attacks; Ann's offer is the same as Bob's was, though her hand differs. She takes it in one tap.
    taps.tap("Bob", bob, "Attack")
    ann.get_by_text(REPLY_HINT).wait_for()
    assert moves(ann, YIELD) == ["No Enemy Blunder: let the attack go ahead", YIELD]
    shot(ann, "defender", ".st-key-private")
    before = taps.count["Ann"]
    taps.tap("Ann", ann, YIELD)
    for page in (ann, bob, watcher):
        strip(page, "Ann took the attack: no Enemy Blunder, no counters, no Morale")
    bob.locator(builder).get_by_text("Attack builder: your units").wait_for()
    taps.tap("Bob", bob, "Young Guard · Infantry Unit 2", where=builder)
    bob.locator(builder).get_by_role("button", name="✓ Young Guard · Infantry Unit 2", exact=True).wait_for()
    taps.tap("Bob", bob, "Attack with Young Guard (IU 2)")
    bob.locator(builder).get_by_text("Attack builder: support").wait_for()
    taps.tap("Bob", bob, "No support: attack with the units alone", asks=True)
    for page in (ann, bob, watcher):
        strip(page, "Ann lost 2 troop points; troops now Ann 98, Bob 96")
    assert taps.count["Ann"] - before == 1  # the defender's whole part of the attack
    expect(ann.locator(".st-key-moves")).to_have_count(1)  # her own turn now: Deploy

    # Tapping a card in hand opens its look-up, which says what it does in each phase.
    link = ann.locator(".st-key-private").get_by_role("link", name="Howitzers · Artillery Unit 3")
    lookup = new_phone()
    lookup.goto(link.get_attribute("href"))
    lookup.get_by_text("Discard to knock out one attacking Infantry unit.").wait_for()
    body = lookup.locator("body").inner_text()
    assert "Deploy: Discard: your opponent discards one card at random." in body
    assert "Attack: With Artillery units only." in body
    if SHOTS:
        lookup.locator("img[alt=howitzers]").wait_for()  # the printed face, drawn as an inline picture
    shot(lookup, "lookup")
