"""Waterloo data: the deck against its rule constants (R1) and the printed faces."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import cards
from cards import DataError, load_game
from cards.load import CARDS_ROOT
from cards.schemas.waterloo import COMBO_IDS, face

DATA = cards.load_game("waterloo")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A private copy of the waterloo data that a test may break."""
    shutil.copytree(CARDS_ROOT / "waterloo", tmp_path / "waterloo")
    return tmp_path


def test_r1_shipped_deck() -> None:
    deck = DATA.deck()
    assert len(deck) == DATA.rules.deck_size == 64
    kinds = {k: sum(1 for c in deck if c.design.kind == k) for k in ("infantry", "cavalry", "artillery", "officer")}
    assert kinds == {"infantry": 20, "cavalry": 12, "artillery": 12, "officer": 8}
    assert [c.id for c in deck if c.design.militia][:2] == ["militia-1", "militia-2"]
    assert tuple(c.id for c in DATA.rules.combos) == COMBO_IDS
    assert DATA.rules.return_after_options == [7, 14, 21] and DATA.rules.round_timer_minutes == 4


def test_r1_a_card_too_few_breaks_the_size_and_the_reshuffle_note(folder: Path) -> None:
    csv = folder / "waterloo" / "cards.csv"
    csv.write_text(csv.read_text().replace("scout,Scout,scout,,,2,", "scout,Scout,scout,,,1,").replace(
        "magazine,Magazine,magazine,,,2,", "magazine,Magazine,magazine,,,1,"))
    with pytest.raises(DataError) as err:
        load_game("waterloo", folder)
    messages = [p.message for p in err.value.problems]
    assert "the deck has 62 cards but rules.deck_size says 64" in messages
    assert "with 5 players the draw pile of 49 cards supports 1 hands between shuffles, not 2" in messages


def test_combo_table_must_name_every_pattern(folder: Path) -> None:
    toml = folder / "waterloo" / "game.toml"
    toml.write_text(toml.read_text().replace('id = "flank"', 'id = "skirmish"'))
    with pytest.raises(DataError) as err:
        load_game("waterloo", folder)
    messages = [p.message for p in err.value.problems]
    assert "the combo table lacks 'flank'" in messages
    assert any(m.startswith("unknown combo 'skirmish'") for m in messages)


def test_special_cards_have_no_value(folder: Path) -> None:
    csv = folder / "waterloo" / "cards.csv"
    csv.write_text(csv.read_text().replace("rockets,Rockets,rockets,,", "rockets,Rockets,rockets,2,"))
    with pytest.raises(DataError, match="a rockets card has no value"):
        load_game("waterloo", folder)


def test_faces_for_the_generator() -> None:
    rows = DATA.by_id("cards")
    f = face(rows["militia"])
    assert (f.title, f.kind, f.corner, f.symbol) == ("Militia", "Infantry", "4", "infantry")
    g = face(rows["general"])
    assert (g.kind, g.corner, g.symbol) == ("Officer", "G", "officer")
    d = face(rows["dragoon"])
    assert (d.kind, d.corner, d.symbol) == ("Wild", "", "cavalry") and "Militia" in d.text


@pytest.mark.parametrize("minutes", ["0", "90"])
def test_r22_round_timer_length_is_checked_where_it_is_written(folder: Path, minutes: str) -> None:
    toml = folder / "waterloo" / "game.toml"
    toml.write_text(toml.read_text().replace("round_timer_minutes = 4", f"round_timer_minutes = {minutes}"))
    with pytest.raises(DataError) as err:
        load_game("waterloo", folder)
    (problem,) = err.value.problems
    assert problem.field == "rules.round_timer_minutes" and problem.value == int(minutes)
    assert problem.file.endswith("game.toml")
