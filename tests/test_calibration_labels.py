"""The duplex calibration sheet's words and numbers: measured by their glyphs' ink boxes (fontTools), no two
touch, and none leaves the page's printable area."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import pytest
from fontTools.ttLib import TTFont

from cards.layout import load_profiles
from generator import calibration
from generator.canvas import Box, RecordingDocument
from generator.fonts import FONT_DIR, PT


@cache
def _font(name: str) -> TTFont:
    return TTFont(str(FONT_DIR / f"{name}.ttf"))


def ink_box(x: float, y: float, s: str, font: str, size: float, anchor: str) -> Box | None:
    """The box the glyphs of a text call cover, in mm (None for blank text)."""
    tt = _font(font)
    scale = size * PT / tt["head"].unitsPerEm
    cmap, glyf, hmtx = tt.getBestCmap(), tt["glyf"], tt["hmtx"]
    pen, boxes = 0.0, []
    for ch in s:
        name = cmap[ord(ch)]
        glyph = glyf[name]
        if glyph.numberOfContours:
            boxes.append((pen + glyph.xMin, glyph.yMin, pen + glyph.xMax, glyph.yMax))
        pen += hmtx[name][0]
    if not boxes:
        return None
    left = x - {"start": 0.0, "middle": pen / 2, "end": pen}[anchor] * scale
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    return Box(left + x0 * scale, y - y1 * scale, (x1 - x0) * scale, (y1 - y0) * scale)


def _overlap(a: Box, b: Box) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.bottom and b.y < a.bottom


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_two_labels_of_the_calibration_sheet_overlap(paper: str) -> None:
    page = load_profiles().papers[paper]
    doc = RecordingDocument()
    calibration.draw(doc, page)
    for recorded in doc.pages:
        boxes = []
        for call in recorded.ops("text"):
            a = call.args
            box = ink_box(call.origin[0] + a["x"], call.origin[1] + a["y"], a["s"], a["font"], a["size"], a["anchor"])
            if box is not None:
                boxes.append((a["s"], box))
        assert len(boxes) > 50 or recorded is doc.pages[1]
        touching = [(s, t) for (s, a), (t, b) in combinations(boxes, 2) if _overlap(a, b)]
        assert touching == []
        for s, box in boxes:
            assert 5.0 <= box.x and box.right <= page[0] - 5.0 and 5.0 <= box.y and box.bottom <= page[1] - 5.0, s
            assert box.h >= 6 * 0.7 * PT  # 6 pt type: its digits stand 1.5 mm tall
