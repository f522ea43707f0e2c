"""Hexbattle's pieces and markers: units, sight lines, guards in play and the turn's card effects.

Plain values shared by every part of the engine (`engine.hexbattle_state` and the rules' modules).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mypy_extensions import mypyc_attr

from engine.core import Action
from engine.hexgrid import Hex

@mypyc_attr(serializable=True)
@dataclass(slots=True)
class Unit:
    """One counter on (or off) the board (slotted: its fields are read millions of times in a balance run)."""

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


@mypyc_attr(serializable=True)
@dataclass(frozen=True)
class Sight:
    """A line of sight: blocked for certain, or clear except for split hexes that each need a die (R12)."""

    blocked: bool
    blocker: str | None = None
    contested: tuple[str, ...] = ()

    @property
    def clear(self) -> bool:
        return not self.blocked and not self.contested


@mypyc_attr(serializable=True)
@dataclass
class Guard:
    """A defensive card in play, waiting for the enemy action that triggers it."""

    card: str
    owner: int
    effect: str
    amount: int
    unit: str | None = None


@mypyc_attr(serializable=True)
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
    roll_cards: dict[str, str | None] = field(default_factory=dict)
    """The played cards behind charge, volley, cannon and ambush, card id -> its unit (None: any), until spent,
    so a combat's record can name the cards that changed it."""

    def to_json(self) -> dict[str, Any]:
        return {"free_moves": self.free_moves, "charge": self.charge, "volley": self.volley,
                "forced_march": dict(self.forced), "ambush": self.ambush, "barrage": sorted(self.barrage),
                "bold_advance": self.bold, "engineers": self.engineers, "double_time": sorted(self.double_time),
                "cannon_blast": dict(self.cannon), "rout": self.rout}


CacheKey = tuple[object, ...]
"""The key of a cached search (`HexbattleState._reach_cache`, `_attack_cache`): the unit's id and what the search
depends on besides the board. Typed as a tuple of any length so that the compiled rules keep it an object: mypyc
unpacks a fixed-length tuple as it reads one from a dict and builds it anew to delete it (`hexgrid.Hex`)."""


# The cached searches are classes, not tuples, for the same reason: `setup.board_changed` reads every one after
# every move, and compiled, a class's fields are read in place where a tuple's were unpacked and checked one by one.

@mypyc_attr(serializable=True)
class Reach:
    """A unit's cached move search: the places it may end on (`6 * cell + facing`, `HexbattleGame.cells`) with their
    costs, in the order found; every hex the search looked at, as bits (`HexbattleGame.bit`); and the move actions,
    in the same order."""

    def __init__(self, uid: str, ends: dict[int, int], looked: int, moves: tuple[Action, ...]) -> None:
        self.uid = uid
        self.ends = ends
        self.looked = looked
        self.moves = moves


@mypyc_attr(serializable=True)
class AttackEntry:
    """A unit's cached attacks: its player; the hexes they read whatever stands there (its own, its front hex, every
    hex on the sight line to an enemy in its arc); its arc of fire, where only an enemy arriving or leaving changes
    them (a friendly unit there blocks no line the first set does not hold, and a tile revealed there holds no enemy),
    both as bits (`HexbattleGame.bit`); and the charge and fire actions."""

    def __init__(self, uid: str, player: int, read: int, arc: int, actions: tuple[Action, ...]) -> None:
        self.uid = uid
        self.player = player
        self.read = read
        self.arc = arc
        self.actions = actions

