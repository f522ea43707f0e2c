"""The warfare deck matches the seed's card list (counts and forces worked out by hand from the seed)."""

from __future__ import annotations

from collections import Counter

import pytest

from cards import load_game, markup
from cards.load import GameData
from cards.schemas.warfare import face

# Counted by hand from /work/shared/seeds/001_b0dca9e6708c97c8.txt.
EXPECTED_COUNTS = {"IU": 10, "LU": 10, "CU": 10, "AU": 10, "IT": 8, "LT": 8, "CT": 8, "AT": 8,
                   "LS": 5, "MS": 5, "AS": 5, "TS": 5, "EB": 5}
# Sums of the printed forces per type, added up by hand from the same list.
EXPECTED_FORCES = {"IU": 20, "LU": 20, "CU": 20, "AU": 20, "IT": 16, "LT": 16, "CT": 16, "AT": 16,
                   "LS": 10, "MS": 10, "AS": 10, "TS": 10, "EB": 10}


@pytest.fixture(scope="module")
def data() -> GameData:
    return load_game("warfare")


def test_deck_has_97_single_copy_cards(data: GameData) -> None:
    deck = data.deck()
    assert len(deck) == 97 == data.rules.deck_size
    assert len({c.id for c in deck}) == 97
    assert all(row.copies == 1 for row in data.table("cards"))


def test_count_per_type_matches_seed(data: GameData) -> None:
    assert Counter(c.type for c in data.deck()) == EXPECTED_COUNTS


def test_force_per_type_matches_seed(data: GameData) -> None:
    forces: Counter[str] = Counter()
    for card in data.deck():
        forces[card.type] += card.design.force
    assert dict(forces) == EXPECTED_FORCES
    assert sum(forces.values()) == 194


def test_some_cards_by_name(data: GameData) -> None:
    rows = {row.name: row for row in data.table("cards")}
    assert (rows["Old Guard"].type, rows["Old Guard"].force) == ("IU", 3)
    assert (rows["Congreve Rockets"].type, rows["Congreve Rockets"].force) == ("AU", 1)
    assert (rows["Charge!"].type, rows["Charge!"].force) == ("CT", 2)
    assert (rows["Broken"].type, rows["Broken"].force) == ("EB", 3)
    assert face(rows["Redoubt"]).kind == "Terrain Strategy"


def test_rule_constants_match_seed(data: GameData) -> None:
    r = data.rules
    assert (r.starting_troops, r.opening_hand, r.draw_per_turn, r.hand_limit) == (100, 7, 3, 10)
    assert (r.maneuver_max_exchange, r.free_cards_per_attack, r.bonus_per_extra_card) == (2, 5, 2)
    assert r.counters == {"IU": ["CU"], "LU": ["AU"], "AU": ["IU"], "CU": ["LU"], "TS": ["IU", "LU", "CU", "AU"]}
    assert r.strategy_types == ["LS", "MS", "AS", "TS", "EB"]


def test_roles_say_what_a_card_does_in_each_phase_from_its_printed_text(data: GameData) -> None:
    from cards.schemas.warfare import roles
    rows = {row.id: row for row in data.table("cards")}
    assert roles(rows["howitzers"]) == [
        ("Deploy", "Discard: your opponent discards one card at random."),
        ("Attack", "With [art] units only."),  # inline icons (cards/markup.py), read as words off the card
        ("Defend", "Discard to knock out one attacking [inf] unit.")]
    assert [markup.plain(data, part) for _, part in roles(rows["howitzers"])][1:] == [
        "With Artillery units only.", "Discard to knock out one attacking Infantry unit."]
    assert roles(rows["captain"]) == [("Deploy", "Discard to draw 3 cards."),
                                      ("Attack", "One Leader may back any attack."),
                                      ("Defend", "No use in this phase.")]
    assert roles(rows["broken"])[2] == ("Defend", "Discard when attacked: the attack is called off this turn.")
