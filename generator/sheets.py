"""Putting pieces on paper: centred grids with cut marks and mirrored back pages, or one piece per page.

A `Piece` is anything cut out of paper (card, token, counter, tile). It draws itself in
its own coordinates: (0, 0) is the top-left corner of the trim, and its artwork must
cover `bleed` mm past the trim on every side (the sheet clips what is not wanted).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cards.layout import CutMarks, SheetProfile, SingleProfile
from generator.canvas import Box, Canvas, Document, SvgDocument

Draw = Callable[[Canvas, float], None]
"""Draws one side of a piece: draw(canvas, bleed)."""


@dataclass(frozen=True)
class Piece:
    """One cut-out piece. Pieces with the same `back_key` have identical backs (a shop gets that back
    once); pieces with the same non-empty `design` have identical fronts (rendered once, then copied)."""

    name: str
    width: float
    height: float
    bleed: float
    front: Draw
    back: Draw | None = None
    back_key: str = "back"
    design: str = ""
    title: str = ""  # what a player calls it (a virtual tabletop's card name); `name` if empty


@dataclass(frozen=True)
class Slot:
    """Where a piece sits on a page: its trim box and the box its artwork is clipped to."""

    trim: Box
    clip: Box


def grid(page: tuple[float, float], profile: SheetProfile, width: float, height: float,
         bleed: float) -> list[Slot]:
    """The slots of one page, row by row, centred; inner edges bleed only into half the gutter.

    The profile's columns and rows are the grid for cards (they may eat into the margin, as
    3 rows of poker cards do on Letter); smaller pieces fill as much of the page as the margin allows.
    """
    pw, ph = page
    gutter = profile.gutter
    columns = max(profile.columns or 0, _fit(pw - 2 * profile.margin, width, gutter, bleed))
    rows = max(profile.rows or 0, _fit(ph - 2 * profile.margin, height, gutter, bleed))
    if columns < 1 or rows < 1:
        raise ValueError(f"a {width} x {height} mm piece does not fit on {profile.paper} paper")
    left = (pw - (columns * width + (columns - 1) * gutter)) / 2
    top = (ph - (rows * height + (rows - 1) * gutter)) / 2
    inner = min(bleed, gutter / 2)
    slots = []
    for r in range(rows):
        for c in range(columns):
            x, y = left + c * (width + gutter), top + r * (height + gutter)
            bl = bleed if c == 0 else inner
            br = bleed if c == columns - 1 else inner
            bt = bleed if r == 0 else inner
            bb = bleed if r == rows - 1 else inner
            slots.append(Slot(Box(x, y, width, height), Box(x - bl, y - bt, width + bl + br, height + bt + bb)))
    return slots


def _fit(space: float, size: float, gutter: float, bleed: float) -> int:
    return int((space - 2 * bleed + gutter) // (size + gutter))


def mirrored(slots: Sequence[Slot], page_width: float) -> list[Slot]:
    """The same slots seen from the back of the sheet (long-edge duplex flips left and right)."""
    def flip(box: Box) -> Box:
        return Box(page_width - box.right, box.y, box.w, box.h)
    return [Slot(flip(s.trim), flip(s.clip)) for s in slots]


def extent(boxes: Sequence[Box]) -> Box:
    """The smallest box holding all of them: a sheet's cut area (trims) or its printed area (clips)."""
    left, top = min(b.x for b in boxes), min(b.y for b in boxes)
    return Box(left, top, max(b.right for b in boxes) - left, max(b.bottom for b in boxes) - top)


def place(c: Canvas, piece_side: Draw, slot: Slot, bleed: float) -> None:
    """Draw one side of a piece into a slot, clipped to the slot's bleed box."""
    clip = Box(slot.clip.x - slot.trim.x, slot.clip.y - slot.trim.y, slot.clip.w, slot.clip.h)
    with c.group(slot.trim.x, slot.trim.y, clip=clip):
        piece_side(c, bleed)


def cut_marks(c: Canvas, slots: Sequence[Slot], page: tuple[float, float], marks: CutMarks) -> None:
    """Short lines in the margin continuing every cut line; they stay on the page, never over a piece."""
    pw, ph = page
    left = min(s.clip.x for s in slots)
    right = max(s.clip.right for s in slots)
    top = min(s.clip.y for s in slots)
    bottom = max(s.clip.bottom for s in slots)
    xs = sorted({round(v, 6) for s in slots for v in (s.trim.x, s.trim.right)})
    ys = sorted({round(v, 6) for s in slots for v in (s.trim.y, s.trim.bottom)})
    style = {"stroke": marks.colour, "width": marks.width}
    for x in xs:
        for start, room, sign in ((top - marks.offset, top - marks.offset, -1),
                                  (bottom + marks.offset, ph - bottom - marks.offset, 1)):
            length = min(marks.length, room)
            if length > 0:
                c.line(x, start, x, start + sign * length, **style)
    for y in ys:
        for start, room, sign in ((left - marks.offset, left - marks.offset, -1),
                                  (right + marks.offset, pw - right - marks.offset, 1)):
            length = min(marks.length, room)
            if length > 0:
                c.line(start, y, start + sign * length, y, **style)


def draw_sheets(doc: Document, pieces: Sequence[Piece], profile: SheetProfile, page: tuple[float, float],
                backs: bool = True) -> int:
    """Pieces (all one size and bleed) on as many pages as needed: each front page followed by its
    mirrored backs. Returns the number of pages drawn."""
    if not pieces:
        return 0
    width, height, bleed = pieces[0].width, pieces[0].height, pieces[0].bleed
    if any((p.width, p.height, p.bleed) != (width, height, bleed) for p in pieces):
        raise ValueError("draw_sheets needs pieces of one size and bleed; call it once per size")
    slots = grid(page, profile, width, height, bleed)
    backs_slots = mirrored(slots, page[0])
    pages = 0
    for start in range(0, len(pieces), len(slots)):
        batch = pieces[start:start + len(slots)]
        with doc.page(*page, trim=extent([s.trim for s in slots]), bleed=extent([s.clip for s in slots])) as c:
            for piece, slot in zip(batch, slots):
                place(c, piece.front, slot, bleed)
            cut_marks(c, slots, page, profile.cut_marks)
        pages += 1
        if backs and any(p.back for p in batch):
            with doc.page(*page, trim=extent([s.trim for s in backs_slots]),
                          bleed=extent([s.clip for s in backs_slots]), back=True) as c:
                for piece, slot in zip(batch, backs_slots):
                    if piece.back is not None:
                        place(c, piece.back, slot, bleed)
            pages += 1
    return pages


def single_order(pieces: Sequence[Piece], profile: SingleProfile, backs: bool = True) -> list[tuple[str, Piece, Draw]]:
    """(file stem, piece, side) in the order the shop wants: distinct backs once, or a back after every front."""
    fronts = [(p.name, p, p.front) for p in pieces]
    if not backs:
        return fronts
    if profile.order in ("interleaved", "back-front"):
        out: list[tuple[str, Piece, Draw]] = []
        for p in pieces:
            pair = [(p.name, p, p.front)] + ([(f"{p.name}-back", p, p.back)] if p.back is not None else [])
            out.extend(pair if profile.order == "interleaved" else pair[::-1])
        return out
    distinct: dict[str, tuple[str, Piece, Draw]] = {}
    for p in pieces:
        if p.back is not None and p.back_key not in distinct:
            distinct[p.back_key] = (p.back_key, p, p.back)
    backs_list = list(distinct.values())
    return backs_list + fronts if profile.order == "backs-first" else fronts + backs_list


def draw_singles(doc: Document, pieces: Sequence[Piece], profile: SingleProfile,
                 backs: bool = True) -> list[str]:
    """One side per page at the shop's exact size, the piece centred, its artwork filling the page.

    Returns the file stem of every page, in order (for naming PNGs cut from it)."""
    pw, ph = profile.size_mm
    stems = []
    for stem, piece, side in single_order(pieces, profile, backs):
        bleed = max(pw - piece.width, ph - piece.height) / 2
        x, y = (pw - piece.width) / 2, (ph - piece.height) / 2
        with doc.page(pw, ph, trim=Box(x, y, piece.width, piece.height)) as c:
            with c.group(x, y, clip=Box(-x, -y, pw, ph)):
                side(c, bleed)
        stems.append(stem)
    return stems


def piece_svg(piece: Piece, back: bool = False) -> str:
    """One side of a piece as an SVG string at its trim size (e.g. a hexbattle counter for the board view)."""
    side = piece.back if back and piece.back is not None else piece.front
    doc = SvgDocument(Path("."), piece.name)
    with doc.page(piece.width, piece.height) as c, c.group(clip=Box(0, 0, piece.width, piece.height)):
        side(c, 0.0)
    return doc.strings()[0]
