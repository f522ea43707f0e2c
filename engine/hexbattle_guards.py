"""Hexbattle guards in play: the face-down defensive cards that wait for an enemy action, and spring once (R32–R36)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.hexbattle_pieces import Guard, Unit

if TYPE_CHECKING:
    from engine.hexbattle_state import HexbattleState

def screen(state: HexbattleState, player: int) -> Guard | None:
    """Spend a Skirmisher Screen of `player` if its screening unit is fit (R35)."""
    screen_type = state.game.rules.screen_unit
    fit = any(u.type == screen_type and not state.is_broken(u) for u in state.alive(player))
    for guard in state.guards:
        if guard.owner == player and guard.effect == "skirmisher_screen" and fit:
            state.guards.remove(guard)
            state.discard.append(guard.card)
            state.events.append({"event": "guard", "card": guard.card, "effect": guard.effect, "player": player})
            return guard
    return None


def take_guard(state: HexbattleState, effect: str, unit: Unit) -> Guard | None:
    for guard in state.guards:
        if guard.effect == effect and guard.unit == unit.id:
            state.guards.remove(guard)
            state.discard.append(guard.card)
            state.events.append({"event": "guard", "card": guard.card, "effect": effect,
                                "player": guard.owner, "unit": unit.id})
            return guard
    return None
