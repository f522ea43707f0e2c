"""Hexbattle line of sight and arcs: who can see and shoot whom, and who may be charged (R12–R14, R16, R17)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Refusal
from engine.hexbattle_pieces import Sight, Unit
from engine.hexgrid import Hex, aim, in_arc, parse_hex

if TYPE_CHECKING:
    from engine.hexbattle_state import HexbattleState


def fire_all_round(state: HexbattleState, unit: Unit) -> bool:
    if not state.unit_type(unit).uses_formations:
        return False
    t = state.ground(unit)
    return t.garrison_fire_dice is not None or state.formation(unit).fire_all_round


def fire_facing(state: HexbattleState, unit: Unit, target: Hex) -> int | None:
    """The facing the unit has after firing at `target`, or None if the target is outside its arc:
    the ±60° cone ahead (R15), all round for a Square or a garrison; a gun turns to face it (R16)."""
    if fire_all_round(state, unit):
        return unit.facing
    if state.unit_type(unit).turns_to_fire:
        return aim(state.hex_of(unit), unit.facing, target)
    return unit.facing if in_arc(state.hex_of(unit), unit.facing, target) else None


def guns_over_units(state: HexbattleState, a: Hex) -> bool:
    """Whether the unit on `a` is artillery on terrain that lets guns see over units (R13)."""
    uid = state.at.get(a)
    if uid is None:
        return False
    game = state.game
    return (game.unit_types[state.units[uid].type].kind == "artillery"
            and game.terrain[state.terrain[a]].guns_see_over_units)


def sight(state: HexbattleState, a: Hex, b: Hex) -> Sight:
    """Line of sight from the unit on `a` to `b` (R12, R13)."""
    blocker, contested = walk(state, a, b, guns_over_units(state, a))
    ids = state.game.ids  # a hex that blocks is on the map: hidden or revealed
    if blocker is not None:
        return Sight(True, ids[blocker])
    return Sight(False, None, tuple([ids[h] for h in contested]) if contested else ())


def walk(state: HexbattleState, a: Hex, b: Hex, over_units: bool) -> tuple[Hex | None, list[Hex]]:
    """The first hex that blocks the line for certain (or None), and the split hexes that may."""
    game = state.game
    codes, walls, cells = state.codes, game.walls_code, game.cells
    units = 0 if over_units else game.occupied
    contested: list[Hex] = []
    for step in game.line(a, b)[0]:
        for c in step:
            # A hex blocks when hidden, when its terrain blocks sight, or when a unit stands on it
            # (unless guns on a hill look over units); one off the map never does.
            if c >= 0 and (walls[codes[c]] or codes[c] & units):
                if len(step) == 1:
                    return cells[c], contested
                contested.append(cells[c])
    return None, contested


def fire_arc(state: HexbattleState, unit: Unit) -> frozenset[Hex]:
    """The hexes within the unit's range and arc of fire (R15), its own hex among them and sight not
    counted; empty if it cannot fire now. Worked out once per hex and facing."""
    unit_type = state.game.unit_types[unit.type]
    reach = unit_type.range
    here = unit.hex
    if reach <= 0 or here is None or unit.destroyed or state.is_broken(unit):
        return frozenset()
    if state.terrain[here] in state.game.no_combat:
        return frozenset()
    if fire_all_round(state, unit):
        return state.game.zone(here, reach)
    return state.game.fire_zone(here, unit.facing, reach)


def fire_targets(state: HexbattleState, unit: Unit, enemies: list[Unit] | None = None,
                 arc: frozenset[Hex] | None = None) -> list[Unit]:
    """Enemy units this unit may fire at now (range, arc, terrain, sight not blocked for certain); `arc` is the
    unit's `fire_arc`, when the caller has it already."""
    zone = fire_arc(state, unit) if arc is None else arc
    if not zone:
        return []
    here, terrain, no_combat = state.hex_of(unit), state.terrain, state.game.no_combat
    near = [enemy for enemy in (state.alive(1 - unit.player) if enemies is None else enemies)
            if enemy.hex in zone and terrain[state.hex_of(enemy)] not in no_combat]
    if not near:
        return near
    over_units = guns_over_units(state, here)
    return [enemy for enemy in near if walk(state, here, state.hex_of(enemy), over_units)[0] is None]


def melee_target(state: HexbattleState, unit: Unit) -> Unit | None:
    """The enemy in the unit's front hex, if the unit may charge it (R17)."""
    game = state.game
    unit_type = game.unit_types[unit.type]
    here = unit.hex
    if not unit_type.can_melee or state.is_broken(unit) or here is None or unit.destroyed:
        return None
    if unit_type.uses_formations and not state.formation(unit).can_charge:
        return None
    terrain, no_combat = state.terrain, game.no_combat
    if terrain[here] in no_combat:
        return None
    uid = state.at.get(game.around[here][unit.facing])
    if uid is None:
        return None
    enemy = state.units[uid]
    if enemy.player == unit.player or terrain[state.hex_of(enemy)] in no_combat:
        return None
    return enemy


def line_of_sight(state: HexbattleState, a: str, b: str) -> Sight:
    """Line of sight between two hexes given as "col,row" ids, seen by the unit on `a` (if any)."""
    ha, hb = parse_hex(a), parse_hex(b)
    if ha is None or hb is None or ha not in state.game.board or hb not in state.game.board:
        raise Refusal("Both hexes must be on the map.")
    return sight(state, ha, hb)
