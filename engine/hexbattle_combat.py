"""Hexbattle dice arithmetic as pure functions, so the companion's combat roller can call them.

The engine works out who rolls how many dice with which modifiers; these functions take the
rolled dice and those modifiers explicitly and report every die, every pairing and the losses.
`card_modifiers` is the one place that says what a bonus card does to a roll: the engine's
own combats and the roller's card toggles both go through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from mypy_extensions import mypyc_attr

ROLL_EFFECTS = ("charge_dice", "volley_fire", "cannon_blast", "ambush", "entrench", "heroic_defence")
"""The bonus-card effects that change a combat roll; the other cards act on moves, actions or cards."""


@mypyc_attr(serializable=True)
@dataclass(frozen=True)
class Pair:
    """One attacker die against one defender die (modified values); `loser` is who takes the casualty."""

    attacker: int
    defender: int
    loser: str  # "attacker", "defender" or "" for a tie


@mypyc_attr(serializable=True)
@dataclass(frozen=True)
class CombatResult:
    """A close combat: raw dice, the modifier added to each die, the pairs and the losses."""

    attacker_dice: tuple[int, ...]
    defender_dice: tuple[int, ...]
    attacker_modifier: int
    defender_modifier: int
    pairs: tuple[Pair, ...]
    attacker_unpaired: tuple[int, ...]
    defender_unpaired: tuple[int, ...]
    attacker_losses: int
    defender_losses: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@mypyc_attr(serializable=True)
@dataclass(frozen=True)
class FireResult:
    """A ranged attack: the dice, the hit number (a die at or below it hits) and the strength lost."""

    dice: tuple[int, ...]
    hit_max: int
    hits: int
    multiplier: int
    losses: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@mypyc_attr(serializable=True)
@dataclass(frozen=True)
class CardModifiers:
    """What the bonus cards played on one combat change in it (the engine and the companion's roller share this)."""

    attacker_dice: int = 0  # Charge! (cavalry in close combat), Cannon Blast (artillery fire)
    dice_multiplier: int = 1  # Volley Fire: artillery fire rolls this many times its dice
    defender_dice: int = 0  # Entrench: the guarded unit defends a close combat with more dice
    ignore_terrain: bool = False  # Ambush: no terrain modifiers to hit, no terrain bonus for the defender
    losses_ignored: int = 0  # Heroic Defence: the guarded unit ignores its first losses

    def attack_dice(self, dice: int) -> int:
        """The attacker's dice once the cards are counted: multiplied first, then the extra dice (R27)."""
        return dice * self.dice_multiplier + self.attacker_dice

    def losses(self, losses: int) -> int:
        """The strength the defender really loses after Heroic Defence."""
        return max(0, losses - self.losses_ignored)


def card_modifiers(cards: Iterable[tuple[str, int]], combat: str | None = None,
                   attacker_kind: str | None = None) -> CardModifiers:
    """Turn bonus-card effects, as (effect, amount) from `bonus_cards.csv`, into one roll's modifiers.

    `combat` is "melee" or "fire" and `attacker_kind` the attacking unit's kind: a card whose
    effect does not fit them (Charge! for infantry, Entrench against fire) changes nothing.
    Without them only the effects that fit every combat (Ambush, Heroic Defence) count.
    """
    extra = defence = ignored = 0
    factor = 1
    ambush = False
    for effect, amount in cards:
        charge = effect == "charge_dice" and combat == "melee" and attacker_kind == "cavalry"
        cannon = effect == "cannon_blast" and combat == "fire" and attacker_kind == "artillery"
        if charge or cannon:
            extra += amount
        elif effect == "volley_fire" and combat == "fire" and attacker_kind == "artillery":
            factor = max(factor, amount)
        elif effect == "entrench" and combat == "melee":
            defence += amount
        elif effect == "ambush":
            ambush = True
        elif effect == "heroic_defence":
            ignored += amount
    return CardModifiers(extra, factor, defence, ambush, ignored)


def close_combat(attacker_dice: Sequence[int], defender_dice: Sequence[int],
                 attacker_modifier: int, defender_modifier: int) -> CombatResult:
    """Pair the modified dice highest against highest; the lower die of each pair costs its side 1 strength.

    Dice left over on the side that rolled more do nothing; a tied pair costs nobody (ruling R21).
    """
    att = sorted((d + attacker_modifier for d in attacker_dice), reverse=True)
    dfn = sorted((d + defender_modifier for d in defender_dice), reverse=True)
    pairs = []
    a_loss = d_loss = 0
    for a, d in zip(att, dfn):
        if a > d:
            loser = "defender"
            d_loss += 1
        elif d > a:
            loser = "attacker"
            a_loss += 1
        else:
            loser = ""
        pairs.append(Pair(a, d, loser))
    n = len(pairs)
    return CombatResult(tuple(attacker_dice), tuple(defender_dice), attacker_modifier, defender_modifier,
                        tuple(pairs), tuple(att[n:]), tuple(dfn[n:]), a_loss, d_loss)


def ranged_fire(dice: Sequence[int], hit_max: int, multiplier: int = 1) -> FireResult:
    """Count the dice at or below the hit number; each hit costs the target `multiplier` strength."""
    hits = sum(1 for d in dice if d <= hit_max)
    return FireResult(tuple(dice), hit_max, hits, multiplier, hits * multiplier)


def split_blocks(die: int, block_max: int) -> bool:
    """A half-covered hex on a line of sight blocks it when its die is at or below `block_max`."""
    return die <= block_max
