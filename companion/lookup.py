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
from fractions import Fraction
from functools import cache
from pathlib import Path

from cards import CardRow, GameData, markup
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
    roles = getattr(schema, "roles", None)
    out: list[Entry] = []
    for table, rows in data.tables.items():
        for row in rows:
            if not isinstance(row, CardRow):
                continue
            extra = _facts(data, row)
            if face is not None:
                f = face(row)
                # A game whose card text names its phases (warfare's `roles`) is shown phase by phase, not twice.
                phased = tuple((phase, markup.plain(data, part)) for phase, part in roles(row)) if roles is not None else ()
                out.append(Entry("card", data.id, row.id, f.title, f.kind, "" if phased else markup.plain(data, f.text),
                                 {"game": data.id, "card": row.id}, phased + extra))
            else:
                out.append(Entry("card", data.id, row.id, row.name, table, "", {"game": data.id, "card": row.id}, extra))
    return out


def _facts(data: GameData, row: CardRow) -> tuple[tuple[str, str], ...]:
    """A card's data as a rulebook states it: only the fields the game's `[facts]` names, in its order and its
    words; a yes/no field as its words when it holds, a number unless 0, another row's id as that row's name."""
    names = {r.id: r.name for rows in data.tables.values() for r in rows}
    values = row.model_dump()
    out: list[tuple[str, str]] = []
    for key, words in data.facts.items():
        value = values.get(key)
        if value in (None, "", [], {}, False, 0):
            continue
        if value is True:
            out.append(("", words))
        else:
            out.append((words, names.get(value, str(value).replace("_", " ").capitalize())
                        if isinstance(value, str) else str(value)))
    return tuple(out)


def combo_entries(game_id: str, data: GameData) -> list[Entry]:
    """The showdown combo table (waterloo's `rules.combos`, strongest first) with the engine's exact odds."""
    combos = getattr(data.rules, "combos", None)
    if not combos:
        return []
    odds: dict[str, Fraction] = {}
    try:
        odds = dict(importlib.import_module(f"engine.{game_id}").combo_odds(data))
    except (ModuleNotFoundError, AttributeError):
        pass
    takes = _combo_descriptions(game_id)
    out = []
    for rank, combo in enumerate(combos, start=1):
        extra: list[tuple[str, str]] = [("rank", f"{rank} of {len(combos)} (1 is strongest)")]
        if combo.name in odds:
            extra.append(("odds of being dealt", odds_text(odds[combo.name])))
        out.append(Entry("combo", game_id, combo.id, combo.name, f"Combo {rank}", takes.get(combo.name, ""),
                         {"game": game_id, "combo": combo.id}, tuple(extra)))
    return out


def odds_text(p: Fraction) -> str:
    """'1 in 1,657 (0.0604%)' — how a player reads a chance."""
    if p == 0:
        return "impossible with this deck"
    return f"1 in {round(1 / p):,} ({float(p):.4%})"


def _combo_descriptions(game_id: str) -> dict[str, str]:
    """'What it takes' per combo name, from the rules document's combo table."""
    folder = rules_dir()
    path = folder / f"{game_id}.md" if folder else None
    if path is None or not path.is_file():
        return {}
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].isdigit():
            found[cells[1]] = cells[2]
    return found


DEVELOPER_NOTE = re.compile(r"[ \t]*<!--.*?-->", re.DOTALL)
"""A rules document keeps where a rule lives in the code and data (option keys, `game.toml` constants) in HTML
comments: the look-up reads as a rulebook, the file still tells a developer where to look."""
FOR_DESIGNERS = "(for card designers)"
"""A section headed so (the data's vocabulary) is for whoever edits the card files, not for players: not looked up."""


def rule_entries(game_id: str, text: str) -> list[Entry]:
    """Sections of a rules document (by heading) and each numbered ruling as its own entry.

    A ruling is a heading that starts with `R<n>` or a line that starts with a bold `**R<n>…**`;
    its text runs to the next heading or ruling. Developer notes (`DEVELOPER_NOTE`) are left out, and so are
    sections for card designers (`FOR_DESIGNERS`).
    """
    text = DEVELOPER_NOTE.sub("", text)
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
                rulings.setdefault(found.group(1), (found.group(2).strip(" *.:-–—"), []))
            else:
                sections.append((title, []))
            continue
        if bold:
            current = bold.group(1)
            rest = bold.group(3).strip()
            rulings.setdefault(current, (bold.group(2).strip(" .:-–—"), [rest] if rest else []))
        elif current is not None:
            rulings[current][1].append(line)
        if in_section and sections:
            sections[-1][1].append(line)
    out = [Entry("section", game_id, _slug(title), title, "Rules", "\n".join(body).strip(),
                 {"game": game_id, "section": _slug(title)}) for title, body in sections
           if not title.endswith(FOR_DESIGNERS)]
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
