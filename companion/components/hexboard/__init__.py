"""The tappable hexbattle board: a Streamlit components-v2 element (board.js, board.css; no build step).

Why a custom component: taps must land on a hex at any zoom, the board must pan and zoom by
touch, and the artwork must cross the wire once. `streamlit-image-coordinates` sends a whole
image every redraw and knows no zoom; a chart with selection events would redraw the
generator's drawings as chart marks. Components v2 is Streamlit's own, maintained API
(no iframe, trigger values for one-off taps) and lets the browser compose the board from
the printed pieces.

Two mounts: `art` carries the generator's drawings and never changes during a game, so
Streamlit's message cache sends it once per page load; `board` carries a small overlay.
`hex_at` turns a reported tap into a hex, for every zoom level the frontend offers.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st

from companion.components import surface
from generator.canvas import SvgDocument
from generator.hexbattle_parts import (
    BoardGeometry,
    board_geometry,
    counter_svg,
    draw_board,
    part_layout,
    tile_svg,
)

HERE = Path(__file__).parent
ZOOMS = (1.0, 1.5, 2.0)
"""The zoom levels of board.js (keep the two lists equal); 1 fits the board to the screen's width."""

_board = st.components.v2.component(
    "muster_hexboard", html="", css=(HERE / "board.css").read_text(encoding="utf-8"),
    js=(HERE / "board.js").read_text(encoding="utf-8"))


def _unique_ids(svg: str, prefix: str) -> str:
    """Clip-path ids are numbered per SVG document; prefixed, many drawings can share one page."""
    return re.sub(r'(id="|url\(#)(c\d+)', rf"\1{prefix}-\2", svg)


_ART: dict[int, tuple[Any, dict[str, Any]]] = {}


def art(data: Any) -> dict[str, Any]:
    """The printed board, every terrain tile face and every unit counter, drawn by the generator
    (once per process and game data)."""
    known = _ART.get(id(data))
    if known is not None and known[0] is data:
        return known[1]
    geo = board_geometry(data)
    doc = SvgDocument(folder=None, stem="board")  # type: ignore[arg-type]  # strings() only; nothing is saved
    with doc.page(geo.width, geo.height) as c:
        draw_board(c, data)
    pieces = {"board": doc.strings()[0]}
    for terrain in data.table("terrain"):
        pieces[f"tile-{terrain.id}"] = tile_svg(data, terrain.id)
    for army in data.table("armies"):
        for unit in data.table("units"):
            pieces[f"unit-{army.id}-{unit.id}"] = counter_svg(data, army.id, unit.id)
    pieces = {name: _unique_ids(svg, name) for name, svg in pieces.items()}
    version = hashlib.sha256("".join(pieces.values()).encode()).hexdigest()[:16]
    _ART[id(data)] = (data, {"version": version, "pieces": pieces})
    return _ART[id(data)][1]


def counter_aspect(data: Any) -> float:
    layout = part_layout(data, "counter_layout")
    return float(layout.width / layout.height)


def show(data: Any, board: dict[str, Any], on_tap: Callable[[], None], key: str = "hexboard") -> None:
    """Mount the art (cached by Streamlit after the first time) and the board with its overlay."""
    surface.flush()  # Streamlit's own elements follow: what the surface gathered goes first
    with st.container(key=f"{key}-art"):
        _board(data=["art", art(data)], key=f"{key}-art-carrier")
    _board(data=["board", board], key=key, on_tap_change=on_tap)  # lists, not dicts: why in `surface`


def tap(key: str = "hexboard") -> dict[str, Any] | None:
    """The tap that triggered this run ({x, y, w} in CSS pixels on the drawn board), read in the callback."""
    result = st.session_state.get(key)
    value = getattr(result, "tap", None) if result is not None else None
    return value if isinstance(value, dict) else None


def hex_at(geo: BoardGeometry, x: float, y: float, drawn_width: float) -> tuple[int, int] | None:
    """The (col, row) of the hex under a tap at (x, y) CSS pixels on a board drawn `drawn_width` wide,
    or None off the map. The drawn width carries the zoom; the board keeps its aspect ratio."""
    if drawn_width <= 0:
        return None
    scale = geo.width / drawn_width
    bx, by = x * scale, y * scale
    best: tuple[float, tuple[int, int]] | None = None
    for col in range(geo.columns):
        for row in range(geo.rows):
            cx, cy = geo.centre(col, row)
            d = (bx - cx) ** 2 + (by - cy) ** 2
            if best is None or d < best[0]:
                best = (d, (col, row))
    assert best is not None
    col, row = best[1]
    cx, cy = geo.centre(col, row)
    # The nearest centre owns the point if it lies inside that flat-topped hexagon.
    dx, dy = abs(bx - cx), abs(by - cy)
    half_w, half_h = geo.hex_w / 2, geo.hex_h / 2
    inside = dy <= half_h and dx <= half_w - dy * (half_w / 2) / half_h
    return best[1] if inside else None


def centre(geo: BoardGeometry, hex_id: str) -> tuple[float, float]:
    col, row = (int(v) for v in hex_id.split(","))
    return geo.centre(col, row)


__all__ = ["ZOOMS", "art", "centre", "counter_aspect", "hex_at", "show", "tap"]
