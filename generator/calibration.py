"""The duplex calibration sheet, and storing the back offset it measures in cards/profiles.toml.

Page 1 carries five targets (centre and near each corner): a small crosshair with a horizontal
and a vertical millimetre ruler through it. Page 2, printed on the back, carries a long thin
crosshair at the mirror image of each target, exactly where it would land if the printer put
the back side where it should. Held against a window, each back crosshair shows through the
paper; where its lines cross the rulers is the offset to pass as `--back-offset X,Y`: the
rulers are numbered so that the reading is the correction (left ruler numbers grow to the
right, upright ruler numbers grow upwards), not the error.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from cards.layout import PRINT_MIN_PT, SheetProfile, load_profiles, profiles_file, read_profiles
from generator.canvas import Canvas, Document, PdfDocument

RULER = 6.0        # mm each side of a target
TARGET_INSET = 30.0  # mm from the paper's edges to the corner targets' centres
INK = "#000000"
LABEL_SIZE = PRINT_MIN_PT  # pt, the rulers' numbers
LABEL_ROW = 2.0  # mm between the two rows of a ruler's across numbers
TITLE_FONT, TEXT_FONT = "DejaVuSans-Bold", "DejaVuSans"


def targets(page: tuple[float, float]) -> list[tuple[float, float]]:
    """Target centres on the front page, in mm from its top-left corner."""
    pw, ph = page
    d = TARGET_INSET
    return [(pw / 2, ph / 2), (d, d), (pw - d, d), (d, ph - d), (pw - d, ph - d)]


def _rulers(c: Canvas, x: float, y: float) -> None:
    """A millimetre ruler across and one upright through (x, y), ticks every 0.5 mm, numbered every 2 mm.

    The numbers keep to one quarter each, so none touches another: the across ruler's negative numbers
    above it and its positive ones below, the upright ruler's upper (positive) numbers to its right and
    its lower ones to its left; the across numbers alternate between two rows, as they are wider than
    the 2 mm between them."""
    c.line(x - RULER, y, x + RULER, y, stroke=INK, width=0.08)
    c.line(x, y - RULER, x, y + RULER, stroke=INK, width=0.08)
    for step in range(-int(RULER * 2), int(RULER * 2) + 1):
        v = step / 2
        tick = 1.6 if step % 2 == 0 else 0.8
        c.line(x + v, y - tick / 2, x + v, y + tick / 2, stroke=INK, width=0.08)
        c.line(x - tick / 2, y + v, x + tick / 2, y + v, stroke=INK, width=0.08)
        if step != 0 and step % 4 == 0:
            row = 0.0 if step % 8 else LABEL_ROW  # +-2 and +-6 nearer the ruler, +-4 a row further out
            across = y - 1.3 - row if v < 0 else y + 2.9 + row
            c.text(x + v, across, f"{v:+g}", font=TEXT_FONT, size=LABEL_SIZE, fill=INK, anchor="middle")
            c.text(x + 1.3 if v > 0 else x - 1.3, y - v + 0.78, f"{v:+g}", font=TEXT_FONT, size=LABEL_SIZE,
                   fill=INK, anchor="start" if v > 0 else "end")


def _crosshair(c: Canvas, x: float, y: float) -> None:
    """What the back prints at a target: lines long enough to cross both rulers at any offset."""
    c.line(x - 2 * RULER, y, x + 2 * RULER, y, stroke=INK, width=0.1)
    c.line(x, y - 2 * RULER, x, y + 2 * RULER, stroke=INK, width=0.1)
    c.circle(x, y, 0.6, stroke=INK, width=0.1)


INSTRUCTIONS = (
    "Print both pages on one sheet, duplex (flip on the long edge), at 100 % (no 'fit to page').",
    "Hold the sheet against a window. Where each back cross meets the rulers is your offset.",
    "Read X on the ruler across and Y on the upright ruler, at the centre target (the corners show",
    "whether the printer also turns or stretches the back), then build with",
    "   muster build --back-offset X,Y     (add --save-back-offset to keep it for that profile)",
)


def draw(doc: Document, page: tuple[float, float]) -> None:
    """The two pages: rulers and instructions on the front, crosshairs on the back."""
    pw, ph = page
    with doc.page(pw, ph) as c:
        c.text(pw / 2, 48, "Muster duplex calibration", font=TITLE_FONT, size=14, fill=INK, anchor="middle")
        for n, line in enumerate(INSTRUCTIONS):
            c.text(pw / 2 - 80, 58 + n * 5, line, font=TEXT_FONT, size=8, fill=INK)
        for x, y in targets(page):
            _rulers(c, x, y)
    with doc.page(pw, ph, back=True) as c:
        for x, y in targets(page):
            _crosshair(c, pw - x, y)  # long-edge duplex: the back sees the front mirrored left-right
        c.text(pw / 2, ph - 40, "back of the calibration sheet", font=TEXT_FONT, size=8, fill=INK, anchor="middle")


def build(out: Path, papers: Sequence[str], offset: tuple[float, float]) -> list[Path]:
    """`calibration-<paper>.pdf` for each paper, its back page moved by `offset` (to check a correction)."""
    library = load_profiles()
    files = []
    for name in papers:
        doc = PdfDocument(out / f"calibration-{name}.pdf", f"Muster duplex calibration ({name})", back_offset=offset)
        draw(doc, library.papers[name])
        files.extend(doc.save())
    return files


def store_offset(names: Sequence[str], offset: tuple[float, float], path: Path | None = None) -> Path:
    """Write `back_offset = [X, Y]` into each named sheet profile of profiles.toml (the one in use unless
    `path` is given), keeping the rest of the file (comments included) as it is; the result is validated
    before it replaces the file. Returns the file written."""
    path = path or profiles_file()
    current = load_profiles(path).profiles
    wrong = [n for n in names if not isinstance(current.get(n), SheetProfile)]
    if wrong:
        raise ValueError(f"only home-printing profiles have a back page to move, not {', '.join(wrong)}")
    text = path.read_text(encoding="utf-8")
    line = f"back_offset = [{offset[0]:g}, {offset[1]:g}]"
    for name in names:
        header = re.search(rf"^\[profiles\.{re.escape(name)}\]\s*$", text, re.M)
        if header is None:
            raise ValueError(f"{path}: no [profiles.{name}] section")
        end = re.search(r"^\[", text[header.end():], re.M)
        stop = header.end() + (end.start() if end else len(text) - header.end())
        body = text[header.end():stop]
        if re.search(r"^back_offset\s*=.*$", body, re.M):
            body = re.sub(r"^back_offset\s*=.*$", line, body, count=1, flags=re.M)
        else:
            body = body.rstrip("\n") + f"\n{line}\n" + ("\n" if end else "")
        text = text[:header.end()] + body + text[stop:]
    candidate = path.with_suffix(".toml.new")
    candidate.write_text(text, encoding="utf-8")
    read_profiles.cache_clear()
    try:
        load_profiles(candidate)
        candidate.replace(path)
    finally:
        candidate.unlink(missing_ok=True)
        read_profiles.cache_clear()
    return path
