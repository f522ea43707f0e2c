"""Hexbattle presentation: unit names, action labels and each viewer's view of the battle."""

from __future__ import annotations

from typing import Any

from engine.core import Action
from engine.hexbattle_pieces import Unit
from engine.hexgrid import FACING_NAMES, hex_id, to_offset


class ViewMixin:
    """What players read: names, labels and the per-viewer view (hidden hands and guards stay hidden)."""

    def unit_name(self, unit: Unit) -> str:
        name = self.unit_type(unit).name
        copies = self.unit_type(unit).copies
        if copies > 1:
            name += f" {unit.id.rsplit('-', 1)[1]}"
        return f"{self.game.armies[unit.player].colour} {name}"

    def label(self, action: Action) -> str:
        kind = action.kind
        unit = self.units.get(action.get("unit")) if isinstance(action.get("unit"), str) else None
        who = self.unit_name(unit) if unit else ""
        if kind == "deploy":
            return f"Deploy {who} at {action['hex']}"
        if kind == "move":
            return f"Move {who} to {action['to']} facing {FACING_NAMES[action.get('facing', 0) % 6]}"
        if kind == "pivot":
            return f"Pivot {who} to face {FACING_NAMES[action['facing'] % 6]}"
        if kind == "attack":
            target = self.units.get(action["target"])
            verb = "Charge" if action.get("mode") == "melee" else "Fire at"
            return f"{who}: {verb} {self.unit_name(target) if target else action['target']}"
        if kind == "formation":
            return f"{who}: form {self.game.formations[action['formation']].name}"
        if kind == "repair":
            return f"Repair {who}"
        if kind in ("play_card", "discard_card"):
            design = self.game.cards[action["card"]].design
            extra = f" on {who}" if who else ""
            return f"{'Play' if kind == 'play_card' else 'Discard'} {design.name}{extra}"
        return {"quick_start": "Quick Start: place the rest of your units", "draw_terrain": "Draw a terrain tile",
                "place_tile": f"Place the tile at {action.get('hex')}", "draw_bonus": "Draw a bonus card",
                "end_turn": "End turn", "concede": "Concede the battle"}.get(kind, str(action))

    def view(self, player: int | None) -> dict[str, Any]:
        game = self.game
        units = []
        for unit in self.units.values():
            col_row = to_offset(unit.hex) if unit.hex is not None else None
            units.append({"id": unit.id, "player": unit.player, "type": unit.type, "name": self.unit_name(unit),
                          "kind": self.unit_type(unit).kind, "hex": hex_id(unit.hex) if unit.hex else None,
                          "col": col_row[0] if col_row else None, "row": col_row[1] if col_row else None,
                          "facing": unit.facing, "facing_name": FACING_NAMES[unit.facing],
                          "strength": unit.strength, "max_strength": self.max_strength(unit),
                          "formation": unit.formation, "broken": self.is_broken(unit) and not unit.destroyed,
                          "destroyed": unit.destroyed})
        players = []
        for p, army in enumerate(game.armies):
            own = player == p
            players.append({
                "seat": p, "name": self.names[p], "army": army.id, "army_name": army.name, "colour": army.colour,
                "colour_hex": army.colour_hex, "home_row": game.home_row[p], "goal_row": game.goal_row[p],
                "hand": list(self.hands[p]) if own else None, "hand_size": len(self.hands[p]),
                "guards": [{"card": g.card, "effect": g.effect, "unit": g.unit} for g in self.guards
                           if g.owner == p] if own else None,
                "guard_count": sum(1 for g in self.guards if g.owner == p),
                "fog": self.fog[p]})
        events = [e if e.get("private_to", player) == player else {**e, "card": None} for e in self.events]
        return {
            "game": game.id, "phase": self.phase, "turn": self.turn, "turn_limit": game.rules.turn_limit,
            "current_player": self.current_player, "actions_left": self.actions_left,
            "actions_this_turn": self.actions_granted, "last_unit": self.last_unit,
            "last_was_draw": self.last_was_draw, "double_time_ready": self.double_time_ready,
            "map": {"columns": game.columns, "rows": game.rows, "orientation": "flat", "offset": "odd-q",
                    "terrain": {hex_id(h): t for h, t in sorted(self.terrain.items(), key=lambda i: to_offset(i[0]))}},
            "units": units, "players": players,
            "tile_deck": len(self.tile_deck), "pending_tile": self.pending_tile, "tiles_to_place": self.tiles_to_place,
            "bonus_deck": len(self.bonus_deck), "discard": list(self.discard),
            "effects": self.effects.to_json() if self.phase == "battle" else None,
            "events": events, "winner": self._winner, "result": self.result,
        }
