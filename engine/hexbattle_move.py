"""Hexbattle movement: movement points, the move search over hexes and facings, and the move action (R8–R11)."""

from __future__ import annotations

import random
from bisect import insort
from typing import TYPE_CHECKING

from engine import hexbattle_attack as attack
from engine import hexbattle_setup as setup
from engine import hexbattle_turn as turn
from engine import hexbattle_victory as victory
from engine.core import Action, Arg, Refusal, Told, seat
from engine.hexbattle_pieces import Reach, Unit
from engine.hexbattle_view import unit_named
from engine.hexgrid import FACING_NAMES, Hex, hex_id, parse_hex
from engine.kinds import Kind

if TYPE_CHECKING:
    from engine.hexbattle_state import HexbattleState


def movement_points(state: HexbattleState, unit: Unit) -> int:
    """The points the unit's next Move has; a unit that moves by the turn (Heavy Artillery,
    "1 hex/turn") has what its earlier Moves of the turn left (R8)."""
    mp, by_formation, per_turn = state.game.base_points[unit.type][unit.formation]
    if unit.player != state.current:
        return mp
    effects = state.effects
    if by_formation and mp > 0:
        mp += effects.bold
    if effects.forced:
        mp *= effects.forced.get(unit.id, 1)
    return mp - state.moved_points.get(unit.id, 0) if per_turn else mp


def reachable(state: HexbattleState, unit: Unit) -> dict[tuple[Hex, int], int]:
    """Every (hex, facing) the unit can end a Move on, with the fewest movement points it costs (R8–R11)."""
    found = reach(state, unit, movement_points(state, unit))
    cells = state.game.cells
    return {} if found is None else {(cells[place // 6], place % 6): cost for place, cost in found.ends.items()}


def move_costs(state: HexbattleState, unit: Unit) -> dict[Hex, int]:
    """Every hex the unit can end a Move on (its own hex too, turned), with the fewest movement points it costs."""
    costs: dict[Hex, int] = {}
    for (h, _), cost in reachable(state, unit).items():
        costs[h] = min(cost, costs.get(h, cost))
    return costs


def reach(state: HexbattleState, unit: Unit, mp: int) -> Reach | None:
    """The unit's cached move search with `mp` points (worked out now if need be), or None if it cannot move.

    A Dijkstra over places (`6 * cell + facing`, `HexbattleGame.cells`) that takes them in the order of (cost, hex,
    facing), and lists the moves in the order they are first reached. Its queue is a list of places per cost
    (`waiting[cost]`, each sorted when its turn comes): every step costs at least a point, except a turn when
    `turn_cost` is 0, which goes into the sorted rest of the current cost's list. That pops exactly what a heap of
    `(cost, place)` would, without a call into `heapq` and a `divmod` per place (compiled, the loop is native)."""
    here = unit.hex
    if here is None or mp <= 0:
        return None
    key = (unit.id, here, unit.facing, mp)
    cached = state._reach_cache.get(key)
    if cached is not None:
        return cached
    game = state.game
    # A unit that may pivot ends anywhere it can pay for; a gun only where a step brought it, so it
    # turns only to step on and never in place (R11).
    _, steps, free_turns = game.mover[unit.type]
    price, takes_all = game.price[unit.type], game.takes_all_code
    turn_cost: int = game.rules.turn_cost  # typed here: compiled, the rules' settings are read as objects
    codes, ahead, bits = state.codes, game.ahead, game.bits
    start = 6 * game.cell[here] + unit.facing
    looked = bits[start // 6]  # the hexes looked at, as bits (`HexbattleGame.bit`)
    # The fewest points found for each place, in the state's scratch list by place (-1: not reached), with the
    # places reached in the order first reached: a dict by place would box every place above 256 at each look-up.
    best = state._best
    if not best:
        best = state._best = [-1] * len(ahead)
    best[start] = 0
    reached = [start]
    ends: dict[int, int] = {}
    # A place reached with every point spent is recorded but never queued: it could go nowhere (the order of the
    # moves listed is that of a search that queued it and skipped it).
    waiting: list[list[int]] = [[] for _ in range(mp)]
    waiting[0].append(start)
    over = mp + 1
    for cost in range(mp):
        now = waiting[cost]
        now.sort()
        i = 0
        while i < len(now):
            place = now[i]
            i += 1
            if best[place] < cost:
                continue
            f = place % 6
            base = place - f
            turned = cost + turn_cost
            if turned <= mp:
                for d in range(1, 6, 4):  # a turn clockwise (+1) first, then anticlockwise (+5, that is -1)
                    _reach(best, reached, waiting, cost, i, mp, turned, base + (f + d) % 6)
            here_all = takes_all[codes[base // 6]]
            for j in range(0, len(steps), 2):
                step = ahead[base + (f + steps[j]) % 6]
                if step < 0:  # off the map
                    continue
                looked |= bits[step]
                code = codes[step]
                paid = price[code]
                if paid is None:  # hidden, taken, or ground this unit may not enter
                    continue
                nc = mp if here_all or takes_all[code] else cost + steps[j + 1] * paid
                if nc > mp:
                    continue
                tf = 6 * step + f
                if not free_turns and nc < ends.get(tf, over):
                    ends[tf] = nc
                _reach(best, reached, waiting, cost, i, mp, nc, tf)
    if free_turns:
        ends = {place: best[place] for place in reached[1:]}
    else:
        ends = {tf: c for tf, c in ends.items() if tf // 6 != start // 6}
    for place in reached:  # the scratch list left clean for the next search
        best[place] = -1
    uid, p = unit.id, unit.player
    known = game.moves_of(uid)
    entry = Reach(uid, ends, looked, tuple([known.get(tf) or game.move_action(p, uid, tf) for tf in ends]))
    state._reach_cache[key] = entry
    return entry


def _reach(best: list[int], reached: list[int], waiting: list[list[int]], cost: int, i: int, mp: int, at: int,
           place: int) -> None:
    """`place` reached at cost `at` in the move search (`reach`) while it takes the places of `cost`, its `i`th next:
    recorded when it is new or cheaper than found before, and queued unless it spent every point (`mp`)."""
    was = best[place]
    if was < 0 or at < was:
        if was < 0:
            reached.append(place)
        best[place] = at
        if at < mp:
            _wait(waiting, cost, i, at, place)


def _wait(waiting: list[list[int]], cost: int, i: int, at: int, place: int) -> None:
    """Queue `place`, reached at cost `at`, in the move search (`reach`) taking the places of `cost`, its `i`th next:
    at a higher cost at the end of that cost's list, sorted when its turn comes; at the same cost (a free turn) into
    the sorted rest of the current list, so it is taken in its order among the places still to take."""
    if at == cost:
        insort(waiting[cost], place, i)
    else:
        waiting[at].append(place)


def _verify_move(state: HexbattleState, action: Action) -> None:
    unit = turn.acting_unit(state, action)
    h = parse_hex(action.get("to"))
    facing = action.get("facing", unit.facing)
    if h not in state.game.board:
        raise Refusal("That hex is not on the map.")
    if not isinstance(facing, int) or not 0 <= facing < 6:
        raise Refusal("Facing must be a direction from 0 (north) to 5, clockwise.")
    if movement_points(state, unit) <= 0:
        if state.unit_type(unit).movement_per_turn:
            raise Refusal(f"{state.unit_name(unit)} has used its movement for this turn.")
        raise Refusal(f"{state.unit_name(unit)} cannot move in its present formation.")
    if h != unit.hex:
        t = state.terrain_at(h)
        if t is None:
            raise Refusal("That hex is not revealed yet; draw terrain first.")
        if t.impassable:
            raise Refusal(f"No unit may enter {t.name}.")
        if t.infantry_only and not state.unit_type(unit).enters_infantry_only_terrain:
            raise Refusal(f"Only infantry may enter {t.name}.")
        if h in state.at:
            raise Refusal("That hex is occupied.")
    if (h, facing) not in reachable(state, unit):
        raise Refusal(f"{state.unit_name(unit)} cannot reach {hex_id(h)} facing "
                      f"{FACING_NAMES[facing]} with {movement_points(state, unit)} movement points.")


def move(state: HexbattleState, action: Action, rng: random.Random) -> None:
    unit = state.units[action["unit"]]
    start = state.hex_of(unit)
    ids = state.game.ids
    to = state.game.hex_named(action["to"])
    start_terrain = state.ground(unit)
    if state.unit_type(unit).movement_per_turn:
        spent = reachable(state, unit)[(to, action.get("facing", unit.facing))]
        state.moved_points[unit.id] = state.moved_points.get(unit.id, 0) + spent
    setup.place(state, unit, to)
    unit.facing = action.get("facing", unit.facing)
    if to != start and start_terrain.exit_formation is not None and state.unit_type(unit).uses_formations:
        unit.formation = start_terrain.exit_formation
    state.effects.forced.pop(unit.id, None)
    state.events.append({"event": "move", "unit": unit.id, "from": ids[start], "to": ids[to],
                        "facing": unit.facing})
    if victory.broke_through(state, unit, start):
        return
    if unit.id in state.effects.double_time:
        state.effects.double_time.discard(unit.id)
        state.double_time_ready = unit.id
    attack.reserve_fire(state, unit, rng)


def _move(state: HexbattleState, action: Action, rng: random.Random) -> None:
    free, _ = turn.spend(state, action, activation=True)
    if free:
        state.effects.free_moves -= 1
    move(state, action, rng)
    victory.check_victory(state)


MOVE: Kind[HexbattleState] = Kind(
    {"unit": str, "to": turn.HEX_ARG, "facing": Arg(int, optional=True)}, _verify_move, _move,
    lambda state, action: (f"Move {unit_named(state, action)} to {action['to']} facing "
                           f"{FACING_NAMES[action.get('facing', 0) % 6]}"),
    lambda state, action: [Told(f"{seat(action.player)} moved {unit_named(state, action)} to {action['to']}")],
    phases=("battle",))

