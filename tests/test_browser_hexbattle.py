"""Hexbattle played by tapping the board, in a real browser at phone size against a real `muster app`.

Two phones (Ann and Bob). A fresh table: Ann deploys a unit by tapping a starting hex, then both
press Quick Start. A scripted battle (scenario and dice as table options): Ann moves with a turn
(unit, hex, neighbouring hex), draws a terrain tile and lays it by a tap, charges (choosing close
combat over fire), Bob's phone shows the dice and a result banner at the top (so does Ann's),
two fingers zoom the board until every hex is at least 44 px, the selected gun's facts stand over it, and a
ranged shot tapped on the board is asked about by name (a tap on the board under the question neither drops
nor makes it) and wins the battle on both phones.
The artwork is fetched once per page load, never sent by websocket; a redraw after a tap carries the overlay.
"""

from __future__ import annotations

import io
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from test_browser import Server
from test_browser_cardgames import wait_for

from companion import paths
from companion.components.hexboard import ART_PATH, art
from companion.store import DB_NAME, open_store
from companion.tables import Tables, catalogue
from engine.hexgrid import hex_id
from generator.hexbattle_parts import board_geometry

SHOTS = os.environ.get("MUSTER_SHOTS")  # a folder: save the README's screenshots there (docs/img)


@pytest.fixture
def server(shared_server: Server) -> Server:
    """The session's shared server (conftest's `shared_server`): each test opens tables of its own."""
    return shared_server

GEO = board_geometry(catalogue()["hexbattle"].data)
SCENARIO = {"terrain": {f"{c},{r}": "open" for c in range(2, 9) for r in range(2, 8)}, "current_player": 0,
            "hands": [["charge"], []],
            "units": {"french-infantry-1": {"hex": "3,7", "facing": 0},
                      "french-infantry-2": {"hex": "5,5", "facing": 0},
                      "french-light-artillery": {"hex": "7,6", "facing": 0},
                      "british-infantry-1": {"hex": "5,4", "facing": 3, "strength": 2}}}
# The charge: Ann's 4 dice against Bob's 2; then the guns' 2 dice, one hit on the broken unit.
DICE = [6, 6, 1, 1, 1, 1, 1, 6]


class Phone:
    """One player's phone on the table page; taps land on hexes by where the board draws them."""

    def __init__(self, new_phone: Callable[[], Any], url: str) -> None:
        self.page = new_phone()
        self.received: list[int] = []
        self.artwork: list[Any] = []  # the replies that brought the board's artwork
        self.page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: self.received.append(len(frame))))
        self.page.on("response", lambda reply: self.artwork.append(reply) if ART_PATH in reply.url else None)
        self.page.goto(url)
        self.ready()

    def ready(self) -> None:
        self.page.wait_for_selector(".hb[data-ready='1']")
        self.page.wait_for_function("!document.querySelector('[data-testid=\"stStatusWidget\"]')")

    def tap_hex(self, hex_ref: str) -> None:
        """Tap a hex as a player would: again if the board let the tap go by (it moved under the finger a moment
        before, `sight.js`: the board counts only the taps it takes), never twice for one it took."""
        self.received.clear()
        for _ in range(5):
            taken = self.taps()
            self.page.mouse.click(*self.point(hex_ref))
            if self.taps() > taken:
                return
        raise AssertionError(f"the board never took a tap on {hex_ref}")

    def taps(self) -> int:
        """How many taps the board on this page has taken (and sent)."""
        return int(self.page.evaluate(
            "Object.values(window.__musterHexboardViews || {}).reduce((n, view) => n + view.taps, 0)"))

    def point(self, hex_ref: str) -> tuple[float, float]:
        """Where on the screen a hex is drawn, brought into view first, once the page has finished drawing (a
        run still under way may move the board under the finger, and the tap would rightly be ignored)."""
        self.ready()
        x, y = GEO.centre(*(int(v) for v in hex_ref.split(",")))
        frame = self.page.locator(".hb-scroll")
        frame.scroll_into_view_if_needed()
        # Zoomed in, the board pans: bring the hex to the middle of the board's box, as a finger would.
        frame.evaluate("""(box, [fx, fy]) => { const art = box.querySelector('svg').getBoundingClientRect();
            box.scrollLeft = fx * art.width - box.clientWidth / 2;
            box.scrollTop = fy * art.height - box.clientHeight / 2;
            return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))); }""",
                       [x / GEO.width, y / GEO.height])
        # A tap is taken where the board has stood a moment (companion/components/sight.js), as a finger waits.
        self.page.locator(".hb-svg:not([aria-busy])").wait_for()
        box = self.page.locator(".hb-svg").bounding_box()
        scale = box["width"] / GEO.width
        return box["x"] + x * scale, box["y"] + y * scale

    def pinch(self, start: float, to: float, across: float = 0.5) -> float:
        """Two fingers on the board, `start` px either side of a point `across` its frame's width, moved to `to`
        px, then lifted; returns how far across the drawn board that point lay before."""
        self.page.locator(".hb-scroll").scroll_into_view_if_needed()
        frame = self.page.locator(".hb-scroll").bounding_box()
        x, y = frame["x"] + frame["width"] * across, frame["y"] + frame["height"] / 2
        under = self.across(x)
        fingers = self.page.context.new_cdp_session(self.page)
        fingers.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 2})
        for kind, d in (("touchStart", start), ("touchMove", to)):
            fingers.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x - d, "y": y},
                                                                                    {"x": x + d, "y": y}]})
        fingers.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        return under

    def across(self, x: float) -> float:
        """How far across the drawn board a point of the screen lies (0 its left edge, 1 its right)."""
        art = self.page.locator(".hb-svg").bounding_box()
        return (x - art["x"]) / art["width"]

    def tap_button(self, label: str) -> None:
        self.received.clear()
        self.page.get_by_role("button", name=label, exact=True).click()

    def confirm(self) -> None:
        """Say yes to a move that cannot be taken back (chance or a reveal): the page asks under the button
        tapped, or in a dialog for a tap on the board."""
        self.page.get_by_role("button", name="Yes, do it").click()

    def hint(self, text: str) -> None:
        self.page.locator(".hb-hint", has_text=text).wait_for()

    def shows(self, text: str) -> None:
        self.page.get_by_text(text).first.wait_for()


def test_browser_hexbattle_board_taps(server: Server, new_phone: Callable[[], Any]) -> None:
    tables = Tables(open_store(server.data_dir / DB_NAME))

    # Deployment: one tap on a starting hex deploys the next unit; then Quick Start on both phones.
    deploy = tables.create("hexbattle", ["Ann", "Bob"], {}, seed="board-deploy")
    ann = Phone(new_phone, f"{server.url}/?table={deploy.code}&seat={deploy.seats[0].token}")
    ann.hint("Tap a green hex to deploy Blue Infantry 1")
    ann.tap_hex("4,8")
    wait_for(lambda: tables.snapshot(deploy).state.units["french-infantry-1"].hex is not None, ann.page)
    assert hex_id(tables.snapshot(deploy).state.units["french-infantry-1"].hex) == "4,8"
    bob = Phone(new_phone, f"{server.url}/?table={deploy.code}&seat={deploy.seats[1].token}")
    bob.tap_button("Quick Start: deploy the rest")
    bob.confirm()
    wait_for(lambda: tables.snapshot(deploy).state.current == 0, bob.page)
    ann.ready()
    ann.tap_button("Quick Start: deploy the rest")
    ann.confirm()
    wait_for(lambda: tables.snapshot(deploy).state.phase == "battle", ann.page)

    # The battle, scripted.
    table = tables.create("hexbattle", ["Ann", "Bob"], {"scenario": SCENARIO, "dice": DICE}, seed="board-taps",
                          scripted=True)
    ann.page.goto(f"{server.url}/?table={table.code}&seat={table.seats[0].token}")
    ann.ready()
    bob.received.clear()
    bob.artwork.clear()
    bob.page.goto(f"{server.url}/?table={table.code}&seat={table.seats[1].token}")
    bob.ready()
    artwork = sum(len(svg) for svg in art(catalogue()["hexbattle"].data)["pieces"].values())  # ~369,000
    # A redraw is the overlay and the pads (about 20,000 bytes, End turn's question included): far below that.
    # the page load fetched the artwork, once, for the browser to keep; no websocket message carried it
    assert len(bob.artwork) == 1 and len(bob.artwork[0].body()) > artwork
    assert bob.artwork[0].headers["cache-control"] == paths.KEEP and max(bob.received) < 25_000 < artwork

    # A move with a turn: the unit, the hex, then the neighbouring hex it should face (north-east).
    ann.tap_hex("3,7")
    ann.hint("Green: move")
    assert max(ann.received) < 25_000 < artwork, sorted(ann.received)[-6:]  # a redraw: the overlay, no artwork
    ann.tap_hex("3,6")
    ann.hint("Tap the hex it should face")
    ann.tap_hex("4,6")
    wait_for(lambda: len(tables.snapshot(table).entries) == 1, ann.page)
    infantry = tables.snapshot(table).state.units["french-infantry-1"]
    assert (hex_id(infantry.hex), infantry.facing) == ("3,6", 1)

    # A terrain tile: drawn, shown and named at once, laid by a tap on a highlighted hex.
    ann.ready()
    ann.tap_button("Draw terrain")
    ann.confirm()
    ann.hint("Tap a yellow hex to lay the")
    drawn = tables.snapshot(table).state.pending_tile
    name = catalogue()["hexbattle"].data.by_id("terrain")[drawn].name
    ann.shows(f"Drawn tile: {name}")
    tile = ann.page.locator(f'.hb-drawn[aria-label="The {name} tile as printed"]')  # as printed, in the board's bar
    tile.wait_for()
    shown = tile.bounding_box()
    assert shown is not None and shown["height"] > 40 and 0.8 < shown["width"] / shown["height"] < 1.3
    assert tile.locator("image").get_attribute("data-piece") == f"tile-{drawn}"
    # drawn, as printed: its colours are those of the printed tile at that size (not an empty frame, nor a broken
    # image's mark, whose mean colour is 24 levels off in red)
    seen = Image.open(io.BytesIO(tile.screenshot())).convert("RGB")
    printed = subprocess.run(["rsvg-convert", "-w", str(seen.width), "-h", str(seen.height), "-b", "white"],
                             input=art(catalogue()["hexbattle"].data)["pieces"][f"tile-{drawn}"].encode(),
                             capture_output=True, check=True).stdout
    mean = [im.resize((1, 1), Image.Resampling.BOX).getpixel((0, 0)) for im in (seen, Image.open(io.BytesIO(printed)).convert("RGB"))]
    assert max(abs(a - b) for a, b in zip(*mean, strict=True)) < 10, mean
    if SHOTS:  # the board's bar with the drawn tile, as the player laying it and as the opponent
        for phone, name in ((ann, "player"), (bob, "opponent")):
            phone.page.locator(".hb").first.evaluate("el => el.scrollIntoView({block: 'start'})")
            phone.page.screenshot(path=str(Path(SHOTS) / f"companion-hexbattle-tile-{name}.png"))
    ann.tap_hex("9,5")
    wait_for(lambda: tables.snapshot(table).state.terrain.get((9, 1)) == drawn, ann.page)  # axial of 9,5

    # A close combat where fire is also possible: the phone asks which.
    ann.ready()
    ann.tap_hex("5,5")
    ann.hint("Green: move")
    ann.tap_hex("5,4")
    ann.tap_button("⚔ Close combat")
    ann.confirm()
    wait_for(lambda: tables.snapshot(table).state.units["british-infantry-1"].strength == 0, ann.page)
    for phone in (ann, bob):
        phone.ready()
        phone.shows("Last combat: Blue Infantry 2 → Red Infantry 1")
        phone.shows("Red Infantry 1 is broken.")
    assert "Dice: attacker ⚅ 6, ⚅ 6, ⚀ 1, ⚀ 1, defender ⚀ 1, ⚀ 1" in bob.page.locator(".st-key-hx-combat").inner_text()
    told = tables.snapshot(table).history(1)[-1].format(["Ann", "Bob"])  # the charge, as Bob's side reads it
    bob.page.locator(".st-key-news", has_text=told).wait_for()  # announced on the opponent's phone
    # and at the top, in each viewer's words, as a result banner: the opponent's and the player's (a spectator's
    # is tested without a browser, test_hexboard; here only for its screenshot)
    phones = [(bob, "Ann's", "your", "opponent"), (ann, "your", "Bob's", "player")]
    if SHOTS:
        phones.append((Phone(new_phone, f"{server.url}/?table={table.code}"), "Ann's", "Bob's", "spectator"))
    for phone, theirs, mine, _ in phones:
        result = phone.page.locator(".st-key-hx-result")
        result.get_by_text(f"Close combat: {theirs} Blue Infantry 2 charged {mine} Red Infantry 1.").wait_for()
        assert f"{mine[:1].upper() + mine[1:]} Red Infantry 1 is broken." in result.inner_text()
    if SHOTS:  # at the top of each phone: the banner, what just happened (docs/img); then Ann's bonus card, asked
        for phone, _, _, name in phones:  # about by name before it is played
            phone.page.locator(".st-key-hx-result").evaluate("el => el.scrollIntoView({block: 'end'})")
            phone.page.screenshot(path=str(Path(SHOTS) / f"companion-hexbattle-{name}.png"))
        phones[-1][0].page.close()
        ann.page.get_by_role("button", name="▶ Play Charge!").click()
        ann.page.locator(".mp-ask").scroll_into_view_if_needed()
        ann.page.screenshot(path=str(Path(SHOTS) / "companion-hexbattle-card.png"))
        ann.page.get_by_role("button", name="Cancel").click()
    if SHOTS:  # the defender's phone: what just happened, the broken unit's ⚠, then the dice as dice (docs/img)
        for name, where in (("news", ".st-key-news"), ("broken", ".hb"), ("dice", ".st-key-hx-combat")):
            bob.page.locator(where).first.evaluate("el => el.scrollIntoView({block: 'start'})")
            bob.page.screenshot(path=str(Path(SHOTS) / f"companion-hexbattle-{name}.png"))

    # Zoomed in, a ranged attack by the guns (fire is all they can do: one tap on the target) wins. Two fingers
    # spread on the board zoom it to 1.5x about the place between them, where every hex is at least 44 px.
    under = ann.pinch(40, 56, across=0.25)
    ann.page.locator(".hb-zoom", has_text="1.5×").wait_for()
    frame = ann.page.locator(".hb-scroll").bounding_box()  # the place between the fingers stayed between them
    assert abs(ann.across(frame["x"] + frame["width"] * 0.25) - under) < 0.01, under
    scale = ann.page.locator(".hb-svg").bounding_box()["width"] / GEO.width
    assert min(GEO.hex_w, GEO.hex_h) * scale >= 44, (GEO.hex_w * scale, GEO.hex_h * scale)
    ann.page.get_by_role("button", name="Zoom in").click()
    ann.page.locator(".hb-zoom", has_text="2×").wait_for()
    assert ann.page.locator(".hb-svg").bounding_box()["width"] > 1.9 * ann.page.locator(".hb-scroll").bounding_box()["width"]
    # zoomed, the bar (facts, hint, zoom) and the board's frame fit the screen together, the bar above the frame,
    # never on it (where the page stands scrolled is the player's: a redraw above the board may move it)
    bar, frame = (ann.page.locator(s).bounding_box() for s in (".hb-sticky", ".hb-scroll"))
    assert bar["y"] + bar["height"] <= frame["y"] and frame["y"] + frame["height"] - bar["y"] <= 844, (bar, frame)
    ann.tap_hex("7,6")
    ann.hint("Green: move")
    facts = ann.page.locator(".hb-facts")  # the selected unit's facts, in view over the zoomed board
    assert facts.inner_text().startswith("Blue Light Artillery (Light Artillery) · strength 2/2 · facing N")
    assert 0 <= facts.bounding_box()["y"] and sum(facts.bounding_box()[k] for k in ("y", "height")) <= 844
    if SHOTS:
        ann.page.screenshot(path=str(Path(SHOTS) / "companion-hexbattle-zoomed.png"))
    ann.tap_hex("5,4")
    # The question names the move, and a tap on the board under it neither drops it nor does it.
    asked = ann.page.get_by_role("dialog")
    asked.get_by_text("Fire at Red Infantry 1 at 5,4 with Blue Light Artillery").wait_for()
    dimmed = "getComputedStyle(document.querySelector('div.stDialog')).backgroundColor"  # the board under it is dimmed
    assert ann.page.evaluate(dimmed) == "rgba(20, 20, 30, 0.55)"
    if SHOTS:
        ann.page.screenshot(path=str(Path(SHOTS) / "companion-hexbattle-asked.png"))
    made, taken = len(tables.snapshot(table).entries), ann.taps()
    ann.page.mouse.click(*ann.point("7,6"))
    ann.page.wait_for_function("!document.querySelector('[data-testid=\"stStatusWidget\"]')")
    assert asked.is_visible() and len(tables.snapshot(table).entries) == made and ann.taps() == taken
    ann.confirm()
    wait_for(lambda: tables.snapshot(table).state.is_terminal, ann.page)
    ann.shows("The game is over: you won.")
    bob.shows("The game is over: Ann won.")
    for phone in (ann, bob):
        phone.ready()
        phone.shows("Last combat: Blue Light Artillery → Red Infantry 1")
        phone.shows("Red Infantry 1 is destroyed.")


def test_a_board_whose_artwork_cannot_be_had_says_so_in_words(server: Server, new_phone: Callable[[], Any]) -> None:
    """A page from before a restart with other cards asks for an artwork version the server no longer has, and a
    phone can lose the server while it fetches: either way the board's place says what to do, never a blank."""
    tables = Tables(open_store(server.data_dir / DB_NAME))
    table = tables.create("hexbattle", ["Ann", "Bob"], {}, seed="board-missing")
    gone = new_phone()  # the server's own answer for a version it does not have
    gone.route(f"**/{ART_PATH}/**", lambda route: route.continue_(url=route.request.url.rsplit("/", 1)[0] + "/" + "0" * 16))
    gone.goto(f"{server.url}/?table={table.code}")
    gone.locator(".hb-missing").wait_for()
    assert gone.locator(".hb-missing").inner_text() == "No such board artwork; reload the page."
    lost = new_phone()  # no answer at all
    lost.route(f"**/{ART_PATH}/**", lambda route: route.abort())
    lost.goto(f"{server.url}/?table={table.code}")
    lost.locator(".hb-missing").wait_for()
    assert lost.locator(".hb-missing").inner_text() == "The board's artwork could not be loaded; reload the page."
    assert lost.locator(".hb[data-ready='1']").count() == 0
