"""QR codes drawn as vector modules with a quiet zone, so they stay sharp at any print size."""

from __future__ import annotations

from functools import cache

import qrcode
from qrcode.constants import ERROR_CORRECT_M

from generator.canvas import Box, Canvas, Point

QUIET = 4  # modules of blank margin the QR standard asks for
MASK = 0   # a fixed mask pattern: choosing the "best" one costs 8x the time and any mask decodes


@cache
def matrix(data: str) -> tuple[tuple[bool, ...], ...]:
    """The smallest QR symbol for `data` (error correction M), without quiet zone."""
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0, mask_pattern=MASK)
    code.add_data(data)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


def draw_qr(c: Canvas, box: Box, data: str, ink: str = "#000000", paper: str = "#ffffff") -> None:
    """A square QR code (quiet zone included) as large as fits in `box`, centred in it.

    Dark modules are merged into horizontal runs and painted as one shape."""
    rows = matrix(data)
    n = len(rows)
    side = min(box.w, box.h)
    module = side / (n + 2 * QUIET)
    x0 = box.x + (box.w - side) / 2
    y0 = box.y + (box.h - side) / 2
    c.rect(x0, y0, side, side, fill=paper)
    rings: list[list[Point]] = []
    for r, row in enumerate(rows):
        col = 0
        while col < n:
            if not row[col]:
                col += 1
                continue
            start = col
            while col < n and row[col]:
                col += 1
            rings.append([(start, r), (col, r), (col, r + 1), (start, r + 1)])
    # Whole-module coordinates in a scaled group keep the output small and fast to write.
    with c.group(x0 + QUIET * module, y0 + QUIET * module, scale=module):
        c.polygons(rings, fill=ink)
