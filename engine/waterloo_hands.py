"""Waterloo showdown scoring: the best combo of a five-card hand, a total order, and explanations.

A hand is scored by trying every way its wild cards may stand in (or stand idle), finding
for each the highest combo of the table it satisfies, and keeping the strongest result.
Keys are tuples where smaller is stronger, so ranking players is one `sorted`. For speed
the evaluator also builds, on first use, a lookup from the multiset of card designs to a
dense strength number, the way poker evaluators do.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from math import prod
from typing import Any

from cards.load import GameData
from cards.schemas.waterloo import OFFICER_RANKS

INF, CAV, ART, OFF, FB, GREN, ROCK, SCOUT, MAG, DRAG = range(10)
KIND_CODES = {"infantry": INF, "cavalry": CAV, "artillery": ART, "officer": OFF, "fix_bayonets": FB,
              "grenadiers": GREN, "rockets": ROCK, "scout": SCOUT, "magazine": MAG, "dragoon": DRAG}
TROOP_CODES = (INF, CAV, ART)
NO_VALUE = 5      # a card without a value is the weakest kicker
WILD = 10         # added to a set's value when a wild card completes it: weaker than any natural set


@dataclass(frozen=True)
class Design:
    """One card design as the evaluator sees it."""

    index: int
    id: str
    name: str
    kind: int
    value: int
    militia: bool
    copies: int


# A role is one card's place in a combo: (position in the hand, tie-break code, position it stands for or -1).
Role = tuple[int, int, int]
# A set of matching cards: (size, kind, value, wild, positions: the natural cards first, the wild last).
Group = tuple[int, int, int, bool, tuple[int, ...]]


class Layout:
    """One way of reading a hand: its matching sets and its loose cards, indexed for the detectors."""

    __slots__ = ("kinds", "values", "sets", "stands", "_loose_by_kind")

    def __init__(self, kinds: tuple[int, ...], values: tuple[int, ...], sets: list[Group],
                 loose: tuple[int, ...], stands: dict[int, int]) -> None:
        self.kinds, self.values, self.stands = kinds, values, stands
        self.sets = sorted(sets, key=lambda g: g[2] + (WILD if g[3] else 0))
        by_kind: dict[int, list[int]] = {}
        for p in sorted(loose, key=self.code):
            by_kind.setdefault(kinds[p], []).append(p)
        self._loose_by_kind = by_kind

    def code(self, pos: int) -> int:
        return self.values[pos] or NO_VALUE

    def set_roles(self, group: Group) -> list[Role]:
        _size, _kind, value, wild, members = group
        code = value + (WILD if wild else 0)
        return [(p, code, self.stands.get(p, -1)) for p in members]

    def kickers(self, used: set[int]) -> list[Role]:
        rest = [p for p in range(len(self.kinds)) if p not in used]
        return sorted(((p, self.code(p), -1) for p in rest), key=lambda r: r[1])

    def loose_of(self, kind: int) -> list[int]:
        """Loose cards of a kind, strongest first."""
        return self._loose_by_kind.get(kind, [])

    def sets_of(self, size: int, kind: int | None = None, natural: bool = False) -> list[Group]:
        """Sets of exactly `size` cards (of `kind`; without wilds if `natural`), strongest first."""
        return [g for g in self.sets if g[0] == size and (kind is None or g[1] == kind) and not (natural and g[3])]


Detector = Callable[[Layout], list[Role] | None]


def _complete(layout: Layout, roles: list[Role]) -> list[Role]:
    """The named cards of a combo followed by the remaining cards as kickers, strongest first."""
    return roles + layout.kickers({r[0] for r in roles})


def _set(size: int, natural: bool) -> Detector:
    """The strongest set of exactly `size` cards, the rest as kickers."""
    def detect(layout: Layout) -> list[Role] | None:
        groups = layout.sets_of(size, natural=natural)
        return _complete(layout, layout.set_roles(groups[0])) if groups else None
    return detect


def _bombs_away(layout: Layout) -> list[Role] | None:
    officers, grens, rockets = layout.loose_of(OFF), layout.loose_of(GREN), layout.loose_of(ROCK)
    if not officers or len(grens) < 2 or len(rockets) < 2:
        return None
    return [(p, layout.code(p), -1) for p in (officers[0], *grens[:2], *rockets[:2])]


def _cavalry_charge(layout: Layout) -> list[Role] | None:
    cavalry = {layout.values[p]: p for p in layout.loose_of(CAV)}
    infantry = layout.loose_of(INF)
    if sorted(cavalry) != [1, 2, 3, 4] or not infantry:
        return None
    return [(cavalry[v], v, -1) for v in (1, 2, 3, 4)] + [(infantry[0], layout.code(infantry[0]), -1)]


def _four(officer: bool) -> Detector:
    def detect(layout: Layout) -> list[Role] | None:
        groups = layout.sets_of(4, natural=True)
        if not groups:
            return None
        roles = layout.set_roles(groups[0])
        fifth = [p for p in range(len(layout.kinds)) if p not in groups[0][4]]
        if (layout.kinds[fifth[0]] == OFF) != officer:
            return None
        return _complete(layout, roles)
    return detect


def _three_two(kind3: int | None, kind2: int | None) -> Detector:
    def detect(layout: Layout) -> list[Role] | None:
        threes = layout.sets_of(3, kind3, natural=True)
        twos = layout.sets_of(2, kind2)
        if not threes or not twos:
            return None
        return layout.set_roles(threes[0]) + layout.set_roles(twos[0])
    return detect


def _two_pair(officer: bool) -> Detector:
    def detect(layout: Layout) -> list[Role] | None:
        pairs = layout.sets_of(2)
        if len(pairs) < 2:
            return None
        roles = layout.set_roles(pairs[0]) + layout.set_roles(pairs[1])
        rest = _complete(layout, roles)[4:]
        if (layout.kinds[rest[0][0]] == OFF) != officer:
            return None
        return roles + rest
    return detect


def _fix_bayonets(size: int) -> Detector:
    def detect(layout: Layout) -> list[Role] | None:
        bayonets = layout.loose_of(FB)
        if not bayonets:
            return None
        groups = layout.sets_of(size, INF, natural=size > 2)
        if not groups:
            return None
        return _complete(layout, [(bayonets[0], NO_VALUE, -1)] + layout.set_roles(groups[0]))
    return detect


def _battalion(layout: Layout) -> list[Role] | None:
    pairs = layout.sets_of(2, INF)
    cavalry, artillery, officers = layout.loose_of(CAV), layout.loose_of(ART), layout.loose_of(OFF)
    if not pairs or not cavalry or not artillery or not officers:
        return None
    return layout.set_roles(pairs[0]) + [(p, layout.code(p), -1) for p in (cavalry[0], artillery[0], officers[0])]


def _high_card(layout: Layout) -> list[Role] | None:
    return layout.kickers(set())


DETECTORS: dict[str, Detector] = {
    "fix_bayonets_4": _fix_bayonets(4),
    "bombs_away": _bombs_away,
    "fix_bayonets_3": _fix_bayonets(3),
    "cavalry_charge": _cavalry_charge,
    "five_of_a_kind": _set(5, natural=True),
    "battalion": _battalion,
    "fix_bayonets_2": _fix_bayonets(2),
    "four_of_a_kind": _four(officer=False),
    "four_of_a_kind_officer": _four(officer=True),
    "fire_and_advance": _three_two(INF, ART),
    "flank": _three_two(INF, CAV),
    "full_house": _three_two(None, None),
    "trips": _set(3, natural=True),
    "two_pair_officer": _two_pair(officer=True),
    "two_pair": _two_pair(officer=False),
    "pair": _set(2, natural=False),
    "high_card": _high_card,
}

# What each pattern cannot do without: kinds of card present (a bit per kind) and the size of its
# biggest set. A quick test against these lets most hands skip most detectors.
NEEDS: dict[str, tuple[int, int]] = {
    "fix_bayonets_4": (1 << FB | 1 << INF, 4), "bombs_away": (1 << OFF | 1 << GREN | 1 << ROCK, 0),
    "fix_bayonets_3": (1 << FB | 1 << INF, 3), "cavalry_charge": (1 << CAV | 1 << INF, 0),
    "five_of_a_kind": (0, 5), "battalion": (1 << INF | 1 << CAV | 1 << ART | 1 << OFF, 2),
    "fix_bayonets_2": (1 << FB | 1 << INF, 2), "four_of_a_kind": (0, 4), "four_of_a_kind_officer": (1 << OFF, 4),
    "fire_and_advance": (1 << INF | 1 << ART, 3), "flank": (1 << INF | 1 << CAV, 3), "full_house": (0, 3),
    "trips": (0, 3), "two_pair_officer": (1 << OFF, 2), "two_pair": (0, 2), "pair": (0, 2), "high_card": (0, 0),
}


@dataclass(frozen=True)
class Score:
    """A scored hand: its combo, its sort key (smaller is stronger) and each card's role."""

    combo: str
    key: tuple[int, tuple[int, ...]]
    roles: tuple[Role, ...]


@dataclass(frozen=True)
class Explanation:
    """What the companion shows: the combo, the cards in order of weight, and what each wild card stood for."""

    combo: str
    name: str
    cards: tuple[str, ...]
    wilds: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        return {"combo": self.combo, "name": self.name, "cards": list(self.cards), "wilds": dict(self.wilds)}


class Evaluator:
    """Scores Waterloo hands for one deck and combo table."""

    def __init__(self, data: GameData) -> None:
        rows = data.table("cards")
        self.designs: tuple[Design, ...] = tuple(
            Design(i, r.id, r.name, KIND_CODES[r.kind], r.value or 0, r.militia, r.copies) for i, r in enumerate(rows))
        by_id = {d.id: d for d in self.designs}
        self.design_of: dict[str, Design] = {c.id: by_id[c.design.id] for c in data.deck()}
        self.order: tuple[str, ...] = tuple(c.id for c in data.rules.combos)
        self.names: dict[str, str] = {c.id: c.name for c in data.rules.combos}
        self._detectors = tuple((rank, DETECTORS[c], *NEEDS[c]) for rank, c in enumerate(self.order))

    # -- scoring ---------------------------------------------------------------------------
    def score_designs(self, hand: Sequence[int]) -> Score:
        """Score a hand given as design indices."""
        designs = [self.designs[i] for i in hand]
        kinds = tuple(d.kind for d in designs)
        values = tuple(d.value for d in designs)
        present = 0
        for kind in kinds:
            present |= 1 << kind
        best: Score | None = None
        for layout in self._layouts(designs, kinds, values):
            biggest = max((g[0] for g in layout.sets), default=0)
            for rank, detector, kinds_needed, set_needed in self._detectors:
                if best is not None and rank > best.key[0]:
                    break
                if present & kinds_needed != kinds_needed or biggest < set_needed:
                    continue
                roles = detector(layout)
                if roles is not None:
                    key = (rank, tuple(r[1] for r in roles))
                    if best is None or key < best.key:
                        best = Score(self.order[rank], key, tuple(roles))
                    break
        assert best is not None, "high card always matches"
        return best

    def _layouts(self, designs: list[Design], kinds: tuple[int, ...],
                 values: tuple[int, ...]) -> Iterator[Layout]:
        """Every reading of the hand: each wild idle or paired with one natural card it may match."""
        officer = OFF in kinds
        options: list[list[int]] = []
        wilds = [p for p, k in enumerate(kinds) if k in (MAG, DRAG)]
        for p in wilds:
            if kinds[p] == MAG:
                targets = [q for q, k in enumerate(kinds) if k == ART]
            elif officer:
                targets = [q for q, d in enumerate(designs) if d.kind == INF and not d.militia]
            else:
                targets = []
            options.append([-1, *targets])
        for choice in itertools.product(*options):
            taken = [t for t in choice if t >= 0]
            if len(taken) != len(set(taken)):
                continue
            stands = {w: t for w, t in zip(wilds, choice) if t >= 0}
            paired = set(stands) | set(stands.values())
            groups: dict[int, list[int]] = {}
            for p, d in enumerate(designs):
                if d.kind in TROOP_CODES and p not in paired:
                    groups.setdefault(d.index, []).append(p)
            sets: list[Group] = [(len(ps), kinds[ps[0]], values[ps[0]], False, tuple(ps))
                                 for ps in groups.values() if len(ps) > 1]
            sets += [(2, kinds[t], values[t], True, (t, w)) for w, t in stands.items()]
            grouped = {p for g in sets for p in g[4]}
            loose = tuple(p for p in range(len(designs)) if p not in grouped)
            yield Layout(kinds, values, sets, loose, stands)

    def score(self, cards: Sequence[str]) -> Score:
        """Score a hand of physical card ids."""
        return self.score_designs([self.design_of[c].index for c in cards])

    def key(self, cards: Sequence[str]) -> tuple[int, tuple[int, ...]]:
        """Sort key: smaller is stronger; equal keys tie and split the bets."""
        return self.score(cards).key

    def explain(self, cards: Sequence[str]) -> Explanation:
        score = self.score(cards)
        ordered = tuple(cards[p] for p, _code, _stands in score.roles)
        wilds = {cards[p]: self._describe(cards[t]) for p, _code, t in score.roles if t >= 0}
        return Explanation(score.combo, self.names[score.combo], ordered, wilds)

    def _describe(self, card: str) -> str:
        design = self.design_of[card]
        if design.kind == OFF:
            return OFFICER_RANKS[design.value]
        return f"{design.name} {design.value}" if design.value else design.name

    # -- the lookup table ----------------------------------------------------------------------
    @cached_property
    def _primes(self) -> tuple[int, ...]:
        primes: list[int] = []
        n = 2
        while len(primes) < len(self.designs):
            if all(n % q for q in primes):
                primes.append(n)
            n += 1
        return tuple(primes)

    @cached_property
    def table(self) -> dict[int, int]:
        """Prime product of a hand's designs -> dense strength (higher is stronger)."""
        keys: dict[int, tuple[int, tuple[int, ...]]] = {}
        for hand in hands_of(self.designs, 5):
            keys[prod(self._primes[i] for i in hand)] = self.score_designs(hand).key
        ranks = {k: n for n, k in enumerate(sorted(set(keys.values()), reverse=True))}
        return {product: ranks[k] for product, k in keys.items()}

    @cached_property
    def card_primes(self) -> dict[str, int]:
        """Physical card id -> its design's prime; a hand's product names its design multiset."""
        return {c: self._primes[d.index] for c, d in self.design_of.items()}

    @cached_property
    def ranker(self) -> Callable[[Sequence[str]], int]:
        """A fast `strength` for hot loops: the table and primes are bound into a closure."""
        primes, table = self.card_primes, self.table

        def strength(cards: Sequence[str]) -> int:
            a, b, c, d, e = cards
            return table[primes[a] * primes[b] * primes[c] * primes[d] * primes[e]]
        return strength

    def rank_many(self, hands: Sequence[Sequence[str]]) -> list[int]:
        """Strengths of many hands in one call (a table's showdown, a benchmark batch)."""
        primes, table = self.card_primes, self.table
        return [table[primes[a] * primes[b] * primes[c] * primes[d] * primes[e]] for a, b, c, d, e in hands]

    def strength(self, cards: Sequence[str]) -> int:
        """Dense strength from the lookup table: higher is stronger, equal means a tie."""
        return self.ranker(cards)

    def encode(self, cards: Sequence[str]) -> list[int]:
        """Card ids as integers (their design's prime), like treys' integer cards, for `rank_encoded`."""
        return [self.card_primes[c] for c in cards]

    @cached_property
    def rank_encoded(self) -> Callable[[Sequence[int]], int]:
        """Strength of an encoded hand: the product of its cards is the lookup key."""
        table = self.table

        def strength(cards: Sequence[int]) -> int:
            a, b, c, d, e = cards
            return table[a * b * c * d * e]
        return strength


def hands_of(designs: Sequence[Design], size: int, start: int = 0) -> Iterator[tuple[int, ...]]:
    """Every multiset of `size` designs the deck can deal (respecting copies), as sorted index tuples."""
    if size == 0:
        yield ()
        return
    for i in range(start, len(designs)):
        for k in range(min(size, designs[i].copies), 0, -1):
            for rest in hands_of(designs, size - k, i + 1):
                yield (i,) * k + rest
