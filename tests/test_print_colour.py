"""A kit that reads without colour (issue 33): every pair of things a player tells apart — card
kinds in a fanned hand, the two hexbattle armies, the two medieval decks, chips, tokens, markers —
stays apart under simulated protanopia, deuteranopia (Machado, Oliveira and Fernandes 2009, full
severity) and greyscale, by lightness alone: hue is thrown away after the simulation.

Each piece is printed to PDF and rendered with pdftoppm, as a player's printer would: cards alone
and on an A4 sheet as the build lays them out, other pieces on their sheet. A card is compared
where a fanned hand shows it (its corner badge and index); any other piece whole. Two
renders are apart when at least MIN_AREA of the compared area differs by DELTA_L L* or more:
different letters, figures or pictures, or grounds 20 L* apart (the issue's bar for a pair told
apart by colour). A single figure that differs ("3" and "2" at 12 pt) covers about 2 mm²."""

from __future__ import annotations

import itertools
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from cards import load_game
from cards.layout import SheetProfile, load_profiles
from cards.load import game_ids
from generator import deck
from generator.build import PRINTABLES, _claimed
from generator.canvas import Box, PdfDocument
from generator.printable import BuildContext, PieceSet
from generator.sheets import Piece, draw_sheets, pack

DPI = 150
DELTA_L = 20.0       # L*: a pixel differs when the two renders are this far apart in lightness
MIN_AREA = 1.5       # mm² of the compared region
FAN = Box(0.0, 0.0, 17.0, 22.0)  # mm: the top-left corner of a card that a fanned hand leaves in view
HAND_CARD = 50.0     # mm: pieces at least this wide are cards held in a hand

# Machado et al. 2009, severity 1.0, on linear RGB.
MACHADO = {
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "greyscale": np.eye(3),
}
LUMA = np.array([0.2126, 0.7152, 0.0722])

needs_pdftoppm = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")


def seen_linear(rgb: np.ndarray, vision: str) -> np.ndarray:
    """Linear RGB (0..1) of an sRGB image (0..255) as a viewer with `vision` sees it."""
    c = rgb.astype(np.float64) / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return np.clip(linear @ MACHADO[vision].T, 0.0, 1.0)


def simulate(rgb: np.ndarray, vision: str) -> np.ndarray:
    """An sRGB image (0..255) as a viewer with `vision` sees it, for pictures (greyscale: its L* as grey)."""
    seen = seen_linear(rgb, vision)
    if vision == "greyscale":
        seen = np.repeat((seen @ LUMA)[..., None], 3, axis=-1)
    srgb = np.where(seen <= 0.0031308, seen * 12.92, 1.055 * seen ** (1 / 2.4) - 0.055)
    return np.round(srgb * 255).astype(np.uint8)


def lightness(rgb: np.ndarray, vision: str) -> np.ndarray:
    """CIE L* of every pixel of an sRGB image (0..255) as a viewer with `vision` sees it."""
    y = seen_linear(rgb, vision) @ LUMA
    return np.where(y > 216 / 24389, 116 * np.cbrt(y) - 16, y * 24389 / 27)


@dataclass(frozen=True)
class Thing:
    """One piece to compare, and the part of it a player looks at (mm, None: all of it)."""

    label: str
    piece: Piece
    region: Box | None = None


def render(things: list[Thing], folder: Path) -> list[np.ndarray]:
    """Each piece's front alone on a page of its trim size, rendered by pdftoppm, as RGB arrays."""
    pdf = folder / "pieces.pdf"
    doc = PdfDocument(pdf, "pieces")
    for thing in things:
        with doc.page(thing.piece.width, thing.piece.height) as c:
            thing.piece.front(c, 0.0)
    doc.save()
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", str(pdf), str(folder / "p")], check=True)
    pngs = sorted(folder.glob("p-*.png"), key=lambda p: int(p.stem.split("-")[1]))
    assert len(pngs) == len(things)
    return [np.asarray(Image.open(p).convert("RGB")) for p in pngs]


def crop(image: np.ndarray, region: Box | None) -> np.ndarray:
    if region is None:
        return image
    px = DPI / 25.4
    return image[round(region.y * px):round(region.bottom * px), round(region.x * px):round(region.right * px)]


def area_apart(a: np.ndarray, b: np.ndarray, vision: str) -> float:
    """The area in mm² whose lightness differs by DELTA_L or more (over the part both renders cover)."""
    h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    la, lb = lightness(a[:h, :w], vision), lightness(b[:h, :w], vision)
    return float(np.count_nonzero(np.abs(la - lb) >= DELTA_L)) * (25.4 / DPI) ** 2


def card_kinds(game_id: str) -> list[Thing]:
    """One card of each kind, and every card without a value (its badge shows its picture), each
    seen where a fanned hand shows it (FAN, for card-sized pieces; tokens whole); games with two
    decks, each deck's."""
    game = load_game(game_id)
    out: list[Thing] = []
    for d in deck.decks(game, _claimed(game_id)):
        seen: set[str] = set()
        for card in game.deck(d.table):
            face = deck.printed_face(game, card.design)
            if card.copy > 1 or (face.kind in seen and face.corner):
                continue
            seen.add(face.kind)
            piece = deck.card_piece(game, d, card, None)
            out.append(Thing(f"{d.name} {face.kind} {card.design.id}".strip(), piece,
                             FAN if piece.width >= HAND_CARD else None))
    return out


def piece_designs(game_id: str) -> Iterator[tuple[str, list[Thing]]]:
    """Every other piece set (counters, markers, chips, tokens, table markers), one piece per design."""
    game = load_game(game_id)
    ctx = BuildContext(None, _claimed(game_id))
    for printable in PRINTABLES:
        if printable.name == "cards":
            continue
        for piece_set in printable.make(game, ctx):
            if isinstance(piece_set, PieceSet):
                designs = {p.design or p.name: p for p in piece_set.pieces}
                yield piece_set.name, [Thing(name, piece) for name, piece in designs.items()]


def pairs_not_apart(things: list[Thing], images: list[np.ndarray], cropped: bool = False) -> list[str]:
    """Every pair of things whose renders (cropped to each thing's region unless `cropped`) are not apart."""
    crops = images if cropped else [crop(image, t.region) for t, image in zip(things, images)]
    out = []
    for (i, a), (j, b) in itertools.combinations(enumerate(things), 2):
        for vision in MACHADO:
            area = area_apart(crops[i], crops[j], vision)
            if area < MIN_AREA:
                out.append(f"{a.label} / {b.label} under {vision}: {area:.2f} mm² apart")
    return out


@needs_pdftoppm
@pytest.mark.parametrize("game_id", game_ids())
def test_card_kinds_read_apart_in_a_fanned_hand_without_colour(game_id: str, tmp_path: Path) -> None:
    things = card_kinds(game_id)
    assert len(things) >= 3
    assert not pairs_not_apart(things, render(things, tmp_path))


def on_a_sheet(things: list[Thing], folder: Path) -> list[np.ndarray]:
    """The things' pieces laid out as the build prints them on A4 home sheets (`sheets.pack` and
    `draw_sheets`: neighbours' bleed, cut marks, the scale bar), rendered by pdftoppm; each thing's
    region (else its trim) cut from its page, in the things' order."""
    library = load_profiles()
    profile = library.profiles["home-a4"]
    assert isinstance(profile, SheetProfile)
    paper = library.paper(profile)
    pieces = [t.piece for t in things]
    doc = PdfDocument(folder / "sheet.pdf", "sheet")
    draw_sheets(doc, pieces, profile, paper, backs=False)
    doc.save()
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", str(folder / "sheet.pdf"), str(folder / "s")], check=True)
    pages = [np.asarray(Image.open(p).convert("RGB"))
             for p in sorted(folder.glob("s-*.png"), key=lambda p: int(p.stem.split("-")[1]))]
    where = {id(piece): (k, slot) for k, placed in enumerate(pack(pieces, profile, paper)) for piece, slot in placed}
    assert len(where) == len(things)
    crops = []
    for t in things:
        k, slot = where[id(t.piece)]
        r = t.region or Box(0.0, 0.0, t.piece.width, t.piece.height)
        crops.append(crop(pages[k], Box(slot.trim.x + r.x, slot.trim.y + r.y, r.w, r.h)))
    return crops


@needs_pdftoppm
@pytest.mark.parametrize("game_id", game_ids())
def test_card_kinds_read_apart_on_a_printed_sheet(game_id: str, tmp_path: Path) -> None:
    """The same cards laid out as the build prints them on an A4 home sheet (`sheets.pack` and
    `draw_sheets`: neighbours' bleed, cut marks, the scale bar), each compared in its fanned corner
    on the rendered sheet, so nothing the sheet adds or clips spoils an index."""
    things = [t for t in card_kinds(game_id) if t.region is not None]
    if len(things) < 2:  # imperial: every card is Military, told apart by its type's initial
        game = load_game(game_id)
        things = [Thing(card.design.id, deck.card_piece(game, d, card, None), FAN)
                  for d in deck.decks(game, _claimed(game_id)) for card in game.deck(d.table) if card.copy == 1]
    assert len(things) >= 3
    assert not pairs_not_apart(things, on_a_sheet(things, tmp_path), cropped=True)


@needs_pdftoppm
@pytest.mark.parametrize("game_id", game_ids())
def test_pieces_read_apart_without_colour(game_id: str, tmp_path: Path) -> None:
    """Each piece set's designs, one of each, on its sheet as printed, each compared whole."""
    failures = []
    for k, (name, things) in enumerate(piece_designs(game_id)):
        folder = tmp_path / f"{k}-{name}"
        folder.mkdir()
        failures += [f"{name}: {f}" for f in pairs_not_apart(things, on_a_sheet(things, folder), cropped=True)]
    assert not failures, "\n".join(failures)


@needs_pdftoppm
def test_the_armies_and_the_medieval_decks_are_20_lstar_apart_without_colour(tmp_path: Path) -> None:
    """The grounds themselves, not only their letters: a hexbattle counter of each army, and the two
    medieval backs, compared by their median lightness under each simulation."""
    hexbattle = load_game("hexbattle")
    from generator.hexbattle_parts import counter_piece
    counters = [Thing(a.id, counter_piece(hexbattle, a.id, "infantry")) for a in hexbattle.table("armies")]
    medieval = load_game("medieval")
    backs = []
    for d in deck.decks(medieval):
        piece = deck.card_piece(medieval, d, medieval.deck(d.table)[0], None)
        backs.append(Thing(d.name, Piece(piece.name, piece.width, piece.height, piece.bleed, piece.back)))
    for k, things in enumerate((counters, backs)):
        folder = tmp_path / str(k)
        folder.mkdir()
        first, second = render(things, folder)
        for vision in MACHADO:
            a, b = float(np.median(lightness(first, vision))), float(np.median(lightness(second, vision)))
            assert abs(a - b) >= 20.0, (vision, things[0].label, a, things[1].label, b)


def test_the_simulation_removes_what_it_should() -> None:
    """Red and green of one lightness fall together for a deuteranope, not in greyscale's L* sense
    alone; and a lightness step of 25 L* survives every simulation."""
    red, green = np.array([[[200, 60, 60]]]), np.array([[[110, 130, 40]]])
    assert abs(lightness(red, "deuteranopia") - lightness(green, "deuteranopia")).max() < 8.0
    dark, light = np.array([[[40, 40, 40]]]), np.array([[[100, 100, 100]]])
    for vision in MACHADO:
        assert abs(lightness(dark, vision) - lightness(light, vision)).max() >= 25.0


def test_a_card_kind_without_index_letters_is_reported(cards_copy: Path) -> None:
    from generator.build import check
    toml = cards_copy / "waterloo" / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('Wild = { letters = "WILD" }\n', ""), encoding="utf-8")
    _, warnings = check({"waterloo": load_game("waterloo", cards_copy)})
    assert [str(w) for w in warnings] == [
        f"{toml}: [layout.index.Wild = 'Wild'] card '{card}': its kind has no corner index (letters, so a "
        "fanned hand reads without colour)" for card in ("magazine", "dragoon")]
    _, shipped = check({g: load_game(g) for g in game_ids()})
    assert not shipped
