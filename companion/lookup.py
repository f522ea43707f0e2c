"""The look-up index: every card, combo and rule of every game, each with a deep link.

Cards come from the card data through each schema's `face(row)` (what the printed face
shows), combos from the waterloo engine's combo table, rules from `docs/rules/<game>.md`:
every section, and every numbered ruling (`R1`, `R2`…) as its own entry. The deep links
are `generator.links`' scheme, so a printed QR code opens the same page as a search hit.

The rules documents live in the repository, not in a package; `rules_dir()` finds them
next to the installed packages (an editable or source install) or at MUSTER_RULES_DIR,
and the page says plainly when they are absent.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from cards import CardRow, GameData
from companion.tables import catalogue

RULING = re.compile(r"^\**\s*(R\d+)\b[\s.:)\-–—*]*(.*)$")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
BOLD_RULING = re.compile(r"^\s*(?:[-*]\s+)?\*\*(R\d+)\b[.:]?\s*(.*?)\*\*[.:]?\s*(.*)$")


@dataclass(frozen=True)
class Entry:
    """One thing a player can look up; `params` are its deep-link query parameters."""

    kind: str  # card | combo | rule | section
    game: str
    key: str
    title: str
    subtitle: str = ""
    text: str = ""
    params: dict[str, str] = field(default_factory=dict)
    extra: tuple[tuple[str, str], ...] = ()

    @property
    def haystack(self) -> str:
        return " ".join((self.title, self.subtitle, self.text, self.key, self.game,
                         " ".join(v for _, v in self.extra))).casefold()


def rules_dir() -> Path | None:
    """Where `docs/rules` is: MUSTER_RULES_DIR, else the repository around the installed package."""
    env = os.environ.get("MUSTER_RULES_DIR")
    candidates = [Path(env)] if env else []
    candidates.append(Path(__file__).resolve().parent.parent / "docs" / "rules")
    return next((p for p in candidates if p.is_dir()), None)


@cache
def index() -> tuple[Entry, ...]:
    """Every look-up entry of every game whose data loads, built once per process."""
    entries: list[Entry] = []
    for entry in catalogue().values():
        if entry.data is not None:
            entries.extend(card_entries(entry.data))
            entries.extend(combo_entries(entry.id, entry.data))
    folder = rules_dir()
    if folder is not None:
        for game_id in catalogue():
            path = folder / f"{game_id}.md"
            if path.is_file():
                entries.extend(rule_entries(game_id, path.read_text(encoding="utf-8")))
    return tuple(entries)


def card_entries(data: GameData) -> list[Entry]:
    """One entry per card design of every card table, drawn from the schema's `face()`."""
    schema = importlib.import_module(f"cards.schemas.{data.id}")
    face = getattr(schema, "face", None)
    out: list[Entry] = []
    for table, rows in data.tables.items():
        for row in rows:
            if not isinstance(row, CardRow):
                continue
            extra = tuple((k, str(v)) for k, v in row.model_dump().items()
                          if k not in ("id", "name") and v not in (None, "", [], {}))
            if face is not None:
                f = face(row)
                out.append(Entry("card", data.id, row.id, f.title, f.kind, f.text,
                                 {"game": data.id, "card": row.id}, extra + (("corner", f.corner),)))
            else:
                out.append(Entry("card", data.id, row.id, row.name, table, "", {"game": data.id, "card": row.id}, extra))
    return out


def combo_entries(game_id: str, data: GameData) -> list[Entry]:
    """The engine's combo table (waterloo), with exact odds where the engine gives them."""
    if game_id != "waterloo":
        return []
    try:
        waterloo = importlib.import_module("engine.waterloo")
    except ModuleNotFoundError:
        return []
    rows = _combo_rows(waterloo, data)
    return [Entry("combo", game_id, key, title, subtitle, text, {"game": game_id, "combo": key}, extra)
            for key, title, subtitle, text, extra in rows]


def _combo_rows(waterloo: Any, data: GameData) -> list[tuple[str, str, str, str, tuple[tuple[str, str], ...]]]:
    table = data.tables.get("combos", [])
    odds: dict[str, Any] = {}
    combo_odds = getattr(waterloo, "combo_odds", None)
    if combo_odds is not None:
        try:
            odds = dict(combo_odds(data))
        except TypeError:
            odds = dict(combo_odds())
    rows = []
    for rank, row in enumerate(table, start=1):
        fields = row.model_dump()
        text = " ".join(str(v) for k, v in fields.items() if k not in ("id", "name") and isinstance(v, str))
        extra = [(k, str(v)) for k, v in fields.items() if k not in ("id", "name") and v not in (None, "")]
        if row.id in odds:
            extra.append(("odds", _odds_text(odds[row.id])))
        rows.append((row.id, row.name, f"Combo {rank}", text, tuple(extra)))
    return rows


def _odds_text(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4%}" if value < 1 else f"{value:g}"
    return str(value)


def rule_entries(game_id: str, text: str) -> list[Entry]:
    """Sections of a rules document (by heading) and each numbered ruling as its own entry.

    A ruling is a heading that starts with `R<n>` or a line that starts with a bold `**R<n>…**`;
    its text runs to the next heading or ruling.
    """
    sections: list[tuple[str, list[str]]] = []
    rulings: dict[str, tuple[str, list[str]]] = {}
    current: str | None = None
    in_section = False
    for line in text.splitlines():
        heading = HEADING.match(line)
        bold = BOLD_RULING.match(line)
        if heading:
            title = heading.group(2).strip()
            found = RULING.match(title)
            current = found.group(1) if found else None
            in_section = found is None
            if found:
                rulings.setdefault(found.group(1), (found.group(2).strip(" *"), []))
            else:
                sections.append((title, []))
            continue
        if bold:
            current = bold.group(1)
            rest = bold.group(3).strip()
            rulings.setdefault(current, (bold.group(2).strip(" ."), [rest] if rest else []))
        elif current is not None:
            rulings[current][1].append(line)
        if in_section and sections:
            sections[-1][1].append(line)
    out = [Entry("section", game_id, _slug(title), title, "Rules", "\n".join(body).strip(),
                 {"game": game_id, "section": _slug(title)}) for title, body in sections]
    out += [Entry("rule", game_id, key, f"{key} {name}".strip(), "Ruling", "\n".join(lines).strip(),
                  {"game": game_id, "rule": key}) for key, (name, lines) in rulings.items()]
    return out


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-") or "section"


def search(query: str, games: Iterable[str] | None = None, kinds: Iterable[str] | None = None,
           entries: Iterable[Entry] | None = None, limit: int = 50) -> list[Entry]:
    """Entries containing every word of `query`; title hits first, then rulings, cards, combos, sections."""
    words = query.casefold().split()
    pool = list(entries if entries is not None else index())
    wanted_games = set(games) if games else None
    wanted_kinds = set(kinds) if kinds else None
    order = {"rule": 0, "card": 1, "combo": 2, "section": 3}
    hits = []
    for entry in pool:
        if wanted_games and entry.game not in wanted_games:
            continue
        if wanted_kinds and entry.kind not in wanted_kinds:
            continue
        hay = entry.haystack
        if all(w in hay for w in words):
            title_hits = sum(w in entry.title.casefold() for w in words)
            exact = entry.key.casefold() == query.casefold().strip() or entry.title.casefold() == query.casefold().strip()
            hits.append((not exact, -title_hits, order.get(entry.kind, 9), entry.game, entry.title, entry))
    hits.sort(key=lambda h: h[:5])
    return [h[-1] for h in hits[:limit]]


def find(params: dict[str, str], entries: Iterable[Entry] | None = None) -> Entry | None:
    """The entry a deep link names (`game` plus `card`, `combo`, `rule` or `section`), or None."""
    game = params.get("game", "")
    pool = list(entries if entries is not None else index())
    for kind, param in (("card", "card"), ("combo", "combo"), ("rule", "rule"), ("section", "section")):
        key = params.get(param)
        if key is None:
            continue
        wanted = key.upper() if kind == "rule" else key.casefold()
        for entry in pool:
            if entry.game == game and entry.kind == kind and (entry.key.upper() if kind == "rule" else entry.key.casefold()) == wanted:
                return entry
        if kind == "card":
            design = re.sub(r"-\d+$", "", key.casefold())  # a physical copy id names its design
            for entry in pool:
                if entry.game == game and entry.kind == "card" and entry.key == design:
                    return entry
    return None
