"""Small drawing helpers shared by the game components: colour mixing, hexagons, ellipses, arrows.

They are built from the canvas primitives only, so PDF, SVG and recorded output stay the same.
"""

from __future__ import annotations

import math

from generator.canvas import Canvas, Point


def mix(colour: str, other: str, t: float) -> str:
    """`colour` moved a fraction t of the way towards `other` ("#rrggbb"), e.g. a tint towards white."""
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b))


def hexagon(cx: float, cy: float, w: float, h: float) -> list[Point]:
    """A flat-topped hexagon `w` corner to corner and `h` flat to flat, clockwise from the left corner."""
    return [(cx - w / 2, cy), (cx - w / 4, cy - h / 2), (cx + w / 4, cy - h / 2),
            (cx + w / 2, cy), (cx + w / 4, cy + h / 2), (cx - w / 4, cy + h / 2)]


def hex_half_width(w: float, h: float, dy: float) -> float:
    """Half the width of a flat-topped hexagon at distance `dy` from its centre line."""
    return max(0.0, w / 2 - abs(dy) / h * w / 2)


def ellipse(cx: float, cy: float, rx: float, ry: float, steps: int = 32) -> list[Point]:
    """An ellipse as a polygon (the canvas has circles only)."""
    return [(cx + rx * math.cos(2 * math.pi * k / steps), cy + ry * math.sin(2 * math.pi * k / steps))
            for k in range(steps)]


def arrow(c: Canvas, start: Point, end: Point, colour: str, width: float, head: float) -> None:
    """A straight arrow from `start` to the tip at `end`: a shaft and a filled triangular head."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1)
    if length <= head:
        raise ValueError("an arrow must be longer than its head")
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    bx, by = x2 - ux * head, y2 - uy * head
    c.line(x1, y1, bx, by, stroke=colour, width=width)
    half = head * 0.45
    c.polygon([(x2, y2), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)], fill=colour)
