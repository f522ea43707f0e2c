"""Hexbattle turn ends and victory: the turn limit, annihilation and breakthrough (R25, R28, R29)."""

from __future__ import annotations

from engine.hexbattle_pieces import Unit
from engine.hexgrid import Hex


class VictoryMixin:
    """How a turn ends and how the battle is won."""

    def _end_turn(self) -> None:
        p = self.current
        # Guards of the other player have now lasted through this player's full turn (R32).
        self.discard.extend(g.card for g in self.guards if g.owner != p)
        self.guards = [g for g in self.guards if g.owner == p]
        self.events.append({"event": "end_turn", "player": p})
        if p == 1:
            if self.turn_limit is not None and self.turn >= self.turn_limit:
                self._finish(None, "turn_limit")
                return
            self.turn += 1
        self.current = 1 - p
        self._begin_turn()

    def _broke_through(self, unit: Unit, start: Hex) -> bool:
        """Whether this Move of the player's own infantry onto a hex of the enemy's starting row has
        won the battle; it is decided at once, before any guard answers the move (R25)."""
        game = self.game
        if (unit.type in game.infantry_types and unit.hex != start
                and game.row_of[unit.hex] == game.goal_row[unit.player]):  # type: ignore[index]
            self._finish(unit.player, "breakthrough")
            return True
        return False

    def _check_victory(self) -> None:
        """Annihilation after any action (R29), the player to move first; breakthrough is decided by a Move (R25)."""
        if self.phase == "over":
            return
        alive = [False, False]
        for unit in self.units.values():
            if unit.hex is not None and not unit.destroyed:
                alive[unit.player] = True
        for p in (self.current, 1 - self.current):
            if not alive[1 - p]:
                self._finish(p, "annihilation")
                return

    def _finish(self, winner: int | None, reason: str) -> None:
        self.phase = "over"
        self._winner = winner
        self.result = reason
        self.events.append({"event": "game_over", "winner": winner, "reason": reason})
