"""Hexbattle positions: one state of a battle, the State interface, legal actions and the dispatch of actions.

The state holds every piece of the position, declared here; the rules are functions of it, one module per
concern: setup and tiles (`hexbattle_setup`), movement (`hexbattle_move`), sight and arcs
(`hexbattle_sight`), attacks (`hexbattle_attack`), guards (`hexbattle_guards`), bonus cards
(`hexbattle_cards`), turn ends and victory (`hexbattle_victory`) and what players read (`hexbattle_view`).
The few queries the companion and tests ask of a position are methods here that call those functions.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from engine import hexbattle_attack as attack
from engine import hexbattle_cards as bonus
from engine import hexbattle_move as movement
from engine import hexbattle_setup as setup
from engine import hexbattle_sight as sight
from engine import hexbattle_victory as victory
from engine import hexbattle_view as words
from cards.schemas.hexbattle import Formation, Terrain, UnitType
from engine.core import Action, Arg, Refusal, State, Told
from engine.hexbattle_hidden import resample
from engine.hexbattle_pieces import UNIT_ACTIONS, Guard, Reach, Sight, TurnEffects, Unit
from engine.hexgrid import Hex, hex_from_id, neighbour, parse_hex

if TYPE_CHECKING:
    from engine.hexbattle_game import HexbattleGame


class HexbattleState(State):
    """One position of a Hexbattle."""

    ARGS = {"deploy": {"unit": str, "hex": Arg(str, 'a hex id like "3,5"')}, "quick_start": {}, "concede": {},
            "end_turn": {}, "draw_terrain": {}, "draw_bonus": {}, "place_tile": {"hex": Arg(str, 'a hex id like "3,5"')},
            "move": {"unit": str, "to": Arg(str, 'a hex id like "3,5"'), "facing": Arg(int, optional=True)},
            "pivot": {"unit": str, "facing": int}, "attack": {"unit": str, "target": str, "mode": str},
            "formation": {"unit": str, "formation": str}, "repair": {"unit": str}, "discard_card": {"card": str},
            # a card's other arguments depend on its effect (hexbattle_cards.card_targets)
            "play_card": {"card": str, "unit": Arg(str, optional=True), "units": Arg(list[str], optional=True),
                          "formation": Arg(str, optional=True)}}

    def __init__(self, game: HexbattleGame, rng: random.Random, options: Mapping[str, Any]) -> None:
        self.game = game
        rules = game.rules
        names = options.get("names") or [a.name for a in game.armies]
        self.names = [str(n) for n in names]
        self.dice: list[int] = list(options.get("dice", []))
        # The battle is drawn after this many rounds only when the table asks for it (R28).
        self.turn_limit: int | None = rules.turn_limit if options.get("turn_limit") else None
        self.phase = "deploy"
        self.current = 0
        self.turn = 1
        self.actions_left = 0
        self.actions_granted = 0
        self.last_unit: str | None = None
        self.last_was_draw = False
        self.double_time_ready: str | None = None
        self.effects = TurnEffects()
        # Movement points spent this turn by units that move by the turn (R8).
        self.moved_points: dict[str, int] = {}
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
            setup.set_scenario(self, options["scenario"])
        elif options.get("quick_start"):
            for p in (0, 1):
                setup.quick_deploy(self, p, rng)
            setup.start_battle(self)

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
                                    fx.bold, fx.engineers, set(fx.double_time), dict(fx.cannon), fx.rout,
                                    dict(fx.roll_cards))
        other.moved_points = dict(self.moved_points)
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

    def resample(self, viewer: int | None, rng: random.Random) -> HexbattleState:
        return resample(self, viewer, rng)

    def unit_type(self, unit: Unit) -> UnitType:
        return self.game.unit_types[unit.type]

    def formation(self, unit: Unit) -> Formation:
        """The formation an infantry unit stands in (only units that use formations have one)."""
        if unit.formation is None:
            raise ValueError(f"{unit.id} stands in no formation")
        return self.game.formations[unit.formation]

    def terrain_at(self, h: Hex) -> Terrain | None:
        """The terrain of a hex, or None while it is hidden."""
        t = self.terrain.get(h)
        return None if t is None else self.game.terrain[t]

    def ground(self, unit: Unit) -> Terrain:
        """The terrain under a unit on the board (its hex is revealed: units stand only on revealed hexes)."""
        return self.game.terrain[self.terrain[self.hex_of(unit)]]

    @staticmethod
    def hex_of(unit: Unit) -> Hex:
        """The hex of a unit on the board."""
        if unit.hex is None:
            raise ValueError(f"{unit.id} is not on the board")
        return unit.hex

    def max_strength(self, unit: Unit) -> int:
        return self.unit_type(unit).strength

    def is_broken(self, unit: Unit) -> bool:
        return unit.strength <= self.game.broken_at[unit.type]

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

    def unit_name(self, unit: Unit) -> str:
        name = self.unit_type(unit).name
        copies = self.unit_type(unit).copies
        if copies > 1:
            name += f" {unit.id.rsplit('-', 1)[1]}"
        return f"{self.game.armies[unit.player].colour} {name}"

    # What the companion and the tests ask of a position, answered by the rules' functions.

    def movement_points(self, unit: Unit) -> int:
        return movement.movement_points(self, unit)

    def reachable(self, unit: Unit) -> dict[tuple[Hex, int], int]:
        return movement.reachable(self, unit)

    def move_costs(self, unit: Unit) -> dict[Hex, int]:
        return movement.move_costs(self, unit)

    def sight(self, a: Hex, b: Hex) -> Sight:
        return sight.sight(self, a, b)

    def fire_arc(self, unit: Unit) -> frozenset[Hex]:
        return sight.fire_arc(self, unit)

    def melee_target(self, unit: Unit) -> Unit | None:
        return sight.melee_target(self, unit)

    def roll_cards(self, attacker: Unit) -> list[tuple[str, int]]:
        return attack.roll_cards(self, attacker)

    def melee_modifiers(self, attacker: Unit, defender: Unit, ambush: bool = False,
                        cards: Iterable[tuple[str, int]] | None = None) -> dict[str, Any]:
        return attack.melee_modifiers(self, attacker, defender, ambush, cards)

    def fire_modifiers(self, shooter: Unit, target: Unit, ambush: bool = False,
                       cards: Iterable[tuple[str, int]] | None = None) -> dict[str, Any]:
        return attack.fire_modifiers(self, shooter, target, ambush, cards)

    def label(self, action: Action) -> str:
        return words.label(self, action)

    def narrate(self, action: Action) -> list[Told]:
        return words.narrate(self, action)

    def task(self, player: int) -> str:
        return words.task(self, player)

    def view(self, player: int | None) -> dict[str, Any]:
        return words.view(self, player)

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
            mine = setup.undeployed(self, player)
            hexes = [h for h in game.home_hexes[player] if setup.deploy_hex_ok(self, h)]
            for uid in mine:
                for h in hexes:
                    out.append(game.deploy_action(player, uid, h))
            out.append(game.plain_action("quick_start", player))
            out.append(concede)
            return out
        if self.pending_tile is not None:
            out = [game.hex_action("place_tile", player, h) for h in setup.undiscovered_edge(self)]
            out.append(concede)
            return out
        enemies = self.alive(1 - player)
        for unit in self.alive(player):
            self._unit_actions(unit, enemies, out)
        if self.actions_left > 0:
            if self.tile_deck and len(self.terrain) < len(game.board):
                out.append(game.plain_action("draw_terrain", player))
            if bonus.can_draw_bonus(self):
                out.append(game.plain_action("draw_bonus", player))
        if self.hands[player]:
            bonus.card_actions(self, player, out)
        out.append(game.plain_action("end_turn", player))
        out.append(concede)
        return out

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
        mp = movement.movement_points(self, unit) if moves else 0
        key = (uid, unit.hex, unit.facing, unit.formation, unit.strength, mp, orders, attacks)
        epoch = self._epoch.get(uid, 0)
        segment = self._segments.get(key)
        if segment is None or segment[0] != epoch:
            found: list[Action] = []
            if moves:
                reach = movement.reach(self, unit, mp)
                if reach is not None:
                    found.extend(reach[2])
            if orders:
                found.extend(self.game.orders(unit))
            if attacks:
                found.extend(attack.attacks(self, unit, enemies))
            segment = self._segments[key] = (epoch, tuple(found))
        out.extend(segment[1])

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
            setup.verify_deploy(self, action)
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
            bonus.verify_card(self, action)
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
        verify_unit_action = {"move": movement.verify_move, "pivot": movement.verify_pivot,
                              "attack": attack.verify_attack, "formation": HexbattleState._verify_formation,
                              "repair": HexbattleState._verify_repair}[kind]
        verify_unit_action(self, action, unit)

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

    def _apply(self, action: Action, rng: random.Random) -> None:
        self._act(action, rng)
        if self.telling is not None:
            words.tell_events(self)

    def _act(self, action: Action, rng: random.Random) -> None:
        self.events = []
        kind = action.kind
        if kind == "concede":
            victory.finish(self, 1 - action.player, "concede")
            return
        if self.phase == "deploy":
            setup.apply_deploy(self, action, rng)
            return
        if kind == "place_tile":
            setup.place_tile(self, hex_from_id(action["hex"]))
            return
        if kind == "end_turn":
            victory.end_turn(self)
            return
        if kind == "play_card":
            bonus.play_card(self, action, rng)
            victory.check_victory(self)
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
            bonus.draw_bonus(self, rng)
            self.last_was_draw = True
            return
        self.last_was_draw = False
        if not free:
            self.actions_left -= 1
        if kind == "draw_terrain":
            self.tiles_to_place = max(1, self.effects.engineers)
            self.effects.engineers = 0
            setup.draw_tile(self)
        elif kind == "move":
            if free:
                self.effects.free_moves -= 1
            movement.move(self, action, rng)
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
                attack.melee(self, unit, self.units[action["target"]], rng)
            else:
                attack.fire(self, unit, self.units[action["target"]], rng)
        victory.check_victory(self)
