"""Print targets beyond home sheets: page boxes, DriveThruCards CMYK PDF/X-1a, Tabletop Simulator decks,
fold-over sheets and the duplex back offset, checked with pypdf, pikepdf, Ghostscript, pdftoppm and Pillow."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from PIL import Image
from pypdf import PdfReader

from cards import DataError, load_game
from cards.layout import FoldProfile, load_profiles, read_profiles
from cards.load import CARDS_ROOT
from generator import calibration, deck, fold, hexbattle_parts, tts
from generator.build import BuildContext, build_all, shop_pdfs
from generator.canvas import RecordingDocument
from generator.printable import PieceSet
from generator.sheets import draw_sheets

MM = 72 / 25.4
GAME = "imperial"  # the smallest full build: one deck, tokens, reference sheet


@pytest.fixture(scope="module")
def built(imperial_build: tuple[Path, list[Path]]) -> Path:
    assert GAME == "imperial"
    return imperial_build[0]  # every profile (conftest: shared with test_booklet)


def _mm(box: object) -> list[float]:
    return [round(float(v) / MM, 2) for v in box]  # type: ignore[attr-defined]


def test_every_page_of_every_profile_has_a_trim_box_inside_its_bleed_box(built: Path) -> None:
    profiles = load_profiles().profiles
    seen = set()
    for pdf in sorted(built.glob("*.pdf")):
        if not pdf.stem.endswith("-rules-screen"):  # the booklet for screens belongs to no profile
            seen.add(next(p for p in profiles if pdf.stem.endswith(f"-{p}")))
        for page in PdfReader(pdf).pages:
            trim, bleed, media = page.trimbox, page.bleedbox, page.mediabox
            assert "/TrimBox" in page and "/BleedBox" in page, pdf.name
            assert media.left <= bleed.left <= trim.left and trim.right <= bleed.right <= media.right
            assert media.bottom <= bleed.bottom <= trim.bottom and trim.top <= bleed.top <= media.top
    assert seen == set(profiles)
    # A shop page trims to the card; a home sheet to its grid of cards.
    dtc = PdfReader(built / f"{GAME}-military-dtc.pdf").pages[0]
    assert _mm(dtc.mediabox) == [0, 0, 69.85, 95.25]
    assert _mm(dtc.trimbox) == [3.17, 3.17, 66.67, 92.07]
    sheet = PdfReader(built / f"{GAME}-military-home-a4.pdf").pages[0]
    assert _mm(sheet.trimbox) == [9.75, 15.15, 200.25, 281.85]  # 3 x 63.5 by 3 x 88.9, centred
    assert _mm(sheet.bleedbox) == [6.75, 12.15, 203.25, 284.85]


def test_dtc_pdf_is_pdfx1a_with_backs_before_fronts(built: Path) -> None:
    path = built / f"{GAME}-military-dtc.pdf"
    cards = load_game(GAME).deck("military")
    with pikepdf.open(path) as pdf:
        assert pdf.pdf_version == "1.4"
        assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-1a:2003"
        assert pdf.docinfo.Trapped == pikepdf.Name("/False")
        assert "/Title" in pdf.docinfo and "/CreationDate" in pdf.docinfo and "/ModDate" in pdf.docinfo
        assert len(pdf.trailer.ID) == 2
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == pikepdf.Name.GTS_PDFX
        assert intent.DestOutputProfile.N == 4
        assert intent.DestOutputProfile.read_bytes()[36:40] == b"acsp"  # an ICC profile
        assert intent.DestOutputProfile.read_bytes()[16:20] == b"CMYK"
        assert len(pdf.pages) == 2 * len(cards)
        for page in pdf.pages:
            for font in page.Resources.Font.values():
                descriptor = font.FontDescriptor if "/FontDescriptor" in font else font.DescendantFonts[0].FontDescriptor
                assert "/FontFile2" in descriptor, font.BaseFont
    reader = PdfReader(path)
    back, front = reader.pages[0].extract_text(), reader.pages[1].extract_text()
    assert "Imperial" in back and cards[0].design.name in front


def test_dtc_pdf_has_no_rgb_and_at_most_240_percent_ink_on_any_pixel(built: Path, tmp_path: Path) -> None:
    path = built / f"{GAME}-military-dtc.pdf"
    with pikepdf.open(path) as pdf:
        for obj in pdf.objects:
            assert obj != pikepdf.Name.DeviceRGB
            if isinstance(obj, pikepdf.Dictionary) and "/ColorSpace" in obj:
                assert "DeviceRGB" not in str(obj.ColorSpace)
        operators = {str(op) for page in pdf.pages for _, op in pikepdf.parse_content_stream(page)}
    assert "k" in operators and not operators & {"rg", "RG", "sc", "scn", "SC", "SCN", "cs", "CS", "Do", "BI"}
    # Ghostscript's separations: one CMYK TIFF per page, 8 bits per ink, no anti-aliasing.
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", "-r30",
                    f"-sOutputFile={tmp_path / 'p%03d.tif'}", str(path)], check=True, capture_output=True)
    pages = sorted(tmp_path.glob("p*.tif"))
    assert len(pages) == 2 * len(load_game(GAME).deck("military"))
    worst = 0
    for tif in pages:
        with Image.open(tif) as image:
            assert image.mode == "CMYK"
            worst = max(worst, int(np.asarray(image, dtype=np.int32).sum(axis=2).max()))
    assert worst * 100 / 255 <= 240
    assert worst * 100 / 255 > 200  # the dark frames do use most of the allowance


def test_dtc_text_and_black_lines_are_pure_black_ink() -> None:
    from generator.pdfx import CmykPaint

    paint = CmykPaint(240)
    assert paint.text("#1f1b16") == "0 0 0 1 k"   # the cards' near-black ink
    assert paint.stroke("#000000") == "0 0 0 1 K"
    assert paint.fill("#808080").startswith("0 0 0 ")  # greys: black ink only
    c, m, y, k = (float(v) for v in paint.fill("#7a1f1f").split()[:4])
    assert c + m + y + k <= 2.4 and m > 0.5  # a red through the ICC profile, not 1 - RGB
    assert (c, m, y) != (0.0, round(1 - 0x1f / 255, 4), round(1 - 0x1f / 255, 4))


def test_dtc_makes_one_pdf_per_deck(tmp_path: Path) -> None:
    game = load_game("medieval")
    (cards,) = deck.piece_sets(game, None)
    subset = PieceSet(cards.name, [p for p in cards.pieces if p.name.endswith("peasant-levy-1")])
    assert len(subset.pieces) == 2
    files = shop_pdfs("medieval", subset, "dtc", load_profiles().profiles["dtc"], tmp_path, True)  # type: ignore[arg-type]
    assert [f.name for f in files] == ["medieval-cards-crimson-dtc.pdf", "medieval-cards-azure-dtc.pdf"]
    for path, colour in zip(files, ("Crimson", "Azure")):
        back, front = (p.extract_text() for p in PdfReader(path).pages)
        assert colour in back and "Peasant Levy" in front


@pytest.fixture(scope="module")
def crimson(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    """Medieval's crimson deck, 72 cards: more than one face sheet holds."""
    (cards,) = deck.piece_sets(load_game("medieval"), None)
    folder = tmp_path_factory.mktemp("tts")
    subset = PieceSet(cards.name, [p for p in cards.pieces if p.name.startswith("crimson")])
    return folder, tts.export("medieval", [subset], folder, "https://example.org/muster/")


def test_tts_face_sheets_hold_at_most_69_cards_and_the_hidden_cell(crimson: tuple[Path, list[Path]]) -> None:
    folder, files = crimson
    in_deck = 72
    assert sorted(f.name for f in files) == ["medieval-cards-back.png", "medieval-cards-faces-1.png",
                                             "medieval-cards-faces-2.png", "medieval-cards.json"]
    saved = json.loads((folder / "medieval-cards.json").read_text(encoding="utf-8"))
    (deck_object,) = saved["ObjectStates"]
    assert deck_object["Name"] == "DeckCustom"
    sheets = deck_object["CustomDeck"]
    assert list(sheets) == ["1", "2"]
    cell = None
    for key, sheet in sheets.items():
        png = folder / Path(sheet["FaceURL"]).name
        assert sheet["FaceURL"] == f"https://example.org/muster/{png.name}"
        assert sheet["BackURL"] == "https://example.org/muster/medieval-cards-back.png"
        assert sheet["NumWidth"] <= 10 and sheet["NumHeight"] <= 7
        with Image.open(png) as image:
            assert image.mode == "RGB" and max(image.size) <= 4096
            w, h = image.size[0] // sheet["NumWidth"], image.size[1] // sheet["NumHeight"]
            assert image.size == (w * sheet["NumWidth"], h * sheet["NumHeight"])
            assert cell in (None, (w, h))
            cell = (w, h)
            assert w / h == pytest.approx(63.5 / 88.9, rel=0.01)
            # The hidden cell (the grid's last) shows the card back, as the back image does.
            hidden = image.crop((image.size[0] - w, image.size[1] - h, image.size[0], image.size[1]))
            with Image.open(folder / "medieval-cards-back.png") as back:
                assert back.size == (w, h)
                diff = np.abs(np.asarray(hidden, dtype=int) - np.asarray(back.convert("RGB"), dtype=int))
                assert diff.mean() < 3
    cards = deck_object["ContainedObjects"]
    assert len(cards) == len(deck_object["DeckIDs"]) == in_deck
    assert deck_object["DeckIDs"] == [c["CardID"] for c in cards]
    assert [c["CardID"] for c in cards] == [100 + i for i in range(69)] + [200 + i for i in range(in_deck - 69)]
    assert sheets["2"]["NumWidth"] * sheets["2"]["NumHeight"] >= in_deck - 69 + 1
    assert cards[0]["Nickname"] == "Peasant Levy" and cards[0]["Name"] == "Card"
    assert all(set(c["CustomDeck"]) == {str(c["CardID"] // 100)} for c in cards)
    assert sheets["1"]["Type"] == tts.SHAPE_RECTANGLE


def test_tts_medieval_decks_get_their_own_sheet_keys_and_file_urls(tmp_path: Path) -> None:
    game = load_game("medieval")
    (cards,) = deck.piece_sets(game, None)
    subset = PieceSet(cards.name, [p for p in cards.pieces if p.name.endswith("-1")][:6]
                      + [p for p in cards.pieces if p.name.startswith("azure") and p.name.endswith("-1")][:6])
    files = tts.export("medieval", [subset], tmp_path, None)
    decks = {f.stem: json.loads(f.read_text(encoding="utf-8"))["ObjectStates"][0] for f in files if f.suffix == ".json"}
    assert set(decks) == {"medieval-cards-crimson", "medieval-cards-azure"}
    assert list(decks["medieval-cards-crimson"]["CustomDeck"]) == ["1"]
    assert list(decks["medieval-cards-azure"]["CustomDeck"]) == ["2"]
    azure = decks["medieval-cards-azure"]
    assert azure["DeckIDs"] == [200 + i for i in range(6)]
    sheet = azure["CustomDeck"]["2"]
    assert (sheet["NumWidth"], sheet["NumHeight"]) == (7, 1)
    assert sheet["FaceURL"] == (tmp_path / "medieval-cards-azure-faces-1.png").resolve().as_uri()


def test_tts_grid_is_at_most_10_by_7_and_4096_pixels() -> None:
    assert tts.grid_for(144, 63.5, 88.9) == tts.Grid(10, 7, 409, 573)
    assert tts.grid_for(3, 63.5, 88.9) == tts.Grid(4, 1, 750, 1050)
    assert tts.grid_for(69, 63.5, 88.9).capacity == 69
    for count in (1, 9, 10, 11, 68, 69, 70, 500):
        grid = tts.grid_for(count, 63.5, 88.9)
        assert grid.columns <= 10 and grid.rows <= 7
        assert grid.columns * grid.cell_w <= 4096 and grid.rows * grid.cell_h <= 4096


def test_fold_over_backs_mirror_their_fronts_across_the_fold_line() -> None:
    game = load_game(GAME)
    (military, *_) = deck.piece_sets(game, None)
    for name in ("home-fold-a4", "home-fold-letter"):
        profile = load_profiles().profiles[name]
        assert isinstance(profile, FoldProfile)
        paper = load_profiles().paper(profile)
        doc = RecordingDocument()
        pages = fold.draw_folded(doc, military.pieces[:5], profile, paper)
        assert pages == 2  # 4 cards beside their backs on a landscape page
        page = doc.pages[0]
        assert (page.width, page.height) == (paper[1], paper[0])
        fold_x = page.width / 2
        (line,) = [c for c in page.ops("line") if c.args["dash"]]
        assert line.args["x1"] == line.args["x2"] == pytest.approx(fold_x, abs=0.1)
        # place() opens one clipped top-level group at each slot's trim corner: front, back, front, back, ...
        corners, depth = [], 0
        for call in page.calls:
            if call.op == "group":
                if depth == 0 and call.args["clip"] is not None:
                    corners.append(call.args)
                depth += 1
            elif call.op == "end":
                depth -= 1
        assert len(corners) == 8
        for front, back in zip(corners[::2], corners[1::2]):
            assert back["dx"] == pytest.approx(2 * fold_x - front["dx"] - 63.5, abs=0.1)
            assert back["dy"] == pytest.approx(front["dy"], abs=0.1)
            assert front["dx"] + 63.5 <= fold_x - profile.fold_gap + 1e-9


def _line_centre(png: Path, axis: int) -> float:
    """Centre (pixels) of the dark line running along the image: axis 0 = a vertical line's x."""
    with Image.open(png) as image:
        dark = 255 - np.asarray(image.convert("L"), dtype=float)
    profile = dark.sum(axis=axis)
    profile[profile < profile.max() / 2] = 0
    return float((profile * np.arange(len(profile))).sum() / profile.sum())


@pytest.mark.parametrize("offset", [(1.5, -0.8), (-2.25, 3.1)])
def test_calibration_back_page_honours_the_back_offset(tmp_path: Path, offset: tuple[float, float]) -> None:
    (pdf,) = calibration.build(tmp_path, ["a4"], offset)
    pw, _ = load_profiles().papers["a4"]
    x, y = calibration.targets((pw, 297.0))[0]
    expected_x, expected_y = pw - x + offset[0], y + offset[1]
    dpi = 1200
    px = dpi / 25.4
    # A 4 mm window around the expected centre of the back's crosshair, cut from a 1200 dpi render.
    left, top = round((expected_x - 2) * px), round((expected_y - 2) * px)
    size = round(4 * px)
    # Only the crosshair's long arms: the window is 4 mm, the little ring 1.2 mm across.
    subprocess.run(["pdftoppm", "-r", str(dpi), "-f", "2", "-l", "2", "-x", str(left), "-y", str(top), "-W",
                    str(size), "-H", str(size), "-png", "-singlefile", "-aa", "no", "-aaVector", "no", str(pdf),
                    str(tmp_path / "back")], check=True)
    png = tmp_path / "back.png"
    found_x = (left + _line_centre(png, 0) + 0.5) / px
    found_y = (top + _line_centre(png, 1) + 0.5) / px
    assert found_x == pytest.approx(expected_x, abs=0.05)
    assert found_y == pytest.approx(expected_y, abs=0.05)


def test_home_sheet_back_pages_move_by_the_offset_and_fronts_do_not() -> None:
    game = load_game(GAME)
    (military, *_) = deck.piece_sets(game, None)
    profile = load_profiles().profiles["home-a4"]
    doc = RecordingDocument(back_offset=(0.7, -1.2))
    draw_sheets(doc, military.pieces[:9], profile, (210.0, 297.0))  # type: ignore[arg-type]
    front, back = doc.pages
    assert not front.back and back.back
    assert front.calls[0].args["dx"] != 0.7
    assert (back.calls[0].op, back.calls[0].args["dx"], back.calls[0].args["dy"]) == ("group", 0.7, -1.2)


def test_back_offset_is_stored_in_profiles_toml_and_validated(tmp_path: Path) -> None:
    path = tmp_path / "profiles.toml"
    shutil.copyfile(CARDS_ROOT / "profiles.toml", path)
    calibration.store_offset(["home-a4", "home-fold-letter"], (0.8, -1.5), path)
    calibration.store_offset(["home-a4"], (0.5, 0.0), path)
    library = load_profiles(path)
    assert library.profiles["home-a4"].back_offset == (0.5, 0.0)  # type: ignore[union-attr]
    assert library.profiles["home-fold-letter"].back_offset == (0.8, -1.5)  # type: ignore[union-attr]
    assert library.profiles["home-letter"].back_offset == (0.0, 0.0)  # type: ignore[union-attr]
    assert path.read_text(encoding="utf-8").count("# Print shops") == 1  # comments kept
    with pytest.raises(ValueError, match="only home-printing profiles"):
        calibration.store_offset(["tgc"], (0.5, 0.0), path)
    path.write_text(path.read_text(encoding="utf-8").replace("back_offset = [0.5, 0]", "back_offset = [12, 0]"),
                    encoding="utf-8")
    read_profiles.cache_clear()
    with pytest.raises(DataError, match="back_offset"):
        load_profiles(path)
    read_profiles.cache_clear()


def _muster(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True, timeout=120,
                          check=False)


@pytest.mark.parametrize(("args", "message"), [
    (["build", "--back-offset", "1,2,3"], "must be two numbers in mm"),
    (["build", "--back-offset", "0,11"], "more than 10 mm"),
    (["build", "--format", "tts", "--tts-url", "example.org/decks"], "must start with http://"),
    (["build", "--calibration", "--paper", "a3"], "unknown paper 'a3'"),
    (["build", "--save-back-offset", "--profile", "tgc", "--format", "pdf", "waterloo"],
     "--save-back-offset needs --back-offset"),
])
def test_bad_print_target_arguments_exit_2_with_a_message(args: list[str], message: str) -> None:
    result = _muster(*args)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr


def test_calibration_command_writes_one_two_page_sheet_per_paper(tmp_path: Path) -> None:
    result = _muster("build", "--calibration", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    for paper, size in (("a4", (210.0, 297.0)), ("letter", (215.9, 279.4))):
        reader = PdfReader(tmp_path / f"calibration-{paper}.pdf")
        assert len(reader.pages) == 2
        assert [round(float(v) / MM, 1) for v in reader.pages[1].mediabox[2:]] == list(size)
        assert "--back-offset" in reader.pages[0].extract_text()


def test_tts_is_a_format_of_its_own() -> None:
    from generator.build import plan

    jobs = plan(["waterloo"], ["tts"])
    assert [(j.game, j.fmt, j.profile) for j in jobs] == [("waterloo", "tts", "tts")]
    assert all(j.fmt != "tts" for j in plan(["waterloo"]))
    assert math.isclose(tts.HEX_RATIO, 40.0 / 34.641, rel_tol=1e-4)


def test_renaming_one_card_rewrites_only_that_cards_files(tmp_path: Path) -> None:
    root = tmp_path / "cards"
    shutil.copytree(CARDS_ROOT / "warfare", root / "warfare")
    out = tmp_path / "out"

    def build() -> dict[Path, int]:
        files = build_all(["warfare"], ["png", "svg"], profiles=["tgc", "home-a4"], out=out, cards_root=root)
        return {f: f.stat().st_mtime_ns for f in files}

    before = build()
    csv = root / "warfare" / "cards.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("Grenadiers", "Fusilier Guards"), encoding="utf-8")
    after = build()
    assert set(after) == set(before)
    changed = sorted(f.name for f in after if after[f] != before[f])
    pngs = [n for n in changed if n.endswith(".png")]
    copies = len([c for c in load_game("warfare").deck("cards") if c.design.name == "Grenadiers"])
    assert pngs == sorted(f"{c.id}.png" for c in load_game("warfare").deck("cards") if c.design.name == "Grenadiers")
    assert len(pngs) == copies >= 1
    # The sheet that shows the card changes; the other SVG pages are left as they were.
    assert [n for n in changed if n.endswith(".svg")] == ["warfare-cards-home-a4-p01.svg"]
