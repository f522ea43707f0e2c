"""Hexbattle setup: scenarios, deployment, the hex index and its caches, and terrain tiles (R3, R4, R5, R30);
the deploy, quick_start, draw_terrain and place_tile actions."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine import hexbattle_turn as turn
from engine import hexbattle_victory as victory
from engine.core import Action, Refusal, Told, seat
from engine.hexbattle_pieces import Unit
from engine.hexbattle_view import unit_named
from engine.hexgrid import Hex, hex_from_id, hex_id, neighbour, parse_hex
from engine.kinds import Kind

if TYPE_CHECKING:
    from engine.hexbattle_state import HexbattleState


def set_scenario(state: HexbattleState, scenario: Mapping[str, Any]) -> None:
    """A hand-made position for tests, puzzles and the companion's combat roller (R30)."""
    game = state.game
    if scenario.get("fill") is not None:
        for h in game.board:
            state.terrain[h] = scenario["fill"]
    for spot, t in dict(scenario.get("terrain", {})).items():  # a hex id ("3,4"): `h` is a hex (compiled, typed)
        state.terrain[hex_from_id(spot)] = t
    for h in game.board:
        recode(state, h)
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
    victory.start_battle(state, state.current)


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
        recode(state, unit.hex)
    unit.hex = h
    if h is not None:
        state.at[h] = unit.id
        recode(state, h)
    board_changed(state, changed, unit.player)


def recode(state: HexbattleState, h: Hex) -> None:
    """Keep `HexbattleState.codes` right for a hex whose terrain or unit has just changed."""
    game = state.game
    state.codes[game.cell[h]] = game.code_of(state.terrain.get(h), h in state.at)


def board_changed(state: HexbattleState, changed: set[Hex | None], mover: int | None = None) -> None:
    """Drop the cached moves whose search looked at a hex that has just changed, and the attacks that read it
    (`AttackEntry`); `mover` is the player whose unit moved (None: a tile was laid)."""
    epoch, bit = state._epoch, state.game.bit
    mask = 0
    for h in changed:
        if h is not None:
            mask |= bit[h]
    stale = [(key, entry.uid) for key, entry in state._reach_cache.items() if entry.looked & mask]
    for key, uid in stale:
        del state._reach_cache[key]
        epoch[uid] = epoch.get(uid, 0) + 1
    mover_mask = mask if mover is not None else 0
    near = [(key, entry.uid) for key, entry in state._attack_cache.items()
            if entry.read & mask or (mover != entry.player and entry.arc & mover_mask)]
    for key, uid in near:
        del state._attack_cache[key]
        epoch[uid] = epoch.get(uid, 0) + 1


def undeployed(state: HexbattleState, player: int) -> list[str]:
    return [uid for uid, _ in state.game.roster[player]
            if state.units[uid].hex is None and not state.units[uid].destroyed]


def deploy_hex_ok(state: HexbattleState, h: Hex) -> bool:
    return h not in state.at and state.terrain.get(h) == state.game.rules.start_terrain


def _verify_deploy(state: HexbattleState, action: Action) -> None:
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


def _deploy(state: HexbattleState, action: Action, rng: random.Random) -> None:
    """Place a unit (or, Quick Start, the player's remaining units at random, R4); the other player places
    next while they have units to place, and the battle starts when both armies are down."""
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
        victory.start_battle(state)


def draw_tile(state: HexbattleState) -> None:
    state.pending_tile = state.tile_deck.pop()
    state.tiles_to_place -= 1
    state.events.append({"event": "tile_drawn", "terrain": state.pending_tile})


def place_tile(state: HexbattleState, h: Hex) -> None:
    if state.pending_tile is None:
        raise ValueError("there is no drawn tile to place")
    state.terrain[h] = state.pending_tile
    recode(state, h)
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


def _verify_draw_terrain(state: HexbattleState, action: Action) -> None:
    turn.need_action(state)
    if not state.tile_deck or len(state.terrain) == len(state.game.board):
        raise Refusal("There are no terrain tiles left to draw.")


def _draw_terrain(state: HexbattleState, action: Action, rng: random.Random) -> None:
    """Engineers makes it two tiles, laid one after the other (R27)."""
    turn.spend(state, action, activation=False)
    state.tiles_to_place = max(1, state.effects.engineers)
    state.effects.engineers = 0
    draw_tile(state)
    victory.check_victory(state)


def _verify_place_tile(state: HexbattleState, action: Action) -> None:
    h = parse_hex(action.get("hex"))
    if h is None or h not in state.game.board:
        raise Refusal("That hex is not on the map.")
    if h in state.terrain:
        raise Refusal("That hex is already revealed.")
    if not any(neighbour(h, d) in state.terrain for d in range(6)):
        raise Refusal("A tile must be placed next to a revealed hex.")


def _placed_tile_told(state: HexbattleState, action: Action) -> list[Told]:
    tile = state.game.terrain[state.pending_tile] if state.pending_tile is not None else None
    return [Told(f"{seat(action.player)} placed the {tile.name if tile else 'drawn'} tile at {action['hex']}")]


DEPLOY: Kind[HexbattleState] = Kind(
    {"unit": str, "hex": turn.HEX_ARG}, _verify_deploy, _deploy,
    lambda state, action: f"Deploy {unit_named(state, action)} at {action['hex']}",
    lambda state, action: [Told(f"{seat(action.player)} deployed {unit_named(state, action)} at {action['hex']}")],
    phases=("deploy",))
QUICK_START: Kind[HexbattleState] = Kind(
    {}, lambda state, action: None, _deploy, lambda state, action: "Quick Start: place the rest of your units",
    lambda state, action: [Told(f"{seat(action.player)} placed the rest of their units (Quick Start)")],
    phases=("deploy",))
DRAW_TERRAIN: Kind[HexbattleState] = Kind(
    {}, _verify_draw_terrain, _draw_terrain, lambda state, action: "Draw a terrain tile",
    lambda state, action: [Told(f"{seat(action.player)} drew a terrain tile")], phases=("battle",))
PLACE_TILE: Kind[HexbattleState] = Kind(
    {"hex": turn.HEX_ARG}, _verify_place_tile, lambda state, action, rng: place_tile(state, hex_from_id(action["hex"])),
    lambda state, action: f"Place the tile at {action.get('hex')}", _placed_tile_told, phases=("tile",))

