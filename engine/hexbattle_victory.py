"""Hexbattle turn ends and victory: the turn limit, annihilation and breakthrough (R25, R28, R29)."""

from __future__ import annotations


class VictoryMixin:
    """How a turn ends and how the battle is won."""

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
