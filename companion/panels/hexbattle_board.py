"""What a tap on the hexbattle board means, and what the board marks: no Streamlit here, so tests run it directly.

A phone keeps a small `Selection` (the unit it picked, the hex it wants to move to, the enemy
it wants to attack). A tap on a hex turns the selection into a new one, or into an engine
action; every action offered is one of the engine's `legal_actions`, and every mark on the
board (reach with movement cost, fire arc, targets with their sight line) is asked of the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine.core import Action
from engine.hexgrid import FACING_NAMES, Hex, hex_id, neighbour, parse_hex

ARROWS = ("↑", "↗", "↘", "↓", "↙", "↖")
"""One arrow per facing (0 N, clockwise), for the facing buttons."""
COMPASS = ((5, 0, 1), (4, 3, 2))
"""The facing buttons laid out like the hexes around a unit: NW N NE over SW S SE."""


@dataclass(frozen=True)
class Selection:
    """This phone's choice in progress: a unit, then perhaps a hex to move to or an enemy to attack."""

    unit: str | None = None
    dest: str | None = None
    target: str | None = None


@dataclass
class Options:
    """The selected unit's legal actions, sorted by what the board shows them as."""

    moves: dict[str, dict[int, Action]] = field(default_factory=dict)  # hex -> facing -> move
    attacks: dict[str, dict[str, Action]] = field(default_factory=dict)  # enemy unit -> mode -> attack
    pivots: dict[int, Action] = field(default_factory=dict)
    formations: list[Action] = field(default_factory=list)
    repair: Action | None = None

    @property
    def any(self) -> bool:
        return bool(self.moves or self.attacks or self.pivots or self.formations or self.repair)


def options(legal: list[Action], uid: str | None) -> Options:
    """Sort one unit's share of the legal actions."""
    out = Options()
    if uid is None:
        return out
    for action in legal:
        if action.get("unit") != uid:
            continue
        if action.kind == "move":
            out.moves.setdefault(action["to"], {})[action.get("facing", 0)] = action
        elif action.kind == "attack":
            out.attacks.setdefault(action["target"], {})[action["mode"]] = action
        elif action.kind == "pivot":
            out.pivots[action["facing"]] = action
        elif action.kind == "formation":
            out.formations.append(action)
        elif action.kind == "repair":
            out.repair = action
    return out


def facing_towards(at: str, other: str) -> int | None:
    """The facing from hex `at` to a neighbouring hex `other`, or None if they are not neighbours."""
    here, there = parse_hex(at), parse_hex(other)
    if here is None or there is None:
        return None
    return next((f for f in range(6) if neighbour(here, f) == there), None)


def default_move(state: Any, uid: str, moves: dict[int, Action]) -> Action:
    """Tapping the chosen hex again moves there keeping the unit's facing if it can, else the cheapest facing."""
    unit = state.units[uid]
    if unit.facing in moves:
        return moves[unit.facing]
    cost = state.reachable(unit)
    return min(moves.values(), key=lambda a: (cost.get((parse_hex(a["to"]), a["facing"]), 99), a["facing"]))


def facts(state: Any, unit: Any, opts: Options | None) -> str:
    """The selected unit's facts in one line, shown over the board (readable however far it is zoomed):
    what it is, its formation (infantry), strength (and broken), facing, movement points, and with `opts`
    (its side's legal actions now) how many hexes it can move to and enemies it can attack, and the actions
    left this turn (the top bar says so too, but it is out of view when the board is zoomed)."""
    kind = state.unit_type(unit)
    parts = [f"{state.unit_name(unit)} ({kind.name})"]
    if kind.uses_formations:
        parts.append(state.game.formations[unit.formation].name)
    parts.append(f"strength {unit.strength}/{state.max_strength(unit)}" + (" ⚠ broken" if state.is_broken(unit) else ""))
    parts += [f"facing {FACING_NAMES[unit.facing]}", f"{state.movement_points(unit)} movement points"]
    if opts is not None:
        if unit.id == state.last_unit and not opts.any:
            parts.append("acted last: another unit or action first")
        elif opts.any:
            n, m, left = len(opts.moves), len(opts.attacks), state.actions_left
            parts.append(f"can move to {n} hex{'es' if n != 1 else ''}, attack {m} "
                         f"{'enemies' if m != 1 else 'enemy'}; {left} action{'s' if left != 1 else ''} left")
        else:
            parts.append("cannot act now")
    return " · ".join(parts)


def words(state: Any, action: Action) -> str:
    """A move in words, naming what it does, with what and where: the question asked before a move that cannot
    be taken back ("Are you sure?") or a card played says this, never "this move"."""
    units = state.units
    if action.kind == "attack":
        enemy = units[action["target"]]
        verb = "Charge" if action["mode"] == "melee" else "Fire at"
        return (f"{verb} {state.unit_name(enemy)} at {hex_id(enemy.hex)} "
                f"with {state.unit_name(units[action['unit']])}")
    if action.kind == "move":
        return (f"Move {state.unit_name(units[action['unit']])} to {action['to']}, "
                f"facing {FACING_NAMES[action.get('facing', 0)]}")
    if action.kind == "deploy":
        return f"Deploy {state.unit_name(units[action['unit']])} at {action['hex']}"
    if action.kind == "place_tile":
        return f"Lay the {state.game.terrain[state.pending_tile].name} tile at {action['hex']}"
    if action.kind == "play_card":  # every way to play a card reads differently (Supply Run's pairs, Regroup's forms)
        on = [state.unit_name(units[u]) for u in ([action["unit"]] if action.get("unit") else action.get("units") or [])]
        form = f", forming {state.game.formations[action['formation']].name}" if action.get("formation") else ""
        return f"Play {state.game.bonus[action['card']].name}" + (f" on {' and '.join(on)}" if on else "") + form
    return str(state.label(action))


def tap(state: Any, player: int | None, sel: Selection, hex_tapped: str | None) -> tuple[Selection, Action | None]:
    """A tap on `hex_tapped` (None: off the map) with `sel` in progress: the next selection, and the action to send."""
    if hex_tapped is None:
        return Selection(), None
    uid_there = state.at.get(parse_hex(hex_tapped))
    mine = player is not None and player in state.players_to_act()
    legal = state.legal_actions(player) if mine else []
    if state.phase == "deploy":
        return _deploy_tap(state, player, sel, hex_tapped, legal)
    placing = [a for a in legal if a.kind == "place_tile"]
    if placing:
        chosen = next((a for a in placing if a["hex"] == hex_tapped), None)
        return sel, chosen
    opts = options(legal, sel.unit)
    if sel.dest is not None and sel.unit is not None:
        moves = opts.moves.get(sel.dest, {})
        if hex_tapped == sel.dest and moves:
            return Selection(), default_move(state, sel.unit, moves)
        facing = facing_towards(sel.dest, hex_tapped)
        if facing is not None and facing in moves:
            return Selection(), moves[facing]
    if uid_there is not None and uid_there in opts.attacks:
        modes = opts.attacks[uid_there]
        if len(modes) == 1:
            return Selection(), next(iter(modes.values()))
        return replace(sel, dest=None, target=uid_there), None
    if hex_tapped in opts.moves:
        moves = opts.moves[hex_tapped]
        if len(moves) == 1:
            return Selection(), next(iter(moves.values()))
        return replace(sel, dest=hex_tapped, target=None), None
    if uid_there is not None:
        return (Selection(), None) if uid_there == sel.unit else (Selection(unit=uid_there), None)
    return Selection(), None


def _deploy_tap(state: Any, player: int | None, sel: Selection, hex_tapped: str,
                legal: list[Action]) -> tuple[Selection, Action | None]:
    """Deployment: a tap on an open starting hex deploys the chosen unit (or the next one in the roster)."""
    uid_there = state.at.get(parse_hex(hex_tapped))
    if uid_there is not None:
        return Selection(unit=uid_there), None
    deploys = [a for a in legal if a.kind == "deploy" and a["hex"] == hex_tapped]
    if not deploys:
        return sel, None
    chosen = next((a for a in deploys if a["unit"] == sel.unit), deploys[0])
    return Selection(), chosen


def next_deploy(state: Any, player: int | None, sel: Selection) -> str | None:
    """The unit a tap on a starting hex would deploy now."""
    if player is None or state.phase != "deploy" or player not in state.players_to_act():
        return None
    waiting = [uid for uid, _ in state.game.roster[player] if state.units[uid].hex is None
               and not state.units[uid].destroyed]
    return sel.unit if sel.unit in waiting else (waiting[0] if waiting else None)


def overlay(state: Any, geo: Any, player: int | None, sel: Selection, aspect: float) -> dict[str, Any]:
    """The board's small per-redraw payload: tiles laid, units, the marks of the selection in progress, and the
    drawn tile waiting to be laid (its id and name: the board draws it from its own art)."""
    game = state.game
    centre = {h: geo.centre(*(int(v) for v in hid.split(","))) for h, hid in game.ids.items()}
    home_rows = set(game.home_row)
    tiles = [[*centre[h], t] for h, t in state.terrain.items()
             if not (t == game.rules.start_terrain and game.row_of[h] in home_rows)]
    marks: list[list[Any]] = []
    labels: list[list[Any]] = []
    arrows: list[list[float]] = []
    mine = player is not None and player in state.players_to_act()
    legal = state.legal_actions(player) if mine else []
    hint = ""
    focus = None
    placing = [a["hex"] for a in legal if a.kind == "place_tile"]
    if placing:
        name = game.terrain[state.pending_tile].name
        marks += [[*centre[parse_hex(h)], "place"] for h in placing]
        hint = f"Tap a yellow hex to lay the {name} tile."
    elif state.phase == "deploy":
        uid = next_deploy(state, player, sel)
        if uid is not None:
            hexes = sorted({a["hex"] for a in legal if a.kind == "deploy"})
            marks += [[*centre[parse_hex(h)], "deploy"] for h in hexes]
            hint = f"Tap a green hex to deploy {state.unit_name(state.units[uid])}."
    unit = state.units.get(sel.unit) if sel.unit else None
    facts_line = ""
    if unit is not None and unit.on_board and not placing:
        focus = list(centre[unit.hex])
        opts = options(legal, unit.id)
        facts_line = facts(state, unit, opts if mine and unit.player == player else None)
        marks += [[*centre[h], "arc"] for h in sorted(state.fire_arc(unit) - {unit.hex})]
        cost = state.move_costs(unit) if opts.moves else {}
        for hid in opts.moves:
            h = parse_hex(hid)
            marks.append([*centre[h], "dest" if hid == sel.dest else "reach"])
            labels.append([*centre[h], str(cost.get(h, "")), "reach"])
        for target, modes in opts.attacks.items():
            enemy = state.units[target]
            kind = "both" if len(modes) > 1 else ("melee" if "melee" in modes else
                                                  ("split" if state.sight(unit.hex, enemy.hex).contested else "fire"))
            marks.append([*centre[enemy.hex], kind])
            labels.append([*centre[enemy.hex], {"melee": "⚔", "both": "⚔◎"}.get(kind, "◎"), "attack"])
        d = parse_hex(sel.dest) if sel.dest is not None and sel.dest in opts.moves else None
        if sel.dest is not None and d is not None:
            focus = list(centre[d])
            for f in sorted(opts.moves[sel.dest]):
                n = neighbour(d, f)
                (x1, y1), (x2, y2) = centre[d], geo.centre(*_offset(n))
                arrows.append([x1 + (x2 - x1) * 0.25, y1 + (y2 - y1) * 0.25, x1 + (x2 - x1) * 0.62,
                               y1 + (y2 - y1) * 0.62])
                if n in centre:
                    marks.append([*centre[n], "face"])
            hint = "Tap the hex it should face (or a facing button below); tap the blue hex again to keep its facing."
        elif mine and opts.any:
            hint = "Green: move (number = movement points). Red ⚔ close combat, orange ◎ fire (dashed: sight split)."
        elif mine:
            hint = f"{state.unit_name(unit)} cannot act now."
        else:
            hint = "Tap another unit to see its facts."
    elif not hint and mine and state.phase == "battle":
        hint = "Tap one of your units."
    colours = {p: army.colour_hex for p, army in enumerate(game.armies)}
    units = [{"id": u.id, "x": centre[u.hex][0], "y": centre[u.hex][1], "art": f"{game.armies[u.player].id}-{u.type}",
              "facing": u.facing, "strength": u.strength, "colour": colours[u.player], "broken": state.is_broken(u),
              "selected": u.id == sel.unit, "aspect": aspect}
             for u in state.units.values() if u.on_board]
    # the drawn tile waiting to be laid, as printed, in the board's bar (every phone: a drawn tile is shown)
    drawn = [state.pending_tile, game.terrain[state.pending_tile].name] if state.pending_tile else None
    return {"size": [geo.width, geo.height], "hex": [geo.hex_w, geo.hex_h], "tiles": tiles, "units": units,
            "marks": marks, "labels": labels, "arrows": arrows, "hint": hint, "facts": facts_line, "focus": focus,
            "drawn": drawn}


def _offset(h: Hex) -> tuple[int, int]:
    col, row = (int(v) for v in hex_id(h).split(","))
    return col, row
