"""Hexbattle's rules and tables, with the board geometry and the action values worked out once per game."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from cards.load import GameData
from cards.schemas.hexbattle import Army, BonusCard, Formation, Terrain, UnitType
from engine.core import Action, Game, Refusal
from engine.hexbattle_pieces import Unit
from engine.hexbattle_state import HexbattleState
from engine.hexgrid import (Hex, disc, from_offset, hex_from_id, hex_id, in_arc, neighbour, parse_hex, sight_line,
                            to_offset)

OPTION_KEYS = ("quick_start", "names", "turn_limit", "dice", "scenario")
SCENARIO_KEYS = ("fill", "terrain", "units", "hands", "current_player")


class HexbattleGame(Game["HexbattleState"]):
    """Rules and tables of Hexbattle, with the board geometry worked out once."""

    id = "hexbattle"
    test_options = frozenset({"dice"})

    def __init__(self, data: GameData) -> None:
        self.data = data
        self.rules = data.rules
        self.unit_types: dict[str, UnitType] = data.by_id("units")
        self.formations: dict[str, Formation] = data.by_id("formations")
        self.terrain: dict[str, Terrain] = data.by_id("terrain")
        self.armies: list[Army] = data.table("armies")
        self.cards = data.card_index
        # Each bonus card's design, by the physical card's id, as its schema row (what the rules read).
        self.bonus: dict[str, BonusCard] = {c.id: c.design_as(BonusCard) for c in data.deck("bonus_cards")}
        self.columns = self.rules.map_columns
        self.rows = self.rules.map_rows
        self.board: frozenset[Hex] = frozenset(from_offset(c, r) for c in range(self.columns) for r in range(self.rows))
        self.ids: dict[Hex, str] = {h: hex_id(h) for h in self.board}
        self._by_id: dict[str, Hex] = {i: h for h, i in self.ids.items()}
        self.around: dict[Hex, tuple[Hex, ...]] = {h: tuple(neighbour(h, d) for d in range(6)) for h in self.board}
        # The move search's numbering: a hex is its place in `cells` (sorted, so numbers compare as hexes do), a
        # (hex, facing) place is `6 * cell + facing`, and `ahead[place]` is the cell one step that way (-1: off the
        # map). The search then queues plain numbers, in the order it would queue (cost, hex, facing) tuples.
        self.cells: list[Hex] = sorted(self.board)
        self.cell: dict[Hex, int] = {h: i for i, h in enumerate(self.cells)}
        self.ahead: list[int] = [self.cell.get(neighbour(h, d), -1) for h in self.cells for d in range(6)]
        # What a cached search read is a set of hexes as the bits of their cells (`bit[cell]`): a change is looked
        # up in it with one `&` (`hexbattle_setup.board_changed`).
        self.bit: dict[Hex, int] = {h: 1 << i for i, h in enumerate(self.cells)}
        self.bits: list[int] = [1 << i for i in range(len(self.cells))]  # the same by cell
        # What stands on a cell as one number (`HexbattleState.codes`): its terrain's place in `terrain` (`hidden`
        # while no tile lies there), plus `occupied` when a unit stands on it. The move search reads a cell's
        # price per unit type (`price`, None where it may not enter) and whether it takes all movement from it.
        self.code: dict[str | None, int] = {t: i for i, t in enumerate(self.terrain)}
        self.hidden = self.code[None] = len(self.terrain)
        self.occupied = 1 << self.hidden.bit_length()
        ground: list[Terrain | None] = [*self.terrain.values()] + [None] * (self.occupied - len(self.terrain))
        self.takes_all_code: list[bool] = [bool(t and t.takes_all_movement) for t in ground * 2]
        # Whether a cell blocks sight whatever stands on it: hidden, or terrain that blocks it (R12).
        self.walls_code: list[bool] = [t is None or t.blocks_los for t in ground * 2]
        self.home_row = [0 if a.home_edge == "top" else self.rows - 1 for a in self.armies]
        self.goal_row = [self.home_row[1], self.home_row[0]]
        # Each army faces the enemy's edge at deployment (R5).
        self.home_facing = [0 if a.home_edge == "bottom" else 3 for a in self.armies]
        self.home_hexes = [[from_offset(c, row) for c in range(self.columns)] for row in self.home_row]
        self.roster: list[list[tuple[str, str]]] = []
        for army in self.armies:
            units = []
            for t in data.table("units"):
                for k in range(1, t.copies + 1):
                    uid = f"{army.id}-{t.id}" + (f"-{k}" if t.copies > 1 else "")
                    units.append((uid, t.id))
            self.roster.append(units)
        self.unit_index = {uid: (p, t) for p, units in enumerate(self.roster) for uid, t in units}
        self.row_of: dict[Hex, int] = {h: to_offset(h)[1] for h in self.board}
        self.offset_order: list[Hex] = sorted(self.board, key=to_offset)
        # A unit is broken at or below this strength (guns at 1, R23).
        self.broken_at: dict[str, int] = {t.id: t.broken_at for t in data.table("units")}
        self.infantry_types = frozenset(t.id for t in data.table("units") if t.kind == "infantry")
        self.blocks_los = frozenset(t for t, row in self.terrain.items() if row.blocks_los)
        self.no_combat = frozenset(t for t, row in self.terrain.items() if row.no_combat)
        # Movement cost of each terrain a unit may enter: for units that may enter infantry-only ground, and not.
        enter_cost: dict[bool, dict[str, int]] = {
            infantry: {t: row.move_cost for t, row in self.terrain.items()
                       if not row.impassable and (infantry or not row.infantry_only)} for infantry in (False, True)}
        # Per unit type and formation: its movement points before the turn's cards, whether Bold Advance adds to
        # them (formation movement), and whether it moves by the turn (R8); read for every unit at every move, so
        # by type, then formation (two look-ups by string, where a (type, formation) key was a tuple to build).
        self.base_points: dict[str, dict[str | None, tuple[int, bool, bool]]] = {
            t.id: {f: (self.formations[f].movement if f else t.movement, f is not None, t.movement_per_turn)
                   for f in (self.formations if t.uses_formations else [None])}
            for t in self.unit_types.values()}
        # Per unit type, how its move search goes: the terrain it may enter and at what cost, its steps as a flat
        # list of direction offset, cost multiplier, ... (backwards too for units that may reverse: flat, so the
        # compiled search reads them as numbers), and whether it may turn in place (R9–R11).
        self.mover: dict[str, tuple[dict[str, int], list[int], bool]] = {
            t.id: (enter_cost[bool(t.enters_infantry_only_terrain)],
                   [0, 1, 3, self.rules.reverse_cost] if t.can_reverse else [0, 1], bool(t.can_pivot))
            for t in self.unit_types.values()}
        self.price: dict[str, list[int | None]] = {
            uid: [enter.get(tid) for tid in self.terrain] + [None] * (2 * self.occupied - len(self.terrain))
            for uid, (enter, _, _) in self.mover.items()}
        # Actions are immutable values, so each distinct one is built once and handed out by every
        # state of this game: building them was most of the cost of `legal_actions`.
        self._actions: dict[tuple[Any, ...], Action] = {}
        self._orders: dict[tuple[Any, ...], tuple[Action, ...]] = {}
        self._zones: dict[tuple[Hex, int], frozenset[Hex]] = {}
        self._fire_zones: dict[tuple[Hex, int, int], frozenset[Hex]] = {}
        self._arcs: dict[tuple[int, int], frozenset[Hex]] = {}
        self._masks: dict[frozenset[Hex], int] = {}
        self._lines: dict[tuple[Hex, Hex], tuple[tuple[tuple[int, ...], ...], int]] = {}
        self._moves: dict[str, dict[int, Action]] = {}

    def hex_named(self, text: str) -> Hex:
        """The hex of a verified action's id: looked up, or parsed when it is written another way ("03,5")."""
        h = self._by_id.get(text)
        return hex_from_id(text) if h is None else h

    def zone(self, h: Hex, reach: int) -> frozenset[Hex]:
        """The hexes within `reach` of `h` (h included), worked out once per hex and reach."""
        zone = self._zones.get((h, reach))
        if zone is None:
            q, r = h
            board = self.board
            zone = self._zones[(h, reach)] = frozenset(
                x for x in ((q + dq, r + dr) for dq, dr in disc(reach)) if x in board)
        return zone

    def code_of(self, terrain: str | None, occupied: bool) -> int:
        """What stands on a cell, as `HexbattleState.codes` holds it."""
        return self.code[terrain] | (self.occupied if occupied else 0)

    def line(self, a: Hex, b: Hex) -> tuple[tuple[tuple[int, ...], ...], int]:
        """The sight line between two hexes (`hexgrid.sight_line`) as cells (-1: off the map), and the bits of its
        cells on the map, worked out once per pair."""
        found = self._lines.get((a, b))
        if found is None:
            cell = self.cell
            steps = tuple([tuple([cell.get(h, -1) for h in step]) for step in sight_line(a, b)])
            bits = 0
            for step in steps:
                for c in step:
                    if c >= 0:
                        bits |= 1 << c
            found = self._lines[(a, b)] = (steps, bits)
        return found

    def mask(self, hexes: frozenset[Hex]) -> int:
        """The bits (`bit`) of a zone's hexes on the map, worked out once per zone."""
        mask = self._masks.get(hexes)
        if mask is None:
            bit = self.bit
            mask = self._masks[hexes] = sum(bit[h] for h in hexes if h in bit)
        return mask

    def fire_zone(self, h: Hex, facing: int, reach: int) -> frozenset[Hex]:
        """The hexes a unit on `h` may fire into: within `reach` and inside the ±60° cone of its facing
        (R15, R16), worked out once per hex, facing and reach."""
        key = (h, facing, reach)
        zone = self._fire_zones.get(key)
        if zone is None:
            q, r = h
            board = self.board
            zone = self._fire_zones[key] = frozenset(
                x for x in ((q + dq, r + dr) for dq, dr in self._arc_offsets(facing, reach)) if x in board)
        return zone

    def _arc_offsets(self, facing: int, reach: int) -> frozenset[Hex]:
        """Offsets within `reach` inside the cone of `facing`."""
        key = (facing, reach)
        offsets = self._arcs.get(key)
        if offsets is None:
            offsets = self._arcs[key] = frozenset(x for x in disc(reach) if in_arc((0, 0), facing, x))
        return offsets

    def plain_action(self, kind: str, player: int) -> Action:
        """An action without arguments (end_turn, concede, draws, quick_start)."""
        key = (kind, player)
        action = self._actions.get(key)
        if action is None:
            action = self._actions[key] = Action(kind, player, {})
        return action

    def hex_action(self, kind: str, player: int, h: Hex) -> Action:
        """A place_tile action."""
        key = (kind, player, h)
        action = self._actions.get(key)
        if action is None:
            action = self._actions[key] = Action(kind, player, {"hex": self.ids[h]})
        return action

    def deploy_action(self, player: int, uid: str, h: Hex) -> Action:
        """A deploy action (built once, like every action here)."""
        key = ("deploy", uid, h)
        action = self._actions.get(key)
        if action is None:
            action = self._actions[key] = Action("deploy", player, {"unit": uid, "hex": self.ids[h]})
        return action

    def moves_of(self, uid: str) -> dict[int, Action]:
        """The move actions of a unit made so far, by place (`6 * cell + facing`)."""
        return self._moves.setdefault(uid, {})

    def move_action(self, player: int, uid: str, place: int) -> Action:
        """A move action to a place (`6 * cell + facing`), kept in the unit's move table."""
        known = self.moves_of(uid)
        action = known.get(place)
        if action is None:
            action = known[place] = Action("move", player, {"unit": uid, "to": self.ids[self.cells[place // 6]],
                                                            "facing": place % 6})
        return action

    def attack_action(self, player: int, uid: str, target: str, mode: str) -> Action:
        """A charge ("melee") or fire action."""
        key = ("attack", uid, target, mode)
        action = self._actions.get(key)
        if action is None:
            action = self._actions[key] = Action("attack", player, {"unit": uid, "target": target, "mode": mode})
        return action

    def card_action(self, kind: str, player: int, card: str, args: Mapping[str, Any]) -> Action:
        """A play_card or discard_card action of `card` with the choices in `args` (`card_targets`)."""
        key = (kind, player, card, *[(k, tuple(v) if isinstance(v, list) else v) for k, v in args.items()])
        action = self._actions.get(key)
        if action is None:
            action = self._actions[key] = Action(kind, player, {"card": card, **args})
        return action

    def orders(self, unit: Unit) -> tuple[Action, ...]:
        """The paid pivot, formation and repair actions of a unit, in `legal_actions` order."""
        unit_type = self.unit_types[unit.type]
        formation = unit.formation if unit_type.uses_formations and unit.strength > unit_type.broken_at else None
        damaged = unit.strength < unit_type.strength
        key = ("orders", unit.id, unit.facing, formation, damaged)
        actions = self._orders.get(key)
        if actions is None:
            uid, p = unit.id, unit.player
            out: list[Action] = []
            if unit_type.can_pivot:
                out.extend(Action("pivot", p, {"unit": uid, "facing": f}) for f in range(6) if f != unit.facing)
            if formation is not None:
                out.extend(Action("formation", p, {"unit": uid, "formation": fid})
                           for fid in self.formations if fid != formation)
            if damaged:
                out.append(Action("repair", p, {"unit": uid}))
            actions = self._orders[key] = tuple(out)
        return actions

    def check_options(self, options: Mapping[str, Any]) -> None:
        unknown = sorted(set(options) - set(OPTION_KEYS))
        if unknown:
            raise Refusal(f"Unknown table option {unknown[0]!r} (known: {', '.join(OPTION_KEYS)}).")
        names = options.get("names")
        if names is not None and (not isinstance(names, list | tuple) or len(names) != 2
                                  or not all(isinstance(n, str) and n.strip() for n in names)):
            raise Refusal("Seat names must be a list of two names.")
        for key in ("quick_start", "turn_limit"):
            if not isinstance(options.get(key, False), bool):
                raise Refusal(f"{key} is true or false (not {options[key]!r}).")
        dice = options.get("dice", [])
        if not isinstance(dice, list | tuple) or not all(
                isinstance(d, int) and 1 <= d <= self.rules.die_sides for d in dice):
            raise Refusal(f"Scripted dice must be a list of numbers from 1 to {self.rules.die_sides}.")
        scenario = options.get("scenario")
        if scenario is not None:
            self._check_scenario(scenario)

    def table_options(self, options: Mapping[str, Any], seats: int) -> dict[str, Any]:
        """As every game, and a scenario typed into the app may not deal bonus hands: whoever typed them
        would know the other player's cards."""
        cleaned = super().table_options(options, seats)
        scenario = cleaned.get("scenario")
        if scenario is not None and any(scenario.get("hands", [[], []])):
            raise Refusal("A scenario made in the app cannot deal bonus hands: whoever typed them would know "
                          "the other player's cards. Leave \"hands\" out; players draw their cards in play.")
        return cleaned

    def _check_scenario(self, scenario: Any) -> None:
        """Every part of a scenario checked for shape before its contents, so a malformed one is refused, never a crash."""
        if not isinstance(scenario, Mapping):
            raise Refusal("A scenario must be a table of terrain and units.")
        unknown = sorted(set(scenario) - set(SCENARIO_KEYS))
        if unknown:
            raise Refusal(f"Unknown scenario entry {unknown[0]!r} (known: {', '.join(SCENARIO_KEYS)}).")
        if not isinstance(scenario.get("terrain", {}), Mapping):
            raise Refusal('The scenario\'s "terrain" must be a table of hexes and terrain, like {"3,4": "woods"} '
                          f"(not {scenario['terrain']!r}).")
        units = scenario.get("units", {})
        if not isinstance(units, Mapping) or not all(isinstance(spec, Mapping) for spec in units.values()):
            raise Refusal('The scenario\'s "units" must be a table of units and where they stand, like '
                          f'{{"french-infantry-1": {{"hex": "3,4"}}}} (not {units!r}).')
        for uid, spec in units.items():
            for key in ("strength", "facing"):
                if key in spec and not (isinstance(spec[key], int) and not isinstance(spec[key], bool)):
                    raise Refusal(f"Unit {uid}'s {key} must be a whole number (not {spec[key]!r}).")
        hands = scenario.get("hands", [[], []])
        if not (isinstance(hands, list) and len(hands) == 2
                and all(isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands)):
            raise Refusal('The scenario\'s "hands" must be two lists of bonus card ids, one per player '
                          f"(not {hands!r}).")
        if scenario.get("current_player", 0) not in (0, 1) or isinstance(scenario.get("current_player"), bool):
            raise Refusal(f"The scenario's current_player is 0 or 1 (not {scenario['current_player']!r}).")
        fill = scenario.get("fill")
        if fill is not None and (not isinstance(fill, str) or fill not in self.terrain):
            raise Refusal(f"Unknown terrain {fill!r} in the scenario.")
        ground: dict[Hex, str] = {h: fill for h in self.board} if fill is not None else {
            h: self.rules.start_terrain for row in self.home_hexes for h in row}
        for h, t in dict(scenario.get("terrain", {})).items():
            spot = parse_hex(h)
            if spot is None or spot not in self.board:
                raise Refusal(f"The scenario names hex {h!r}, which is not on the map.")
            if not isinstance(t, str) or t not in self.terrain:
                raise Refusal(f"Unknown terrain {t!r} in the scenario.")
            ground[spot] = t
        taken: set[Hex] = set()
        for uid, spec in dict(scenario.get("units", {})).items():
            if uid not in self.unit_index:
                raise Refusal(f"The scenario names unit {uid!r}, which no army has.")
            unit_type = self.unit_types[self.unit_index[uid][1]]
            h = parse_hex(spec.get("hex"))
            if h is None or h not in self.board:
                raise Refusal(f"Unit {uid} is placed off the map.")
            if h in taken:
                raise Refusal(f"Two units are placed on hex {spec['hex']}.")
            taken.add(h)
            terrain = self.terrain.get(ground.get(h, ""))
            if terrain is None or terrain.impassable or (
                    terrain.infantry_only and not unit_type.enters_infantry_only_terrain):
                raise Refusal(f"Unit {uid} cannot stand on hex {spec['hex']}.")
            if not 0 <= int(spec.get("strength", unit_type.strength)) <= unit_type.strength:
                raise Refusal(f"Unit {uid} has strength 0 to {unit_type.strength}.")
            if spec.get("formation") is not None and (not isinstance(spec["formation"], str)
                                                       or spec["formation"] not in self.formations):
                raise Refusal(f"Unknown formation {spec['formation']!r} for {uid}.")
        copies = {row.id: row.copies for row in self.data.table("bonus_cards")}
        wanted: dict[str, int] = {}
        for hand in scenario.get("hands", [[], []]):
            for design in hand:
                if design not in copies:
                    raise Refusal(f"Unknown bonus card {design!r} in the scenario.")
                wanted[design] = wanted.get(design, 0) + 1
                if wanted[design] > copies[design]:
                    raise Refusal(f"The scenario's hands hold more {design!r} cards than the deck has.")

    def new_state(self, rng: random.Random, options: Mapping[str, Any]) -> HexbattleState:
        self.check_options(options)
        return HexbattleState(self, rng, options)
