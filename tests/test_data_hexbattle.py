"""Hexbattle data: the seed's numbers load, counts agree, and bad data names its place."""

from __future__ import annotations

from pathlib import Path

from data_helpers import problems_of, rewrite_csv

from cards import load_game
from cards.schemas.hexbattle import face


def test_seed_numbers() -> None:
    data = load_game("hexbattle")
    units = data.by_id("units")
    assert sum(u.copies for u in units.values()) == 8
    assert units["infantry"].copies == 3 and units["infantry"].range == 2
    assert [units[a].range for a in ("horse-artillery", "light-artillery", "heavy-artillery")] == [4, 6, 8]
    assert all(units[a].strength == 2 for a in ("horse-artillery", "light-artillery", "heavy-artillery"))
    assert units["heavy-artillery"].movement == 1
    assert units["light-cavalry"].melee_bonus == 4 and units["heavy-cavalry"].melee_bonus == 5
    forms = data.by_id("formations")
    assert (forms["column"].movement, forms["line"].movement, forms["square"].movement) == (2, 1, 0)
    assert forms["square"].defence_vs_cavalry == 6 and forms["square"].defence_vs_infantry == -2
    terrain = data.by_id("terrain")
    assert terrain["mud"].move_cost == 3 and terrain["orchards"].move_cost == 2 and terrain["pond"].impassable
    assert terrain["hills"].melee_defence_bonus == 1 and terrain["farm"].melee_defence_bonus == 3
    rules = data.rules
    assert (rules.actions_per_turn, rules.max_actions, rules.bonus_hand_limit) == (6, 7, 4)
    assert (rules.hit_max, rules.counter_battery_hit_max, rules.split_block_max) == (3, 2, 3)
    assert (rules.front_flank_penalty, rules.side_flank_penalty, rules.rear_penalty) == (1, 2, 3)
    assert [a.id for a in data.table("armies")] == ["french", "british"]


def test_bonus_cards_are_the_seeds_21_plus_nothing() -> None:
    data = load_game("hexbattle")
    rows = data.table("bonus_cards")
    assert len(rows) == 22
    assert sum(r.kind == "defensive" for r in rows) == 4
    assert {r.name for r in rows} >= {"Swift March", "Rout!", "Inspired Command", "You Get Nothing"}
    for row in rows:
        card = face(row)
        assert card.title == row.name and card.text


def test_tile_deck_covers_the_hidden_map() -> None:
    data = load_game("hexbattle")
    assert len(data.deck("terrain")) >= data.rules.map_columns * (data.rules.map_rows - 2)


def test_short_tile_deck_is_reported(cards_copy: Path) -> None:
    path = cards_copy / "hexbattle" / "terrain.csv"
    rewrite_csv(path, lambda rows: rows[1].__setitem__(2, "1"))  # Open: 26 -> 1 copy
    assert problems_of(cards_copy, "hexbattle") == [
        f"{path}: [copies = 55] the tile deck has 55 tiles but the map has 77 hexes to reveal"
    ]


def test_guard_effect_must_be_defensive(cards_copy: Path) -> None:
    path = cards_copy / "hexbattle" / "bonus_cards.csv"
    rewrite_csv(path, lambda rows: rows[7].__setitem__(3, "offensive"))  # Entrench
    assert problems_of(cards_copy, "hexbattle") == [
        f"{path}: [kind = 'offensive'] entrench: effect entrench is a guard but kind is offensive"
    ]


def test_unknown_start_terrain(cards_copy: Path) -> None:
    path = cards_copy / "hexbattle" / "game.toml"
    path.write_text(path.read_text().replace('start_terrain = "open"', 'start_terrain = "lava"'))
    [message] = problems_of(cards_copy, "hexbattle")
    assert "[rules.start_terrain = 'lava'] start_terrain must be a terrain id" in message


def test_bad_unit_strength(cards_copy: Path) -> None:
    path = cards_copy / "hexbattle" / "units.csv"
    rewrite_csv(path, lambda rows: rows[2].__setitem__(5, "0"))
    assert problems_of(cards_copy, "hexbattle") == [
        f"{path}:3: [strength = '0'] Input should be greater than or equal to 1"
    ]
