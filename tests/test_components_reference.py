"""Reference sheets: diagrams traced against the rules data, text read back from the PDFs, QR scanned, pages rendered."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from cards import DataError
from cards.layout import LAYOUTS_FILE, resolve
from cards.load import GameData, load_game
from engine.waterloo import combo_odds
from generator import reference
from generator.canvas import Box, PdfDocument, RecordingCanvas, SvgDocument
from generator.links import sheet_link
from generator.printable import BuildContext
from generator.reference import Sheet, fitted, one_in, percent, ring_order
from generator.text import Fitted, draw_text

BASE = "http://192.168.1.20:8501"
A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)
GAMES = list(reference.SHEETS)


@pytest.fixture(scope="module")
def games() -> dict[str, GameData]:
    return {g: load_game(g) for g in GAMES}


@pytest.fixture(scope="module")
def pdfs(games: dict[str, GameData], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each game's reference sheet as the build writes it (A4, with a companion URL)."""
    folder = tmp_path_factory.mktemp("reference")
    out = {}
    for game_id, game in games.items():
        (page_set,) = reference.printables(game, BuildContext(BASE))
        doc = PdfDocument(folder / f"{game_id}.pdf")
        for draw in page_set.pages:
            with doc.page(*A4) as c:
                draw(c, *A4)
        out[game_id] = doc.save()[0]
    return out


def recorded(game: GameData) -> RecordingCanvas:
    canvas = RecordingCanvas(*A4)
    reference.SHEETS[game.id](canvas, *A4, game=game, ctx=None)
    return canvas


def arrows(canvas: RecordingCanvas, game: GameData) -> int:
    colour = reference.sheet_layout(game).colours["arrow"]
    return sum(1 for c in canvas.ops("polygons") if c.args["fill"] == colour)


def pdf_text(path: Path) -> str:
    return " ".join((page.extract_text() or "") for page in PdfReader(path).pages)


# ---------------------------------------------------------------- diagrams

def test_warfare_diagram_has_one_arrow_per_counter_pair(games: dict[str, GameData]) -> None:
    warfare = games["warfare"]
    pairs = sum(len(v) for v in warfare.rules.counters.values())
    assert arrows(recorded(warfare), warfare) == pairs


def test_warfare_ring_reads_round_the_cycle(games: dict[str, GameData]) -> None:
    counters = {k: list(v) for k, v in games["warfare"].rules.counters.items()}
    ring = ring_order(counters, games["warfare"].rules.unit_types)
    assert ring == ["IU", "CU", "LU", "AU"]  # Infantry > Cavalry > Light Infantry > Artillery > Infantry
    for a, b in zip(ring, ring[1:] + ring[:1]):
        assert b in counters[a]


def test_imperial_triangle_has_one_arrow_per_matchup(games: dict[str, GameData]) -> None:
    imperial = games["imperial"]
    canvas = recorded(imperial)
    assert arrows(canvas, imperial) == len(imperial.rules.beats.as_dict()) == 3
    assert {"Pikemen", "Musketeers", "Cavalry"} <= set(c.args["s"] for c in canvas.ops("text"))


def test_sheet_proportions_are_checked_data(tmp_path: Path) -> None:
    """Spacing, diagram sizes and column widths live in layouts.toml; bad values are reported with their field."""
    sheets = resolve("reference").sheet_settings()
    assert sheets.imperial.diagram.height == 66.0 and sum(sheets.cards) == pytest.approx(1.0)
    broken = tmp_path / "layouts.toml"
    text = LAYOUTS_FILE.read_text(encoding="utf-8")
    broken.write_text(text.replace("combos = [0.08, 0.46, 0.2, 0.26]", "combos = [0.08, 0.46, 0.3, 0.26]")
                      .replace("types = [0.07, 0.22, 0.08, 0.08, 0.55]", "types = [0.3, 0.7]")
                      .replace("min_scale = 0.85", "min_scale = 1.5"), encoding="utf-8")
    with pytest.raises(DataError) as info:
        resolve("reference", path=broken)
    line = next(n for n, s in enumerate(text.splitlines(), 1) if s == "[layouts.reference]")
    assert [str(p) for p in info.value.problems] == [
        f"{broken}:{line}: [layouts.reference.page.min_scale = 1.5] Input should be less than or equal to 1",
        f"{broken}:{line}: [layouts.reference.sheets.waterloo.combos = [0.08, 0.46, 0.3, 0.26]] "
        "Value error, the fractions add up to 1.1, not 1",
        f"{broken}:{line}: [layouts.reference.sheets.warfare.types = [0.3, 0.7]] "
        "List should have at least 5 items after validation, not 2"]


# ---------------------------------------------------------------- text, from the PDFs

def test_waterloo_sheet_lists_every_combo_with_its_odds(games: dict[str, GameData], pdfs: dict[str, Path]) -> None:
    text = pdf_text(pdfs["waterloo"])
    odds = combo_odds(games["waterloo"])
    assert len(odds) == len(games["waterloo"].rules.combos)
    for name, p in odds:
        assert name in text and percent(p) in text and one_in(p) in text


@pytest.mark.parametrize(("game", "expected"), [
    ("warfare", ["Deploy", "Attack", "Casualty", "Maneuver", "Infantry Unit", "Terrain Strategy"]),
    ("hexbattle", ["Close combat", "Ranged fire", "Column", "Line", "Square", "Wheat Fields", "Heavy Artillery"]),
    ("imperial", ["Pikemen", "Musketeers", "Cavalry", "Routs", "Inconclusive"]),
    ("medieval", ["Survivors", "Graveyard", "Reenforce", "Ties", "Champion"]),
])
def test_sheet_text(pdfs: dict[str, Path], game: str, expected: list[str]) -> None:
    text = pdf_text(pdfs[game])
    for word in expected:
        assert word in text


def _flat(path: Path) -> str:
    """The PDF's text with every run of white space one space (table cells wrap their words)."""
    return " ".join(pdf_text(path).split())


def test_waterloo_reference_gives_every_combo_its_make_up_and_tie_order(games: dict[str, GameData],
                                                                         pdfs: dict[str, Path]) -> None:
    """Issue 33: the sheet names every combo with what it takes and the order its ties are decided in, so a
    showdown can be scored from paper."""
    text = _flat(pdfs["waterloo"])
    for combo in games["waterloo"].rules.combos:
        for words in (combo.name, combo.takes, combo.ties):
            assert words in text, (combo.id, words)
    assert "A set made with a wild card ranks below every natural set of the same size" in text


def test_hexbattle_reference_covers_deployment_arcs_sight_and_broken(games: dict[str, GameData],
                                                                     pdfs: dict[str, Path]) -> None:
    game = games["hexbattle"]
    r = game.rules
    text = _flat(pdfs["hexbattle"])
    french, british = (a.name for a in game.table("armies"))
    assert f"{french} deploys on the bottom row, {british} on the top row" in text
    assert f"{french} takes the first turn" in text
    assert (f"lose {r.front_flank_penalty} from a front flank, {r.side_flank_penalty} from a side flank, "
            f"{r.rear_penalty} from the rear") in text
    assert "Pivot (an action): turn a unit to face any side" in text
    assert f"roll a die for each, 1\u2013{r.split_block_max} blocks" in text
    assert "any unit in between block it" in text
    assert "A unit at strength 0 is Broken" in text and "its next loss destroys it" in text
    (page_set,) = reference.printables(game, BuildContext(None))
    assert len(page_set.pages) == 2


def test_imperial_reference_gives_starting_values_and_initiative(games: dict[str, GameData],
                                                                 pdfs: dict[str, Path]) -> None:
    start = games["imperial"].rules.default_options
    text = _flat(pdfs["imperial"])
    assert (f"starts with {start.imperial_power[0]} Imperial Power, {start.gold[0]} Gold and Reinforcements "
            f"{start.reinforcements[0]} for each side; player {start.initiative[0] + 1} holds the initiative") in text


@pytest.mark.parametrize("paper", [A4, LETTER])
@pytest.mark.parametrize("game", list(reference.MORE_PAGES))
def test_every_further_page_fits_both_papers(games: dict[str, GameData], game: str, paper: tuple[float, float]) -> None:
    for page in reference.MORE_PAGES[game]:
        scale = fitted(page, RecordingCanvas(*paper), *paper, game=games[game], ctx=BuildContext(BASE))
        assert reference.sheet_layout(games[game]).page_settings().min_scale <= scale <= 1.0


def test_hexbattle_numbers_come_from_the_data(games: dict[str, GameData], pdfs: dict[str, Path]) -> None:
    text = pdf_text(pdfs["hexbattle"])
    r = games["hexbattle"].rules
    assert f"at or under {r.hit_max} is a hit" in text
    assert f"lose {r.front_flank_penalty} when attacked from a front" in text


def test_percent_and_one_in_formats() -> None:
    from fractions import Fraction
    assert percent(Fraction(1, 1_906_171)) == "0.0000525%"
    assert percent(Fraction(61, 100)) == "61.0%"
    assert one_in(Fraction(1, 1_906_171)) == "1 in 1,910,000"
    assert one_in(Fraction(32, 100)) == "1 in 3.12"


# ---------------------------------------------------------------- fitting and rendering

@pytest.mark.parametrize("paper", [A4, LETTER])
@pytest.mark.parametrize("game", GAMES)
def test_every_sheet_fits_both_papers(games: dict[str, GameData], game: str, paper: tuple[float, float]) -> None:
    canvas = RecordingCanvas(*paper)
    scale = fitted(reference.SHEETS[game], canvas, *paper, game=games[game], ctx=BuildContext(BASE))
    assert reference.sheet_layout(games[game]).page_settings().min_scale <= scale <= 1.0


@pytest.mark.parametrize("paper", [A4, LETTER])
def test_no_word_is_broken_across_lines(games: dict[str, GameData], paper: tuple[float, float],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Headers such as "Copies" and cells such as "Reinforcement" keep their words whole on every sheet."""
    broken: list[tuple[str, tuple[str, ...]]] = []

    def spy(*args: Any, **kw: Any) -> Fitted:
        fitted_text = draw_text(*args, **kw)
        if " ".join(fitted_text.lines).split() != args[2].split():
            broken.append((args[2], fitted_text.lines))
        return fitted_text

    monkeypatch.setattr(reference, "draw_text", spy)
    for game in GAMES:
        for url in (None, BASE):
            fitted(reference.SHEETS[game], RecordingCanvas(*paper), *paper, game=games[game], ctx=BuildContext(url))
    assert broken == []


def test_a_column_too_narrow_for_its_words_is_widened(games: dict[str, GameData]) -> None:
    canvas = RecordingCanvas(*A4)
    sheet = Sheet(canvas, reference.sheet_layout(games["imperial"]), Box(10, 10, 100, 250))
    sheet.table(["Card", "Copies", "Text"], [["Reinforcement", "2", "A few words of text"]], [0.1, 0.05, 0.85])
    texts = {c.args["s"]: c.args for c in canvas.ops("text")}
    assert {"Reinforcement", "Copies", "Text", "2"} <= set(texts)
    assert texts["Reinforcement"]["size"] == texts["Text"]["size"]  # widened, not shrunk
    assert texts["A few words of text"]["x"] > 10 + 100 * 0.15 + 1.0


def test_sheets_render_and_embed_their_fonts(pdfs: dict[str, Path], tmp_path: Path) -> None:
    for game, pdf in pdfs.items():
        subprocess.run(["pdftoppm", "-r", "100", "-png", str(pdf), str(tmp_path / game)], check=True)
        fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        rows = fonts.splitlines()[2:]
        assert rows and all(" yes " in row for row in rows), fonts
    assert len(list(tmp_path.glob("*.png"))) == sum(len(PdfReader(pdf).pages) for pdf in pdfs.values())


def test_qr_on_the_sheet_scans_to_its_link(pdfs: dict[str, Path], tmp_path: Path) -> None:
    subprocess.run(["pdftoppm", "-r", "300", "-png", "-f", "1", "-l", "1", str(pdfs["waterloo"]), str(tmp_path / "w")],
                   check=True)
    (png,) = tmp_path.glob("w*.png")
    scanned = subprocess.run(["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True).stdout
    assert scanned.strip() == sheet_link(BASE, "waterloo", "reference")


def test_svg_sheet_renders(games: dict[str, GameData], tmp_path: Path) -> None:
    doc = SvgDocument(tmp_path, "imperial")
    (page_set,) = reference.printables(games["imperial"], BuildContext(None))
    with doc.page(*LETTER) as c:
        page_set.pages[0](c, *LETTER)
    (svg,) = doc.save()
    subprocess.run(["rsvg-convert", str(svg), "-o", str(tmp_path / "imperial.png")], check=True)
    assert (tmp_path / "imperial.png").stat().st_size > 10_000


def test_same_sheet_same_bytes(games: dict[str, GameData], pdfs: dict[str, Path], tmp_path: Path) -> None:
    (page_set,) = reference.printables(games["hexbattle"], BuildContext(BASE))
    doc = PdfDocument(tmp_path / "again.pdf")
    for page in page_set.pages:
        with doc.page(*A4) as c:
            page(c, *A4)
    assert doc.save()[0].read_bytes() == pdfs["hexbattle"].read_bytes()


def test_no_qr_without_a_companion_url(games: dict[str, GameData]) -> None:
    ink = reference.sheet_layout(games["imperial"]).colours["qr"]

    def qr_marks(url: str | None) -> int:
        canvas = RecordingCanvas(*A4)
        reference.SHEETS["imperial"](canvas, *A4, game=games["imperial"], ctx=BuildContext(url))
        return sum(1 for c in canvas.calls if c.op in ("rect", "rects", "polygons") and c.args["fill"] == ink)

    assert qr_marks(None) == 0 < qr_marks(BASE)
