"""The `muster` command as a user meets it: exit codes and messages, never tracebacks."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

from cards.load import CARDS_ROOT


def muster(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args],
                          capture_output=True, text=True, timeout=600)


def test_check_passes_on_shipped_data() -> None:
    result = muster("check")
    assert result.returncode == 0, result.stderr
    assert "ok  warfare    Napoleonic Warfare (cards: 97)" in result.stdout
    assert result.stdout.rstrip().endswith("games are valid.")


def test_check_reports_every_problem_and_exits_2(tmp_path: Path) -> None:
    root = tmp_path / "cards"
    shutil.copytree(CARDS_ROOT / "warfare", root / "warfare")
    path = root / "warfare" / "cards.csv"
    lines = path.read_text().splitlines()
    lines[1] = lines[1].replace(",IU,3,", ",IU,x,")
    lines[2] = lines[2].replace(",IU,2,", ",ZZ,2,")
    path.write_text("\n".join(lines) + "\n")
    result = muster("check", "--cards", str(root))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("muster: 2 problem(s) in the game data:")
    assert f"{path}:2: [force = 'x']" in result.stderr
    assert f"{path}:3: [type = 'ZZ']" in result.stderr


def test_check_with_missing_folder_is_a_usage_error() -> None:
    result = muster("check", "--cards", "/no/such/folder")
    assert result.returncode == 2
    assert result.stderr == "muster: --cards: '/no/such/folder' is not a folder\n"


def test_cards_json_lists_the_warfare_deck() -> None:
    result = muster("cards", "warfare", "--format", "json")
    assert result.returncode == 0, result.stderr
    deck = json.loads(result.stdout)
    assert len(deck) == 97
    assert deck[0] == {"id": "grenadiers", "name": "Grenadiers", "type": "IU", "force": 3, "design": "grenadiers",
                       "icon": "musket", "text": "Attack: with [inf] units only. Defend: discard to knock out "
                                                 "one attacking [cav] unit."}  # the data as written
    assert len({card["id"] for card in deck}) == 97
    assert {card["type"] for card in deck} == {"IU", "LU", "CU", "AU", "IT", "LT", "CT", "AT",
                                               "LS", "MS", "AS", "TS", "EB"}


def test_cards_csv_has_one_row_per_physical_card() -> None:
    result = muster("cards", "warfare", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 97
    assert rows[-1] == {"id": "broken", "name": "Broken", "type": "EB", "force": "3", "design": "broken",
                        "icon": "broken-shield", "text": "Defend: discard when attacked: the attack is called off "
                                                         "this turn. Attack: one Blunder may back any attack."}


def test_cards_expands_copies_with_stable_ids() -> None:
    for game in ("waterloo", "medieval", "imperial"):
        result = muster("cards", game, "--format", "json")
        assert result.returncode == 0, result.stderr
        deck = json.loads(result.stdout)
        ids = [card["id"] for card in deck]
        assert len(ids) == len(set(ids)), f"{game}: physical card ids must be unique"
        assert all(card["name"] and "type" in card for card in deck)


def test_cards_unknown_game() -> None:
    result = muster("cards", "chess")
    assert result.returncode == 2
    assert "no game 'chess' here (games: " in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_format_is_refused_by_the_parser() -> None:
    result = muster("cards", "warfare", "--format", "xml")
    assert result.returncode == 2
    assert "invalid choice: 'xml'" in result.stderr
