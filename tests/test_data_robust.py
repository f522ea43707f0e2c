"""Each class of data mistake from issue 12, as `muster check --cards` reports it: exit 2, file, line, field."""

from __future__ import annotations

from pathlib import Path

import pytest
from fuzz_data import _replace_line, copy_game, run_check


def messages(root: Path) -> list[str]:
    status, err = run_check(root)
    assert status == 2, err
    return [line.strip().replace(str(root), "ROOT") for line in err.splitlines()[1:]]


@pytest.mark.parametrize(("game", "key", "value", "expected"), [
    ("warfare", "blunder_types", "[]",
     "ROOT/warfare/game.toml:32: [rules.blunder_types = []] List should have at least 1 item after validation, not 0"),
    ("warfare", "track_columns", "0",
     "ROOT/warfare/game.toml:56: [layout.track_columns = 0] Input should be greater than or equal to 1"),
    ("hexbattle", "margin", "nan", "ROOT/hexbattle/game.toml:59: [layout.board.margin = nan] Input should be a finite number"),
    ("warfare", "draw_per_turn", "97",
     "ROOT/warfare/game.toml:14: [rules.draw_per_turn = 97] draw_per_turn is more than hand_limit (10)"),
    ("warfare", "max_players", "3",
     "ROOT/warfare/game.toml:5: [max_players] the engine cannot set up a table of 2 players (Napoleonic Warfare has no "
     "option players (options: "),  # the engine's option list follows
    ("waterloo", "min_players", "1", "ROOT/waterloo/game.toml:4: [min_players = 1] Input should be greater than or equal to 2"),
    ("waterloo", "hands_per_shuffle", "{ 0 = 5 }",
     "ROOT/waterloo/game.toml:29: [rules.hands_per_shuffle.0.[key] = '0'] Input should be greater than or equal to 2"),
    ("waterloo", "return_after_options", "[0, -7]",
     "ROOT/waterloo/game.toml:18: [rules.return_after_options.0 = 0] Input should be greater than or equal to 1"),
])
def test_rule_and_layout_constants_that_would_crash_are_located(tmp_path: Path, game: str, key: str, value: str,
                                                                 expected: str) -> None:
    folder = copy_game(tmp_path, game)
    _replace_line(folder / "game.toml", key, value)
    assert messages(folder.parent)[0].startswith(expected)


@pytest.mark.parametrize(("table", "value", "expected"), [
    ("terrain", "lava", "ROOT/hexbattle/terrain.csv:3: [symbol = 'lava'] no terrain art for this symbol "
                        "(known: open, hills, woods, wheat, orchards, rough, mud, farm, pond)"),
    ("units", "zeppelin", "ROOT/hexbattle/units.csv:3: [symbol = 'zeppelin'] unknown symbol (known: infantry, light, "
                          "cavalry, artillery, officer, event, leader, morale, terrain, blunder, pike, musket, token)"),
])
def test_unknown_hexbattle_symbols_are_found_before_the_build(tmp_path: Path, table: str, value: str,
                                                              expected: str) -> None:
    folder = copy_game(tmp_path, "hexbattle")
    path = folder / f"{table}.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    cells = lines[2].split(",")
    cells[lines[0].split(",").index("symbol")] = value
    lines[2] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert messages(folder.parent) == [expected]


def test_non_utf8_duplicated_column_and_huge_cell_name_their_line(tmp_path: Path) -> None:
    folder = copy_game(tmp_path, "warfare")
    path = folder / "cards.csv"
    lines = path.read_bytes().split(b"\n")
    lines[0] += b",force"
    lines[4] = b"\xff" + lines[4]
    path.write_bytes(b"\n".join(lines))
    assert messages(folder.parent) == ["ROOT/warfare/cards.csv:5: byte 0xff is not UTF-8: save the file as UTF-8"]
    path.write_bytes(b"\n".join(lines).replace(b"\xff", b""))
    assert messages(folder.parent) == ["ROOT/warfare/cards.csv:1: [force] the column appears twice"]
    path.write_text(path.read_text(encoding="utf-8").replace(",force\n", "\n", 1).replace(
        "Grenadiers", "G" * 140_000), encoding="utf-8")
    assert messages(folder.parent) == ["ROOT/warfare/cards.csv:2: not valid CSV: field larger than field limit (131072)"]


def test_a_multi_megabyte_table_is_refused_at_once(tmp_path: Path) -> None:
    folder = copy_game(tmp_path, "warfare")
    path = folder / "cards.csv"
    path.write_text(path.read_text(encoding="utf-8") * 900, encoding="utf-8")
    [message] = messages(folder.parent)
    assert message.startswith("ROOT/warfare/cards.csv: the file has ")
    assert message.endswith(" bytes; a data file holds at most 262,144")


@pytest.mark.parametrize(("name", "expected"), [
    ("/etc/passwd", "ROOT/warfare/game.toml:8: [tables.cards = '/etc/passwd'] a table is a .csv file in the game's "
                    "folder, named with letters, digits, - and _ (no folder, at most 100 characters)"),
    ("../imperial/military.csv", "ROOT/warfare/game.toml:8: [tables.cards = '../imperial/military.csv'] a table is a "
                                 ".csv file in the game's folder, named with letters, digits, - and _ (no folder, at "
                                 "most 100 characters)"),
])
def test_table_paths_stay_in_the_game_folder(tmp_path: Path, name: str, expected: str) -> None:
    folder = copy_game(tmp_path, "warfare")
    _replace_line(folder / "game.toml", "cards", f'"{name}"')
    assert messages(folder.parent) == [expected]


def test_a_game_folder_without_game_toml_is_an_error_not_a_skip(tmp_path: Path) -> None:
    folder = copy_game(tmp_path, "warfare")
    copy_game(tmp_path, "imperial")
    (folder / "game.toml").unlink()
    assert messages(folder.parent) == ["ROOT/warfare: holds game data but no game.toml: add one, or move the folder "
                                       "out of the cards folder"]


def test_a_folder_named_init_is_not_a_game(tmp_path: Path) -> None:
    folder = copy_game(tmp_path, "imperial")
    folder.rename(folder.parent / "__init__")
    assert messages(folder.parent) == [
        "ROOT/__init__/game.toml: [id = '__init__'] a game folder's name is the game's id: up to 40 lower-case "
        "letters, digits, - and _, starting with a letter or digit",
        "ROOT: no game folders (none holds a game.toml)"]


def test_a_byte_order_mark_is_accepted_in_toml_and_csv_alike(tmp_path: Path) -> None:
    folder = copy_game(tmp_path, "imperial")
    for path in (folder / "game.toml", folder / "military.csv"):
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    status, err = run_check(folder.parent)
    assert (status, err) == (0, "")


def test_a_warfare_text_without_its_phase_is_located(tmp_path: Path) -> None:
    folder = copy_game(tmp_path, "warfare")
    path = folder / "cards.csv"
    path.write_text(path.read_text(encoding="utf-8").replace(
        ",Attack: with [inf] units only. Defend: discard to knock out one attacking [cav] unit.\n",
        ",Knocks out Cavalry.\n", 1), encoding="utf-8")
    assert messages(folder.parent) == [
        "ROOT/warfare/cards.csv:2: [text = 'Knocks out Cavalry.'] the text must start with a phase "
        "(Deploy:, Attack:, Defend:), so the look-up can say what the card does in each"]
