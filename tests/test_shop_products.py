"""Tiles, counters, chips and tokens at the print shops: each piece on the shop's own product (The Game Crafter's
hex tiles and chits), at the product's exact pixel size, the piece scaled to fill the product's cut."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from cards import load_game
from cards.layout import load_profiles
from generator.build import BuildContext, _claimed, export_png, shop_groups, shop_pdfs
from generator.build import PRINTABLES
from generator.printable import PieceSet
from generator.sheets import product_for

MM = 72 / 25.4


def _sets(game_id: str) -> dict[str, PieceSet]:
    game = load_game(game_id)
    ctx = BuildContext(None, _claimed(game_id))
    return {s.name: s for p in PRINTABLES for s in p.make(game, ctx) if isinstance(s, PieceSet)}


def _products(game_id: str, profile: str) -> dict[str, set[str | None]]:
    shop = load_profiles().profiles[profile]
    return {name: {product_for(p, shop) for p in s.pieces} for name, s in _sets(game_id).items()}  # type: ignore[arg-type]


def test_each_piece_goes_to_the_smallest_game_crafter_product_of_its_shape_that_holds_it() -> None:
    assert {k: v for k, v in _products("hexbattle", "tgc").items() if k != "bonus_cards"} == {
        "tiles": {"SmallHexTile"},          # 40 mm across the corners: a 2 in hex tile
        "counters": {"LargeSquareChit"},    # 22 mm: a 1 in square chit
        "markers": {"MediumSquareChit"},    # 16 mm: a 3/4 in square chit
        "table-markers": {"LargeCircleChit"}}
    assert _products("imperial", "tgc")["tokens"] == {"LargeCircleChit", "MiniHexTile", "LargeSquareChit"}
    assert _products("waterloo", "tgc")["chips"] == {"LargeCircleChit"}
    # MakePlayingCards and DriveThruCards get cards only: no product of theirs is listed for a chit or tile.
    assert _products("hexbattle", "mpc")["tiles"] == {None}
    assert not shop_groups(_sets("waterloo")["chips"], load_profiles().profiles["dtc"])  # type: ignore[arg-type]


@pytest.mark.parametrize(("game_id", "set_name", "count"), [("hexbattle", "tiles", 3), ("imperial", "tokens", 40),
                                                            ("hexbattle", "counters", 2)])
def test_shop_pngs_and_pdf_pages_have_the_products_pixel_size_and_cut(tmp_path: Path, game_id: str, set_name: str,
                                                                      count: int) -> None:
    shop = load_profiles().profiles["tgc"]
    pieces = PieceSet(set_name, _sets(game_id)[set_name].pieces[:count])
    groups = shop_groups(pieces, shop)  # type: ignore[arg-type]
    assert groups and all(name for name, _, _ in groups)
    for name, product, group in groups:
        want = shop.products[name]  # type: ignore[union-attr]
        files = export_png(PieceSet(set_name, group), product, tmp_path / name, backs=True)
        assert files
        for png in files:
            with Image.open(png) as image:
                assert image.size == (want.width_px, want.height_px), png.name
    pdf = shop_pdfs(game_id, pieces, "tgc", shop, tmp_path, backs=True)  # type: ignore[arg-type]
    sizes = set()
    for page in PdfReader(pdf[0]).pages:
        media, trim = page.mediabox, page.trimbox
        px = (round(float(media.width) / 72 * 300), round(float(media.height) / 72 * 300))
        product = next(p for p in shop.products.values() if (p.width_px, p.height_px) == px)  # type: ignore[union-attr]
        # The piece fills the cut: one side of the trim box is the product's cut, the other within it.
        cut = [float(v) / 72 * 300 for v in (trim.width, trim.height)]
        assert min(abs(cut[0] - product.trim_px[0]), abs(cut[1] - product.trim_px[1])) < 0.5
        assert cut[0] <= product.trim_px[0] + 0.5 and cut[1] <= product.trim_px[1] + 0.5
        sizes.add(px)
    assert len(sizes) == len(groups)
