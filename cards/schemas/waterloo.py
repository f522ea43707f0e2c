"""Waterloo: troop cards valued 1-4 (lower is stronger), officers, and the special cards the combo table names.

The combo ids are the engine's vocabulary: `game.toml` may rename and reorder the combo
table, but every id here must appear exactly once so no pattern silently drops out.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cards.load import CardFace, CardRow, GameData
from cards.problems import Problem

Kind = Literal["infantry", "cavalry", "artillery", "officer",
               "fix_bayonets", "grenadiers", "rockets", "scout", "magazine", "dragoon"]
TROOPS = ("infantry", "cavalry", "artillery")
VALUED = (*TROOPS, "officer")
COMBO_IDS = ("fix_bayonets_4", "bombs_away", "fix_bayonets_3", "cavalry_charge", "five_of_a_kind",
             "battalion", "fix_bayonets_2", "four_of_a_kind", "four_of_a_kind_officer",
             "fire_and_advance", "flank", "full_house", "trips", "two_pair_officer", "two_pair",
             "pair", "high_card")
OFFICER_RANKS = {1: "General", 2: "Captain", 3: "Lieutenant", 4: "Sergeant"}
KIND_NAMES: dict[str, str] = {
    "infantry": "Infantry", "cavalry": "Cavalry", "artillery": "Artillery", "officer": "Officer",
    "fix_bayonets": "Special", "grenadiers": "Special", "rockets": "Special", "scout": "Special",
    "magazine": "Wild", "dragoon": "Wild",
}
SYMBOLS: dict[str, str] = {
    "infantry": "infantry", "cavalry": "cavalry", "artillery": "artillery", "officer": "officer",
    "fix_bayonets": "musket", "grenadiers": "infantry", "rockets": "artillery", "scout": "light",
    "magazine": "artillery", "dragoon": "cavalry",
}


class Card(CardRow):
    """One card design. Troops and officers carry a value (officers: 1 General ... 4 Sergeant)."""

    kind: Kind
    value: int | None = Field(default=None, ge=1, le=4)
    militia: bool = False
    text: str = ""

    @model_validator(mode="after")
    def _value_matches_kind(self) -> Card:
        if self.kind in VALUED and self.value is None:
            raise ValueError(f"a {self.kind} card needs a value from 1 to 4")
        if self.kind not in VALUED and self.value is not None:
            raise ValueError(f"a {self.kind} card has no value; leave the cell empty")
        if self.militia and self.kind != "infantry":
            raise ValueError("only infantry can be militia")
        return self


PARTS: dict[str, tuple[str, str]] = {
    "INF": ("Infantry", "Infantry"), "CAV": ("Cavalry", "Cavalry"), "ART": ("Artillery", "Artillery"),
    "OFF": ("Officer", "an Officer"), "FB": ("Special", "Fix Bayonets"), "GR": ("Special", "Grenadiers"),
    "RK": ("Special", "Rockets"), "TRP": ("", "any troop card"), "any": ("", "any card"),
}
"""A combo's printed make-up, card by card: abbreviation -> (frame kind it is drawn in, its meaning)."""


class Combo(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    name: str = Field(min_length=1)
    # What a player reads (booklet, reference sheet): the cards it takes, how two of them are compared,
    # and the five cards as drawn, each an abbreviation of PARTS, then a letter shared by matching
    # cards ("INF a") or the value a card must have ("CAV 1").
    takes: str = Field(min_length=1)
    ties: str = Field(min_length=1)
    parts: list[Annotated[str, Field(pattern=r"^(INF|CAV|ART|OFF|FB|GR|RK|TRP|any)( ([a-c]|[1-4]))?$")]] = Field(
        min_length=5, max_length=5)


class Rules(BaseModel):
    model_config = ConfigDict(extra="forbid")

    deck_size: int = Field(ge=1)
    starting_chips: int = Field(ge=1)
    ante: int = Field(ge=0)
    hand_cards_dealt: int = Field(ge=1)
    hand_size: int = Field(ge=5, le=5)
    reserve_slots: list[Literal["up", "down"]]
    community_cards: int = Field(ge=1)
    return_after_options: list[Annotated[int, Field(ge=1, le=1000)]] = Field(min_length=1, max_length=20)
    betting_rounds_options: list[Annotated[int, Field(ge=2, le=20)]] = Field(min_length=1, max_length=20)
    max_raise: int = Field(ge=1)
    max_raises_per_round: int = Field(ge=0)
    round_timer_minutes: int = Field(ge=1, le=60)  # R22: the companion's shared round timer
    scout_save_percent: int = Field(ge=0, le=100)
    scout_save_percent_with_officer: int = Field(ge=0, le=100)
    hands_per_shuffle: dict[Annotated[int, Field(ge=2, le=12)], Annotated[int, Field(ge=1)]]  # players -> hands
    combos: list[Combo]


def face(card: Card) -> CardFace:
    """Troops show their value in the corner; officers their rank initial; specials nothing."""
    if card.kind == "officer" and card.value is not None:
        corner = OFFICER_RANKS[card.value][0]
    else:
        corner = "" if card.value is None else str(card.value)
    return CardFace(title=card.name, kind=KIND_NAMES[card.kind], corner=corner,
                    text=card.text, symbol=SYMBOLS[card.kind], icon=card.icon)


class Layout(BaseModel):
    """waterloo's own `[layout]` keys: the chips printed per seat (generator/trackers.py)."""

    model_config = ConfigDict(extra="ignore")

    chip_values: list[Annotated[int, Field(ge=1, le=10_000)]] = Field(min_length=1, max_length=8)
    chip_counts: list[Annotated[int, Field(ge=0, le=100)]] = Field(min_length=1, max_length=8)
    chip_colours: list[Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]] = Field(min_length=1, max_length=8)

    @model_validator(mode="after")
    def _one_entry_per_chip(self) -> Layout:
        if not len(self.chip_values) == len(self.chip_counts) == len(self.chip_colours):
            raise ValueError("chip_values, chip_counts and chip_colours need one entry per chip")
        return self


RULES = Rules
TABLES = {"cards": Card}
LAYOUT = Layout


def check(data: GameData) -> list[Problem]:
    """Deck size against the rule constants, the reshuffle note, and the combo vocabulary."""
    where = str(data.folder / "game.toml")
    rules: Rules = data.rules
    problems: list[Problem] = []
    size = len(data.deck())
    if size != rules.deck_size:
        problems.append(Problem(str(data.files["cards"]),
                                f"the deck has {size} cards but rules.deck_size says {rules.deck_size}",
                                field="copies", value=size))
    outside = len(rules.reserve_slots) * data.max_players + rules.community_cards
    if outside + rules.hand_size * data.max_players > size:
        problems.append(Problem(where, f"{data.max_players} players need more cards than the deck holds",
                                field="max_players", value=data.max_players))
    if len(set(rules.return_after_options)) != len(rules.return_after_options):
        problems.append(Problem(where, "a choice appears twice", field="rules.return_after_options",
                                value=rules.return_after_options))
    draws = rules.hand_size - rules.hand_cards_dealt
    for rounds in rules.betting_rounds_options:
        if draws % (rounds - 1):
            problems.append(Problem(where, f"{rounds} betting rounds cannot share {draws} drawing turns evenly "
                                    f"(one fewer gap than rounds)", field="rules.betting_rounds_options", value=rounds))
    for players, hands in sorted(rules.hands_per_shuffle.items()):
        if not data.min_players <= players <= data.max_players:
            problems.append(Problem(where, f"{players} players is outside min_players to max_players",
                                    field=f"rules.hands_per_shuffle.{players}", value=hands))
            continue
        pile = size - len(rules.reserve_slots) * players - rules.community_cards
        supported = pile // (rules.hand_size * players)
        if supported != hands:
            problems.append(Problem(where, f"with {players} players the draw pile of {pile} cards supports "
                                    f"{supported} hands between shuffles, not {hands}",
                                    field=f"rules.hands_per_shuffle.{players}", value=hands))
    ids = [c.id for c in rules.combos]
    for missing in [c for c in COMBO_IDS if c not in ids]:
        problems.append(Problem(where, f"the combo table lacks '{missing}'", field="rules.combos"))
    for extra in [c for c in ids if c not in COMBO_IDS]:
        problems.append(Problem(where, f"unknown combo '{extra}' (known: {', '.join(COMBO_IDS)})",
                                field="rules.combos", value=extra))
    if len(set(ids)) != len(ids):
        problems.append(Problem(where, "a combo appears twice in the combo table", field="rules.combos"))
    kinds = {row.kind for row in data.table("cards") if row.copies}
    needed = {"infantry", "cavalry", "artillery", "officer", "fix_bayonets", "grenadiers", "rockets",
              "scout", "magazine", "dragoon"}
    for kind in sorted(needed - kinds):
        problems.append(Problem(str(data.files["cards"]), f"no {kind} card in the deck", field="kind"))
    return problems
