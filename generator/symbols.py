"""Vector symbols named by CardFace.symbol, in the style of military map symbols.

Units sit in a 3:2 frame: infantry a cross, cavalry a diagonal, artillery a dot. Every
symbol is drawn centred in the box it is given, as large as fits, in `ink` on `paper`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from generator.canvas import Box, Canvas, Point
from generator.icons import draw_icon

Symbol = Callable[[Canvas, Box, str, str], None]
FRAME_RATIO = 1.5  # width : height of a unit frame


def _frame(box: Box, ratio: float = FRAME_RATIO) -> Box:
    w = min(box.w, box.h * ratio)
    h = w / ratio
    return Box(box.cx - w / 2, box.cy - h / 2, w, h)


def _stroke(box: Box) -> float:
    return max(min(box.w, box.h) / 22, 0.15)


def _unit(c: Canvas, box: Box, ink: str, paper: str) -> Box:
    frame = _frame(box)
    c.rect(frame.x, frame.y, frame.w, frame.h, fill=paper, stroke=ink, width=_stroke(box))
    return frame


def _cross(c: Canvas, f: Box, ink: str, width: float) -> None:
    c.line(f.x, f.y, f.right, f.bottom, stroke=ink, width=width)
    c.line(f.x, f.bottom, f.right, f.y, stroke=ink, width=width)


def infantry(c: Canvas, box: Box, ink: str, paper: str) -> None:
    _cross(c, _unit(c, box, ink, paper), ink, _stroke(box))


def light(c: Canvas, box: Box, ink: str, paper: str) -> None:
    """Infantry with a bugle-horn bar: the cross plus a short bar above the frame's centre."""
    below = Box(box.x, box.y + box.h * 0.2, box.w, box.h * 0.8)
    f = _frame(below)
    c.rect(f.x, f.y, f.w, f.h, fill=paper, stroke=ink, width=_stroke(box))
    _cross(c, f, ink, _stroke(box))
    c.rect(f.cx - f.w / 6, f.y - f.h / 5, f.w / 3, f.h / 10, fill=ink)


def cavalry(c: Canvas, box: Box, ink: str, paper: str) -> None:
    f = _unit(c, box, ink, paper)
    c.line(f.x, f.bottom, f.right, f.y, stroke=ink, width=_stroke(box))


def artillery(c: Canvas, box: Box, ink: str, paper: str) -> None:
    f = _unit(c, box, ink, paper)
    c.circle(f.cx, f.cy, f.h / 5, fill=ink)


def musket(c: Canvas, box: Box, ink: str, paper: str) -> None:
    """Musketeers: the infantry cross with a dot where the lines meet."""
    f = _unit(c, box, ink, paper)
    _cross(c, f, ink, _stroke(box))
    c.circle(f.cx, f.cy, f.h / 7, fill=ink)


def pike(c: Canvas, box: Box, ink: str, paper: str) -> None:
    """Pikemen: an upright spear through the frame."""
    f = _unit(c, box, ink, paper)
    w = _stroke(box)
    c.line(f.cx, f.bottom, f.cx, f.y + f.h * 0.3, stroke=ink, width=w)
    c.polygon([(f.cx, f.y + f.h * 0.08), (f.cx + f.h * 0.12, f.y + f.h * 0.35),
               (f.cx - f.h * 0.12, f.y + f.h * 0.35)], fill=ink)


def officer(c: Canvas, box: Box, ink: str, paper: str) -> None:
    """A headquarters: the frame on a staff."""
    f = _frame(Box(box.x, box.y, box.w, box.h * 0.72))
    w = _stroke(box)
    c.rect(f.x, f.y, f.w, f.h, fill=paper, stroke=ink, width=w)
    c.line(f.x, f.y, f.x, box.bottom, stroke=ink, width=w)
    c.line(f.x, f.bottom, f.right, f.y, stroke=ink, width=w / 2)


def _star(cx: float, cy: float, r: float, points: int = 5) -> list[Point]:
    out = []
    for k in range(points * 2):
        radius = r if k % 2 == 0 else r * 0.42
        angle = -math.pi / 2 + k * math.pi / points
        out.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return out


def leader(c: Canvas, box: Box, ink: str, paper: str) -> None:
    r = min(box.w, box.h) / 2
    c.polygon(_star(box.cx, box.cy + r * 0.08, r), fill=ink, stroke=ink, width=_stroke(box) / 2)


def morale(c: Canvas, box: Box, ink: str, paper: str) -> None:
    """A pennant on a staff."""
    s = min(box.w, box.h)
    x0, y0 = box.cx - s * 0.3, box.cy - s / 2
    c.line(x0, y0, x0, y0 + s, stroke=ink, width=_stroke(box))
    c.polygon([(x0, y0), (x0 + s * 0.65, y0 + s * 0.2), (x0, y0 + s * 0.42)], fill=ink)


def terrain(c: Canvas, box: Box, ink: str, paper: str) -> None:
    """Two hills."""
    s = min(box.w / 1.4, box.h)
    base = box.cy + s / 2
    left = box.cx - s * 0.7
    c.polygon([(left, base), (left + s * 0.45, box.cy - s / 2), (left + s * 0.9, base)], fill=ink)
    c.polygon([(left + s * 0.55, base), (left + s * 0.95, box.cy - s * 0.1), (left + s * 1.4, base)],
              fill=paper, stroke=ink, width=_stroke(box))


def blunder(c: Canvas, box: Box, ink: str, paper: str) -> None:
    """A lightning bolt."""
    s = min(box.w, box.h)
    x, y = box.cx - s / 2, box.cy - s / 2
    pts = [(0.55, 0.0), (0.2, 0.55), (0.45, 0.55), (0.35, 1.0), (0.8, 0.4), (0.55, 0.4), (0.7, 0.0)]
    c.polygon([(x + px * s, y + py * s) for px, py in pts], fill=ink)


def event(c: Canvas, box: Box, ink: str, paper: str) -> None:
    """An exclamation mark in a ring."""
    r = min(box.w, box.h) / 2
    w = _stroke(box)
    c.circle(box.cx, box.cy, r - w, fill=paper, stroke=ink, width=w * 1.5)
    c.rect(box.cx - r * 0.11, box.cy - r * 0.6, r * 0.22, r * 0.75, fill=ink)
    c.circle(box.cx, box.cy + r * 0.42, r * 0.13, fill=ink)


def token(c: Canvas, box: Box, ink: str, paper: str) -> None:
    """A round marker."""
    r = min(box.w, box.h) / 2
    w = _stroke(box)
    c.circle(box.cx, box.cy, r - w, fill=paper, stroke=ink, width=w * 1.5)
    c.circle(box.cx, box.cy, r * 0.45, fill=ink)


SYMBOLS: dict[str, Symbol] = {
    "infantry": infantry, "light": light, "cavalry": cavalry, "artillery": artillery,
    "officer": officer, "event": event, "leader": leader, "morale": morale, "terrain": terrain,
    "blunder": blunder, "pike": pike, "musket": musket, "token": token,
}


def draw_symbol(c: Canvas, name: str, box: Box, ink: str, paper: str) -> None:
    """Draw the named symbol (KeyError naming the known ones for an unknown name)."""
    if name not in SYMBOLS:
        raise KeyError(f"unknown symbol '{name}' (known: {', '.join(SYMBOLS)})")
    SYMBOLS[name](c, box, ink, paper)


def draw_picture(c: Canvas, icon: str | None, symbol: str | None, box: Box, ink: str, paper: str) -> None:
    """A unit's or card's picture: its game-icons.net icon when the data names one, else its map symbol.

    Why pictures first: cards, counters, tiles and reference diagrams show a unit one way (the
    picture on its cards), read without a key; the map symbols are what a row without an icon
    falls back to."""
    if icon:
        draw_icon(c, icon, box, ink)
    elif symbol:
        draw_symbol(c, symbol, box, ink, paper)
