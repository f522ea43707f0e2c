"""Issue 15's sheets: short last sheets share their page, inline icons in effect text, and the scale bar
on every kind of sheet, measured on rendered pages."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from cards import load_game, markup
from cards.layout import FoldProfile, SheetProfile, load_profiles
from generator import deck, fold, fonts, icons
from generator.build import PRINTABLES, _claimed, check, shared
from generator.canvas import Box, Document, PdfDocument, RecordingCanvas, RecordingDocument, SvgDocument
from generator.printable import BuildContext, PieceSet
from generator.sheets import SCALE_BAR, SCALE_DEPTH, draw_side, draw_sheets, pack, piece_svg, shared_sides
from generator.text import ICON_EM, ICON_GAP, draw_text, icon_token, measure
from tests.data_helpers import check_problems, rewrite_csv

DUPLEX = ("home-a4", "home-letter")
PX_PER_MM = 10  # rendering at 254 dpi
needs_pdftoppm = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")


def _sets(game_id: str) -> list[PieceSet]:
    game = load_game(game_id)
    ctx = BuildContext(None, _claimed(game_id))
    return [s for p in PRINTABLES for s in p.make(game, ctx) if isinstance(s, PieceSet)]


def _profile(name: str) -> tuple[SheetProfile, tuple[float, float]]:
    profiles = load_profiles()
    profile = profiles.profiles[name]
    assert isinstance(profile, SheetProfile)
    return profile, profiles.paper(profile)


# ---------------------------------------------------------------- 1. a short last sheet shares its page

@pytest.mark.parametrize("name", DUPLEX)
def test_waterloo_64th_card_shares_its_sheet_with_the_dealer_button(name: str) -> None:
    profile, paper = _profile(name)
    printed = {s.name: s for s in shared(_sets("waterloo"), profile, paper) if isinstance(s, PieceSet)}
    assert sorted(printed) == ["cards", "chips"]  # the button has no file of its own
    pages = pack(printed["cards"].pieces, profile, paper)
    assert len(pages) == 8  # 64 cards: 7 full sheets and one more, not 8 + 1
    assert [p.title for p, _ in pages[-1]][-1] == "Dealer" and len(pages[-1]) == 2
    assert len({p.width for p, _ in pages[-1]}) == 2  # a card and a round marker on one page


@pytest.mark.parametrize("name", DUPLEX)
def test_sharing_moves_only_sets_that_fit_whole(name: str) -> None:
    profile, paper = _profile(name)
    # hexbattle's markers (18 mm, so their 6 pt numbers fit) no longer fit beside the last bonus cards
    for game_id, expected in (("hexbattle", {"bonus_cards": ["bonus_cards", "counters", "table-markers"],
                                             "markers": ["markers"], "tiles": ["tiles"]}),
                              ("imperial", {"military": ["military", "table-markers"], "tokens": ["tokens"]}),
                              ("warfare", {"cards": ["cards"]}), ("medieval", {"cards": ["cards"]})):
        sets = _sets(game_id)
        names = {id(p): s.name for s in sets for p in s.pieces}
        printed = [s for s in shared(sets, profile, paper) if isinstance(s, PieceSet)]
        assert {s.name: list(dict.fromkeys(names[id(p)] for p in s.pieces)) for s in printed} == expected, game_id
        assert sum(len(s.pieces) for s in printed) == sum(len(s.pieces) for s in sets)


def _placed(page: RecordingCanvas) -> list[tuple[float, float]]:
    """Where each piece was placed: the (dx, dy) of every clipped top-level group."""
    return [(c.args["dx"], c.args["dy"]) for c in page.ops("group") if c.args["clip"] is not None]


@pytest.mark.parametrize("name", DUPLEX)
def test_a_shared_sheet_keeps_its_backs_registered_and_its_marks_by_the_pieces(name: str) -> None:
    profile, paper = _profile(name)
    [cards, *_] = [s for s in shared(_sets("imperial"), profile, paper) if isinstance(s, PieceSet)]
    doc = RecordingDocument()
    draw_sheets(doc, cards.pieces, profile, paper)
    front, back = doc.pages[-2], doc.pages[-1]
    last = pack(cards.pieces, profile, paper)[-1]
    assert [(p.width, p.height) for p, _ in last] == [(63.5, 88.9)] * 6 + [(25.0, 25.0)] * 8
    for (piece, slot), (fx, fy), (bx, by) in zip(last, _placed(front), _placed(back)):
        assert (fx, fy) == (slot.trim.x, slot.trim.y)
        assert bx == pytest.approx(paper[0] - fx - piece.width, abs=1e-9) and by == pytest.approx(fy, abs=1e-9)
    marks = [c.args for c in front.ops("line") if c.args["stroke"] == profile.cut_marks.colour]
    cards_bottom = max(s.trim.bottom for p, s in last if p.width == 63.5)
    tokens_top = min(s.trim.y for p, s in last if p.width == 25.0)
    between = [m for m in marks if cards_bottom + 1e-6 < min(m["y1"], m["y2"]) and max(m["y1"], m["y2"]) < tokens_top - 1e-6]
    assert between and all(m["x1"] == m["x2"] for m in between)  # only the two blocks' column marks
    tops = sorted({min(m["y1"], m["y2"]) for m in between})
    assert tops[0] >= cards_bottom + profile.cut_marks.offset - 1e-9  # cards' marks below their cut...
    assert max(max(m["y1"], m["y2"]) for m in between) <= tokens_top - profile.cut_marks.offset + 1e-9  # ...tokens' above
    for m in marks:
        for v, limit in ((m["x1"], paper[0]), (m["x2"], paper[0]), (m["y1"], paper[1]), (m["y2"], paper[1])):
            assert profile.margin - 1e-9 <= v <= limit - profile.margin + 1e-9


@needs_pdftoppm
@pytest.mark.parametrize("name", DUPLEX)
def test_shared_sheets_leave_5mm_of_the_page_edge_blank_on_both_sides(name: str, tmp_path: Path) -> None:
    profile, paper = _profile(name)
    doc = PdfDocument(tmp_path / "shared.pdf")
    for game_id in ("waterloo", "hexbattle", "imperial"):
        hosts = [s for s in shared(_sets(game_id), profile, paper) if isinstance(s, PieceSet)]
        for host in hosts:
            pages = pack(host.pieces, profile, paper)
            if len({p.width for p, _ in pages[-1]}) > 1:  # draw the shared last sheet and its backs only
                draw_sheets(doc, [p for p, _ in pages[-1]], profile, paper)
    doc.save()
    subprocess.run(["pdftoppm", "-r", "40", "-gray", "-png", str(doc.path), str(tmp_path / "p")], check=True)
    pngs = sorted(tmp_path.glob("p-*.png"))
    assert len(pngs) == 6  # waterloo cards, hexbattle bonus cards, imperial military: front and back
    for png in pngs:
        with Image.open(png) as image:
            grey = np.asarray(image.convert("L"))
        band = int(5.0 * 40 / 25.4)
        edges = (grey[:, :band], grey[:, -band:], grey[:band, :], grey[-band:, :])
        assert all(e.min() >= 250 for e in edges), png.name


# ---------------------------------------------------------------- 2. inline icons in effect text

def test_inline_markup_prints_an_icon_and_reads_as_its_word() -> None:
    game = load_game("warfare")
    row = game.by_id("cards")["grenadiers"]
    assert row.text.endswith("knock out one attacking [cav] unit.")
    assert markup.plain(game, row.text).endswith("knock out one attacking Cavalry unit.")
    face = deck.printed_face(game, row)
    assert f"{icon_token('cavalry')}Cavalry unit." in face.text and "[" not in face.text
    for name, (icon, _) in {**markup.inline_icons(game), **markup.inline_icons(load_game("hexbattle"))}.items():
        assert icon in icons.known(), name


def test_an_inline_icon_is_measured_drawn_in_line_and_kept_with_its_word() -> None:
    font, size = "DejaVuSans", 10.0
    em = size * fonts.PT
    line = f"one attacking {icon_token('cavalry')}Cavalry unit"
    assert measure(line, font, size) == pytest.approx(fonts.width("one attacking Cavalry unit", font, size)
                                                      + (ICON_EM + ICON_GAP) * em)
    doc = RecordingDocument()
    with doc.page(100, 30) as c:
        fitted = draw_text(c, Box(0, 0, 100, 30), line, font, size, 6.0, "#222222", align="start")
    assert fitted.size == size and len(fitted.lines) == 1
    page = doc.pages[0]
    texts = [(t.args["x"], t.args["s"]) for t in page.ops("text")]
    [icon] = page.ops("polygons")
    xs = [x for ring in icon.args["rings"] for x, _ in ring]
    start = fonts.width("one attacking ", font, size)
    assert texts == [(0, "one attacking "), (pytest.approx(start + (ICON_EM + ICON_GAP) * em), "Cavalry unit")]
    assert start - 1e-6 <= min(xs) and max(xs) <= start + ICON_EM * em + 1e-6 and icon.args["fill"] == "#222222"
    with RecordingDocument().page(40, 30) as c:
        narrow = draw_text(c, Box(0, 0, 40, 30), line, font, size, 6.0, "#222222")
    assert any(ln.startswith(icon_token("cavalry")) for ln in narrow.lines)  # wrapped before the icon, not after


def test_every_card_with_inline_icons_fits_its_text_box_in_pdf_and_svg(tmp_path: Path) -> None:
    for game_id in ("warfare", "hexbattle"):
        game = load_game(game_id)
        _, warnings = check({game_id: game})
        assert warnings == [], game_id  # check() fits every text and reports any shrunk below its min_size
        [cards] = deck.piece_sets(game, None, _claimed(game_id))
        rows = game.by_id(cards.name)
        marked = [p for p in cards.pieces if "[" in rows[p.design].text]
        assert marked, game_id
        svg = piece_svg(marked[0])
        assert "[" not in svg and "\ue000" not in svg and "<path" in svg


def test_unknown_markup_is_reported_in_its_file_and_row(cards_copy: Path) -> None:
    path = cards_copy / "warfare" / "cards.csv"

    def edit(rows: list[list[str]]) -> None:
        rows[1][rows[0].index("text")] = "Defend: discard to knock out one attacking [horse] unit."
    rewrite_csv(path, edit)
    assert check_problems(cards_copy, "warfare") == [
        f"{path}: [text = 'Defend: discard to knock out one attacking [horse] unit.'] card 'grenadiers': unknown "
        f"inline icon [horse] in its text (known in warfare/game.toml [layout.inline_icons]: [art], [cav], [inf], "
        "[light])"]


# ---------------------------------------------------------------- 3. the scale bar on every sheet kind

def _bar_groups(page: RecordingCanvas) -> list[tuple[float, float, float]]:
    """(dx, dy, rotate) of each scale bar: the group opened just before a 50 x 1 mm outlined rect."""
    out = []
    for before, call in zip(page.calls, page.calls[1:]):
        if call.op == "rect" and call.args["w"] == SCALE_BAR and call.args["fill"] is None and before.op == "group":
            out.append((before.args["dx"], before.args["dy"], before.args["rotate"]))
    return out


def _sheets(doc: Document, kind: str, name: str) -> None:
    """Ten imperial military cards as `kind` prints them: a front sheet and its back sheet, or fold-over sheets."""
    profiles = load_profiles()
    [military, *_] = deck.piece_sets(load_game("imperial"), None)
    if kind == "fold":
        profile = profiles.profiles[name.replace("home-", "home-fold-")]
        assert isinstance(profile, FoldProfile)
        fold.draw_folded(doc, military.pieces[:10], profile, profiles.paper(profile))
    else:
        profile = profiles.profiles[name]
        assert isinstance(profile, SheetProfile)
        draw_sheets(doc, military.pieces[:10], profile, profiles.paper(profile))


@needs_pdftoppm
@pytest.mark.parametrize("name", DUPLEX)
@pytest.mark.parametrize("kind", ["duplex", "fold"])
def test_every_sheet_front_back_and_fold_over_carries_a_50mm_scale_bar(kind: str, name: str, tmp_path: Path) -> None:
    recording = RecordingDocument()
    _sheets(recording, kind, name)
    pdf = PdfDocument(tmp_path / "s.pdf")
    _sheets(pdf, kind, name)
    pdf.save()
    subprocess.run(["pdftoppm", "-r", str(PX_PER_MM * 25.4), "-gray", "-png", str(pdf.path), str(tmp_path / "p")],
                   check=True)
    pngs = sorted(tmp_path.glob("p-*.png"))
    assert len(pngs) == len(recording.pages) == (4 if kind == "duplex" else 3)
    for page, png in zip(recording.pages, pngs):
        [(dx, dy, rotate)] = _bar_groups(page)
        assert "print at 100% \u2014 this bar is 50 mm" in [t.args["s"] for t in page.ops("text")]
        with Image.open(png) as image:
            grey = np.asarray(image.convert("L"))
        if rotate == 0:  # the bar's middle row, from 5 mm before it to 5 mm after
            strip = grey[round((dy + 0.5) * PX_PER_MM), round((dx - 5) * PX_PER_MM):round((dx + 55) * PX_PER_MM)]
        else:  # turned a quarter clockwise: it runs down the page, to the left of x = dx
            assert rotate == 90
            strip = grey[round((dy - 5) * PX_PER_MM):round((dy + 55) * PX_PER_MM), round((dx - 0.5) * PX_PER_MM)]
        dark = np.flatnonzero(strip < 128)
        assert len(dark) > 0, png.name
        length = (dark[-1] - dark[0] + 1) / PX_PER_MM
        assert length == pytest.approx(SCALE_BAR, abs=0.3), png.name
        bar = Box(dx, dy, SCALE_BAR, 1.0) if rotate == 0 else Box(dx - 1.0, dy, 1.0, SCALE_BAR)
        for call in page.ops("group"):  # outside every piece's artwork (its clip box): never cut off with a card
            clip = call.args["clip"]
            if clip is not None:
                art = Box(call.origin[0] + call.args["dx"] + clip.x, call.origin[1] + call.args["dy"] + clip.y,
                          clip.w, clip.h)
                assert not (bar.x < art.right and art.x < bar.right and bar.y < art.bottom and art.y < bar.bottom)


def test_svg_sheets_carry_the_bar_on_backs_too(tmp_path: Path) -> None:
    doc = SvgDocument(tmp_path, "s")
    _sheets(doc, "duplex", "home-a4")
    paths = doc.save()
    assert len(paths) == 4
    assert all("this bar is 50 mm" in p.read_text(encoding="utf-8") for p in paths)


def test_pieces_are_never_wider_than_a_sheet_after_sharing() -> None:
    """Every piece of every game lands in exactly one slot inside the page, however the sets are shared."""
    for name in DUPLEX:
        profile, paper = _profile(name)
        for game_id in ("waterloo", "hexbattle", "imperial", "warfare", "medieval"):
            sets = _sets(game_id)
            for host in shared(sets, profile, paper):
                assert isinstance(host, PieceSet)
                placed = [(p, s) for page in pack(host.pieces, profile, paper) for p, s in page]
                assert [p for p, _ in placed] == host.pieces
                assert all(0 <= s.clip.x and s.clip.right <= paper[0] and 0 <= s.clip.y
                           and s.clip.bottom <= paper[1] for _, s in placed)



# ---------------------------------------------------------------- 6. drawn once, replayed after

def test_a_replayed_side_is_the_same_drawing_and_the_same_pdf_bytes(tmp_path: Path) -> None:
    game = load_game("warfare")
    [cards] = deck.piece_sets(game, "http://192.168.1.20:8501")
    pieces = shared_sides(cards.pieces)
    assert len({id(p.back) for p in pieces}) == 1 and len({id(p.front) for p in pieces}) == 97  # one back drawing
    direct, first, again = RecordingCanvas(), RecordingCanvas(), RecordingCanvas()
    pieces[0].front(direct, 3.0)
    draw_side(first, pieces[0].front, 3.0)
    draw_side(again, pieces[0].front, 3.0)  # from the recording
    assert first.calls == direct.calls and again.calls == direct.calls
    assert any(c.op == "polygons" for c in direct.calls) and any(c.op == "group" for c in direct.calls)
    files = []
    for name, draw in (("direct", lambda c: pieces[1].back(c, 3.0)), ("replayed", lambda c: draw_side(c, pieces[1].back, 3.0))):
        doc = PdfDocument(tmp_path / f"{name}.pdf")
        with doc.page(70.0, 95.0) as c, c.group(3.0, 3.0):
            draw(c)
        files.append(doc.save()[0].read_bytes())
    assert files[0] == files[1]


@needs_pdftoppm
@pytest.mark.parametrize("name", DUPLEX)
def test_every_page_of_the_hexbattle_board_carries_a_50mm_scale_bar_below_its_window(name: str,
                                                                                    tmp_path: Path) -> None:
    """The board spans four pages and its hexes must match the tiles: each page says whether it printed at 100 %."""
    from generator import hexbattle_parts

    profiles = load_profiles()
    paper = profiles.paper(profiles.profiles[name])  # type: ignore[arg-type]
    board = hexbattle_parts.board_pageset(load_game("hexbattle"))
    recording, pdf = RecordingDocument(), PdfDocument(tmp_path / "board.pdf")
    for doc in (recording, pdf):
        for draw in board.pages:
            with doc.page(*paper) as c:
                draw(c, *paper)
    pdf.save()
    subprocess.run(["pdftoppm", "-r", str(PX_PER_MM * 25.4), "-gray", "-png", str(pdf.path), str(tmp_path / "p")],
                   check=True)
    pngs = sorted(tmp_path.glob("p-*.png"))
    assert len(pngs) == len(recording.pages) == 4
    for page, png in zip(recording.pages, pngs):
        [(dx, dy, rotate)] = _bar_groups(page)
        assert rotate == 0 and "print at 100% \u2014 this bar is 50 mm" in [t.args["s"] for t in page.ops("text")]
        [frame] = [r for r in page.ops("rect") if r.args["stroke"] is not None and r.args["w"] > 100]
        assert dy > frame.args["y"] + frame.args["h"]  # under the board, not on it
        assert dy + SCALE_DEPTH <= paper[1] - 5.0
        with Image.open(png) as image:
            grey = np.asarray(image.convert("L"))
        strip = grey[round((dy + 0.5) * PX_PER_MM), round((dx - 5) * PX_PER_MM):round((dx + 55) * PX_PER_MM)]
        dark = np.flatnonzero(strip < 128)
        assert (dark[-1] - dark[0] + 1) / PX_PER_MM == pytest.approx(SCALE_BAR, abs=0.3), png.name
