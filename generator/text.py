"""Text that always fits its box: wrap at spaces first, then shrink, never overflow or clip.

Text may hold inline icons (`icon_token(name)`, from a card's `[key]` markup, see cards/markup.py):
each is measured as one em plus a thin gap, kept on one line with the word after it, and drawn
with the same polygon calls as every other icon, so both backends show it alike.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache
from itertools import accumulate
from typing import Literal

from generator import fonts
from generator.canvas import Box, Canvas
from generator.icons import draw_icon

LEADING = 1.18        # line pitch as a multiple of the font size
STEP = 0.25           # points removed per shrinking step
FLOOR = 1.0           # below min_size only as a last resort, never below this (pt)
ICON_OPEN, ICON_CLOSE = "\ue000", "\ue001"  # private-use characters around an inline icon's name
ICON_EM = 1.0         # an inline icon's size in ems
ICON_GAP = 0.15       # ems between an inline icon and the word after it
ICON_DROP = 0.12      # ems the icon reaches below the baseline (it sits on the line like a capital)
_ICON = re.compile(f"{ICON_OPEN}([a-z0-9-]+){ICON_CLOSE}")


def icon_token(name: str) -> str:
    """The named icon as text for `draw_text` (what `[key]` markup becomes on a printed card)."""
    return f"{ICON_OPEN}{name}{ICON_CLOSE}"


def glyphs(text: str) -> str:
    """The characters a font must have to draw the text (inline icons are not glyphs)."""
    return _ICON.sub("", text)


def measure(text: str, font: str, size: float) -> float:
    """The width of one line in mm, inline icons included."""
    if ICON_OPEN not in text:
        return fonts.width(text, font, size)
    icons = len(_ICON.findall(text))
    return fonts.width(glyphs(text), font, size) + icons * (ICON_EM + ICON_GAP) * size * fonts.PT


@dataclass(frozen=True)
class Fitted:
    """Lines of text at one size; `height` is their total height in mm."""

    size: float
    lines: tuple[str, ...]
    pitch: float

    @property
    def height(self) -> float:
        return len(self.lines) * self.pitch


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap; a word wider than the box is split between characters.

    Each word is measured once and a line's width is kept as a running sum (widths add up: no
    kerning), and a too-wide word is split by halving rather than a character at a time, so a wrap
    costs about one measure per word, whatever the text's length."""
    space = measure(" ", font, size)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line, used = "", 0.0
        for word in paragraph.split():
            wide = measure(word, font, size)
            if line and _fits(used + space + wide, f"{line} {word}", font, size, width):
                line, used = f"{line} {word}", used + space + wide
                continue
            if not line and _fits(wide, word, font, size, width):
                line, used = word, wide
                continue
            if line:
                lines.append(line)
            if ICON_OPEN in word:  # an icon and its word stay together (fit shrinks them if too wide)
                line, used = word, wide
                continue
            *full, line = _split(word, font, size, width)
            lines.extend(full)
            used = measure(line, font, size)
        lines.append(line)
    return lines


def _fits(total: float, line: str, font: str, size: float, width: float) -> bool:
    """Whether a line whose summed width is `total` fits; a sum within rounding of the edge is measured
    whole, so the answer is the one measuring the line itself gives."""
    if abs(total - width) > 1e-6:
        return total <= width
    return measure(line, font, size) <= width


def _split(word: str, font: str, size: float, width: float) -> list[str]:
    """A word cut into pieces, each the most characters (at least one) that fit `width`.

    The cuts are found on running sums of the characters' widths, then confirmed by measuring the
    piece itself, so they are the ones adding a character at a time would give, in one pass."""
    ends = list(accumulate(fonts.char_width(ch, font) * size for ch in word))
    pieces: list[str] = []
    start, before = 0, 0.0
    while start < len(word):
        cut = max(start + 1, bisect_right(ends, before + width + 1e-6))
        while cut > start + 1 and fonts.width(word[start:cut], font, size) > width:
            cut -= 1
        while cut < len(word) and fonts.width(word[start:cut + 1], font, size) <= width:
            cut += 1
        pieces.append(word[start:cut])
        start, before = cut, ends[cut - 1]
    return pieces


def _sizes(size: float) -> list[float]:
    """The sizes fit tries, largest first: `size`, then STEP smaller each, down to FLOOR."""
    steps = int((size - FLOOR) / STEP + 1e-9) if size >= FLOOR else 0
    return [round(size - k * STEP, 4) for k in range(steps + 1)]


def _at(text: str, font: str, size: float, box: Box) -> tuple[Fitted, bool]:
    """The text wrapped at one size, and whether it fits the box."""
    pitch = size * fonts.PT * LEADING
    lines = wrap(text, font, size, box.w)
    fits = len(lines) * pitch <= box.h and all(measure(line, font, size) <= box.w for line in lines)
    return Fitted(size, tuple(lines), pitch), fits


@cache
def fit(text: str, font: str, size: float, min_size: float, box: Box) -> Fitted:
    """The largest size from `size` down (in STEPs) at which the wrapped text fits the box.

    Below `min_size` it keeps shrinking rather than overflow (check() reports such text); at FLOOR it
    stops. Widths scale with the size, so a smaller size never needs more lines: the sizes that fit
    form one run at the small end, found by halving, in O(log n) wraps.
    Cached: the same card text is fitted once for every paper size and format."""
    sizes = _sizes(size)
    fitted, fits = _at(text, font, sizes[0], box)
    if fits or len(sizes) == 1:
        return fitted
    low, high = 1, len(sizes) - 1  # sizes[0] does not fit; find the first index that does
    best = None
    while low <= high:
        middle = (low + high) // 2
        trial, ok = _at(text, font, sizes[middle], box)
        if ok:
            best, high = trial, middle - 1
        else:
            low = middle + 1
    return best if best is not None else _at(text, font, sizes[-1], box)[0]


def draw_text(c: Canvas, box: Box, text: str, font: str, size: float, min_size: float, fill: str,
              align: Literal["start", "middle", "end"] = "middle",
              valign: Literal["top", "middle"] = "middle") -> Fitted:
    """Fit and draw text in a box; returns what was drawn so tests can check it."""
    fitted = fit(text, font, size, min_size, box)
    top = box.y if valign == "top" else box.y + (box.h - fitted.height) / 2
    # Each line's em box is centred in its pitch; the baseline sits the font's ascent below the em top.
    ascent = fonts.ascent(font, fitted.size)
    gap = (fitted.pitch - fonts.PT * fitted.size) / 2
    x = {"start": box.x, "middle": box.cx, "end": box.right}[align]
    for i, line in enumerate(fitted.lines):
        baseline = top + gap + i * fitted.pitch + ascent
        if ICON_OPEN in line:
            _draw_line_with_icons(c, x, baseline, line, font, fitted.size, fill, align)
        else:
            c.text(x, baseline, line, font=font, size=fitted.size, fill=fill, anchor=align)
    return fitted


def _draw_line_with_icons(c: Canvas, x: float, baseline: float, line: str, font: str, size: float, fill: str,
                          align: Literal["start", "middle", "end"]) -> None:
    """One line as runs of text and icons from its left end (the whole line is aligned as one)."""
    em = size * fonts.PT
    left = {"start": x, "middle": x - measure(line, font, size) / 2, "end": x - measure(line, font, size)}[align]
    parts = _ICON.split(line)  # text, icon name, text, icon name, ..., text
    for k, part in enumerate(parts):
        if k % 2:
            draw_icon(c, part, Box(left, baseline + ICON_DROP * em - ICON_EM * em, ICON_EM * em, ICON_EM * em), fill)
            left += (ICON_EM + ICON_GAP) * em
        elif part:
            c.text(left, baseline, part, font=font, size=size, fill=fill, anchor="start")
            left += fonts.width(part, font, size)
