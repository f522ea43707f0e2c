"""A Medieval battle laid with printed cards, tap by tap, in the resolver of a real phone (Playwright, 390x844).

The table plays on paper; one phone lays what is on it: each side's three opening cards and
three reenforcements, in the order that needs the fewest taps (the chosen Side, Where and
Column stay chosen between cards). Every tap is counted (the "medieval battle with printed
cards" row of docs/companion-cardgames.md) and every placement must show in its column.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from test_browser import settle
from test_browser_cardgames import app, phone  # noqa: F401  (the module's server, shared)
from test_browser_imperial import Taps

from companion.store import DB_NAME, open_store
from companion.tables import Tables

# (Side, Where, Column, card) in laying order: Side/Where/Column are tapped only when they change.
BATTLE = [
    ("Me", "opening card", "left", "Knight · Fighter 7"),
    ("Me", "opening card", "centre", "Archer · Fighter 3"),
    ("Me", "opening card", "right", "Pikeman · Fighter 5"),
    ("Me", "reenforcement (face down)", "right", "Man-at-Arms · Fighter 4"),
    ("Me", "reenforcement (face down)", "centre", "Crossbowman · Fighter 5"),
    ("Me", "reenforcement (face down)", "left", "Peasant Levy · Fighter 1"),
    ("Opponent", "reenforcement (face down)", "left", "Archer · Fighter 3"),
    ("Opponent", "reenforcement (face down)", "centre", "Man-at-Arms · Fighter 4"),
    ("Opponent", "reenforcement (face down)", "right", "Knight · Fighter 7"),
    ("Opponent", "opening card", "right", "Archer · Fighter 3"),
    ("Opponent", "opening card", "centre", "Pikeman · Fighter 5"),
    ("Opponent", "opening card", "left", "Man-at-Arms · Fighter 4"),
]
RESULT = [
    "Left: Knight, Peasant Levy (reenforcement) 8 vs 7 Archer (reenforcement), Man-at-Arms — I win",
    "Centre: Archer, Crossbowman (reenforcement) 8 vs 9 Man-at-Arms (reenforcement), Pikeman — they win",
    "Right: Pikeman, Man-at-Arms (reenforcement) 9 vs 10 Knight (reenforcement), Archer — they win",
]
BATTLE_TAPS = 24  # 1 to open the resolver, 12 cards, 11 changes of Side, Where or Column


def test_browser_medieval_printed_battle_taps(app: Any, new_phone: Callable[[], Any]) -> None:
    tables = Tables(open_store(app.data_dir / DB_NAME))
    table = tables.create("medieval", ["Ann", "Bob"], {}, seed="printed")
    ann = phone(new_phone, f"{app.url}/?table={table.code}&seat={table.seats[0].token}", "You are Ann")
    taps = Taps()
    taps.tap(ann.get_by_text("Battle resolver (printed cards)"))
    ann.get_by_text("Tap a card to add it").wait_for()
    chosen = {"Side": "Me", "Where": "opening card", "Column": "left"}
    for side, where, column, card in BATTLE:
        for what, option in (("Side", side), ("Where", where), ("Column", column)):
            if chosen[what] != option:
                taps.tap(ann.get_by_role("radio", name=option, exact=True))
                ann.locator("[role=radio][aria-checked=true]", has_text=option).wait_for()
                chosen[what] = option
                settle(ann)
        taps.tap(ann.locator("button[data-variant=pills]", has_text=card))
        settle(ann)
    for line in RESULT:
        ann.get_by_text(line, exact=True).wait_for()
    assert taps.count == BATTLE_TAPS
