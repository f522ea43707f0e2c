"""Hexbattle presentation: the history lines of what actions did, the task line, and each viewer's view of the
battle. (What each action reads as, its button and its line, is with its kind.)"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import Action, seat
from engine.hexgrid import FACING_NAMES, hex_id, to_offset

if TYPE_CHECKING:
    from engine.hexbattle_state import HexbattleState


def unit_named(state: HexbattleState, action: Action) -> str:
    """The name of the unit an action names, or "" if it names none."""
    uid = action.get("unit")
    unit = state.units.get(uid) if isinstance(uid, str) else None
    return state.unit_name(unit) if unit else ""


def tell_events(state: HexbattleState) -> None:
    """History lines for what an action's events showed: drawn tiles and cards, revealed guards, dice, losses."""
    g = state.game

    def unit(uid: str) -> str:
        return state.unit_name(state.units[uid])

    for e in state.events:
        kind = e["event"]
        if kind == "tile_drawn":
            state.tell(f"The terrain tile drawn is {g.terrain[e['terrain']].name}", reveals="the terrain tile drawn")
        elif kind == "bonus_drawn":
            who, card = seat(e["player"]), g.bonus[e["card"]].name
            if e.get("nothing"):
                state.tell(f"{who} drew {card}, which does nothing", reveals="the bonus card drawn")
            else:
                state.tell(f"{who} drew a bonus card", {e["player"]: f"{who} drew {card}"},
                          reveals="the bonus card drawn")
        elif kind == "guard":
            on = f" on {unit(e['unit'])}" if e.get("unit") else ""
            state.tell(f"{seat(e['player'])}'s face-down {g.bonus[e['card']].name}{on} is revealed",
                      reveals="a face-down guard card")
        elif kind == "melee":
            tell_melee(state, e, unit)
        elif kind == "fire":
            tell_fire(state, e, unit)
        elif kind == "rout":
            state.tell(f"{unit(e['unit'])} is routed to {e['to']}")
        elif kind in ("broken", "destroyed"):
            state.tell(f"{unit(e['unit'])} is {kind}")
        elif kind == "game_over":
            won = "a draw" if e["winner"] is None else f"{seat(e['winner'])} wins"
            state.tell(f"The battle is over ({e['reason'].replace('_', ' ')}): {won}")


def tell_melee(state: HexbattleState, e: dict[str, Any], unit: Any) -> None:
    r = e["result"]
    if r is None:
        state.tell(f"{unit(e['defender'])} is broken and cannot reply")
        return
    dice = ", ".join(map(str, r["attacker_dice"])), ", ".join(map(str, r["defender_dice"]))
    state.tell(f"Close combat: {unit(e['attacker'])} rolled {dice[0]}, {unit(e['defender'])} rolled {dice[1]}; "
              f"losses {r['attacker_losses']} and {r['defender_losses']}", reveals="the dice")


def tell_fire(state: HexbattleState, e: dict[str, Any], unit: Any) -> None:
    if e.get("screened"):
        state.tell(f"The fire at {unit(e['defender'])} is screened")
    elif e.get("blocked_by"):
        state.tell(f"The line of sight is blocked at {e['blocked_by']} (sight dice)", reveals="the dice")
    elif e["result"] is not None:
        r = e["result"]
        state.tell(f"{unit(e['attacker'])} rolled {', '.join(map(str, r['dice']))}: {r['hits']} hits, "
                  f"{unit(e['defender'])} loses {r['losses']}", reveals="the dice")


def task(state: HexbattleState, player: int) -> str:
    if state.phase == "deploy":
        return "deploy units"
    if state.pending_tile is not None:
        return "place the drawn terrain tile"
    return f"take a turn ({state.actions_left} action{'s' if state.actions_left != 1 else ''} left)"


def view(state: HexbattleState, player: int | None) -> dict[str, Any]:
    game = state.game
    units = []
    for unit in state.units.values():
        col_row = to_offset(unit.hex) if unit.hex is not None else None
        units.append({"id": unit.id, "player": unit.player, "type": unit.type, "name": state.unit_name(unit),
                      "kind": state.unit_type(unit).kind, "hex": hex_id(unit.hex) if unit.hex else None,
                      "col": col_row[0] if col_row else None, "row": col_row[1] if col_row else None,
                      "facing": unit.facing, "facing_name": FACING_NAMES[unit.facing],
                      "strength": unit.strength, "max_strength": state.max_strength(unit),
                      "formation": unit.formation, "broken": state.is_broken(unit) and not unit.destroyed,
                      "destroyed": unit.destroyed})
    players = []
    for p, army in enumerate(game.armies):
        own = player == p
        players.append({
            "seat": p, "name": state.names[p], "army": army.id, "army_name": army.name, "colour": army.colour,
            "colour_hex": army.colour_hex, "home_row": game.home_row[p], "goal_row": game.goal_row[p],
            "hand": list(state.hands[p]) if own else None, "hand_size": len(state.hands[p]),
            "guards": [{"card": g.card, "effect": g.effect, "unit": g.unit} for g in state.guards
                       if g.owner == p] if own else None,
            "guard_count": sum(1 for g in state.guards if g.owner == p),
            "fog": state.fog[p]})
    events = [e if e.get("private_to", player) == player else {**e, "card": None} for e in state.events]
    return {
        "game": game.id, "phase": state.phase, "turn": state.turn, "turn_limit": state.turn_limit,
        "current_player": state.current_player, "actions_left": state.actions_left,
        "actions_this_turn": state.actions_granted, "last_unit": state.last_unit,
        "last_was_draw": state.last_was_draw, "double_time_ready": state.double_time_ready,
        "map": {"columns": game.columns, "rows": game.rows, "orientation": "flat", "offset": "odd-q",
                "terrain": {hex_id(h): t for h, t in sorted(state.terrain.items(), key=lambda i: to_offset(i[0]))}},
        "units": units, "players": players,
        "tile_deck": len(state.tile_deck), "pending_tile": state.pending_tile, "tiles_to_place": state.tiles_to_place,
        "bonus_deck": len(state.bonus_deck), "discard": list(state.discard),
        "effects": state.effects.to_json() if state.phase == "battle" else None,
        "events": events, "winner": state._winner, "result": state.result,
    }
