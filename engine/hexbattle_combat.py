"""Hexbattle dice arithmetic as pure functions, so the companion's combat roller can call them.

The engine works out who rolls how many dice with which modifiers; these functions take the
rolled dice and those modifiers explicitly and report every die, every pairing and the losses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Pair:
    """One attacker die against one defender die (modified values); `loser` is who takes the casualty."""

    attacker: int
    defender: int
    loser: str  # "attacker", "defender" or "" for a tie


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
