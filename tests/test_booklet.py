"""Rules booklets and tuck boxes, read back from the PDFs as a printer and a player meet them."""

from __future__ import annotations

import dataclasses
import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from cards import DataError
from cards.layout import load_profiles, read_profiles
from cards.load import GameData, load_game
from generator import booklet, deck, tuckbox
from generator.canvas import PdfDocument
from generator.printable import BuildContext

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)
GAMES = ["waterloo", "warfare", "hexbattle", "imperial", "medieval"]
CLAIMED = {"hexbattle": frozenset({"terrain", "units"})}


@pytest.fixture(scope="module")
def games() -> dict[str, GameData]:
    return {g: load_game(g) for g in GAMES}


def _words(pdf: Path, page: int, crop: tuple[float, float, float, float] | None = None) -> list[str]:
    """The words pdftotext reads on one page (1-based), or in a crop box (x, y, w, h in points)."""
    args = ["pdftotext", "-f", str(page), "-l", str(page)]
    if crop:
        args += ["-x", str(int(crop[0])), "-y", str(int(crop[1])), "-W", str(int(crop[2])), "-H", str(int(crop[3]))]
    out = subprocess.run([*args, str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return sorted(out.split())


def test_saddle_stitch_order() -> None:
    assert booklet.sheet_order(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert booklet.sheet_order(4) == [(4, 1), (2, 3)]
    with pytest.raises(ValueError, match="multiple of 4"):
        booklet.sheet_order(6)


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_imposed_sheets_hold_the_pages_in_folding_order(games: dict[str, GameData], paper: tuple[float, float],
                                                        tmp_path: Path) -> None:
    """Each half of each printed side reads exactly as one page of the screen PDF: sheet 1's front holds
    pages n and 1, its back 2 and n-1, and so on, which a stack folded once reads 1..n."""
    game = games["waterloo"]
    pages = booklet.pages_of(game)
    n = len(pages)
    assert n % 4 == 0 and n >= 8
    screen = PdfDocument(tmp_path / "screen.pdf")
    booklet.screen(screen, pages)
    screen.save()
    imposed = PdfDocument(tmp_path / "imposed.pdf")
    booklet.impose(imposed, pages, paper)
    imposed.save()
    reader = PdfReader(imposed.path)
    assert len(reader.pages) == n // 2
    width, height = (float(v) for v in reader.pages[0].mediabox.upper_right)
    assert math.isclose(width, max(paper) / 25.4 * 72, abs_tol=0.1)  # landscape
    by_text = {tuple(_words(screen.path, k)): k for k in range(1, n + 1)}
    assert len(by_text) == n, "every page reads differently (folios tell the note pages apart)"
    found = []
    for side in range(1, n // 2 + 1):
        halves = [_words(imposed.path, side, (0, 0, width / 2, height)),
                  _words(imposed.path, side, (width / 2, 0, width / 2, height))]
        found.append(tuple(by_text[tuple(h)] for h in halves))
    assert found == booklet.sheet_order(n)
    assert found[0] == (n, 1) and found[1] == (2, n - 1)


def _text_sizes(pdf: Path) -> list[tuple[float, str]]:
    """Every text run's size in points as printed, all transformations applied."""
    sizes: list[tuple[float, str]] = []
    for page in PdfReader(pdf).pages:
        def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
            if not text.strip():
                return
            a = tm[0] * cm[0] + tm[1] * cm[2]
            b = tm[0] * cm[1] + tm[1] * cm[3]
            c = tm[2] * cm[0] + tm[3] * cm[2]
            d = tm[2] * cm[1] + tm[3] * cm[3]
            sizes.append((size * math.sqrt(abs(a * d - b * c)), text))
        page.extract_text(visitor_text=visit)
    return sizes


@pytest.mark.parametrize("game_id", GAMES)
def test_booklet_text_is_never_below_6_pt_even_on_letter(games: dict[str, GameData], game_id: str,
                                                         tmp_path: Path) -> None:
    pages = booklet.pages_of(games[game_id], CLAIMED.get(game_id, frozenset()))
    doc = PdfDocument(tmp_path / "letter.pdf")
    booklet.impose(doc, pages, LETTER)
    doc.save()
    sizes = _text_sizes(doc.path)
    assert sizes
    smallest = min(sizes)
    assert smallest[0] >= 6.0 - 1e-3, smallest


@pytest.mark.parametrize("game_id", GAMES)
def test_booklet_teaches_in_order_without_configuration_keys(games: dict[str, GameData], game_id: str,
                                                             tmp_path: Path) -> None:
    """Components, set-up, a turn (or a hand, a battle), then the card index; no `{key}` or snake_case
    key of game.toml reaches the page."""
    game = games[game_id]
    doc = PdfDocument(tmp_path / "screen.pdf")
    booklet.screen(doc, booklet.pages_of(game, CLAIMED.get(game_id, frozenset())))
    doc.save()
    text = subprocess.run(["pdftotext", str(doc.path), "-"], capture_output=True, text=True, check=True).stdout
    flat = " ".join(text.split())
    order = [flat.find(word) for word in ("Components", "Setting up", "Index of cards")]
    assert -1 not in order and order == sorted(order), order
    assert "{" not in flat and "}" not in flat
    keys = [k for k in game.rules.model_dump() if "_" in k]
    assert not [k for k in keys if re.search(rf"\b{k}\b", flat)]
    for row in booklet.card_rows(game, CLAIMED.get(game_id, frozenset())):
        assert " ".join(row[0].split()) in flat  # the index names every card
    # the screen PDF's outline lists every chapter, on the page where its title is printed
    reader = PdfReader(doc.path)
    chapters = [b.text for b in booklet.parse(game)[0] if b.kind == "chapter"]
    assert [o.title for o in reader.outline] == chapters
    for entry in reader.outline:
        assert entry.title in reader.pages[reader.get_destination_page_number(entry)].extract_text()
    # a page the fold leaves over lists each chapter and the page it starts on, as the outline does
    pages = booklet.pages_of(game, CLAIMED.get(game_id, frozenset()))
    contents = [k for k, page in enumerate(pages) if page.chapter == "Contents" and page.folio]
    notes = [k for k, page in enumerate(pages) if page.chapter == "Notes" and page.folio]
    assert len(contents) <= 1 and (not notes or contents == [notes[0] - 1])
    if contents:
        listed = " ".join(reader.pages[contents[0]].extract_text().split())
        assert listed.startswith("Contents " + " ".join(
            f"{o.title} {reader.get_destination_page_number(o) + 1}" for o in reader.outline)), listed


def test_waterloo_booklet_gives_every_combo_its_make_up_and_ties(games: dict[str, GameData], tmp_path: Path) -> None:
    game = games["waterloo"]
    doc = PdfDocument(tmp_path / "screen.pdf")
    booklet.screen(doc, booklet.pages_of(game))
    doc.save()
    flat = " ".join(subprocess.run(["pdftotext", str(doc.path), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())
    for combo in game.rules.combos:
        assert f"{combo.takes}. Ties: {combo.ties}." in flat, combo.id
    # the example showdown, placed by the engine: Battalion, then a Magazine-made pair with an Officer,
    # then Two Pair whose Dragoon has no Officer to pair under
    assert "1 Ann" in flat and "Battalion 2 Cleo" in flat
    assert "Two Pair with Officer (Magazine as 6-Pounders 3) 3 Bob" in flat


def test_a_bad_rules_text_names_its_file_and_line(games: dict[str, GameData], tmp_path: Path) -> None:
    folder = tmp_path / "waterloo"
    shutil.copytree(games["waterloo"].folder, folder)
    text = (folder / "rules.md").read_text(encoding="utf-8")
    (folder / "rules.md").write_text(text + "\nThe {no_such_rule} chips.\n\n::: diagram nowhere\n", encoding="utf-8")
    moved = dataclasses.replace(games["waterloo"], folder=folder)
    problems = booklet.check(moved)
    lines = len(text.splitlines())
    assert [(p.line, p.message) for p in problems] == [
        (lines + 2, "'{no_such_rule}' names no rule constant of waterloo"),
        (lines + 4, "no diagram 'nowhere' for waterloo (known: combos, showdown)")]
    with pytest.raises(DataError):
        booklet.pages_of(moved)


def test_build_writes_booklets_for_duplex_profiles_and_one_screen_pdf(
        imperial_build: tuple[Path, list[Path]]) -> None:
    _, files = imperial_build  # every profile (conftest: shared with test_print_targets)
    names = {p.name for p in files}
    assert {"imperial-rules-home-a4.pdf", "imperial-rules-screen.pdf"} <= names
    assert "imperial-rules-home-fold-letter.pdf" not in names  # a booklet needs both sides of the paper
    assert {"imperial-tuck-boxes-home-a4.pdf", "imperial-tuck-boxes-home-fold-letter.pdf"} <= names
    assert len(files) == len(names)


@pytest.mark.parametrize(("game_id", "profile"), [("warfare", "home-a4"), ("warfare", "home-fold-letter"),
                                                  ("waterloo", "home-letter"), ("medieval", "home-a4")])
def test_tuck_box_is_sized_from_the_deck_and_the_stock(games: dict[str, GameData], game_id: str, profile: str,
                                                      tmp_path: Path) -> None:
    """The TrimBox of each page is the net: glue flap, two panels a card wide plus clearance, two sides as
    deep as the cards; lids, dust flaps and tuck flaps make its height."""
    game = games[game_id]
    library = load_profiles()
    chosen = library.profiles[profile]
    paper = library.paper(chosen)  # type: ignore[arg-type]
    (sheet_set,) = tuckbox.printables(game, BuildContext(None))
    doc = PdfDocument(tmp_path / "boxes.pdf")
    assert sheet_set.draw(doc, chosen, paper)
    doc.save()
    decks = [(len(p), p[0]) for s in deck.piece_sets(game, None)
             for p in s.decks().values() if max(p[0].width, p[0].height) >= tuckbox.MIN_CARD_SIDE]
    reader = PdfReader(doc.path)
    thickness = chosen.thickness  # type: ignore[union-attr]
    expected_boxes = []
    for count, card in decks:
        parts = 1
        while True:
            counts = [count // parts + (k < count % parts) for k in range(parts)]
            depths = [math.ceil((n * thickness + tuckbox.EASE) * 2) / 2 for n in counts]
            inner_w = card.width + 2 * tuckbox.CLEARANCE
            nets = [(tuckbox.GLUE + 2 * inner_w + 2 * d,
                     2 * (min(tuckbox.TUCK, inner_w / 2) + d) + card.height + tuckbox.HEAD_ROOM) for d in depths]
            usable = (paper[0] - 2 * tuckbox.MARGIN, paper[1] - 2 * tuckbox.MARGIN)
            if all((w <= usable[0] and h <= usable[1]) or (h <= usable[0] and w <= usable[1]) for w, h in nets):
                expected_boxes.extend(nets)
                break
            parts += 1
    assert len(reader.pages) == len(expected_boxes)
    for page, (w, h) in zip(reader.pages, expected_boxes):
        x0, y0, x1, y1 = (float(v) * 25.4 / 72 for v in page.trimbox)
        measured = sorted((round(x1 - x0, 2), round(y1 - y0, 2)))
        assert measured == pytest.approx(sorted((w, h)), abs=0.02)
        assert x0 >= tuckbox.MARGIN - 0.01 and y0 >= tuckbox.MARGIN - 0.01
    if game_id == "warfare" and profile == "home-fold-letter":
        assert len(expected_boxes) == 2  # 97 glued cards are too deep for one box on Letter


def test_thickness_is_checked(tmp_path: Path) -> None:
    text = (Path(__file__).parent.parent / "cards" / "profiles.toml").read_text(encoding="utf-8")
    bad = tmp_path / "profiles.toml"
    bad.write_text(text.replace("thickness = 0.3 ", "thickness = 0.0 ", 1), encoding="utf-8")
    with pytest.raises(DataError, match="thickness"):
        read_profiles(bad)


def test_hexbattle_worked_examples_follow_the_rules(games: dict[str, GameData], tmp_path: Path) -> None:
    """The booklet's charge and volley are worked out by the engine from the data: Column (+2) against Line
    (+1) from a front flank (-1) with dice 1 3 4 2 against 6 6 2 3 pairs 6-6, 5-6, 4-3, 3-2 (a tie, then the
    attacker loses one, the defender two); Line fires across Wheat (hit on 2 or less) with 2 5 1 3: two hits."""
    game = games["hexbattle"]
    doc = PdfDocument(tmp_path / "screen.pdf")
    booklet.screen(doc, booklet.pages_of(game, CLAIMED["hexbattle"]))
    doc.save()
    flat = " ".join(subprocess.run(["pdftotext", str(doc.path), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())
    assert ("the attacker loses 1 strength and the defender 2; 1 tied pair costs nobody." in flat)
    assert "each die of 2 or less hits. The dice 2, 5, 1, 3 score 2 hits: the target loses 2 strength." in flat


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_imposed_sheets_keep_ink_5_mm_from_the_paper_edge(games: dict[str, GameData], paper: tuple[float, float],
                                                          tmp_path: Path) -> None:
    """Home printers do not print the outer few millimetres: every side of every sheet, rendered, is blank
    within 5 mm of its edges (the cover's panel and the text keep to the pages' margins)."""
    from PIL import Image

    doc = PdfDocument(tmp_path / "imposed.pdf")
    booklet.impose(doc, booklet.pages_of(games["imperial"]), paper)
    doc.save()
    subprocess.run(["pdftoppm", "-r", "72", "-gray", str(doc.path), str(tmp_path / "side")], check=True)
    sides = sorted(tmp_path.glob("side-*.pgm"))
    assert len(sides) == len(PdfReader(doc.path).pages)
    border = math.ceil(5 / 25.4 * 72)
    for side in sides:
        with Image.open(side) as im:
            w, h = im.size
            strips = [im.crop((0, 0, w, border)), im.crop((0, h - border, w, h)), im.crop((0, 0, border, h)),
                      im.crop((w - border, 0, w, h))]
            assert all(strip.getextrema()[0] >= 250 for strip in strips), side.name


def test_hexbattle_diagrams_draw_the_printed_counters(games: dict[str, GameData]) -> None:
    """The arcs and line-of-sight diagrams show a unit as its counter prints (issue 33, one vocabulary):
    the army's colour and letter, and the unit's picture, never letters of their own (A, T)."""
    from generator.booklet_flow import booklet_layout
    from generator.canvas import Box, RecordingDocument
    from generator.hex_diagrams import draw_arcs, draw_sight
    from generator.icons import rings

    game = games["hexbattle"]
    french, british = game.table("armies")
    foot = game.table("units")[0]
    layout = booklet_layout(game)
    for draw, armies in ((draw_arcs, [french, french]), (draw_sight, [british, french, british] * 2)):
        doc = RecordingDocument()
        with doc.page(148, 210) as c:
            draw(c, layout, Box(10, 10, 128, 70), game)
        calls = doc.pages[0].calls
        letters = [call.args["s"] for call in calls if call.op == "text" and len(call.args["s"]) == 1]
        grounds = [call.args["fill"] for call in calls if call.op == "rect" and call.args["radius"] == 0.6]
        pictures = [call for call in calls
                    if call.op == "polygons" and len(call.args["rings"]) == len(rings(foot.icon))]
        assert letters == [a.letter for a in armies]
        assert grounds == [a.colour_hex for a in armies]
        assert len(pictures) == len(armies)
