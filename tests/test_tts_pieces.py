"""Tabletop Simulator beyond decks: hexbattle's board, terrain tiles (a stackable draw bag), counters and markers,
and the round and hexagonal chips and tokens, each a Custom_Tile of its real shape, read back from the saved
objects the export writes."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from cards import load_game
from generator import tts
from generator.build import PRINTABLES, _claimed
from generator.printable import BuildContext, PageSet, PieceSet

BOX, HEX, CIRCLE = tts.TILE_TYPES["rect"], tts.TILE_TYPES["hexagon"], tts.TILE_TYPES["circle"]


def _sets(game_id: str) -> list[PieceSet | PageSet]:
    game = load_game(game_id)
    return [s for p in PRINTABLES for s in p.make(game, BuildContext(None, _claimed(game_id)))]


def _objects(folder: Path, name: str) -> dict[str, object]:
    (state,) = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))["ObjectStates"]
    return state  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def hexbattle(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    folder = tmp_path_factory.mktemp("tts")
    return folder, tts.export("hexbattle", _sets("hexbattle"), folder, "https://example.org/hb")


def test_every_hexbattle_piece_is_on_the_table_with_its_type_shape_and_count(
        hexbattle: tuple[Path, list[Path]]) -> None:
    folder, files = hexbattle
    game = load_game("hexbattle")
    assert {f.stem for f in files if f.suffix == ".json"} == {
        "hexbattle-board", "hexbattle-tiles", "hexbattle-counters", "hexbattle-markers", "hexbattle-table-markers",
        "hexbattle-bonus_cards"}
    board = _objects(folder, "hexbattle-board")
    assert board["Name"] == "Custom_Tile" and board["Locked"] is True
    assert board["CustomImage"]["CustomTile"]["Type"] == BOX  # type: ignore[index]
    assert board["CustomImage"]["CustomTile"]["Stretch"] is False  # type: ignore[index]  # keeps its proportions
    bags = {name: _objects(folder, f"hexbattle-{name}") for name in ("tiles", "counters", "markers", "table-markers")}
    assert all(bag["Name"] == "Bag" for bag in bags.values())
    contents = {name: bag["ContainedObjects"] for name, bag in bags.items()}
    # Every physical piece once: 80 terrain tiles by terrain, 16 counters, 62 markers, the two track markers.
    terrain = game.by_id("terrain")
    assert Counter(o["Nickname"] for o in contents["tiles"]) == Counter(  # type: ignore[union-attr,index]
        {t.name: t.copies for t in terrain.values()})
    assert sum(t.copies for t in terrain.values()) == len(contents["tiles"]) == 80
    assert (len(contents["counters"]), len(contents["markers"]), len(contents["table-markers"])) == (16, 62, 2)
    types = {name: {o["CustomImage"]["CustomTile"]["Type"] for o in objs}  # type: ignore[index]
             for name, objs in contents.items()}
    assert types == {"tiles": {HEX}, "counters": {BOX}, "markers": {BOX}, "table-markers": {CIRCLE}}
    assert all(o["Name"] == "Custom_Tile" and o["CustomImage"]["CustomTile"]["Stackable"]  # type: ignore[index]
               for objs in contents.values() for o in objs)
    # One scale rule for board and pieces: a tile is as wide against the board as a board hex is.
    tile_scale = contents["tiles"][0]["Transform"]["scaleX"]  # type: ignore[index]
    hexes = game.rules.map_columns
    assert board["Transform"]["scaleX"] / tile_scale == pytest.approx(  # type: ignore[index]
        (20.0 + 40.0 * (1 + 0.75 * (hexes - 1))) / 40.0, rel=1e-3)
    # Each image is hosted, exists, and has its piece's proportions; tiles show the shared back underneath.
    tile = contents["tiles"][0]["CustomImage"]  # type: ignore[index]
    assert tile["ImageSecondaryURL"] == "https://example.org/hb/hexbattle-tiles-tile-back-hexagon.png"
    for url, ratio in ((tile["ImageURL"], 40.0 / 34.641), (board["CustomImage"]["ImageURL"], None),  # type: ignore[index]
                       (contents["counters"][0]["CustomImage"]["ImageURL"], 1.0)):  # type: ignore[index]
        png = folder / str(url).rsplit("/", 1)[1]
        with Image.open(png) as image:
            assert image.mode == "RGB" and max(image.size) <= tts.MAX_PIXELS
            if ratio is not None:
                assert image.size[0] / image.size[1] == pytest.approx(ratio, rel=0.01)
    deck = _objects(folder, "hexbattle-bonus_cards")
    assert deck["Name"] == "DeckCustom" and len(deck["ContainedObjects"]) == 47  # type: ignore[arg-type]


def test_chips_and_tokens_are_round_or_hexagonal_objects(tmp_path: Path) -> None:
    imperial = [s for s in _sets("imperial") if s.name == "tokens"]
    tts.export("imperial", imperial, tmp_path, None)
    tokens = _objects(tmp_path, "imperial-tokens")["ContainedObjects"]
    shapes = {o["Nickname"]: o["CustomImage"]["CustomTile"]["Type"] for o in tokens}  # type: ignore[union-attr,index]
    assert shapes["Imperial Power"] == CIRCLE and shapes["Gold"] == HEX and shapes["Reserve Token"] == BOX
    assert len(tokens) == 62  # type: ignore[arg-type]
    waterloo = [s for s in _sets("waterloo") if s.name == "chips"]
    waterloo = [PieceSet("chips", waterloo[0].pieces[:12])]  # type: ignore[union-attr]
    tts.export("waterloo", waterloo, tmp_path, None)
    chips = _objects(tmp_path, "waterloo-chips")["ContainedObjects"]
    assert {o["CustomImage"]["CustomTile"]["Type"] for o in chips} == {CIRCLE}  # type: ignore[union-attr,index]
    # A chip is the same on both sides: one image for both.
    assert all(o["CustomImage"]["ImageURL"] == o["CustomImage"]["ImageSecondaryURL"]  # type: ignore[index]
               for o in chips)  # type: ignore[union-attr]


def test_a_hexagonal_token_shows_its_hexagon(tmp_path: Path) -> None:
    imperial = [s for s in _sets("imperial") if s.name == "tokens"]
    tts.export("imperial", imperial, tmp_path, None)
    gold = next(o for o in _objects(tmp_path, "imperial-tokens")["ContainedObjects"]  # type: ignore[union-attr]
                if o["Nickname"] == "Gold")
    with Image.open(Path(gold["CustomImage"]["ImageURL"].removeprefix("file://"))) as image:
        # 25 mm across the corners, 21.65 mm across the flats: the hexagon's box, not the token's square.
        assert image.size[0] / image.size[1] == pytest.approx(2 / 3 ** 0.5, rel=0.01)
    assert gold["CustomImage"]["CustomTile"]["Stretch"] is True
    # Its back is the hexagonal token's back, not the round one's that shares its back key.
    power = next(o for o in _objects(tmp_path, "imperial-tokens")["ContainedObjects"]  # type: ignore[union-attr]
                 if o["Nickname"] == "Imperial Power")
    assert gold["CustomImage"]["ImageSecondaryURL"] != power["CustomImage"]["ImageSecondaryURL"]
    with Image.open(Path(gold["CustomImage"]["ImageSecondaryURL"].removeprefix("file://"))) as image:
        assert image.size[0] / image.size[1] == pytest.approx(2 / 3 ** 0.5, rel=0.01)
