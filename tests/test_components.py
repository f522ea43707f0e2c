"""Game components (hexbattle parts, trackers): recorded-call traces of the layout logic, counted against the data."""

from __future__ import annotations

import math

import pytest

from cards.load import GameData, load_game
from generator import hexbattle_parts as hp
from generator import trackers
from generator.canvas import Box, Call, RecordingCanvas, RecordingDocument
from generator.drawing import mix
from generator.reference import Sheet, sheet_layout
from generator.sheets import Piece


@pytest.fixture(scope="module")
def hexbattle() -> GameData:
    return load_game("hexbattle")


def front(piece: Piece) -> RecordingCanvas:
    doc = RecordingDocument()
    with doc.page(piece.width, piece.height) as c:
        piece.front(c, piece.bleed)
    return doc.pages[0]


def texts(canvas: RecordingCanvas) -> list[str]:
    return [call.args["s"] for call in canvas.ops("text")]


def joined(canvas: RecordingCanvas) -> str:
    return " ".join(texts(canvas))


# ---------------------------------------------------------------- tiles

def test_one_tile_per_copy(hexbattle: GameData) -> None:
    pieces = hp.tiles(hexbattle)
    assert len(pieces) == sum(t.copies for t in hexbattle.table("terrain"))
    assert len({p.name for p in pieces}) == len(pieces)
    for terrain in hexbattle.table("terrain"):
        assert sum(p.design == terrain.id for p in pieces) == terrain.copies
    assert {p.back_key for p in pieces} == {"tile-back"}


def test_tile_size_is_the_board_hex_size(hexbattle: GameData) -> None:
    tile = hp.tiles(hexbattle)[0]
    geo = hp.board_geometry(hexbattle)
    assert (tile.width, tile.height) == (geo.hex_w, geo.hex_h)
    (x0, y0), (_, y1) = geo.centre(0, 0), geo.centre(0, 1)
    assert y1 - y0 == pytest.approx(tile.height)
    (x2, y2) = geo.centre(1, 0)
    assert (x2 - x0, y2 - y0) == pytest.approx((0.75 * tile.width, tile.height / 2))


def test_icons_follow_the_effect_columns_not_the_name(hexbattle: GameData) -> None:
    hills = hexbattle.by_id("terrain")["hills"]
    assert [(e.kind, e.label) for e in hp.effects(hills)] == [("sight", ""), ("defence", "+1")]
    assert hp.effects(hexbattle.by_id("terrain")["open"]) == []
    renamed = hills.model_copy(update={"name": "Ridge", "move_cost": 3, "blocks_los": False,
                                       "fire_into_modifier": -1})
    assert [(e.kind, e.label) for e in hp.effects(renamed)] == [("move", "\u00d73"), ("defence", "+1"),
                                                                 ("fire_into", "\u22121")]
    pond = hexbattle.by_id("terrain")["pond"]
    assert [e.kind for e in hp.effects(pond)] == ["impassable"]


def test_tile_front_shows_name_and_icon_labels(hexbattle: GameData) -> None:
    farm = next(p for p in hp.tiles(hexbattle) if p.design == "farm")
    words = texts(front(farm))
    assert "Farm" in words and "+3" in words and "only" in words and "\u22121" in words


def test_unknown_terrain_symbol_names_the_known_ones(hexbattle: GameData) -> None:
    with pytest.raises(KeyError, match="hills"):
        hp.draw_terrain_art(RecordingCanvas(), "lava", Box(0, 0, 10, 10), {"ink": "#000000"})


# ---------------------------------------------------------------- counters and markers

def test_counters_for_both_armies(hexbattle: GameData) -> None:
    pieces = hp.counters(hexbattle)
    per_army = sum(u.copies for u in hexbattle.table("units"))
    assert len(pieces) == len(hexbattle.table("armies")) * per_army
    assert len({p.name for p in pieces}) == len(pieces)


@pytest.mark.parametrize("unit_id", ["infantry", "light-cavalry", "heavy-artillery"])
def test_counter_shows_the_unit_numbers_in_army_colour(hexbattle: GameData, unit_id: str) -> None:
    unit = hexbattle.by_id("units")[unit_id]
    for army in hexbattle.table("armies"):
        canvas = front(hp.counter_piece(hexbattle, army.id, unit_id))
        words = texts(canvas)
        assert unit.name in words
        assert army.letter in words  # the armies differ without colour
        assert [str(unit.strength), str(unit.range) if unit.range else "\u2013", str(unit.movement)] == \
            [w for w in words if w not in (unit.name, army.letter, "STR", "RNG", "MOV")]
        assert canvas.ops("rect")[0].args["fill"] == army.colour_hex
        notch = canvas.ops("polygons")[0].args["rings"][0]
        apex = min(notch, key=lambda p: p[1])
        assert apex[0] == pytest.approx(canvas.width / 2) and apex[1] < 2.0  # the facing mark, top edge


def _pictures(canvas: RecordingCanvas) -> list[int]:
    """The size (points over all rings) of each filled shape drawn: an icon's is its own."""
    return [sum(len(r) for r in call.args["rings"]) for call in canvas.ops("polygons")]


def test_counters_and_tiles_draw_a_unit_as_the_picture_its_cards_show(hexbattle: GameData) -> None:
    """One unit vocabulary (issue 33): the counter of each unit shows its units.csv icon (musket,
    horseman, cannon, the bonus cards' inline icons), not a map symbol; a tile's "Infantry only"
    badge shows the infantry's."""
    from generator.icons import rings
    army = hexbattle.table("armies")[0].id
    for unit_id, key, icon in (("infantry", "inf", "musket"), ("heavy-cavalry", "cav", "cavalry"),
                               ("light-artillery", "art", "cannon")):
        assert hexbattle.by_id("units")[unit_id].icon == icon
        assert hexbattle.layout["inline_icons"][key]["icon"] == icon
        drawn = _pictures(front(hp.counter_piece(hexbattle, army, unit_id)))
        assert sum(len(r) for r in rings(icon)) in drawn, unit_id
    woods = next(p for p in hp.tiles(hexbattle) if p.design == "woods")
    assert sum(len(r) for r in rings("musket")) in _pictures(front(woods))


def test_markers_per_army(hexbattle: GameData) -> None:
    units = hexbattle.table("units")
    drilled = sum(u.copies for u in units if u.uses_formations)
    pieces = hp.markers(hexbattle)
    for army in hexbattle.table("armies"):
        for formation in hexbattle.table("formations"):
            assert sum(p.design == f"{army.id}-{formation.id}" for p in pieces) == drilled
        assert sum(p.design == f"{army.id}-broken" for p in pieces) == sum(u.copies for u in units)
        for value in range(1, max(u.strength for u in units)):
            assert sum(p.design == f"{army.id}-strength-{value}" for p in pieces) == \
                sum(u.copies for u in units if u.strength > value > u.broken_at)
        assert sum(p.design == f"{army.id}-strength-1" for p in pieces) == 5, "guns at 1 are broken (R23)"
    square = next(p for p in pieces if p.design.endswith("-square"))
    assert "Square" in texts(front(square))
    broken = next(p for p in pieces if p.design.endswith("-broken"))
    assert "Broken" in texts(front(broken))


# ---------------------------------------------------------------- the board

def hexes(canvas: RecordingCanvas, stroke: str) -> list[Call]:
    return [c for c in canvas.ops("polygons") if c.args["stroke"] == stroke]


def test_board_has_every_hex_and_both_starting_rows(hexbattle: GameData) -> None:
    geo = hp.board_geometry(hexbattle)
    canvas = RecordingCanvas(geo.width, geo.height)
    hp.draw_board(canvas, hexbattle)
    layout = hp.part_layout(hexbattle, "tile_layout")
    rules = hexbattle.rules
    assert len(hexes(canvas, layout.colours["grid"])) == rules.map_columns * rules.map_rows
    ids = set(texts(canvas))
    assert {f"{c},{r}" for c in range(rules.map_columns) for r in range(rules.map_rows)} <= ids
    tint = hexbattle.layout["board"]["start_tint"]
    for row, army in hp.start_rows(hexbattle).items():
        marked = hexes(canvas, mix(army.colour_hex, "#ffffff", tint))
        assert len(marked) == rules.map_columns
        centres = {round(sum(y for _, y in m.args["rings"][0]) / 6, 3) for m in marked}
        expected = {round(geo.centre(c, row)[1], 3) for c in range(rules.map_columns)}
        assert centres == expected
        assert f"{army.name}: starting row" in ids
    assert {a.home_edge for a in hexbattle.table("armies")} == {"top", "bottom"}


@pytest.mark.parametrize("paper", [(210.0, 297.0), (215.9, 279.4)])
def test_board_pages_cover_the_board_and_fit_the_paper(hexbattle: GameData, paper: tuple[float, float]) -> None:
    geo = hp.board_geometry(hexbattle)
    cols, rows, pages = hp.board_pages(hexbattle, paper)
    assert len(pages) == cols * rows > 1  # 11 x 9 hexes of tile size do not fit one sheet
    assert sum(p.window.w * p.window.h for p in pages) == pytest.approx(geo.width * geo.height)
    for p in pages:
        assert p.window.w + p.glue_right <= paper[0] - 2 * hexbattle.layout["board"]["page_margin"]
    doc = RecordingDocument()
    for draw in hp.board_pageset(hexbattle).pages:
        with doc.page(*paper) as c:
            draw(c, *paper)
    assert len(doc.pages) == len(pages)
    assert all("spans 4 pages" in joined(page) for page in doc.pages)


def test_board_svg_for_the_companion_is_a_standalone_drawing(hexbattle: GameData) -> None:
    svg = hp.tile_svg(hexbattle, "woods")
    assert svg.startswith("<svg") and "Woods" in svg
    assert "<rect" not in svg.split("<path", 1)[0]  # the hex comes first: no ground painted in the corners
    assert "Heavy Cavalry" in hp.counter_svg(hexbattle, "french", "heavy-cavalry")


# ---------------------------------------------------------------- trackers

def test_chips_add_up_to_the_starting_stack() -> None:
    waterloo = load_game("waterloo")
    denominations = trackers.chip_denominations(waterloo)
    assert sum(v * n for v, n, _ in denominations) == waterloo.rules.starting_chips
    pieces = trackers.chips(waterloo)
    assert len(pieces) == waterloo.max_players * sum(n for _, n, _ in denominations)
    for value, _, colour in denominations:
        chip = next(p for p in pieces if p.design == f"chip-{value}")
        canvas = front(chip)
        assert str(value) in texts(canvas)
        assert canvas.ops("circle")[0].args["fill"] == colour
        assert chip.back is chip.front  # the same on both sides


def test_troop_track_numbers_every_value() -> None:
    warfare = load_game("warfare")
    top = warfare.rules.starting_troops
    canvas = RecordingCanvas(210, 297)
    sheet = Sheet(canvas, sheet_layout(warfare), Box(10, 10, 190, 250))
    boxes = trackers.draw_track(sheet, Box(10, 10, 190, 250), top, warfare.layout["track_columns"])
    assert len(boxes) == top + 1
    assert texts(canvas) == [str(v) for v in range(top + 1)]
    assert len({(round(b.x, 3), round(b.y, 3)) for b in boxes}) == top + 1
    assert min(b.w for b in boxes) >= 10.0  # legible: at least 1 cm a box
    assert math.isclose(boxes[1].x - boxes[0].x, boxes[0].w)
