"""Putting pieces on paper: centred grids with cut marks and mirrored back pages, or one piece per page.

A `Piece` is anything cut out of paper (card, token, counter, tile). It draws itself in
its own coordinates: (0, 0) is the top-left corner of the trim, and its artwork must
cover `bleed` mm past the trim on every side (the sheet clips what is not wanted).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from weakref import WeakKeyDictionary

from cards.layout import PRINT_MIN_PT, CutMarks, SheetProfile, SingleProfile
from generator.canvas import Box, Canvas, Document, RecordingCanvas, SvgDocument

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
    shape: str = "rect"  # its cut: "rect", "circle" or "hexagon" (in its box), as cards/layouts.toml names them


@dataclass(frozen=True)
class Slot:
    """Where a piece sits on a page: its trim box and the box its artwork is clipped to."""

    trim: Box
    clip: Box


SCALE_BAR = 50.0        # mm: the length of the printed scale check
SCALE_LABEL = "print at 100% \u2014 this bar is 50 mm"
SCALE_FONT = "DejaVuSansCondensed"
SCALE_SIZE = PRINT_MIN_PT  # pt
SCALE_DEPTH = 3.8       # mm across the bar and its label
MARK_GAP = 1.0         # mm between the cut marks of two blocks of pieces on one page
UNDERLAY = "#ffffff"    # under a cut mark that crosses artwork, so it shows on dark bleed


def grid(page: tuple[float, float], profile: SheetProfile, width: float, height: float,
         bleed: float, top: float | None = None) -> list[Slot]:
    """The slots of one page, row by row, centred; inner edges bleed only into half the gutter, and
    no artwork comes nearer the page edge than the profile's margin (printers cannot print there).

    The profile's columns and rows are the grid for cards (they may eat into the margin, as
    3 rows of poker cards do on Letter: their outer bleed is then clipped at the margin); smaller
    pieces fill the page inside the margin while leaving room for the cut marks and the scale bar.
    With `top` (mm), only the part of the page below it is filled, from there down, and a grid
    that does not fit is empty: the room left under the pieces already on a short last sheet.
    """
    pw, ph = page
    gutter = profile.gutter
    room = profile.margin + max(profile.cut_marks.length + profile.cut_marks.offset, SCALE_DEPTH + 0.5)
    if top is None:
        columns = max(profile.columns or 0, _fit(pw - 2 * room, width, gutter, bleed))
        rows = max(profile.rows or 0, _fit(ph - 2 * room, height, gutter, bleed))
        if columns < 1 or rows < 1:
            raise ValueError(f"a {width} x {height} mm piece does not fit on {profile.paper} paper")
        first = (ph - (rows * height + (rows - 1) * gutter)) / 2
    else:
        columns = _fit(pw - 2 * room, width, gutter, bleed)
        rows = _fit(ph - room - top, height, gutter, bleed)
        if columns < 1 or rows < 1:
            return []
        first = top + bleed
    left = (pw - (columns * width + (columns - 1) * gutter)) / 2
    inner = min(bleed, gutter / 2)
    m = profile.margin
    slots = []
    for r in range(rows):
        for c in range(columns):
            x, y = left + c * (width + gutter), first + r * (height + gutter)
            bl = bleed if c == 0 else inner
            br = bleed if c == columns - 1 else inner
            bt = bleed if r == 0 else inner
            bb = bleed if r == rows - 1 else inner
            cx, cy = max(x - bl, m), max(y - bt, m)
            clip = Box(cx, cy, min(x + width + br, pw - m) - cx, min(y + height + bb, ph - m) - cy)
            slots.append(Slot(Box(x, y, width, height), clip))
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
        draw_side(c, piece_side, bleed)


_RECORDED: WeakKeyDictionary[Draw, dict[float, RecordingCanvas]] = WeakKeyDictionary()
"""Each side's drawing per bleed, for as long as the side itself lives (a build's piece sets)."""


def draw_side(c: Canvas, side: Draw, bleed: float) -> None:
    """One side of a piece: drawn once per bleed on a recording canvas, then replayed. A build puts
    every piece on two papers, five profiles and two formats, and copies of one design share their
    drawing (`shared_sides`), so most pieces are laid out once instead of a dozen times."""
    recordings = _RECORDED.get(side)
    if recordings is None:
        recordings = _RECORDED.setdefault(side, {})
    recording = recordings.get(bleed)
    if recording is None:
        recording = RecordingCanvas()
        side(recording, bleed)
        recordings[bleed] = recording
    recording.replay(c)


def shared_sides(pieces: Sequence[Piece]) -> list[Piece]:
    """The pieces with one front drawing per design and one back drawing per back key (what `design`
    and `back_key` promise), so `draw_side` draws a deck's back once, not once per card."""
    fronts: dict[str, Draw] = {}
    backs: dict[str, Draw] = {}
    out = []
    for p in pieces:
        front = fronts.setdefault(p.design, p.front) if p.design else p.front
        back = backs.setdefault(p.back_key, p.back) if p.back is not None else None
        out.append(p if front is p.front and back is p.back else replace(p, front=front, back=back))
    return out


@dataclass(frozen=True)
class Mark:
    """One cut mark: a line continuing a cut beyond the pieces, and whether it crosses artwork."""

    x1: float
    y1: float
    x2: float
    y2: float
    over_art: bool


def marks_for(slots: Sequence[Slot], page: tuple[float, float], marks: CutMarks, margin: float) -> list[Mark]:
    """Where the cut marks of the pieces in `slots` go: at both ends of every cut line those pieces
    have, just outside them, never nearer the page edge than `margin`.

    A mark goes in the free margin beyond the pieces' artwork; where that margin is too narrow (poker
    cards on Letter leave 1.35 mm), it runs from the margin line inwards over the outer bleed and
    border, along the cut line itself, so the cut removes it."""
    pw, ph = page
    out: list[Mark] = []

    def along(lo_clip: float, hi_clip: float, lo_trim: float, hi_trim: float, limit: float) -> list[tuple[float, float, bool]]:
        """(start, end, over art) of the two marks on one cut line, in that line's own coordinate."""
        ends = []
        for clip, trim, sign in ((lo_clip, lo_trim, -1), (hi_clip, hi_trim, 1)):
            start = clip + sign * marks.offset
            room = (start - margin) if sign < 0 else (limit - margin - start)
            if room >= marks.length:
                ends.append((start, start + sign * marks.length, False))
            else:
                edge = margin if sign < 0 else limit - margin
                ends.append((edge, edge - sign * max(marks.length, abs(trim - edge) + 1.0), True))
        return ends

    for x in sorted({round(v, 6) for s in slots for v in (s.trim.x, s.trim.right)}):
        on = [s for s in slots if round(s.trim.x, 6) == x or round(s.trim.right, 6) == x]
        top, bottom = min(on, key=lambda s: s.clip.y), max(on, key=lambda s: s.clip.bottom)
        for a, b, art in along(top.clip.y, bottom.clip.bottom, top.trim.y, bottom.trim.bottom, ph):
            out.append(Mark(x, a, x, b, art))
    for y in sorted({round(v, 6) for s in slots for v in (s.trim.y, s.trim.bottom)}):
        on = [s for s in slots if round(s.trim.y, 6) == y or round(s.trim.bottom, 6) == y]
        first, last = min(on, key=lambda s: s.clip.x), max(on, key=lambda s: s.clip.right)
        for a, b, art in along(first.clip.x, last.clip.right, first.trim.x, last.trim.right, pw):
            out.append(Mark(a, y, b, y, art))
    return out


def cut_marks(c: Canvas, slots: Sequence[Slot], page: tuple[float, float], marks: CutMarks,
              margin: float) -> list[Mark]:
    """Draw the cut marks of the pieces in `slots` (see marks_for); a mark over artwork gets a white
    underlay so it shows on a dark frame. Returns them (the scale bar keeps clear of them)."""
    placed = marks_for(slots, page, marks, margin)
    for m in placed:
        if m.over_art:
            c.line(m.x1, m.y1, m.x2, m.y2, stroke=UNDERLAY, width=marks.width * 3)
        c.line(m.x1, m.y1, m.x2, m.y2, stroke=marks.colour, width=marks.width)
    return placed


def scale_bar(c: Canvas, slots: Sequence[Slot], page: tuple[float, float], placed: Sequence[Mark],
              margin: float, ink: str) -> bool:
    """A 50 mm bar with "print at 100% — this bar is 50 mm" just outside the pieces' artwork: below
    them if there is room beyond the cut marks, else above, right or left (turned upright at the
    sides), else between two marks of the widest band. False if no band has room (no bar then)."""
    pw, ph = page
    art = extent([s.clip for s in slots])
    bands = {"bottom": (art.bottom + 0.5, ph - margin), "top": (margin, art.y - 0.5),
             "right": (art.right + 0.5, pw - margin), "left": (margin, art.x - 0.5)}
    between: tuple[float, str, float, float] | None = None  # (depth, side, band start, position along)
    for side, (lo, hi) in bands.items():
        upright = side in ("left", "right")
        length = ph if upright else pw
        inside = [m for m in placed if _in_band(m, side, lo, hi)]
        outward = side in ("bottom", "right")
        reach = [max(m.y1, m.y2) if side == "bottom" else min(m.y1, m.y2) if side == "top"
                 else max(m.x1, m.x2) if side == "right" else min(m.x1, m.x2) for m in inside]
        clear_lo = max(reach, default=lo - 0.5) + 0.5 if outward else lo
        clear_hi = hi if outward else min(reach, default=hi + 0.5) - 0.5
        if clear_hi - clear_lo >= SCALE_DEPTH:
            start = clear_lo if outward else clear_hi - SCALE_DEPTH
            _place_scale(c, side, start, length / 2, ink)
            return True
        if hi - lo < SCALE_DEPTH or (between is not None and hi - lo <= between[0]):
            continue
        blocked = sorted((min(m.y1, m.y2), max(m.y1, m.y2)) if upright else (min(m.x1, m.x2), max(m.x1, m.x2))
                         for m in inside)
        need, free, gaps = SCALE_BAR + 2.0, margin, []
        for a, b in blocked + [(length - margin, length - margin)]:
            if a - free >= need:
                gaps.append((free + a) / 2)
            free = max(free, b + 0.5)
        if gaps:
            along = min(gaps, key=lambda g: abs(g - length / 2))
            between = (hi - lo, side, lo if outward else hi - SCALE_DEPTH, along)
    if between is None:
        return False
    _, side, start, along = between
    _place_scale(c, side, start, along, ink)
    return True


def _place_scale(c: Canvas, side: str, start: float, along: float, ink: str) -> None:
    """The scale bar in a band at `start` across it, centred at `along`; turned a quarter clockwise
    at the sides (its own x runs down the page, its own y towards the left)."""
    if side in ("left", "right"):
        with c.group(start + SCALE_DEPTH, along - SCALE_BAR / 2, rotate=90):
            draw_scale(c, ink)
    else:
        with c.group(along - SCALE_BAR / 2, start):
            draw_scale(c, ink)


def _in_band(m: Mark, side: str, lo: float, hi: float) -> bool:
    if side in ("top", "bottom"):
        return min(m.y1, m.y2) < hi and max(m.y1, m.y2) > lo
    return min(m.x1, m.x2) < hi and max(m.x1, m.x2) > lo


def draw_scale(c: Canvas, ink: str) -> None:
    """The bar (five 10 mm cells, alternately filled) and its label below, in a 50 mm by SCALE_DEPTH box."""
    cell = SCALE_BAR / 5
    c.rect(0, 0, SCALE_BAR, 1.0, stroke=ink, width=0.15)
    c.rects([(k * cell, 0, cell, 1.0) for k in range(0, 5, 2)], fill=ink)
    c.text(SCALE_BAR / 2, SCALE_DEPTH - 0.2, SCALE_LABEL, font=SCALE_FONT, size=SCALE_SIZE, fill=ink, anchor="middle")


Layout = list[list[tuple[Piece, Slot]]]
"""Pages of pieces, each with its slot."""


def runs(pieces: Sequence[Piece]) -> list[list[Piece]]:
    """Runs of pieces of one size and bleed, in order (a grid holds one size)."""
    groups: list[list[Piece]] = []
    for piece in pieces:
        last = groups[-1][0] if groups else None
        if last is not None and (last.width, last.height, last.bleed) == (piece.width, piece.height, piece.bleed):
            groups[-1].append(piece)
        else:
            groups.append([piece])
    return groups


def pack(pieces: Sequence[Piece], profile: SheetProfile, page: tuple[float, float]) -> Layout:
    """Pieces on pages: each run of one size fills full grids, but first the room left below the
    pieces on the last page, so a short last sheet takes the next pieces instead of wasting paper.

    Between two runs on one page there is room for both runs' cut marks (they never touch)."""
    marks = profile.cut_marks.length + profile.cut_marks.offset
    pages: Layout = []
    for run in runs(pieces):
        width, height, bleed = run[0].width, run[0].height, run[0].bleed
        rest = list(run)
        if pages:
            below = max(s.clip.bottom for _, s in pages[-1]) + 2 * marks + MARK_GAP
            room = grid(page, profile, width, height, bleed, top=below)
            pages[-1].extend(zip(rest, room))
            rest = rest[len(room):]
        full = grid(page, profile, width, height, bleed)
        pages.extend(list(zip(rest[k:k + len(full)], full)) for k in range(0, len(rest), len(full)))
    return pages


def sharing(sets: Sequence[Sequence[Piece]], profile: SheetProfile, page: tuple[float, float]) -> list[list[int]]:
    """Which piece sets print together, by index, the host first: a later set that fits whole in the
    room left on a set's last sheet (a dealer button beside waterloo's 64th card) is printed there,
    not on a sheet of its own; a set that fits only in part keeps its own file."""
    taken: set[int] = set()
    out = []
    for i, pieces in enumerate(sets):
        if i in taken:
            continue
        together, combined = [i], list(pieces)
        count = len(pack(combined, profile, page))
        for j in range(i + 1, len(sets)):
            if j in taken or not sets[j]:
                continue
            trial = combined + list(sets[j])
            if len(pack(trial, profile, page)) == count:
                together.append(j)
                taken.add(j)
                combined = trial
        out.append(together)
    return out


def draw_sheets(doc: Document, pieces: Sequence[Piece], profile: SheetProfile, page: tuple[float, float],
                backs: bool = True) -> int:
    """Pieces on as many pages as needed (see `pack`), each front page followed by its mirrored backs;
    every page, front or back, carries the scale bar. Returns the number of pages drawn."""
    pages = 0
    ink = profile.cut_marks.colour
    for placed in pack(pieces, profile, page):
        used = [s for _, s in placed]
        with doc.page(*page, trim=extent([s.trim for s in used]), bleed=extent([s.clip for s in used])) as c:
            for piece, slot in placed:
                place(c, piece.front, slot, piece.bleed)
            marks: list[Mark] = []
            for block in _blocks(placed):
                marks += cut_marks(c, block, page, profile.cut_marks, profile.margin)
            scale_bar(c, used, page, marks, profile.margin, ink)
        pages += 1
        if backs and any(p.back for p, _ in placed):
            flipped = mirrored(used, page[0])
            with doc.page(*page, trim=extent([s.trim for s in flipped]),
                          bleed=extent([s.clip for s in flipped]), back=True) as c:
                for (piece, _), slot in zip(placed, flipped):
                    if piece.back is not None:
                        place(c, piece.back, slot, piece.bleed)
                scale_bar(c, flipped, page, mirrored_marks(marks, page[0]), profile.margin, ink)
            pages += 1
    return pages


def _blocks(placed: Sequence[tuple[Piece, Slot]]) -> list[list[Slot]]:
    """The slots of one page in blocks of one piece size (each block gets its own cut marks)."""
    out: list[list[Slot]] = []
    size = None
    for piece, slot in placed:
        if (piece.width, piece.height, piece.bleed) != size:
            out.append([])
            size = (piece.width, piece.height, piece.bleed)
        out[-1].append(slot)
    return out


def mirrored_marks(marks: Sequence[Mark], page_width: float) -> list[Mark]:
    """The front's cut marks seen from the back: the back's scale bar keeps off them, so a bar
    shining through the paper never sits on a mark."""
    return [Mark(page_width - m.x1, m.y1, page_width - m.x2, m.y2, m.over_art) for m in marks]


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
    """One side per page at the shop's exact size, the piece centred, its artwork filling the page; on a
    product's profile (`trim_px`) the piece is scaled to fill the product's cut.

    Returns the file stem of every page, in order (for naming PNGs cut from it)."""
    pw, ph = profile.size_mm
    stems = []
    for stem, piece, side in single_order(pieces, profile, backs):
        trim = profile.trim_mm
        scale = 1.0 if trim is None else min(trim[0] / piece.width, trim[1] / piece.height)
        bleed = max(pw / scale - piece.width, ph / scale - piece.height) / 2
        w, h = piece.width * scale, piece.height * scale
        x, y = (pw - w) / 2, (ph - h) / 2
        with doc.page(pw, ph, trim=Box(x, y, w, h)) as c:
            with c.group(x, y, scale=scale, clip=Box(-x / scale, -y / scale, pw / scale, ph / scale)):
                draw_side(c, side, bleed)
        stems.append(stem)
    return stems


PROPORTION = 0.03  # how far a product's cut may differ in proportions from a piece's and still take it
FIT = 0.5          # mm a piece may exceed a product's cut and still count as held (it is scaled down)


def product_for(piece: Piece, profile: SingleProfile) -> str | None:
    """The shop's product for a piece that is not a card: of its shape and proportions, the smallest whose cut
    holds it (so its text never shrinks), else the largest; None when the shop sells nothing like it."""
    fitting = []
    for name, product in profile.products.items():
        tw, th = (v / profile.dpi * 25.4 for v in product.trim_px)
        if product.shape == piece.shape and abs(tw / th / (piece.width / piece.height) - 1) <= PROPORTION:
            fitting.append((tw, name, tw + FIT >= piece.width and th + FIT >= piece.height))
    if not fitting:
        return None
    holding = sorted((tw, name) for tw, name, holds in fitting if holds)
    return holding[0][1] if holding else max(fitting)[1]


def piece_svg(piece: Piece, back: bool = False) -> str:
    """One side of a piece as an SVG string at its trim size (e.g. a hexbattle counter for the board view)."""
    side = piece.back if back and piece.back is not None else piece.front
    doc = SvgDocument(Path("."), piece.name)
    with doc.page(piece.width, piece.height) as c, c.group(clip=Box(0, 0, piece.width, piece.height)):
        side(c, 0.0)
    return doc.strings()[0]
