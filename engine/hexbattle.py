"""Hexbattle: two Napoleonic armies of eight units on a hex map revealed tile by tile.

Player 0 is the first army in `armies.csv` (French, Blue, bottom edge), player 1 the second
(British, Red, top edge). A battle has a deployment phase (one unit at a time, alternating)
and then turns of six actions. Every number comes from `cards/hexbattle`; the rulings the
engine follows are numbered in `docs/rules/hexbattle.md` and cited as R1, R2…

The engine is split by concern: `hexbattle_pieces` (units, guards, effects), `hexbattle_game`
(tables, board geometry, options), `hexbattle_state` (the position, legal actions, the gate every action
passes), and the rules as functions of a position: `hexbattle_setup`, `hexbattle_move`, `hexbattle_sight`,
`hexbattle_attack`, `hexbattle_guards`, `hexbattle_cards`, `hexbattle_orders`, `hexbattle_victory`,
`hexbattle_view`; `hexbattle_turn` is what every action of a turn shares. Each action kind is one
`engine.kinds.Kind` (arguments, legality, effect, words), kept with its concern and listed in
`hexbattle_state.KINDS`. Dice arithmetic is in `hexbattle_combat`, the information set in `hexbattle_hidden`.
This module is the game's entry point and keeps its public names.
"""

from __future__ import annotations

from cards.load import GameData
from engine.hexbattle_combat import CombatResult, FireResult, close_combat, ranged_fire
from engine.hexbattle_game import OPTION_KEYS, HexbattleGame
from engine.hexbattle_pieces import Guard, Sight, TurnEffects, Unit
from engine.hexbattle_sight import line_of_sight
from engine.hexbattle_state import KINDS, HexbattleState


def make_game(data: GameData) -> HexbattleGame:
    return HexbattleGame(data)


__all__ = ["KINDS", "OPTION_KEYS", "CombatResult", "FireResult", "Guard", "HexbattleGame", "HexbattleState",
           "Sight", "TurnEffects", "Unit", "close_combat", "line_of_sight", "make_game", "ranged_fire"]
