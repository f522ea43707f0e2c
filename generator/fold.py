"""Fold-over sheets: each front beside its back, mirrored across a fold line, printed single-sided.

Duplex printers shift the back side by millimetres; a fold-over sheet has no back side. The
page (turned landscape when that holds more) is split by a vertical fold line: fronts fill
the left half, and each back sits at the mirror image of its front on the right half, so
folding the sheet along the line puts every back exactly behind its front. Fold, glue the
halves, then cut along the marks. Pieces without backs (counters) go on ordinary sheets.
"""

from __future__ import annotations

from collections.abc import Sequence

from cards.layout import FoldProfile
from generator.canvas import Box, Document
from generator.sheets import Mark, Piece, Slot, cut_marks, draw_sheets, extent, place, scale_bar


def fold_slots(page: tuple[float, float], profile: FoldProfile, width: float, height: float,
               bleed: float) -> tuple[list[Slot], list[Slot]]:
    """(front slots, back slots) of one page, row by row; back k is front k mirrored across x = page width / 2."""
    pw, ph = page
    fold = pw / 2
    columns = int((fold - profile.fold_gap - profile.margin - bleed) // width)
    rows = max(profile.rows or 0, int((ph - 2 * profile.margin - 2 * bleed) // height)) if columns else 0
    if columns < 1 or rows < 1:
        raise ValueError(f"a {width} x {height} mm piece does not fit beside its back on {profile.paper} paper")
    left = fold - profile.fold_gap - columns * width
    top = (ph - rows * height) / 2
    inner = min(bleed, profile.fold_gap)
    fronts, backs = [], []
    for r in range(rows):
        for c in range(columns):
            trim = Box(left + c * width, top + r * height, width, height)
            bl = bleed if c == 0 else 0.0
            br = inner if c == columns - 1 else 0.0
            bt = bleed if r == 0 else 0.0
            bb = bleed if r == rows - 1 else 0.0
            clip = Box(trim.x - bl, trim.y - bt, width + bl + br, height + bt + bb)
            fronts.append(Slot(trim, clip))
            backs.append(Slot(_mirror(trim, fold), _mirror(clip, fold)))
    return fronts, backs


def _mirror(box: Box, fold: float) -> Box:
    return Box(2 * fold - box.right, box.y, box.w, box.h)


def page_for(paper: tuple[float, float], profile: FoldProfile, width: float, height: float,
             bleed: float) -> tuple[float, float]:
    """The paper upright or turned landscape, whichever holds more pieces beside their backs."""
    best, most = paper, -1
    for page in (paper, (paper[1], paper[0])):
        try:
            count = len(fold_slots(page, profile, width, height, bleed)[0])
        except ValueError:
            continue
        if count > most:
            best, most = page, count
    return best


def draw_folded(doc: Document, pieces: Sequence[Piece], profile: FoldProfile, paper: tuple[float, float],
                backs: bool = True) -> int:
    """Pieces (one size and bleed) on fold-over pages; returns the number of pages drawn."""
    if not pieces:
        return 0
    width, height, bleed = pieces[0].width, pieces[0].height, pieces[0].bleed
    if not backs or all(p.back is None for p in pieces):
        return draw_sheets(doc, pieces, profile, paper, backs=False)
    page = page_for(paper, profile, width, height, bleed)
    fronts, back_slots = fold_slots(page, profile, width, height, bleed)
    slots = fronts + back_slots
    fold = page[0] / 2
    line = profile.fold_line
    pages = 0
    for start in range(0, len(pieces), len(fronts)):
        batch = pieces[start:start + len(fronts)]
        with doc.page(*page, trim=extent([s.trim for s in slots]), bleed=extent([s.clip for s in slots])) as c:
            for piece, front, back in zip(batch, fronts, back_slots):
                place(c, piece.front, front, bleed)
                if piece.back is not None:
                    place(c, piece.back, back, bleed)
            c.line(fold, profile.margin, fold, page[1] - profile.margin, stroke=line.colour, width=line.width,
                   dash=line.dash)
            placed = cut_marks(c, slots, page, profile.cut_marks, profile.margin)
            # the fold line counts as a mark: the bar goes beside it, never across it
            scale_bar(c, slots, page, [*placed, Mark(fold, profile.margin, fold, page[1] - profile.margin, False)],
                      profile.margin, profile.cut_marks.colour)
        pages += 1
    return pages
