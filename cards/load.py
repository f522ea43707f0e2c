"""One loader for every game: a `game.toml` plus CSV tables, checked against the game's schema.

Each game folder under `cards/` holds `game.toml` (identity, player counts, `[rules]`
constants, `[tables]` naming the CSV files, and presentation settings) and the CSV
files. The game's typed models live in `cards/schemas/<game>.py`, which exposes
`RULES` (a pydantic model for `[rules]`), `TABLES` (table name -> row model) and
optionally `check(data) -> list[Problem]` for checks that span files.
"""

from __future__ import annotations

import builtins
import csv
import importlib
import io
import math
import os
import re
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cards import options as table_options
from cards.options import TableOptions
from cards.problems import DataError, Problem

CARDS_ROOT = Path(__file__).resolve().parent
CARDS_ENV = "MUSTER_CARDS_DIR"
GAME_FILE = "game.toml"
ID_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"
GAME_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
TABLE_FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,95}\.csv$")
"""A table is a plain CSV file in its game's folder: no path, so data never reaches outside it."""
# Limits far above any real game (the largest shipped file is 3 KB), so a pasted or generated file
# cannot make loading, checking or printing take minutes and gigabytes.
MAX_FILE_BYTES = 256 * 1024
MAX_CELL = 2_000
MAX_PIECES = 1_000
# Every value a data file holds has a bound, checked as the file is read (`bounds`): names are printed
# large on one line (the longest shipped is 33 characters), texts fill a card's text box (the longest
# is 198), and no rule or layout number of a game needs six digits.
MAX_NAME = 48
MAX_TEXT = 400
MAX_NUMBER = 100_000
MAX_ITEMS = 200
MAX_DEPTH = 8
NAME_FIELDS = frozenset({"name", "title", "word"})
"""Fields printed as a title: they get MAX_NAME, every other text MAX_TEXT."""


class Row(BaseModel):
    """A CSV row: every table has a stable id and a display name."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    id: str = Field(pattern=ID_PATTERN, max_length=MAX_NAME)
    name: str = Field(min_length=1, max_length=MAX_NAME)


class CardRow(Row):
    """A card design; `copies` says how many physical cards it prints as, `icon` names its picture
    (an icon of cards/icons/game-icons.json; tables without the column print their schema's symbol)."""

    copies: int = Field(default=1, ge=0, le=500)
    icon: str | None = Field(default=None, pattern=ID_PATTERN)


class GameHeader(BaseModel):
    """The identity part of `game.toml`."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=ID_PATTERN, max_length=MAX_NAME)
    name: str = Field(min_length=1, max_length=MAX_NAME)
    min_players: int = Field(ge=2, le=12)   # every game here is a contest between players
    max_players: int = Field(ge=2, le=12)
    tables: dict[str, str]
    rules: dict[str, Any] = Field(default_factory=dict)
    layout: dict[str, Any] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)
    facts: dict[str, str] = Field(default_factory=dict)
    """A card field -> the words its look-up page shows it under (companion/lookup.py); fields not named are not shown."""


@dataclass(frozen=True)
class CardFace:
    """What a printed card face shows; each schema's `face(row)` fills it, so the generator needs no game knowledge.

    `symbol` names a vector symbol the generator draws: infantry, light, cavalry, artillery,
    officer, event, leader, morale, terrain, blunder, pike, musket, token, or None; `icon`
    names a picture from cards/icons (the card's `icon` column), drawn in preference to the symbol.
    """

    title: str
    kind: str
    corner: str = ""
    text: str = ""
    symbol: str | None = None
    icon: str | None = None


Design = TypeVar("Design", bound=CardRow)


@dataclass(frozen=True)
class PhysicalCard:
    """One printed card: a design plus which copy of it this is."""

    id: str
    design: CardRow
    copy: int
    table: str = "cards"

    @property
    def name(self) -> str:
        return self.design.name

    @property
    def type(self) -> str:
        return str(getattr(self.design, "type", ""))

    def design_as(self, schema: builtins.type[Design]) -> Design:
        """The design as its game's schema row (an engine knows which), so the type checker sees its fields."""
        if not isinstance(self.design, schema):
            raise TypeError(f"card {self.id} is a {builtins.type(self.design).__name__}, not a {schema.__name__}")
        return self.design


@dataclass(frozen=True)
class GameData:
    """A validated game: rule constants, tables and presentation settings."""

    id: str
    name: str
    min_players: int
    max_players: int
    rules: Any
    tables: dict[str, list[Row]]
    layout: dict[str, Any]
    folder: Path
    files: dict[str, Path] = field(default_factory=dict)
    lines: dict[str, dict[str, int]] = field(default_factory=dict)
    """Table -> row id -> its line in the CSV, so later checks can point at a row."""
    options: TableOptions = field(default_factory=TableOptions)
    """How the companion's new-table form asks for the engine's options (`cards/options.py`)."""
    facts: dict[str, str] = field(default_factory=dict)
    """`[facts]`: a card field -> the words a look-up page shows it under, in order (`GameHeader.facts`)."""

    def problem(self, table: str, row_id: str, message: str, field: str | None = None,
                value: Any = None) -> Problem:
        """A problem located at one row of a table."""
        return Problem(str(self.files[table]), message, self.lines.get(table, {}).get(row_id), field, value)

    def table(self, name: str) -> list[Any]:
        return self.tables[name]

    def by_id(self, table: str) -> dict[str, Any]:
        return {row.id: row for row in self.tables[table]}

    def deck(self, table: str = "cards") -> list[PhysicalCard]:
        """Every physical card of a table, each with a stable id."""
        cards: list[PhysicalCard] = []
        for row in self.tables[table]:
            if not isinstance(row, CardRow):
                raise TypeError(f"table {table!r} of {self.id} holds {type(row).__name__} rows, not card designs")
            copies = row.copies
            for k in range(1, copies + 1):
                card_id = row.id if copies == 1 else f"{row.id}-{k}"
                cards.append(PhysicalCard(card_id, row, k, table))
        return cards

    def card_tables(self) -> list[str]:
        """The tables whose rows are printed pieces with copies, in file order."""
        return [name for name, rows in self.tables.items() if rows and isinstance(rows[0], CardRow)]

    def all_cards(self) -> list[PhysicalCard]:
        """Every physical piece of every card table (decks, tokens, tiles)."""
        return [card for name in self.card_tables() for card in self.deck(name)]

    @cached_property
    def card_index(self) -> dict[str, PhysicalCard]:
        """Physical card id -> card, over every card table (ids are unique across them)."""
        return {card.id: card for card in self.all_cards()}


def cards_root() -> Path:
    """The cards folder used when none is given: $MUSTER_CARDS_DIR (how `muster app --cards DIR` reaches
    the companion's process), else the shipped data."""
    return Path(os.environ.get(CARDS_ENV) or CARDS_ROOT)


def shared_file(name: str, root: Path | None = None) -> Path:
    """A file every game shares (layouts.toml, profiles.toml) from the cards folder in use, or the shipped
    one when that folder has none: a designer's copy holds only what it changes."""
    own = (root or cards_root()) / name
    return own if own.is_file() else CARDS_ROOT / name


def game_ids(root: Path | None = None) -> list[str]:
    """The games present under a cards folder, in a stable order (folders whose name is a valid id)."""
    root = root or cards_root()
    return sorted(p.parent.name for p in root.glob(f"*/{GAME_FILE}") if GAME_ID.match(p.parent.name))


def folder_problems(root: Path) -> list[Problem]:
    """Folders that look like games but are not loaded: a bad name, or data files without game.toml.

    Without this a game whose game.toml was deleted or misnamed would silently drop out."""
    problems = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        if (folder / GAME_FILE).is_file():
            if not GAME_ID.match(folder.name):
                problems.append(Problem(str(folder / GAME_FILE), "a game folder's name is the game's id: up to "
                                        "40 lower-case letters, digits, - and _, starting with a letter or digit",
                                        field="id", value=folder.name))
        elif any(folder.glob("*.csv")) or any(folder.glob("*.toml")):
            problems.append(Problem(str(folder), f"holds game data but no {GAME_FILE}: add one, or move the "
                                                 "folder out of the cards folder"))
    return problems


def load_all(root: Path | None = None) -> dict[str, GameData]:
    """Load every game, reporting the problems of all of them together."""
    root = root or cards_root()
    if not root.is_dir():
        raise DataError([Problem(str(root), f"not a folder (the cards folder comes from --cards or ${CARDS_ENV})")])
    ids = game_ids(root)
    problems: list[Problem] = folder_problems(root)
    if not ids:
        raise DataError(problems + [Problem(str(root), f"no game folders (none holds a {GAME_FILE})")])
    games: dict[str, GameData] = {}
    for game_id in ids:
        try:
            games[game_id] = load_game(game_id, root)
        except DataError as err:
            problems.extend(err.problems)
    if problems:
        raise DataError(problems)
    return games


def load_game(game_id: str, root: Path | None = None) -> GameData:
    """Load and validate one game folder, or raise DataError listing every problem."""
    root = root or cards_root()
    folder = root / game_id
    game_file = folder / GAME_FILE
    if not GAME_ID.match(game_id) or not game_file.is_file():
        known = ", ".join(game_ids(root)) or "none"
        raise DataError([Problem(str(root / game_id[:80] / GAME_FILE), f"no game '{game_id[:80]}' here (games: {known})")])
    problems: list[Problem] = []
    raw, text = read_toml(game_file)
    try:
        header = GameHeader.model_validate(raw)
    except ValidationError as err:
        raise DataError(_problems(err, str(game_file), text=text)) from None
    if header.id != game_id:
        problems.append(Problem(str(game_file), f"id must match the folder name '{game_id}'",
                                _line_of(text, "id"), "id", header.id))
    if header.min_players > header.max_players:
        problems.append(Problem(str(game_file), "min_players is more than max_players",
                                _line_of(text, "min_players"), "min_players", header.min_players))
    schema = _schema(game_id, game_file)
    rules: Any = None
    try:
        rules = schema.RULES.model_validate(header.rules)
    except ValidationError as err:
        problems.extend(_problems(err, str(game_file), prefix="rules", text=text))
    tables: dict[str, list[Row]] = {}
    files: dict[str, Path] = {}
    for name in sorted(set(schema.TABLES) - set(header.tables)):
        problems.append(Problem(str(game_file), f"[tables] needs a '{name}' entry naming its CSV file",
                                _line_of(text, "tables"), f"tables.{name}"))
    options = TableOptions()
    try:
        options = table_options.read(header.options)
    except ValidationError as err:
        problems.extend(_problems(err, str(game_file), prefix="options", text=text))
    layout_model = getattr(schema, "LAYOUT", None)
    if layout_model is not None:
        try:
            layout_model.model_validate(header.layout)
        except ValidationError as err:
            problems.extend(_problems(err, str(game_file), prefix="layout", text=text))
    lines: dict[str, dict[str, int]] = {}
    for name, filename in header.tables.items():
        model = schema.TABLES.get(name)
        if model is None:
            problems.append(Problem(str(game_file), f"unknown table '{name}' (known: {', '.join(schema.TABLES)})",
                                    _line_of(text, name), f"tables.{name}", filename))
            continue
        if not TABLE_FILE.match(filename):
            problems.append(Problem(str(game_file), "a table is a .csv file in the game's folder, named with letters, "
                                    "digits, - and _ (no folder, at most 100 characters)",
                                    _line_of(text, name), f"tables.{name}", filename[:100]))
            continue
        path = folder / filename
        files[name] = path
        rows, lines[name], table_problems = read_table(path, model)
        tables[name] = rows
        problems.extend(table_problems)
    problems.extend(_shared_ids(tables, files))
    fields = {name for name in header.facts if any(name in model.model_fields for model in schema.TABLES.values())}
    problems.extend(Problem(str(game_file), "[facts] names a field no table of this game has",
                            _line_of(text, name), f"facts.{name}", name) for name in header.facts if name not in fields)
    pieces = sum(getattr(row, "copies", 0) for rows in tables.values() for row in rows)
    if pieces > MAX_PIECES:
        problems.append(Problem(str(game_file), f"the tables print {pieces} pieces; a game prints at most {MAX_PIECES}",
                                field="copies", value=pieces))
    if problems:
        raise DataError(problems)
    problems.extend(_located(p, game_file, text)
                    for p in table_options.data_problems(options, rules, header.min_players, str(game_file)))
    if problems:
        raise DataError(problems)
    data = GameData(header.id, header.name, header.min_players, header.max_players,
                    rules, tables, header.layout, folder, files, lines, options, header.facts)
    check = getattr(schema, "check", None)
    if check is not None:
        problems.extend(_located(p, game_file, text) for p in check(data))
    if problems:
        raise DataError(problems)
    return data


def _located(problem: Problem, game_file: Path, text: str) -> Problem:
    """A game.toml problem from a cross-file check, given the line of its field when it names one."""
    if problem.line is not None or problem.field is None or problem.file != str(game_file):
        return problem
    return Problem(problem.file, problem.message, _line_of_field(text, problem.field.split(".")),
                   problem.field, problem.value)


def read_text(path: Path) -> str:
    """A data file's text, or DataError naming what is wrong: unreadable, too large, not UTF-8.

    A UTF-8 byte-order mark (spreadsheet programs write one) is dropped, for TOML and CSV alike."""
    where = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise DataError([Problem(where, f"the file has {size:,} bytes; a data file holds at most "
                                            f"{MAX_FILE_BYTES:,}")])
        raw = path.read_bytes()
    except FileNotFoundError:
        raise DataError([Problem(where, "file not found")]) from None
    except OSError as err:
        raise DataError([Problem(where, f"cannot read the file: {err.strerror or err}")]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[:err.start].count(b"\n") + 1
        raise DataError([Problem(where, f"byte 0x{raw[err.start]:02x} is not UTF-8: save the file as UTF-8",
                                 line)]) from None
    return text.removeprefix("\ufeff")


def read_toml(path: Path) -> tuple[dict[str, Any], str]:
    """A TOML data file's values and text, or DataError naming what is wrong: unreadable, not TOML,
    or a value beyond its bound (each named with its field and the limit, all in one pass)."""
    text = read_text(path)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise DataError([Problem(str(path), f"not valid TOML: {err}")]) from None
    except RecursionError:  # the parser recurses into nested arrays and tables
        raise DataError([Problem(str(path), f"not valid TOML here: values nested more than {MAX_DEPTH} deep")]) from None
    problems = [Problem(str(path), message, _line_of_field(text, where), ".".join(where) or None)
                for where, message in bounds(raw)]
    if problems:
        raise DataError(problems)
    return raw, text


def bounds(value: Any, where: tuple[str, ...] = ()) -> list[tuple[list[str], str]]:
    """Every value out of its bound in data read from a file, as (field path, what is wrong and the limit).

    Checked before any model sees the data, so no field of any file is without one: text of a name
    field (NAME_FIELDS) MAX_NAME characters, other text MAX_TEXT, numbers within ±MAX_NUMBER, lists
    and tables MAX_ITEMS entries, nesting MAX_DEPTH levels."""
    field = where[-1] if where else ""
    if len(where) > MAX_DEPTH:
        return [(list(where), f"nested more than {MAX_DEPTH} levels deep")]
    if isinstance(value, str):
        limit = MAX_NAME if field in NAME_FIELDS else MAX_TEXT
        return [] if len(value) <= limit else [(list(where), f"{len(value):,} characters; at most {limit} here")]
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        ok = not math.isfinite(value) or abs(value) <= MAX_NUMBER  # NaN and inf: the field's model says
        return [] if ok else [(list(where), f"{value:,} is beyond ±{MAX_NUMBER:,}, the bound of any number here")]
    if isinstance(value, (list, dict)):
        if len(value) > MAX_ITEMS:
            return [(list(where), f"{len(value):,} entries; at most {MAX_ITEMS} here")]
        items = value.items() if isinstance(value, dict) else ((str(k), v) for k, v in enumerate(value))
        out: list[tuple[list[str], str]] = []
        for key, item in items:
            if len(key) > MAX_NAME:
                out.append(([*where, key[:MAX_NAME] + "…"], f"a key of {len(key):,} characters; at most {MAX_NAME}"))
                continue
            out.extend(bounds(item, (*where, key)))
        return out
    return []


def read_table(path: Path, model: type[Row]) -> tuple[list[Row], dict[str, int], list[Problem]]:
    """Read a CSV table into typed rows and each row's line; empty cells mean "use the default"."""
    where = str(path)
    try:
        text = read_text(path)
    except DataError as err:
        return [], {}, err.problems
    problems: list[Problem] = []
    rows: list[Row] = []
    seen: dict[str, int] = {}
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, [])
        columns = [c.strip() for c in header]
        if not any(columns):
            return [], {}, [Problem(where, "empty file: the first line must name the columns", 1)]
        known = set(model.model_fields)
        required = {n for n, f in model.model_fields.items() if f.is_required()}
        for number, col in enumerate(columns):
            if col not in known:
                problems.append(Problem(where, f"unknown column (known: {', '.join(model.model_fields)})", 1, col[:100]))
            elif col in columns[:number]:
                problems.append(Problem(where, "the column appears twice", 1, col))
        for col in sorted(required - set(columns)):
            problems.append(Problem(where, "missing column", 1, col))
        if problems:
            return [], {}, problems
        for cells in reader:
            line = reader.line_num
            if len(cells) > len(columns):
                problems.append(Problem(where, "more cells than columns", line, None, cells[len(columns):]))
                continue
            long = next((c for c in cells if len(c) > MAX_CELL), None)
            if long is not None:
                problems.append(Problem(where, f"a cell of {len(long):,} characters; a cell holds at most {MAX_CELL:,}",
                                        line, columns[cells.index(long)]))
                continue
            values = {col: cell.strip() for col, cell in zip(columns, cells) if cell.strip()}
            if not values:
                continue
            beyond = [Problem(where, message, line, ".".join(at)) for col, cell in values.items()
                      for at, message in bounds(cell, (col,))]
            if beyond:
                problems.extend(beyond)
                continue
            try:
                row = model.model_validate(values)
            except ValidationError as err:
                problems.extend(_problems(err, where, line=line))
                continue
            if row.id in seen:
                problems.append(Problem(where, f"duplicate id (first on line {seen[row.id]})", line, "id", row.id))
                continue
            seen[row.id] = line
            rows.append(row)
    except csv.Error as err:
        problems.append(Problem(where, f"not valid CSV: {err}", reader.line_num))
    return rows, seen, problems


def _shared_ids(tables: dict[str, list[Row]], files: dict[str, Path]) -> list[Problem]:
    """Design ids are the printed QR codes' targets, so two card tables may not share one."""
    owner: dict[str, str] = {}
    problems = []
    for name, rows in tables.items():
        if not rows or not isinstance(rows[0], CardRow):
            continue
        for row in rows:
            if row.id in owner:
                problems.append(Problem(str(files[name]), f"id is already used in table '{owner[row.id]}'",
                                        field="id", value=row.id))
            else:
                owner[row.id] = name
    return problems


def _schema(game_id: str, game_file: Path) -> ModuleType:
    try:
        module = importlib.import_module(f"cards.schemas.{game_id}")
    except ModuleNotFoundError:
        module = None
    if module is None or not hasattr(module, "RULES") or not hasattr(module, "TABLES"):
        raise DataError([Problem(str(game_file), f"no schema module cards/schemas/{game_id}.py for this game")])
    return module


def _problems(err: ValidationError, where: str, *, line: int | None = None,
              prefix: str = "", text: str | None = None) -> list[Problem]:
    out = []
    for e in err.errors(include_url=False):
        loc = ".".join(str(p) for p in e["loc"])
        name = f"{prefix}.{loc}" if prefix and loc else (prefix or loc or None)
        value = e.get("input")
        if e["type"] == "missing":
            value = None
            message = "is required"
        elif e["type"] == "extra_forbidden":
            message = "unknown field"
        else:
            message = e["msg"]
        at = line if line is not None else _line_of_field(text, [str(part) for part in e["loc"]])
        if isinstance(value, dict):
            value = None
        out.append(Problem(where, message, at, name, value))
    return out


def _line_of_field(text: str | None, parts: list[str]) -> int | None:
    """The line of a nested field (rules.hands_per_shuffle.0): its innermost part that a line sets."""
    return next((at for part in reversed(parts) if (at := _line_of(text, part)) is not None), None)


def _line_of(text: str | None, key: str) -> int | None:
    """The first line of a TOML text that sets `key`, so a message can point at it."""
    if text is None:
        return None
    pattern = re.compile(rf"^\s*(\[\s*{re.escape(key)}\s*\]|{re.escape(key)}\s*=)")
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return number
    return None
