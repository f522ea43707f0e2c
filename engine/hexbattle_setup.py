"""Hexbattle setup: scenarios, deployment, the hex index and its caches, turn starts and terrain tiles (R3, R5, R30)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core import Action, Refusal
from engine.hexbattle_pieces import TurnEffects, Unit
from engine.hexgrid import Hex, hex_from_id, hex_id, parse_hex

if TYPE_CHECKING:
    from engine.hexbattle_state import HexbattleState


def set_scenario(state: HexbattleState, scenario: Mapping[str, Any]) -> None:
    """A hand-made position for tests, puzzles and the companion's combat roller (R30)."""
    game = state.game
    if scenario.get("fill") is not None:
        for h in game.board:
            state.terrain[h] = scenario["fill"]
    for h, t in dict(scenario.get("terrain", {})).items():
        state.terrain[hex_from_id(h)] = t
    placed = dict(scenario.get("units", {}))
    for uid, unit in state.units.items():
        spec = placed.get(uid)
        if spec is None:
            unit.destroyed = True
            continue
        unit.facing = int(spec.get("facing", unit.facing)) % 6
        unit.strength = int(spec.get("strength", unit.strength))
        if spec.get("formation") is not None:
            unit.formation = spec["formation"]
        place(state, unit, parse_hex(spec["hex"]))
    for p, hand in enumerate(scenario.get("hands", [[], []])):
        for design in hand:
            card = next(c for c in state.bonus_deck if state.game.bonus[c].id == design)
            state.bonus_deck.remove(card)
            state.hands[p].append(card)
    state.current = int(scenario.get("current_player", 0))
    start_battle(state, state.current)


def quick_deploy(state: HexbattleState, player: int, rng: random.Random) -> list[str]:
    placed = []
    free = [h for h in state.game.home_hexes[player] if deploy_hex_ok(state, h)]
    rng.shuffle(free)
    for uid in undeployed(state, player):
        h = free.pop()
        place(state, state.units[uid], h)
        placed.append(uid)
    return placed


def place(state: HexbattleState, unit: Unit, h: Hex | None) -> None:
    """Put a unit on `h` (None: off the board), keeping the hex index and move cache right."""
    changed = {unit.hex, h}
    if unit.hex is not None and state.at.get(unit.hex) == unit.id:
        del state.at[unit.hex]
    unit.hex = h
    if h is not None:
        state.at[h] = unit.id
    board_changed(state, changed)


def board_changed(state: HexbattleState, changed: set[Hex | None]) -> None:
    """Drop the cached moves whose search looked at a hex that has just changed, and the attacks near it."""
    epoch = state._epoch
    stale = [key for key, (_, looked, _) in state._reach_cache.items() if not looked.isdisjoint(changed)]
    for key in stale:
        del state._reach_cache[key]
        epoch[key[0]] = epoch.get(key[0], 0) + 1
    near = [spot for spot, (zone, _) in state._attack_cache.items() if not zone.isdisjoint(changed)]
    for spot in near:
        del state._attack_cache[spot]
        epoch[spot[0]] = epoch.get(spot[0], 0) + 1


def undeployed(state: HexbattleState, player: int) -> list[str]:
    return [uid for uid, _ in state.game.roster[player]
            if state.units[uid].hex is None and not state.units[uid].destroyed]


def deploy_hex_ok(state: HexbattleState, h: Hex) -> bool:
    return h not in state.at and state.terrain.get(h) == state.game.rules.start_terrain


def start_battle(state: HexbattleState, first: int = 0) -> None:
    state.phase = "battle"
    state.current = first
    begin_turn(state)


def begin_turn(state: HexbattleState) -> None:
    state._segments.clear()  # the other army's segments: stale by its next turn, most likely
    state.actions_left = max(0, state.game.rules.actions_per_turn - state.fog[state.current])
    state.actions_granted = state.actions_left
    state.fog[state.current] = 0
    state.last_unit = None
    state.last_was_draw = False
    state.double_time_ready = None
    state.effects = TurnEffects()
    state.moved_points = {}


def verify_deploy(state: HexbattleState, action: Action) -> None:
    if action.kind == "quick_start":
        return
    if action.kind != "deploy":
        raise Refusal("Deploy your units first.")
    uid = action.get("unit")
    unit = state.units.get(uid) if isinstance(uid, str) else None
    if unit is None:
        raise Refusal(f"There is no unit called {uid!r}.")
    if unit.player != state.current:
        raise Refusal(f"{state.unit_name(unit)} is not yours.")
    if unit.hex is not None:
        raise Refusal(f"{state.unit_name(unit)} is already deployed.")
    h = parse_hex(action.get("hex"))
    if h not in state.game.home_hexes[state.current]:
        raise Refusal("Units deploy on your own starting row.")
    if h in state.at:
        raise Refusal("That hex is occupied.")
    if state.terrain.get(h) != state.game.rules.start_terrain:
        raise Refusal("Units can only be placed on open terrain.")


def apply_deploy(state: HexbattleState, action: Action, rng: random.Random) -> None:
    p = state.current
    if action.kind == "quick_start":
        placed = quick_deploy(state, p, rng)
        state.events.append({"event": "quick_start", "player": p, "units": placed})
    else:
        place(state, state.units[action["unit"]], hex_from_id(action["hex"]))
    other = 1 - p
    if undeployed(state, other):
        state.current = other
    elif not undeployed(state, p):
        start_battle(state)


def draw_tile(state: HexbattleState) -> None:
    state.pending_tile = state.tile_deck.pop()
    state.tiles_to_place -= 1
    state.events.append({"event": "tile_drawn", "terrain": state.pending_tile})


def place_tile(state: HexbattleState, h: Hex) -> None:
    if state.pending_tile is None:
        raise ValueError("there is no drawn tile to place")
    state.terrain[h] = state.pending_tile
    board_changed(state, {h})
    state.events.append({"event": "tile_placed", "hex": hex_id(h), "terrain": state.pending_tile})
    state.pending_tile = None
    if state.tiles_to_place > 0 and state.tile_deck and len(state.terrain) < len(state.game.board):
        draw_tile(state)
    else:
        state.tiles_to_place = 0


def undiscovered_edge(state: HexbattleState) -> list[Hex]:
    """Hidden hexes next to a revealed one: where a drawn tile may go (R3)."""
    terrain, around = state.terrain, state.game.around
    return [h for h in state.game.offset_order
            if h not in terrain and any(n in terrain for n in around[h])]
