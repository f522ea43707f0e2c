"""Text that always fits its box: wrap at spaces first, then shrink, never overflow or clip."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal

from generator import fonts
from generator.canvas import Box, Canvas

LEADING = 1.18        # line pitch as a multiple of the font size
STEP = 0.25           # points removed per shrinking step
FLOOR = 1.0           # below min_size only as a last resort, never below this (pt)


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
            if fonts.width(candidate, font, size) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = ""
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
        fits = len(lines) * pitch <= box.h and all(fonts.width(l, font, current) <= box.w for l in lines)
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
        c.text(x, top + gap + i * fitted.pitch + ascent, line, font=font, size=fitted.size,
               fill=fill, anchor=align)
    return fitted
