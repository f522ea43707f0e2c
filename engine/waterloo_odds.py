"""Exact odds of each Waterloo combo being the best of a five-card hand dealt from the shipped deck.

Counting, not sampling. A combo never depends on which officer rank is present nor on which
value a set has, so the designs are split into groups (each troop kind; all officers; each
other kind) and each group's share of a hand is reduced to a part: for troops the sorted set
sizes with militia kept apart, otherwise just how many. A hand shape is one part per group;
it is scored once, through the ordinary evaluator, on a representative hand, and weighted by
the number of ways to pick physical cards for it, out of C(deck, 5).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from math import comb, prod

from cards.load import GameData
from engine.waterloo_hands import TROOP_CODES, Design, Evaluator, hands_of

# A group's share of a hand: part key -> (cards it takes, ways to pick them, representative design indices).
Parts = dict[tuple[int, ...], tuple[int, int, tuple[int, ...]]]


def _parts(designs: Sequence[Design], size: int, troops: bool) -> Parts:
    parts: Parts = {}
    for k in range(size + 1):
        for local in hands_of(designs, k):
            counts = {i: local.count(i) for i in set(local)}
            if troops:
                key = tuple(sorted(c * 2 + designs[i].militia for i, c in counts.items()))
            else:
                key = (k,)
            ways = prod(comb(designs[i].copies, c) for i, c in counts.items())
            rep = tuple(designs[i].index for i in local)
            old = parts.get(key)
            parts[key] = (k, ways + (old[1] if old else 0), old[2] if old else rep)
    return parts


def _groups(evaluator: Evaluator) -> list[list[Design]]:
    by_kind: dict[int, list[Design]] = {}
    for d in evaluator.designs:
        if d.copies:
            by_kind.setdefault(d.kind, []).append(d)
    return list(by_kind.values())


def _shapes(groups: list[Parts], size: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """(ways, representative hand) for every hand shape of `size` cards."""
    if not groups:
        if size == 0:
            yield 1, ()
        return
    for k, ways, rep in groups[0].values():
        if k <= size:
            for more, rest in _shapes(groups[1:], size - k):
                yield ways * more, rep + rest


def combo_counts(data: GameData) -> dict[str, int]:
    """How many of the C(deck, 5) physical hands have each combo as their best."""
    evaluator = Evaluator(data)
    size = data.rules.hand_size
    parts = [_parts(g, size, g[0].kind in TROOP_CODES) for g in _groups(evaluator)]
    counts = dict.fromkeys(evaluator.order, 0)
    for ways, hand in _shapes(parts, size):
        counts[evaluator.score_designs(hand).combo] += ways
    return counts


def combo_odds(data: GameData) -> list[tuple[str, Fraction]]:
    """(combo display name, exact probability it is the best combo of a dealt hand), in table order."""
    counts = combo_counts(data)
    total = comb(len(data.deck()), data.rules.hand_size)
    names = {c.id: c.name for c in data.rules.combos}
    return [(names[c], Fraction(n, total)) for c, n in counts.items()]


