"""The loader reports every data problem at once, each with file, line, field and value."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from data_helpers import problems_of, rewrite_csv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards import DataError, game_ids, load_all, load_game
from cards.load import CARDS_ROOT
from engine import GAME_IDS


def test_every_shipped_game_loads() -> None:
    games = load_all()
    assert set(games) == set(game_ids())
    assert set(GAME_IDS) <= set(games), "each of the five games has a data folder"
    for game in games.values():
        assert game.min_players <= game.max_players
        assert any(game.tables.values()), f"{game.id} has no rows at all"


def test_unknown_game_names_the_known_ones(cards_copy: Path) -> None:
    [message] = problems_of(cards_copy, "napoleon")
    assert "no game 'napoleon' here" in message
    assert "warfare" in message


def test_missing_column(cards_copy: Path) -> None:
    path = cards_copy / "warfare" / "cards.csv"
    rewrite_csv(path, lambda rows: [r.pop(3) for r in rows])  # drop "force"
    assert problems_of(cards_copy, "warfare") == [f"{path}:1: [force] missing column"]


def test_unknown_column(cards_copy: Path) -> None:
    path = cards_copy / "warfare" / "cards.csv"

    def add(rows: list[list[str]]) -> None:
        rows[0].append("colour")
        for r in rows[1:]:
            r.append("red")

    rewrite_csv(path, add)
    [message] = problems_of(cards_copy, "warfare")
    assert message.startswith(f"{path}:1: [colour] unknown column (known: id, name, copies, icon, type, force, text)")


def test_wrong_type_and_out_of_range_are_reported_together(cards_copy: Path) -> None:
    path = cards_copy / "warfare" / "cards.csv"

    def edit(rows: list[list[str]]) -> None:
        rows[1][3] = "three"   # Grenadiers' force, line 2
        rows[5][3] = "99"      # Sappers' force, line 6

    rewrite_csv(path, edit)
    messages = problems_of(cards_copy, "warfare")
    assert len(messages) == 2
    assert messages[0].startswith(f"{path}:2: [force = 'three'] Input should be a valid integer")
    assert messages[1] == f"{path}:6: [force = '99'] Input should be less than or equal to 10"


def test_unknown_card_type(cards_copy: Path) -> None:
    path = cards_copy / "warfare" / "cards.csv"
    rewrite_csv(path, lambda rows: rows[3].__setitem__(2, "XX"))
    [message] = problems_of(cards_copy, "warfare")
    assert message.startswith(f"{path}:4: [type = 'XX'] Input should be 'IU', 'LU'")


def test_duplicate_id_points_at_the_first(cards_copy: Path) -> None:
    path = cards_copy / "warfare" / "cards.csv"
    rewrite_csv(path, lambda rows: rows[10].__setitem__(0, "grenadiers"))
    messages = problems_of(cards_copy, "warfare")
    assert f"{path}:11: [id = 'grenadiers'] duplicate id (first on line 2)" in messages


def test_deck_size_must_match_the_rule_constant(cards_copy: Path) -> None:
    path = cards_copy / "warfare" / "cards.csv"
    rewrite_csv(path, lambda rows: rows[1].__setitem__(4, "2"))
    assert problems_of(cards_copy, "warfare") == [
        f"{path}: [copies = 98] the deck has 98 cards but rules.deck_size says 97"
    ]


def test_bad_rule_constant_points_at_its_line(cards_copy: Path) -> None:
    path = cards_copy / "warfare" / "game.toml"
    text = path.read_text().replace("starting_troops = 100", "starting_troops = -5")
    path.write_text(text)
    line = text.splitlines().index("starting_troops = -5") + 1
    assert problems_of(cards_copy, "warfare") == [
        f"{path}:{line}: [rules.starting_troops = -5] Input should be greater than or equal to 1"
    ]


def test_unknown_reference_in_rules(cards_copy: Path) -> None:
    path = cards_copy / "warfare" / "game.toml"
    path.write_text(path.read_text().replace('IU = "IT"', 'IU = "QQ"'))
    [message] = problems_of(cards_copy, "warfare")
    assert "[rules.tactic_for_unit.IU = 'QQ']" in message


def test_broken_toml_is_one_clear_problem(cards_copy: Path) -> None:
    path = cards_copy / "warfare" / "game.toml"
    path.write_text(path.read_text() + "\nthis is not toml\n")
    [message] = problems_of(cards_copy, "warfare")
    assert message.startswith(f"{path}: not valid TOML")


def test_all_games_problems_are_collected(cards_copy: Path) -> None:
    (cards_copy / "warfare" / "cards.csv").write_text("")
    other = next(g for g in game_ids(cards_copy) if g != "warfare")
    (cards_copy / other / "game.toml").write_text("id = 'oops'\n")
    with pytest.raises(DataError) as info:
        load_all(cards_copy)
    files = {p.file for p in info.value.problems}
    assert str(cards_copy / "warfare" / "cards.csv") in files
    assert str(cards_copy / other / "game.toml") in files


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cell=st.text(alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"), max_size=12),
       column=st.sampled_from([0, 2, 3, 4]), row=st.integers(1, 97))
def test_fuzzed_cell_either_loads_or_names_its_place(tmp_path_factory, cell: str, column: int, row: int) -> None:
    """Whatever lands in a cell, the loader either accepts it or names the file, line and field."""
    root = tmp_path_factory.mktemp("fuzz") / "cards"
    shutil.copytree(CARDS_ROOT / "warfare", root / "warfare")
    path = root / "warfare" / "cards.csv"
    rewrite_csv(path, lambda rows: rows[row].__setitem__(column, cell))
    try:
        load_game("warfare", root)
    except DataError as err:
        assert err.problems
        for problem in err.problems:
            assert problem.file == str(path) or problem.file.endswith("game.toml")
            assert problem.message


def test_design_ids_are_unique_across_card_tables(cards_copy: Path) -> None:
    """Printed QR codes name a design by id alone, so tables of one game may not share ids."""
    path = cards_copy / "imperial" / "tokens.csv"
    rewrite_csv(path, lambda rows: rows[1].__setitem__(0, "pikemen"))
    messages = problems_of(cards_copy, "imperial")
    assert f"{path}: [id = 'pikemen'] id is already used in table 'military'" in messages
