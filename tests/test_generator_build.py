"""Built files opened with the tools users have: pypdf, pdffonts, pdftoppm + zbarimg, rsvg-convert, Pillow."""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from cards import DataError, load_game
from cards.layout import load_profiles
from cards.load import CARDS_ROOT
from generator import deck
from generator.build import build_all, export_png
from generator.links import card_link
from generator.printable import PieceSet

URL = "http://192.168.1.20:8501"
GAME = "warfare"
MM = 72 / 25.4


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("out")
    build_all([GAME], ["pdf", "svg"], profiles=["home-a4", "home-letter", "tgc"], out=out, url=URL)
    return out / GAME


def _cards() -> int:
    return len(load_game(GAME).deck())


def test_sheet_pdfs_have_fronts_then_backs_on_the_right_paper(built: Path) -> None:
    for profile, size in (("home-a4", (210.0, 297.0)), ("home-letter", (215.9, 279.4))):
        reader = PdfReader(built / f"{GAME}-cards-{profile}.pdf")
        assert len(reader.pages) == 2 * math.ceil(_cards() / 9)
        for page in reader.pages:
            assert float(page.mediabox.width) == pytest.approx(size[0] * MM, abs=0.01)
            assert float(page.mediabox.height) == pytest.approx(size[1] * MM, abs=0.01)
            assert page.cropbox == page.mediabox
        front, back = reader.pages[0].extract_text(), reader.pages[1].extract_text()
        assert "Grenadiers" in front and "INFANTRY UNIT" in front and "NAPOLEONIC WARFARE" in front
        assert "Napoleonic" in back and "Warfare" in back and "Grenadiers" not in back


def test_shop_pdf_is_one_card_per_page_back_first(built: Path) -> None:
    reader = PdfReader(built / f"{GAME}-cards-tgc.pdf")
    assert len(reader.pages) == _cards() + 1
    assert float(reader.pages[0].mediabox.width) == pytest.approx(825 / 300 * 72, abs=0.01)
    assert "Napoleonic" in reader.pages[0].extract_text()
    assert "Grenadiers" in reader.pages[1].extract_text()


def test_every_font_is_embedded_and_none_is_base14(built: Path) -> None:
    for pdf in built.glob("*.pdf"):
        lines = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
        assert lines, pdf
        for line in lines:
            assert "DejaVu" in line, line
            assert line.split()[-5] == "yes", line  # the emb column


def _decode(png: Path) -> list[str]:
    result = subprocess.run(["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True, check=False)
    return sorted(result.stdout.split())


def test_qr_codes_decode_from_a_300_dpi_render(built: Path, tmp_path: Path) -> None:
    subprocess.run(["pdftoppm", "-r", "300", "-png", "-f", "1", "-l", "1", str(built / f"{GAME}-cards-home-a4.pdf"),
                    str(tmp_path / "sheet")], check=True)
    (png,) = tmp_path.glob("sheet*.png")
    designs = [c.design.id for c in load_game(GAME).deck()[:9]]
    assert _decode(png) == sorted(card_link(URL, GAME, d) for d in designs)
    subprocess.run(["pdftoppm", "-r", "300", "-png", "-f", "2", "-l", "2", str(built / f"{GAME}-cards-tgc.pdf"),
                    str(tmp_path / "single")], check=True)
    (png,) = tmp_path.glob("single*.png")
    assert _decode(png) == [card_link(URL, GAME, designs[0])]


def test_svg_pages_render_with_rsvg(built: Path, tmp_path: Path) -> None:
    pages = sorted((built / "svg").glob(f"{GAME}-cards-home-a4-p*.svg"))
    assert len(pages) == 2 * math.ceil(_cards() / 9)
    text = pages[0].read_text(encoding="utf-8")
    assert "Grenadiers" in text and "font-family=\"'Muster DejaVu" in text
    png = tmp_path / "page.png"
    subprocess.run(["rsvg-convert", "--dpi-x", "300", "--dpi-y", "300", "-o", str(png), str(pages[0])], check=True)
    with Image.open(png) as image:
        assert image.size[0] == pytest.approx(210 / 25.4 * 300, abs=1)
        assert image.size[1] == pytest.approx(297 / 25.4 * 300, abs=1)
    assert _decode(png) == sorted(card_link(URL, GAME, c.design.id) for c in load_game(GAME).deck()[:9])


def test_same_inputs_give_byte_identical_files(built: Path, tmp_path: Path) -> None:
    again = build_all([GAME], ["pdf", "svg"], profiles=["home-a4", "home-letter", "tgc"], out=tmp_path, url=URL)
    assert again
    for path in again:
        assert path.read_bytes() == (built / path.relative_to(tmp_path / GAME)).read_bytes(), path


def test_shop_pngs_have_the_exact_pixel_sizes(tmp_path: Path) -> None:
    game = load_game(GAME)
    (cards,) = deck.piece_sets(game, URL)
    subset = PieceSet("cards", cards.pieces[:2])
    profiles = load_profiles()
    for name, size in (("tgc", (825, 1125)), ("mpc", (822, 1122))):
        files = export_png(subset, profiles.profiles[name], tmp_path / name, backs=True)  # type: ignore[arg-type]
        assert sorted(p.name for p in files) == sorted([f"{p.name}.png" for p in subset.pieces] + ["back-cards.png"])
        for path in files:
            with Image.open(path) as image:
                assert image.size == size
        assert _decode(tmp_path / name / f"{subset.pieces[0].name}.png") == [
            card_link(URL, GAME, subset.pieces[0].design)]
        again = export_png(subset, profiles.profiles[name], tmp_path / f"{name}-again", backs=True)  # type: ignore[arg-type]
        assert [p.read_bytes() for p in again] == [p.read_bytes() for p in files]


def test_no_url_means_no_qr_codes(tmp_path: Path) -> None:
    build_all([GAME], ["pdf"], profiles=["tgc"], out=tmp_path, url=None)
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-f", "2", "-l", "2", str(tmp_path / GAME / f"{GAME}-cards-tgc.pdf"),
                    str(tmp_path / "p")], check=True)
    (png,) = tmp_path.glob("p*.png")
    assert _decode(png) == []


def test_an_edit_to_one_game_rebuilds_only_that_game(tmp_path: Path) -> None:
    root = tmp_path / "cards"
    for game in ("warfare", "medieval"):
        shutil.copytree(CARDS_ROOT / game, root / game)
    out = tmp_path / "out"
    events: list[tuple[str, bool]] = []

    def run(force: bool = False) -> None:
        events.clear()
        build_all(None, ["svg"], profiles=["home-a4"], out=out, cards_root=root, force=force,
                  on_job=lambda job, skipped: events.append((job.game, skipped)))
        events.sort()

    run()
    assert events == [("medieval", False), ("warfare", False)]
    run()
    assert events == [("medieval", True), ("warfare", True)]
    csv = root / "warfare" / "cards.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("Grenadiers", "Fusilier Guards"), encoding="utf-8")
    run()
    assert events == [("medieval", True), ("warfare", False)]
    assert "Fusilier Guards" in (out / "warfare" / "svg" / "warfare-cards-home-a4-p01.svg").read_text(encoding="utf-8")
    run(force=True)
    assert events == [("medieval", False), ("warfare", False)]
    assert (out / "warfare" / ".build-hash").is_file()


def muster(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True, timeout=120,
                          check=False)


@pytest.mark.parametrize(("args", "message"), [
    (["build", "chess"], "unknown game chess"),
    (["build", "--format", "pdf,tiff"], "unknown format tiff"),
    (["build", "--profile", "kinkos"], "unknown profile kinkos"),
    (["build", "--paper", "a3"], "unknown paper 'a3'"),
    (["build", "--format", "svg", "--profile", "tgc"], "nothing to build"),
    (["build", "--companion-url", "192.168.1.2:8501"], "must start with http://"),
])
def test_bad_build_arguments_exit_2_with_a_message(args: list[str], message: str) -> None:
    result = muster(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_unwritable_output_folder_is_a_usage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    result = muster("build", "warfare", "--out", str(blocker / "out"))
    assert result.returncode == 2
    assert "cannot write to output folder" in result.stderr and "Traceback" not in result.stderr


def test_build_command_lists_what_it_wrote(tmp_path: Path) -> None:
    result = muster("build", "warfare", "--format", "pdf", "--paper", "a4", "--profile", "home-a4,home-letter",
                    "--out", str(tmp_path), "--no-backs")
    assert result.returncode == 0, result.stderr
    assert f"{tmp_path / 'warfare'}/: warfare-cards-home-a4.pdf" in result.stdout
    assert len(PdfReader(tmp_path / "warfare" / "warfare-cards-home-a4.pdf").pages) == math.ceil(_cards() / 9)



def test_check_reports_a_bad_game_layout_with_its_file(tmp_path: Path) -> None:
    game = tmp_path / "medieval"
    shutil.copytree(CARDS_ROOT / "medieval", game)
    toml = game / "game.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace("[layout]\n", '[layout]\nlayout = "tarot"\n'), encoding="utf-8")
    result = muster("check", "--cards", str(tmp_path))
    assert result.returncode == 2
    assert f"{toml}: [layout = 'tarot'] unknown layout 'tarot'" in result.stderr
    assert "Traceback" not in result.stderr


def test_check_keeps_card_text_regions_inside_the_safe_zone(tmp_path: Path) -> None:
    game = tmp_path / "warfare"
    shutil.copytree(CARDS_ROOT / "warfare", game)
    toml = game / "game.toml"
    text = toml.read_text(encoding="utf-8")
    text = (text if "\n[layout]\n" in text else text + "\n[layout]\n").replace("\n[layout]\n", '\n[layout]\nlayout = "edge"\n')
    toml.write_text(text + '\n[layout.layouts.edge]\nextends = "card"\nregions.text = [1.0, 50.0, 61.5, 20.0]\n',
                    encoding="utf-8")
    result = muster("check", "--cards", str(tmp_path))
    assert result.returncode == 2
    assert "[regions.text = [1.0, 50.0, 61.5, 20.0]] layout 'edge': region leaves the safe zone" in result.stderr


def test_build_reports_a_bad_layout_as_a_data_problem(tmp_path: Path) -> None:
    root = tmp_path / "cards"
    shutil.copytree(CARDS_ROOT / "medieval", root / "medieval")
    toml = root / "medieval" / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("[layout]\n", '[layout]\nlayout = "tarot"\n'),
                    encoding="utf-8")
    with pytest.raises(DataError, match="unknown layout 'tarot'"):
        build_all(None, ["svg"], out=tmp_path / "out", cards_root=root)


def test_preview_draws_a_design_with_the_printable_that_prints_it() -> None:
    """The look-up shows a card as printed: tiles and counters by the hexbattle parts, cards by the decks."""
    from cards import load_game
    from generator.build import preview_svg

    hexbattle = load_game("hexbattle")
    tile, counter, bonus = (preview_svg(hexbattle, d) for d in ("woods", "infantry", "charge"))
    assert tile is not None and tile.startswith("<svg") and "Woods" in tile
    assert counter is not None and "Infantry" in counter
    assert bonus is not None and "Charge!" in bonus
    warfare = load_game("warfare")
    card = preview_svg(warfare, "grenadiers")
    assert card is not None and "Grenadiers" in card and "INFANTRY UNIT" in card
    assert preview_svg(warfare, "no-such-card") is None
