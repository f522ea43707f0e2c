"""Issue 15: printed pieces that look like a published game — effect text, icons and their credits,
and sheets any printer can print (no ink within 5 mm of the page edge, a scale bar, marks only
where pieces are). Margins are checked on rendered pages (pdftoppm), not on coordinates."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from cards import load_game, markup
from cards.layout import FoldProfile, SheetProfile, load_profiles
from cards.load import CARDS_ROOT, game_ids
from generator import deck, fold, icons
from generator.build import PRINTABLES, _claimed, draw_set
from generator.canvas import PdfDocument, RecordingDocument
from generator.printable import BuildContext, PieceSet
from generator.sheets import SCALE_LABEL, Piece, draw_sheets, grid
from tests.data_helpers import check_problems, rewrite_csv

REPO = CARDS_ROOT.parent
NO_INK_MM = 5.0
DPI = 40


def _games() -> dict[str, object]:
    return {g: load_game(g) for g in game_ids()}


# ---------------------------------------------------------------- effect text

def _has_effect(game: str, row: object) -> bool:
    """Which designs do something in the rules (the issue's list), read from the data itself."""
    if game == "warfare":
        return True  # every type has a counter, deploy or defence role (docs/rules/warfare.md)
    if game == "waterloo":
        return row.kind not in ("infantry", "cavalry", "artillery")  # type: ignore[attr-defined]
    if game == "medieval":
        return row.effect != "none"  # type: ignore[attr-defined]
    if game == "hexbattle":
        return row.kind != "nothing"  # type: ignore[attr-defined]
    return True  # imperial: Military cards and every token kind


def test_every_design_that_does_something_prints_what_it_does() -> None:
    tables = {"warfare": "cards", "waterloo": "cards", "medieval": "cards", "hexbattle": "bonus_cards",
              "imperial": "military"}
    checked = 0
    for game_id, table in tables.items():
        game = load_game(game_id)
        for row in game.table(table):
            if _has_effect(game_id, row):
                text = deck.face_of(game, row).text
                assert text.strip(), f"{game_id} {row.id}: no effect text"
                assert not re.fullmatch(r"\w+ \d+\.?", text), f"{game_id} {row.id}: text only repeats the value"
                checked += 1
    # warfare all 97; waterloo 4 Officers + 6 specials and wilds; medieval 13 (play another, characters,
    # events); hexbattle 21 bonus cards (all but You Get Nothing); imperial 3 Military cards
    assert checked == 97 + 10 + 13 + 21 + 3


def test_warfare_units_say_what_they_counter_and_morale_halves_casualties() -> None:
    game = load_game("warfare")
    rows = game.by_id("cards")
    assert "knock out one attacking [cav] unit" in rows["grenadiers"].text
    assert "knock out one attacking Cavalry unit" in markup.plain(game, rows["grenadiers"].text)
    assert "halved" in rows["high-morale"].text
    assert "draw 3 cards" in rows["captain"].text and "draw 1 card." in rows["corporal"].text
    for row in game.table("cards"):  # the counter named on each unit card is the one the rules use
        for target in game.rules.counters.get(row.type, []):
            if row.type in game.rules.unit_types and target in game.rules.unit_types:
                name = {"IU": "Infantry", "LU": "Light Infantry", "CU": "Cavalry", "AU": "Artillery"}[target]
                assert f"attacking {name} unit" in markup.plain(game, row.text), row.id


# ---------------------------------------------------------------- icons and credits

def test_every_icon_the_data_names_exists_and_every_card_has_one() -> None:
    games = list(_games().values())
    assert icons.check(games) == []
    named = icons.names_in_data(games)
    assert named <= icons.known()
    for game in games:
        for table in game.card_tables():
            if table in _claimed(game.id) - {"bonus_cards"}:
                continue
            for row in game.table(table):
                assert deck.face_of(game, row).icon in icons.known(), f"{game.id} {table} {row.id}"


def test_icons_are_vector_paths_the_same_in_pdf_and_svg() -> None:
    rings = icons.rings("cannon")
    assert len(rings) >= 2 and all(0.0 <= x <= 1.0 and 0.0 <= y <= 1.0 for ring in rings for x, y in ring)
    doc = RecordingDocument()
    with doc.page(30, 30) as c:
        icons.draw_icon(c, "cannon", icons.Box(0, 0, 30, 30), "#123456")
    [call] = doc.pages[0].ops("polygons")
    assert call.args["fill"] == "#123456" and len(call.args["rings"]) == len(rings)


def test_credits_name_every_icon_set_and_icon_used() -> None:
    credits = icons.CREDITS_FILE.read_text(encoding="utf-8")
    assert "game-icons.net" in credits and "CC BY 3.0" in credits
    assert "creativecommons.org/licenses/by/3.0" in credits
    for name in icons.known():
        assert f"`{name}`" in credits
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "game-icons.net" in readme and "CC BY 3.0" in readme
    library = icons._library()
    assert library["prefix"] == "game-icons" and "CC BY 3.0" in library["licence"]


def test_reference_sheets_print_the_icon_credit(tmp_path: Path) -> None:
    game = load_game("medieval")
    [sheet] = [s for p in PRINTABLES if p.name == "reference" for s in p.make(game, BuildContext(None))]
    doc = PdfDocument(tmp_path / "ref.pdf")
    profiles = load_profiles()
    draw_set(doc, sheet, profiles.profiles["home-a4"], profiles.papers["a4"], True)
    doc.save()
    text = " ".join(PdfReader(tmp_path / "ref.pdf").pages[0].extract_text().split())
    assert "game-icons.net" in text and "CC BY 3.0" in text


def test_an_unknown_icon_is_reported_in_its_file_and_row(cards_copy: Path) -> None:
    path = cards_copy / "medieval" / "cards.csv"

    def edit(rows: list[list[str]]) -> None:
        rows[2][rows[0].index("icon")] = "no-such-icon"
    rewrite_csv(path, edit)
    assert check_problems(cards_copy, "medieval") == [
        f"{path}: [squire.icon = 'no-such-icon'] unknown icon 'no-such-icon' (add it with scripts/extract_icons.py)"]


# ---------------------------------------------------------------- sheets

def _sample(piece_set: PieceSet, profile: SheetProfile, paper: tuple[float, float]) -> PieceSet:
    """Each size of the set, repeated to one full page and one piece more: the outermost slots and a
    short last page, without drawing every page of a 97-card deck."""
    pieces: list[Piece] = []
    sizes: dict[tuple[float, float, float], list[Piece]] = {}
    for p in piece_set.pieces:
        sizes.setdefault((p.width, p.height, p.bleed), []).append(p)
    for (w, h, b), group in sizes.items():
        if isinstance(profile, FoldProfile) and any(p.back for p in group):
            page = fold.page_for(paper, profile, w, h, b)
            per_page = len(fold.fold_slots(page, profile, w, h, b)[0])
        else:
            per_page = len(grid(paper, profile, w, h, b))
        pieces.extend(itertools.islice(itertools.cycle(group), per_page + 1))
    return PieceSet(piece_set.name, pieces)


def _inked_near_edge(png: Path, mm: float) -> list[str]:
    """Sides of the page with any non-white pixel lying wholly within `mm` of that edge."""
    with Image.open(png) as image:
        grey = image.convert("L")
        w, h = grey.size
        n = int(mm / (25.4 / DPI))  # whole pixels inside the band
        bands = {"left": (0, 0, n, h), "right": (w - n, 0, w, h), "top": (0, 0, w, n), "bottom": (0, h - n, w, h)}
        return [side for side, box in bands.items() if grey.crop(box).getextrema()[0] < 250]


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
@pytest.mark.parametrize("profile_name", ["home-a4", "home-letter", "home-fold-a4", "home-fold-letter"])
def test_no_ink_within_5mm_of_the_page_edge_on_any_sheet(profile_name: str, tmp_path: Path) -> None:
    profiles = load_profiles()
    profile = profiles.profiles[profile_name]
    assert isinstance(profile, SheetProfile)
    paper = profiles.paper(profile)
    pdf = tmp_path / "all.pdf"
    doc = PdfDocument(pdf)
    names: list[str] = []
    for game_id in game_ids():
        game = load_game(game_id)
        ctx = BuildContext("http://192.168.1.20:8501", _claimed(game_id))
        for printable in PRINTABLES:
            for piece_set in printable.make(game, ctx):
                sample = _sample(piece_set, profile, paper) if isinstance(piece_set, PieceSet) else piece_set
                if draw_set(doc, sample, profile, paper, True):
                    names.append(f"{game_id}-{piece_set.name}")
    doc.save()
    pages = len(PdfReader(pdf).pages)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-png", str(pdf), str(tmp_path / "p")], check=True)
    bad = {}
    for png in sorted(tmp_path.glob("p-*.png")):
        sides = _inked_near_edge(png, NO_INK_MM)
        if sides:
            bad[png.name] = sides
    assert pages > len(names) and bad == {}


def test_every_front_sheet_carries_the_scale_bar_and_marks_only_where_pieces_are() -> None:
    profiles = load_profiles()
    for name in ("home-a4", "home-letter"):
        profile = profiles.profiles[name]
        paper = profiles.paper(profile)
        token = Piece("t", 22.0, 22.0, 1.5, lambda c, b: c.rect(-b, -b, 22 + 2 * b, 22 + 2 * b, fill="#333333"))
        doc = RecordingDocument()
        draw_sheets(doc, [token] * 16, profile, paper, backs=False)  # two rows of eight, on a page for 96
        [page] = doc.pages
        assert any(c.args["s"] == SCALE_LABEL for c in page.ops("text"))
        marks = [c.args for c in page.ops("line") if c.args["stroke"] == "#000000"]
        ys = {round(a["y1"], 3) for a in marks if a["y1"] == a["y2"]}
        assert len(ys) == 3  # the row cuts of two rows, not of the page's twelve
        bottom = max(max(a["y1"], a["y2"]) for a in marks)
        slots = grid(paper, profile, 22.0, 22.0, 1.5)
        assert bottom < slots[16].trim.y + 3.5  # no marks down the empty rest of the page


# ---------------------------------------------------------------- the missing pieces

def test_imperial_player_card_tracks_and_markers() -> None:
    from cards.layout import game_layout
    from generator import pieces
    game = load_game("imperial")
    card = game_layout(game).track_card
    assert card is not None and card.per_player
    assert [(t.name, t.first, t.last) for t in card.tracks] == [
        ("Imperial Power", 0, 24), ("Gold", 0, 24), ("Reinforcements", 0, 12), ("Round", 1, 8)]
    names = [p.title for p in pieces.markers(game)]
    assert names == ["Imperial Power"] * 2 + ["Gold"] * 2 + ["Reinforcements"] * 2 + ["Round", "Initiative"]
    sets = {s.name for s in pieces.printables(game, BuildContext(None))}
    assert sets == {"player-card", "table-markers"}


def test_waterloo_dealer_button_and_hexbattle_action_and_turn_track() -> None:
    from cards.layout import game_layout
    from generator import pieces
    assert [p.title for p in pieces.markers(load_game("waterloo"))] == ["Dealer"]
    hexbattle = load_game("hexbattle")
    card = game_layout(hexbattle).track_card
    assert card is not None and not card.per_player
    assert [(t.first, t.last) for t in card.tracks] == [(0, hexbattle.rules.max_actions), (1, hexbattle.rules.turn_limit)]
    assert [p.title for p in pieces.markers(hexbattle)] == ["Actions", "Turn"]


def test_imperial_tokens_differ_by_shape_and_icon_not_only_colour() -> None:
    from cards.layout import layout_for
    game = load_game("imperial")
    looks = {}
    for row in game.table("tokens"):
        face = deck.face_of(game, row)
        looks[row.kind] = (layout_for(game, "tokens", face.kind).shape, face.icon)
    assert looks["imperial_power"] == ("circle", "imperial-crown")
    assert looks["gold"] == ("hexagon", "coins")
    assert len(set(looks.values())) == len(looks)


def test_square_marker_prints_its_cavalry_and_infantry_modifiers() -> None:
    from generator.hexbattle_parts import formation_lines
    rows = load_game("hexbattle").by_id("formations")
    assert formation_lines(rows["square"]) == "vs cav +6\nvs inf \u22122"
    assert formation_lines(rows["column"]) == "Move 2\nCC +2"


def test_medieval_decks_differ_by_a_mark_not_only_colour() -> None:
    game = load_game("medieval")
    decks = deck.decks(game)
    marks = {d.name: d.mark for d in decks}
    assert marks == {"Crimson": "knight-banner", "Azure": "tower-flag"}


# ---------------------------------------------------------------- low ink

def test_low_ink_cards_keep_their_icons_and_paint_no_coloured_ground() -> None:
    game = load_game("warfare")
    [normal] = [s for s in deck.piece_sets(game, None) if s.name == "cards"]
    [low] = [s for s in deck.piece_sets(game, None, low_ink=True) if s.name == "cards"]
    for pieces, coloured in ((normal.pieces, True), (low.pieces, False)):
        doc = RecordingDocument()
        piece = pieces[0]
        for side in (piece.front, piece.back):
            with doc.page(piece.width, piece.height) as c:
                side(c, piece.bleed)
        for page in doc.pages:
            grounds = [r.args["fill"] for r in page.ops("rect") if r.args["w"] >= piece.width
                       and r.args["fill"] not in (None, "#ffffff")]
            assert bool(grounds) == coloured
            assert len(page.ops("polygons")) >= 1  # the icon (front) or emblem (back) is kept


def test_an_unknown_ink_is_refused(tmp_path: Path) -> None:
    from generator.build import BuildError, build_all
    with pytest.raises(BuildError, match="unknown ink 'none' \\(inks: normal, low\\)"):
        build_all(["warfare"], ["pdf"], profiles=["home-a4"], out=tmp_path, ink="none")
