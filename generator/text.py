"""Text that always fits its box: wrap at spaces first, then shrink, never overflow or clip.

Text may hold inline icons (`icon_token(name)`, from a card's `[key]` markup, see cards/markup.py):
each is measured as one em plus a thin gap, kept on one line with the word after it, and drawn
with the same polygon calls as every other icon, so both backends show it alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
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
    """Greedy word wrap; a word wider than the box is split between characters."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if measure(candidate, font, size) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = ""
            if ICON_OPEN in word:  # an icon and its word stay together (fit shrinks them if too wide)
                line = word
                continue
            for char in word:
                if line and fonts.width(line + char, font, size) > width:
                    lines.append(line)
                    line = ""
                line += char
        lines.append(line)
    return lines


@cache
def fit(text: str, font: str, size: float, min_size: float, box: Box) -> Fitted:
    """The largest size from `size` down at which the wrapped text fits the box.

    Below `min_size` it keeps shrinking rather than overflow (check() reports such text).
    Cached: the same card text is fitted once for every paper size and format."""
    current = size
    while True:
        pitch = current * fonts.PT * LEADING
        lines = wrap(text, font, current, box.w)
        fits = len(lines) * pitch <= box.h and all(measure(l, font, current) <= box.w for l in lines)
        if fits or current - STEP < FLOOR:
            return Fitted(current, tuple(lines), pitch)
        current = round(current - STEP, 4)


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
