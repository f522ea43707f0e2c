"""An Imperial battle in a real browser (Playwright + system Chromium, 390x844), against one `muster app`.

Two seats and a spectator, every move a tap on the phone that makes it. The deal is seeded
("imp4", Imperial Power 4 each, no Gold, Reinforcement markers 1): Ann holds 2 Pikemen,
1 Musketeers, 1 Cavalry; Bob 1 Pikemen, 1 Musketeers, 2 Cavalry. Round 1 is Pikemen
against Cavalry (the reveal), round 2 Musketeers against Musketeers (the tie). What each phone
shows after both is checked with exact texts, and the taps of a round are counted (ruling R20:
nobody is asked about reinforcements, so a round is one card per side, plus the "Yes" that the
second card asks for because it turns both over). In round 3 Bob calls for reinforcements while
Ann's card is face down: two taps for him, and her card comes back to her hand, named on her
phone only.

The same table shows a refusal beside its button: Bob taps his card, and while his phone asks
"Yes, do it" Ann takes hers back; Bob's question no longer fits the table, so it is withdrawn, and
the message says so right under the button he tapped, on screen, not at the top of the page.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_browser import settle
from test_browser_cardgames import SHOTS, app, phone, strip, wait_for  # noqa: F401  (the module's server, shared)

from companion.components.movepad import WITHDRAWN
from companion.store import DB_NAME, open_store
from companion.tables import Tables, TableInfo

OPTIONS = {"imperial_power": [4, 4], "gold": [0, 0], "reinforcements": [1, 1]}
SEED = "imp4"
ROUND_TWO_STATUS = ("Waiting for Ann to choose a card to play face down; "
                    "Bob to choose a card to play face down, or call for reinforcements first.")


class Taps:
    """Every tap a test makes on a phone goes through here, so the taps of a round are counted, not guessed."""

    def __init__(self) -> None:
        self.count = 0

    def move(self, page: Any, name: str) -> None:
        """Tap the move button `name`, and "Yes, do it" when the move asks first; wait until the table has it.

        A tap that lands while the page is redrawing can find its button gone (the key carries the
        position): nothing happens, and a player taps again. That second tap is not one the game
        asked for, so it is not counted (the round's count stays exact) but reported as a warning."""
        settle(page)
        head = _head(page)
        button = page.locator(".st-key-moves").get_by_role("button", name=name, exact=True)
        self.tap(button)
        yes = page.get_by_role("button", name="Yes, do it")
        for attempt in range(300):
            if _head(page) != head:
                break
            if yes.count():
                self.tap(yes)
                yes.wait_for(state="detached")
            elif attempt == 150 and button.count():  # 15 s and nothing happened: the tap was swallowed
                warnings.warn(f"tapping {name!r} changed nothing for 15 s; tapped it again", stacklevel=2)
                button.click()
            page.wait_for_timeout(100)
        else:
            raise AssertionError(f"tapping {name!r} changed nothing on the table")
        settle(page)

    def tap(self, target: Any) -> None:
        target.click()
        self.count += 1


def _head(page: Any) -> str | None:
    """The log head this page was drawn at (`table_page._watch` marks it)."""
    mark = page.locator("span.muster-head")
    return mark.first.get_attribute("data-head") if mark.count() else None


def last_round(page: Any, text: str) -> None:
    page.get_by_text(text, exact=True).first.wait_for()


@pytest.fixture(scope="module")
def tables(app: Any) -> Tables:
    return Tables(open_store(app.data_dir / DB_NAME))


def seated(tables: Tables, app: Any, new_phone: Callable[[], Any], options: dict[str, Any] = OPTIONS,
           seed: str = SEED) -> tuple[TableInfo, Any, Any]:
    """A new seeded battle, and Ann's and Bob's phones on it."""
    table = tables.create("imperial", ["Ann", "Bob"], options, seed=seed)
    base = f"{app.url}/?table={table.code}"
    return (table, phone(new_phone, f"{base}&seat={table.seats[0].token}", "You are Ann"),
            phone(new_phone, f"{base}&seat={table.seats[1].token}", "You are Bob"))


def keep_hands(taps: Taps, tables: Tables, table: TableInfo, ann: Any, bob: Any) -> None:
    """Both sides keep the hand they drew (the exchange step, in initiative order: Ann, then Bob)."""
    taps.move(ann, "Keep your hand")
    wait_for(lambda: len(tables.snapshot(table).match.log) == 1, bob)
    taps.move(bob, "Keep your hand")


def test_browser_imperial_round_reveal_and_tie_on_three_phones(app: Any, new_phone: Callable[[], Any],
                                                                tables: Tables) -> None:
    table, ann, bob = seated(tables, app, new_phone)
    watcher = phone(new_phone, f"{app.url}/?table={table.code}", "You are watching as a spectator")
    taps = Taps()
    ann.locator(".st-key-private", has_text="2 Pikemen, 1 Musketeers, 1 Cavalry").wait_for()
    bob.locator(".st-key-private", has_text="1 Pikemen, 1 Musketeers, 2 Cavalry").wait_for()
    keep_hands(taps, tables, table, ann, bob)

    # Round 1: the first card can be taken back (no question); the second turns both over (asks first).
    taps.count = 0
    taps.move(ann, "Play Pikemen")
    strip(bob, "Ann chose a card")
    strip(ann, "Ann chose Pikemen (face down)")
    assert "Pikemen (face down)" not in watcher.locator("body").inner_text()
    taps.move(bob, "Play Cavalry")
    assert taps.count == 3  # a card per side, and Bob's "Yes, do it": no reinforcement step
    reveal = "Battle round 1: cards revealed, Ann played Pikemen and Bob played Cavalry; Pikemen beat Cavalry"
    for page in (ann, bob, watcher):
        strip(page, reveal)
        last_round(page, "Round 1: Ann Pikemen vs Bob Cavalry")
        last_round(page, "Bob lost Cavalry")
        last_round(page, "Ann's Pikemen returns to hand")
        last_round(page, "Bob may not play Cavalry next round")
    ann.locator(".st-key-private", has_text="2 Pikemen, 1 Musketeers, 1 Cavalry").wait_for()
    bob.locator(".st-key-private", has_text="1 Pikemen, 1 Musketeers, 1 Cavalry").wait_for()
    for page in (ann, watcher):  # Bob's hand is his own
        assert "1 Pikemen, 1 Musketeers, 1 Cavalry" not in page.locator("body").inner_text()

    # Round 2: Bob has lost a card, so he may call for reinforcements: offered folded beside his cards,
    # never asked. Ann has lost nothing: no offer. Every phone may read who could call (open information).
    watcher.get_by_text(ROUND_TWO_STATUS, exact=True).wait_for()
    ann.get_by_text("Your move: choose a card to play face down.", exact=True).wait_for()
    bob.get_by_text("Your move: choose a card to play face down, or call for reinforcements first.", exact=True).wait_for()
    bob.get_by_text("Call for reinforcements first (once per battle)").wait_for()
    assert ann.get_by_text("Call for reinforcements first").count() == 0
    assert bob.locator(".st-key-moves").get_by_role("button", name="Play Cavalry").count() == 0  # banned (R10)
    if SHOTS:  # docs/img, when asked for (MUSTER_SHOTS)
        settle(bob)
        bob.get_by_role("button", name="Play Cavalry").wait_for(state="detached")  # no faded leftover of a redraw
        bob.screenshot(path=str(Path(SHOTS) / "companion-imperial-round.png"))
    taps.count = 0
    taps.move(bob, "Play Musketeers")
    strip(ann, "Bob chose a card")
    taps.move(ann, "Play Musketeers")
    assert taps.count == 3
    tie = "Battle round 2: cards revealed, Ann played Musketeers and Bob played Musketeers; a tie: both cards are lost"
    for page in (ann, bob, watcher):
        strip(page, tie)
        last_round(page, "Round 2: Ann Musketeers vs Bob Musketeers")
        last_round(page, "Ann lost Musketeers")
        last_round(page, "Bob lost Musketeers")
    ann.locator(".st-key-private", has_text="2 Pikemen, 1 Cavalry").wait_for()
    bob.locator(".st-key-private", has_text="1 Pikemen, 1 Cavalry").wait_for()
    watcher.get_by_text("Waiting for Ann and Bob to choose a card to play face down, or call for reinforcements "
                        "first.", exact=True).wait_for()  # both have lost a card now
    assert watcher.locator(".st-key-moves").count() == 0 and watcher.locator(".st-key-private").count() == 0

    # Round 3: Ann's card is down when Bob calls for reinforcements; she takes it back to choose again (R20).
    taps.move(ann, "Play Pikemen")
    strip(bob, "Ann chose a card")
    taps.count = 0
    taps.tap(bob.get_by_text("Call for reinforcements first (once per battle)"))
    taps.move(bob, "Call back Cavalry")
    assert taps.count == 2
    for page in (ann, bob, watcher):
        strip(page, "Bob called back Cavalry from their discard pile")
    strip(ann, "Ann takes their Pikemen back to choose again, knowing the reinforcements")
    for page in (bob, watcher):  # which card Ann had put down stays hers
        strip(page, "Ann takes their face-down card back to choose again, knowing the reinforcements")
        assert "Ann takes their Pikemen back" not in page.locator("body").inner_text()
    ann.locator(".st-key-private", has_text="2 Pikemen, 1 Cavalry").wait_for()
    bob.locator(".st-key-private", has_text="1 Pikemen, 2 Cavalry").wait_for()
    ann.locator(".st-key-moves").get_by_role("button", name="Play Pikemen", exact=True).wait_for()


def test_browser_imperial_refusal_shows_beside_the_tapped_button(app: Any, new_phone: Callable[[], Any],
                                                                  tables: Tables) -> None:
    table, ann, bob = seated(tables, app, new_phone)
    taps = Taps()
    keep_hands(taps, tables, table, ann, bob)
    taps.move(ann, "Play Pikemen")
    strip(bob, "Ann chose a card")

    # Bob scrolls down to his cards and taps one; his phone asks first (it would turn both cards over).
    button = bob.locator(".st-key-moves").get_by_role("button", name="Play Pikemen", exact=True)
    button.scroll_into_view_if_needed()
    top = bob.get_by_text(f"Imperial Battles · {table.code}")
    assert top.bounding_box()["y"] < 0  # the moves are below the fold: scrolled down, the page's top is off screen
    taps.tap(button)
    bob.get_by_role("button", name="Yes, do it").wait_for()
    # Meanwhile Ann takes her card back: Bob's question no longer fits the table, and it is withdrawn.
    taps.tap(ann.get_by_role("button", name="↩ Undo my last move"))
    refusal = bob.locator("[class*='refusal-']", has_text=WITHDRAWN)
    refusal.wait_for()
    bob.get_by_role("button", name="Yes, do it").wait_for(state="detached")
    button = bob.locator(".st-key-moves").get_by_role("button", name="Play Pikemen", exact=True)
    for _ in range(100):  # until the redraw (and the scroll to the message) has finished
        settle(bob)
        box, near = refusal.bounding_box(), button.bounding_box()
        if box and near and 0 <= box["y"] - (near["y"] + near["height"]) <= 60 and box["y"] + box["height"] <= 844:
            break
    assert box is not None and near is not None
    assert 0 <= box["y"] and box["y"] + box["height"] <= 844, box  # on screen, where Bob is looking
    assert 0 <= box["y"] - (near["y"] + near["height"]) <= 60, (box, near)  # right under the button he tapped
    if SHOTS:
        bob.screenshot(path=str(Path(SHOTS) / "companion-refusal-beside-button.png"))
    assert bob.locator("[class*='refusal-']").count() == 1  # and nowhere else (not at the top)
    assert "refusal-move-play-" in (refusal.get_attribute("class") or "")  # the box of that very move
    assert top.bounding_box()["y"] < 0  # the page did not jump to its top to show it
    assert [side["has_chosen"] for side in tables.snapshot(table).state.view(None)["sides"]] == [False, False]


SMALL = {"imperial_power": [2, 2], "gold": [0, 0], "reinforcements": [0, 0]}
SMALL_SEED = "leak2"  # Ann draws Pikemen and Musketeers, Bob Musketeers and Cavalry: one round can end the battle


def questions(page: Any) -> list[tuple[str, bool, str]]:
    """Each card button on a phone: its name, whether it can be tapped, and the question it asks first (read
    from the panel a tap opens, then cancelled: nothing is sent)."""
    settle(page)
    moves = page.locator(".st-key-moves")
    out = []
    for name in [b.inner_text().strip() for b in moves.get_by_role("button").all()]:
        if not name.startswith("Play "):
            continue
        # the pad's buttons stand where they are (a question's panel, cancelled, moved them: each waits its
        # 300 ms, aria-disabled, before it takes a tap), so "enabled" reads the move's state, not the moment's
        page.wait_for_function("() => !document.querySelector('.st-key-moves .mp-btn[data-settling]')")
        button = moves.get_by_role("button", name=name, exact=True)
        enabled, asked = button.is_enabled(), ""
        if enabled:
            button.click()
            panel = page.locator(".mp-ask")
            panel.wait_for()
            asked = panel.locator("p").nth(1).inner_text()
            if SHOTS and name == "Play Cavalry":  # docs/img, when asked for (MUSTER_SHOTS)
                page.screenshot(path=str(Path(SHOTS) / "companion-imperial-question.png"))
            panel.get_by_role("button", name="Cancel").click()
            panel.wait_for(state="detached")
        out.append((name, enabled, asked))
    return out


def test_browser_imperial_bobs_questions_are_the_same_whatever_ann_chose(app: Any, new_phone: Callable[[], Any],
                                                                         tables: Tables) -> None:
    """Issue 28: Bob's "Play Cavalry" asked "This move ends the game" exactly when Ann's face-down card was
    Musketeers, and Cancel sends nothing, so Bob could probe her card. Now two tables that differ only in
    Ann's face-down card show Bob the same buttons, states and questions, worked out on what he knows."""
    read = []
    for card in ("Pikemen", "Musketeers"):
        table, ann, bob = seated(tables, app, new_phone, SMALL, SMALL_SEED)
        keep_hands(Taps(), tables, table, ann, bob)
        Taps().move(ann, f"Play {card}")
        strip(bob, "Ann chose a card")
        read.append(questions(bob))
        assert len(tables.snapshot(table).match.log) == 3  # Bob's taps sent nothing
    asked = "This move cannot be taken back: it reveals both face-down cards, and it may end the game."
    assert read[0] == read[1] == [("Play Musketeers", True, asked), ("Play Cavalry", True, asked)]
