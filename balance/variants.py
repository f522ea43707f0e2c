"""The card data a balance run plays, as text, and the edited copies its removal test plays.

A run carries its game's folder as {file name: text} rather than a path, so a worker on another
machine (a Dask cluster) plays exactly the data the designer edited, and the fingerprint of a
run's shards is the hash of those texts. A removal variant is the same folder with one copy of a
design taken out of its CSV (and `rules.deck_size`, where the game has one, one smaller), loaded
and checked by the ordinary loader like any designer's copy (`muster balance --cards DIR`).
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import tempfile
from functools import lru_cache
from pathlib import Path

from cards import DataError, GameData, load_game
from cards.load import cards_root

SIZE_RULES = ("deck_size", "supply_size")
"""Rules that state how many cards the table holds (warfare, waterloo, medieval; imperial's supply)."""

Files = tuple[tuple[str, str], ...]
"""A game folder's data files as (name, text) pairs, sorted by name (hashable, so loads are cached)."""


def read_files(game_id: str, root: Path | None = None) -> Files:
    """The game's folder under `root` (default: the cards folder in use) as text."""
    folder = (root or cards_root()) / game_id
    return tuple(sorted((p.name, p.read_text(encoding="utf-8")) for p in folder.iterdir()
                        if p.is_file() and p.suffix in (".toml", ".csv")))


def fingerprint(files: Files) -> str:
    """A short hash of the data's text: shards of other data are never merged into this run."""
    digest = hashlib.sha256()
    for name, text in files:
        digest.update(f"{name}\0{text}\0".encode())
    return digest.hexdigest()[:16]


@lru_cache(maxsize=64)
def load(game_id: str, files: Files) -> GameData:
    """Load the data from its text (written to a private folder, read by `cards.load_game`)."""
    with tempfile.TemporaryDirectory(prefix="muster-balance-") as tmp:
        folder = Path(tmp)
        (folder / game_id).mkdir()
        for name, text in files:
            (folder / game_id / name).write_text(text, encoding="utf-8")
        return load_game(game_id, folder)


def table_file(files: Files, table: str) -> str:
    """The CSV file name of a table, from game.toml's [tables]."""
    toml = dict(files)["game.toml"]
    found = re.search(rf'^\s*{re.escape(table)}\s*=\s*"([^"]+)"', toml, re.MULTILINE)
    if found is None:
        raise ValueError(f"game.toml names no file for the table '{table}'")
    return found[1]


def one_fewer(files: Files, table: str, design: str) -> Files:
    """The data with one copy of `design` taken out of `table` (and the deck or supply size rule one smaller)."""
    name = table_file(files, table)
    texts = dict(files)
    rows = list(csv.reader(io.StringIO(texts[name])))
    head = rows[0]
    ids, copies = head.index("id"), head.index("copies")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        if row and row[ids] == design:
            row = list(row)
            row[copies] = str(int(row[copies]) - 1)
        writer.writerow(row)
    texts[name] = out.getvalue()
    texts["game.toml"] = re.sub(rf"^((?:{'|'.join(SIZE_RULES)})\s*=\s*)(\d+)", lambda m: f"{m[1]}{int(m[2]) - 1}",
                                texts["game.toml"], count=1, flags=re.MULTILINE)
    return tuple(sorted(texts.items()))


def removable(data: GameData, table: str) -> list[str]:
    """The designs of `table` that have a copy to take out, in file order."""
    return [row.id for row in data.tables[table] if getattr(row, "copies", 0) > 0]


def problem_of(game_id: str, files: Files) -> str | None:
    """Why this data cannot be played (the loader's first problem), or None."""
    try:
        load(game_id, files)
    except DataError as err:
        return err.problems[0].message
    return None
