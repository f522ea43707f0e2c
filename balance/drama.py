"""The lead over one game: the lead score sampled as each turn begins, and what the report reads from it.

A sample is the move it was taken at and the score's values, one per seat. They are kept flat, in one list of
moves and one of values (`seats` values to a sample), not as a tuple and a list per sample: a hexbattle game
samples its 400 to 900 turns, and every object a game keeps is one the cyclic garbage collector walks again at
each of its passes while the game runs; flat, the samples are two objects whatever the game's length.
"""

from __future__ import annotations

from bisect import bisect_right


class Leads:
    """The samples of one game, in the order taken (their moves never decrease)."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.moves: list[int] = []
        self.values: list[float] = []

    def add(self, move: int, values: list[float]) -> None:
        self.values.extend(values)
        self.moves.append(move)

    def _sample(self, i: int) -> list[float]:
        return self.values[i * self.seats:(i + 1) * self.seats]

    def at(self, move: int) -> list[float] | None:
        """The scores of the last sample taken at or before `move` (None: none was)."""
        i = bisect_right(self.moves, move) - 1
        return self._sample(i) if i >= 0 else None

    def same_since(self, move: int) -> bool:
        """Whether the last sample's scores are those of the last one taken at or before `move`."""
        return self._sample(len(self.moves) - 1) == self.at(move)

    def changes(self) -> int:
        """How many times the lead passed from one seat to another (a tie in between is no change)."""
        changes, last = 0, None
        for i in range(len(self.moves)):
            now = _leader(self._sample(i))
            if now is not None:
                if last is not None and now != last:
                    changes += 1
                last = now
        return changes

    def trailed(self, winner: int | None, moves: int) -> bool | None:
        """Whether the winner was behind at the game's midpoint (None: no winner)."""
        if winner is None:
            return None
        middle = self.at(moves // 2)
        assert middle is not None  # the opening position is sampled at move 0
        return middle[winner] < max(middle)


def _leader(values: list[float]) -> int | None:
    top = max(values)
    leaders = [p for p, v in enumerate(values) if v == top]
    return leaders[0] if len(leaders) == 1 else None
