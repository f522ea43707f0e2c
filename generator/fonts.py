"""The fonts printables may use: the TTF files in generator/fonts/ (DejaVu, free licence alongside).

A font is named by its file stem, e.g. "DejaVuSans-Bold". PDFs embed a subset of it;
SVGs name its family and weight, read from the font file itself. Text is measured
with the same metrics for every backend.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
PT = 25.4 / 72  # millimetres per point
DEFAULT = "DejaVuSans"  # what a PDF starts with before any text is drawn


@dataclass(frozen=True)
class Face:
    """How an SVG names a font."""

    family: str
    weight: str


def names() -> list[str]:
    """Every available font name."""
    return sorted(p.stem for p in FONT_DIR.glob("*.ttf"))


@cache
def register_pdf(name: str) -> TTFont:
    """Register the font with reportlab once (raises KeyError for an unknown name)."""
    path = FONT_DIR / f"{name}.ttf"
    if not path.is_file():
        raise KeyError(f"unknown font '{name}' (available: {', '.join(names())})")
    font = TTFont(name, str(path))
    pdfmetrics.registerFont(font)
    return font


@cache
def face(name: str) -> Face:
    """The font's family (with a generic fallback for viewers without DejaVu) and weight."""
    font = register_pdf(name)
    family = font.face.familyName.decode("utf-8")
    style = font.face.styleName.decode("utf-8").lower()
    generic = "serif" if "serif" in family.lower().replace("sans", "") else "sans-serif"
    return Face(f"'{family}', {generic}", "bold" if "bold" in style else "normal")


def width(s: str, name: str, size: float) -> float:
    """Width of s in mm at `size` points."""
    register_pdf(name)
    return pdfmetrics.stringWidth(s, name, size) * PT


@cache
def char_width(ch: str, name: str) -> float:
    """Width of one character in mm at 1 point (a string's width is the sum of its characters')."""
    return width(ch, name, 1.0)


def ascent(name: str, size: float) -> float:
    """Height above the baseline of the font's capitals and ascenders, in mm."""
    return register_pdf(name).face.ascent / 1000 * size * PT


def missing_glyphs(s: str, name: str) -> list[str]:
    """Characters of s the font cannot draw (they would print as empty boxes)."""
    cmap = register_pdf(name).face.charToGlyph
    return sorted({ch for ch in s if not ch.isspace() and ord(ch) not in cmap})
