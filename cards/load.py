"""One loader for every game: a `game.toml` plus CSV tables, checked against the game's schema.

Each game folder under `cards/` holds `game.toml` (identity, player counts, `[rules]`
constants, `[tables]` naming the CSV files, and presentation settings) and the CSV
files. The game's typed models live in `cards/schemas/<game>.py`, which exposes
`RULES` (a pydantic model for `[rules]`), `TABLES` (table name -> row model) and
optionally `check(data) -> list[Problem]` for checks that span files.
"""

from __future__ import annotations

import csv
import importlib
import re
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cards.problems import DataError, Problem

CARDS_ROOT = Path(__file__).resolve().parent
GAME_FILE = "game.toml"
ID_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"


class Row(BaseModel):
    """A CSV row: every table has a stable id and a display name."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1)


class CardRow(Row):
    """A card design; `copies` says how many physical cards it prints as."""

    copies: int = Field(default=1, ge=0, le=500)


class GameHeader(BaseModel):
    """The identity part of `game.toml`."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1)
    min_players: int = Field(ge=1, le=12)
    max_players: int = Field(ge=1, le=12)
    tables: dict[str, str]
    rules: dict[str, Any] = Field(default_factory=dict)
    layout: dict[str, Any] = Field(default_factory=dict)


@dataclass(frozen=True)
class CardFace:
    """What a printed card face shows; each schema's `face(row)` fills it, so the generator needs no game knowledge.

    `symbol` names a vector symbol the generator draws: infantry, light, cavalry, artillery,
    officer, event, leader, morale, terrain, blunder, pike, musket, token, or None.
    """

    title: str
    kind: str
    corner: str = ""
    text: str = ""
    symbol: str | None = None


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

    def table(self, name: str) -> list[Any]:
        return self.tables[name]

    def by_id(self, table: str) -> dict[str, Any]:
        return {row.id: row for row in self.tables[table]}

    def deck(self, table: str = "cards") -> list[PhysicalCard]:
        """Every physical card of a table, each with a stable id."""
        cards: list[PhysicalCard] = []
        for row in self.tables[table]:
            copies = getattr(row, "copies", 1)
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


def game_ids(root: Path | None = None) -> list[str]:
    """The games present under a cards folder, in a stable order."""
    root = root or CARDS_ROOT
    return sorted(p.parent.name for p in root.glob(f"*/{GAME_FILE}"))


def load_all(root: Path | None = None) -> dict[str, GameData]:
    """Load every game, reporting the problems of all of them together."""
    root = root or CARDS_ROOT
    ids = game_ids(root)
    if not ids:
        raise DataError([Problem(str(root), f"no game folders (none holds a {GAME_FILE})")])
    games: dict[str, GameData] = {}
    problems: list[Problem] = []
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
    root = root or CARDS_ROOT
    folder = root / game_id
    game_file = folder / GAME_FILE
    if not game_file.is_file():
        known = ", ".join(game_ids(root)) or "none"
        raise DataError([Problem(str(game_file), f"no game '{game_id}' here (games: {known})")])
    problems: list[Problem] = []
    text = game_file.read_text(encoding="utf-8")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise DataError([Problem(str(game_file), f"not valid TOML: {err}")]) from None
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
    for name, filename in header.tables.items():
        model = schema.TABLES.get(name)
        if model is None:
            problems.append(Problem(str(game_file), f"unknown table '{name}' (known: {', '.join(schema.TABLES)})",
                                    _line_of(text, name), f"tables.{name}", filename))
            continue
        path = folder / filename
        files[name] = path
        rows, table_problems = read_table(path, model)
        tables[name] = rows
        problems.extend(table_problems)
    problems.extend(_shared_ids(tables, files))
    if problems:
        raise DataError(problems)
    data = GameData(header.id, header.name, header.min_players, header.max_players,
                    rules, tables, header.layout, folder, files)
    check = getattr(schema, "check", None)
    if check is not None:
        problems.extend(check(data))
    if problems:
        raise DataError(problems)
    return data


def read_table(path: Path, model: type[Row]) -> tuple[list[Row], list[Problem]]:
    """Read a CSV table into typed rows; empty cells mean "use the default"."""
    where = str(path)
    if not path.is_file():
        return [], [Problem(where, "file not found")]
    problems: list[Problem] = []
    rows: list[Row] = []
    with path.open(newline="", encoding="utf-8-sig") as handle:
        reader = csv.DictReader(handle)
        columns = [c.strip() for c in (reader.fieldnames or [])]
        if not columns:
            return [], [Problem(where, "empty file: the first line must name the columns", 1)]
        known = set(model.model_fields)
        required = {n for n, f in model.model_fields.items() if f.is_required()}
        for col in columns:
            if col not in known:
                problems.append(Problem(where, f"unknown column (known: {', '.join(model.model_fields)})", 1, col))
        for col in sorted(required - set(columns)):
            problems.append(Problem(where, "missing column", 1, col))
        if problems:
            return [], problems
        seen: dict[str, int] = {}
        for raw in reader:
            line = reader.line_num
            if None in raw:
                problems.append(Problem(where, "more cells than columns", line, None, raw[None]))
                continue
            cells = {k.strip(): (v or "").strip() for k, v in raw.items()}
            if not any(cells.values()):
                continue
            values = {k: v for k, v in cells.items() if v != ""}
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
    return rows, problems


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
        return importlib.import_module(f"cards.schemas.{game_id}")
    except ModuleNotFoundError:
        raise DataError([Problem(str(game_file), f"no schema module cards/schemas/{game_id}.py for this game")]) from None


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
        at = line if line is not None else (_line_of(text, str(e["loc"][-1])) if text and e["loc"] else None)
        if isinstance(value, dict):
            value = None
        out.append(Problem(where, message, at, name, value))
    return out


def _line_of(text: str | None, key: str) -> int | None:
    """The first line of a TOML text that sets `key`, so a message can point at it."""
    if text is None:
        return None
    pattern = re.compile(rf"^\s*(\[\s*{re.escape(key)}\s*\]|{re.escape(key)}\s*=)")
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return number
    return None
