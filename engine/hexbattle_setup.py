"""Hexbattle setup: scenarios, deployment, the hex index and its caches, turn starts and terrain tiles (R3, R5, R30)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.core import Action, Refusal
from engine.hexbattle_pieces import TurnEffects, Unit
from engine.hexgrid import Hex, hex_id, parse_hex


class SetupMixin:
    """How units and tiles get onto the board, and what a turn starts with."""

    def _set_scenario(self, scenario: Mapping[str, Any]) -> None:
        """A hand-made position for tests, puzzles and the companion's combat roller (R30)."""
        game = self.game
        if scenario.get("fill") is not None:
            for h in game.board:
                self.terrain[h] = scenario["fill"]
        for h, t in dict(scenario.get("terrain", {})).items():
            self.terrain[parse_hex(h)] = t  # type: ignore[index]
        placed = dict(scenario.get("units", {}))
        for uid, unit in self.units.items():
            spec = placed.get(uid)
            if spec is None:
                unit.destroyed = True
                continue
            unit.facing = int(spec.get("facing", unit.facing)) % 6
            unit.strength = int(spec.get("strength", unit.strength))
            if spec.get("formation") is not None:
                unit.formation = spec["formation"]
            self._place(unit, parse_hex(spec["hex"]))
        for p, hand in enumerate(scenario.get("hands", [[], []])):
            for design in hand:
                card = next(c for c in self.bonus_deck if self.game.cards[c].design.id == design)
                self.bonus_deck.remove(card)
                self.hands[p].append(card)
        self.current = int(scenario.get("current_player", 0))
        self._start_battle(self.current)

    def _quick_deploy(self, player: int, rng: random.Random) -> list[str]:
        placed = []
        free = [h for h in self.game.home_hexes[player] if self._deploy_hex_ok(h)]
        rng.shuffle(free)
        for uid in self._undeployed(player):
            h = free.pop()
            self._place(self.units[uid], h)
            placed.append(uid)
        return placed

    def _place(self, unit: Unit, h: Hex | None) -> None:
        """Put a unit on `h` (None: off the board), keeping the hex index and move cache right."""
        changed = {unit.hex, h}
        if unit.hex is not None and self.at.get(unit.hex) == unit.id:
            del self.at[unit.hex]
        unit.hex = h
        if h is not None:
            self.at[h] = unit.id
        self._board_changed(changed)

    def _board_changed(self, changed: set[Hex | None]) -> None:
        """Drop the cached moves whose search looked at a hex that has just changed, and the attacks near it."""
        epoch = self._epoch
        stale = [key for key, (_, looked, _) in self._reach_cache.items() if not looked.isdisjoint(changed)]
        for key in stale:
            del self._reach_cache[key]
            epoch[key[0]] = epoch.get(key[0], 0) + 1
        near = [key for key, (zone, _) in self._attack_cache.items() if not zone.isdisjoint(changed)]
        for key in near:
            del self._attack_cache[key]
            epoch[key[0]] = epoch.get(key[0], 0) + 1

    def _undeployed(self, player: int) -> list[str]:
        return [uid for uid, _ in self.game.roster[player]
                if self.units[uid].hex is None and not self.units[uid].destroyed]

    def _deploy_hex_ok(self, h: Hex) -> bool:
        return h not in self.at and self.terrain.get(h) == self.game.rules.start_terrain

    def _start_battle(self, first: int = 0) -> None:
        self.phase = "battle"
        self.current = first
        self._begin_turn()

    def _begin_turn(self) -> None:
        self._segments.clear()  # the other army's segments: stale by its next turn, most likely
        self.actions_left = max(0, self.game.rules.actions_per_turn - self.fog[self.current])
        self.actions_granted = self.actions_left
        self.fog[self.current] = 0
        self.last_unit = None
        self.last_was_draw = False
        self.double_time_ready = None
        self.effects = TurnEffects()
        self.moved_points = {}

    def _verify_deploy(self, action: Action) -> None:
        if action.kind == "quick_start":
            return
        if action.kind != "deploy":
            raise Refusal("Deploy your units first.")
        uid = action.get("unit")
        unit = self.units.get(uid) if isinstance(uid, str) else None
        if unit is None:
            raise Refusal(f"There is no unit called {uid!r}.")
        if unit.player != self.current:
            raise Refusal(f"{self.unit_name(unit)} is not yours.")
        if unit.hex is not None:
            raise Refusal(f"{self.unit_name(unit)} is already deployed.")
        h = parse_hex(action.get("hex"))
        if h not in self.game.home_hexes[self.current]:
            raise Refusal("Units deploy on your own starting row.")
        if h in self.at:
            raise Refusal("That hex is occupied.")
        if self.terrain.get(h) != self.game.rules.start_terrain:
            raise Refusal("Units can only be placed on open terrain.")

    def _apply_deploy(self, action: Action, rng: random.Random) -> None:
        p = self.current
        if action.kind == "quick_start":
            placed = self._quick_deploy(p, rng)
            self.events.append({"event": "quick_start", "player": p, "units": placed})
        else:
            self._place(self.units[action["unit"]], parse_hex(action["hex"]))  # type: ignore[arg-type]
        other = 1 - p
        if self._undeployed(other):
            self.current = other
        elif not self._undeployed(p):
            self._start_battle()

    def _draw_tile(self) -> None:
        self.pending_tile = self.tile_deck.pop()
        self.tiles_to_place -= 1
        self.events.append({"event": "tile_drawn", "terrain": self.pending_tile})

    def _place_tile(self, h: Hex) -> None:
        self.terrain[h] = self.pending_tile  # type: ignore[assignment]
        self._board_changed({h})
        self.events.append({"event": "tile_placed", "hex": hex_id(h), "terrain": self.pending_tile})
        self.pending_tile = None
        if self.tiles_to_place > 0 and self.tile_deck and len(self.terrain) < len(self.game.board):
            self._draw_tile()
        else:
            self.tiles_to_place = 0

    def undiscovered_edge(self) -> list[Hex]:
        """Hidden hexes next to a revealed one: where a drawn tile may go (R3)."""
        terrain, around = self.terrain, self.game.around
        return [h for h in self.game.offset_order
                if h not in terrain and any(n in terrain for n in around[h])]
