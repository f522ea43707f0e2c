"""DriveThruCards' CMYK: small near-black text (a card's kind line) in black ink alone, and the dark backs that
are over the ink limit still their own colour after it, measured through the press profile in CIELAB."""

from __future__ import annotations

import math
from pathlib import Path

import pikepdf
from PIL import Image, ImageCms

from cards import load_game
from cards.layout import game_layout, load_profiles, resolve
from cards.load import game_ids
from generator import deck, pdfx
from generator.build import shop_pdfs
from generator.drawing import mix
from generator.printable import PieceSet

MAX_INK = 2.4


def _lab_of_inks(inks: tuple[float, float, float, float]) -> tuple[float, float, float]:
    image = Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in inks))  # type: ignore[arg-type]
    (lab,) = pdfx._lab(image, pdfx._to_lab()[1])
    return lab


def _lab_of_rgb(hex_colour: str) -> tuple[float, float, float]:
    rgb = tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    (lab,) = pdfx._lab(Image.new("RGB", (1, 1), rgb), pdfx._to_lab()[0])  # type: ignore[arg-type]
    return lab


def _backs() -> set[str]:
    colours = set()
    for game_id in game_ids():
        settings = game_layout(load_game(game_id))
        colours.add(resolve("card", settings).colours["back"])
        colours.update(settings.deck_colours)
    return colours


def test_dark_backs_over_the_ink_limit_keep_their_hue_and_most_of_their_chroma() -> None:
    over = [c for c in sorted(_backs()) if sum(_raw(c)) > MAX_INK - 0.02]
    assert over, "no back is over the limit: the test would check nothing"
    for colour in over:
        inks = pdfx.to_cmyk(colour, MAX_INK)
        assert sum(inks) <= MAX_INK - 0.02 + 1e-9, colour
        want, got = _lab_of_rgb(colour), _lab_of_inks(inks)
        hue = math.degrees(math.atan2(got[2], got[1]) - math.atan2(want[2], want[1]))
        assert abs((hue + 180) % 360 - 180) <= 10, (colour, want, got)
        assert math.hypot(got[1], got[2]) >= 0.6 * math.hypot(want[1], want[2]), (colour, want, got)
        # 240 % of ink cannot reach the darkest colours: nothing within it prints darker than about L* 21.5,
        # and hexbattle's navy (#0d1740) is L* 9.
        assert abs(got[0] - want[0]) <= 13.5, (colour, want, got)


def _raw(colour: str) -> tuple[float, ...]:
    rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), pdfx._transform())  # type: ignore[arg-type]
    return tuple(v / 255 for v in pixel.getpixel((0, 0)))  # type: ignore[union-attr]


def test_every_kind_line_prints_in_black_ink_alone() -> None:
    for game_id in game_ids():
        game = load_game(game_id)
        settings = game_layout(game)
        layout = resolve("card", settings)
        size = layout.fonts["kind"].size
        for frame in [layout.colours["frame"], *settings.frames.values()]:
            deep = mix(frame, layout.colours["ink"], 0.35)  # the kind line's colour (generator/deck.py)
            c, m, y, k = pdfx.text_cmyk(deep, size, MAX_INK)
            assert (c, m, y) == (0, 0, 0) and 0.5 < k <= 1, (game_id, frame, deep)
    # Large text in a dark colour keeps its colour; white text stays white.
    assert sum(pdfx.text_cmyk("#453728", 14.0, MAX_INK)[:3]) > 0
    assert pdfx.text_cmyk("#ffffff", 7.0, MAX_INK) == (0, 0, 0, 0)


def test_a_dtc_card_file_sets_its_kind_line_in_k_only(tmp_path: Path) -> None:
    game = load_game("waterloo")
    (cards,) = deck.piece_sets(game, None)
    one = PieceSet(cards.name, [p for p in cards.pieces if p.name.startswith("guard-infantry-1")])
    (pdf,) = shop_pdfs("waterloo", one, "dtc", load_profiles().profiles["dtc"], tmp_path, backs=False)  # type: ignore[arg-type]
    with pikepdf.open(pdf) as doc:
        ops = pikepdf.parse_content_stream(doc.pages[0])
    # Every glyph run's colour: the fill operator set before it in its text block.
    colours = []
    current = None
    for operands, op in ops:
        if str(op) == "k":
            current = tuple(float(v) for v in operands)
        elif str(op) in ("Tj", "TJ"):
            colours.append(current)
    assert colours and all(c is not None for c in colours)
    assert any(c[:3] == (0, 0, 0) and 0.5 < c[3] < 1 for c in colours)  # the kind line: grey in black ink
    assert not any(c[3] > 0.5 and 0 < sum(c[:3]) for c in colours if sum(c) > 0)  # no four-colour dark text
