"""Hexbattle orders to a unit that neither moves nor fights: pivot, change formation, repair (R6, R11, R24)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine import hexbattle_turn as turn
from engine import hexbattle_victory as victory
from engine.core import Action, Refusal, Told, seat
from engine.hexbattle_pieces import Unit
from engine.hexbattle_view import unit_named
from engine.hexgrid import FACING_NAMES
from engine.kinds import Kind

if TYPE_CHECKING:
    from engine.hexbattle_state import HexbattleState


def _verify_pivot(state: HexbattleState, action: Action) -> None:
    unit = turn.acting_unit(state, action)
    facing = action.get("facing")
    if not state.unit_type(unit).can_pivot:
        raise Refusal("Artillery cannot pivot; it turns one step when it fires.")
    if not isinstance(facing, int) or not 0 <= facing < 6:
        raise Refusal("Facing must be a direction from 0 (north) to 5, clockwise.")
    if facing == unit.facing:
        raise Refusal(f"{state.unit_name(unit)} already faces {FACING_NAMES[facing]}.")


def _order(effect: Callable[[HexbattleState, Unit, Action], None]
           ) -> Callable[[HexbattleState, Action, random.Random], None]:
    """An order carried out: the turn's bookkeeping (R6, R7), its effect on the unit, and the check every
    action ends with (R29)."""
    def apply(state: HexbattleState, action: Action, rng: random.Random) -> None:
        turn.spend(state, action, activation=True)
        effect(state, state.units[action["unit"]], action)
        victory.check_victory(state)
    return apply


def _pivot(state: HexbattleState, unit: Unit, action: Action) -> None:
    unit.facing = action["facing"]


def _verify_formation(state: HexbattleState, action: Action) -> None:
    unit = turn.acting_unit(state, action)
    formation = action.get("formation")
    if not state.unit_type(unit).uses_formations:
        raise Refusal("Only infantry change formation.")
    if state.is_broken(unit):
        raise Refusal(f"{state.unit_name(unit)} is broken and cannot change formation.")
    if formation not in state.game.formations:
        raise Refusal(f"Unknown formation {formation!r} (known: {', '.join(state.game.formations)}).")
    if formation == unit.formation:
        raise Refusal(f"{state.unit_name(unit)} is already in {state.game.formations[formation].name}.")


def _formation(state: HexbattleState, unit: Unit, action: Action) -> None:
    unit.formation = action["formation"]


def _verify_repair(state: HexbattleState, action: Action) -> None:
    unit = turn.acting_unit(state, action)
    if unit.strength >= state.max_strength(unit):
        raise Refusal(f"{state.unit_name(unit)} is at full strength.")


def _repair(state: HexbattleState, unit: Unit, action: Action) -> None:
    unit.strength += 1
    state.events.append({"event": "repair", "unit": unit.id})


def _formation_name(state: HexbattleState, action: Action) -> str:
    return state.game.formations[action["formation"]].name


PIVOT: Kind[HexbattleState] = Kind(
    {"unit": str, "facing": int}, _verify_pivot, _order(_pivot),
    lambda state, action: f"Pivot {unit_named(state, action)} to face {FACING_NAMES[action['facing'] % 6]}",
    lambda state, action: [Told(f"{seat(action.player)} turned {unit_named(state, action)} to face "
                                f"{FACING_NAMES[action['facing'] % 6]}")],
    phases=("battle",))
FORMATION: Kind[HexbattleState] = Kind(
    {"unit": str, "formation": str}, _verify_formation, _order(_formation),
    lambda state, action: f"{unit_named(state, action)}: form {_formation_name(state, action)}",
    lambda state, action: [Told(f"{seat(action.player)} formed {unit_named(state, action)} into "
                                f"{_formation_name(state, action)}")],
    phases=("battle",))
REPAIR: Kind[HexbattleState] = Kind(
    {"unit": str}, _verify_repair, _order(_repair), lambda state, action: f"Repair {unit_named(state, action)}",
    lambda state, action: [Told(f"{seat(action.player)} repaired {unit_named(state, action)}")], phases=("battle",))
