"""Waterloo hands from ante to settlement: betting limits, drawing, reserve swap, showdown, Scout, refusals."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from waterloo_helpers import physical, rarely_fold

import cards
from engine.core import Action, Match, Refusal, act
from engine.waterloo import WaterlooState, make_game

DATA = cards.load_game("waterloo")
GAME = make_game(DATA)
GOLDEN = Path(__file__).parent / "golden"


class Cards:
    """Hands out physical card ids for short names, each copy once."""

    def __init__(self) -> None:
        self.used: Counter[str] = Counter()

    def __call__(self, text: str) -> list[str]:
        return physical(text, self.used)


def arrange(state: WaterlooState, hands: dict[int, str], reserves: dict[int, str] | None = None,
            community: str = "I4 C4 A4", deck_top: str = "") -> Cards:
    """Put chosen cards in hands, reserves ('up down'), community and on top of the deck; the rest below."""
    pick = Cards()
    state.hands = [pick(hands.get(p, "")) for p in range(state.n)]
    given = reserves or {}
    for p in range(state.n):
        up, down = pick(given[p]) if p in given else (None, None)
        state.reserves[p] = {"up": up, "down": down} if up and down else {}
    state.community = pick(community)
    top = pick(deck_top)
    placed = {c for h in state.hands for c in h} | {c for r in state.reserves for c in r.values()}
    placed |= set(state.community) | set(top)
    rest = [c for c in GAME.cards if c not in placed]
    for p in range(state.n):
        if not state.reserves[p]:
            state.reserves[p] = {"up": rest.pop(), "down": rest.pop()}
    state.discard = []
    state.deck = rest + top[::-1]
    assert state.card_count() == len(GAME.cards) and len(state.card_places()) == len(GAME.cards)
    return pick


def new(players: int = 2, **options: Any) -> WaterlooState:
    return GAME.new_state(random.Random(7), {"players": players, **options})


def run(state: WaterlooState, *actions: Action, seed: int = 0) -> None:
    for k, action in enumerate(actions):
        state.apply(action, random.Random(seed + k))


def snapshot(state: WaterlooState) -> Any:
    return json.dumps([state.view(p) for p in [None, *range(state.n)]], sort_keys=True), state.card_places()


def refused(state: WaterlooState, action: Action, message: str) -> None:
    before = snapshot(state)
    with pytest.raises(Refusal) as err:
        state.apply(action, random.Random(0))
    assert str(err.value) == message
    assert snapshot(state) == before


def passive(state: WaterlooState) -> Action:
    """Pass or call, keep every drawn card, stand pat, pay: a hand that always reaches showdown."""
    p = state.current_player
    assert p is not None
    kinds = {a.kind: a for a in state.legal_actions()}
    for kind in ("pass", "call", "draw", "keep", "stand", "pay"):
        if kind in kinds:
            return kinds[kind]
    raise AssertionError(kinds)


def finish_hand(state: WaterlooState) -> None:
    number = state.hand_number
    while state.hand_number == number and not state.is_terminal:
        state.apply(passive(state), random.Random(number))


# -- setup ----------------------------------------------------------------------------------------
def test_r2_setup_deals_reserves_community_and_two_cards_after_the_ante() -> None:
    state = new(3, button=1)
    assert state.chips == [99, 99, 99] and state.bets == [1, 1, 1]
    assert [len(h) for h in state.hands] == [2, 2, 2]
    assert all(set(r) == {"up", "down"} for r in state.reserves) and len(state.community) == 3
    assert len(state.deck) == 64 - 6 - 3 - 6
    assert state.current_player == 2, "play starts left of the button"


def test_options_are_checked() -> None:
    with pytest.raises(Refusal, match=r"^Waterloo is for 2 to 6 players, not 7\.$"):
        GAME.check_options({"players": 7})
    with pytest.raises(Refusal, match=r"^Reserves and community cards return after 7, 14, 21 hands; 10 is not"):
        GAME.check_options({"return_after": 10})
    with pytest.raises(Refusal, match=r"^Unknown table option 'speed'"):
        GAME.check_options({"speed": 2})
    with pytest.raises(Refusal, match=r"^The button must sit at a seat from 0 to 2\.$"):
        GAME.check_options({"players": 3, "button": 3})


def test_view_hides_other_hands_and_face_down_reserves() -> None:
    state = new(3)
    mine, spectator = state.view(1), state.view(None)
    assert mine["players"][1]["hand"] == state.hands[1]
    assert mine["players"][1]["reserve_down"] == state.reserves[1]["down"]
    assert mine["players"][0]["hand"] is None and mine["players"][0]["reserve_down"] is None
    assert mine["players"][0]["reserve_up"] == state.reserves[0]["up"]
    assert all(seat["hand"] is None and seat["reserve_down"] is None for seat in spectator["players"])
    assert spectator["players"][2]["hand_count"] == 2
    json.dumps(spectator)
    assert state.deck[-1] not in json.dumps(spectator)


# -- R4 betting -----------------------------------------------------------------------------------------
def test_r4_refusals_in_betting_are_exact_and_leave_the_state_alone() -> None:
    state = new(2)
    refused(state, act("pass", 0), "It is not your turn: waiting for P1.")
    refused(state, act("call", 1), "There is nothing to call; pass instead.")
    refused(state, act("raise", 1, amount=0), "Raise by a whole number of chips, at least 1.")
    refused(state, act("raise", 1, amount=6), "A raise is at most 5 chips.")
    refused(state, act("draw", 1), "You cannot draw now: betting is under way: pass, call, raise or fold.")
    refused(state, act("dance", 1), "There is no action 'dance' in Waterloo.")
    refused(state, act("pass", 5), "There is no player 5 at this table.")
    run(state, act("raise", 1, amount=2))
    refused(state, act("pass", 0), "You cannot pass: call 2 more chips, raise or fold.")


def test_r4_raise_is_capped_by_own_chips_and_by_the_poorest_player() -> None:
    state = new(3)
    state.chips = [3, 50, 2]
    refused(state, act("raise", 1, amount=4), "P2 could only match a raise of 2; raise by at most 2.")
    run(state, act("raise", 1, amount=2), act("call", 2))
    refused(state, act("raise", 0, amount=1), "No raise is possible: P2 has no chips left to match it.")
    state = new(2)
    state.chips = [40, 3]
    refused(state, act("raise", 1, amount=4), "You have only 3 chips: raising by 4 would cost 4.")


def test_r4_three_raises_per_round() -> None:
    state = new(2)
    run(state, act("raise", 1, amount=1), act("raise", 0, amount=1), act("raise", 1, amount=1))
    refused(state, act("raise", 0, amount=1), "This betting round has had 3 raises, the limit: call, pass or fold.")
    assert {a.kind for a in state.legal_actions()} == {"call", "fold"}
    run(state, act("call", 0))
    assert state.phase == "draw" and state.bets == [4, 4] and state.chips == [96, 96]


def test_r4_acting_after_folding_is_refused() -> None:
    state = new(3)
    run(state, act("fold", 1))
    refused(state, act("call", 1), "You folded this hand; wait for the next one.")
    assert state.current_player == 2


def test_r15_everyone_else_folds_and_the_last_player_collects_every_bet() -> None:
    state = new(3)
    run(state, act("raise", 1, amount=3), act("fold", 2), act("fold", 0))
    assert state.last_result is not None and state.last_result["chips"] == [99, 102, 99]
    assert state.hand_number == 2 and state.last_result is not None
    assert state.last_result["winners"] == [1] and state.last_result["showdown"] is None


# -- R5 drawing turns -----------------------------------------------------------------------------------
def test_r5_draw_then_keep_or_exchange() -> None:
    state = new(2)
    pick = arrange(state, {0: "I1 I2", 1: "C1 C2"}, community="A1 A2 A3", deck_top="SC GEN FB")
    run(state, act("pass", 1), act("pass", 0))
    assert state.phase == "draw" and state.current_player == 1
    refused(state, act("keep", 1), "Draw a card first.")
    run(state, act("draw", 1))
    assert state.hands[1][-1] == "scout-1" and state.view(1)["drawn"] == "scout-1"
    refused(state, act("draw", 1), "You have drawn this turn; keep the card or exchange one with the community.")
    refused(state, act("exchange", 1, card="guard-infantry-1", community="twelve-pounders-1"),
            "That card is not in your hand.")
    refused(state, act("exchange", 1, card="scout-1", community="militia-1"), "That card is not among the community cards.")
    run(state, act("exchange", 1, card="scout-1", community="twelve-pounders-1"))
    assert state.hands[1] == ["cuirassiers-1", "lancers-1", "twelve-pounders-1"]
    assert state.community == ["scout-1", "eight-pounders-1", "six-pounders-1"]
    assert state.current_player == 0
    run(state, act("draw", 0), act("keep", 0))
    assert state.hands[0] == ["guard-infantry-1", "line-infantry-1", "general-1"]
    assert pick.used["fix-bayonets"] == 1 and state.deck[-1] == "fix-bayonets-1"


def test_r4_four_betting_rounds_one_before_each_drawing_turn_and_one_before_the_swap() -> None:
    """The seed's play order: Betting, Player Turn, "Repeat Steps 4 and 5 until all players have a 5 card
    hand", then "a round of betting prior to the reserve swap": four rounds, one draw each between them."""
    state = new(3)
    assert state.view(None)["betting_rounds"] == 4
    run(state, act("pass", 1), act("fold", 2), act("pass", 0))
    for round_number in (2, 3, 4):
        assert state.phase == "draw" and state.current_player == 1
        run(state, act("draw", 1), act("keep", 1))
        assert state.phase == "draw" and state.current_player == 0
        run(state, act("draw", 0), act("keep", 0))
        assert [len(h) for h in state.hands] == [round_number + 1, round_number + 1, 0]
        assert state.phase == "bet" and state.round == round_number and state.current_player == 1
        run(state, act("pass", 1), act("pass", 0))
    assert [len(h) for h in state.hands] == [5, 5, 0]
    assert state.phase == "swap" and state.current_player == 1


def test_r4_two_round_table_option_draws_to_five_then_final_betting() -> None:
    state = new(3, betting_rounds=2)
    run(state, act("pass", 1), act("fold", 2), act("pass", 0))
    for _ in range(6):
        run(state, act("draw", state.current_player), act("keep", state.current_player))
    assert [len(h) for h in state.hands] == [5, 5, 0]
    assert state.phase == "bet" and state.round == 2 and state.current_player == 1
    run(state, act("pass", 1), act("pass", 0))
    assert state.phase == "swap"


def test_r4_betting_rounds_option_is_checked() -> None:
    with pytest.raises(Refusal, match="A hand has 4 or 2 betting rounds; 3 is not one of them."):
        new(2, betting_rounds=3)
    with pytest.raises(Refusal, match="The table option 'betting_rounds' must be a whole number."):
        new(2, betting_rounds="4")


# -- R6 reserve swap ---------------------------------------------------------------------------------------
def reach_swap(state: WaterlooState) -> None:
    while state.phase != "swap":
        state.apply(passive(state), random.Random(1))


def test_r6_reserve_swap_takes_the_slot_and_only_once() -> None:
    state = new(2)
    arrange(state, {0: "I1 I2", 1: "C1 C2"}, reserves={0: "A1 GEN", 1: "A2 SC"}, deck_top="I3 C3 I3 C3 I3 C3")
    reach_swap(state)
    assert state.current_player == 1
    refused(state, act("swap", 1, card="cuirassiers-1", slot="side"),
            "Choose your face-up or face-down reserve card: slot 'up' or 'down'.")
    run(state, act("swap", 1, card="cuirassiers-1", slot="down"))
    assert state.reserves[1] == {"up": "eight-pounders-1", "down": "cuirassiers-1"}
    assert "scout-1" in state.hands[1]
    refused(state, act("swap", 1, card="lancers-1", slot="up"), "You have already made your reserve swap.")
    assert state.view(0)["players"][1]["reserve_down"] is None
    run(state, act("swap", 0, card="guard-infantry-1", slot="up"))
    finish_hand(state)
    assert state.last_result is not None and state.last_result["hand"] == 1
    assert state.reserves[0] == {"up": "guard-infantry-1", "down": "general-1"}


# -- R15, R16 showdown and ties ------------------------------------------------------------------------------
def test_r15_showdown_winner_collects_all_bets_including_folded() -> None:
    state = new(3)
    arrange(state, {0: "I2 I2", 1: "C1 A1", 2: "I3 C4"}, reserves={0: "A4 I4", 1: "A3 I4", 2: "C2 C3"},
            deck_top="SC SC GR C2 GR A2 RK C3 RK")
    run(state, act("raise", 1, amount=2), act("call", 2), act("call", 0))
    assert state.bets == [3, 3, 3] and state.phase == "draw"
    finish_hand(state)
    result = state.last_result
    assert result is not None and result["winners"] == [0]
    assert result["showdown"]["hands"]["0"]["combo"] == "pair"
    assert result["chips"] == [97 + 9, 97, 97] and sum(state.chips) + sum(state.bets) == 300


def test_r16_tie_splits_and_odd_chip_goes_left_of_the_button() -> None:
    """R16: equal Pair hands of different kinds tie; 7 chips split 4-3, the extra to the seat nearer the button's left."""
    state = new(3, button=0)
    arrange(state, {0: "I2 I2", 1: "C2 C2", 2: "A4 I4"}, reserves={0: "SC SC", 1: "CPT LT", 2: "GEN SGT"},
            community="MG MG DG", deck_top="C1 A1 GR A3 I3 RK FB FB DG")
    run(state, act("raise", 1, amount=2), act("fold", 2), act("call", 0))
    finish_hand(state)
    result = state.last_result
    assert result is not None
    assert result["showdown"]["hands"]["0"]["combo"] == result["showdown"]["hands"]["1"]["combo"] == "pair"
    assert result["winners"] == [1, 0] and result["won"] == {"1": 4, "0": 3}
    assert result["chips"] == [97 + 3, 97 + 4, 99]


# -- R17 Scout -----------------------------------------------------------------------------------------------------
def scout_hand(loser_draws: str, bet: int) -> WaterlooState:
    """P1 loses to P0's Fix Bayonets 3 with a Scout face down; both bet `bet` chips."""
    state = new(2, button=0)
    arrange(state, {0: "FB I3", 1: "I1 C2"}, reserves={0: "A4 A3", 1: "A2 SC"},
            deck_top=f"{loser_draws.split()[0]} I3 {loser_draws.split()[1]} I3 {loser_draws.split()[2]} C4")
    if bet > 1:
        run(state, act("raise", 1, amount=bet - 1), act("call", 0))
    while state.phase != "scout":
        state.apply(passive(state), random.Random(2))
    return state


def test_r17_scout_saves_half_rounded_down() -> None:
    state = scout_hand("C3 A1 SC", 5)
    assert state.current_player == 1 and state.view(1)["scout_saves"] == 2
    assert state.showdown is not None and state.showdown["winners"] == [0]
    refused(state, act("burn_scout", 0), "It is not your turn: waiting for P1.")
    top = state.deck[-1]
    run(state, act("burn_scout", 1))
    assert state.last_result is not None and state.last_result["chips"] == [95 + 8, 95 + 2]
    assert state.reserves[1]["down"] == top and "scout-1" in state.discard


def test_r17_scout_saves_everything_with_an_officer_in_hand() -> None:
    state = scout_hand("C3 SGT GR", 4)
    assert state.view(1)["scout_saves"] == 4
    run(state, act("burn_scout", 1))
    assert state.last_result is not None and state.last_result["chips"] == [96 + 4, 96 + 4]


def test_r17_paying_keeps_the_scout() -> None:
    state = scout_hand("C3 A1 GR", 3)
    run(state, act("pay", 1))
    assert state.last_result is not None and state.last_result["chips"] == [97 + 6, 97]
    assert state.reserves[1]["down"] == "scout-1"


def test_r17_a_face_up_scout_does_nothing() -> None:
    state = new(2, button=0)
    arrange(state, {0: "FB I3", 1: "I1 C2"}, reserves={0: "A4 A3", 1: "SC A2"}, deck_top="C3 I3 A1 I3 GR C4")
    finish_hand(state)
    assert state.last_result is not None and state.last_result["saved"] == [0, 0]
    assert state.last_result["chips"] == [101, 99]


# -- R18, R19 reshuffle and return -----------------------------------------------------------------------------------
def test_r18_two_players_reshuffle_after_five_hands() -> None:
    state = new(2)
    shuffles = []
    for _ in range(6):
        shuffles.append(state.shuffles)
        finish_hand(state)
    assert shuffles == [1, 1, 1, 1, 1, 2]
    assert state.hand_number == 7


def test_r19_reserves_and_community_return_after_the_chosen_hands() -> None:
    state = new(2, return_after=7)
    table = (dict(state.reserves[0]), list(state.community))
    for _ in range(7):
        assert (state.reserves[0], state.community) == table
        finish_hand(state)
    assert state.hand_number == 8 and state.hands_since_return == 0
    assert state.view(None)["hands_until_return"] == 7
    assert (dict(state.reserves[0]), list(state.community)) != table


# -- R20 elimination, whole games --------------------------------------------------------------------------------------
def test_r20_a_player_at_zero_is_out_and_the_last_with_chips_wins() -> None:
    state = new(2, starting_chips=2)
    arrange(state, {0: "I1 I1", 1: "C2 A3"}, reserves={0: "A4 A4", 1: "C4 GR"}, community="I4 I4 I4",
            deck_top="C3 C4 A3 A4 SGT GR")
    run(state, act("raise", 1, amount=1), act("call", 0))
    finish_hand(state)
    assert state.is_terminal and state.winner == 0 and state.chips == [4, 0] and state.out == [False, True]
    refused(state, act("pass", 0), "The game is over.")
    assert state.legal_actions() == [] and state.current_player is None


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 6))
def test_random_games_conserve_chips_and_cards(seed: int, players: int) -> None:
    match = Match(GAME, seed, {"players": players, "starting_chips": 12})
    rng = random.Random(seed)
    while not match.state.is_terminal and len(match.log) < 400:
        state = match.state
        assert sum(state.chips) + sum(state.bets) == 12 * players
        assert state.card_count() == 64 and len(state.card_places()) == 64
        legal = state.legal_actions()
        assert legal and all(state.can(a) for a in legal)
        assert all(state.label(a) != str(a) for a in legal), "every action has its own wording"
        other = next(p for p in range(players) if p != state.current_player)
        if len(match.log) % 25 == 0:
            refused_anyway = Action(legal[0].kind, other, legal[0].args)
            before = snapshot(state)
            with pytest.raises(Refusal):
                state.apply(refused_anyway, random.Random(0))
            assert snapshot(state) == before
        match.apply(rng.choice(legal))
    if match.state.is_terminal:
        assert match.state.chips[match.state.winner] == 12 * players


# -- Match: golden replay and undo ------------------------------------------------------------------------------------------
GOLDEN_FILE = GOLDEN / "waterloo_seed13_3p.json"


def play_golden(seed: int) -> dict[str, Any]:
    """Random legal moves from `random.Random(seed)`, folding only now and then, to the end of a 3-player game."""
    options = {"players": 3, "starting_chips": 30, "return_after": 7, "button": 2}
    match = Match(GAME, seed, options)
    rng = random.Random(seed)
    while not match.state.is_terminal:
        match.apply(rarely_fold(match.state.legal_actions(), rng))
    state = match.state
    return {"seed": seed, "options": options, "log": [a.to_json() for a in match.log], "winner": state.winner,
            "chips": state.chips, "hand_number": state.hand_number, "shuffles": state.shuffles,
            "final_view": state.view(None)}


def test_golden_game_replays_to_its_recorded_end() -> None:
    """A 3-player game of 15 hands, four betting rounds each (R4): folds, raises, exchanges, reserve swaps, a Scout
    burn, losers paying (R28), 5 shuffles (R18, R19)."""
    record = json.loads(GOLDEN_FILE.read_text())
    kinds = Counter(a["kind"] for a in record["log"])
    assert kinds["burn_scout"] == 1 and kinds["pay"] == 10 and kinds["swap"] == 17 and kinds["fold"] == 5
    assert kinds["exchange"] > 0
    match = Match(GAME, record["seed"], record["options"], [Action.from_json(a) for a in record["log"]])
    state = match.state
    assert state.is_terminal and state.winner == record["winner"]
    assert state.chips == record["chips"] and state.hand_number == record["hand_number"]
    assert state.shuffles == record["shuffles"] == 5 and record["hand_number"] == 15
    assert state.view(None) == record["final_view"]


def test_undo_back_to_the_start() -> None:
    match = Match(GAME, 99, {"players": 3})
    start = snapshot(match.state)
    rng = random.Random(4)
    for _ in range(40):
        match.apply(rng.choice(match.state.legal_actions()))
    after = snapshot(match.state)
    last = match.log[-1]
    match.undo()
    match.apply(last)
    assert snapshot(match.state) == after, "redoing an undone action gives the same position"
    while match.log:
        match.undo()
    assert snapshot(match.state) == start
    with pytest.raises(Refusal, match="There is nothing to undo."):
        match.undo()
    assert after != start


def test_labels_read_as_phrases() -> None:
    state = new(2)
    labels = [state.label(a) for a in state.legal_actions()]
    assert labels[:3] == ["Pass", "Raise by 1 (bet 2)", "Raise by 2 (bet 3)"] and labels[-1] == "Fold"
    down = GAME.names[state.reserves[0]["down"]]
    assert state.label(act("swap", 0, card="militia-1", slot="down")) == \
        f"Swap Militia into your face-down reserve, taking {down}", "the label names the reserve card taken"


def test_rule_constants_come_from_the_data() -> None:
    """A designer's changes to [rules] reach the engine: ante, raise size, raises per round, Scout share."""
    rules = DATA.rules.model_copy(update={"ante": 2, "max_raise": 2, "max_raises_per_round": 1,
                                          "scout_save_percent": 25, "starting_chips": 30})
    game = make_game(dataclasses.replace(DATA, rules=rules))
    state = game.new_state(random.Random(7), {"players": 2})
    assert state.chips == [28, 28] and state.bets == [2, 2]
    refused(state, act("raise", 1, amount=3), "A raise is at most 2 chips.")
    run(state, act("raise", 1, amount=2))
    refused(state, act("raise", 0, amount=1), "This betting round has had 1 raises, the limit: call, pass or fold.")
    state.bets[1] = 11
    state.hands[1] = ["guard-infantry-1", "lancers-1"]
    assert state._scout_saving(1) == 2, "25% of 11, rounded down (R17)"
    state.hands[1] = ["guard-infantry-1", "captain-1"]
    assert state._scout_saving(1) == 11


if __name__ == "__main__":
    GOLDEN_FILE.write_text(json.dumps(play_golden(13), indent=1) + "\n")
    print(f"wrote {GOLDEN_FILE}")
