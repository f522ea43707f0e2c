"""Generator layout logic checked on recorded drawing calls: grids, mirrored backs, cut marks, text fitting, symbols."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from cards import load_all
from cards.layout import DataError, GameLayout, load_profiles, resolve
from generator import deck, fonts
from generator.canvas import (
    Box,
    Canvas,
    PdfDocument,
    RecordingCanvas,
    RecordingDocument,
    SvgDocument,
)
from generator.qr import QUIET, draw_qr, matrix, modules
from generator.sheets import Piece, draw_sheets, draw_singles, grid, piece_svg
from generator.symbols import SYMBOLS, draw_symbol
from generator.text import fit

W, H = 63.5, 88.9


def _pieces(n: int, bleed: float = 3.0) -> list[Piece]:
    def front(c: RecordingCanvas, b: float) -> None:
        c.rect(-b, -b, W + 2 * b, H + 2 * b, fill="#ff0000")

    def back(c: RecordingCanvas, b: float) -> None:
        c.rect(-b, -b, W + 2 * b, H + 2 * b, fill="#0000ff")

    return [Piece(f"p{i}", W, H, bleed, front, back, design=f"d{i % 3}") for i in range(n)]


def _groups(page: RecordingCanvas) -> list[float]:
    """The (dx, dy) of every clipped group, flattened: where each piece was placed."""
    return [v for c in page.ops("group") if c.args["clip"] is not None for v in (c.args["dx"], c.args["dy"])]


def test_nine_poker_cards_are_centred_on_a4_at_exact_positions() -> None:
    profiles = load_profiles()
    doc = RecordingDocument()
    draw_sheets(doc, _pieces(9), profiles.profiles["home-a4"], profiles.papers["a4"])
    left, top = (210 - 3 * W) / 2, (297 - 3 * H) / 2
    expected = [v for r in range(3) for c in range(3) for v in (left + c * W, top + r * H)]
    assert _groups(doc.pages[0]) == pytest.approx(expected)
    assert (doc.pages[0].width, doc.pages[0].height) == (210.0, 297.0)


def test_back_page_mirrors_columns_for_long_edge_duplex() -> None:
    profiles = load_profiles()
    doc = RecordingDocument()
    draw_sheets(doc, _pieces(9), profiles.profiles["home-letter"], profiles.papers["letter"])
    fronts, backs = _groups(doc.pages[0]), _groups(doc.pages[1])
    for fx, fy, bx, by in zip(fronts[::2], fronts[1::2], backs[::2], backs[1::2]):
        assert bx == pytest.approx(215.9 - fx - W)
        assert by == pytest.approx(fy)
    assert [c.args["fill"] for c in doc.pages[1].ops("rect") if c.args["fill"]] == ["#0000ff"] * 9  # and the scale bar


def test_eleven_cards_take_two_sheets_each_followed_by_its_backs() -> None:
    profiles = load_profiles()
    doc = RecordingDocument()
    pages = draw_sheets(doc, _pieces(11), profiles.profiles["home-a4"], profiles.papers["a4"])
    assert pages == 4
    assert [len(_groups(p)) // 2 for p in doc.pages] == [9, 9, 2, 2]
    assert draw_sheets(RecordingDocument(), _pieces(11), profiles.profiles["home-a4"],
                       profiles.papers["a4"], backs=False) == 2


def test_small_pieces_fill_the_page_and_cards_keep_the_profile_grid() -> None:
    """Tokens and tiles are not 9 to a page: the profile grid is a minimum, the margin the limit."""
    profiles = load_profiles()
    a4, letter = profiles.papers["a4"], profiles.papers["letter"]
    # the margin (5) plus room for the scale bar (3.9, more than the marks' 3.3) on each side:
    # (210 - 2*8.9 - 2*1 bleed) // 20 = 9 columns; (297 - 17.8 - 2) // 20 = 13 rows
    assert len(grid(a4, profiles.profiles["home-a4"], 20.0, 20.0, 1.0)) == 9 * 13
    assert len(grid(letter, profiles.profiles["home-letter"], W, H, 3.0)) == 9


def test_outer_cards_keep_their_bleed_and_abutting_edges_are_clipped_at_the_cut() -> None:
    profiles = load_profiles()
    slots = grid(profiles.papers["a4"], profiles.profiles["home-a4"], W, H, 3.0)
    first, middle = slots[0], slots[4]
    assert first.clip.x == pytest.approx(first.trim.x - 3.0)
    assert first.clip.right == pytest.approx(first.trim.right)
    assert middle.clip == middle.trim


def test_cut_marks_lie_on_the_printable_page_and_only_cross_artwork_along_a_cut() -> None:
    profiles = load_profiles()
    for name in ("home-a4", "home-letter"):
        profile = profiles.profiles[name]
        paper = profiles.papers[profile.paper]
        doc = RecordingDocument()
        draw_sheets(doc, _pieces(9), profile, paper)
        slots = grid(paper, profile, W, H, 3.0)
        marks = [c for c in doc.pages[0].ops("line") if c.origin == (0.0, 0.0) and c.args["stroke"] == "#000000"]
        assert len(marks) == 2 * 4 * 2  # both directions: four cut lines, a mark at each end
        cuts_x = {round(v, 6) for s in slots for v in (s.trim.x, s.trim.right)}
        cuts_y = {round(v, 6) for s in slots for v in (s.trim.y, s.trim.bottom)}
        for mark in marks:
            a = mark.args
            for x, y in ((a["x1"], a["y1"]), (a["x2"], a["y2"])):
                assert 5.0 - 1e-9 <= x <= paper[0] - 5.0 + 1e-9 and 5.0 - 1e-9 <= y <= paper[1] - 5.0 + 1e-9
                inside = any(s.clip.x < x < s.clip.right and s.clip.y < y < s.clip.bottom for s in slots)
                assert not inside or round(x, 6) in cuts_x or round(y, 6) in cuts_y  # cut away with the bleed
        over_art = len(doc.pages[0].ops("line")) - len(marks)
        # white underlays where the margin beyond the bleed is under 3 mm: the row cuts at A4's sides
        # (9.75 mm minus 3 mm bleed), the column cuts above and below three cards on Letter (6.35 - 3)
        assert over_art == 8


def test_singles_follow_the_shop_order_and_fill_the_page() -> None:
    profiles = load_profiles()
    tgc, mpc = profiles.profiles["tgc"], profiles.profiles["mpc"]
    doc = RecordingDocument()
    stems = draw_singles(doc, _pieces(3), tgc)
    assert stems == ["back", "p0", "p1", "p2"]
    assert (doc.pages[0].width, doc.pages[0].height) == pytest.approx((825 / 300 * 25.4, 1125 / 300 * 25.4))
    bleed_rect = doc.pages[1].ops("rect")[0].args
    assert bleed_rect["w"] == pytest.approx(825 / 300 * 25.4)
    assert draw_singles(RecordingDocument(), _pieces(2), mpc) == ["p0", "p1", "back"]


def test_longest_text_in_the_data_fits_its_box() -> None:
    games = load_all()
    faces = [(g, t, deck.face_of(g, row)) for g in games.values() for t in deck.decks(g) for row in g.table(t.table)]
    game, d, face = max(faces, key=lambda f: len(f[2].text))
    layout = deck.layout_for(game, d.table, face.kind)
    region = layout.regions["text"]
    assert region is not None
    box = Box(region.x, region.y, region.w, region.h)
    spec = layout.fonts["text"]
    fitted = fit(face.text, spec.font, spec.size, spec.min_size, box)
    assert fitted.height <= box.h
    assert all(fonts.width(line, spec.font, fitted.size) <= box.w for line in fitted.lines)
    assert fitted.size >= spec.min_size
    assert " ".join(fitted.lines).split() == face.text.split()


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="abcdefghij KLMNOP.,", min_size=1, max_size=600),
       st.floats(min_value=8, max_value=60), st.floats(min_value=5, max_value=40))
def test_fitting_never_overflows_whatever_the_text(text: str, w: float, h: float) -> None:
    box = Box(0, 0, w, h)
    fitted = fit(text, "DejaVuSans", 10.0, 6.0, box)
    assert all(fonts.width(line, "DejaVuSans", fitted.size) <= w + 1e-9 for line in fitted.lines)
    assert fitted.height <= h + 1e-9 or fitted.size == pytest.approx(1.0)


def test_fitting_wraps_before_it_shrinks_and_splits_an_overlong_word() -> None:
    box = Box(0, 0, 30, 30)
    wrapped = fit("one two three four five six", "DejaVuSans", 10.0, 6.0, box)
    assert wrapped.size == 10.0 and len(wrapped.lines) > 1
    word = fit("Kriegsgefangenenlagerverwaltung", "DejaVuSans", 10.0, 6.0, Box(0, 0, 12, 30))
    assert "".join(word.lines) == "Kriegsgefangenenlagerverwaltung"
    assert all(fonts.width(line, "DejaVuSans", word.size) <= 12 for line in word.lines)


@pytest.mark.parametrize("name", sorted(SYMBOLS))
def test_every_symbol_stays_inside_its_box(name: str) -> None:
    c = RecordingCanvas()
    box = Box(10, 20, 30, 24)
    draw_symbol(c, name, box, "#000000", "#ffffff")
    assert c.calls
    slack = 1.0  # half a stroke
    for call in c.calls:
        a = call.args
        if call.op == "rect":
            xs, ys = [a["x"], a["x"] + a["w"]], [a["y"], a["y"] + a["h"]]
        elif call.op == "line":
            xs, ys = [a["x1"], a["x2"]], [a["y1"], a["y2"]]
        elif call.op == "circle":
            xs, ys = [a["cx"] - a["r"], a["cx"] + a["r"]], [a["cy"] - a["r"], a["cy"] + a["r"]]
        else:
            xs = [x for ring in a["rings"] for x, _ in ring]
            ys = [y for ring in a["rings"] for _, y in ring]
        assert box.x - slack <= min(xs) and max(xs) <= box.right + slack, call
        assert box.y - slack <= min(ys) and max(ys) <= box.bottom + slack, call


def test_unit_symbols_follow_map_conventions() -> None:
    box = Box(0, 0, 30, 20)
    counts = {}
    for name in ("infantry", "cavalry", "artillery"):
        c = RecordingCanvas()
        draw_symbol(c, name, box, "#000000", "#ffffff")
        counts[name] = (len(c.ops("line")), len(c.ops("circle")))
    assert counts == {"infantry": (2, 0), "cavalry": (1, 0), "artillery": (0, 1)}
    with pytest.raises(KeyError, match="unknown symbol"):
        draw_symbol(RecordingCanvas(), "dragon", box, "#000000", "#ffffff")


def test_qr_modules_have_a_quiet_zone_inside_the_box() -> None:
    c = RecordingCanvas()
    box = Box(5, 5, 13, 13)
    draw_qr(c, box, "http://example.org/?game=warfare&card=old-guard")
    background = c.ops("rect")[0].args
    assert (background["w"], background["fill"]) == (13, "#ffffff")
    group = c.ops("group")[0].args
    module = group["scale"]
    assert group["dx"] == pytest.approx(5 + QUIET * module)
    n = len(matrix("http://example.org/?game=warfare&card=old-guard"))
    assert module * (n + 2 * QUIET) == pytest.approx(13)


def test_qr_rectangles_cover_exactly_the_dark_modules() -> None:
    data = "http://192.168.1.20:8501/?game=medieval&card=peasant-levy"
    dark = matrix(data)
    covered = [[False] * len(dark) for _ in dark]
    for x, y, w, h in modules(data):
        for row in range(y, y + h):
            for col in range(x, x + w):
                assert not covered[row][col]
                covered[row][col] = True
    assert tuple(tuple(r) for r in covered) == dark


def _front_calls(url: str | None) -> RecordingCanvas:
    game = load_all()["warfare"]
    piece = deck.piece_sets(game, url)[0].pieces[0]
    c = RecordingCanvas()
    piece.front(c, 3.0)
    return c


def test_card_has_a_qr_code_only_with_a_companion_url() -> None:
    assert _front_calls("http://10.0.0.2:8501").ops("rects")
    assert not _front_calls(None).ops("rects")
    assert not _front_calls(None).ops("group")


def test_card_text_stays_in_the_safe_zone_and_artwork_reaches_the_bleed() -> None:
    game = load_all()["warfare"]
    layout = deck.layout_for(game, "cards", "Infantry Unit")
    c = _front_calls("http://10.0.0.2:8501")
    first = c.ops("rect")[0].args
    assert (first["x"], first["y"], first["w"]) == (-3.0, -3.0, layout.width + 6.0)
    for call in c.ops("text"):
        a = call.args
        w = fonts.width(a["s"], a["font"], a["size"])
        left = {"start": a["x"], "middle": a["x"] - w / 2, "end": a["x"] - w}[a["anchor"]]
        assert layout.safe - 0.01 <= left and left + w <= layout.width - layout.safe + 0.01, a
        assert layout.safe <= a["y"] <= layout.height - layout.safe, a


def test_medieval_prints_two_decks_differing_only_in_back_colour() -> None:
    game = load_all()["medieval"]
    settings_ = GameLayout.model_validate(game.layout)
    (cards,) = deck.piece_sets(game, None)
    assert len(cards.pieces) == 2 * len(game.deck())
    keys = {p.back_key for p in cards.pieces}
    assert len(keys) == 2
    fills = set()
    for piece in cards.pieces[:: len(game.deck())]:
        c = RecordingCanvas()
        assert piece.back is not None
        piece.back(c, 3.0)
        fills.add(c.ops("rect")[0].args["fill"])
    assert fills == set(settings_.deck_colours)


def test_layouts_inherit_and_loops_are_reported(tmp_path: Path) -> None:
    token = resolve("token")
    card = resolve("card")
    assert token.colours == card.colours and token.width == 25.0
    assert token.region("qr") is None
    broken = tmp_path / "layouts.toml"
    broken.write_text('[layouts.a]\nextends = "b"\n[layouts.b]\nextends = "a"\n', encoding="utf-8")
    with pytest.raises(DataError, match="loop"):
        resolve("a", path=broken)
    overridden = resolve("card", GameLayout(colours={"accent": "#123456"}))
    assert overridden.colours["accent"] == "#123456" and overridden.colours["panel"] == card.colours["panel"]


def test_piece_svg_is_one_standalone_drawing() -> None:
    game = load_all()["warfare"]
    piece = deck.piece_sets(game, None)[0].pieces[0]
    svg = piece_svg(piece)
    assert svg.startswith("<svg") and 'viewBox="0,0,63.5,88.9"' in svg and "Grenadiers" in svg


def _scene(c: Canvas) -> None:
    c.rect(2, 2, 20, 12, fill="#c03030")
    c.rect(26, 2, 30, 12, stroke="#000000", width=0.6, radius=3)
    c.line(2, 18, 56, 18, stroke="#000000", width=0.8, dash=(2, 1))
    c.polygon([(4, 36), (14, 22), (24, 36)], fill="#3050c0")
    c.circle(36, 29, 6, fill="#30a030", stroke="#000000", width=0.5)
    with c.group(50, 29, rotate=30, scale=2, clip=Box(-2, -4, 4, 8)):
        c.rect(-5, -5, 10, 10, fill="#000000")
    c.rects([(2, 38, 3, 1), (7, 38, 5, 1)], fill="#000000")
    c.text(30, 38, "Muster", font="DejaVuSans-Bold", size=9, fill="#000000", anchor="middle")


def test_pdf_and_svg_backends_draw_the_same_picture(tmp_path: Path) -> None:
    pdf = PdfDocument(tmp_path / "scene.pdf")
    svg = SvgDocument(tmp_path, "scene")
    for doc in (pdf, svg):
        with doc.page(60, 40) as c:
            _scene(c)
        doc.save()
    subprocess.run(["pdftoppm", "-r", "150", "-gray", "-singlefile", "-png", str(tmp_path / "scene.pdf"),
                    str(tmp_path / "from-pdf")], check=True)
    subprocess.run(["rsvg-convert", "--dpi-x", "150", "--dpi-y", "150", "-b", "white", "-o",
                    str(tmp_path / "from-svg.png"), str(tmp_path / "scene.svg")], check=True)
    with Image.open(tmp_path / "from-pdf.png") as a, Image.open(tmp_path / "from-svg.png") as b:
        a, b = a.convert("L"), b.convert("L")
        size = (min(a.width, b.width), min(a.height, b.height))
        a, b = a.crop((0, 0, *size)), b.crop((0, 0, *size))
        differing = sum(1 for x, y in zip(a.tobytes(), b.tobytes()) if abs(x - y) > 96)
        inked = sum(1 for x in a.tobytes() if x < 160)
    assert inked > 0.1 * size[0] * size[1]
    assert differing < 0.005 * size[0] * size[1]
