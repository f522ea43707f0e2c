"""Exact combo odds for the shipped Waterloo deck (R21), checked by hand formulas, brute force and sampling."""

from __future__ import annotations

import dataclasses
import math
import random
import time
from fractions import Fraction
from pathlib import Path

import cards
from engine.waterloo import combo_odds, make_game
from engine.waterloo_hands import Evaluator, hands_of
from engine.waterloo_odds import combo_counts

DATA = cards.load_game("waterloo")
EXPECTED = {
    "fix_bayonets_4": 40, "bombs_away": 8, "fix_bayonets_3": 4600, "cavalry_charge": 1620,
    "five_of_a_kind": 4, "battalion": 80640, "fix_bayonets_2": 151080, "four_of_a_kind": 980,
    "four_of_a_kind_officer": 160, "fire_and_advance": 1440, "flank": 480, "full_house": 1856,
    "trips": 74704, "two_pair_officer": 46296, "two_pair": 146940, "pair": 2459938, "high_card": 4653726,
}


def copies(kind: str) -> list[int]:
    return [r.copies for r in DATA.table("cards") if r.kind == kind]


def test_r21_exact_counts_for_the_shipped_deck() -> None:
    counts = combo_counts(DATA)
    assert counts == EXPECTED
    assert sum(counts.values()) == math.comb(64, 5) == 7_624_512


def test_r21_rare_combos_match_hand_counting() -> None:
    """Counts worked out by hand from the card list, independent of the evaluator."""
    infantry, officers = copies("infantry"), sum(copies("officer"))
    bayonets, grenadiers, rockets = copies("fix_bayonets")[0], copies("grenadiers")[0], copies("rockets")[0]
    counts = combo_counts(DATA)
    assert counts["fix_bayonets_4"] == bayonets * sum(math.comb(c, 4) for c in infantry)
    assert counts["bombs_away"] == officers * math.comb(grenadiers, 2) * math.comb(rockets, 2)
    assert counts["five_of_a_kind"] == sum(math.comb(c, 5) for c in infantry)
    assert counts["cavalry_charge"] == math.prod(copies("cavalry")) * sum(infantry)
    assert counts["four_of_a_kind_officer"] == sum(math.comb(c, 4) for c in infantry) * officers
    # the fifth card of a plain four: not that infantry, not an officer, not Fix Bayonets (that is Fix Bayonets 4)
    assert counts["four_of_a_kind"] == sum(math.comb(c, 4) * (64 - c - officers - bayonets) for c in infantry)


def test_odds_are_fractions_in_table_order_summing_to_one() -> None:
    odds = combo_odds(DATA)
    assert [name for name, _ in odds] == [c.name for c in DATA.rules.combos]
    assert all(isinstance(p, Fraction) for _, p in odds)
    assert sum(p for _, p in odds) == 1
    assert dict(odds)["Fix Bayonets 4"] == Fraction(40, 7_624_512)
    assert all(p > 0 for _, p in odds), "every combo must be reachable"


def test_odds_take_under_a_second() -> None:
    """CPU time, so a busy shared machine does not count against the engine."""
    start = time.process_time()
    combo_odds(DATA)
    assert time.process_time() - start < 1.0


def test_shape_shortcut_matches_brute_force_on_a_small_deck() -> None:
    """The shape grouping gives the same counts as scoring every design multiset, on a reduced deck."""
    rows = [r.model_copy(update={"copies": 4 if r.kind == "infantry" else (2 if r.kind in ("cavalry", "artillery") else 1)})
            for r in DATA.table("cards")]
    small = dataclasses.replace(DATA, tables={"cards": rows})
    evaluator = Evaluator(small)
    brute = dict.fromkeys(evaluator.order, 0)
    for h in hands_of(evaluator.designs, 5):
        ways = math.prod(math.comb(evaluator.designs[i].copies, h.count(i)) for i in set(h))
        brute[evaluator.score_designs(h).combo] += ways
    assert combo_counts(small) == brute
    assert sum(brute.values()) == math.comb(len(small.deck()), 5)


def test_odds_agree_with_monte_carlo() -> None:
    """A seeded sample of dealt hands lands within 4.5 standard errors of every exact probability."""
    evaluator = make_game(DATA).evaluator
    deck = [c.id for c in DATA.deck()]
    rng = random.Random(18150618)
    samples = 12_000
    seen = dict.fromkeys(evaluator.order, 0)
    for _ in range(samples):
        seen[evaluator.score(rng.sample(deck, 5)).combo] += 1
    for (name, p), combo in zip(combo_odds(DATA), evaluator.order):
        expected = float(p) * samples
        spread = 4.5 * math.sqrt(samples * float(p) * (1 - float(p))) + 2
        assert abs(seen[combo] - expected) <= spread, (name, seen[combo], expected)
    assert seen["high_card"] > seen["pair"] > seen["fix_bayonets_2"]


def test_r21_rulings_table_matches_the_engine() -> None:
    """R21 prints every combo's count; it must be the engine's, and the 34 inverted pairs it mentions must be real."""
    text = (Path(__file__).parents[1] / "docs" / "rules" / "waterloo.md").read_text(encoding="utf-8")
    section = text[text.index("**R21"):text.index("**R22")]
    names = {c.name: c.id for c in DATA.rules.combos}
    printed = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] in names:
            printed[names[cells[0]]] = int(cells[1].replace(",", ""))
    counts = combo_counts(DATA)
    assert printed == counts
    order = list(counts)
    inverted = sum(counts[a] > counts[b] for i, a in enumerate(order) for b in order[i + 1:])
    assert inverted == 34 and "34 commoner-above-rarer pairs" in " ".join(section.split())
