"""Medieval data: the 72-card design loads, faces print the effect data, and bad data names its place."""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

from data_helpers import problems_of

from cards import load_game
from cards.schemas.medieval import EFFECTS, effect_text, face

SYMBOLS = {"infantry", "light", "cavalry", "artillery", "officer", "event", "leader", "morale",
           "terrain", "blunder", "pike", "musket", "token"}
HEADER = ["id", "name", "kind", "troop", "value", "effect", "amount", "beside", "copies", "icon"]


def edit_row(path: Path, card_id: str, **changes: str) -> None:
    """Change some cells of one card row, keeping the rest of the CSV as it was."""
    with path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        if row["id"] == card_id:
            row.update(changes)
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=HEADER)
        writer.writeheader()
        writer.writerows(rows)


def edit_toml(path: Path, change: Callable[[str], str]) -> None:
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")


def test_the_design_has_72_cards_of_every_kind_the_seed_names() -> None:
    data = load_game("medieval")
    deck = data.deck()
    assert len(deck) == data.rules.deck_size == 72
    kinds = {row.kind for row in data.table("cards")}
    assert kinds == {"fighter", "character", "event"}
    rows = data.table("cards")
    assert any(r.effect == "play_another" for r in rows)
    assert any(r.kind == "event" and r.beside for r in rows)
    assert any(r.kind == "event" and r.effect.startswith("subtract") for r in rows)
    assert any(r.kind == "event" and r.effect.startswith("add") for r in rows)
    assert all(r.effect.startswith("add") for r in rows if r.kind == "character")
    assert all(r.effect in EFFECTS for r in rows)
    assert {r.name for r in rows} >= {"Knight", "Archer", "Man-at-Arms", "Squire", "Pikeman", "King",
                                      "Queen", "Bishop", "Plague", "Rain of Arrows"}
    assert len({c.id for c in deck}) == 72


def test_two_deck_colours_one_per_player() -> None:
    data = load_game("medieval")
    assert len(data.layout["deck_colours"]) == len(data.layout["deck_names"]) == 2 == data.max_players


def test_every_face_prints_its_effect() -> None:
    data = load_game("medieval")
    for row in data.table("cards"):
        card = face(row)
        assert card.title == row.name
        assert card.text == ("" if row.effect == "none" else effect_text(row))  # a plain fighter: no text
        assert card.symbol in SYMBOLS
        assert card.corner == ("E" if row.kind == "event" else str(row.value))
    rows = data.by_id("cards")
    assert face(rows["squire"]).text == "Play another card on this column."
    assert face(rows["call-to-arms"]).text.startswith("Play 2 more cards on this column.")
    assert face(rows["plague"]).text == ("Place beside the battlefield: -2 to the opposing total in every column. "
                                         "Play another card in its place. "
                                         "As a reenforcement or tie card: no effect, counts 0.")
    assert face(rows["bishop"]).text == "+3 to your total in this column."
    assert face(rows["knight"]).text == "" and effect_text(rows["knight"]) == "Fights for 7."
    assert face(rows["king"]).symbol == "leader" and face(rows["plague"]).symbol == "event"


def test_wrong_deck_size_is_reported(cards_copy: Path) -> None:
    path = cards_copy / "medieval" / "cards.csv"
    edit_row(path, "knight", copies="5")
    assert problems_of(cards_copy, "medieval") == [f"{path}: [copies = 71] the deck has 71 cards but rules.deck_size says 72"]


def test_unknown_effect_is_reported_with_its_line(cards_copy: Path) -> None:
    path = cards_copy / "medieval" / "cards.csv"
    edit_row(path, "knight", effect="charge")
    problems = problems_of(cards_copy, "medieval")
    assert len(problems) == 1
    assert problems[0].startswith(f"{path}:10: [effect = 'charge'] Input should be 'none', 'play_another'")


def test_effect_parameters_are_checked(cards_copy: Path) -> None:
    path = cards_copy / "medieval" / "cards.csv"
    edit_row(path, "squire", amount="0")
    edit_row(path, "knight", amount="2")
    assert problems_of(cards_copy, "medieval") == [
        f"{path}: [amount = 0] squire: effect 'play_another' needs an amount of at least 1",
        f"{path}: [amount = 2] knight: effect 'none' takes no amount (leave it 0)",
    ]


def test_beside_needs_an_event_with_an_every_column_effect(cards_copy: Path) -> None:
    path = cards_copy / "medieval" / "cards.csv"
    edit_row(path, "archer", beside="true")
    edit_row(path, "ambush", beside="true")
    assert problems_of(cards_copy, "medieval") == [
        f"{path}: [beside = True] archer: only Event cards are placed beside the battlefield",
        f"{path}: [beside = True] archer: a card beside the battlefield needs an every-column effect "
        "(add_all_columns, subtract_all_opposing), not 'none'",
        f"{path}: [beside = True] ambush: a card beside the battlefield needs an every-column effect "
        "(add_all_columns, subtract_all_opposing), not 'add_column'",
    ]


def test_kinds_constrain_effects_values_and_troops(cards_copy: Path) -> None:
    path = cards_copy / "medieval" / "cards.csv"
    edit_row(path, "bishop", effect="subtract_opposing_column")
    edit_row(path, "plague", value="2")
    edit_row(path, "knight", troop="", effect="add_column", amount="1")
    edit_row(path, "king", troop="cavalry")
    edit_row(path, "desertion", effect="none", amount="0")
    assert problems_of(cards_copy, "medieval") == [
        f"{path}: [troop] knight: a fighter needs a troop type (it picks the printed symbol)",
        f"{path}: [effect = 'add_column'] knight: a fighter's effect is 'none' or 'play_another'; "
        "use a character or event",
        f"{path}: [troop = 'cavalry'] king: only fighters have a troop type",
        f"{path}: [effect = 'subtract_opposing_column'] bishop: a character adds points: "
        "effect must be one of add_column, add_all_columns",
        f"{path}: [value = 2] plague: an Event has no fighting value of its own: value must be 0",
        f"{path}: [effect = 'none'] desertion: an Event must do something: effect cannot be 'none'",
    ]


def test_rules_and_layout_are_checked(cards_copy: Path) -> None:
    toml = cards_copy / "medieval" / "game.toml"
    edit_toml(toml, lambda t: t.replace("reenforcements = 3", "reenforcements = 4")
              .replace('deck_colours = ["#b5362a", "#0d1740"]', 'deck_colours = ["#8e1b1b"]'))
    assert problems_of(cards_copy, "medieval") == [
        f"{toml}:14: [rules.reenforcements = 4] at most one reenforcement per column: "
        "reenforcements must be at most columns (3)",
        f"{toml}:30: [layout.deck_colours = ['#8e1b1b']] layout.deck_colours must list one entry per player (2)",
    ]


def test_missing_rule_constant_is_reported(cards_copy: Path) -> None:
    toml = cards_copy / "medieval" / "game.toml"
    edit_toml(toml, lambda t: t.replace("tie_cards = 1", ""))
    problems = problems_of(cards_copy, "medieval")
    assert problems == [f"{toml}: [rules.tie_cards] is required"]
