"""Hexbattle turn ends and victory: the turn limit, annihilation and breakthrough (R25, R28, R29)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import hexbattle_setup as setup
from engine.hexbattle_pieces import Unit
from engine.hexgrid import Hex

if TYPE_CHECKING:
    from engine.hexbattle_state import HexbattleState


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
    setup.begin_turn(state)


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
    for unit in state.units.values():
        if unit.hex is not None and not unit.destroyed:
            alive[unit.player] = True
    for p in (state.current, 1 - state.current):
        if not alive[1 - p]:
            finish(state, p, "annihilation")
            return


def finish(state: HexbattleState, winner: int | None, reason: str) -> None:
    state.phase = "over"
    state._winner = winner
    state.result = reason
    state.events.append({"event": "game_over", "winner": winner, "reason": reason})
