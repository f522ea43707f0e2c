"""Position scores: how well each seat stands, for a greedy move and for a search cut short.

A score is a list with one value per seat, each between 0 and 1, read off a position the searcher
is allowed to hold: a re-dealt copy (`State.resample`) for a fair bot, the real one only for the
all-seeing ceiling. A finished game scores its result (1 the winner, 0 the others, a draw shared).
Each game's material count is the simplest thing that tracks who is winning; the weights are
measured guesses (docs/bots.md), not rules, so they live with the bots, not in `cards/`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

from engine.core import State

Score = Callable[[State, int], list[float]]
"""(position, number of seats) -> one value in [0, 1] per seat."""


def result(state: State, seats: int) -> list[float]:
    """A finished game's result: the winner 1, the others 0; no winner shares it."""
    won = state.winner
    if won is None:
        return [1.0 / seats] * seats
    return [1.0 if p == won else 0.0 for p in range(seats)]


def _shares(amounts: list[float]) -> list[float]:
    """Each seat's share of a material total (equal shares when there is none)."""
    total = sum(amounts)
    if total <= 0:
        return [1.0 / len(amounts)] * len(amounts)
    return [a / total for a in amounts]


def _two(lead: float) -> list[float]:
    """Seat 0's lead in [-1, 1] as two scores that add up to 1."""
    mine = 0.5 + 0.5 * max(-1.0, min(1.0, lead))
    return [mine, 1.0 - mine]


def warfare(state: Any, seats: int) -> list[float]:
    """Troop points lead, with a hand's cards worth a little (they are the next attacks and replies)."""
    start = state.game.rules.starting_troops
    troops, hands = state.troops, state.hands
    lead = (troops[0] - troops[1]) / start + 0.05 * (len(hands[0]) - len(hands[1]))
    return _two(lead)


def waterloo(state: Any, seats: int) -> list[float]:
    """Each seat's share of the chips, counting what it has at stake in the hand now."""
    return _shares([0.0 if state.out[p] else float(state.chips[p] + state.bets[p]) for p in range(seats)])


def imperial(state: Any, seats: int) -> list[float]:
    """Cards in hand and in reserve: a side with none left is routed (R16)."""
    sizes = [float(sum(len(cards) for cards in state.hands[p].values()) + state.reserves[p]) for p in range(seats)]
    return _shares(sizes)


MEDIEVAL_STRENGTH = 0.2
"""What each point of a medieval card's strength adds to its worth as a card left (1): a strong card lost
costs more than a weak one. Measured against counting cards alone (docs/bots.md)."""


@cache
def _card_worth(game: Any) -> tuple[float, ...]:
    """Each medieval card's worth as a card left, by its index (worked out once per game)."""
    return tuple(1.0 + MEDIEVAL_STRENGTH * (value + (0 if event else amount))
                 for value, amount, event in zip(game.value, game.amount, game.event))


def medieval(state: Any, seats: int) -> list[float]:
    """Cards left to each side, each worth 1 and a fifth of its strength (its value, and a fighter's or
    character's bonus): the war is lost by running out of cards, and strong cards are what win battles."""
    worth = _card_worth(state.game)
    left = []
    for p in range(seats):
        piles = state.decks[p] + state.survivors[p] + state.hands[p] + state.beside[p]
        left.append(sum(worth[c] for c in piles) + sum(worth[c] for column in state.table for c, _ in column[p]))
    return _shares(left)


@lru_cache(maxsize=8)
def _gone(game: Any) -> tuple[dict[Any, float], ...]:
    """Per seat, how far each hex is from the seat's home row, as a share of the board's depth (worked out once
    per game: a balance game reads the score as every turn begins, 800 to 2,000 times in a random battle)."""
    span = max(1, game.rows - 1)
    return tuple({h: abs(row - home) / span for h, row in game.row_of.items()} for home in game.home_row)


def hexbattle(state: Any, seats: int) -> list[float]:
    """Strength left on the board, and how far the best infantry has gone towards the enemy's edge (R25, R29)."""
    game = state.game
    infantry = game.infantry_types
    gone = _gone(game)
    strength0, progress0 = _side(state.alive(0), gone[0], infantry)
    strength1, progress1 = _side(state.alive(1), gone[1], infantry)
    total = strength0 + strength1
    lead = (strength0 - strength1) / total if total else 0.0
    return _two(0.8 * lead + 0.2 * (progress0 - progress1))


def _side(units: list[Any], gone: dict[Any, float], infantry: frozenset[str]) -> tuple[int, float]:
    """One side's strength on the board, and its best infantry's way towards the enemy's edge, in one loop with
    local sums: each field of a compiled unit costs Python about 240 instructions to read (measured), so it is
    read once."""
    strength, best = 0, 0.0
    for unit in units:
        strength += unit.strength
        if unit.type in infantry:
            far = gone[unit.hex]
            if far > best:
                best = far
    return strength, best


SCORES: dict[str, Score] = {"warfare": warfare, "waterloo": waterloo, "imperial": imperial,
                            "medieval": medieval, "hexbattle": hexbattle}


def score(game_id: str, state: State, seats: int) -> list[float]:
    """The position's score per seat: the result once the game is over, else the game's material count."""
    if state.is_terminal:
        return result(state, seats)
    return SCORES[game_id](state, seats)
