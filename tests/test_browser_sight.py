"""A tap decides only what its player saw (issue 30; companion/components/sight.js), in Chromium on the components'
real frontends (sight.js + surface.js, sight.js + board.js) mounted on a blank page, with no server: the page
here redraws a pad every 100 ms, which a server does only when loaded or when two of them wake each other.

The rule: a tap is taken only where the same control (pad, item id, the position it was drawn at; on the board,
what is drawn about the hex and the position) has stood under the finger for a human moment (300 ms). A redraw
that keeps a control where it was keeps its time; a control newly drawn, or moved, under the finger waits.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from companion import components
from companion.components import surface

HERE = Path(components.__file__).parent
MOUNT = """async ([code, name]) => {
  const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  const draw = (await import(url)).default;
  window.taps = [];
  const host = document.getElementById(name);
  window[name] = (data) => draw({ data, parentElement: host, key: name,
                                  setTriggerValue: (_, value) => window.taps.push(value) });
  // a touch at (x, y) the moment a redraw is done: from inside the page, as a test's own round trip can take
  // longer than the moment on a loaded machine
  window.touch = (x, y) => document.elementFromPoint(x, y).dispatchEvent(
    new MouseEvent("click", { bubbles: true, detail: 1, clientX: x, clientY: y }));
}"""
LINES = ["Ann bet 2 chips.", "Bob called."]


def mounted(new_phone: Callable[[], Any], *scripts: tuple[str, str]) -> Any:
    """A phone on a blank page where each component's frontend (its JavaScript as the browser gets it) is mounted:
    window[name](data) draws it."""
    page = new_phone()
    page.set_content("<body style='margin:0;font-family:sans-serif'>"
                     + "".join(f"<div id='{name}'></div>" for _, name in scripts) + "</body>")
    for code, name in scripts:
        page.evaluate(MOUNT, [code, name])
    return page


def pad(head: list[int], items: list[tuple[str, str]], note: str = "Redraw 0") -> list[dict[str, Any]]:
    """A surface of a text block and the moves pad, its items (id, label) drawn at position `head`."""
    buttons = [{"kind": "button", "id": i, "label": label, "value": {"kind": i}} for i, label in items]
    return [{"key": "said", "html": "<p>What just happened: Ann bet 2 chips.</p>"},
            {"key": "moves", "pad": {"head": head, "title": "Your move", "lines": LINES, "note": note, "items": buttons}}]


def centre(page: Any, selector: str) -> tuple[float, float]:
    """The middle of the control on the screen (measured in one go: a redraw may replace its node any moment)."""
    x, y = page.evaluate("(s) => { const r = document.querySelector(s).getBoundingClientRect();"
                         " return [r.left + r.width / 2, r.top + r.height / 2]; }", selector)
    return x, y


def settled(page: Any, selector: str) -> None:
    """Wait until the control has stood its moment (the page marks a button, and the board, until then)."""
    page.wait_for_function("(s) => { const b = document.querySelector(s);"
                           " return b && !b.hasAttribute('aria-disabled') && !b.hasAttribute('aria-busy'); }",
                           arg=selector, timeout=30_000)


def test_browser_a_redrawn_pad_takes_a_settled_tap_and_a_new_button_under_the_finger_waits(
        new_phone: Callable[[], Any]) -> None:
    page = mounted(new_phone, (surface.SCRIPT, "surface"))
    page.evaluate("window.surface(%s)" % pad([4, 1], [("draw", "Draw a card"), ("stand", "Stand")]))
    # Redrawn every 100 ms with the same buttons (each redraw draws the pad's nodes anew: its note changed).
    page.evaluate("""(blocks) => { let n = 0; window.redrawing = setInterval(() => {
        blocks[1].pad.note = `Redraw ${++n % 10}`; window.surface(blocks); }, 100); }""",
                  pad([4, 1], [("draw", "Draw a card"), ("stand", "Stand")]))
    settled(page, ".mp-btn[data-id=draw]")
    page.mouse.click(*centre(page, ".mp-btn[data-id=draw]"))
    assert page.evaluate("window.taps.map((t) => t.id)") == ["draw"], "a settled button took the tap through the redraws"
    page.evaluate("clearInterval(window.redrawing)")

    # The draw is made: "Keep it" is drawn where "Draw a card" was, at a new position; the second touch of a
    # double tap lands on it at once and is ignored. Once it has stood its moment, a tap on it is taken.
    finger = centre(page, ".mp-btn[data-id=draw]")
    marked = page.evaluate("""([blocks, [x, y]]) => { window.surface(blocks); window.touch(x, y);
        return document.querySelector('.mp-btn[data-id=keep]').getAttribute('aria-disabled'); }""",
                           [pad([5, 0], [("keep", "Keep it"), ("swap", "Swap it")]), finger])
    assert page.evaluate("window.taps.length") == 1, "a button newly drawn under the finger took a tap"
    assert marked == "true", "a button not yet settled says so"
    settled(page, ".mp-btn[data-id=keep]")
    page.mouse.click(*finger)
    assert page.evaluate("window.taps.map((t) => t.id)") == ["draw", "keep"]

    # The same buttons at the same position, in another order: under the finger now stands the other one.
    page.evaluate("([blocks, [x, y]]) => { window.surface(blocks); window.touch(x, y); }",
                  [pad([5, 0], [("swap", "Swap it"), ("keep", "Keep it")]), finger])
    assert page.evaluate("window.taps.length") == 2, "a button moved under the finger took a tap"
    settled(page, ".mp-btn[data-id=swap]")
    page.mouse.click(*finger)
    assert page.evaluate("window.taps.map((t) => t.id)") == ["draw", "keep", "swap"]

    # A shut fold's label newly drawn under the finger waits too (opening it is a tap like any other).
    marked = page.evaluate("""(blocks) => { window.surface(blocks);
        const r = document.querySelector('.sf-fold > summary').getBoundingClientRect();
        window.touch(r.left + r.width / 2, r.top + r.height / 2);
        return document.querySelector('.sf-fold > summary').getAttribute('aria-disabled'); }""",
                           [{"key": "log", "fold": "Moves so far (4)"}])
    assert page.evaluate("window.taps.length") == 3, "a fold's label newly drawn under the finger took a tap"
    assert marked == "true", "a fold's label not yet settled says so"
    settled(page, ".sf-fold > summary")
    page.mouse.click(*centre(page, ".sf-fold > summary"))
    assert page.evaluate("window.taps.at(-1)") == {"pad": "log", "open": True}

    # Controls no finger can reach (a fold's label and a pad in a box not displayed, as Streamlit hides one) are
    # out of the look, so the looks end once the label that shows has settled: none is taken while nothing
    # changes (a look measures every control; looking again every 20 ms without end loaded every phone).
    page.add_style_tag(content=".st-key-hidden { display: none; }")
    page.evaluate("(blocks) => window.surface(blocks)", [
        {"key": "said", "html": "<p>What just happened: Ann bet 2 chips.</p>"},
        {"key": "scores", "fold": "Scores"},
        {"key": "group-hidden", "group": "hidden", "blocks": [
            {"key": "inner-log", "fold": "Moves so far (4)"},
            {"key": "inner-pad", "pad": {"head": [6], "items": [{"kind": "button", "id": "x", "label": "X"}]}}]}])
    settled(page, ".st-key-scores summary")
    looks = page.evaluate("""() => new Promise((done) => {
        const measure = Element.prototype.getBoundingClientRect;
        let n = 0;
        Element.prototype.getBoundingClientRect = function () { n += 1; return measure.call(this); };
        setTimeout(() => { Element.prototype.getBoundingClientRect = measure; done(n); }, 600); })""")
    assert looks == 0, f"the page kept looking at controls no finger can reach ({looks} measures in 0.6 s)"


SQUARE = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><rect width='10' height='10' fill='%s'/></svg>"
ART = {"version": "t", "pieces": {"board": SQUARE % "#e8e0c8", "tile-grass": SQUARE % "#8c6", "unit-inf": SQUARE % "#24a"}}


def board(head: list[int], marks: list[list[Any]]) -> list[Any]:
    """A 4 x 1 strip of hexes (100 px apart on a 400 x 100 board), a unit on the first, `marks` drawn."""
    return ["board", {"size": [400, 100], "hex": [100, 87], "head": head, "hint": "Tap a hex",
                      "tiles": [[50 + 100 * i, 50, "grass"] for i in range(4)], "marks": marks,
                      "units": [{"art": "inf", "x": 50, "y": 50, "aspect": 1, "facing": 0, "colour": "#24a",
                                 "strength": 3, "broken": False, "selected": False}],
                      "labels": [], "arrows": []}]


def test_browser_a_board_tap_is_taken_only_where_the_board_stood(new_phone: Callable[[], Any]) -> None:
    page = mounted(new_phone, (components.frontend(HERE / "hexboard/board.js"), "hexboard"))
    page.evaluate("(art) => window.hexboard([\"art\", art])", ART)  # the art mount, as a server without its route sends it
    page.evaluate("(data) => window.hexboard(data)", board([7], []))
    settled(page, ".hb-svg")
    box = page.locator(".hb-svg").bounding_box()
    at = lambda bx: (box["x"] + bx * box["width"] / 400, box["y"] + 50 * box["width"] / 400)  # noqa: E731
    # A unit chosen: its destinations are drawn on the third hex, and a second touch lands there at once.
    page.evaluate("([data, [x, y]]) => { window.hexboard(data); window.touch(x, y); }",
                  [board([7], [[250, 50, "dest"]]), at(250)])
    assert page.evaluate("window.taps.length") == 0, "a mark drawn under the finger took a tap"
    page.evaluate("([data, [x, y]]) => { window.hexboard(data); window.touch(x, y); }",  # drawn again, the same
                  [board([7], [[250, 50, "dest"]]), at(350)])  # the fourth hex, unchanged since the start: taken
    assert page.evaluate("window.taps.map((t) => Math.floor(t.x / t.w * 4))") == [3]
    settled(page, ".hb-svg")
    page.mouse.click(*at(250))
    assert page.evaluate("window.taps.map((t) => Math.floor(t.x / t.w * 4))") == [3, 2]
