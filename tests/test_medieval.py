"""Reenforcements (medieval): hand-worked cases per ruling (docs/rules/medieval.md), refusals and hiding.

Most cases stack the decks (option `decks`, ruling R13): the listed cards are the draw deck,
top first, and every other card starts in the Graveyard. A battle lays three cards a side,
then the next three are the reenforcements, then chains and tie cards come off the top.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from cards import load_game
from engine.core import Match, Refusal, act
from engine.medieval import MedievalState, best_placement, expected_outcomes, make_game

DATA = load_game("medieval")
GAME = make_game(DATA)
PEASANTS = ["peasant-levy-1", "peasant-levy-2", "peasant-levy-3"]


def stacked(p0: list[str], p1: list[str], game: Any = GAME) -> Match[MedievalState]:
    return Match(game, 0, {"decks": [p0, p1]})


def place(match: Match[MedievalState], player: int, *cards: str | None) -> MedievalState:
    return match.apply(act("place", player, cards=list(cards)))


def column(state: MedievalState, col: int, player: int) -> list[str]:
    return [GAME.ids[card] for card, _ in state.table[col][player]]


def ids(cards: list[int]) -> list[str]:
    return [GAME.ids[c] for c in cards]


def last(state: MedievalState, col: int) -> dict[str, Any]:
    return state.view(None)["battles"][-1]["columns"][col]


# --- setup and the opening lay ------------------------------------------------------------


def test_setup_shuffles_two_full_decks_and_lays_the_first_battle() -> None:
    state = Match(GAME, 11).state
    assert state.battle == 1 and not state.over
    for p in (0, 1):
        assert state.cards_left(p) == 72 and len(state.hands[p]) == 3
        assert all(state.table[c][p] for c in range(3))
    assert state.players_to_act() == [0, 1] and state.current_player is None


def test_r3_lay_left_to_right_then_three_reenforcements() -> None:
    p0 = ["archer-1", "knight-1", "pikeman-1", *PEASANTS, "man-at-arms-1"]
    p1 = ["archer-1", "archer-2", "archer-3", *PEASANTS, "man-at-arms-1"]
    state = stacked(p0, p1).state
    assert [column(state, c, 0) for c in range(3)] == [["archer-1"], ["knight-1"], ["pikeman-1"]]
    assert ids(state.hands[0]) == PEASANTS and ids(state.decks[0]) == ["man-at-arms-1"]
    assert state.totals() == [[3, 7, 5], [3, 3, 3]]
    assert len(state.graveyard[0]) == 72 - 7


def test_r11_winners_to_own_survivors_losers_to_own_graveyard() -> None:
    p0 = ["knight-1", "archer-1", "man-at-arms-1", *PEASANTS, "pikeman-1"]
    p1 = ["pikeman-1", "pikeman-2", "pikeman-3", *PEASANTS, "knight-1"]
    match = stacked(p0, p1)
    place(match, 0, *PEASANTS)
    state = place(match, 1, *PEASANTS)
    assert [last(state, c)["totals"] for c in range(3)] == [[8, 6], [4, 6], [5, 6]]
    assert [last(state, c)["winner"] for c in range(3)] == [0, 1, 1]
    assert state.battle == 2
    grave0 = set(ids(state.graveyard[0]))
    assert {"archer-1", "man-at-arms-1", "peasant-levy-2", "peasant-levy-3"} <= grave0
    assert "knight-1" not in grave0 and "peasant-levy-1" not in grave0
    assert {"pikeman-1", "peasant-levy-1"} <= set(ids(state.graveyard[1]))


def test_r2_empty_deck_is_rebuilt_from_survivors_mid_lay() -> None:
    p0 = ["knight-1", "archer-1", "man-at-arms-1", *PEASANTS, "pikeman-1"]
    p1 = ["pikeman-1", "pikeman-2", "pikeman-3", *PEASANTS, "knight-1"]
    match = stacked(p0, p1)
    place(match, 0, *PEASANTS)
    state = place(match, 1, *PEASANTS)
    # Battle 2: pikeman-1 was the last card of the deck; the two Survivors were shuffled in for the rest.
    assert column(state, 0, 0) == ["pikeman-1"]
    assert sorted(column(state, 1, 0) + column(state, 2, 0)) == ["knight-1", "peasant-levy-1"]
    assert state.survivors[0] == [] and state.decks[0] == [] and state.hands[0] == []


def test_r3_short_hand_chooses_which_columns_get_reenforcements() -> None:
    state = stacked(["archer-1", "archer-2", "archer-3", "knight-1"],
                    ["archer-1", "archer-2", "archer-3", *PEASANTS]).state
    assert [a["cards"] for a in state.legal_actions(0)] == [
        ["knight-1", None, None], [None, "knight-1", None], [None, None, "knight-1"]]
    assert len(state.legal_actions(1)) == 6


def test_r3_a_player_without_reenforcements_does_not_act() -> None:
    state = stacked(["archer-1", "archer-2", "archer-3"], ["archer-1", "archer-2", "archer-3", *PEASANTS]).state
    assert state.players_to_act() == [1] and state.current_player == 1
    assert state.legal_actions(0) == []


# --- chains, events and characters --------------------------------------------------------


def test_r1_play_another_chains_onto_the_same_column() -> None:
    p0 = ["squire-1", "herald-1", "knight-1", "archer-1", "archer-2", *PEASANTS]
    state = stacked(p0, ["archer-1", "archer-2", "archer-3", *PEASANTS]).state
    assert column(state, 0, 0) == ["squire-1", "herald-1", "knight-1"]
    assert column(state, 1, 0) == ["archer-1"] and column(state, 2, 0) == ["archer-2"]
    assert state.totals()[0] == [10, 3, 3]


def test_r1_call_to_arms_plays_two_more_cards() -> None:
    p0 = ["call-to-arms", "knight-1", "knight-2", "archer-1", "archer-2", *PEASANTS]
    state = stacked(p0, ["archer-1", "archer-2", "archer-3", *PEASANTS]).state
    assert column(state, 0, 0) == ["call-to-arms", "knight-1", "knight-2"]
    assert state.totals()[0][0] == 14


def test_r4_events_in_the_opening_lay_take_effect() -> None:
    p0 = ["rain-of-arrows-1", "ambush-1", "archer-1", *PEASANTS]
    p1 = ["knight-1", "archer-1", "archer-2", *PEASANTS]
    state = stacked(p0, p1).state
    assert state.totals() == [[0, 4, 3], [3, 3, 3]]


def test_r7_a_total_never_drops_below_zero() -> None:
    state = stacked(["rain-of-arrows-1", "archer-1", "archer-2", *PEASANTS],
                    ["peasant-levy-4", "archer-1", "archer-2", *PEASANTS]).state
    assert state.totals()[1][0] == 0


def test_r7_characters_add_to_their_column_or_to_every_column() -> None:
    state = stacked(["bishop-1", "king", "archer-1", *PEASANTS], ["archer-1", "archer-2", "archer-3", *PEASANTS]).state
    assert state.totals()[0] == [2 + 3 + 2, 5 + 2, 3 + 2]


def test_r4_an_event_placed_as_a_reenforcement_counts_zero() -> None:
    p0 = ["archer-1", "knight-1", "knight-2", "ambush-1", "peasant-levy-1", "peasant-levy-2", "man-at-arms-1"]
    p1 = ["archer-4", "archer-5", "archer-6", *PEASANTS, "man-at-arms-1"]
    match = stacked(p0, p1)
    place(match, 0, "ambush-1", "peasant-levy-1", "peasant-levy-2")
    state = place(match, 1, *PEASANTS)
    assert last(state, 0)["totals"] == [3, 4] and last(state, 0)["winner"] == 1
    assert last(state, 0)["cards"][0] == [{"card": "archer-1", "counts": True, "tie": False},
                                             {"card": "ambush-1", "counts": False, "tie": False}]
    assert "ambush-1" in ids(state.graveyard[0])


def test_r4_a_chain_from_a_reenforcement_brings_only_inert_events() -> None:
    p0 = ["archer-1", "knight-1", "knight-2", "squire-1", "peasant-levy-1", "peasant-levy-2",
          "ambush-1", "man-at-arms-1"]
    p1 = ["pikeman-1", "archer-5", "archer-6", *PEASANTS, "man-at-arms-1"]
    match = stacked(p0, p1)
    place(match, 0, "squire-1", "peasant-levy-1", "peasant-levy-2")
    state = place(match, 1, *PEASANTS)
    col = last(state, 0)
    assert [c["card"] for c in col["cards"][0]] == ["archer-1", "squire-1", "ambush-1"]
    assert col["totals"] == [5, 6] and col["winner"] == 1


def test_r6_beside_event_is_replaced_and_goes_to_its_owners_graveyard() -> None:
    p0 = ["plague-1", "man-at-arms-1", "knight-1", "knight-2", *PEASANTS, "archer-1"]
    p1 = ["pikeman-1", "pikeman-2", "pikeman-3", *PEASANTS, "man-at-arms-1"]
    match = stacked(p0, p1)
    state = match.state
    assert ids(state.beside[0]) == ["plague-1"]
    assert column(state, 0, 0) == ["man-at-arms-1"]
    assert state.totals() == [[4, 7, 7], [3, 3, 3]]
    assert state.view(1)["players"][0]["beside"] == ["plague-1"]
    place(match, 0, *PEASANTS)
    state = place(match, 1, *PEASANTS)
    assert [last(state, c)["winner"] for c in range(3)] == [0, 0, 0]
    assert state.view(None)["battles"] == [state.view(0)["battles"][0]]
    assert state.view(None)["battles"][0]["beside"] == [["plague-1"], []]
    assert "plague-1" in ids(state.graveyard[0]) and state.beside == [[], []]


def test_r6_blessing_beside_adds_to_every_column() -> None:
    state = stacked(["blessing-1", "archer-1", "archer-2", "archer-3", *PEASANTS],
                    ["archer-1", "archer-2", "archer-3", *PEASANTS]).state
    assert state.totals()[0] == [5, 5, 5]


# --- ties, deadlocks and unopposed columns -------------------------------------------------


def test_r8_a_tie_adds_a_card_from_each_deck() -> None:
    p0 = ["archer-1", "knight-1", "knight-2", *PEASANTS, "knight-3", "man-at-arms-1"]
    p1 = ["archer-1", "archer-2", "archer-3", *PEASANTS, "peasant-levy-4", "man-at-arms-1"]
    match = stacked(p0, p1)
    place(match, 0, *PEASANTS)
    state = place(match, 1, *PEASANTS)
    col = last(state, 0)
    assert col["tie_rounds"] == 1 and col["totals"] == [11, 5] and col["winner"] == 0
    assert [c["card"] for c in col["cards"][0]] == ["archer-1", "peasant-levy-1", "knight-3"]
    assert [c["tie"] for c in col["cards"][0]] == [False, False, True], "the report names the tie card as one"
    assert [c["tie"] for c in col["cards"][1]] == [False, False, True]


def test_r5_an_event_drawn_as_a_tie_card_counts_zero() -> None:
    p0 = ["archer-1", "knight-1", "knight-2", *PEASANTS, "ambush-1", "man-at-arms-1"]
    p1 = ["archer-1", "archer-2", "archer-3", *PEASANTS, "peasant-levy-4", "man-at-arms-1"]
    match = stacked(p0, p1)
    place(match, 0, *PEASANTS)
    state = place(match, 1, *PEASANTS)
    assert last(state, 0)["totals"] == [4, 5] and last(state, 0)["winner"] == 1


def test_r8_ties_repeat_until_decided() -> None:
    p0 = ["archer-1", "knight-1", "knight-2", *PEASANTS, "archer-2", "knight-3"]
    p1 = ["archer-1", "archer-2", "archer-3", *PEASANTS, "archer-4", "peasant-levy-4"]
    match = stacked(p0, p1)
    place(match, 0, *PEASANTS)
    state = place(match, 1, *PEASANTS)
    col = last(state, 0)
    assert col["tie_rounds"] == 2 and col["totals"] == [14, 8] and col["winner"] == 0


def test_r9_r3_unbreakable_tie_destroys_both_and_the_war_is_drawn() -> None:
    state = stacked(["archer-1"], ["archer-1"]).state
    assert state.over and state.winner is None and state.end_reason == "both armies are destroyed"
    assert last(state, 0)["outcome"] == "deadlock" and last(state, 0)["winner"] is None
    assert state.graveyard[0] and len(state.graveyard[0]) == len(state.graveyard[1]) == 72


def test_r9_r10_only_one_side_can_break_the_tie_and_unopposed_columns_win() -> None:
    p1 = ["archer-1", "peasant-levy-1", "peasant-levy-2", "ambush-1", "man-at-arms-1",
          "man-at-arms-2", "knight-1"]
    match = stacked(["archer-1"], p1)
    state = match.state
    assert state.players_to_act() == [1]
    state = place(match, 1, "ambush-1", "man-at-arms-1", "man-at-arms-2")
    # Column 0 is 3-3; Crimson has no card left to add, Azure adds its Knight.
    assert last(state, 0)["totals"] == [3, 10] and last(state, 0)["tie_rounds"] == 1
    assert last(state, 1)["outcome"] == "unopposed" and last(state, 1)["winner"] == 1
    assert state.over and state.winner == 1 and state.end_reason == "Crimson has no forces left"


def test_r10_an_unopposed_column_wins_even_with_zero() -> None:
    state = stacked(["desertion", "rain-of-arrows-1"], ["knight-1"]).state
    # Battle 1: Desertion (0) loses to the Knight (7-3); Rain of Arrows (0) faces nobody and survives.
    # Battle 2: Rain of Arrows (0) loses to the Knight (7-4), and Crimson has nothing left.
    assert state.battle == 2 and state.over and state.winner == 1
    assert last(state, 0)["cards"][0] == [{"card": "rain-of-arrows-1", "counts": True, "tie": False}]
    assert last(state, 0)["totals"] == [0, 3] and last(state, 1)["outcome"] == "empty"


def test_r8_a_decided_column_stays_decided() -> None:
    # Column 1 is decided 7-3 for Azure; Crimson's tie card in column 0 is the Queen (+1 everywhere)...
    p0 = ["archer-1", "archer-2", "archer-3", *PEASANTS, "queen", "man-at-arms-1"]
    p1 = ["archer-1", "knight-1", "archer-3", *PEASANTS, "peasant-levy-4", "man-at-arms-1"]
    match = stacked(p0, p1)
    place(match, 0, *PEASANTS)
    state = place(match, 1, *PEASANTS)
    # ...which decides column 0 and column 2 but cannot reopen column 1.
    assert last(state, 1)["totals"] == [4, 8] and last(state, 1)["winner"] == 1
    assert last(state, 0)["totals"] == [4 + 3 + 1, 4 + 1] and last(state, 0)["winner"] == 0


# --- the end of the war -------------------------------------------------------------------


def test_r12_battle_cap_ends_with_more_cards_winning() -> None:
    rules = DATA.rules.model_copy(update={"max_battles": 1})
    capped = make_game(dataclasses.replace(DATA, rules=rules))
    p0 = ["knight-1", "knight-2", "knight-3", *PEASANTS, "man-at-arms-1", "man-at-arms-2"]
    p1 = ["archer-1", "archer-2", "archer-3", *PEASANTS, "man-at-arms-1"]
    match = stacked(p0, p1, capped)
    place(match, 0, *PEASANTS)
    state = place(match, 1, *PEASANTS)
    assert state.over and state.winner == 0 and state.end_reason == "the battle limit (1) was reached"
    assert state.players_to_act() == [] and state.legal_actions() == []


def test_same_seed_same_war() -> None:
    def play(seed: int) -> list[Any]:
        rng = random.Random(seed)
        match = Match(GAME, seed)
        while not match.state.is_terminal:
            match.apply(rng.choice(match.state.legal_actions()))
        return [a.to_json() for a in match.log] + [match.state.view(None)]

    assert play(5) == play(5)
    assert play(5) != play(6)


# --- refusals, labels and hidden information ----------------------------------------------


def test_refusals_explain_themselves_and_change_nothing() -> None:
    match = stacked(["archer-1", "archer-2", "archer-3", *PEASANTS],
                    ["archer-1", "archer-2", "archer-3", "knight-1"])
    state = match.state
    before = state.view(0)
    cases = [
        (act("charge", 0), "The only move in Reenforcements is placing your reenforcements ('place'), not 'charge'."),
        (act("place", 2, cards=[]), "There is no player 2 in this game; players are 0 and 1."),
        (act("place", 0, cards=PEASANTS[:2]),
         "Give one entry per column (3, left to right): a card from your hand, or nothing."),
        (act("place", 0, cards=["knight-1", *PEASANTS[:2]]),
         "'knight-1' is not one of your reenforcements (you hold peasant-levy-1, peasant-levy-2, peasant-levy-3)."),
        (act("place", 0, cards=[["peasant-levy-1"], "peasant-levy-2", "peasant-levy-3"]),
         "'cards' of 'place' must be one entry per column: a card from your hand, or nothing, "
         "not [['peasant-levy-1'], 'peasant-levy-2', 'peasant-levy-3']."),
        (act("place", 0, cards=["peasant-levy-1", "peasant-levy-1", "peasant-levy-2"]),
         "'peasant-levy-1' is placed twice; each reenforcement goes to exactly one column."),
        (act("place", 0, cards=["peasant-levy-1", None, "peasant-levy-2"]),
         "Every reenforcement must go to a column; you left out peasant-levy-3."),
    ]
    for action, message in cases:
        with pytest.raises(Refusal) as info:
            state.apply(action, random.Random(0))
        assert str(info.value) == message
        assert state.view(0) == before
    place(match, 0, *PEASANTS)
    with pytest.raises(Refusal, match="^You have already committed your reenforcements for this battle.$"):
        state.verify(act("place", 0, cards=PEASANTS))
    place(match, 1, "knight-1", None, None)
    over = stacked(["archer-1"], ["archer-1"]).state
    with pytest.raises(Refusal, match="^The war is over; there is nothing left to place.$"):
        over.verify(act("place", 0, cards=PEASANTS))
    short = stacked(["archer-1", "archer-2", "archer-3"], ["archer-1", "archer-2", "archer-3", *PEASANTS]).state
    with pytest.raises(Refusal, match="^You have no reenforcements to place in this battle.$"):
        short.verify(act("place", 0, cards=[None, None, None]))


def test_r13_stacked_deck_options_are_checked() -> None:
    cases = [
        ({"colour": "red"}, "Reenforcements has no option called 'colour' (the only option is 'decks')."),
        ({"decks": ["knight-1"]}, "Stacked decks must be two lists of card ids, one per player, top card first."),
        ({"decks": [["knight-1"], []]}, "Azure's stacked deck is empty; each player needs at least one card."),
        ({"decks": [["dragon"], ["knight-1"]]}, "There is no card 'dragon' in a Reenforcements (Medieval Edition) deck."),
        ({"decks": [["knight-1", "knight-1"], ["knight-1"]]}, "Card 'knight-1' appears twice in Crimson's stacked deck."),
    ]
    for options, message in cases:
        with pytest.raises(Refusal) as info:
            Match(GAME, 0, options)
        assert str(info.value) == message


def test_label_names_cards_and_columns() -> None:
    state = stacked(["archer-1", "archer-2", "archer-3", "knight-1"], ["archer-1", "archer-2", "archer-3", *PEASANTS]).state
    assert state.label(act("place", 0, cards=[None, "knight-1", None])) == "Place Knight centre"
    assert state.label(act("place", 1, cards=PEASANTS)) == "Place Peasant Levy left, Peasant Levy centre, Peasant Levy right"


def test_r11_r14_hands_and_commitments_are_hidden_until_both_reveal() -> None:
    match = stacked(["archer-1", "archer-2", "archer-3", *PEASANTS, "knight-1"],
                    ["archer-1", "archer-2", "archer-3", "knight-1", "knight-2", "knight-3", "pikeman-1"])
    own, other, spectator = (match.state.view(p) for p in (0, 1, None))
    assert own["players"][0]["hand"] == PEASANTS
    assert other["players"][0]["hand"] == 3 and spectator["players"][0]["hand"] == 3
    assert spectator["players"][1]["hand"] == 3 and own["players"][1]["hand"] == 3
    state = place(match, 0, "peasant-levy-2", "peasant-levy-1", "peasant-levy-3")
    own, other, spectator = (state.view(p) for p in (0, 1, None))
    assert own["players"][0]["placement"] == ["peasant-levy-2", "peasant-levy-1", "peasant-levy-3"]
    assert other["players"][0]["committed"] and other["players"][0]["placement"] is None
    assert spectator["players"][0]["placement"] is None
    assert all(len(col["cards"][0]) == 1 for col in other["columns"])
    assert "deck" in other["players"][0] and isinstance(other["players"][0]["deck"], int)
    assert state.players_to_act() == [1]


# --- the placement policy ------------------------------------------------------------------


def test_policy_scores_every_placement_exactly_when_the_opponent_has_no_reenforcements() -> None:
    p0 = [*PEASANTS, "archer-1", "pikeman-1", "knight-1"]
    state = stacked(p0, ["archer-1", "archer-2", "man-at-arms-1"]).state
    scores = {tuple(o.action["cards"]): o.expected_columns for o in expected_outcomes(state, 0)}
    assert scores[("archer-1", "pikeman-1", "knight-1")] == 3.0
    assert scores[("pikeman-1", "knight-1", "archer-1")] == 2.5  # 4 against 4 is a tie: half a column
    assert sorted(scores.values()) == [2.5, 2.5, 3.0, 3.0, 3.0, 3.0]
    balance = {tuple(o.action["cards"]): o.expected_cards for o in expected_outcomes(state, 0)}
    # Winning a column sends Azure's one card there to the Graveyard; the tie risks Crimson's two.
    assert balance[("archer-1", "pikeman-1", "knight-1")] == 3.0
    assert balance[("pikeman-1", "knight-1", "archer-1")] == 2 + 0.5 * 1 - 0.5 * 2
    best = best_placement(state, 0)
    assert best.player == 0 and best["cards"][2] != "archer-1"
    outcome = expected_outcomes(state, 0)[0]
    assert outcome.to_json()["per_column"] == [1.0, 1.0, 1.0]
    assert outcome.to_json()["expected_cards"] == 3.0


def test_policy_weighs_the_opponents_unseen_cards() -> None:
    # Azure's unseen cards are three Champions (9): Crimson's one column it can hold is the one it leads.
    p0 = ["knight-1", "archer-1", "archer-2", *PEASANTS]
    p1 = ["peasant-levy-1", "peasant-levy-2", "peasant-levy-3", "champion-1", "champion-2", "knight-1"]
    state = stacked(p0, p1).state
    outcomes = expected_outcomes(state, 0)
    assert len({o.expected_columns for o in outcomes}) == 1  # three peasants: every placement is alike
    per_column = outcomes[0].per_column
    assert per_column[0] > per_column[1] == per_column[2]


def test_policy_refuses_when_there_is_nothing_to_place() -> None:
    state = stacked(["archer-1", "archer-2", "archer-3"], ["archer-1", "archer-2", "archer-3", *PEASANTS]).state
    with pytest.raises(Refusal):
        best_placement(state, 0)


def test_clone_is_independent_and_shares_the_game() -> None:
    match = stacked(["archer-1", "archer-2", "archer-3", *PEASANTS, "knight-1"],
                    ["archer-1", "archer-2", "archer-3", *PEASANTS, "knight-1"])
    copy = match.state.clone()
    assert copy.game is GAME and copy.view(None) == match.state.view(None)
    copy.apply(act("place", 0, cards=PEASANTS), random.Random(0))
    assert not match.state.pending[0] and copy.pending[0]
