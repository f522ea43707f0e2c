"""Waterloo in a real browser (Playwright + system Chromium, 390x844) against one `muster app` process.

Two seats and a spectator. Seed "w0" (two players, Ann on the button): when everyone passes or
calls, keeps and stands, hand 1 ends in a tie on High Card (the bets are split) and hand 2 is
won by Ann with a Battalion. Every move is a tap on the phone whose turn it is; what is
checked is what each phone shows after the showdown, after the tie, and the shared round
timer (the same deadline on every phone, kept through a refresh).
"""

from __future__ import annotations

import math
import os
import re
import time
from pathlib import Path
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser import Server
from test_browser_cardgames import app, phone, strip  # noqa: F401  (the module's server fixture, shared)

from companion.clock import TICK_MS
from companion.panels.common import card_label
from companion.store import DB_NAME, open_store
from companion.tables import Tables
from engine.core import act

SHOTS = os.environ.get("MUSTER_SHOTS")  # a folder: save the README's screenshots there (docs/img)
SEED = "w0"
SECONDS = 240  # cards/waterloo/game.toml: round_timer_minutes = 4


class Table:
    """A seeded two-seat table, the phones that watch it, and a count of every tap made on them."""

    def __init__(self, app: Server, new_phone: Callable[[], Any]) -> None:
        self.tables = Tables(open_store(app.data_dir / DB_NAME))
        self.info = self.tables.create("waterloo", ["Ann", "Bob"], {"players": 2}, seed=SEED)
        base = f"{app.url}/?table={self.info.code}"
        self.ann = phone(new_phone, f"{base}&seat={self.info.seats[0].token}", "You are Ann")
        self.bob = phone(new_phone, f"{base}&seat={self.info.seats[1].token}", "You are Bob")
        self.watcher = phone(new_phone, base, "You are watching as a spectator")
        self.taps = 0

    @property
    def phones(self) -> tuple[Any, Any, Any]:
        return self.ann, self.bob, self.watcher

    def head(self) -> int:
        return self.tables.snapshot(self.info).head[0]

    def label(self, card: str) -> str:
        data = self.tables.entries()["waterloo"].data
        return card_label(data.card_index[card], data)

    def tap(self, page: Any, name: str) -> None:
        """Tap a button of the moves box (or the timer) and wait until the server stored it; a move that cannot
        be taken back asks "Yes, do it" first (one more tap). A tap lost in a redraw is tapped again."""
        before = self.head()
        button = page.locator(".st-key-moves, .st-key-round-timer").get_by_role("button", name=name, exact=True)
        for _ in range(3):
            button.click()
            self.taps += 1
            for _ in range(100):
                if self.head() > before:
                    return
                yes = page.get_by_role("button", name="Yes, do it")
                if yes.count() and yes.is_visible():
                    yes.click()
                    self.taps += 1
                    for _ in range(300):
                        if self.head() > before:
                            return
                        page.wait_for_timeout(100)
                    raise AssertionError(f"the confirmed tap on {name!r} was not stored")
                page.wait_for_timeout(300)
            if not button.count():
                break
            self.taps -= 1  # the first click never reached the server: it is not a tap a player makes
        raise AssertionError(f"the tap on {name!r} was not stored")


def play(table: Table, moves: list[tuple[Any, str]]) -> None:
    for page, name in moves:
        table.tap(page, name)


def betting(table: Table, first: Any, second: Any, rounds: int) -> None:
    play(table, [(first, "Pass"), (second, "Pass")] * rounds)


def drawing_turn(table: Table, first: Any, second: Any) -> None:
    play(table, [(first, "Draw a card"), (first, "Keep it"), (second, "Draw a card"), (second, "Keep it")])


def shot(page: Any, name: str, top: str | None = None) -> None:
    """Save the phone's screen as companion-waterloo-NAME.png, `top` scrolled to the top, when MUSTER_SHOTS is set."""
    if SHOTS:
        if top:
            page.locator(top).first.evaluate("el => el.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(500)
        page.screenshot(path=str(Path(SHOTS) / f"companion-waterloo-{name}.png"))


def history(page: Any, text: str) -> None:
    page.get_by_text(text, exact=False).first.wait_for()


def test_browser_waterloo_hands_tie_and_showdown_through_taps(app: Server, new_phone: Callable[[], Any]) -> None:
    t = Table(app, new_phone)
    ann, bob, watcher = t.phones
    view = t.tables.snapshot(t.info).state.view(1)
    bob_dealt = [t.label(c) for c in view["players"][1]["hand"]]

    # Hand 1. Bob (left of the button) raises 2 and Ann calls; then both pass, draw, keep and stand.
    bob.get_by_text("Your turn, Bob: bet: pass, call, raise or fold.").wait_for()
    assert ann.locator(".st-key-moves").count() == 0 and watcher.locator(".st-key-moves").count() == 0
    play(t, [(bob, "Raise by 2 (bet 3)")])
    ann.get_by_text("Your turn, Ann: bet: pass, call, raise or fold · 2 to call.").wait_for()
    play(t, [(ann, "Call 2")])
    # The drawing turn laid out as cards: keep, or one "Take …" button per community card (never a 15-entry list).
    play(t, [(bob, "Draw a card")])
    moves = bob.locator(".st-key-moves")
    moves.get_by_role("button", name="Keep it").wait_for()
    expect(moves.get_by_role("button", name=re.compile("^Take "))).to_have_count(3)  # the pad may come in two steps
    assert moves.locator("[data-baseweb=select]").count() == 0
    shot(bob, "drawing-turn", ".st-key-round-timer")
    play(t, [(bob, "Keep it"), (ann, "Draw a card"), (ann, "Keep it")])
    for _ in range(2):
        betting(t, bob, ann, 1)
        drawing_turn(t, bob, ann)
    betting(t, bob, ann, 1)
    play(t, [(bob, "Keep your reserve"), (ann, "Keep your reserve")])  # the last one starts the showdown: asked first
    taps_hand_1 = t.taps

    # The tie, on every phone: the showdown hands (cards in order of weight) and the split bets.
    tie = "Hand 1: Bob and Ann tie with High Card and split the bets · chips: Ann ±0, Bob ±0"
    bob_shown = "Bob: High Card — General · Officer, Lancers · Cavalry 2, Light Infantry · Infantry 3, " \
                "Howitzers · Artillery 4, Rockets · Special"
    ann_shown = "Ann: High Card — Guard Infantry · Infantry 1, Line Infantry · Infantry 2, Lieutenant · Officer, " \
                "Howitzers · Artillery 4, Fix Bayonets · Special"
    for page in t.phones:
        history(page, tie)
        history(page, bob_shown)
        history(page, ann_shown)
        strip(page, "Hand 1: Bob collects 3, Ann collects 3")
    assert sorted(c.split(" · ")[0] for c in bob_dealt) == sorted(["General", "Lancers"])

    # Hand 2 is played on the server (the button moved to Bob, so Ann opens); Bob exchanges his first drawn card
    # for the middle community card. Every phone then shows Ann's win with the hand she showed.
    ann.get_by_text("Your turn, Ann: bet: pass, call, raise or fold.").wait_for()
    service = t.tables
    for player, kind in [(0, "pass"), (1, "pass"), (0, "draw"), (0, "keep"), (1, "draw")]:
        service.act(t.info, player, act(kind, player))
    seen = service.snapshot(t.info).state.view(1)
    service.act(t.info, 1, act("exchange", 1, card=seen["drawn"], community=seen["community"][1]))
    for _ in range(2):
        for player, kind in [(0, "pass"), (1, "pass"), (0, "draw"), (0, "keep"), (1, "draw"), (1, "keep")]:
            service.act(t.info, player, act(kind, player))
    for player, kind in [(0, "pass"), (1, "pass"), (0, "stand"), (1, "stand"), (1, "pay")]:  # R28: Bob lost
        service.act(t.info, player, act(kind, player))

    won = "Hand 2: Ann won the showdown with Battalion · chips: Ann +1, Bob −1"
    battalion = "Ann: Battalion — Guard Infantry · Infantry 1, Dragoon · Wild, Lancers · Cavalry 2, " \
                "6-Pounders · Artillery 3, Captain · Officer"
    for page in t.phones:
        history(page, won)
        history(page, battalion)
        strip(page, "Hand 2: Ann collects 2")
    if SHOTS:
        ann.get_by_text(won).first.evaluate("el => el.scrollIntoView({block: 'center'})")
    shot(ann, "history")
    # A hand of two players: 4 betting rounds x 2 taps (pass, or a raise and a call), 3 drawing turns x 2 players
    # x 2 taps (draw; keep or take a community card), 2 reserve swaps and the "Yes" before the showdown.
    assert taps_hand_1 == 8 + 12 + 2 + 1
    assert watcher.locator(".st-key-moves").count() == 0


def as_js(stamp: float) -> str:
    """A stamp as the page's script writes it (JS's String(number)): a whole second without '.0'."""
    return str(int(stamp)) if stamp.is_integer() else repr(stamp)


def test_browser_waterloo_round_timer_is_the_same_on_every_phone_and_survives_a_refresh(app: Server, new_phone: Callable[[], Any]) -> None:
    t = Table(app, new_phone)
    ann, bob, watcher = t.phones
    for page in t.phones:
        page.locator(".muster-clock", has_text="4:00 · not started").wait_for()
    assert watcher.locator(".st-key-round-timer").get_by_role("button").count() == 0  # spectators only watch

    t.tap(ann, "Start 4:00")
    (entry,) = [e for e in t.tables.store.log(t.info.id) if e.action["kind"] == "timer"]
    ends = round(entry.at + SECONDS, 3)
    bob.reload()  # a refresh keeps the clock: it is derived from the stored stamp, not kept by the phone
    bob.get_by_text("You are Bob").first.wait_for()
    for page in t.phones:
        page.locator(f".muster-clock[data-ends='{as_js(ends)}']").wait_for()

    before = time.time()
    shown = [clock_seconds(page) for page in t.phones]
    after = time.time()
    # What a phone shows is the deadline minus the time it is read (rounded up), at most one redraw old.
    for seconds in shown:
        assert math.ceil(ends - after) <= seconds <= math.ceil(ends - before + TICK_MS / 1000)
    assert t.tables.snapshot(t.info).match.undo_refusal(0) == "There is nothing to take back."  # no move was made
    shot(bob, "timer")

    t.tap(bob, "Pause")
    (_, paused) = [e for e in t.tables.store.log(t.info.id) if e.action["kind"] == "timer"]
    left = round(SECONDS - (paused.at - entry.at), 3)
    for page in t.phones:
        page.locator(f".muster-clock[data-left='{as_js(left)}']").wait_for()
        page.get_by_text("Round timer, hand 1: paused by Bob.").wait_for()
    ann.reload()
    ann.get_by_text("You are Ann").first.wait_for()
    ann.locator(f".muster-clock[data-left='{as_js(left)}']", has_text="left · paused").wait_for()
    ann.locator(".st-key-round-timer").get_by_role("button", name="Resume").wait_for()


def clock_seconds(page: Any) -> int:
    """The seconds a phone's countdown shows ("3:58 left" -> 238)."""
    text = page.locator(".muster-clock").inner_text()
    found = re.match(r"(\d+):(\d\d) left", text)
    assert found, text
    return int(found[1]) * 60 + int(found[2])
