"""How a rules booklet fills its A5 pages: blocks placed top to bottom, a block that does not fit the rest
of a page moved to the next, tables split between pages with their header repeated.

Used by generator/booklet.py (the text) and generator/booklet_diagrams.py (the diagrams and the combo
table), so neither imports the other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cards.layout import BOOKLET_LAYOUT, Layout, game_layout, resolve
from cards.load import GameData
from generator import fonts
from generator.canvas import Box, RecordingCanvas
from generator.reference import Cell, Sheet, SheetOverflow
from generator.text import LEADING


def booklet_layout(game: GameData) -> Layout:
    """The `booklet` layout with the game's colour and font overrides."""
    return resolve(BOOKLET_LAYOUT, game_layout(game))


@dataclass
class Page:
    """One laid-out page: its drawing, the chapter its running head names, whether it has a folio, and
    the chapters that start on it (the screen PDF's outline)."""

    canvas: RecordingCanvas
    chapter: str = ""
    folio: bool = True
    starts: list[str] = field(default_factory=list)


@dataclass
class Flow:
    """Pages filled top to bottom; a block that does not fit what is left of a page starts the next."""

    game: GameData
    layout: Layout
    pages: list[Page] = field(default_factory=list)
    sheet: Sheet | None = None
    chapter: str = ""
    claimed: frozenset[str] = frozenset()  # card tables that are no cards (tiles, counters)
    placed_on: int = 0  # the page (1-based) a block's first part landed on; 0 until it is placed

    @property
    def size(self) -> tuple[float, float]:
        return self.layout.width, self.layout.height

    def area(self, number: int) -> Box:
        """The text area of page `number` (1-based): odd pages are right-hand pages, their fold on the left."""
        b = self.layout.booklet
        assert b is not None
        left = b.inner if number % 2 else b.outer
        width, height = self.size
        return Box(left, b.top, width - b.inner - b.outer, height - b.top - b.bottom - b.folio)

    def new_page(self, folio: bool = True) -> Sheet:
        canvas = RecordingCanvas(*self.size)
        self.pages.append(Page(canvas, self.chapter, folio))
        self.sheet = Sheet(canvas, self.layout, self.area(len(self.pages)))
        return self.sheet

    def room(self) -> float:
        """The share of the current page's text area still free."""
        assert self.sheet is not None
        return (self.sheet.area.bottom - self.sheet.y) / self.sheet.area.h

    @property
    def fresh(self) -> bool:
        return self.sheet is None or self.sheet.y <= self.sheet.area.y + 0.01

    def fits(self, draw: Callable[[Sheet], None]) -> Sheet | None:
        """`draw` tried below what the current page holds, on a scratch canvas: the filled trial sheet
        if it fits, else None."""
        assert self.sheet is not None
        trial = Sheet(RecordingCanvas(*self.size), self.layout, self.sheet.area, self.sheet.y)
        try:
            draw(trial)
        except SheetOverflow:
            return None
        return trial

    def place(self, draw: Callable[[Sheet], None], what: str) -> None:
        """Draw a block on this page, or on the next when it does not fit; a block taller than a page is an error."""
        if self.sheet is None:
            self.new_page()
        drawn = self.fits(draw)
        if drawn is None:
            if self.fresh:
                raise SheetOverflow(f"{what} is taller than a booklet page")
            self.new_page()
            drawn = self.fits(draw)
            if drawn is None:
                raise SheetOverflow(f"{what} is taller than a booklet page")
        assert self.sheet is not None
        drawn.c.replay(self.sheet.c)  # type: ignore[attr-defined]
        self.sheet.y = drawn.y
        self.placed_on = self.placed_on or len(self.pages)


def shares_of(rows: Sequence[Sequence[Cell]]) -> list[float]:
    """Column shares from the text they hold: long cells get room, but no column gets less than a tenth."""
    cols = len(rows[0])
    lengths = [max(8.0, sum(len(cell) if isinstance(cell, str) else 12 for cell in (r[i] for r in rows)) / len(rows))
               for i in range(cols)]
    total = sum(lengths)
    return [n / total for n in lengths]


def table(flow: Flow, headers: Sequence[str], rows: Sequence[Sequence[Cell]], shares: Sequence[float],
          lead: Callable[[Sheet], None] | None = None, min_row: float = 0.0) -> None:
    """A table split over pages where it must, its header repeated on every page it reaches. The rows a
    page takes are found by halving (more rows never fit where fewer do not), not one row at a time."""
    aligns = ["start"] * len(headers)

    def chunk(start: int, end: int) -> Callable[[Sheet], None]:
        def draw(s: Sheet) -> None:
            if lead and start == 0:
                lead(s)
            s.table(headers, rows[start:end], shares, aligns, min_row)  # type: ignore[arg-type]
        return draw

    start = 0
    while start < len(rows):
        fits, cut = start, len(rows)  # rows[start:fits] fit; rows[start:cut + 1] do not, or run out
        while fits < cut:
            middle = (fits + cut + 1) // 2
            if flow.fits(chunk(start, middle)) is None:
                cut = middle - 1
            else:
                fits = middle
        if fits == start:
            if flow.fresh:
                raise SheetOverflow(f"a row of the table '{headers[0]}' is taller than a booklet page")
            flow.new_page()
            continue
        flow.place(chunk(start, fits), f"table '{headers[0]}'")
        start = fits
        if start < len(rows):
            flow.new_page()


def _tokens(text: str, regular: str, bold: str) -> list[tuple[str, str, bool]]:
    """Words of text with `**bold**` runs: (word, font, whether a space comes before it)."""
    tokens: list[tuple[str, str, bool]] = []
    trailing = False
    for k, segment in enumerate(text.split("**")):
        font = bold if k % 2 else regular
        for n, match in enumerate(re.finditer(r"(\s*)(\S+)", segment)):
            space = bool(match.group(1)) or (n == 0 and trailing)
            tokens.append((match.group(2), font, space and bool(tokens)))
        trailing = segment[-1:].isspace() if segment else trailing
    return tokens


def rich(s: Sheet, text: str, style: str = "body", indent: float = 0.0, bold: str = "lead") -> None:
    """A paragraph whose `**runs**` are set in the bold style, wrapped to the column (less `indent`)."""
    f = s.layout.fonts[style]
    b = s.layout.fonts[bold]
    size = f.size
    width = s.area.w - indent
    space = fonts.width(" ", f.font, size)
    lines: list[list[tuple[float, str, str]]] = [[]]
    x = 0.0
    for word, font, spaced in _tokens(text, f.font, b.font):
        w = fonts.width(word, font, size)
        gap = space if spaced and lines[-1] else 0.0
        if lines[-1] and x + gap + w > width:
            lines.append([])
            x, gap = 0.0, 0.0
        lines[-1].append((x + gap, word, font))
        x += gap + w
    pitch = size * fonts.PT * LEADING
    box = s.take(len(lines) * pitch + 0.4)
    ascent = fonts.ascent(f.font, size)
    gap = (pitch - fonts.PT * size) / 2
    ink = s.layout.colours["ink"]
    for i, line in enumerate(lines):
        baseline = box.y + gap + i * pitch + ascent
        for dx, word, font in line:
            s.c.text(box.x + indent + dx, baseline, word, font=font, size=size, fill=ink)
