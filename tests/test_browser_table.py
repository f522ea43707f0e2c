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


def shot(page: Any, name: str, top: str | None = None) -> None:
    """Save the phone's screen as NAME.png in MUSTER_SHOTS (when set), the element `top` scrolled to the top."""
    if SHOTS:
        if top:
            page.locator(top).first.evaluate("el => el.scrollIntoView({block: 'start'})")
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


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
    shot(bob, "waterloo-left-bob")

    concede(bob)
    wait_for(lambda: not tables.store.table(table.id).playing, bob)
    ended = tables.store.table(table.id)
    assert ended.winner == 2 and ended.ended_by == "game"
    assert {r.name: (r.wins, r.losses) for r in tables.store.records()} == {
        "Ann": (0, 1), "Bob": (0, 1), "Cleo": (1, 0)}, "every player gets a result"
    cleo.get_by_text("The game is over: you won.").wait_for()
    watcher.get_by_text("The game is over: Cleo won.").wait_for()


def test_browser_a_seat_is_kept_through_the_lobby_and_back(app: Server, new_phone: Callable[[], Any]) -> None:
    tables = Tables(open_store(app.data_dir / DB_NAME))
    table = tables.create("warfare", ["Ann", "Bob"], {"first_player": 0}, seed="s0")
    bob = phone(new_phone, f"{app.url}/?table={table.code}&seat={table.seats[1].token}", "You are Bob")
    mine = f"Warfare · {table.code} — you are Bob"

    bob.get_by_role("button", name="⬅ Lobby").click()
    yours = bob.get_by_role("button", name=mine)
    yours.wait_for()
    assert bob.get_by_text("Your tables").count() == 1
    assert bob.get_by_role("button", name=f"Warfare · {table.code} — Ann, Bob").count() == 0, "not listed twice"
    shot(bob, "companion-lobby-your-tables", "h1")
    yours.click()
    bob.get_by_text("You are Bob").first.wait_for()
    assert f"seat={table.seats[1].token}" in bob.url

    bob.get_by_role("button", name="⬅ Lobby").click()
    bob.get_by_role("button", name=mine).wait_for()
    bob.go_back()
    bob.get_by_text("You are Bob").first.wait_for()
    assert f"seat={table.seats[1].token}" in bob.url
    bob.go_forward()
    bob.get_by_role("button", name=mine).wait_for()

    stranger = phone(new_phone, app.url, "Join a table by its code")
    stranger.get_by_role("button", name=f"Warfare · {table.code} — Ann, Bob", exact=False).first.wait_for()
    assert stranger.get_by_text("Your tables").count() == 0, "another phone holds no seat here"
    assert tables.store.table(table.id).seats[1].device is not None
