"""Napoleonic Warfare: the seed's 97 cards with its two-letter type codes."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from cards.load import CardFace, CardRow, GameData
from cards.problems import Problem

TypeCode = Literal["IU", "LU", "CU", "AU", "IT", "LT", "CT", "AT", "LS", "MS", "AS", "TS", "EB"]
TYPE_NAMES: dict[str, str] = {
    "IU": "Infantry Unit", "LU": "Light Infantry Unit", "CU": "Cavalry Unit", "AU": "Artillery Unit",
    "IT": "Infantry Tactic", "LT": "Light Infantry Tactic", "CT": "Cavalry Tactic", "AT": "Artillery Tactic",
    "LS": "Leader Strategy", "MS": "Morale Strategy", "AS": "Action Strategy", "TS": "Terrain Strategy",
    "EB": "Enemy Blunder",
}


class Card(CardRow):
    type: TypeCode
    force: int = Field(ge=0, le=10)
    text: str = Field(min_length=1)  # what the card does: its counter, deploy and attack roles


class Rules(BaseModel):
    model_config = ConfigDict(extra="forbid")

    deck_size: int = Field(ge=1)
    starting_troops: int = Field(ge=1)
    opening_hand: int = Field(ge=0)
    draw_per_turn: int = Field(ge=0)
    hand_limit: int = Field(ge=1, le=20)   # an attack picks any subset of a hand: 2^20 stays listable
    maneuver_max_exchange: int = Field(ge=0)
    free_cards_per_attack: int = Field(ge=0)
    bonus_per_extra_card: int = Field(ge=0)
    morale_divisor: int = Field(ge=1)
    morale_rounding: Literal["down", "up"]
    morale_per_attack: int = Field(ge=0)
    strategy_per_type: int = Field(ge=0)
    turn_limit: int = Field(ge=1)
    action_limit: int = Field(ge=1)
    unit_types: list[TypeCode] = Field(min_length=1)
    strategy_types: list[TypeCode]
    draw_types: list[TypeCode]
    scout_types: list[TypeCode]
    harass_types: list[TypeCode]
    blunder_types: list[TypeCode] = Field(min_length=1)
    morale_types: list[TypeCode]
    counters: dict[TypeCode, list[TypeCode]]
    tactic_for_unit: dict[TypeCode, TypeCode]


class Layout(BaseModel):
    """warfare's own `[layout]` keys: the troop track and the players' markers (generator/trackers.py)."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    track_columns: int = Field(ge=1, le=100)
    marker_colours: list[Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]] = Field(min_length=2, max_length=2)
    marker_names: list[Annotated[str, Field(min_length=1, max_length=40)]] = Field(min_length=2, max_length=2)


SYMBOLS: dict[str, str] = {
    "IU": "infantry", "LU": "light", "CU": "cavalry", "AU": "artillery",
    "IT": "infantry", "LT": "light", "CT": "cavalry", "AT": "artillery",
    "LS": "leader", "MS": "morale", "AS": "leader", "TS": "terrain", "EB": "blunder",
}


PHASES: tuple[str, ...] = ("Deploy", "Attack", "Defend")
"""The moments of a turn a card's text speaks to, in turn order; the text says them as "Deploy: …"."""
_PHASE = re.compile(r"\b(" + "|".join(PHASES) + r"): ")


def roles(card: Card) -> list[tuple[str, str]]:
    """What the card does in each phase, cut from its printed text (the one copy of it), in turn order;
    "no use" for a phase the text does not name, so a player reads that it has none."""
    found = _phase_parts(card.text)
    return [(phase, found.get(phase, "No use in this phase.")) for phase in PHASES]


def _phase_parts(text: str) -> dict[str, str]:
    marks = list(_PHASE.finditer(text))
    parts = {m.group(1): text[m.end():marks[i + 1].start() if i + 1 < len(marks) else len(text)].strip()
             for i, m in enumerate(marks)}
    return {phase: part[:1].upper() + part[1:] for phase, part in parts.items()}


def face(card: Card) -> CardFace:
    return CardFace(title=card.name, kind=TYPE_NAMES[card.type], corner=str(card.force),
                    text=card.text, symbol=SYMBOLS[card.type], icon=card.icon)


RULES = Rules
TABLES = {"cards": Card}
LAYOUT = Layout


def check(data: GameData) -> list[Problem]:
    where = str(data.folder / "game.toml")
    problems: list[Problem] = []
    size = len(data.deck())
    if size != data.rules.deck_size:
        problems.append(Problem(str(data.files["cards"]),
                                f"the deck has {size} cards but rules.deck_size says {data.rules.deck_size}",
                                field="copies", value=size))
    for key in ("opening_hand", "draw_per_turn"):
        if getattr(data.rules, key) > data.rules.hand_limit:
            problems.append(Problem(where, f"{key} is more than hand_limit ({data.rules.hand_limit})",
                                    field=f"rules.{key}", value=getattr(data.rules, key)))
    if data.rules.opening_hand * 2 > size:
        problems.append(Problem(where, "two opening hands need more cards than the deck holds",
                                field="rules.opening_hand", value=data.rules.opening_hand))
    for row in data.tables["cards"]:
        assert isinstance(row, Card)  # the loader built this table from the Card schema
        first = _PHASE.search(row.text)
        if first is None or first.start() > 0:
            problems.append(data.problem("cards", row.id, "the text must start with a phase "
                                         f"({', '.join(p + ':' for p in PHASES)}), so the look-up can say what "
                                         "the card does in each", "text", row.text[:40]))
    for unit in data.rules.unit_types:
        if unit not in data.rules.tactic_for_unit:
            problems.append(Problem(where, f"no tactic type for unit type {unit}", field="rules.tactic_for_unit"))
    for counter, targets in data.rules.counters.items():
        for target in targets:
            if target not in data.rules.unit_types:
                problems.append(Problem(where, f"{counter} counters {target}, which is not a unit type",
                                        field=f"rules.counters.{counter}", value=target))
    return problems
