"""Hexbattle turns and victory: how a turn begins and ends, the turn limit, annihilation, breakthrough and
concession (R7, R25, R26, R28, R29); the end_turn and concede actions."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.core import Action, Told, seat
from engine.hexbattle_pieces import TurnEffects, Unit
from engine.hexgrid import Hex
from engine.kinds import Kind

if TYPE_CHECKING:
    from engine.hexbattle_state import HexbattleState


SEGMENTS_KEPT = 64
"""Segments kept before the stale ones are dropped at a turn's start: about what a battle's sixteen units use."""


def start_battle(state: HexbattleState, first: int = 0) -> None:
    state.phase = "battle"
    state.current = first
    begin_turn(state)


def begin_turn(state: HexbattleState) -> None:
    # Segments of an older epoch are never used again: dropped here once there are many, so the table stays small (a
    # clone copies it), while an army's segments still good from its last turn (units whose ground nothing changed)
    # are kept. Which are dropped when changes nothing but the table's size: a segment's epoch is checked as it is read.
    if len(state._segments) > SEGMENTS_KEPT:
        epoch = state._epoch
        state._segments = {key: entry for key, entry in state._segments.items() if entry[0] == epoch.get(key[0], 0)}
    state.actions_left = max(0, state.game.rules.actions_per_turn - state.fog[state.current])
    state.actions_granted = state.actions_left
    state.fog[state.current] = 0
    state.last_unit = None
    state.last_was_draw = False
    state.double_time_ready = None
    state.effects = TurnEffects()
    state.moved_points = {}


def end_turn(state: HexbattleState) -> None:
    p = state.current
    # Guards of the other player have now lasted through this player's full turn (R32).
    state.discard.extend(g.card for g in state.guards if g.owner != p)
    state.guards = [g for g in state.guards if g.owner == p]
    state.events.append({"event": "end_turn", "player": p})
    if p == 1:
        if state.turn_limit is not None and state.turn >= state.turn_limit:
            finish(state, None, "turn_limit")
            return
        state.turn += 1
    state.current = 1 - p
    begin_turn(state)


def broke_through(state: HexbattleState, unit: Unit, start: Hex) -> bool:
    """Whether this Move of the player's own infantry onto a hex of the enemy's starting row has
    won the battle; it is decided at once, before any guard answers the move (R25)."""
    game = state.game
    if (unit.type in game.infantry_types and unit.hex != start
            and game.row_of[state.hex_of(unit)] == game.goal_row[unit.player]):
        finish(state, unit.player, "breakthrough")
        return True
    return False


def check_victory(state: HexbattleState) -> None:
    """Annihilation after any action (R29), the player to move first; breakthrough is decided by a Move (R25)."""
    if state.phase == "over":
        return
    alive = [False, False]
    for p, army in enumerate(state._army):  # one unit standing is enough: the first, most of a battle
        for unit in army:
            if unit.hex is not None and not unit.destroyed:
                alive[p] = True
                break
    for p in (state.current, 1 - state.current):
        if not alive[1 - p]:
            finish(state, p, "annihilation")
            return


def finish(state: HexbattleState, winner: int | None, reason: str) -> None:
    state.phase = "over"
    state._winner = winner
    state.result = reason
    state.events.append({"event": "game_over", "winner": winner, "reason": reason})


def _told_end_turn(state: HexbattleState, action: Action) -> list[Told]:
    """The others' guards that expire are named as they go to the discard pile (R32)."""
    p = action.player
    told = [Told(f"{seat(p)} ended their turn")]
    expiring = [state.game.bonus[g.card].name for g in state.guards if g.owner != p]
    if expiring:
        told.append(Told(f"{seat(1 - p)}'s unused guard cards go to the discard pile: {', '.join(expiring)}",
                         reveals="guard cards that were face down"))
    return told


def _no_check(state: HexbattleState, action: Action) -> None:
    """Always allowed once the action's turn and phase are right (the state checks those)."""


def _concede(state: HexbattleState, action: Action, rng: random.Random) -> None:
    finish(state, 1 - action.player, "concede")


END_TURN: Kind[HexbattleState] = Kind(
    {}, _no_check, lambda state, action, rng: end_turn(state), lambda state, action: "End turn", _told_end_turn,
    phases=("battle",))
CONCEDE: Kind[HexbattleState] = Kind(
    {}, _no_check, _concede, lambda state, action: "Concede the battle",
    lambda state, action: [Told(f"{seat(action.player)} conceded the battle")])

