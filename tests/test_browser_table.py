"""A table players choose over paper (issue 30), in a real browser (Playwright + system Chromium, 390x844).

Separate phones per player and a spectator against one `muster app` process: what each phone shows
when a player of a three-player Waterloo game concedes and the others play on (R30).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from test_browser import Server
from test_browser_cardgames import app, phone, strip, wait_for  # noqa: F401  (the module's server fixture, shared)

from companion.store import DB_NAME, open_store
from companion.tables import Tables

SHOTS = os.environ.get("MUSTER_SHOTS")  # a folder: save the README's screenshots there (docs/img)


def concede(page: Any) -> None:
    """Tap Concede, then the question's "Yes, concede"."""
    tools = page.locator(".st-key-seat-tools")
    tools.get_by_role("button", name="Concede", exact=True).click()
    tools.get_by_text("the others play on without you").wait_for()
    tools.get_by_role("button", name="Yes, concede", exact=True).click()


def test_browser_waterloo_three_players_a_concede_plays_on(app: Server, new_phone: Callable[[], Any]) -> None:
    tables = Tables(open_store(app.data_dir / DB_NAME))
    table = tables.create("waterloo", ["Ann", "Bob", "Cleo"], {"players": 3}, seed="w3")
    base = f"{app.url}/?table={table.code}"
    ann, bob, cleo = (phone(new_phone, f"{base}&seat={table.seats[p].token}", f"You are {name}")
                      for p, name in enumerate(["Ann", "Bob", "Cleo"]))
    watcher = phone(new_phone, base, "You are watching as a spectator")

    concede(ann)
    wait_for(lambda: tables.snapshot(table).state.left[0], ann)
    assert tables.store.table(table.id).playing, "Bob and Cleo play on"
    for page in (bob, cleo, watcher):
        strip(page, "Ann conceded and left the game; the others play on")
    ann.get_by_text("Ann (button, left the game): 0 chips, bet 1").first.wait_for()
    assert ann.locator(".st-key-seat-tools").count() == 0, "a seat that left has nothing to concede or undo"
    if SHOTS:
        bob.screenshot(path=str(Path(SHOTS) / "waterloo-left-bob.png"), full_page=True)

    concede(bob)
    wait_for(lambda: not tables.store.table(table.id).playing, bob)
    ended = tables.store.table(table.id)
    assert ended.winner == 2 and ended.ended_by == "game"
    assert {r.name: (r.wins, r.losses) for r in tables.store.records()} == {
        "Ann": (0, 1), "Bob": (0, 1), "Cleo": (1, 0)}, "every player gets a result"
    cleo.get_by_text("The game is over: you won.").wait_for()
    watcher.get_by_text("The game is over: Cleo won.").wait_for()
