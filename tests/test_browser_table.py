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
    before = {r.name: (r.wins, r.losses) for r in tables.store.records()}
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
    after = {r.name: (r.wins, r.losses) for r in tables.store.records()}
    gained = {name: (wins - before.get(name, (0, 0))[0], losses - before.get(name, (0, 0))[1])
              for name, (wins, losses) in after.items() if (wins, losses) != before.get(name, (0, 0))}
    assert gained == {"Ann": (0, 1), "Bob": (0, 1), "Cleo": (1, 0)}, "every player gets a result (the server's "  \
        "store is shared with the session's other tests: this table's results are what changed)"
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
    yours.click()  # the lobby's own button reads "you are Bob" too: wait for the seat's page by its address
    bob.wait_for_url(lambda url: f"seat={table.seats[1].token}" in url)
    bob.get_by_text("You are Bob").first.wait_for()

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


def test_browser_a_finished_game_replays_per_viewer_and_as_a_file(app: Server, new_phone: Callable[[], Any],
                                                                  tmp_path: Path) -> None:
    """A finished warfare table opens as its replay, as this phone's own seat or the spectator only: as Ann her
    hand shows, as the spectator nothing of it, and Bob's seat is not offered (no seed turns every card over at
    the end); her own record downloads (what she saw, never the shuffle), and loaded again replays as Ann."""
    tables = Tables(open_store(app.data_dir / DB_NAME))
    table = tables.create("warfare", ["Ann", "Bob"], {"first_player": 0}, seed="s0")
    start = tables.snapshot(table).state
    tables.act(table, 0, start.legal_actions(0)[0])
    tables.concede(table, 1)
    final = tables.snapshot(table)
    count = len(final.entries)
    cards = tables.entries()["warfare"].data.card_index
    anns = {cards[c].name for c in start.view(0)["hand"]} - {cards[c].name for c in start.view(1)["hand"]}

    ann = phone(new_phone, f"{app.url}/?table={table.code}&seat={table.seats[0].token}", "You played Ann")
    ann.get_by_text(f"Replay · move {count} of {count} · seen as Ann").wait_for()
    ann.get_by_role("button", name="« Start").click()
    ann.get_by_text(f"Replay · move 0 of {count} · seen as Ann").wait_for()
    as_ann = ann.locator("body").inner_text()
    assert all(name in as_ann for name in anns), "Ann's own hand, as she saw it"
    assert ann.get_by_role("button", name="Bob", exact=True).count() == 0, "Bob's seat is not Ann's to look through"
    shot(ann, "companion-replay-player", "h4")
    with ann.expect_download() as download:  # her own seat's record, as she looks through it
        ann.get_by_role("button", name="Download Ann's game record (JSON)").click()
    saved = tmp_path / "record.json"
    download.value.save_as(saved)
    ann.get_by_role("button", name="Spectator", exact=True).click()
    ann.get_by_text("Replay · move 0 of {count} · seen as the spectator".format(count=count)).wait_for()
    ann.get_by_role("button", name="✓ Spectator").wait_for()
    as_spectator = ann.locator("body").inner_text()
    assert not [name for name in anns if name in as_spectator] and "You are Ann" not in as_spectator
    shot(ann, "companion-replay-spectator", "h4")

    ann.get_by_role("button", name="Download the spectator's game record (JSON)").wait_for()
    from companion.replay import load, record
    assert load(tables, saved.read_bytes()) == record(tables, tables.store.table(table.id), list(final.entries), 0)

    ann.goto(f"{app.url}/?page=record")
    ann.locator("input[type=file]").set_input_files(str(saved))
    ann.get_by_text(f"Replay · move {count} of {count} · seen as Ann").wait_for()
    ann.get_by_text("The game ended: Bob conceded, Ann won.").first.wait_for()
    assert ann.get_by_role("button", name="Spectator", exact=True).count() == 0, "a file replays as its viewer only"
    ann.get_by_role("button", name="« Start").click()
    ann.get_by_text(f"Replay · move 0 of {count} · seen as Ann").wait_for()
    own = ann.locator(".st-key-record-own").inner_text()
    assert "Only Ann saw this" in own and all(card in own for card in start.view(0)["hand"]), "her hand, as she saw it"


def test_browser_a_tap_on_a_button_that_just_appeared_is_ignored(app: Server, new_phone: Callable[[], Any]) -> None:
    """Waterloo's double tap: "Draw a card", then a second touch on "Keep it" the moment it appears under the
    finger. The second is ignored (the button has not stood 300 ms where it is); once settled, a tap keeps."""
    tables = Tables(open_store(app.data_dir / DB_NAME))
    table = tables.create("waterloo", ["Ann", "Bob"], {"players": 2}, seed="w0")
    state = tables.snapshot(table).state
    while state.phase == "bet":  # the first betting round, everyone passing or calling
        state = tables.act(table, state.current_player, state.legal_actions(state.current_player)[0]).state
    drawer = state.turn
    name = ["Ann", "Bob"][drawer]
    page = phone(new_phone, f"{app.url}/?table={table.code}&seat={table.seats[drawer].token}", f"You are {name}")
    head = tables.snapshot(table).head[0]

    # The second touch lands on "Keep it" the moment it is drawn, at its middle: touched from inside the page as
    # it appears (a test's own wait for it can take longer than 300 ms on a loaded machine, and a button that
    # has stood 300 ms rightly takes a tap).
    page.evaluate("""() => new MutationObserver((_, watch) => {
        const keep = [...document.querySelectorAll('.mp-btn')].find((b) => b.textContent === 'Keep it');
        if (!keep) return;
        watch.disconnect();
        const r = keep.getBoundingClientRect();
        keep.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1,
                                                     clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 }));
        window.touched = true;
    }).observe(document.body, { childList: true, subtree: true })""")
    draw = page.get_by_role("button", name="Draw a card", exact=True)
    draw.click()  # waits until the button has settled, as a player's eyes would
    keep = page.get_by_role("button", name="Keep it", exact=True)
    page.wait_for_function("window.touched === true")
    page.wait_for_timeout(1_500)  # time for that tap to reach the server, were it sent
    assert [a.kind for a in tables.snapshot(table).match.log[head:]] == ["draw"], "the second touch decided nothing"

    keep.click()  # settled now: a tap on it is the player's choice
    wait_for(lambda: [a.kind for a in tables.snapshot(table).match.log[head:]] == ["draw", "keep"], page)


def test_browser_no_choice_is_made_for_the_player(app: Server, new_phone: Callable[[], Any]) -> None:
    """Waterloo's reserve swap from a list: nothing picked, the button waits; each entry says which reserve card
    it takes and reads once; the move sent is the one picked."""
    tables = Tables(open_store(app.data_dir / DB_NAME))
    table = tables.create("waterloo", ["Ann", "Bob"], {"players": 2}, seed="w0")
    state = tables.snapshot(table).state
    while state.phase != "swap":  # pass, call, draw and keep up to the reserve swap
        p = state.current_player
        move = next(a for a in state.legal_actions(p) if a.kind in ("pass", "call", "draw", "keep"))
        state = tables.act(table, p, move).state
    p = state.turn
    page = phone(new_phone, f"{app.url}/?table={table.code}&seat={table.seats[p].token}", f"You are {['Ann', 'Bob'][p]}")
    head = tables.snapshot(table).head[0]
    select = page.locator(".st-key-moves .mp-select")
    select.wait_for()
    options = select.locator("option").all_inner_texts()
    assert options[0] == "Choose…" and select.input_value() == "", "nothing is picked for the player"
    assert len(options) == len(set(options)), "each entry reads once"
    assert all(", taking " in o for o in options[1:]), options
    waiting = page.get_by_role("button", name="Choose one above first")
    assert waiting.is_disabled()
    shot(page, "companion-waterloo-swap-choose", ".st-key-moves")
    pick = options[2]
    select.select_option(label=pick)
    page.get_by_role("button", name=f"Do: {pick}").click()
    yes = page.get_by_role("button", name="Yes, do it")
    page.wait_for_timeout(500)
    if yes.count():
        yes.click()
    wait_for(lambda: len(tables.snapshot(table).match.log) > head, page)
    stored = tables.snapshot(table).match.log[head]
    assert tables.position(table, tables.snapshot(table).entries[:head]).state.label(stored) == pick
