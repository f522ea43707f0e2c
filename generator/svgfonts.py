"""Fonts carried inside SVGs: a fontTools subset of the glyphs a file uses, as @font-face data.

An SVG that only names "DejaVu Sans" renders in some other font on a machine without it (most
phones, Windows, macOS), so its text no longer fits the boxes it was measured for. Each SVG
therefore embeds, per font it uses, a WOFF subset holding just its characters, under a family
name of its own ("Muster DejaVuSans-Bold") so no installed font can stand in for it.

The subsets drop kerning and ligatures (GPOS, GSUB, kern): Muster measures text with plain
advance widths (generator.fonts.width, as the PDF backend draws it), and a browser applying
kerning would make SVG lines a little shorter than the PDF's.

librsvg (GNOME's viewer, Inkscape's import, many converters) ignores @font-face: it falls back
to the installed font the text also names ("DejaVu Sans"), the same glyphs when DejaVu is
installed, else whatever fontconfig offers. For those, `muster build --svg-text paths` writes
every text as its glyphs' outlines (`outline`), which any SVG renderer draws the same.
"""

from __future__ import annotations

import base64
import io
import logging
from functools import lru_cache

from fontTools import subset
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTFont

from generator.fonts import FONT_DIR, face

DROPPED = ["GSUB", "GPOS", "GDEF", "kern", "FFTM"]


def family(font: str) -> str:
    """The family name an SVG's @font-face gives a font file (generator.fonts name)."""
    return f"Muster {font}"


@lru_cache(maxsize=512)
def woff(font: str, chars: frozenset[str]) -> bytes:
    """A WOFF file of `font` with only the glyphs for `chars` (and .notdef)."""
    options = subset.Options()
    options.layout_features = []
    options.drop_tables += DROPPED
    options.hinting = False          # screens and printers at SVG sizes do not need TrueType hints
    options.notdef_outline = True
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep the copyright and licence (OFL-style terms)
    logging.getLogger("fontTools").setLevel(logging.ERROR)  # "FFTM NOT subset" and the like
    # Glyphs are decompiled only as the subset needs them; the head table keeps its date (stable files).
    font_file = TTFont(FONT_DIR / f"{font}.ttf", recalcTimestamp=False)
    for tag in DROPPED:  # before subsetting, which would otherwise read them (most of its time)
        if tag in font_file:
            del font_file[tag]
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(chars)))
    subsetter.subset(font_file)
    font_file.flavor = "woff"
    out = io.BytesIO()
    font_file.save(out)
    return out.getvalue()


@lru_cache(maxsize=512)
def font_face(font: str, chars: frozenset[str]) -> str:
    """The @font-face rule embedding `font`'s glyphs for `chars`, with the weight the text asks for (so a
    browser does not embolden a bold face a second time); cached, as every page of a job embeds the same."""
    data = base64.b64encode(woff(font, chars)).decode("ascii")
    return (f"@font-face{{font-family:'{family(font)}';font-weight:{face(font).weight};"
            f"src:url(data:font/woff;base64,{data}) format('woff')}}")


@lru_cache(maxsize=16)
def _font_file(font: str) -> TTFont:
    return TTFont(FONT_DIR / f"{font}.ttf", recalcTimestamp=False, lazy=True)


@lru_cache(maxsize=4096)
def outline(font: str, s: str) -> tuple[str, int, int]:
    """The glyph outlines of `s` set with advance widths from the origin, as SVG path data in font units
    (y up), with the run's advance and the font's units per em: what `--svg-text paths` draws for text."""
    tt = _font_file(font)
    glyphs, cmap, hmtx = tt.getGlyphSet(), tt.getBestCmap(), tt["hmtx"]
    pen = SVGPathPen(glyphs)
    advance = 0
    for ch in s:
        name = cmap.get(ord(ch), ".notdef")
        glyphs[name].draw(TransformPen(pen, (1, 0, 0, 1, advance, 0)))
        advance += hmtx[name][0]
    return pen.getCommands(), advance, tt["head"].unitsPerEm
