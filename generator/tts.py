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

Pieces that are not cards (tiles, counters, markers, chips, tokens: any set with a piece that is round,
hexagonal or has no back) become `Custom_Tile` objects of their real shape (box, hexagon or circle),
stackable, one image per side, in one `Bag` per set (`<game>-<set>.json`; hexbattle's terrain tiles are a
draw bag). A page set with a `whole` piece (hexbattle's board) becomes one locked box tile,
`<game>-<set>.json`. Board and pieces are all Custom_Tiles scaled by the same rule (TILE_WIDTH), so a terrain
tile covers a board hex whatever size the table gives a tile of scale 1. Images are
`<game>-<set>-<design>.png` (a back: `<game>-<set>-<back key>[-<shape>]`) at PIECE_DPI, no side above
MAX_PIXELS. Round, hexagonal and square tiles stretch their image to the shape's regular proportions
("Stretch Aspect Ratio" in the knowledge base's Custom Tile page), so a hexagonal token's image is its
hexagon's box (`image_box`); a rectangular board keeps its image's proportions.
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
from generator.printable import AnySet, PageSet, PieceSet
from generator.sheets import Draw, Piece, draw_side

MAX_COLUMNS, MAX_ROWS = 10, 7  # Tabletop Simulator's largest custom deck sheet
MAX_PIXELS = 4096              # its largest texture side
MAX_CELL_WIDTH = 750           # 300 dpi for a poker card: more only makes every player download more
POKER_WIDTH = 63.5             # a Tabletop Simulator card at scale 1 is a poker card
HEX_RATIO = 2 / math.sqrt(3)   # width / height of a flat-topped hexagon
SHAPE_RECTANGLE, SHAPE_SQUARE, SHAPE_HEX = 0, 1, 3  # CustomDeck "Type": rounded rectangle, square, hexagon
# CustomTile "Type": 0 square or rectangle, 1 hex, 2 circle (https://api.tabletopsimulator.com/custom-game-objects/)
TILE_TYPES = {"rect": 0, "hexagon": 1, "circle": 2}
TILE_WIDTH = 50.8       # mm across a Custom_Tile of scale 1 (about two table units of an inch): an estimate, but
                        # board and pieces share it, so only the ratios between them matter, and those are exact
TILE_THICKNESS = 0.1    # table units (about an inch each): a chipboard piece, thin enough to stack
PIECE_DPI = 300         # pixels per inch of a piece's image


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


def export(game: str, sets: Sequence[AnySet], folder: Path, url: str | None,
           backs: bool = True) -> list[Path]:
    """Every deck of a game (piece sets whose pieces have backs, split per back) as sheets and a saved object."""
    folder.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    key = 1
    for piece_set in sets:
        if isinstance(piece_set, PageSet):
            if piece_set.whole is not None:
                files.extend(_tiles(f"{game}-{piece_set.name}", [piece_set.whole], folder, url, backs, board=True))
            continue
        if not isinstance(piece_set, PieceSet) or not piece_set.pieces:
            continue  # a booklet or tuck boxes (SheetSet): paper, not pieces for a table
        if any(p.back is None or p.shape != "rect" for p in piece_set.pieces):
            files.extend(_tiles(f"{game}-{piece_set.name}", piece_set.pieces, folder, url, backs))
            continue
        for deck, pieces in piece_set.decks().items():
            stem = "-".join(filter(None, (game, piece_set.name, deck)))
            written, key = _deck(stem, pieces, folder, url, key, backs)
            files.extend(written)
    return files


def _link(path: Path, url: str | None) -> str:
    return f"{url.rstrip('/')}/{path.name}" if url else path.resolve().as_uri()


def _saved(objects: list[dict[str, object]]) -> dict[str, object]:
    """A saved object: a save game whose outer fields are empty."""
    return {"SaveName": "", "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects}


def _tiles(stem: str, pieces: Sequence[Piece], folder: Path, url: str | None, backs: bool,
           board: bool = False) -> list[Path]:
    """Pieces as Custom_Tiles of their own shape, one image per distinct side, in a bag (or one locked board)."""
    sides: dict[str, tuple[Piece, Draw]] = {}  # image stem -> a piece and the side it shows
    faces: list[tuple[Piece, str, str]] = []
    for piece in pieces:
        front = f"{stem}-{piece.design or piece.name}"
        sides.setdefault(front, (piece, piece.front))
        back = front
        if backs and piece.back is not None and piece.back is not piece.front:  # a chip is the same both sides
            # Pieces sharing a back share its image (per shape: imperial's round and hexagonal tokens share a
            # back key, each cut to its shape); "-back" keeps it apart from a design's name.
            key = piece.back_key if piece.shape == "rect" else f"{piece.back_key}-{piece.shape}"
            back = f"{stem}-{key}" if "back" in key.split("-") else f"{stem}-{key}-back"
            sides.setdefault(back, (piece, piece.back))
        faces.append((piece, front, back))
    images = _side_images(list(sides.items()), folder)
    objects = [_tile(piece, _link(images[front], url), _link(images[back], url), board)
               for piece, front, back in faces]
    if board:
        (state,) = objects
    else:
        state = {"Name": "Bag", "Nickname": stem, "Transform": _transform(1.0), "ContainedObjects": objects}
    target = folder / f"{stem}.json"
    target.write_text(json.dumps(_saved([state]), indent=1) + "\n", encoding="utf-8")
    return [*dict.fromkeys(images.values()), target]


def _transform(scale: float) -> dict[str, float]:
    return {"posX": 0, "posY": 1, "posZ": 0, "rotX": 0, "rotY": 180, "rotZ": 0,
            "scaleX": scale, "scaleY": 1, "scaleZ": scale}


def _tile(piece: Piece, front: str, back: str, board: bool) -> dict[str, object]:
    """One Custom_Tile: a piece's shape, its two sides, sized against every other tile by TILE_WIDTH."""
    return {"Name": "Custom_Tile", "Nickname": piece.title or piece.name, "Locked": board,
            "Transform": _transform(round(piece.width / TILE_WIDTH, 4)),
            "CustomImage": {"ImageURL": front, "ImageSecondaryURL": back, "ImageScalar": 1, "WidthScale": 0,
                            "CustomTile": {"Type": TILE_TYPES[piece.shape], "Thickness": TILE_THICKNESS,
                                           "Stackable": not board, "Stretch": _symmetrical(piece)}}}


def _symmetrical(piece: Piece) -> bool:
    """Whether the tile should take its shape's regular proportions ("Stretch Aspect Ratio": the image is
    stretched to a square, a regular hexagon or a circle) rather than the image's (a rectangular board)."""
    return piece.shape != "rect" or math.isclose(piece.width, piece.height, rel_tol=0.01)


def image_box(piece: Piece) -> Box:
    """The part of a piece its tile image shows: the whole trim, but for a hexagon only the hexagon's own
    box (a hexagonal token is cut from a square), as a stretched tile maps the image onto that box."""
    if piece.shape == "hexagon" and piece.height > piece.width / HEX_RATIO:
        h = piece.width / HEX_RATIO
        return Box(0, (piece.height - h) / 2, piece.width, h)
    return Box(0, 0, piece.width, piece.height)


def _side_images(sides: list[tuple[str, tuple[Piece, Draw]]], folder: Path) -> dict[str, Path]:
    """Each side as an RGB PNG of its image box at PIECE_DPI (at most MAX_PIXELS a side): one PDF of them all,
    then a pdftoppm per image."""
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "sides.pdf"
        doc = PdfDocument(pdf, "sides")
        for _, (piece, side) in sides:
            box = image_box(piece)
            with doc.page(box.w, box.h) as c, c.group(-box.x, -box.y, clip=box):
                draw_side(c, side, 0.0)
        doc.save()
        out: dict[str, Path] = {}
        for n, (name, (piece, _)) in enumerate(sides, start=1):
            box = image_box(piece)
            scale = min(PIECE_DPI / 25.4, MAX_PIXELS / max(box.w, box.h))
            out[name] = _raster(pdf, n, round(box.w * scale), round(box.h * scale), folder / f"{name}.png")
    return out


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

    scale = round(first.width / POKER_WIDTH, 4)
    transform = {"posX": 0, "posY": 1, "posZ": 0, "rotX": 0, "rotY": 180, "rotZ": 180,
                 "scaleX": scale, "scaleY": 1, "scaleZ": scale}
    custom: dict[str, dict[str, object]] = {}
    cards: list[dict[str, object]] = []
    for n, (batch, grid) in enumerate(zip(sheets, grids)):
        key = first_key + n
        sheet = {"FaceURL": _link(files[n], url), "BackURL": _link(back_png, url), "NumWidth": grid.columns,
                 "NumHeight": grid.rows, "BackIsHidden": True, "UniqueBack": False, "Type": shape(first)}
        custom[str(key)] = sheet
        for index, piece in enumerate(batch):
            cards.append({"Name": "Card", "Nickname": piece.title or piece.name, "CardID": 100 * key + index,
                          "Transform": transform, "CustomDeck": {str(key): sheet}})
    saved = _saved([{"Name": "DeckCustom", "Nickname": stem, "Transform": transform,
                     "DeckIDs": [card["CardID"] for card in cards], "CustomDeck": custom, "ContainedObjects": cards}])
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
