"""Tabletop Simulator decks (which Tabletop Playground imports too): face sheets, a back and a saved object.

Per deck (pieces sharing a back) in `<out>/<game>/tts/`:
- `<game>-<deck>-faces-N.png`: RGB sheets of at most 10 x 7 cells and 4096 x 4096 pixels, cards
  row by row; the grid's last cell is the "hidden" image Tabletop Simulator shows for a card in
  someone else's hand (Muster puts the deck's back there);
- `<game>-<deck>-back.png`: the back, one card's size;
- `<game>-<deck>.json`: a saved object, `ObjectStates` -> one `DeckCustom` with `DeckIDs`,
  `CustomDeck` {FaceURL, BackURL, NumWidth, NumHeight} per sheet and one `ContainedObjects`
  card per physical card (`Nickname` = its name, `CardID` = 100 x sheet key + cell index).

Sheet keys run from 1 across all the decks of a game, so decks of one game can be merged on the
table without two sheets claiming one key. Image URLs are `<tts_url>/<file>` when the images
will be hosted (Tabletop Simulator fetches them from there for every player), else `file://`
paths, which only the machine that built them can load.
"""

from __future__ import annotations

import json
import math
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from PIL import Image

from generator.canvas import Box, PdfDocument
from generator.printable import PageSet, PieceSet
from generator.sheets import Piece

MAX_COLUMNS, MAX_ROWS = 10, 7  # Tabletop Simulator's largest custom deck sheet
MAX_PIXELS = 4096              # its largest texture side
MAX_CELL_WIDTH = 750           # 300 dpi for a poker card: more only makes every player download more
POKER_WIDTH = 63.5             # a Tabletop Simulator card at scale 1 is a poker card
HEX_RATIO = 2 / math.sqrt(3)   # width / height of a flat-topped hexagon
SHAPE_RECTANGLE, SHAPE_SQUARE, SHAPE_HEX = 0, 1, 3  # CustomDeck "Type": rounded rectangle, square, hexagon


@dataclass(frozen=True)
class Grid:
    """One face sheet's layout: cells across and down, and each cell's size in pixels."""

    columns: int
    rows: int
    cell_w: int
    cell_h: int

    @property
    def capacity(self) -> int:
        """Cards per sheet: every cell but the last, which holds the hidden image."""
        return self.columns * self.rows - 1


def grid_for(count: int, width: float, height: float) -> Grid:
    """The smallest grid holding `count` cards plus the hidden cell (at most 10 x 7), cells as large
    as 4096 pixels allow, never above MAX_CELL_WIDTH."""
    cells = min(count + 1, MAX_COLUMNS * MAX_ROWS)
    columns = min(MAX_COLUMNS, cells)
    rows = math.ceil(cells / columns)
    cell_w = min(MAX_CELL_WIDTH, MAX_PIXELS // columns, math.floor(MAX_PIXELS // rows * width / height))
    cell_h = min(round(cell_w * height / width), MAX_PIXELS // rows)
    return Grid(columns, rows, cell_w, cell_h)


def shape(piece: Piece) -> int:
    """The CustomDeck card shape for a piece's outline."""
    ratio = piece.width / piece.height
    if math.isclose(ratio, HEX_RATIO, rel_tol=0.01):
        return SHAPE_HEX
    return SHAPE_SQUARE if math.isclose(ratio, 1.0, rel_tol=0.01) else SHAPE_RECTANGLE


def export(game: str, sets: Sequence[PieceSet | PageSet], folder: Path, url: str | None,
           backs: bool = True) -> list[Path]:
    """Every deck of a game (piece sets whose pieces have backs, split per back) as sheets and a saved object."""
    folder.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    key = 1
    for piece_set in sets:
        if not isinstance(piece_set, PieceSet) or not piece_set.pieces or any(p.back is None for p in piece_set.pieces):
            continue
        for deck, pieces in piece_set.decks().items():
            stem = "-".join(filter(None, (game, piece_set.name, deck)))
            written, key = _deck(stem, pieces, folder, url, key, backs)
            files.extend(written)
    return files


def _deck(stem: str, pieces: list[Piece], folder: Path, url: str | None, first_key: int,
          backs: bool) -> tuple[list[Path], int]:
    """One deck's files; returns them and the next free sheet key."""
    first = pieces[0]
    full = grid_for(len(pieces), first.width, first.height)
    sheets = [pieces[i:i + full.capacity] for i in range(0, len(pieces), full.capacity)]
    # A last, part-filled sheet gets a smaller grid, its cells the size of the first sheet's.
    grids = [replace(grid_for(len(batch), first.width, first.height), cell_w=full.cell_w, cell_h=full.cell_h)
             for batch in sheets]
    back_png = folder / f"{stem}-back.png"
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "deck.pdf"
        doc = PdfDocument(pdf, stem)
        for batch, grid in zip(sheets, grids):
            _sheet_page(doc, batch, grid, first, backs)
        with doc.page(first.width, first.height) as c, c.group(clip=Box(0, 0, first.width, first.height)):
            if backs and first.back is not None:
                first.back(c, 0.0)
        doc.save()
        files = [_raster(pdf, n + 1, grid.columns * grid.cell_w, grid.rows * grid.cell_h,
                         folder / f"{stem}-faces-{n + 1}.png") for n, grid in enumerate(grids)]
        files.append(_raster(pdf, len(sheets) + 1, full.cell_w, full.cell_h, back_png))

    def link(path: Path) -> str:
        return f"{url.rstrip('/')}/{path.name}" if url else path.resolve().as_uri()

    scale = round(first.width / POKER_WIDTH, 4)
    transform = {"posX": 0, "posY": 1, "posZ": 0, "rotX": 0, "rotY": 180, "rotZ": 180,
                 "scaleX": scale, "scaleY": 1, "scaleZ": scale}
    custom: dict[str, dict[str, object]] = {}
    cards: list[dict[str, object]] = []
    for n, (batch, grid) in enumerate(zip(sheets, grids)):
        key = first_key + n
        sheet = {"FaceURL": link(files[n]), "BackURL": link(back_png), "NumWidth": grid.columns,
                 "NumHeight": grid.rows, "BackIsHidden": True, "UniqueBack": False, "Type": shape(first)}
        custom[str(key)] = sheet
        for index, piece in enumerate(batch):
            cards.append({"Name": "Card", "Nickname": piece.title or piece.name, "CardID": 100 * key + index,
                          "Transform": transform, "CustomDeck": {str(key): sheet}})
    # A saved object is a save game whose outer fields are empty.
    saved = {"SaveName": "", "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
             "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": [{
        "Name": "DeckCustom", "Nickname": stem, "Transform": transform,
        "DeckIDs": [card["CardID"] for card in cards], "CustomDeck": custom, "ContainedObjects": cards}]}
    target = folder / f"{stem}.json"
    target.write_text(json.dumps(saved, indent=1) + "\n", encoding="utf-8")
    return [*files, target], first_key + len(sheets)


def _sheet_page(doc: PdfDocument, batch: list[Piece], grid: Grid, first: Piece, backs: bool) -> None:
    """One face sheet at trim size per cell: the cards row by row, the back in the last cell."""
    w, h = first.width, first.height
    cells: list[tuple[int, Piece, bool]] = [(i, p, False) for i, p in enumerate(batch)]
    if backs and first.back is not None:
        cells.append((grid.columns * grid.rows - 1, first, True))
    with doc.page(grid.columns * w, grid.rows * h) as c:
        for index, piece, back in cells:
            row, column = divmod(index, grid.columns)
            side = piece.back if back else piece.front
            with c.group(column * w, row * h, clip=Box(0, 0, w, h)):
                side(c, 0.0)  # type: ignore[misc]


def _raster(pdf: Path, page: int, width: int, height: int, target: Path) -> Path:
    """One page of the PDF as an RGB PNG of exactly width x height pixels."""
    stem = pdf.parent / f"page{page}"
    done = subprocess.run(["pdftoppm", "-f", str(page), "-l", str(page), "-singlefile", "-scale-to-x", str(width),
                           "-scale-to-y", str(height), str(pdf), str(stem)], capture_output=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"pdftoppm failed: {done.stderr.decode(errors='replace').strip()}")
    with Image.open(stem.with_suffix(".ppm")) as image:
        image.convert("RGB").save(target, compress_level=3)
    return target
