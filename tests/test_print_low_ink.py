"""Low ink (`muster build --ink low`) for the pieces with the most colour, hexbattle's terrain tiles,
unit counters and markers, and waterloo's chips (issue 33: tiles 98 % and chips 83 % of their area
inked before): the share of each piece's trim area that carries any ink, measured on its pdftoppm
render, front and back."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from cards import load_game
from cards.load import game_ids
from generator import hexbattle_parts, pieces, trackers
from generator.canvas import PdfDocument
from generator.sheets import Piece

DPI = 100
INKED = 235        # a pixel with any channel below this (of 255) carries ink
LOW_INK_MAX = 0.40  # of a piece's trim area: the terrain art is kept, as low-ink cards keep their icons

needs_pdftoppm = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")


def coverage(piece: Piece, folder: Path) -> list[float]:
    """The inked share of the trim area of the piece's front and back (each at its trim size)."""
    pdf = folder / f"{piece.name}.pdf"
    doc = PdfDocument(pdf, piece.name)
    for side in filter(None, (piece.front, piece.back)):  # counters and markers are single-sided
        with doc.page(piece.width, piece.height) as c:
            side(c, 0.0)
    doc.save()
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", str(pdf), str(folder / piece.name)], check=True)
    pngs = sorted(folder.glob(f"{piece.name}-*.png"))
    return [float(np.mean(np.asarray(Image.open(p).convert("RGB")).min(axis=2) < INKED)) for p in pngs]


def _pieces(low_ink: bool) -> list[Piece]:
    tiles = {p.design: p for p in hexbattle_parts.tiles(load_game("hexbattle"), low_ink)}
    chips = {p.design: p for p in trackers.chips(load_game("waterloo"), low_ink)}
    round_markers = {f"{g}-{p.design}": p for g in game_ids() for p in pieces.markers(load_game(g), low_ink)}
    return [*tiles.values(), *chips.values(), *round_markers.values()]


def _army_pieces(low_ink: bool) -> list[Piece]:
    """One of each hexbattle counter and marker design (both armies)."""
    game = load_game("hexbattle")
    one = {p.design: p for p in [*hexbattle_parts.counters(game, low_ink), *hexbattle_parts.markers(game, low_ink)]}
    return list(one.values())


@needs_pdftoppm
def test_low_ink_tiles_chips_and_round_markers_leave_most_of_their_area_blank(tmp_path: Path) -> None:
    normal = {p.name: max(coverage(p, tmp_path)) for p in _pieces(False)}
    low = {p.name: max(coverage(p, tmp_path)) for p in _pieces(True)}
    # every terrain, every chip value, every round table marker (hexbattle 2, imperial 5, waterloo 1)
    assert set(low) == set(normal) and len(low) == 9 + 4 + 8
    assert min(normal.values()) > 0.65  # the full-colour print, for scale: tiles to the trim, chips to the cut
    heavy = {design: f"{share:.0%}" for design, share in low.items() if share > LOW_INK_MAX}
    assert not heavy, heavy


@needs_pdftoppm
def test_low_ink_counters_and_markers_leave_most_of_their_area_blank(tmp_path: Path) -> None:
    normal = {p.design: max(coverage(p, tmp_path)) for p in _army_pieces(False)}
    low = {p.design: max(coverage(p, tmp_path)) for p in _army_pieces(True)}
    # 2 armies x (6 units + 3 formations + strengths 3, 2, 1 + Broken)
    assert set(low) == set(normal) and len(low) == 2 * (6 + 3 + 4)
    units = {u.id for u in load_game("hexbattle").table("units")}
    counters = [d for d in normal if d.split("-", 1)[1] in units]
    assert len(counters) == 12 and min(normal[d] for d in counters) > 0.65  # full colour: the army's ground
    heavy = {design: f"{share:.0%}" for design, share in low.items() if share > LOW_INK_MAX}
    assert not heavy, heavy
    assert all(low[d] < normal[d] for d in low)


@needs_pdftoppm
def test_low_ink_board_pages_are_white_but_for_the_grid_and_starting_rows(tmp_path: Path) -> None:
    """Hexbattle's board is four pages of paper-coloured ground at normal ink; at low ink the ground is
    white and the starting rows are drawn as the low-ink tiles are."""
    game = load_game("hexbattle")
    shares = {}
    for low in (False, True):
        first = hexbattle_parts.board_pageset(game, low).pages[0]  # a corner page, with a starting row
        pdf = tmp_path / f"board-{low}.pdf"
        doc = PdfDocument(pdf, "board")
        with doc.page(210.0, 297.0) as c:
            first(c, 210.0, 297.0)
        doc.save()
        subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-singlefile", str(pdf), str(tmp_path / f"b{low}")],
                       check=True)
        shares[low] = float(np.mean(np.asarray(Image.open(tmp_path / f"b{low}.png").convert("RGB")).min(axis=2)
                                    < INKED))
    assert shares[False] > 0.5 and shares[True] < 0.15, shares
