"""What a Hexbattle viewer cannot see, dealt again: the one place the game decides hidden information.

Face up: the map, every unit, the discard pile, how many cards each hand and each player's guards hold.
Hidden: the order of the terrain and bonus decks (from everyone), another seat's hand, and which cards
its face-down guards are and which of its units each one guards (R26, R32).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.core import redeal
from engine.hexbattle_pieces import Guard

if TYPE_CHECKING:
    from engine.hexbattle_state import HexbattleState


def resample(state: HexbattleState, viewer: int | None, rng: random.Random) -> HexbattleState:
    """A copy with the terrain deck shuffled again, and the bonus cards `viewer` has not seen (the bonus deck,
    another seat's hand and guards) dealt again: each hidden guard a guard card, on a unit it could guard."""
    new = state.clone()
    redeal([new.tile_deck], rng)
    hidden = [p for p in (0, 1) if p != viewer]
    guards = [g for g in new.guards if g.owner in hidden]
    pool = sorted([*new.bonus_deck, *(c for p in hidden for c in new.hands[p]), *(g.card for g in guards)])
    rng.shuffle(pool)
    cards = state.game.bonus
    dealt: dict[int, Guard] = {}
    for i, guard in enumerate(new.guards):
        if guard.owner not in hidden:
            continue
        for card in pool:
            design = cards[card]
            units = _guarded(new, guard.owner, design.target) if design.kind == "defensive" else []
            if design.kind == "defensive" and (units or design.target == "none"):
                pool.remove(card)
                dealt[i] = Guard(card, guard.owner, design.effect, design.amount,
                                 rng.choice(units) if units else None)
                break
        else:  # no guard card has a unit to guard now (its own unit fell): any guard card on the same unit
            card = guard.card if guard.card in pool else next(c for c in pool if cards[c].kind == "defensive")
            pool.remove(card)
            design = cards[card]
            dealt[i] = Guard(card, guard.owner, design.effect, design.amount, guard.unit)
    new.guards = [dealt.get(i, g) for i, g in enumerate(new.guards)]
    for p in hidden:
        size = len(new.hands[p])
        new.hands[p], pool = pool[:size], pool[size:]
    new.bonus_deck = pool
    return new


def _guarded(state: HexbattleState, owner: int, target: str) -> list[str]:
    """The units of `owner` a guard card aimed at `target` could have been played on."""
    if target == "none":
        return []
    army = state.alive(owner)
    if target == "own_shooter":
        army = [u for u in army if state.unit_type(u).range > 0]
    elif target == "own_infantry":
        army = [u for u in army if state.unit_type(u).uses_formations]
    elif target == "own_artillery":
        army = [u for u in army if state.unit_type(u).kind == "artillery"]
    return [u.id for u in army]
