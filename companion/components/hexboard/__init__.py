"""The tappable hexbattle board: a Streamlit components-v2 element (board.js, board.css; no build step).

Why a custom component: taps must land on a hex at any zoom, the board must pan and zoom by
touch, and the artwork must cross the wire once. `streamlit-image-coordinates` sends a whole
image every redraw and knows no zoom; a chart with selection events would redraw the
generator's drawings as chart marks. Components v2 is Streamlit's own, maintained API
(no iframe, trigger values for one-off taps) and lets the browser compose the board from
the printed pieces.

Two mounts: `art` says where the generator's drawings are (`serve_art`: they never change during a game,
so the phone's browser keeps them) and is drawn outside the part of the page a move redraws
(`mount_art`); `board` carries a small overlay.
`hex_at` turns a reported tap into a hex, for every zoom level the frontend offers.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st

from companion import components, paths
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

# board.css is one of the page's style sheets (`page_styles.STYLE_SHEETS`), as the surface's is, not the element's
# own: Streamlit sends an element's CSS inside it at every redraw (3.5 KB of each tap's board).
BOARD = components.Frontend("muster_hexboard", components.frontend(HERE / "board.js"),
                             {"html": "", "isolate_styles": False})


ART_PATH = "_muster/art"  # the artwork by its version (`serve_art`), when the server has the route
_ART: dict[int, tuple[Any, dict[str, Any]]] = {}
_ART_JSON: dict[str, bytes] = {}  # version -> the artwork as it is served


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
    version = hashlib.sha256("".join(pieces.values()).encode()).hexdigest()[:16]
    _ART[id(data)] = (data, {"version": version, "pieces": pieces})
    _ART_JSON[version] = json.dumps(_ART[id(data)][1]).encode()
    return _ART[id(data)][1]


async def serve_art(request: Any) -> Any:
    """GET the artwork of a version (`companion.routes`): a file the phone's browser keeps, so a page drawn
    again, by the phone or by the server (which cannot tell what the phone holds), never carries it."""
    from starlette.responses import JSONResponse, Response

    served = _ART_JSON.get(request.path_params["version"])
    if served is None:
        return JSONResponse({"error": "No such board artwork; reload the page."}, status_code=404)
    return Response(served, media_type="application/json", headers={"Cache-Control": paths.KEEP})  # a version's never changes


def counter_aspect(data: Any) -> float:
    layout = part_layout(data, "counter_layout")
    return float(layout.width / layout.height)


def mount_art(data: Any, key: str = "hexboard") -> None:
    """Mount the art, which shows nothing itself (the board draws from it), outside the part of the page a move
    redraws: where to fetch it (`serve_art`), or, on a server without the route, the art itself. Streamlit
    sends a large element again unless the phone says it holds it, and a phone says so only when it asks for
    a run itself: a redraw the server starts (another phone's move) would carry 300 KB again."""
    drawn = art(data)
    carried = {"version": drawn["version"], "path": f"{ART_PATH}/{drawn['version']}"} if paths.installed() else drawn
    with st.container(key=f"{key}-art"):
        BOARD(data=["art", carried], key=f"{key}-art-carrier")


def show(data: Any, board: dict[str, Any], on_tap: Callable[[dict[str, Any] | None], None],
         key: str = "hexboard") -> None:
    """Mount the board with its overlay (its art is `mount_art`'s); `on_tap` gets each tap ({x, y, w, head}: CSS
    pixels on the drawn board), sent as the element's trigger, or None for a report that is no tap."""
    surface.flush()  # Streamlit's own elements follow: what the surface gathered goes first
    BOARD(data=["board", board], key=key, on_tap_change=lambda: on_tap(tap(key)))  # lists, not dicts: why in `surface`


def tap(key: str = "hexboard") -> dict[str, Any] | None:
    """The tap that triggered this run through Streamlit, read in the callback."""
    return _as_tap(surface.sent_tap(key))


def _as_tap(value: Any) -> dict[str, Any] | None:
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


__all__ = ["ART_PATH", "BOARD", "ZOOMS", "art", "centre", "counter_aspect", "hex_at", "mount_art", "serve_art", "show",
           "tap"]
