"""Nothing printed is smaller than 6 pt (issue 33): every text of every home PDF, read back from the
files as a player's printer gets them, at its size on paper (the font size times the text and
transformation matrices' scale, so a reference sheet scaled down to fit its paper counts smaller).

Reading sizes is slow (pypdf parses every path of every card), so a Letter file that holds its A4
twin's words at their sizes (poppler's word boxes, to 0.1 pt: piece sheets and booklets place
everything unscaled on either paper) is not read a second time; every other Letter file, such as
a reference sheet scaled to fit, is."""

from __future__ import annotations

import math
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from cards.layout import PRINT_MIN_PT
from generator import calibration
from generator.build import build_all

PROFILES = ["home-a4", "home-letter"]  # fold-over sheets draw the same pieces at the same size


@pytest.fixture(scope="module")
def home_pdfs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    out = tmp_path_factory.mktemp("home")
    build_all(None, ["pdf"], profiles=PROFILES, out=out, url="http://muster.test")
    (out / "calibration").mkdir()
    calibration.build(out / "calibration", ["a4", "letter"], (0.0, 0.0))  # muster build --calibration
    return sorted(out.rglob("*.pdf"))


def printed_sizes(path: Path) -> list[tuple[float, int, str]]:
    """(size at print in pt, page, text) for every non-blank text run of a PDF."""
    out: list[tuple[float, int, str]] = []
    for number, page in enumerate(PdfReader(path).pages, 1):
        def visit(text: str, cm: list[float], tm: list[float], _font: object, size: float, number: int = number) -> None:
            if text.strip():
                # the text matrix times the CTM; its determinant's root is the scale a glyph is drawn at
                a, b = tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3]
                c, d = tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3]
                out.append((size * math.sqrt(abs(a * d - b * c)), number, text.strip()))
        page.extract_text(visitor_text=visit)
    return out


WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')


def word_boxes(path: Path) -> Counter[tuple[str, float, float]]:
    """Every word poppler reads in a PDF with its box's short and long side in pt (to 0.1 pt): the
    same words at the same sizes give the same boxes wherever the page puts them, turned or not."""
    out = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True,
                         check=True).stdout
    boxes: Counter[tuple[str, float, float]] = Counter()
    for m in WORD.finditer(out):
        w, h = float(m[3]) - float(m[1]), float(m[4]) - float(m[2])
        boxes[m[5], round(min(w, h), 1), round(max(w, h), 1)] += 1
    return boxes


def same_as_a4(path: Path) -> bool:
    """A Letter file whose words and their boxes are its A4 twin's (a box rounded the other way on
    one paper only makes the file read again, never skipped wrongly)."""
    twin = path.with_name(path.name.replace("-home-letter.pdf", "-home-a4.pdf"))
    return path.name.endswith("-home-letter.pdf") and twin.exists() and word_boxes(path) == word_boxes(twin)


def test_every_home_pdf_prints_its_text_at_6pt_or_more(home_pdfs: list[Path]) -> None:
    games = {p.parent.name for p in home_pdfs}
    assert games == {"waterloo", "warfare", "hexbattle", "imperial", "medieval", "calibration"}
    assert len(home_pdfs) >= 5 * len(PROFILES)
    read = [pdf for pdf in home_pdfs if not same_as_a4(pdf)]
    # Letter's reference sheets are scaled to fit (waterloo's to 96 %), so they are read on their own.
    assert {p.name for p in read} >= {f"{g}-reference-home-letter.pdf" for g in ("waterloo", "hexbattle")}
    small = []
    for pdf in read:
        sizes = printed_sizes(pdf)
        assert sizes, f"{pdf.name}: no text read (the reader found nothing to measure)"
        small += [f"{pdf.name} p{page}: {size:.2f} pt {text!r}" for size, page, text in sizes
                  if size < PRINT_MIN_PT - 0.01]
    assert not small, "\n".join(small[:40])


def test_the_reader_measures_a_scaled_text(tmp_path: Path) -> None:
    """The measurement sees a 10 pt text drawn inside a group scaled by half as 5 pt (else the main
    test could pass on a sheet shrunk to fit its paper)."""
    from generator.canvas import PdfDocument
    doc = PdfDocument(tmp_path / "t.pdf", "t")
    with doc.page(100, 100) as c:
        c.text(10, 10, "whole", font="DejaVuSans", size=10, fill="#000000")
        with c.group(0, 0, scale=0.5):
            c.text(10, 30, "half", font="DejaVuSans", size=10, fill="#000000")
    doc.save()
    sizes = {text: round(size, 2) for size, _, text in printed_sizes(tmp_path / "t.pdf")}
    assert sizes == {"whole": 10.0, "half": 5.0}
