"""Ways a careless designer breaks `cards/`: each mutation damages a copy of one game's folder.

Shared by the fuzz tests (tests/test_fuzz_data.py, a few seeded examples per class) and
bench/reliability.py (many more, counted into docs/reliability.md). Every mutation is one class of
mistake from issue 12; `run_check` runs `muster check` in this process and returns its exit status,
so an uncaught exception (a traceback a user would see) fails the caller.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import shutil
from collections.abc import Callable
from pathlib import Path

from cards.load import CARDS_ROOT, load_game
from companion.cli import main
from engine import Match, make_game

GAMES = ("waterloo", "warfare", "hexbattle", "imperial", "medieval")
Mutation = Callable[[Path, random.Random], str]
"""mutate(game folder, rng) -> the game id to check afterwards (the folder may have been renamed)."""


def copy_game(tmp: Path, game: str) -> Path:
    """A cards folder holding one shipped game (layouts and profiles come from the shipped data)."""
    root = tmp / "cards"
    shutil.copytree(CARDS_ROOT / game, root / game)
    return root / game


def _csvs(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.csv"))


def _toml(folder: Path) -> Path:
    return folder / "game.toml"


def _replace_line(path: Path, key: str, value: str) -> None:
    """Set `key = value` on the first line that assigns key (a TOML literal as text)."""
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(rf"^(\s*{re.escape(key)}\s*=\s*).*$", re.M)
    path.write_text(pattern.sub(lambda m: m[1] + value, text, count=1), encoding="utf-8")


def _scalar_keys(path: Path) -> list[str]:
    """Keys assigned on their own line (rules and layout constants)."""
    return re.findall(r"^\s*([a-z_]+)\s*=", path.read_text(encoding="utf-8"), re.M)


VALUES = ["0", "-7", "97", "1", "2", "nan", "inf", "-inf", "[]", "[0, -7]", '""', '"x"', "1e308",
          "123456789012", "true", "{}", '["line"]', "3.5", '"#zzzzzz"']


def non_utf8(folder: Path, rng: random.Random) -> str:
    path = rng.choice(_csvs(folder) + [_toml(folder)])
    data = bytearray(path.read_bytes())
    data.insert(rng.randrange(len(data)), rng.choice([0xff, 0xfe, 0xc3, 0x80]))
    path.write_bytes(bytes(data))
    return folder.name


def huge_cell(folder: Path, rng: random.Random) -> str:
    path = rng.choice(_csvs(folder))
    lines = path.read_text(encoding="utf-8").splitlines()
    row = rng.randrange(1, len(lines))
    size = rng.choice([2_001, 140_000, 250_000])
    lines[row] = lines[row].replace(",", "," + "x" * size + ",", 1) if rng.random() < 0.5 else \
        '"' + "y" * size + '",' + lines[row]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder.name


def long_name(folder: Path, rng: random.Random) -> str:
    """A game or card name of thousands of characters (issue 29: 200,000 kept `muster check` busy for minutes)."""
    size = rng.choice([49, 5_000, 200_000])
    if rng.random() < 0.5:
        _replace_line(_toml(folder), "name", '"' + "N" * size + '"')
    else:
        path = rng.choice(_csvs(folder))
        lines = path.read_text(encoding="utf-8").splitlines()
        at = [c.strip() for c in lines[0].split(",")].index("name")
        cells = lines[1].split(",")
        cells[at] = "N" * min(size, 1_999)
        lines[1] = ",".join(cells)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder.name


def big_file(folder: Path, rng: random.Random) -> str:
    """A pasted or generated table of megabytes (the issue's 2.5 MB CSV took 48 s and 4.5 GB)."""
    path = rng.choice(_csvs(folder))
    lines = path.read_text(encoding="utf-8").splitlines()
    body = lines[1:]
    copies = [re.sub(r"^[^,]*", f"row{k}", body[k % len(body)]) for k in range(rng.choice([3_000, 30_000]))]
    path.write_text("\n".join([lines[0], *copies]) + "\n", encoding="utf-8")
    return folder.name


def init_folder(folder: Path, rng: random.Random) -> str:
    name = rng.choice(["__init__", "Schemas", "load", "-x", "a" * 120])
    folder.rename(folder.parent / name)
    return name


def rule_value(folder: Path, rng: random.Random) -> str:
    """A rule or layout constant set to zero, a negative, NaN, a huge number, an empty list…"""
    path = _toml(folder)
    keys = [k for k in _scalar_keys(path) if k not in ("id", "name")]
    for _ in range(rng.choice([1, 1, 2])):
        _replace_line(path, rng.choice(keys), rng.choice(VALUES))
    return folder.name


def players(folder: Path, rng: random.Random) -> str:
    path = _toml(folder)
    _replace_line(path, rng.choice(["min_players", "max_players"]), str(rng.choice([0, 1, 2, 3, 6, 7, 12, 13])))
    return folder.name


def long_table_name(folder: Path, rng: random.Random) -> str:
    path = _toml(folder)
    text = path.read_text(encoding="utf-8")
    name = rng.choice(["a" * 300 + ".csv", "/etc/passwd", "../warfare/cards.csv", "sub/cards.csv", "cards.txt", ""])
    path.write_text(re.sub(r'= "[a-z_]+\.csv"', f'= "{name}"', text, count=1), encoding="utf-8")
    return folder.name


def unreadable(folder: Path, rng: random.Random) -> str:
    """A table that cannot be read: a folder where the file should be (chmod is no obstacle to root)."""
    path = rng.choice(_csvs(folder))
    path.unlink()
    path.mkdir()
    return folder.name


def duplicate_column(folder: Path, rng: random.Random) -> str:
    path = rng.choice(_csvs(folder))
    lines = path.read_text(encoding="utf-8").splitlines()
    first = lines[0].split(",")[rng.randrange(len(lines[0].split(",")))]
    lines = [line + "," + (first if n == 0 else "") for n, line in enumerate(lines)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder.name


def no_game_toml(folder: Path, rng: random.Random) -> str:
    _toml(folder).unlink()
    return folder.name


def bom(folder: Path, rng: random.Random) -> str:
    """A UTF-8 byte-order mark, as spreadsheet programs write: accepted in TOML and CSV alike."""
    for path in rng.sample(_csvs(folder) + [_toml(folder)], 2 if len(_csvs(folder)) > 1 else 1):
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    return folder.name


def cell(folder: Path, rng: random.Random) -> str:
    """One cell replaced: a symbol the art lacks, a negative count, a stray comma, an empty id…"""
    path = rng.choice(_csvs(folder))
    lines = path.read_text(encoding="utf-8").splitlines()
    row = rng.randrange(1, len(lines))
    cells = lines[row].split(",")
    cells[rng.randrange(len(cells))] = rng.choice(
        ["", "0", "-1", "500", "99", "zeppelin", "lava", "nothing", "true", "nan", "a,b", '"', "é", "IU", "open"])
    lines[row] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder.name


def rows_removed(folder: Path, rng: random.Random) -> str:
    path = rng.choice(_csvs(folder))
    lines = path.read_text(encoding="utf-8").splitlines()
    keep = [lines[0]] + [line for line in lines[1:] if rng.random() < 0.6]
    path.write_text("\n".join(keep) + "\n", encoding="utf-8")
    return folder.name


MUTATIONS: dict[str, Mutation] = {
    "non-UTF-8 byte": non_utf8, "huge cell": huge_cell, "long name": long_name, "multi-megabyte table": big_file,
    "bad game folder name": init_folder, "rule or layout constant": rule_value, "player counts": players,
    "table path": long_table_name, "unreadable table": unreadable, "duplicated column": duplicate_column,
    "no game.toml": no_game_toml, "byte-order mark": bom, "one cell": cell, "rows removed": rows_removed,
}


def run_check(root: Path) -> tuple[int, str]:
    """`muster check --cards root` in this process: (exit status, stderr). Exceptions propagate."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(["check", "--cards", str(root)])
    return status, err.getvalue()


def play_accepted(root: Path, game: str, seeds: tuple[int, ...] = (11, 12), actions: int = 30) -> None:
    """Random play, outside check's own seeds, of a game whose data check accepted (raises on a crash)."""
    engine = make_game(load_game(game, root))
    data = load_game(game, root)
    for n in range(data.min_players, data.max_players + 1):
        options = {} if data.min_players == data.max_players else {"players": n}
        for seed in seeds:
            match = Match(engine, seed, options)
            rng = random.Random(seed)
            for _ in range(actions):
                if match.state.is_terminal:
                    break
                match.apply(rng.choice(match.state.legal_actions()))
