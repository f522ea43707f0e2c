"""Hexbattle positions: one state of a battle, the State interface, legal actions and the dispatch of actions.

The state holds every piece of the position, declared here; the rules are functions of it, one module per
concern: setup and tiles (`hexbattle_setup`), movement (`hexbattle_move`), sight and arcs
(`hexbattle_sight`), attacks (`hexbattle_attack`), guards (`hexbattle_guards`), bonus cards
(`hexbattle_cards`), orders (`hexbattle_orders`), turns and victory (`hexbattle_victory`) and what players
read (`hexbattle_view`). Each action kind is a `Kind` kept with its concern; `KINDS` lists them, and `verify`
and `_apply` are the one gate: who may act and in which phase here, then the kind's own checks and effect.
The few queries the companion and tests ask of a position are methods here that call those functions.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from mypy_extensions import mypyc_attr

from cards.schemas.hexbattle import Formation, Terrain, UnitType
from engine import hexbattle_attack as attack
from engine import hexbattle_cards as bonus
from engine import hexbattle_move as movement
from engine import hexbattle_orders as orders
from engine import hexbattle_setup as setup
from engine import hexbattle_sight as sight
from engine import hexbattle_victory as victory
from engine import hexbattle_view as words
from engine.core import Action, Refusal, Schema, State, Told
from engine.hexbattle_hidden import resample
from engine.hexbattle_pieces import AttackEntry, CacheKey, Guard, Reach, Sight, TurnEffects, Unit
from engine.hexgrid import Hex
from engine.kinds import Kind, schema

if TYPE_CHECKING:
    from engine.hexbattle_game import HexbattleGame


KINDS: dict[str, Kind[HexbattleState]] = {
    "deploy": setup.DEPLOY, "quick_start": setup.QUICK_START, "concede": victory.CONCEDE, "end_turn": victory.END_TURN,
    "draw_terrain": setup.DRAW_TERRAIN, "draw_bonus": bonus.DRAW_BONUS, "place_tile": setup.PLACE_TILE,
    "move": movement.MOVE, "pivot": orders.PIVOT, "attack": attack.ATTACK, "formation": orders.FORMATION,
    "repair": orders.REPAIR, "discard_card": bonus.DISCARD_CARD, "play_card": bonus.PLAY_CARD}
"""Every action kind of Hexbattle, each with its arguments, legality, effect and words in one place."""


@mypyc_attr(serializable=True)
class HexbattleState(State):
    """One position of a Hexbattle."""

    ARGS: ClassVar[Schema] = schema(KINDS)

    game: HexbattleGame
    names: list[str]  # the two seats' names
    dice: list[int]  # scripted dice, used before the random source (R30)
    turn_limit: int | None  # the battle is drawn after this many rounds only when the table asks (R28)
    phase: str  # "deploy", "battle" or "over"
    current: int  # the player to act
    turn: int
    actions_left: int
    actions_granted: int  # the actions this turn has been given, cards included (at most max_actions, R7)
    last_unit: str | None  # the unit that acted last, which may not act next (R6)
    last_was_draw: bool  # the last action drew a bonus card (no two in a row, R6)
    double_time_ready: str | None  # the unit whose attack is free right after its Double Time move (R27)
    effects: TurnEffects  # this turn's offensive cards (R27)
    moved_points: dict[str, int]  # movement points spent this turn by units that move by the turn (R8)
    guards: list[Guard]  # defensive cards in play, face down (R32)
    fog: list[int]  # actions each player loses next turn to Fog of War
    result: str | None
    _winner: int | None
    events: list[dict[str, Any]]  # what the last action did, for the history and the companion
    units: dict[str, Unit]
    at: dict[Hex, str]  # the unit on each occupied hex
    codes: list[int]  # by cell (`HexbattleGame.cells`), its terrain and whether a unit stands there (`code_of`)
    _army: list[list[Unit]]  # each army's units in roster order, so `alive` need not scan both armies
    terrain: dict[Hex, str]  # revealed hexes and their terrain
    tile_deck: list[str]
    pending_tile: str | None  # a drawn tile waiting to be laid (R3)
    tiles_to_place: int  # tiles still to lay this Draw Terrain (Engineers, R27)
    bonus_deck: list[str]
    discard: list[str]
    hands: list[list[str]]
    # Move options by (unit, hex, facing, points), each with the hexes its search looked at and
    # its move actions; an entry is dropped when a unit or tile changes one of those hexes.
    _reach_cache: dict[CacheKey, Reach]
    # Attack actions by (unit, facing, formation, broken), as an AttackEntry.
    _attack_cache: dict[CacheKey, AttackEntry]
    # Each unit's whole share of `legal_actions` (moves, orders, attacks) by everything it depends
    # on but the board, with the unit's epoch when it was made: dropping any of a unit's move or
    # attack entries starts a new epoch for it, so a segment from an older one is not used.
    _segments: dict[tuple[Any, ...], tuple[int, tuple[Action, ...]]]
    _epoch: dict[str, int]
    # The move search's scratch list of fewest points by place (`hexbattle_move.reach`), made at its first search and
    # left clean by each: a state's own, never copied, so that searches in two states (or threads) never share one.
    _best: list[int]

    def __init__(self, game: HexbattleGame, rng: random.Random, options: Mapping[str, Any]) -> None:
        self.game = game
        rules = game.rules
        names = options.get("names") or [a.name for a in game.armies]
        self.names = [str(n) for n in names]
        self.dice = list(options.get("dice", []))
        self.turn_limit = rules.turn_limit if options.get("turn_limit") else None
        self.phase = "deploy"
        self.current = 0
        self.turn = 1
        self.actions_left = 0
        self.actions_granted = 0
        self.last_unit = None
        self.last_was_draw = False
        self.double_time_ready = None
        self.effects = TurnEffects()
        self.moved_points = {}
        self.guards = []
        self.fog = [0, 0]
        self.result = None
        self._winner = None
        self.events = []
        self.units = {}
        self.at = {}
        self._reach_cache = {}
        self._attack_cache = {}
        self._segments = {}
        self._epoch = {}
        self._best = []
        for p, roster in enumerate(game.roster):
            for uid, t in roster:
                unit_type = game.unit_types[t]
                self.units[uid] = Unit(uid, p, t, unit_type.strength, facing=game.home_facing[p],
                                       formation=rules.start_formation if unit_type.uses_formations else None)
        self._army = [[u for u in self.units.values() if u.player == p] for p in (0, 1)]
        self.terrain = {h: rules.start_terrain for row in game.home_hexes for h in row}
        self.codes = [game.code_of(self.terrain.get(h), False) for h in game.cells]
        self.tile_deck = [c.design.id for c in game.data.deck("terrain")]
        rng.shuffle(self.tile_deck)
        self.pending_tile = None
        self.tiles_to_place = 0
        self.bonus_deck = [c.id for c in game.data.deck("bonus_cards")]
        rng.shuffle(self.bonus_deck)
        self.discard = []
        self.hands = [[], []]
        if options.get("scenario") is not None:
            setup.set_scenario(self, options["scenario"])
        elif options.get("quick_start"):
            for p in (0, 1):
                setup.quick_deploy(self, p, rng)
            victory.start_battle(self)

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
        and a cache entry is only ever dropped, never changed. Every attribute is named here (compiled, a state
        has no `__dict__` to copy, `engine.native`): one added to the class is added here too.
        """
        other = HexbattleState.__new__(HexbattleState)  # compiled, `__new__` makes an empty state too (serializable)
        other.game, other.turn_limit, other.phase, other.current = self.game, self.turn_limit, self.phase, self.current
        other.turn, other.actions_left, other.actions_granted = self.turn, self.actions_left, self.actions_granted
        other.last_unit, other.last_was_draw = self.last_unit, self.last_was_draw
        other.double_time_ready, other.result, other._winner = self.double_time_ready, self.result, self._winner
        other.pending_tile, other.tiles_to_place, other.telling = self.pending_tile, self.tiles_to_place, self.telling
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
        other.codes = list(self.codes)
        other._reach_cache = dict(self._reach_cache)
        other._attack_cache = dict(self._attack_cache)
        other._segments = dict(self._segments)
        other._epoch = dict(self._epoch)
        other._best = []
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
        kind = KINDS.get(action.kind)
        return str(action) if kind is None else kind.label(self, action)

    def narrate(self, action: Action) -> list[Told]:
        kind = KINDS.get(action.kind)
        return [] if kind is None else kind.told(self, action)

    def task(self, player: int) -> str:
        return words.task(self, player)

    def forfeits(self, action: Action) -> str | None:
        """Ending the turn with actions left gives them up."""
        n = self.actions_left
        if action.kind != "end_turn" or n <= 0:
            return None
        return f"You still have {n} action{'s' if n != 1 else ''} this turn; ending it gives {'them' if n != 1 else 'it'} up."

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
        for segment in self._unit_segments(player):
            out.extend(segment)
        out.extend(self._turn_actions(player))
        out.append(concede)
        return out

    def random_action(self, rng: random.Random, player: int | None = None) -> Action | None:
        """`State.random_action`: in battle it counts the choices and takes the one picked from its unit's
        segment, instead of listing them all (the same pick from the same `rng`: concede, listed last, is
        never picked there, as something else is always left)."""
        if self.phase != "battle" or self.pending_tile is not None or player not in (None, self.current):
            return super().random_action(rng, player)
        segments = self._unit_segments(self.current)
        rest = self._turn_actions(self.current)
        i = rng.randrange(sum(map(len, segments)) + len(rest))
        for segment in segments:
            if i < len(segment):
                return segment[i]
            i -= len(segment)
        return rest[i]

    def _turn_actions(self, player: int) -> list[Action]:
        """The actions of a battle turn after the units' own: drawing, the bonus cards in hand, ending the turn."""
        game = self.game
        out: list[Action] = []
        if self.actions_left > 0:
            if self.tile_deck and len(self.terrain) < len(game.board):
                out.append(game.plain_action("draw_terrain", player))
            if bonus.can_draw_bonus(self):
                out.append(game.plain_action("draw_bonus", player))
        if self.hands[player]:
            bonus.card_actions(self, player, out)
        out.append(game.plain_action("end_turn", player))
        return out

    def _unit_segments(self, player: int) -> list[tuple[Action, ...]]:
        """Each of the player's units' moves, orders and attacks, in roster order: its segment, made anew only
        when what it depends on changed (the turn's facts are read once for all units: this runs every move)."""
        last, ready = self.last_unit, self.double_time_ready
        paid = self.actions_left > 0
        can_move = paid or self.effects.free_moves > 0
        barrage = self.effects.barrage
        segments, epochs = self._segments, self._epoch
        enemies: list[Unit] | None = None  # listed when a unit's attacks are worked out anew, not every move
        out: list[tuple[Action, ...]] = []
        for unit in self._army[player]:  # `alive(player)`, without making its list
            if unit.hex is None or unit.destroyed:
                continue
            uid = unit.id
            fresh = uid != last
            if not fresh and uid != ready:
                continue
            moves = fresh and can_move
            orders = fresh and paid
            attacks = paid or uid in barrage or uid == ready
            mp = movement.movement_points(self, unit) if moves else 0
            key = (uid, unit.hex, unit.facing, unit.formation, unit.strength, mp, orders, attacks)
            epoch = epochs.get(uid, 0)
            segment = segments.get(key)
            if segment is None or segment[0] != epoch:
                found: list[Action] = []
                if moves:
                    reach = movement.reach(self, unit, mp)
                    if reach is not None:
                        found.extend(reach.moves)
                if orders:
                    found.extend(self.game.orders(unit))
                if attacks:
                    if enemies is None:
                        enemies = self.alive(1 - player)
                    found.extend(attack.attacks(self, unit, enemies))
                segment = segments[key] = (epoch, tuple(found))
            out.append(segment[1])
        return out

    def verify(self, action: Action) -> None:
        """Who may act and in which phase, then the kind's own checks."""
        if action.player not in (0, 1):
            if action.kind == "concede":
                raise Refusal("Only a player in this battle can concede; spectators cannot.")
            raise Refusal("Only the two players can act in this battle.")
        if self.phase == "over":
            raise Refusal("The battle is over.")
        kind = KINDS.get(action.kind)
        if kind is not None and not kind.phases:  # concede: either player, at any moment (R26)
            kind.verify(self, action)
            return
        if action.player != self.current:
            raise Refusal(f"It is {self.names[self.current]}'s turn.")
        phase = "deploy" if self.phase == "deploy" else "tile" if self.pending_tile is not None else "battle"
        if kind is None or phase not in kind.phases:
            if phase == "deploy":
                raise Refusal("Deploy your units first.")
            if self.pending_tile is not None:
                raise Refusal(f"Place the drawn {self.game.terrain[self.pending_tile].name} tile first.")
            raise Refusal(f"Unknown action '{action.kind}'.")
        kind.verify(self, action)

    def _apply(self, action: Action, rng: random.Random) -> None:
        self._act(action, rng)
        if self.telling is not None:
            words.tell_events(self)

    def _act(self, action: Action, rng: random.Random) -> None:
        self.events = []
        KINDS[action.kind].apply(self, action, rng)
