"""Hexbattle: two Napoleonic armies of eight units on a hex map revealed tile by tile.

Player 0 is the first army in `armies.csv` (French, Blue, bottom edge), player 1 the second
(British, Red, top edge). A battle has a deployment phase (one unit at a time, alternating)
and then turns of six actions. Every number comes from `cards/hexbattle`; the rulings the
engine follows are numbered in `docs/rules/hexbattle.md` and cited as R1, R2…
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cards.load import GameData
from engine.core import Action, Game, Refusal, State
from engine.hexbattle_combat import (CombatResult, FireResult, card_modifiers, close_combat, ranged_fire,
                                     split_blocks)
from engine.hexgrid import (FACING_NAMES, Hex, bearing, direction_to, disc, distance, from_offset, hex_id,
                            in_arc, neighbour, parse_hex, sight_line, to_offset, turn_steps)

UNIT_ACTIONS = ("move", "pivot", "attack", "formation", "repair")
OPTION_KEYS = ("quick_start", "names", "dice", "scenario")


@dataclass
class Unit:
    """One counter on (or off) the board."""

    id: str
    player: int
    type: str
    strength: int
    hex: Hex | None = None
    facing: int = 0
    formation: str | None = None
    destroyed: bool = False

    @property
    def on_board(self) -> bool:
        return self.hex is not None and not self.destroyed


@dataclass(frozen=True)
class Sight:
    """A line of sight: blocked for certain, or clear except for split hexes that each need a die (R12)."""

    blocked: bool
    blocker: str | None = None
    contested: tuple[str, ...] = ()

    @property
    def clear(self) -> bool:
        return not self.blocked and not self.contested


@dataclass
class Guard:
    """A defensive card in play, waiting for the enemy action that triggers it."""

    card: str
    owner: int
    effect: str
    amount: int
    unit: str | None = None


@dataclass
class TurnEffects:
    """Offensive card effects of the current turn; all of them end with the turn (R27)."""

    free_moves: int = 0
    charge: int = 0
    volley: int = 0
    forced: dict[str, int] = field(default_factory=dict)
    ambush: bool = False
    barrage: set[str] = field(default_factory=set)
    bold: int = 0
    engineers: int = 0
    double_time: set[str] = field(default_factory=set)
    cannon: dict[str, int] = field(default_factory=dict)
    rout: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"free_moves": self.free_moves, "charge": self.charge, "volley": self.volley,
                "forced_march": dict(self.forced), "ambush": self.ambush, "barrage": sorted(self.barrage),
                "bold_advance": self.bold, "engineers": self.engineers, "double_time": sorted(self.double_time),
                "cannon_blast": dict(self.cannon), "rout": self.rout}


Reach = tuple[dict[tuple[Hex, int], int], set[Hex], tuple[Action, ...]]


class HexbattleGame(Game["HexbattleState"]):
    """Rules and tables of Hexbattle, with the board geometry worked out once."""

    id = "hexbattle"

    def __init__(self, data: GameData) -> None:
        self.data = data
        self.rules = data.rules
        self.unit_types = data.by_id("units")
        self.formations = data.by_id("formations")
        self.terrain = data.by_id("terrain")
        self.armies = data.table("armies")
        self.cards = data.card_index
        self.columns = self.rules.map_columns
        self.rows = self.rules.map_rows
        self.board: frozenset[Hex] = frozenset(from_offset(c, r) for c in range(self.columns) for r in range(self.rows))
        self.ids: dict[Hex, str] = {h: hex_id(h) for h in self.board}
        self.around: dict[Hex, tuple[Hex, ...]] = {h: tuple(neighbour(h, d) for d in range(6)) for h in self.board}
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
        self.infantry_types = frozenset(t.id for t in data.table("units") if t.kind == "infantry")
        self.blocks_los = frozenset(t for t, row in self.terrain.items() if row.blocks_los)
        self.no_combat = frozenset(t for t, row in self.terrain.items() if row.no_combat)
        self.takes_all = frozenset(t for t, row in self.terrain.items() if row.takes_all_movement)
        # Movement cost of each terrain a unit may enter: for units that may enter infantry-only ground, and not.
        self.enter_cost: dict[bool, dict[str, int]] = {
            infantry: {t: row.move_cost for t, row in self.terrain.items()
                       if not row.impassable and (infantry or not row.infantry_only)} for infantry in (False, True)}
        # The radius within which a change of unit or tile can change a unit's attacks: its range
        # (sight lines lie inside it) or its front hex, with a hex to spare.
        self.attack_radius = {t.id: max(t.range, 1) + 1 for t in data.table("units")}
        # Actions are immutable values, so each distinct one is built once and handed out by every
        # state of this game: building them was most of the cost of `legal_actions`.
        self._actions: dict[tuple[Any, ...], Action] = {}
        self._orders: dict[tuple[Any, ...], tuple[Action, ...]] = {}
        self._zones: dict[tuple[Hex, int], frozenset[Hex]] = {}
        self._fire_zones: dict[tuple[Hex, int, int, int], frozenset[Hex]] = {}
        self._arcs: dict[tuple[int, int, int], frozenset[Hex]] = {}
        self._moves: dict[str, dict[tuple[Hex, int], Action]] = {}

    def zone(self, h: Hex, reach: int) -> frozenset[Hex]:
        """The hexes within `reach` of `h` (h included), worked out once per hex and reach."""
        zone = self._zones.get((h, reach))
        if zone is None:
            q, r = h
            board = self.board
            zone = self._zones[(h, reach)] = frozenset(
                x for x in ((q + dq, r + dr) for dq, dr in disc(reach)) if x in board)
        return zone

    def fire_zone(self, h: Hex, facing: int, turn_steps: int, reach: int) -> frozenset[Hex]:
        """The hexes a unit on `h` may fire into: within `reach` and inside the arc of a facing
        at most `turn_steps` from its own (R14, R16), worked out once per hex, facing, steps and reach."""
        key = (h, facing, turn_steps, reach)
        zone = self._fire_zones.get(key)
        if zone is None:
            q, r = h
            board = self.board
            zone = self._fire_zones[key] = frozenset(
                x for x in ((q + dq, r + dr) for dq, dr in self._arc_offsets(facing, turn_steps, reach)) if x in board)
        return zone

    def _arc_offsets(self, facing: int, turn_steps: int, reach: int) -> frozenset[Hex]:
        """Offsets within `reach` inside the arc of a facing at most `turn_steps` from `facing`."""
        key = (facing, turn_steps, reach)
        offsets = self._arcs.get(key)
        if offsets is None:
            facings = [(facing + d) % 6 for steps in range(turn_steps + 1) for d in (steps, -steps)]
            offsets = self._arcs[key] = frozenset(
                x for x in disc(reach) if any(in_arc((0, 0), f, x) for f in facings))
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

    def moves_of(self, uid: str) -> dict[tuple[Hex, int], Action]:
        """The move actions of a unit made so far, by (hex, facing)."""
        return self._moves.setdefault(uid, {})

    def move_action(self, player: int, uid: str, h: Hex, facing: int) -> Action:
        """A move action, kept in the unit's move table."""
        known = self.moves_of(uid)
        action = known.get((h, facing))
        if action is None:
            action = known[(h, facing)] = Action("move", player, {"unit": uid, "to": self.ids[h], "facing": facing})
        return action

    def attack_action(self, player: int, uid: str, target: str, mode: str) -> Action:
        """A charge ("melee") or fire action."""
        key = ("attack", uid, target, mode)
        action = self._actions.get(key)
        if action is None:
            action = self._actions[key] = Action("attack", player, {"unit": uid, "target": target, "mode": mode})
        return action

    def orders(self, unit: Unit) -> tuple[Action, ...]:
        """The paid pivot, formation and repair actions of a unit, in `legal_actions` order."""
        unit_type = self.unit_types[unit.type]
        formation = unit.formation if unit_type.uses_formations and unit.strength > 0 else None
        damaged = unit.strength < unit_type.strength
        key = ("orders", unit.id, unit.facing, formation, damaged)
        actions = self._orders.get(key)
        if actions is None:
            uid, p = unit.id, unit.player
            out = []
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
        dice = options.get("dice", [])
        if not isinstance(dice, list | tuple) or not all(
                isinstance(d, int) and 1 <= d <= self.rules.die_sides for d in dice):
            raise Refusal(f"Scripted dice must be a list of numbers from 1 to {self.rules.die_sides}.")
        scenario = options.get("scenario")
        if scenario is not None:
            self._check_scenario(scenario)

    def _check_scenario(self, scenario: Any) -> None:
        if not isinstance(scenario, Mapping):
            raise Refusal("A scenario must be a table of terrain and units.")
        fill = scenario.get("fill")
        if fill is not None and fill not in self.terrain:
            raise Refusal(f"Unknown terrain {fill!r} in the scenario.")
        ground: dict[Hex, str] = {h: fill for h in self.board} if fill is not None else {
            h: self.rules.start_terrain for row in self.home_hexes for h in row}
        for h, t in dict(scenario.get("terrain", {})).items():
            if parse_hex(h) not in self.board:
                raise Refusal(f"The scenario names hex {h!r}, which is not on the map.")
            if t not in self.terrain:
                raise Refusal(f"Unknown terrain {t!r} in the scenario.")
            ground[parse_hex(h)] = t  # type: ignore[index]
        taken: set[Hex] = set()
        for uid, spec in dict(scenario.get("units", {})).items():
            if uid not in self.unit_index:
                raise Refusal(f"The scenario names unit {uid!r}, which no army has.")
            unit_type = self.unit_types[self.unit_index[uid][1]]
            h = parse_hex(spec.get("hex"))
            if h not in self.board:
                raise Refusal(f"Unit {uid} is placed off the map.")
            if h in taken:
                raise Refusal(f"Two units are placed on hex {spec['hex']}.")
            taken.add(h)
            terrain = self.terrain.get(ground.get(h))  # type: ignore[arg-type]
            if terrain is None or terrain.impassable or (
                    terrain.infantry_only and not unit_type.enters_infantry_only_terrain):
                raise Refusal(f"Unit {uid} cannot stand on hex {spec['hex']}.")
            if not 0 <= int(spec.get("strength", unit_type.strength)) <= unit_type.strength:
                raise Refusal(f"Unit {uid} has strength 0 to {unit_type.strength}.")
            if spec.get("formation") is not None and spec["formation"] not in self.formations:
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


class HexbattleState(State):
    """One position of a Hexbattle."""

    def __init__(self, game: HexbattleGame, rng: random.Random, options: Mapping[str, Any]) -> None:
        self.game = game
        rules = game.rules
        names = options.get("names") or [a.name for a in game.armies]
        self.names = [str(n) for n in names]
        self.dice: list[int] = list(options.get("dice", []))
        self.phase = "deploy"
        self.current = 0
        self.turn = 1
        self.actions_left = 0
        self.actions_granted = 0
        self.last_unit: str | None = None
        self.last_was_draw = False
        self.double_time_ready: str | None = None
        self.effects = TurnEffects()
        self.guards: list[Guard] = []
        self.fog = [0, 0]
        self.result: str | None = None
        self._winner: int | None = None
        self.events: list[dict[str, Any]] = []
        self.units: dict[str, Unit] = {}
        self.at: dict[Hex, str] = {}
        # Move options by (unit, hex, facing, points), each with the hexes its search looked at and
        # its move actions; an entry is dropped when a unit or tile changes one of those hexes.
        self._reach_cache: dict[tuple[str, Hex, int, int], Reach] = {}
        # Attack actions by (unit, facing, formation, broken), each with the hexes its targets and
        # sight lines lie within; a unit or tile placed on one of those hexes drops the entry.
        self._attack_cache: dict[tuple[str, int, str | None, bool], tuple[frozenset[Hex], tuple[Action, ...]]] = {}
        # Each unit's whole share of `legal_actions` (moves, orders, attacks) by everything it depends
        # on but the board, with the unit's epoch when it was made: dropping any of a unit's move or
        # attack entries starts a new epoch for it, so a segment from an older one is not used.
        self._segments: dict[tuple[Any, ...], tuple[int, tuple[Action, ...]]] = {}
        self._epoch: dict[str, int] = {}
        for p, roster in enumerate(game.roster):
            for uid, t in roster:
                unit_type = game.unit_types[t]
                self.units[uid] = Unit(uid, p, t, unit_type.strength, facing=game.home_facing[p],
                                       formation=rules.start_formation if unit_type.uses_formations else None)
        # Each army's units in roster order, so `alive` need not scan both armies.
        self._army: list[list[Unit]] = [[u for u in self.units.values() if u.player == p] for p in (0, 1)]
        self.terrain: dict[Hex, str] = {}
        for row in game.home_hexes:
            for h in row:
                self.terrain[h] = rules.start_terrain
        self.tile_deck = [c.design.id for c in game.data.deck("terrain")]
        rng.shuffle(self.tile_deck)
        self.pending_tile: str | None = None
        self.tiles_to_place = 0
        self.bonus_deck = [c.id for c in game.data.deck("bonus_cards")]
        rng.shuffle(self.bonus_deck)
        self.discard: list[str] = []
        self.hands: list[list[str]] = [[], []]
        if options.get("scenario") is not None:
            self._set_scenario(options["scenario"])
        elif options.get("quick_start"):
            for p in (0, 1):
                self._quick_deploy(p, rng)
            self._start_battle()

    # ----- setup -------------------------------------------------------------------------

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

    # ----- the State interface -----------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.phase == "over" else self.current

    def players_to_act(self) -> list[int]:
        return [] if self.phase == "over" else [self.current]

    @property
    def is_terminal(self) -> bool:
        return self.phase == "over"

    @property
    def winner(self) -> int | None:
        return self._winner

    def roll(self, rng: random.Random) -> int:
        """One die: a scripted value if tests or the companion supplied some, else from `rng`."""
        if self.dice:
            return self.dice.pop(0)
        return rng.randint(1, self.game.rules.die_sides)

    def clone(self) -> HexbattleState:
        """A copy without deepcopy: the game is shared, units, piles and counters are copied.

        Events and cache entries are shared: an event is never changed once its action is over,
        and a cache entry is only ever dropped, never changed.
        """
        other = object.__new__(HexbattleState)
        other.__dict__.update(self.__dict__)
        other.names = list(self.names)
        other.dice = list(self.dice)
        fx = self.effects
        other.effects = TurnEffects(fx.free_moves, fx.charge, fx.volley, dict(fx.forced), fx.ambush, set(fx.barrage),
                                    fx.bold, fx.engineers, set(fx.double_time), dict(fx.cannon), fx.rout)
        other.guards = [Guard(g.card, g.owner, g.effect, g.amount, g.unit) for g in self.guards]
        other.fog = list(self.fog)
        other.events = list(self.events)
        other.units = {uid: Unit(u.id, u.player, u.type, u.strength, u.hex, u.facing, u.formation, u.destroyed)
                       for uid, u in self.units.items()}
        other._army = [[other.units[u.id] for u in army] for army in self._army]
        other.at = dict(self.at)
        other.terrain = dict(self.terrain)
        other._reach_cache = dict(self._reach_cache)
        other._attack_cache = dict(self._attack_cache)
        other._segments = dict(self._segments)
        other._epoch = dict(self._epoch)
        other.tile_deck = list(self.tile_deck)
        other.bonus_deck = list(self.bonus_deck)
        other.discard = list(self.discard)
        other.hands = [list(hand) for hand in self.hands]
        return other

    def play_random(self, rng: random.Random, max_moves: int | None = None, concede: bool = True) -> int:
        """Play uniformly random legal actions (to the end, or `max_moves` of them): the fast path for playouts.

        It makes the same choices, from the same `rng`, as `rng.choice(legal_actions())` followed by
        `apply(action, rng)`, but skips verifying actions it took from the legal list. With
        `concede=False` it chooses as `rng.choice([a for a in legal if a.kind != "concede"])` would:
        conceding is always the last legal action. Returns the number of actions played.
        """
        played = 0
        legal_actions, choice, apply = self.legal_actions, rng.choice, self._apply
        while self.phase != "over" and played != max_moves:
            legal = legal_actions()
            apply(choice(legal if concede else legal[:-1]), rng)
            played += 1
        return played

    # ----- small queries -----------------------------------------------------------------

    def unit_type(self, unit: Unit) -> Any:
        return self.game.unit_types[unit.type]

    def terrain_at(self, h: Hex) -> Any:
        t = self.terrain.get(h)
        return None if t is None else self.game.terrain[t]

    def max_strength(self, unit: Unit) -> int:
        return self.unit_type(unit).strength

    def is_broken(self, unit: Unit) -> bool:
        return unit.strength == 0

    def alive(self, player: int) -> list[Unit]:
        return [u for u in self._army[player] if u.hex is not None and not u.destroyed]

    def unit_at(self, h: Hex) -> Unit | None:
        uid = self.at.get(h)
        return None if uid is None else self.units[uid]

    def can_enter(self, unit: Unit, h: Hex) -> bool:
        """Whether `unit` may stand on `h` (revealed, passable, allowed terrain, empty)."""
        t = self.terrain_at(h)
        if t is None or t.impassable or h in self.at:
            return False
        return not t.infantry_only or self.unit_type(unit).enters_infantry_only_terrain

    def movement_points(self, unit: Unit) -> int:
        game = self.game
        unit_type = game.unit_types[unit.type]
        own_turn = unit.player == self.current
        if unit_type.uses_formations:
            mp = game.formations[unit.formation].movement
            if mp > 0 and own_turn:
                mp += self.effects.bold
        else:
            mp = unit_type.movement
        return mp * self.effects.forced.get(unit.id, 1) if own_turn else mp

    def reachable(self, unit: Unit) -> dict[tuple[Hex, int], int]:
        """Every (hex, facing) the unit can end a Move on, with the fewest movement points it costs (R8–R10)."""
        reach = self._reach(unit, self.movement_points(unit))
        return {} if reach is None else reach[0]

    def _reach(self, unit: Unit, mp: int) -> Reach | None:
        """The unit's cached move search with `mp` points (worked out now if need be), or None if it cannot move."""
        rules = self.game.rules
        if unit.hex is None or mp <= 0:
            return None
        key = (unit.id, unit.hex, unit.facing, mp)
        cached = self._reach_cache.get(key)
        if cached is not None:
            return cached
        game = self.game
        unit_type = game.unit_types[unit.type]
        enter = game.enter_cost[bool(unit_type.enters_infantry_only_terrain)]
        takes_all = game.takes_all
        turn_cost, reverse_cost = rules.turn_cost, rules.reverse_cost
        # Forward always; backwards too for units that may reverse: (direction offset, cost multiplier).
        steps = ((0, 1), (3, reverse_cost)) if unit_type.can_reverse else ((0, 1),)
        terrain, at, around = self.terrain, self.at, game.around
        pop, push = heapq.heappop, heapq.heappush
        start = (unit.hex, unit.facing)
        best: dict[tuple[Hex, int], int] = {start: 0}
        looked = {unit.hex}
        heap = [(0, unit.hex, unit.facing)]
        over = mp + 1
        while heap:
            cost, h, f = pop(heap)
            if best[(h, f)] < cost or cost >= mp:
                continue
            turned = cost + turn_cost
            if turned <= mp:
                for nf in ((f + 1) % 6, (f - 1) % 6):
                    if turned < best.get((h, nf), over):
                        best[(h, nf)] = turned
                        push(heap, (turned, h, nf))
            here_all = terrain[h] in takes_all
            ring = around[h]
            for turn, base in steps:
                target = ring[(f + turn) % 6]
                looked.add(target)
                tid = terrain.get(target)
                if tid is None or target in at or tid not in enter:
                    continue
                nc = mp if here_all or tid in takes_all else cost + base * enter[tid]
                if nc <= mp and nc < best.get((target, f), over):
                    best[(target, f)] = nc
                    push(heap, (nc, target, f))
        del best[start]
        uid, p = unit.id, unit.player
        known = game.moves_of(uid)
        entry = (best, looked, tuple([known[hf] if hf in known else game.move_action(p, uid, *hf) for hf in best]))
        self._reach_cache[key] = entry
        return entry

    def fire_all_round(self, unit: Unit) -> bool:
        if not self.unit_type(unit).uses_formations:
            return False
        t = self.terrain_at(unit.hex)  # type: ignore[arg-type]
        return t.garrison_fire_dice is not None or self.game.formations[unit.formation].fire_all_round

    def fire_facing(self, unit: Unit, target: Hex) -> int | None:
        """The facing the unit fires from at `target` (artillery turns up to its limit, R16), or None."""
        if self.fire_all_round(unit):
            return unit.facing
        for steps in range(self.unit_type(unit).fire_turn_steps + 1):
            for f in ((unit.facing + steps) % 6, (unit.facing - steps) % 6):
                if in_arc(unit.hex, f, target):  # type: ignore[arg-type]
                    return f
        return None

    def fire_dice(self, unit: Unit) -> int:
        unit_type = self.unit_type(unit)
        if not unit_type.uses_formations:
            return unit.strength
        t = self.terrain_at(unit.hex)  # type: ignore[arg-type]
        if t.garrison_fire_dice is not None:
            return min(unit.strength, t.garrison_fire_dice)
        formation = self.game.formations[unit.formation]
        return unit.strength if formation.full_volley else min(unit.strength, formation.fire_dice)


    def _guns_over_units(self, a: Hex) -> bool:
        """Whether the unit on `a` is artillery on terrain that lets guns see over units (R13)."""
        uid = self.at.get(a)
        if uid is None:
            return False
        game = self.game
        return (game.unit_types[self.units[uid].type].kind == "artillery"
                and game.terrain[self.terrain[a]].guns_see_over_units)

    def sight(self, a: Hex, b: Hex) -> Sight:
        """Line of sight from the unit on `a` to `b` (R12, R13)."""
        blocker, contested = self._walk(a, b, self._guns_over_units(a))
        ids = self.game.ids  # a hex that blocks is on the map: hidden or revealed
        if blocker is not None:
            return Sight(True, ids[blocker])
        return Sight(False, None, tuple([ids[h] for h in contested]) if contested else ())

    def _walk(self, a: Hex, b: Hex, guns_over_units: bool) -> tuple[Hex | None, list[Hex]]:
        """The first hex that blocks the line for certain (or None), and the split hexes that may."""
        terrain, at, board, walls = self.terrain, self.at, self.game.board, self.game.blocks_los
        units_block = not guns_over_units
        contested: list[Hex] = []
        for step in sight_line(a, b):
            for h in step:
                # A hex blocks when hidden, when its terrain blocks sight, or when a unit stands on it
                # (unless guns on a hill look over units).
                t = terrain.get(h)
                if (h in board) if t is None else (t in walls or (units_block and h in at)):
                    if len(step) == 1:
                        return h, contested
                    contested.append(h)
        return None, contested

    def fire_targets(self, unit: Unit, enemies: list[Unit] | None = None) -> list[Unit]:
        """Enemy units this unit may fire at now (range, arc, terrain, sight not blocked for certain)."""
        unit_type = self.game.unit_types[unit.type]
        reach = unit_type.range
        here = unit.hex
        if reach <= 0 or here is None or unit.destroyed or unit.strength == 0:
            return []
        terrain, no_combat = self.terrain, self.game.no_combat
        if terrain[here] in no_combat:
            return []
        if self.fire_all_round(unit):
            zone = self.game.zone(here, reach)
        else:
            zone = self.game.fire_zone(here, unit.facing, unit_type.fire_turn_steps, reach)
        near = [enemy for enemy in (self.alive(1 - unit.player) if enemies is None else enemies)
                if enemy.hex in zone and terrain[enemy.hex] not in no_combat]  # type: ignore[index]
        if not near:
            return near
        guns_over_units = self._guns_over_units(here)
        return [enemy for enemy in near
                if self._walk(here, enemy.hex, guns_over_units)[0] is None]  # type: ignore[arg-type]

    def melee_target(self, unit: Unit) -> Unit | None:
        """The enemy in the unit's front hex, if the unit may charge it (R17)."""
        game = self.game
        unit_type = game.unit_types[unit.type]
        here = unit.hex
        if not unit_type.can_melee or unit.strength == 0 or here is None or unit.destroyed:
            return None
        if unit_type.uses_formations and not game.formations[unit.formation].can_charge:
            return None
        terrain, no_combat = self.terrain, game.no_combat
        if terrain[here] in no_combat:
            return None
        uid = self.at.get(game.around[here][unit.facing])
        if uid is None:
            return None
        enemy = self.units[uid]
        if enemy.player == unit.player or terrain[enemy.hex] in no_combat:  # type: ignore[index]
            return None
        return enemy

    def undiscovered_edge(self) -> list[Hex]:
        """Hidden hexes next to a revealed one: where a drawn tile may go (R3)."""
        terrain, around = self.terrain, self.game.around
        return [h for h in self.game.offset_order
                if h not in terrain and any(n in terrain for n in around[h])]

    # ----- legal actions -----------------------------------------------------------------

    def legal_actions(self, player: int | None = None) -> list[Action]:
        if self.phase == "over":
            return []
        if player is None:
            player = self.current
        game = self.game
        if player != self.current:
            return [game.plain_action("concede", player)] if player in (0, 1) else []
        concede = game.plain_action("concede", player)
        out: list[Action] = []
        if self.phase == "deploy":
            mine = self._undeployed(player)
            hexes = [h for h in game.home_hexes[player] if self._deploy_hex_ok(h)]
            for uid in mine:
                for h in hexes:
                    out.append(game.deploy_action(player, uid, h))
            out.append(game.plain_action("quick_start", player))
            out.append(concede)
            return out
        if self.pending_tile is not None:
            out = [game.hex_action("place_tile", player, h) for h in self.undiscovered_edge()]
            out.append(concede)
            return out
        enemies = self.alive(1 - player)
        for unit in self.alive(player):
            self._unit_actions(unit, enemies, out)
        if self.actions_left > 0:
            if self.tile_deck and len(self.terrain) < len(game.board):
                out.append(game.plain_action("draw_terrain", player))
            if self._can_draw_bonus():
                out.append(game.plain_action("draw_bonus", player))
        if self.hands[player]:
            self._card_actions(player, out)
        out.append(game.plain_action("end_turn", player))
        out.append(concede)
        return out

    def _can_draw_bonus(self) -> bool:
        return (self.actions_left > 0 and not self.last_was_draw
                and len(self.hands[self.current]) < self.game.rules.bonus_hand_limit
                and bool(self.bonus_deck or self.discard))

    def _unit_actions(self, unit: Unit, enemies: list[Unit], out: list[Action]) -> None:
        uid = unit.id
        last, ready = self.last_unit, self.double_time_ready
        if uid == last and uid != ready:
            return
        paid = self.actions_left > 0
        fresh = uid != last
        moves = fresh and (paid or self.effects.free_moves > 0)
        orders = fresh and paid
        attacks = paid or uid in self.effects.barrage or uid == ready
        mp = self.movement_points(unit) if moves else 0
        key = (uid, unit.hex, unit.facing, unit.formation, unit.strength, mp, orders, attacks)
        epoch = self._epoch.get(uid, 0)
        segment = self._segments.get(key)
        if segment is None or segment[0] != epoch:
            found: list[Action] = []
            if moves:
                reach = self._reach(unit, mp)
                if reach is not None:
                    found.extend(reach[2])
            if orders:
                found.extend(self.game.orders(unit))
            if attacks:
                found.extend(self._attacks(unit, enemies))
            segment = self._segments[key] = (epoch, tuple(found))
        out.extend(segment[1])

    def _attacks(self, unit: Unit, enemies: list[Unit]) -> tuple[Action, ...]:
        """The unit's charge and fire actions (cached until a unit or tile is placed near it)."""
        key = (unit.id, unit.facing, unit.formation, unit.strength == 0)
        cached = self._attack_cache.get(key)
        if cached is None:
            game, p, uid = self.game, unit.player, unit.id
            target = self.melee_target(unit)
            melee = () if target is None else (game.attack_action(p, uid, target.id, "melee"),)
            targets = self.fire_targets(unit, enemies)
            fire = tuple([game.attack_action(p, uid, enemy.id, "fire") for enemy in targets]) if targets else ()
            zone = game.zone(unit.hex, game.attack_radius[unit.type])  # type: ignore[arg-type]
            cached = self._attack_cache[key] = (zone, melee + fire)
        return cached[1]

    def _card_actions(self, player: int, out: list[Action]) -> None:
        cards = self.game.cards
        for card in self.hands[player]:
            design = cards[card].design
            for args in self._card_targets(player, design):
                out.append(Action("play_card", player, {"card": card, **args}))
            out.append(Action("discard_card", player, {"card": card}))

    def _card_targets(self, player: int, design: Any) -> list[dict[str, Any]]:
        """Every choice a card can be played with now; an empty list means it cannot be played."""
        mine = self.alive(player)
        effect = design.effect
        if effect == "extra_action":
            return [{}] if self.actions_granted + design.amount <= self.game.rules.max_actions else []
        if design.target == "none":
            return [{}]
        if design.target == "own_unit":
            return [{"unit": u.id} for u in mine]
        damaged = [u.id for u in mine if u.strength < self.max_strength(u)]
        if design.target == "own_damaged_unit":
            return [{"unit": uid} for uid in damaged]
        if design.target == "own_damaged_units":
            return [{"units": list(c)} for n in range(1, design.amount + 1)
                    for c in itertools.combinations(damaged, n)]
        if design.target == "own_infantry":
            infantry = [u for u in mine if self.unit_type(u).uses_formations and not self.is_broken(u)]
            if effect == "regroup":
                return [{"unit": u.id, "formation": fid} for u in infantry
                        for fid in self.game.formations if fid != u.formation]
            return [{"unit": u.id} for u in infantry]
        if design.target == "own_artillery":
            return [{"unit": u.id} for u in mine if self.unit_type(u).kind == "artillery" and not self.is_broken(u)]
        return [{"unit": u.id} for u in mine if self.unit_type(u).range > 0 and not self.is_broken(u)]

    # ----- verify --------------------------------------------------------------------------

    def verify(self, action: Action) -> None:
        if action.player not in (0, 1):
            if action.kind == "concede":
                raise Refusal("Only a player in this battle can concede; spectators cannot.")
            raise Refusal("Only the two players can act in this battle.")
        if self.phase == "over":
            raise Refusal("The battle is over.")
        if action.kind == "concede":
            return
        if action.player != self.current:
            raise Refusal(f"It is {self.names[self.current]}'s turn.")
        if self.phase == "deploy":
            self._verify_deploy(action)
            return
        if self.pending_tile is not None:
            if action.kind != "place_tile":
                raise Refusal(f"Place the drawn {self.game.terrain[self.pending_tile].name} tile first.")
            h = parse_hex(action.get("hex"))
            if h not in self.game.board:
                raise Refusal("That hex is not on the map.")
            if h in self.terrain:
                raise Refusal("That hex is already revealed.")
            if not any(neighbour(h, d) in self.terrain for d in range(6)):
                raise Refusal("A tile must be placed next to a revealed hex.")
            return
        kind = action.kind
        if kind == "end_turn":
            return
        if kind in ("play_card", "discard_card"):
            self._verify_card(action)
            return
        if kind == "draw_terrain":
            self._need_action()
            if not self.tile_deck or len(self.terrain) == len(self.game.board):
                raise Refusal("There are no terrain tiles left to draw.")
            return
        if kind == "draw_bonus":
            self._need_action()
            if self.last_was_draw:
                raise Refusal("You cannot draw two bonus cards in a row; take another action first.")
            if len(self.hands[self.current]) >= self.game.rules.bonus_hand_limit:
                raise Refusal(f"You already hold {self.game.rules.bonus_hand_limit} bonus cards; "
                              "play or discard one first.")
            if not self.bonus_deck and not self.discard:
                raise Refusal("There are no bonus cards left to draw.")
            return
        if kind not in UNIT_ACTIONS:
            raise Refusal(f"Unknown action '{kind}'.")
        unit = self._own_unit(action.get("unit"))
        free = self._is_free(action)
        if not free:
            self._need_action()
        if unit.id == self.last_unit and not (kind == "attack" and unit.id == self.double_time_ready):
            raise Refusal(f"{self.unit_name(unit)} acted last; use a different unit or action first.")
        getattr(self, f"_verify_{kind}")(action, unit)

    def _need_action(self) -> None:
        if self.actions_left <= 0:
            raise Refusal("You have no actions left this turn; end your turn.")

    def _is_free(self, action: Action) -> bool:
        uid = action.get("unit")
        if action.kind == "move":
            return self.effects.free_moves > 0
        if action.kind == "attack":
            return uid in self.effects.barrage or uid == self.double_time_ready
        return False

    def _own_unit(self, uid: Any) -> Unit:
        unit = self.units.get(uid) if isinstance(uid, str) else None
        if unit is None:
            raise Refusal(f"There is no unit called {uid!r}.")
        if unit.player != self.current:
            raise Refusal(f"{self.unit_name(unit)} is not yours.")
        if unit.destroyed:
            raise Refusal(f"{self.unit_name(unit)} has been destroyed.")
        if unit.hex is None:
            raise Refusal(f"{self.unit_name(unit)} is not on the field yet.")
        return unit

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

    def _verify_move(self, action: Action, unit: Unit) -> None:
        h = parse_hex(action.get("to"))
        facing = action.get("facing", unit.facing)
        if h not in self.game.board:
            raise Refusal("That hex is not on the map.")
        if not isinstance(facing, int) or not 0 <= facing < 6:
            raise Refusal("Facing must be a direction from 0 (north) to 5, clockwise.")
        if self.movement_points(unit) <= 0:
            raise Refusal(f"{self.unit_name(unit)} cannot move in its present formation.")
        if h != unit.hex:
            t = self.terrain_at(h)
            if t is None:
                raise Refusal("That hex is not revealed yet; draw terrain first.")
            if t.impassable:
                raise Refusal(f"No unit may enter {t.name}.")
            if t.infantry_only and not self.unit_type(unit).enters_infantry_only_terrain:
                raise Refusal(f"Only infantry may enter {t.name}.")
            if h in self.at:
                raise Refusal("That hex is occupied.")
        if (h, facing) not in self.reachable(unit):
            raise Refusal(f"{self.unit_name(unit)} cannot reach {hex_id(h)} facing "
                          f"{FACING_NAMES[facing]} with {self.movement_points(unit)} movement points.")

    def _verify_pivot(self, action: Action, unit: Unit) -> None:
        facing = action.get("facing")
        if not self.unit_type(unit).can_pivot:
            raise Refusal("Artillery cannot pivot; it turns one step when it fires.")
        if not isinstance(facing, int) or not 0 <= facing < 6:
            raise Refusal("Facing must be a direction from 0 (north) to 5, clockwise.")
        if facing == unit.facing:
            raise Refusal(f"{self.unit_name(unit)} already faces {FACING_NAMES[facing]}.")

    def _verify_formation(self, action: Action, unit: Unit) -> None:
        formation = action.get("formation")
        if not self.unit_type(unit).uses_formations:
            raise Refusal("Only infantry change formation.")
        if self.is_broken(unit):
            raise Refusal(f"{self.unit_name(unit)} is broken and cannot change formation.")
        if formation not in self.game.formations:
            raise Refusal(f"Unknown formation {formation!r} (known: {', '.join(self.game.formations)}).")
        if formation == unit.formation:
            raise Refusal(f"{self.unit_name(unit)} is already in {self.game.formations[formation].name}.")

    def _verify_repair(self, action: Action, unit: Unit) -> None:
        if unit.strength >= self.max_strength(unit):
            raise Refusal(f"{self.unit_name(unit)} is at full strength.")

    def _verify_attack(self, action: Action, unit: Unit) -> None:
        target = self.units.get(action.get("target")) if isinstance(action.get("target"), str) else None
        mode = action.get("mode")
        if target is None or not target.on_board:
            raise Refusal("There is no enemy unit there to attack.")
        if target.player == unit.player:
            raise Refusal("You cannot attack your own unit.")
        if self.is_broken(unit):
            raise Refusal(f"{self.unit_name(unit)} is broken and cannot attack.")
        if self.terrain_at(unit.hex).no_combat:
            raise Refusal(f"Units in {self.terrain_at(unit.hex).name} cannot attack.")
        if self.terrain_at(target.hex).no_combat:
            raise Refusal(f"Units in {self.terrain_at(target.hex).name} cannot be attacked.")
        if mode == "melee":
            if self.melee_target(unit) is not target:
                unit_type = self.unit_type(unit)
                if not unit_type.can_melee:
                    raise Refusal(f"{unit_type.name} never fights in close combat; it fires.")
                if unit_type.uses_formations and not self.game.formations[unit.formation].can_charge:
                    raise Refusal(f"Infantry in {self.game.formations[unit.formation].name} cannot charge.")
                raise Refusal("A charge needs the enemy in the hex the unit faces; pivot first.")
            return
        if mode != "fire":
            raise Refusal("Choose close combat ('melee') or ranged fire ('fire').")
        unit_type = self.unit_type(unit)
        if unit_type.range <= 0:
            raise Refusal(f"{unit_type.name} has no ranged attack.")
        if distance(unit.hex, target.hex) > unit_type.range:  # type: ignore[arg-type]
            raise Refusal(f"{self.unit_name(target)} is out of range ({unit_type.range} hexes).")
        if self.fire_facing(unit, target.hex) is None:  # type: ignore[arg-type]
            raise Refusal(f"{self.unit_name(target)} is outside {self.unit_name(unit)}'s arc of fire; pivot first.")
        seen = self.sight(unit.hex, target.hex)  # type: ignore[arg-type]
        if seen.blocked:
            raise Refusal(f"No line of sight: hex {seen.blocker} is in the way.")

    def _verify_card(self, action: Action) -> None:
        card = action.get("card")
        if card not in self.hands[self.current]:
            raise Refusal("You do not hold that card.")
        if action.kind == "discard_card":
            return
        design = self.game.cards[card].design
        args = {k: v for k, v in action.args.items() if k != "card"}
        if isinstance(args.get("units"), list | tuple):
            # Supply Run: the order the player lists its units in does not matter.
            args["units"] = sorted(args["units"], key=str)
            choices = [{**c, "units": sorted(c["units"])} if "units" in c else c
                       for c in self._card_targets(self.current, design)]
        else:
            choices = self._card_targets(self.current, design)
        if args in choices:
            return
        if design.effect == "extra_action":
            raise Refusal(f"A turn cannot have more than {self.game.rules.max_actions} actions.")
        wanted = {"none": "no choice", "own_unit": "one of your units",
                  "own_damaged_unit": "one of your damaged units",
                  "own_damaged_units": f"up to {design.amount} of your damaged units",
                  "own_infantry": "one of your infantry units (not broken)",
                  "own_artillery": "one of your artillery units (not broken)",
                  "own_shooter": "one of your units that can fire (not broken)"}[design.target]
        if design.effect == "regroup":
            wanted += " and a new formation"
        raise Refusal(f"{design.name} needs {wanted}.")

    # ----- apply ---------------------------------------------------------------------------

    def _apply(self, action: Action, rng: random.Random) -> None:
        self.events = []
        kind = action.kind
        if kind == "concede":
            self._finish(1 - action.player, "concede")
            return
        if self.phase == "deploy":
            self._apply_deploy(action, rng)
            return
        if kind == "place_tile":
            self._place_tile(parse_hex(action["hex"]))  # type: ignore[arg-type]
            return
        if kind == "end_turn":
            self._end_turn()
            return
        if kind == "play_card":
            self._play_card(action, rng)
            self._check_victory()
            return
        if kind == "discard_card":
            self.hands[self.current].remove(action["card"])
            self.discard.append(action["card"])
            self.events.append({"event": "discard", "player": self.current, "card": action["card"]})
            return
        free = self._is_free(action)
        follow_up = self.double_time_ready
        self.double_time_ready = None
        if kind in UNIT_ACTIONS:
            self.last_unit = action["unit"]
        else:
            self.last_unit = None
        if kind == "draw_bonus":
            self.actions_left -= 1
            self._draw_bonus(rng)
            self.last_was_draw = True
            return
        self.last_was_draw = False
        if not free:
            self.actions_left -= 1
        if kind == "draw_terrain":
            self.tiles_to_place = max(1, self.effects.engineers)
            self.effects.engineers = 0
            self._draw_tile()
        elif kind == "move":
            if free:
                self.effects.free_moves -= 1
            self._move(action, rng)
        elif kind == "pivot":
            self.units[action["unit"]].facing = action["facing"]
        elif kind == "formation":
            self.units[action["unit"]].formation = action["formation"]
        elif kind == "repair":
            self.units[action["unit"]].strength += 1
            self.events.append({"event": "repair", "unit": action["unit"]})
        elif kind == "attack":
            unit = self.units[action["unit"]]
            if free and unit.id != follow_up:
                self.effects.barrage.discard(unit.id)
            if action["mode"] == "melee":
                self._melee(unit, self.units[action["target"]], rng)
            else:
                self._fire(unit, self.units[action["target"]], rng)
        self._check_victory()

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

    def _draw_bonus(self, rng: random.Random) -> None:
        if not self.bonus_deck:
            self.bonus_deck = self.discard
            self.discard = []
            rng.shuffle(self.bonus_deck)
            self.events.append({"event": "bonus_reshuffled"})
        card = self.bonus_deck.pop()
        design = self.game.cards[card].design
        if design.kind == "nothing":
            self.discard.append(card)
            self.events.append({"event": "bonus_drawn", "player": self.current, "card": card, "nothing": True})
        else:
            self.hands[self.current].append(card)
            self.events.append({"event": "bonus_drawn", "player": self.current, "card": card,
                                "private_to": self.current})

    def _move(self, action: Action, rng: random.Random) -> None:
        unit = self.units[action["unit"]]
        start = unit.hex
        to = parse_hex(action["to"])
        start_terrain = self.terrain_at(start)  # type: ignore[arg-type]
        self._place(unit, to)
        unit.facing = action.get("facing", unit.facing)
        if to != start and start_terrain.exit_formation is not None and self.unit_type(unit).uses_formations:
            unit.formation = start_terrain.exit_formation
        self.effects.forced.pop(unit.id, None)
        self.events.append({"event": "move", "unit": unit.id, "from": hex_id(start), "to": hex_id(to),  # type: ignore[arg-type]
                            "facing": unit.facing})
        if unit.id in self.effects.double_time:
            self.effects.double_time.discard(unit.id)
            self.double_time_ready = unit.id
        self._reserve_fire(unit, rng)

    def _reserve_fire(self, mover: Unit, rng: random.Random) -> None:
        """A Reserve Fire guard shoots at the first enemy that ends a Move where it can be hit (R33)."""
        for guard in list(self.guards):
            if guard.effect != "reserve_fire" or guard.owner == mover.player:
                continue
            shooter = self.units[guard.unit]  # type: ignore[index]
            if not mover.on_board or not shooter.on_board:
                continue
            if mover in self.fire_targets(shooter):
                self.guards.remove(guard)
                self.discard.append(guard.card)
                self.events.append({"event": "guard", "card": guard.card, "effect": guard.effect,
                                    "player": guard.owner, "unit": shooter.id})
                self._fire(shooter, mover, rng, reserve=True)
                return

    # ----- combat ----------------------------------------------------------------------------

    def roll_cards(self, attacker: Unit) -> list[tuple[str, int]]:
        """The offensive card effects of this turn, as (effect, amount), that may change `attacker`'s next roll."""
        if attacker.player != self.current:
            return []
        fx = self.effects
        return [("charge_dice", fx.charge), ("volley_fire", fx.volley), ("cannon_blast", fx.cannon.get(attacker.id, 0))]

    def melee_modifiers(self, attacker: Unit, defender: Unit, ambush: bool = False,
                        cards: Iterable[tuple[str, int]] | None = None) -> dict[str, Any]:
        """Dice counts and per-die modifiers of a close combat, each part named (R17–R20).

        `cards`: the bonus-card effects on this roll (`card_modifiers`); None means this turn's cards in play."""
        rules = self.game.rules
        a_type, d_type = self.unit_type(attacker), self.unit_type(defender)
        a_bonus = (self.game.formations[attacker.formation].melee_attack_bonus if a_type.uses_formations
                   else a_type.melee_bonus)
        fx = card_modifiers(self.roll_cards(attacker) if cards is None else cards, "melee", a_type.kind)
        a_dice = fx.attack_dice(attacker.strength)
        if d_type.uses_formations:
            formation = self.game.formations[defender.formation]
            d_bonus = formation.melee_defence_bonus
            if a_type.kind == "cavalry" and formation.defence_vs_cavalry is not None:
                d_bonus = formation.defence_vs_cavalry
            if a_type.kind == "infantry" and formation.defence_vs_infantry is not None:
                d_bonus = formation.defence_vs_infantry
            immune = formation.facing_immune
        else:
            d_bonus = d_type.melee_bonus
            immune = False
        terrain = self.terrain_at(defender.hex)  # type: ignore[arg-type]
        terrain_bonus = 0 if ambush or fx.ignore_terrain else terrain.melee_defence_bonus
        if terrain_bonus and terrain.replaces_formation_bonus and d_type.uses_formations:
            d_bonus = 0
        # Adjacent in play; the companion's roller may also ask about units further apart (R20).
        side = (bearing(defender.hex, attacker.hex) - defender.facing) % 6  # type: ignore[arg-type]
        penalty = 0 if immune else [0, rules.front_flank_penalty, rules.side_flank_penalty, rules.rear_penalty][
            turn_steps(0, side)]
        return {"attacker_dice": a_dice, "attacker_modifier": a_bonus,
                "defender_dice": defender.strength + fx.defender_dice, "defender_unit_bonus": d_bonus,
                "defender_terrain_bonus": terrain_bonus, "defender_facing_penalty": penalty,
                "defender_modifier": d_bonus + terrain_bonus - penalty, "attack_side": turn_steps(0, side)}

    def _melee(self, attacker: Unit, defender: Unit, rng: random.Random) -> None:
        ambush = self.effects.ambush
        self.effects.ambush = False
        entrench = self._take_guard("entrench", defender)
        guard = [(entrench.effect, entrench.amount)] if entrench is not None else []
        mods = self.melee_modifiers(attacker, defender, ambush, self.roll_cards(attacker) + guard)
        d_dice = mods["defender_dice"]
        if defender.strength == 0:
            # A broken unit cannot reply; the charge finishes it (R24).
            event = {"event": "melee", "attacker": attacker.id, "defender": defender.id, "modifiers": mods,
                     "result": None, "broken_defender": True}
            self.events.append(event)
            self._lose(defender, 1)
            return
        a_roll = [self.roll(rng) for _ in range(mods["attacker_dice"])]
        d_roll = [self.roll(rng) for _ in range(d_dice)]
        result = close_combat(a_roll, d_roll, mods["attacker_modifier"], mods["defender_modifier"])
        self.events.append({"event": "melee", "attacker": attacker.id, "defender": defender.id, "modifiers": mods,
                            "result": result.to_json()})
        self._lose(attacker, result.attacker_losses, enemy_attack=False)
        self._lose(defender, result.defender_losses)
        if self.effects.rout:
            self.effects.rout = False
            if defender.on_board and result.defender_losses > result.attacker_losses:
                back = neighbour(defender.hex, direction_to(attacker.hex, defender.hex))  # type: ignore[arg-type]
                if back in self.game.board and self.can_enter(defender, back):
                    self._place(defender, back)
                    self.events.append({"event": "rout", "unit": defender.id, "to": hex_id(back)})

    def fire_modifiers(self, shooter: Unit, target: Unit, ambush: bool = False,
                       cards: Iterable[tuple[str, int]] | None = None) -> dict[str, Any]:
        """Dice, hit number and damage multiplier of a ranged attack, each part named (R14–R16).

        `cards`: the bonus-card effects on this roll (`card_modifiers`); None means this turn's cards in play."""
        rules = self.game.rules
        s_type, t_type = self.unit_type(shooter), self.unit_type(target)
        artillery = s_type.kind == "artillery"
        fx = card_modifiers(self.roll_cards(shooter) if cards is None else cards, "fire", s_type.kind)
        dice = fx.attack_dice(self.fire_dice(shooter))
        base = rules.counter_battery_hit_max if artillery and t_type.kind == "artillery" else rules.hit_max
        formation_bonus = 0
        if artillery and t_type.uses_formations:
            formation_bonus = self.game.formations[target.formation].artillery_hit_bonus
        terrain = 0
        if not (ambush or fx.ignore_terrain):
            terrain = (self.terrain_at(shooter.hex).fire_from_modifier  # type: ignore[arg-type]
                       + self.terrain_at(target.hex).fire_into_modifier)  # type: ignore[arg-type]
        point_blank = artillery and distance(shooter.hex, target.hex) <= rules.point_blank_range  # type: ignore[arg-type]
        return {"dice": dice, "base_hit_max": base, "formation_bonus": formation_bonus, "terrain_modifier": terrain,
                "hit_max": max(0, base + formation_bonus + terrain),
                "multiplier": rules.point_blank_multiplier if point_blank else 1, "point_blank": point_blank}

    def _fire(self, shooter: Unit, target: Unit, rng: random.Random, reserve: bool = False) -> None:
        own_turn = shooter.player == self.current
        ambush = own_turn and self.effects.ambush
        if own_turn:
            self.effects.ambush = False
        mods = self.fire_modifiers(shooter, target, ambush)
        if own_turn:
            if self.unit_type(shooter).kind == "artillery":
                self.effects.volley = 0
            self.effects.cannon.pop(shooter.id, None)
        shooter.facing = self.fire_facing(shooter, target.hex)  # type: ignore[arg-type,assignment]
        event: dict[str, Any] = {"event": "fire", "attacker": shooter.id, "defender": target.id, "modifiers": mods,
                                 "reserve_fire": reserve, "result": None}
        self.events.append(event)
        screen = self._screen(target.player)
        if screen is not None:
            event["screened"] = screen.card
            return
        sight = self.sight(shooter.hex, target.hex)  # type: ignore[arg-type]
        sight_dice = {h: self.roll(rng) for h in sight.contested}
        event["sight_dice"] = sight_dice
        blocked = [h for h, d in sight_dice.items() if split_blocks(d, self.game.rules.split_block_max)]
        if blocked:
            event["blocked_by"] = blocked[0]
            return
        roll = [self.roll(rng) for _ in range(mods["dice"])]
        result = ranged_fire(roll, mods["hit_max"], mods["multiplier"])
        event["result"] = result.to_json()
        self._lose(target, result.losses)

    def _screen(self, player: int) -> Guard | None:
        """Spend a Skirmisher Screen of `player` if its screening unit is fit (R35)."""
        screen_type = self.game.rules.screen_unit
        fit = any(u.type == screen_type and u.strength > 0 for u in self.alive(player))
        for guard in self.guards:
            if guard.owner == player and guard.effect == "skirmisher_screen" and fit:
                self.guards.remove(guard)
                self.discard.append(guard.card)
                self.events.append({"event": "guard", "card": guard.card, "effect": guard.effect, "player": player})
                return guard
        return None

    def _take_guard(self, effect: str, unit: Unit) -> Guard | None:
        for guard in self.guards:
            if guard.effect == effect and guard.unit == unit.id:
                self.guards.remove(guard)
                self.discard.append(guard.card)
                self.events.append({"event": "guard", "card": guard.card, "effect": effect,
                                    "player": guard.owner, "unit": unit.id})
                return guard
        return None

    def _lose(self, unit: Unit, losses: int, enemy_attack: bool = True) -> None:
        """Take losses one at a time: strength 0 is broken, a loss at 0 destroys the unit (R23)."""
        if losses <= 0 or unit.destroyed:
            return
        guard = self._take_guard("heroic_defence", unit) if enemy_attack else None
        if guard is not None:
            losses = card_modifiers([(guard.effect, guard.amount)]).losses(losses)
        for _ in range(losses):
            if unit.strength > 0:
                unit.strength -= 1
            else:
                unit.destroyed = True
                self._place(unit, None)
                self.events.append({"event": "destroyed", "unit": unit.id})
                return
        if unit.strength == 0:
            self.events.append({"event": "broken", "unit": unit.id})

    # ----- cards, turns, victory -------------------------------------------------------------

    def _play_card(self, action: Action, rng: random.Random) -> None:
        p = self.current
        card = action["card"]
        design = self.game.cards[card].design
        self.hands[p].remove(card)
        event = {"event": "card_played", "player": p, "card": card, "kind": design.kind}
        if design.kind == "defensive":
            event["private_to"] = p
        self.events.append(event)
        uid = action.get("unit")
        effect, amount = design.effect, design.amount
        if design.kind == "defensive":
            self.guards.append(Guard(card, p, effect, amount, uid))
            return
        self.discard.append(card)
        fx = self.effects
        if effect == "free_move":
            fx.free_moves += amount
        elif effect == "charge_dice":
            fx.charge += amount
        elif effect == "volley_fire":
            fx.volley = amount
        elif effect == "forced_march":
            fx.forced[uid] = amount
        elif effect == "rally":
            unit = self.units[uid]
            unit.strength = min(self.max_strength(unit), unit.strength + amount)
        elif effect == "ambush":
            fx.ambush = True
        elif effect == "fog_of_war":
            self.fog[1 - p] += amount
        elif effect == "extra_action":
            self.actions_left += amount
            self.actions_granted += amount
        elif effect == "artillery_barrage":
            fx.barrage = {u.id for u in self.alive(p) if self.unit_type(u).kind == "artillery"}
        elif effect == "regroup":
            self.units[uid].formation = action["formation"]
        elif effect == "supply_run":
            for other in action["units"]:
                self.units[other].strength += 1
        elif effect == "bold_advance":
            fx.bold += amount
        elif effect == "engineers":
            fx.engineers = amount
        elif effect == "double_time":
            fx.double_time.add(uid)
        elif effect == "cannon_blast":
            fx.cannon[uid] = fx.cannon.get(uid, 0) + amount
        elif effect == "rout":
            fx.rout = True

    def _end_turn(self) -> None:
        p = self.current
        # Guards of the other player have now lasted through this player's full turn (R32).
        self.discard.extend(g.card for g in self.guards if g.owner != p)
        self.guards = [g for g in self.guards if g.owner == p]
        self.events.append({"event": "end_turn", "player": p})
        if p == 1:
            if self.turn >= self.game.rules.turn_limit:
                self._finish(None, "turn_limit")
                return
            self.turn += 1
        self.current = 1 - p
        self._begin_turn()

    def _check_victory(self) -> None:
        """Annihilation (R29), then breakthrough (R25), the player to move first; one pass over the units."""
        game = self.game
        infantry, row_of, goal = game.infantry_types, game.row_of, game.goal_row
        alive = [False, False]
        through = [False, False]
        for unit in self.units.values():
            if unit.hex is not None and not unit.destroyed:
                p = unit.player
                alive[p] = True
                if unit.type in infantry and row_of[unit.hex] == goal[p]:
                    through[p] = True
        order = (self.current, 1 - self.current)
        for p in order:
            if not alive[1 - p]:
                self._finish(p, "annihilation")
                return
        for p in order:
            if through[p]:
                self._finish(p, "breakthrough")
                return

    def _finish(self, winner: int | None, reason: str) -> None:
        self.phase = "over"
        self._winner = winner
        self.result = reason
        self.events.append({"event": "game_over", "winner": winner, "reason": reason})

    # ----- presentation ----------------------------------------------------------------------

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
                          "formation": unit.formation, "broken": unit.strength == 0 and not unit.destroyed,
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


def make_game(data: GameData) -> HexbattleGame:
    return HexbattleGame(data)


def line_of_sight(state: HexbattleState, a: str, b: str) -> Sight:
    """Line of sight between two hexes given as "col,row" ids, seen by the unit on `a` (if any)."""
    ha, hb = parse_hex(a), parse_hex(b)
    if ha not in state.game.board or hb not in state.game.board:
        raise Refusal("Both hexes must be on the map.")
    return state.sight(ha, hb)  # type: ignore[arg-type]


__all__ = ["CombatResult", "FireResult", "HexbattleGame", "HexbattleState", "Sight", "close_combat", "line_of_sight",
           "make_game", "ranged_fire"]
