"""Imperial battles: three Military card types in one shared supply, plus the battle's tokens.

The type names here (`PIKEMEN`, `MUSKETEERS`, `CAVALRY`) are the vocabulary the engine and
the companion use in actions; every number a designer could change, and which type beats
which, is in `Rules`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cards.load import CardFace, CardRow, GameData, _line_of, read_text
from cards.problems import Problem

PIKEMEN = "pikemen"
MUSKETEERS = "musketeers"
CAVALRY = "cavalry"
TYPES: tuple[str, str, str] = (PIKEMEN, MUSKETEERS, CAVALRY)
"""Every Military type, in the order used for display and for listing actions."""
INFANTRY: tuple[str, str] = (PIKEMEN, MUSKETEERS)
TYPE_NAMES: dict[str, str] = {PIKEMEN: "Pikemen", MUSKETEERS: "Musketeers", CAVALRY: "Cavalry"}

MilitaryType = Literal["pikemen", "musketeers", "cavalry"]
TokenKind = Literal["imperial_power", "gold", "reserve", "reinforcement"]
TOKEN_NAMES: dict[str, str] = {"imperial_power": "Imperial Power", "gold": "Gold",
                               "reserve": "Reserve", "reinforcement": "Reinforcement"}
SYMBOLS: dict[str, str] = {PIKEMEN: "pike", MUSKETEERS: "musket", CAVALRY: "cavalry"}
PER_SIDE_TOKENS: tuple[str, str] = ("reserve", "reinforcement")
"""Token kinds every side needs one of, so the table must print at least two."""
SIDES = 2


class Military(CardRow):
    """A Military card design; its copies go into the shared supply."""

    type: MilitaryType
    text: str = ""


class Token(CardRow):
    """A counter or marker the battle uses; `value` is what one token counts for (0: a marker)."""

    kind: TokenKind
    value: int = Field(default=0, ge=0, le=100)
    text: str = ""


class DefaultOptions(BaseModel):
    """Battle options used when a table gives none (see `engine.imperial`)."""

    model_config = ConfigDict(extra="forbid")

    imperial_power: list[int] = Field(min_length=2, max_length=2)
    gold: list[int] = Field(min_length=2, max_length=2)
    reinforcements: list[int] = Field(min_length=2, max_length=2)
    initiative: list[int] = Field(min_length=2, max_length=2)
    game_round: int = Field(ge=1)
    rifling_rounds_of: Literal["battle", "game"] = "battle"  # which rounds rifling_rounds counts (R11)


class Beats(BaseModel):
    """`[rules.beats]`: the one type each type beats; `check` makes sure each is also beaten by exactly one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pikemen: MilitaryType
    musketeers: MilitaryType
    cavalry: MilitaryType

    def as_dict(self) -> dict[str, str]:
        """Winner type -> the type it beats, in `TYPES` order."""
        return {t: getattr(self, t) for t in TYPES}


class Rules(BaseModel):
    model_config = ConfigDict(extra="forbid")

    supply_size: int = Field(ge=1)
    max_draw: int = Field(ge=1)
    auto_win_ratio: int = Field(ge=2)
    exchange_count: int = Field(ge=0)
    gold_cost: int = Field(ge=1)
    rifling_rounds: list[int]
    cavalry_infantry_discards: int = Field(ge=0)
    rout_ratio: int = Field(ge=2)
    reinforcement_calls: int = Field(ge=0)
    beats: Beats
    default_options: DefaultOptions


RULES = Rules
TABLES = {"military": Military, "tokens": Token}


def face(row: Military | Token) -> CardFace:
    """Military cards show their type's initial in the corner; tokens show their value."""
    if isinstance(row, Military):
        return CardFace(title=row.name, kind="Military", corner=row.name[:1],
                        text=row.text, symbol=SYMBOLS[row.type], icon=row.icon)
    corner = str(row.value) if row.value else ""
    return CardFace(title=row.name, kind=TOKEN_NAMES[row.kind], corner=corner,
                    text=row.text, symbol="token", icon=row.icon)


def check(data: GameData) -> list[Problem]:
    """The supply holds every type and enough cards for both sides' draws; each side gets its tokens;
    the matchups form one cycle."""
    rules: Rules = data.rules
    toml = str(data.folder / "game.toml")
    military = str(data.files["military"])
    tokens = str(data.files["tokens"])
    problems: list[Problem] = []
    counts = {t: 0 for t in TYPES}
    for row in data.table("military"):
        counts[row.type] += row.copies
    size = sum(counts.values())
    if size != rules.supply_size:
        problems.append(Problem(military, f"the supply has {size} cards but rules.supply_size says {rules.supply_size}",
                                field="copies", value=size))
    for kind, n in counts.items():
        if n == 0:
            problems.append(Problem(military, f"no {TYPE_NAMES[kind]} in the supply: every type needs copies",
                                    field="type", value=kind))
    needed = SIDES * (rules.max_draw + rules.exchange_count)
    if size < needed:
        problems.append(Problem(toml, f"two sides may draw {needed} cards (max_draw and exchange_count) "
                                      f"but the supply holds {size}", field="rules.max_draw", value=rules.max_draw))
    if any(r < 1 for r in rules.rifling_rounds):
        problems.append(Problem(toml, "game rounds start at 1", field="rules.rifling_rounds",
                                value=rules.rifling_rounds))
    problems.extend(_beats_problems(rules.beats, toml))
    token_copies: dict[str, int] = {}
    for row in data.table("tokens"):
        token_copies[row.kind] = token_copies.get(row.kind, 0) + row.copies
    for kind in TOKEN_NAMES:
        if token_copies.get(kind, 0) == 0:
            problems.append(Problem(tokens, f"no {TOKEN_NAMES[kind]} token is printed", field="kind", value=kind))
    for kind in PER_SIDE_TOKENS:
        if 0 < token_copies.get(kind, 0) < SIDES:
            problems.append(Problem(tokens, f"each side needs its own {TOKEN_NAMES[kind]} token: print at least {SIDES}",
                                    field="copies", value=token_copies[kind]))
    defaults = rules.default_options
    for name in ("imperial_power", "gold", "reinforcements"):
        if any(v < 0 for v in getattr(defaults, name)):
            problems.append(Problem(toml, "a default option may not be negative",
                                    field=f"rules.default_options.{name}", value=getattr(defaults, name)))
    if sorted(defaults.initiative) != list(range(SIDES)):
        problems.append(Problem(toml, "initiative must list both sides once: [0, 1] or [1, 0]",
                                field="rules.default_options.initiative", value=defaults.initiative))
    return problems


def _beats_problems(beats: Beats, toml: str) -> list[Problem]:
    """Every round between two different types needs exactly one winner, so no type may beat itself
    and each must be beaten by exactly one other (with three types: a rock-paper-scissors cycle)."""
    text = read_text(Path(toml))
    table = beats.as_dict()
    problems: list[Problem] = []
    for winner, loser in table.items():
        if winner == loser:
            problems.append(Problem(toml, f"{TYPE_NAMES[winner]} cannot beat itself: two cards of one type are "
                                          "both lost", _line_of(text, winner), f"rules.beats.{winner}", loser))
    for kind in TYPES:
        winners = [TYPE_NAMES[w] for w, lost in table.items() if lost == kind and w != kind]
        if len(winners) != 1:
            who = " and ".join(winners) if winners else "nothing"
            problems.append(Problem(toml, f"{TYPE_NAMES[kind]} is beaten by {who}: every type must be beaten "
                                          "by exactly one other", _line_of(text, "rules.beats"), "rules.beats"))
    return problems
