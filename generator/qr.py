"""QR codes drawn as vector modules with a quiet zone, so they stay sharp at any print size."""

from __future__ import annotations

from functools import cache

import qrcode
from qrcode.constants import ERROR_CORRECT_M

from generator.canvas import Box, Canvas, Rect

QUIET = 4  # modules of blank margin the QR standard asks for
MASK = 0   # a fixed mask pattern: choosing the "best" one costs 8x the time and any mask decodes


@cache
def matrix(data: str) -> tuple[tuple[bool, ...], ...]:
    """The smallest QR symbol for `data` (error correction M), without quiet zone."""
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0, mask_pattern=MASK)
    code.add_data(data)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


@cache
def modules(data: str) -> tuple[Rect, ...]:
    """The dark modules as few rectangles, in module units: horizontal runs, merged downwards when equal."""
    rows = matrix(data)
    open_runs: dict[tuple[int, int], list[int]] = {}   # (start, end) -> [top row, height]
    done: list[Rect] = []
    for r, row in enumerate(rows):
        runs = set()
        col = 0
        while col < len(row):
            if row[col]:
                start = col
                while col < len(row) and row[col]:
                    col += 1
                runs.add((start, col))
            col += 1
        for run in list(open_runs):
            if run not in runs:
                top, height = open_runs.pop(run)
                done.append((run[0], top, run[1] - run[0], height))
        for run in sorted(runs):
            if run in open_runs:
                open_runs[run][1] += 1
            else:
                open_runs[run] = [r, 1]
    done.extend((s, top, e - s, h) for (s, e), (top, h) in open_runs.items())
    return tuple(sorted(done, key=lambda b: (b[1], b[0])))


def draw_qr(c: Canvas, box: Box, data: str, ink: str = "#000000", paper: str = "#ffffff") -> None:
    """A square QR code (quiet zone included) as large as fits in `box`, centred in it."""
    n = len(matrix(data))
    side = min(box.w, box.h)
    module = side / (n + 2 * QUIET)
    x0 = box.x + (box.w - side) / 2
    y0 = box.y + (box.h - side) / 2
    c.rect(x0, y0, side, side, fill=paper)
    # Whole-module coordinates in a scaled group keep the output small and fast to write.
    with c.group(x0 + QUIET * module, y0 + QUIET * module, scale=module):
        c.rects(modules(data), fill=ink)
