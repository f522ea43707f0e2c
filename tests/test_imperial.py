"""Imperial battles: hand-worked cases for every rule (citing docs/rules/imperial.md), refusals, views."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cards import load_game
from engine.core import Action, Match, Refusal, act
from engine.imperial import (
    BUY,
    EXCHANGE,
    INFANTRY_LOSS,
    PLAY,
    RIFLING,
    ImperialGame,
    TYPE_NAMES,
    ImperialState,
    make_game,
)

GAME: ImperialGame = make_game(load_game("imperial"))
RNG = random.Random(0)
P, M, C = "pikemen", "musketeers", "cavalry"


def battle(hand0: str, hand1: str, *, game_round: int = 1, markers: tuple[int, int] = (0, 0),
           discard0: str = "", discard1: str = "", game: ImperialGame = GAME,
           rifling_rounds_of: str = "battle") -> ImperialState:
    """A battle at its first round with the given hands, written as letters ("PPMC")."""
    options = game.options({"imperial_power": [0, 0], "reinforcements": list(markers), "game_round": game_round,
                            "rifling_rounds_of": rifling_rounds_of})
    state = ImperialState(game.cfg, options)
    letters = {"P": P, "M": M, "C": C}
    for pile, spec in ((state.hands[0], hand0), (state.hands[1], hand1),
                       (state.discards[0], discard0), (state.discards[1], discard1)):
        for letter in spec:
            pile[letters[letter]].append(state.supply[letters[letter]].pop())
    state._begin_fight()
    return state


def do(state: ImperialState, kind: str, player: int, **args: Any) -> ImperialState:
    state.apply(act(kind, player, **args), RNG)
    return state


def play(state: ImperialState, t0: str, t1: str) -> ImperialState:
    do(state, "play", 0, type=t0)
    return do(state, "play", 1, type=t1)


def hand(state: ImperialState, p: int) -> dict[str, int]:
    return {t: len(cards) for t, cards in state.hands[p].items()}


def pile(state: ImperialState, p: int) -> dict[str, int]:
    return {t: len(cards) for t, cards in state.discards[p].items()}


def size(state: ImperialState, p: int) -> int:
    return sum(hand(state, p).values())


def supply_size(state: ImperialState) -> int:
    return sum(len(cards) for cards in state.supply.values())


def counts(p: int = 0, m: int = 0, c: int = 0) -> dict[str, int]:
    return {P: p, M: m, C: c}


def refused(state: ImperialState, action: Action) -> str:
    """The refusal message, checking that the state did not change."""
    before = state.view(0), state.view(1), state.cards()
    with pytest.raises(Refusal) as info:
        state.apply(action, RNG)
    assert (state.view(0), state.view(1), state.cards()) == before
    return str(info.value)


def new(**options: Any) -> ImperialState:
    return GAME.new_state(random.Random(7), options)


# --- setup: R2-R6 ---------------------------------------------------------------------

def test_r3_twice_the_power_wins_without_drawing() -> None:
    state = new(imperial_power=[6, 12])
    assert state.is_terminal and state.winner == 1 and state.result == "automatic"
    assert supply_size(state) == 60 and size(state, 0) == size(state, 1) == 0
    assert state.view(None)["routed"] == []


def test_r3_power_beyond_twelve_still_counts() -> None:
    state = new(imperial_power=[30, 14])
    assert state.winner == 0 and state.result == "automatic"


def test_r3_just_under_twice_fights() -> None:
    state = new(imperial_power=[11, 6])
    assert not state.is_terminal and state.phase == EXCHANGE


def test_r3_one_against_zero_wins_but_zero_against_zero_does_not() -> None:
    assert new(imperial_power=[0, 1]).winner == 1
    state = new(imperial_power=[0, 0])
    assert state.is_terminal and state.winner is None and state.result == "inconclusive"


def test_r4_draw_one_per_power_up_to_twelve_rest_to_reserves() -> None:
    state = new(imperial_power=[15, 9])
    assert [size(state, 0), size(state, 1)] == [12, 9]
    assert state.reserves == [3, 0]
    assert supply_size(state) == 60 - 21
    assert state.view(None)["sides"][0]["reserves"] == 3


def test_r5_exchanged_cards_go_to_the_sides_own_discard_pile() -> None:
    """Seed: "choose whether to discards two cards and draw two replacements"; cards are discarded "in separate
    discard piles next to each respective Player", and reinforcements are drawn "from your respective discard
    pile". So the exchanged cards lie open on the side's own pile, and it may call them back later."""
    match = Match(GAME, 5, {"imperial_power": [6, 6], "initiative": [1, 0], "reinforcements": [2, 2]})
    assert match.state.players_to_act() == [1]
    pair = next(a for a in match.state.legal_actions(1) if a.kind == "exchange")
    match.apply(act("exchange", 1, types=pair["types"]))
    state = match.state
    out = {t: list(pair["types"]).count(t) for t in (P, M, C)}
    assert pile(state, 1) == out and pile(state, 0) == {P: 0, M: 0, C: 0}
    assert size(state, 1) == 6 and supply_size(state) == 60 - 12 - 2 and state.exchanged[1] is True
    assert state.view(0)["sides"][1]["discard"] == out and state.view(0)["sides"][1]["hand"] is None
    names = " and ".join(TYPE_NAMES[t] for t in pair["types"])
    assert match.history(0)[-2].text == f"{{p1}} discarded {names} to exchange them"
    assert match.history(0)[-1].text == "{p1} drew 2 cards from the supply"
    match.apply(act("pass", 0))
    assert match.state.exchanged[0] is False
    assert match.state.phase == PLAY  # no Gold: buying is skipped (R7)
    for side in (0, 1):
        match.apply(next(a for a in match.state.legal_actions(side) if a.kind == "play"))
    assert any(a.kind == "reinforce" and sorted(a["types"]) == sorted(pair["types"])
               for a in match.state.legal_actions(1)), "the exchanged cards can come back as reinforcements"


def test_r5_exchange_must_be_exactly_two() -> None:
    state = new(imperial_power=[6, 6])
    t = next(t for t, cards in state.hands[0].items() if cards)
    assert refused(state, act("exchange", 0, types=[t])) == "Exchange exactly 2 cards, or pass to keep your hand."


def test_r5_r7_a_side_with_too_few_cards_is_not_asked_to_exchange() -> None:
    assert new(imperial_power=[1, 1]).phase == PLAY
    game = make_game(load_game("imperial"))
    game.cfg = replace(game.cfg, exchange_count=3)
    state = game.new_state(random.Random(1), {"imperial_power": [2, 3]})
    assert state.players_to_act() == [1]
    assert refused(state, act("pass", 0)) == "You need 3 cards in hand to exchange."


def test_r6_buy_cards_of_your_choice_beyond_twelve() -> None:
    state = new(imperial_power=[12, 12], gold=[2, 0])
    do(state, "pass", 0)
    do(state, "pass", 1)
    assert state.phase == BUY and state.players_to_act() == [0]
    do(state, "buy", 0, type=C)
    do(state, "buy", 0, type=C)
    assert size(state, 0) == 14 and state.gold[0] == 0 and state.bought[0] == 2
    assert state.phase == PLAY  # out of Gold, and side 1 has none: the fight starts (R7)
    assert state.view(1)["sides"][0]["bought"] == 2


def test_r6_stop_buying_keeps_the_gold() -> None:
    state = new(imperial_power=[6, 6], gold=[3, 1])
    do(state, "pass", 0)
    do(state, "pass", 1)
    do(state, "buy", 0, type=P)
    do(state, "pass", 0)
    assert state.players_to_act() == [1]
    do(state, "pass", 1)
    assert state.gold == [2, 1] and state.phase == PLAY


def test_r6_cannot_buy_a_type_the_supply_lacks() -> None:
    state = new(imperial_power=[6, 6], gold=[1, 0])
    do(state, "pass", 0)
    do(state, "pass", 1)
    state.discards[1][M].extend(state.supply[M])
    state.supply[M].clear()
    assert refused(state, act("buy", 0, type=M)) == "There are no Musketeers left in the supply."
    assert act("buy", 0, type=M) not in state.legal_actions()


def test_r16_a_side_with_no_cards_at_the_start_routs() -> None:
    state = new(imperial_power=[0, 0], gold=[1, 0])
    assert state.phase == BUY
    do(state, "buy", 0, type=P)
    assert state.is_terminal and state.winner == 0 and state.result == "rout" and state.routed == [1]


# --- rounds: R8-R14 -------------------------------------------------------------------

def test_r8_r9_first_choice_is_hidden_until_both_have_chosen() -> None:
    state = battle("PM", "CM")
    assert state.current_player is None and state.players_to_act() == [0, 1]
    do(state, "play", 1, type=C)
    assert state.players_to_act() == [0] and state.current_player is None
    for viewer in (0, None):
        side = state.view(viewer)["sides"][1]
        assert side["has_chosen"] is True and side["choice"] is None and side["hand"] is None
    assert state.view(1)["sides"][1]["choice"] == C
    assert state.view(1)["sides"][0]["hand"] is None
    assert state.view(None)["last_round"] is None
    assert refused(state, act("play", 1, type=M)) == "You have already chosen a card this round; wait for your opponent."
    do(state, "play", 0, type=P)
    assert state.view(None)["last_round"]["played"] == [P, C]


def test_r9_same_type_both_lost_to_their_own_piles() -> None:
    state = play(battle("PM", "PC"), P, P)
    assert pile(state, 0) == counts(p=1) and pile(state, 1) == counts(p=1)
    assert hand(state, 0) == counts(m=1) and hand(state, 1) == counts(c=1)
    assert state.phase == PLAY and state.battle_round == 2


def test_r10_pikemen_beat_cavalry_and_ban_it_for_one_round() -> None:
    state = play(battle("PM", "CCM"), P, C)
    assert hand(state, 0) == counts(p=1, m=1) and pile(state, 1) == counts(c=1)
    assert state.banned == [False, True] and state.view(None)["last_round"]["cavalry_banned"] == 1
    assert refused(state, act("play", 1, type=C)) == "Your Cavalry may not play this round: Pikemen beat it last round."
    assert [a["type"] for a in state.legal_actions(1)] == [M]
    play(state, M, M)
    assert state.banned == [False, False]
    assert [a["type"] for a in state.legal_actions(1)] == [C]


def test_the_matchups_are_read_from_the_data(cards_copy: Path) -> None:
    """[rules.beats] decides each round: with the triangle turned round, Cavalry beat Pikemen, and the
    Cavalry win still costs the beaten side its extra infantry."""
    toml = cards_copy / "imperial" / "game.toml"
    text = toml.read_text()
    for winner, loser in ((P, M), (M, C), (C, P)):
        text = re.sub(rf'^{winner} = ".*"$', f'{winner} = "{loser}"', text, flags=re.MULTILINE)
    toml.write_text(text)
    state = play(battle("CM", "PPPM", game=make_game(load_game("imperial", cards_copy))), C, P)
    assert hand(state, 0) == counts(m=1, c=1) and pile(state, 1) == counts(p=1)
    assert state.phase == INFANTRY_LOSS and state.players_to_act() == [1]
    assert play(battle("CM", "PPPM"), C, P).banned == [True, False]  # the shipped data: Pikemen beat Cavalry


def test_r10_only_cavalry_left_routs_at_once() -> None:
    state = play(battle("PM", "CCC", markers=(0, 3)), P, C)
    assert state.is_terminal and state.winner == 0 and state.routed == [1]


def test_r11_advanced_rifling_is_battle_rounds_four_and_five_by_default() -> None:
    """"Rounds 4-5", in a text that says "next round" and "any round of battle" for battle rounds."""
    first = play(battle("MMC", "PPC", game_round=4), M, P)
    assert first.phase == PLAY and hand(first, 1) == counts(p=1, c=1), "battle round 1: no rifling, any game round"
    state = battle("PPPMM", "PPPPP")
    assert not state.view(None)["advanced_rifling"] and state.view(None)["rifling_rounds_of"] == "battle"
    for _ in range(3):
        play(state, P, P)
    assert state.battle_round == 4 and state.view(None)["advanced_rifling"]
    play(state, M, P)
    assert state.phase == RIFLING and state.players_to_act() == [0]


def test_r11_table_option_reads_them_as_game_rounds() -> None:
    state = play(battle("MM", "PPC", game_round=3, rifling_rounds_of="game"), M, P)
    assert state.phase == PLAY and hand(state, 1) == counts(p=1, c=1) and hand(state, 0) == counts(m=2)
    fourth = play(battle("MM", "PPC", game_round=4, rifling_rounds_of="game"), M, P)
    assert fourth.phase == RIFLING
    with pytest.raises(Refusal, match="rifling_rounds_of is 'battle' \\(the seed's reading\\) or 'game' \\(not 'empire'\\)."):
        GAME.check_options({"rifling_rounds_of": "empire"})


@pytest.mark.parametrize("game_round", [4, 5])
def test_r12_rifling_named_type_is_lost(game_round: int) -> None:
    state = play(battle("MM", "PPC", game_round=game_round, rifling_rounds_of="game"), M, P)
    assert state.phase == RIFLING and state.players_to_act() == [0] and state.current_player == 0
    do(state, "name_type", 0, type=C)
    assert hand(state, 1) == counts(p=1) and pile(state, 1) == counts(p=1, c=1)
    assert state.phase == PLAY


def test_r12_rifling_none_of_that_type_is_said_and_another_named() -> None:
    state = play(battle("MP", "PPM", game_round=4, rifling_rounds_of="game"), M, P)
    do(state, "name_type", 0, type=C)
    assert state.phase == RIFLING and state.view(None)["last_round"]["lacked"] == [C]
    assert refused(state, act("name_type", 0, type=C)) == \
        "Your opponent has already said he has no Cavalry; name another type."
    assert [a["type"] for a in state.legal_actions()] == [P, M]
    do(state, "name_type", 0, type=M)
    assert hand(state, 1) == counts(p=1) and state.phase == PLAY


def test_r7_r12_last_unnamed_type_is_named_by_the_engine() -> None:
    state = play(battle("MP", "PMM", game_round=5, rifling_rounds_of="game"), M, P)
    do(state, "name_type", 0, type=C)
    do(state, "name_type", 0, type=P)
    assert state.view(None)["last_round"]["lacked"] == [C, P]
    assert hand(state, 1) == counts(m=1) and pile(state, 1) == counts(p=1, m=1) and state.phase == PLAY


def test_r12_r16_rifling_against_an_empty_hand_asks_nothing() -> None:
    state = play(battle("MP", "P", game_round=4, rifling_rounds_of="game"), M, P)
    assert state.is_terminal and state.winner == 0 and state.routed == [1]


def test_r13_cavalry_beat_musketeers_lose_two_infantry_of_your_choice() -> None:
    state = play(battle("CP", "MPMMC"), C, M)
    assert hand(state, 0) == counts(p=1, c=1) and pile(state, 1) == counts(m=1)
    assert state.phase == INFANTRY_LOSS and state.players_to_act() == [1] and state.current_player == 1
    assert [a["types"] for a in state.legal_actions()] == [[P, M], [M, M]]
    assert refused(state, act("discard_infantry", 1, types=[P, C])) == \
        "Discard exactly 2 infantry cards (Pikemen or Musketeers)."
    assert refused(state, act("discard_infantry", 1, types=[P, P])) == \
        "You asked for 2 Pikemen but your hand holds 1."


def test_r13_r7_choice_with_real_alternatives_waits_then_applies() -> None:
    state = play(battle("CPPPP", "MPPMMC"), C, M)
    assert state.phase == INFANTRY_LOSS
    assert [a["types"] for a in state.legal_actions()] == [[P, P], [P, M], [M, M]]
    do(state, "discard_infantry", 1, types=[M, P])
    assert hand(state, 1) == counts(p=1, m=1, c=1) and pile(state, 1) == counts(p=1, m=2)
    assert state.phase == PLAY  # 5 cards against 3 is less than twice (R14)


def test_r7_r13_one_possible_pair_is_discarded_by_the_engine() -> None:
    state = play(battle("C", "MPPC"), C, M)
    assert hand(state, 1) == counts(c=1) and pile(state, 1) == counts(p=2, m=1)
    assert state.phase == PLAY


def test_r13_fewer_than_two_infantry_routs_without_discarding() -> None:
    state = play(battle("CP", "MPCC"), C, M)
    assert state.is_terminal and state.winner == 0 and state.routed == [1]
    assert hand(state, 1) == counts(p=1, c=2)


def test_r14_twice_the_cards_after_the_losses_routs_the_musket_side() -> None:
    state = play(battle("CPPPP", "MPPC"), C, M)
    # side 1 loses its two Pikemen and keeps one Cavalry; side 0 holds 5 (the Cavalry came back).
    assert state.is_terminal and state.winner == 0 and state.routed == [1]


def test_r14_just_under_twice_fights_on() -> None:
    state = play(battle("CPP", "MPPCC"), C, M)
    assert hand(state, 0) == counts(p=2, c=1) and hand(state, 1) == counts(c=2)
    assert not state.is_terminal


def test_r14_only_checked_in_cavalry_musketeers_rounds() -> None:
    state = play(battle("PPPPPP", "PPC"), P, P)
    assert not state.is_terminal and size(state, 0) == 5 and size(state, 1) == 2


# --- reinforcements: R15 --------------------------------------------------------------

def test_r15_call_back_cards_of_your_choice_shown_once_per_battle() -> None:
    state = play(battle("PPMC", "PPMC", markers=(2, 1)), P, P)
    assert state.phase == PLAY and state.players_to_act() == [0, 1]
    assert refused(state, act("reinforce", 0, types=[P, P])) == "You asked for 2 Pikemen but your discard pile holds 1."
    do(state, "reinforce", 0, types=[P])
    assert hand(state, 0) == counts(p=2, m=1, c=1) and pile(state, 0) == counts()
    assert state.view(1)["sides"][0]["reinforcements_shown"] == [P]
    assert state.players_to_act() == [0, 1] and not state.may_call(0) and state.may_call(1)
    play(state, M, P)
    assert state.phase == PLAY and not state.may_call(0)  # side 0 has used its call
    assert refused(state, act("reinforce", 0, types=[M])) == \
        "You have already called for reinforcements in this battle."


def test_r15_no_more_than_the_marker() -> None:
    state = play(battle("PPMC", "PPMC", markers=(1, 1), discard0="MM"), P, P)
    assert refused(state, act("reinforce", 0, types=[P, M])) == "Your Reinforcement marker allows at most 1 card."
    assert refused(state, act("reinforce", 0, types=[])) == "Call back at least one card, or just choose your card."
    assert [a["types"] for a in state.legal_actions() if a.kind == "reinforce"] == [[P], [M], [P]]  # 0's, then 1's


def test_r15_a_routed_side_cannot_call() -> None:
    state = play(battle("PM", "P", markers=(2, 5)), M, P)
    assert state.is_terminal and state.winner == 0


def test_r15_not_offered_with_an_empty_pile_or_zero_marker() -> None:
    state = play(battle("PM", "CM", markers=(3, 0)), P, C)
    assert not any(a.kind == "reinforce" for a in state.legal_actions())  # 0's pile is empty; 1's marker shows 0
    state = play(battle("PM", "CM", markers=(3, 3)), P, C)
    assert [a.player for a in state.legal_actions() if a.kind == "reinforce"] == [1]
    assert refused(state, act("reinforce", 0, types=[P])) == "Your discard pile is empty: there is nothing to call back."
    state = play(battle("PM", "PM", markers=(0, 3)), P, P)
    assert refused(state, act("reinforce", 0, types=[P])) == \
        "Your Reinforcement marker shows 0: you have no reinforcements to call."
    assert refused(state, act("pass", 1)) == "You cannot pass now: both sides are choosing a card to play."


def test_r15_never_before_the_first_round() -> None:
    state = battle("PM", "PM", markers=(2, 2), discard0="P")
    assert not state.may_call(0) and not any(a.kind == "reinforce" for a in state.legal_actions())
    assert refused(state, act("reinforce", 0, types=[P])) == \
        "Reinforcements come after a round of battle, and none has been fought yet."


# --- asking nobody: R20 ----------------------------------------------------------------

def test_r20_a_round_is_one_tap_per_side_when_nobody_calls() -> None:
    state = play(battle("PPMC", "PPMC", markers=(2, 2)), P, P)
    assert state.may_call(0) and state.may_call(1)  # both could call, neither is asked
    assert state.phase == PLAY and state.players_to_act() == [0, 1] and state.battle_round == 2
    play(state, M, P)  # round 2: one tap each, no "No reinforcements now" step
    assert state.battle_round == 3 and state.phase == PLAY
    assert not any(a.kind == "pass" for a in state.legal_actions())


def test_r20_the_call_is_offered_beside_the_cards_from_open_information_only() -> None:
    state = play(battle("PPMC", "PPMC", markers=(1, 1)), P, P)
    assert state.prompt(0) == "Your move: choose a card to play face down, or call for reinforcements first."
    assert state.prompt(None) == ("Waiting for {p0} and {p1} to choose a card to play face down, "
                                  "or call for reinforcements first.")
    other = play(battle("PMMM", "PPMC", markers=(1, 1)), P, P)  # a different hand, the same open position
    assert other.prompt(1) == state.prompt(1) and other.prompt(None) == state.prompt(None)
    assert [a.kind for a in other.legal_actions(0)] == ["play", "reinforce"]
    do(state, "play", 0, type=M)
    assert not state.may_call(0)
    assert refused(state, act("reinforce", 0, types=[P])) == \
        "Call for reinforcements before you choose your card: yours is already face down this round."
    assert state.prompt(None) == ("Waiting for {p1} to choose a card to play face down, "
                                  "or call for reinforcements first.")


def test_r20_a_call_after_the_opponents_card_is_down_gives_that_card_back() -> None:
    match = Match(GAME, 3, {"imperial_power": [4, 4], "reinforcements": [1, 1]})
    while match.state.phase != PLAY:
        match.apply(next(a for a in match.state.legal_actions() if a.kind == "pass"))
    state = match.state
    while state.battle_round == 1 or not state.may_call(1):
        for p in (0, 1):
            match.apply(next(a for a in match.state.legal_actions(p) if a.kind == "play"))
        state = match.state
        assert not state.is_terminal
    before = hand(state, 0)
    picked = next(a for a in state.legal_actions(0) if a.kind == "play")
    match.apply(picked)
    call = next(a for a in match.state.legal_actions(1) if a.kind == "reinforce")
    match.apply(call)
    state = match.state
    assert hand(state, 0) == before and state.table == [None, None] and state.players_to_act() == [0, 1]
    assert not state.may_call(1) and state.view(1)["sides"][0]["has_chosen"] is False
    told = [line.text for line in match.history(1)[-2:]]
    assert told[-1] == "{p0} takes their face-down card back to choose again, knowing the reinforcements"
    mine = match.history(0)[-1].text
    assert mine == (f"{{p0}} takes their {picked['type'].capitalize()} back to choose again, "
                    "knowing the reinforcements")
    assert match.undo_refusal(1) is None  # the call revealed nothing: it can be taken back (R19)


# --- the end: R16-R17 -----------------------------------------------------------------

def test_r16_running_out_routs() -> None:
    state = play(battle("P", "PM"), P, P)
    assert state.is_terminal and state.winner == 1 and state.result == "rout" and state.routed == [0]
    assert state.legal_actions() == [] and state.players_to_act() == []
    assert refused(state, act("play", 1, type=M)) == "The battle is over."


def test_r17_both_running_out_together_is_inconclusive() -> None:
    state = play(battle("C", "C"), C, C)
    assert state.is_terminal and state.winner is None and state.result == "inconclusive"
    assert state.routed == [0, 1] and state.view(None)["winner"] is None


# --- refusals and options -------------------------------------------------------------

def test_refusals_for_wrong_moves() -> None:
    state = battle("PM", "CM")
    assert refused(state, act("play", 0, type=C)) == "You have no Cavalry in your hand."
    assert refused(state, act("play", 0, type="archers")) == \
        "Choose a unit type: pikemen, musketeers or cavalry (not 'archers')."
    assert refused(state, act("play", 2, type=P)) == "A battle has two sides, 0 and 1; there is no side 2."
    assert refused(state, act("charge", 0)) == ("'charge' is not a move in an Imperial battle (moves: exchange, buy, "
                                                "pass, play, discard_infantry, name_type, reinforce).")
    assert refused(state, act("buy", 0, type=P)) == "You cannot buy cards now: both sides are choosing a card to play."
    assert refused(state, act("pass", 0)) == "You cannot pass now: both sides are choosing a card to play."
    state = new(imperial_power=[6, 6])
    assert refused(state, act("exchange", 1, types=[P, P])) == "It is your opponent's turn."
    assert refused(state, act("exchange", 0, types="PP")) == \
        '\'types\' of \'exchange\' must be a list of unit types, such as ["pikemen", "cavalry"], not \'PP\'.'


@pytest.mark.parametrize("options, message", [
    ({"imperial_power": [6]}, "imperial_power must give each side's Imperial Power as two whole numbers of 0 or more, "
                              "like [6, 4] (not [6])."),
    ({"gold": [1, -1]}, "gold must give each side's Gold as two whole numbers of 0 or more, like [6, 4] (not [1, -1])."),
    ({"reinforcements": [True, 2]}, "reinforcements must give each side's Reinforcement marker as two whole numbers "
                                    "of 0 or more, like [6, 4] (not [True, 2])."),
    ({"initiative": [0, 0]}, "initiative must list the two sides in order, [0, 1] or [1, 0] (not [0, 0])."),
    ({"initiative": ["a", 0]}, "initiative must list the two sides in order, [0, 1] or [1, 0] (not ['a', 0])."),
    ({"game_round": 0}, "game_round must be a whole number of 1 or more (not 0)."),
    ({"game_round": "4"}, "game_round must be a whole number of 1 or more (not '4')."),
    ({"era": 2}, "Unknown battle option 'era' (known: imperial_power, gold, reinforcements, initiative, game_round, "
              "rifling_rounds_of)."),
])
def test_r2_unusable_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(Refusal) as info:
        GAME.check_options(options)
    assert str(info.value) == message
    with pytest.raises(Refusal):
        Match(GAME, 1, options)


def test_r2_defaults_come_from_the_data() -> None:
    state = Match(GAME, 3).state
    assert state.ip == [6, 6] and state.gold == [0, 0] and state.marker == [2, 2]
    assert state.initiative == (0, 1) and state.game_round == 1


def test_labels_read_as_buttons() -> None:
    state = new(imperial_power=[6, 6], gold=[1, 1])
    assert state.label(act("pass", 0)) == "Keep your hand"
    assert state.label(act("exchange", 0, types=[P, C])) == "Exchange Pikemen and Cavalry"
    assert state.label(act("buy", 0, type=M)) == "Buy Musketeers for 1 Gold"
    battle_state = battle("P", "P")
    assert battle_state.label(act("play", 0, type=P)) == "Play Pikemen"
    assert battle_state.label(act("reinforce", 0, types=[P, P, C])) == "Call back Pikemen, Pikemen and Cavalry"
    assert battle_state.label(act("discard_infantry", 0, types=[P, M])) == "Lose Pikemen and Musketeers"
    assert battle_state.label(act("name_type", 0, type=C)) == "Name Cavalry"


def test_clone_is_independent() -> None:
    state = battle("PM", "PM", markers=(1, 1))
    copy = state.clone()
    play(copy, P, P)
    assert size(state, 0) == 2 and state.battle_round == 1 and copy.battle_round == 2
    assert copy.view(0) != state.view(0)


def test_refusals_out_of_turn_in_the_sequential_steps() -> None:
    state = new(imperial_power=[6, 6], gold=[1, 2])
    do(state, "pass", 0)
    assert refused(state, act("exchange", 0, types=[P, P])) == "You have already decided whether to exchange."
    do(state, "pass", 1)
    do(state, "pass", 0)
    assert refused(state, act("buy", 0, type=P)) == "You have already finished buying."
    state = new(imperial_power=[6, 6], gold=[0, 2])
    do(state, "pass", 0)
    do(state, "pass", 1)
    assert state.players_to_act() == [1]
    assert refused(state, act("buy", 0, type=P)) == "A card costs 1 Gold and you have 0."
    state = new(imperial_power=[6, 6], gold=[0, 0])
    assert refused(state, act("reinforce", 0, types=[P])) == \
        "You cannot call for reinforcements now: the sides are deciding whether to exchange cards."


def test_r6_an_empty_supply_ends_buying() -> None:
    state = new(imperial_power=[12, 12], gold=[40, 5])
    do(state, "pass", 0)
    do(state, "pass", 1)
    while supply_size(state):
        t = next(t for t, cards in state.supply.items() if cards)
        do(state, "buy", 0, type=t)
    assert state.phase == PLAY and size(state, 0) == 48 and state.gold == [4, 5]  # side 1 is never asked


def test_engine_package_finds_this_engine() -> None:
    import engine

    game = engine.make_game(load_game("imperial"))
    assert isinstance(game, ImperialGame) and game.id == "imperial"
