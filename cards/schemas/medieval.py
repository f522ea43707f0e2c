"""Reenforcements (Medieval Edition): one 72-card design, printed twice in two back colours.

Every card's effect is data in a closed vocabulary (`EFFECTS`), so the engine can carry it
out and `face()` can print a sentence that always matches what the engine does.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cards.load import CardFace, CardRow, GameData
from cards.problems import Problem

Kind = Literal["fighter", "character", "event"]
Troop = Literal["infantry", "light", "cavalry", "artillery", "pike", "officer"]
Effect = Literal["none", "play_another", "add_column", "add_all_columns",
                 "subtract_opposing_column", "subtract_all_opposing"]

EFFECTS: dict[str, str] = {
    "none": "no effect; the card fights with its value",
    "play_another": "play `amount` more cards from your draw deck onto this column",
    "add_column": "add `amount` to your total in this column",
    "add_all_columns": "add `amount` to your total in every column",
    "subtract_opposing_column": "subtract `amount` from the opposing total in this column",
    "subtract_all_opposing": "subtract `amount` from the opposing total in every column",
}
"""The effect vocabulary: every effect the engine knows, with what it does."""

ALL_COLUMN_EFFECTS = ("add_all_columns", "subtract_all_opposing")
"""Effects that do not need a column, so only these may be placed beside the battlefield."""

CHARACTER_EFFECTS = ("add_column", "add_all_columns")
"""Characters add points to your cards (the seed's step 4); they never subtract."""

KIND_NAMES: dict[str, str] = {"fighter": "Fighter", "character": "Character", "event": "Event"}


class Card(CardRow):
    kind: Kind
    troop: Troop | None = None
    value: int = Field(ge=0, le=20)
    effect: Effect = "none"
    amount: int = Field(default=0, ge=0, le=10)
    beside: bool = False


class Rules(BaseModel):
    model_config = ConfigDict(extra="forbid")

    deck_size: int = Field(ge=1)
    columns: int = Field(ge=1, le=6)
    reenforcements: int = Field(ge=0)
    tie_cards: int = Field(ge=1)
    max_battles: int = Field(ge=1)
    min_total: int = Field(ge=0)


RULES = Rules
TABLES = {"cards": Card}


def effect_text(card: Card) -> str:
    """The printed rule sentence, derived from the effect data so print and engine agree."""
    n = card.amount
    sentence = {
        "none": f"Fights for {card.value}.",
        "play_another": "Play another card on this column." if n == 1 else f"Play {n} more cards on this column.",
        "add_column": f"+{n} to your total in this column.",
        "add_all_columns": f"+{n} to your total in every column.",
        "subtract_opposing_column": f"-{n} to the opposing total in this column.",
        "subtract_all_opposing": f"-{n} to the opposing total in every column.",
    }[card.effect]
    if card.beside:
        sentence = f"Place beside the battlefield: {sentence[0].lower()}{sentence[1:]} Play another card in its place."
    if card.kind == "event":
        sentence += " As a reenforcement or tie card: no effect, counts 0."
    return sentence.strip()


def face(card: Card) -> CardFace:
    symbol: str | None
    if card.kind == "fighter":
        symbol = card.troop
    elif card.kind == "character":
        symbol = "leader"
    else:
        symbol = "event"
    corner = "E" if card.kind == "event" else str(card.value)
    text = "" if card.effect == "none" else effect_text(card)  # a plain fighter's value is its corner
    return CardFace(title=card.name, kind=KIND_NAMES[card.kind], corner=corner,
                    text=text, symbol=symbol, icon=card.icon)


def check(data: GameData) -> list[Problem]:
    """Deck size, the effect vocabulary's required parameters, and the deck colours."""
    where = str(data.files["cards"])
    toml = str(data.folder / "game.toml")
    rules: Rules = data.rules
    problems: list[Problem] = []
    size = len(data.deck())
    if size != rules.deck_size:
        problems.append(Problem(where, f"the deck has {size} cards but rules.deck_size says {rules.deck_size}",
                                field="copies", value=size))
    if rules.reenforcements > rules.columns:
        problems.append(Problem(toml, f"at most one reenforcement per column: reenforcements must be at most "
                                      f"columns ({rules.columns})", field="rules.reenforcements",
                                value=rules.reenforcements))
    for card in data.table("cards"):
        problems.extend(_card_problems(card, where))
    for key in ("deck_names", "deck_colours"):
        values = data.layout.get(key)
        if not isinstance(values, list) or len(values) != data.max_players:
            problems.append(Problem(toml, f"layout.{key} must list one entry per player ({data.max_players})",
                                    field=f"layout.{key}", value=values if isinstance(values, list) else None))
    return problems


def _card_problems(card: Card, where: str) -> list[Problem]:
    out: list[Problem] = []

    def bad(field: str, value: object, message: str) -> None:
        out.append(Problem(where, f"{card.id}: {message}", field=field, value=value))

    if card.effect == "none" and card.amount != 0:
        bad("amount", card.amount, "effect 'none' takes no amount (leave it 0)")
    if card.effect != "none" and card.amount < 1:
        bad("amount", card.amount, f"effect '{card.effect}' needs an amount of at least 1")
    if card.beside and card.kind != "event":
        bad("beside", card.beside, "only Event cards are placed beside the battlefield")
    if card.beside and card.effect not in ALL_COLUMN_EFFECTS:
        bad("beside", card.beside, f"a card beside the battlefield needs an every-column effect "
                                   f"({', '.join(ALL_COLUMN_EFFECTS)}), not '{card.effect}'")
    if card.kind == "fighter" and card.troop is None:
        bad("troop", None, "a fighter needs a troop type (it picks the printed symbol)")
    if card.kind != "fighter" and card.troop is not None:
        bad("troop", card.troop, "only fighters have a troop type")
    if card.kind == "fighter" and card.effect not in ("none", "play_another"):
        bad("effect", card.effect, "a fighter's effect is 'none' or 'play_another'; use a character or event")
    if card.kind == "character" and card.effect not in CHARACTER_EFFECTS:
        bad("effect", card.effect, f"a character adds points: effect must be one of {', '.join(CHARACTER_EFFECTS)}")
    if card.kind == "event" and card.value != 0:
        bad("value", card.value, "an Event has no fighting value of its own: value must be 0")
    if card.kind == "event" and card.effect == "none":
        bad("effect", card.effect, "an Event must do something: effect cannot be 'none'")
    return out
