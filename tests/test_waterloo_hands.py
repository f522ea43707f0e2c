"""Waterloo showdown scoring: every combo, every tie-break, the wild-card limits (docs/rules/waterloo.md)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from waterloo_helpers import physical

import cards
from engine.waterloo import explain, make_game
from engine.waterloo_hands import Evaluator

DATA = cards.load_game("waterloo")
EV: Evaluator = make_game(DATA).evaluator
DECK = [c.id for c in DATA.deck()]




def combo(text: str) -> str:
    return EV.score(physical(text)).combo


def beats(a: str, b: str) -> bool:
    return EV.key(physical(a)) < EV.key(physical(b))


def ties(a: str, b: str) -> bool:
    return EV.key(physical(a)) == EV.key(physical(b))


# One hand per row of the table, strongest first (R8).
LADDER = [
    ("fix_bayonets_4", "FB I2 I2 I2 I2"),
    ("bombs_away", "SGT GR GR RK RK"),
    ("fix_bayonets_3", "FB I3 I3 I3 C1"),
    ("cavalry_charge", "C1 C2 C3 C4 I4"),
    ("five_of_a_kind", "I4 I4 I4 I4 I4"),
    ("battalion", "I2 I2 C3 A4 GEN"),
    ("fix_bayonets_2", "FB I2 I2 C1 A1"),
    ("four_of_a_kind", "I3 I3 I3 I3 C1"),
    ("four_of_a_kind_officer", "I3 I3 I3 I3 SGT"),
    ("fire_and_advance", "I2 I2 I2 A3 A3"),
    ("flank", "I1 I1 I1 C2 C2"),
    ("full_house", "A1 A1 A1 I2 I2"),
    ("trips", "I2 I2 I2 C1 A1"),
    ("two_pair_officer", "I2 I2 C3 C3 CPT"),
    ("two_pair", "I2 I2 C3 C3 A1"),
    ("pair", "I2 I2 C1 A3 SC"),
    ("high_card", "I1 C2 A3 GEN SC"),
]


@pytest.mark.parametrize("expected,text", LADDER)
def test_r8_each_combo_is_recognised(expected: str, text: str) -> None:
    assert combo(text) == expected


def test_r8_table_order_is_the_ranking() -> None:
    """R8: one sort of the ladder's hands gives the table order, weakest combo hands ranked last."""
    shuffled = LADDER[:]
    random.Random(3).shuffle(shuffled)
    ranked = sorted(shuffled, key=lambda row: EV.key(physical(row[1])))
    assert [c for c, _ in ranked] == [c for c, _ in LADDER]


def test_r8_order_comes_from_the_data() -> None:
    assert EV.order == tuple(c.id for c in DATA.rules.combos)
    assert EV.order[0] == "fix_bayonets_4" and EV.order[-1] == "high_card" and len(EV.order) == 17


# -- R9 Four of a Kind and the Officer -------------------------------------------------------------
def test_r9_officer_as_fifth_card_is_the_lower_row() -> None:
    """R9: Militia four with a Chasseurs beats Guard four with a General."""
    assert combo("I1 I1 I1 I1 GEN") == "four_of_a_kind_officer"
    assert beats("I4 I4 I4 I4 C4", "I1 I1 I1 I1 GEN")


def test_r9_fix_bayonets_kicker_makes_fix_bayonets_4() -> None:
    assert combo("I4 I4 I4 I4 FB") == "fix_bayonets_4"


def test_r9_four_of_a_kind_ties_break_on_value_then_fifth_card() -> None:
    assert beats("I2 I2 I2 I2 C4", "I3 I3 I3 I3 C1")
    assert beats("I2 I2 I2 I2 C1", "I2 I2 I2 I2 C2")


# -- R10 tie-breaks -----------------------------------------------------------------------------------
def test_r10_lower_value_is_stronger() -> None:
    assert beats("I2 I2 C1 A3 SC", "I3 I3 C1 A2 SC")


def test_r10_battalion_weight_order_infantry_first() -> None:
    """R10: the seed's example — Infantry 2 beats Infantry 3 whatever the rest."""
    assert beats("I2 I2 C4 A4 SGT", "I3 I3 C1 A1 GEN")


def test_r10_battalion_then_cavalry_then_artillery_then_officer() -> None:
    assert beats("I2 I2 C1 A4 SGT", "I2 I2 C2 A1 GEN")
    assert beats("I2 I2 C3 A1 SGT", "I2 I2 C3 A2 GEN")
    assert beats("I2 I2 C3 A2 CPT", "I2 I2 C3 A2 LT")
    assert ties("I2 I2 C3 A2 LT", "I2 I2 C3 A2 LT")


def test_r10_officer_ranks_general_captain_lieutenant_sergeant() -> None:
    ranked = sorted(["LT", "GEN", "SGT", "CPT"], key=lambda o: EV.key(physical(f"I2 I2 C3 C3 {o}")))
    assert ranked == ["GEN", "CPT", "LT", "SGT"]
    assert beats("SGT GR GR RK RK", "FB I1 I1 I1 C1") and beats("GEN GR GR RK RK", "CPT GR GR RK RK")


def test_r10_full_house_compares_the_three_before_the_pair() -> None:
    assert beats("A1 A1 A1 I4 I4", "A2 A2 A2 I1 I1")
    assert beats("A2 A2 A2 C1 C1", "A2 A2 A2 C3 C3")


def test_r10_two_pair_stronger_pair_first() -> None:
    assert beats("I1 I1 C4 C4 A2", "I2 I2 C3 C3 A2")
    assert beats("I1 I1 C3 C3 A2", "I1 I1 C4 C4 A1")


def test_r10_kickers_strongest_first_and_valueless_cards_weakest() -> None:
    assert beats("I2 I2 C1 A4 SC", "I2 I2 C2 A3 C3")
    assert beats("I2 I2 C2 A1 A3", "I2 I2 C1 A4 SC")
    assert beats("I1 C2 A3 GEN I4", "I1 C2 A3 GEN SC")
    assert ties("I1 C2 A3 GEN SC", "I1 C2 A3 GEN FB")


def test_r10_kinds_do_not_rank_so_equal_hands_tie() -> None:
    assert ties("I2 I2 C1 A3 SC", "C2 C2 I1 A3 SC")
    assert ties("I1 C2 A3 GEN SC", "C1 A2 I3 GEN RK")


def test_r10_wild_set_is_weaker_than_any_natural_set_of_its_size() -> None:
    """R10: a natural Militia pair beats a Dragoon-made Guard pair."""
    assert combo("DG I1 GEN C2 A4") == "battalion"
    assert beats("I4 I4 SGT C4 A4", "DG I1 GEN C1 A1")
    assert beats("FB I4 I4 C4 A4", "FB DG I1 GEN A1")


def test_r10_wild_set_is_the_weaker_set_inside_a_hand() -> None:
    """R10: natural 4s + Magazine-made 1s order as (4s, 1s) and lose to natural 3s + 4s, and to natural 4s + 4s."""
    assert combo("C4 C4 MG A1 I3") == "two_pair"
    assert beats("C4 C4 A3 A3 I3", "C4 C4 MG A1 I3")
    assert beats("C4 C4 A4 A4 I3", "C4 C4 MG A1 I3")
    assert EV.score(physical("C4 C4 MG A1 I3")).key[1][:4] == (4, 4, 11, 11)


def test_r10_fire_and_advance_with_magazine_is_weaker() -> None:
    assert combo("I2 I2 I2 A1 MG") == "fire_and_advance"
    assert beats("I2 I2 I2 A4 A4", "I2 I2 I2 A1 MG")
    assert beats("I1 I1 I1 A1 MG", "I2 I2 I2 A4 A4")


# -- R11 Magazine ------------------------------------------------------------------------------------
def test_r11_magazine_with_two_artillery_of_a_value_does_not_make_trips() -> None:
    assert combo("MG A2 A2 I1 C3") == "pair"
    assert explain(DATA, physical("MG A2 A2 I1 C3")).wilds == {}


def test_r11_magazine_matches_only_one_of_two_artillery() -> None:
    result = explain(DATA, physical("MG A3 A2 I1 C4"))
    assert result.combo == "pair"
    assert result.cards[:2] == ("eight-pounders-1", "magazine-1")
    assert result.wilds == {"magazine-1": "8-Pounders 2"}


def test_r11_magazine_never_matches_infantry_or_cavalry() -> None:
    assert combo("MG I2 C3 I1 GEN") == "high_card"
    assert combo("MG I2 I3 C1 SC") == "high_card"


def test_r11_two_magazines_serve_in_two_sets() -> None:
    assert combo("MG MG A1 A2 C3") == "two_pair"
    assert explain(DATA, physical("MG MG A1 A2 C3")).wilds == {"magazine-1": "12-Pounders 1", "magazine-2": "8-Pounders 2"}


def test_r11_three_artillery_and_a_magazine_stay_trips() -> None:
    assert combo("A2 A2 A2 MG I1") == "trips"


# -- R12 Dragoon ------------------------------------------------------------------------------------------
def test_r12_dragoon_without_officer_is_idle() -> None:
    assert combo("DG I2 C1 A3 SC") == "high_card"
    assert combo("DG I2 I3 C1 A1") == "high_card"
    assert combo("FB DG I2 C1 A1") == "high_card"


def test_r12_dragoon_never_pairs_with_militia() -> None:
    assert combo("DG I4 GEN C1 A2") == "high_card"
    assert combo("DG I4 I3 GEN C1") == "pair"
    assert explain(DATA, physical("DG I4 I3 GEN C1")).wilds == {"dragoon-1": "Light Infantry 3"}


def test_r12_dragoon_with_officer_pairs_once() -> None:
    result = explain(DATA, physical("DG I2 GEN C1 A2"))
    assert result.combo == "battalion"
    assert result.cards == ("line-infantry-1", "dragoon-1", "cuirassiers-1", "eight-pounders-1", "general-1")
    assert result.wilds == {"dragoon-1": "Line Infantry 2"}
    assert make_game(DATA).explain(physical("DG I2 GEN C1 A2")).to_json() == {
        "combo": "battalion", "name": "Battalion", "cards": list(result.cards), "wilds": {"dragoon-1": "Line Infantry 2"}}


def test_r12_dragoon_does_not_make_trips() -> None:
    assert combo("DG I2 I2 GEN C1") == "pair"
    assert explain(DATA, physical("DG I2 I2 GEN C1")).wilds == {}


def test_r12_dragoon_never_matches_cavalry() -> None:
    assert combo("DG C2 C3 GEN A1") == "high_card"


def test_r12_two_dragoons_pair_with_two_infantry() -> None:
    assert combo("DG DG I1 I2 GEN") == "two_pair_officer"


def test_r12_dragoon_completes_fix_bayonets_2() -> None:
    assert combo("FB DG I2 GEN C4") == "fix_bayonets_2"


# -- R13, R14 special cards ------------------------------------------------------------------------------
def test_r13_grenadiers_and_rockets_do_not_pair() -> None:
    assert combo("GR GR RK RK I1") == "high_card"
    assert combo("GR GR C1 C2 A3") == "high_card"


def test_r13_fix_bayonets_needs_matching_infantry() -> None:
    assert combo("FB C2 C2 A1 I3") == "pair"
    assert combo("FB FB I3 I3 I3") == "fix_bayonets_3"


def test_r14_cavalry_charge_compares_the_infantry() -> None:
    assert beats("C1 C2 C3 C4 I1", "C1 C2 C3 C4 I4")
    assert combo("C1 C2 C3 C4 A1") == "high_card"
    assert combo("C1 C2 C3 C4 DG") == "high_card"


def test_r7_sets_count_at_full_size() -> None:
    """R7: three matching cards are Trips, a pair of Lancers 2 and Line Infantry 2 is no pair."""
    assert combo("I2 C2 A2 GEN SC") == "high_card"
    assert combo("GEN GEN I1 C2 A3") == "high_card"


# -- explain --------------------------------------------------------------------------------------------------
def test_explain_lists_cards_in_order_of_weight() -> None:
    result = explain(DATA, physical("GEN A4 C3 I2 I2"))
    assert (result.combo, result.name) == ("battalion", "Battalion")
    assert result.cards == ("line-infantry-1", "line-infantry-2", "hussars-1", "howitzers-1", "general-1")


# -- properties -----------------------------------------------------------------------------------------------
hands = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


@settings(max_examples=150, deadline=None)
@given(hands, st.randoms(use_true_random=False))
def test_card_order_never_changes_the_result(cards_: list[str], rnd: random.Random) -> None:
    shuffled = cards_[:]
    rnd.shuffle(shuffled)
    assert EV.score(shuffled).key == EV.score(cards_).key
    assert sorted(explain(DATA, shuffled).cards) == sorted(cards_)


@settings(max_examples=100, deadline=None)
@given(hands, hands, hands)
def test_comparison_is_antisymmetric_and_transitive(a: list[str], b: list[str], c: list[str]) -> None:
    ka, kb, kc = EV.key(a), EV.key(b), EV.key(c)
    assert (ka < kb) + (kb < ka) + (ka == kb) == 1
    if ka <= kb and kb <= kc:
        assert ka <= kc
    # the same three hands through the lookup table agree with the keys
    sa, sb, sc = EV.rank_many([a, b, c])
    assert (ka < kb) == (sa > sb) and (kb < kc) == (sb > sc) and (ka == kc) == (sa == sc)
    assert EV.strength(a) == sa and EV.rank_encoded(EV.encode(b)) == sb


@settings(max_examples=100, deadline=None)
@given(hands)
def test_wild_cards_only_stand_for_cards_they_may_match(cards_: list[str]) -> None:
    """R11, R12: every wild mapping is a Magazine->Artillery, or a Dragoon->non-Militia Infantry beside an Officer."""
    result = explain(DATA, cards_)
    by_name = {f"{d.name} {d.value}": d for d in EV.designs}
    officer = any(EV.design_of[c].kind == 3 for c in cards_)
    for wild, stands in result.wilds.items():
        target = by_name[stands]
        if EV.design_of[wild].id == "magazine":
            assert target.kind == 2
        else:
            assert target.kind == 0 and not target.militia and officer


def test_r8_reordering_the_table_in_the_data_reorders_the_ranking() -> None:
    """R8: the ranking is the data's order; swapping Fire and Advance with Flank swaps the winner."""
    combos = list(DATA.rules.combos)
    i, j = EV.order.index("fire_and_advance"), EV.order.index("flank")
    combos[i], combos[j] = combos[j], combos[i]
    swapped = Evaluator(dataclasses.replace(DATA, rules=DATA.rules.model_copy(update={"combos": combos})))
    fire, flank = physical("I2 I2 I2 A3 A3"), physical("I2 I2 I2 C3 C3")
    assert EV.key(fire) < EV.key(flank)
    assert swapped.key(flank) < swapped.key(fire)
