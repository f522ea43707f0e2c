"""Waterloo with printed cards (R23-R27): the app keeps chips, bets, reveals and the showdown.

Regenerate the golden game deliberately with `python tests/test_waterloo_table.py`.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from waterloo_helpers import designs, entered_hand, rarely_fold

import cards
from engine.core import Action, Match, Refusal, act
from engine.waterloo import make_game

DATA = cards.load_game("waterloo")
GAME = make_game(DATA)
GOLDEN = Path(__file__).parent / "golden"
GOLDEN_FILE = GOLDEN / "waterloo_table_seed26_3p.json"




def reveal(player: int, text: str, scout_down: bool = False) -> Action:
    return act("reveal", player, cards=designs(text), scout_down=scout_down)


def table(players: int = 2, seed: int = 1, **options: Any) -> Match:
    return Match(GAME, seed, {"players": players, "cards": "table", **options})


def run(match: Match, *actions: Action) -> None:
    for action in actions:
        match.apply(action)


def snapshot(match: Match) -> str:
    state = match.state
    return json.dumps([state.view(p) for p in [None, *range(state.n)]], sort_keys=True)


def refused(match: Match, action: Action, message: str) -> None:
    before = snapshot(match)
    with pytest.raises(Refusal) as err:
        match.apply(action)
    assert str(err.value) == message
    assert snapshot(match) == before


def pay_up(match: Match) -> None:
    """Every loser asked about a Scout pays the full bet (R28: all losers are asked)."""
    while match.state.phase == "scout":
        match.apply(act("pay", match.state.current_player))


def to_reveal(match: Match) -> None:
    """Everyone still in passes or calls through both betting rounds."""
    while match.state.phase == "bet":
        p = match.state.current_player
        kinds = {a.kind: a for a in match.state.legal_actions(p)}
        match.apply(kinds.get("pass") or kinds["call"])


# -- the hand's shape -------------------------------------------------------------------------------
def test_r24_the_app_deals_nothing_and_goes_from_the_first_to_the_final_betting() -> None:
    match = table(3, button=1)
    state = match.state
    assert state.chips == [99, 99, 99] and state.bets == [1, 1, 1]
    assert state.hands == [[], [], []] and state.community == [] and state.deck == []
    assert state.current_player == 2
    for round_number in (2, 3, 4):
        run(match, act("pass", 2), act("pass", 0), act("pass", 1))
        assert state.phase == "bet" and state.round == round_number and state.current_player == 2
    run(match, act("pass", 2), act("pass", 0), act("pass", 1))
    assert state.phase == "reveal" and state.players_to_act() == [2, 0, 1] and state.current_player is None
    assert state.legal_actions() == [], "the printed hands are too many to list"


def test_a_full_hand_settles_to_exact_chips() -> None:
    match = table(2, button=0)
    run(match, act("raise", 1, amount=2), act("call", 0))
    assert match.state.bets == [3, 3] and match.state.round == 2
    run(match, act("pass", 1), act("raise", 0, amount=3), act("call", 1))
    run(match, act("pass", 1), act("pass", 0), act("pass", 1), act("pass", 0))
    assert match.state.bets == [6, 6] and match.state.chips == [94, 94]
    run(match, reveal(1, "C2 C2 I3 A4 GR"), reveal(0, "I1 I1 I1 I2 I2"), act("pay", 1))
    state = match.state
    result = state.last_result
    assert result is not None and result["winners"] == [0] and result["won"] == {"0": 12}
    assert result["chips"] == [106, 94] and sum(state.chips) + sum(state.bets) == 200
    assert state.chips == [105, 93] and state.bets == [1, 1], "the next hand's ante"
    ranking = result["showdown"]["ranking"]
    assert [(r["seat"], r["place"], r["name"]) for r in ranking] == [(0, 1, "Full House"), (1, 2, "Pair")]
    assert ranking[0]["against_next"] == {"seat": 1, "tie": False, "why": "Full House is above Pair on the combo table"}
    assert ranking[1]["designs"] == designs("C2 C2 I3 A4 GR"), "cards in order of weight"
    assert result["knocked_out"] == [] and result["scout"] == {"1": "paid"}
    assert state.hand_number == 2 and state.button == 1 and state.phase == "bet" and state.hands == [[], []]


def test_r16_a_tie_splits_and_the_odd_chip_goes_left_of_the_button() -> None:
    match = table(3, button=0)
    run(match, act("raise", 1, amount=2), act("call", 2), act("call", 0))
    to_reveal(match)
    run(match, reveal(0, "C2 C2 I1 C3 A4"), reveal(1, "I3 C4 A1 SGT GR"), reveal(2, "A2 A2 C1 I3 C4"))
    pay_up(match)
    result = match.state.last_result
    assert result is not None
    assert result["winners"] == [2, 0] and result["won"] == {"2": 5, "0": 4}
    assert result["chips"] == [97 + 4, 97, 97 + 5]
    first, second, third = result["showdown"]["ranking"]
    assert (first["seat"], first["place"], second["seat"], second["place"], third["place"]) == (2, 1, 0, 1, 3)
    assert first["against_next"]["tie"] and "shared" in first["against_next"]["why"]
    assert second["against_next"] == {"seat": 1, "tie": False, "why": "Pair is above High Card on the combo table"}


def test_the_explanation_names_the_card_that_decides_within_a_combo() -> None:
    match = table(2, button=0)
    to_reveal(match)
    run(match, reveal(0, "I2 I2 C1 A3 GR"), reveal(1, "C2 C2 C3 A3 GR"))
    pay_up(match)
    first = match.state.last_result["showdown"]["ranking"][0]  # type: ignore[index]
    assert first["seat"] == 0 and first["against_next"]["why"] == (
        "same combo; card 3 in order of weight decides: Cuirassiers 1 beats Hussars 3")


def test_wild_cards_are_explained() -> None:
    match = table(2, button=0)
    to_reveal(match)
    run(match, reveal(0, "A3 MG I1 C2 GR"), reveal(1, "I4 C4 A4 SGT RK"))
    pay_up(match)
    first = match.state.last_result["showdown"]["ranking"][0]  # type: ignore[index]
    assert first["name"] == "Pair" and first["wilds"] == {"magazine-1": "6-Pounders 3"}


# -- R17 the Scout --------------------------------------------------------------------------------------
def scout_showdown(bet: int, loser: str) -> Match:
    """P1 loses with a claimed face-down Scout after both bet `bet` chips."""
    match = table(2, button=0)
    if bet > 1:
        run(match, act("raise", 1, amount=bet - 1), act("call", 0))
    to_reveal(match)
    run(match, reveal(0, "I1 I1 I1 I2 I2", scout_down=True), reveal(1, loser, scout_down=True))
    return match


def test_r17_scout_saves_half_rounded_down() -> None:
    match = scout_showdown(5, "C2 C2 I3 A4 GR")
    state = match.state
    assert state.phase == "scout" and state.current_player == 1 and state.view(1)["scout_saves"] == 2
    assert state.view(None)["showdown"]["ranking"][0]["seat"] == 0
    refused(match, act("burn_scout", 0), "It is not your turn: waiting for P1.")
    run(match, act("burn_scout", 1))
    result = state.last_result
    assert result is not None and result["saved"] == [0, 2] and result["scout"] == {"1": "burned"}
    assert result["chips"] == [95 + 8, 95 + 2]


def test_r17_scout_saves_everything_with_an_officer() -> None:
    match = scout_showdown(5, "C2 C2 I3 CPT GR")
    assert match.state.view(1)["scout_saves"] == 5
    run(match, act("burn_scout", 1))
    assert match.state.last_result["chips"] == [100, 100]  # type: ignore[index]


def test_r17_paying_the_full_bet() -> None:
    match = scout_showdown(4, "C2 C2 I3 CPT GR")
    run(match, act("pay", 1))
    result = match.state.last_result
    assert result is not None and result["chips"] == [104, 96] and result["scout"] == {"1": "paid"}


def test_r28_every_loser_is_asked_and_one_without_a_scout_can_only_pay() -> None:
    match = table(2, button=0)
    to_reveal(match)
    run(match, reveal(0, "I1 I1 I1 I2 I2", scout_down=True), reveal(1, "C2 C2 I3 A4 GR"))
    state = match.state
    assert state.phase == "scout" and state.players_to_act() == [1], "the winner's Scout claim is not asked about"
    assert state.prompt(0) == state.prompt(None) == "Waiting for {p1} to burn a face-down Scout or pay the full bet."
    assert state.legal_actions(1) == [act("pay", 1)] and "scout_saves" not in state.view(1)
    refused(match, act("burn_scout", 1), "You have no Scout face down in your reserve: pay the full bet.")
    run(match, act("pay", 1))
    assert match.state.hand_number == 2 and match.state.last_result["chips"] == [101, 99]  # type: ignore[index]


# -- R20 knock-outs and the end ---------------------------------------------------------------------------
def test_r20_knock_out_then_the_last_player_with_chips_wins() -> None:
    match = table(3, button=0, starting_chips=3)
    run(match, act("raise", 1, amount=2), act("fold", 2), act("call", 0))
    to_reveal(match)
    run(match, reveal(0, "I1 I1 I1 I2 I2"), reveal(1, "C2 C2 I3 A4 GR"))
    pay_up(match)
    state = match.state
    assert state.last_result is not None and state.last_result["knocked_out"] == [1]
    assert state.last_result["chips"] == [7, 0, 2] and state.out == [False, True, False]
    assert state.phase == "bet" and state.hand_number == 2 and state.button == 2 and state.current_player == 0
    refused(match, act("pass", 1), "You are out of chips and out of the game.")
    run(match, act("raise", 0, amount=1), act("call", 2))
    to_reveal(match)
    assert state.players_to_act() == [0, 2]
    run(match, reveal(2, "C2 C2 I3 A4 GR"), reveal(0, "I1 I1 I2 I2 SGT"))
    pay_up(match)
    assert state.is_terminal and state.winner == 0 and state.chips == [9, 0, 0]
    assert state.last_result is not None and state.last_result["knocked_out"] == [2]
    refused(match, reveal(0, "I1 I1 I2 I2 SGT"), "The game is over.")


def test_r15_everyone_else_folds_without_a_reveal() -> None:
    match = table(3, button=0)
    run(match, act("raise", 1, amount=3), act("fold", 2), act("fold", 0))
    result = match.state.last_result
    assert result is not None and result["chips"] == [99, 102, 99] and result["showdown"] is None


# -- R25 refusals --------------------------------------------------------------------------------------------
def test_r25_reveal_refusals_are_clear_and_change_nothing() -> None:
    match = table(3, button=0)
    refused(match, reveal(1, "I1 I1 I1 I2 I2"),
            "You cannot reveal now: betting is under way: pass, call, raise or fold.")
    refused(match, act("pass", 0), "It is not your turn: waiting for P1.")
    refused(match, act("draw", 1), "This table plays with the printed cards: draw, exchange and swap at the table; "
                                   "the app keeps the chips, the bets and the showdown.")
    run(match, act("pass", 1), act("fold", 2), act("pass", 0))
    to_reveal(match)
    refused(match, reveal(2, "I1 I1 I1 I2 I2"), "You folded this hand; wait for the next one.")
    refused(match, act("reveal", 0, cards=designs("I1 I1 I1 I2")), "Reveal exactly 5 cards; you listed 4.")
    refused(match, act("reveal", 0, cards="guard-infantry"),
            "'cards' of 'reveal' must be a list of card designs, like ['guard-infantry', …], not 'guard-infantry'.")
    refused(match, act("reveal", 0, cards=[1, 2, 3, 4, {"card": 5}]),
            "'cards' of 'reveal' must be a list of card designs, like ['guard-infantry', …], "
            "not [1, 2, 3, 4, {'card': 5}].")
    refused(match, act("reveal", 0, cards=[*designs("I1 I1 I1 I2"), "joker"]),
            "'joker' is not a Waterloo card; pick the cards from the deck's list.")
    refused(match, act("reveal", 0, cards=[*designs("I1 I1 I1 I2"), "guard-infantry-1"]),
            "'guard-infantry-1' is not a Waterloo card; pick the cards from the deck's list.")
    refused(match, act("reveal", 0, cards=designs("I1 I1 I1 I2 I2"), scout_down="yes"),
            "'scout_down' of 'reveal' must be true or false (is a Scout face down in your reserve?), not 'yes'.")
    refused(match, reveal(0, "GEN GEN GEN I2 I2"), "The deck has only 2 General cards; your hand lists 3.")
    refused(match, reveal(0, "SC SC I1 I2 I2", scout_down=True),
            "The deck has only 2 Scout cards; your hand and your face-down reserve hold 3.")
    refused(match, act("call", 0), "You cannot call now: the players still in are revealing their hands.")
    refused(match, act("retract", 0), "You have not revealed a hand, so there is nothing to take back.")
    run(match, reveal(0, "I1 I1 I1 SC GEN", scout_down=True))
    refused(match, reveal(0, "I1 I1 I1 I2 I2"),
            "You have already revealed your hand; take it back first if you need to correct it.")
    assert match.state.phase == "reveal" and match.state.players_to_act() == [1]


def test_r25_a_hand_is_never_checked_against_hidden_hands_so_refusals_cannot_probe_them() -> None:
    """Bob's entry is refused or accepted the same whatever Ann entered: only his own hand is checked."""
    for ann in ("I1 I1 I1 SC GEN", "C2 C2 I3 A4 GR"):
        match = table(3, button=0)
        run(match, act("pass", 1), act("pass", 2), act("pass", 0))
        to_reveal(match)
        run(match, reveal(0, ann, scout_down=True))
        refused(match, reveal(1, "GEN GEN GEN I2 I2"), "The deck has only 2 General cards; your hand lists 3.")
        run(match, reveal(1, "I1 I1 I1 C2 C2"), act("retract", 1), reveal(1, "GEN GEN C2 C2 I3", scout_down=True))


def test_r25_hands_that_clash_are_cleared_for_everyone_once_all_are_in() -> None:
    match = table(3, button=0)
    match.history(None)
    run(match, act("pass", 1), act("pass", 2), act("pass", 0))
    to_reveal(match)
    run(match, reveal(0, "I1 I1 I1 SC GEN", scout_down=True), reveal(1, "I1 I1 I1 C2 C2"))
    chips = match.state.chips
    run(match, reveal(2, "C2 C2 I3 A4 GEN", scout_down=True))
    clash = ("Every hand is in, but together they hold 6 Guard Infantry (the deck has 5), 4 Lancers (the deck has 3), "
             "3 Scout (the deck has 2): "
             "someone entered a card wrongly. Every hand is cleared; check your cards and enter them again.")
    state = match.state
    assert state.phase == "reveal" and state.revealed == {} and state.players_to_act() == [1, 2, 0]
    assert state.chips == chips and state.showdown is None
    for viewer in (None, 0, 1, 2):
        assert match.history(viewer)[-1].text == clash
        assert state.view(viewer)["clash"] == clash and "my_reveal" not in state.view(viewer)
    assert match.undo_refusal(2) == "That move cannot be taken back: it revealed the hands entered."
    run(match, reveal(0, "I1 I1 I1 SC GEN"), reveal(1, "I2 I2 C2 C2 I3"), reveal(2, "C2 I3 A4 GEN GR"))
    assert state.phase in ("scout", "bet") and state.showdown is not None and state.clash is None


def test_r25_hands_that_clash_are_checked_when_the_last_seat_to_enter_leaves_instead() -> None:
    """R30 meets R25: the hands entered are checked together however the last one stops being awaited."""
    match = table(3, button=0)
    run(match, act("pass", 1), act("pass", 2), act("pass", 0))
    to_reveal(match)
    run(match, reveal(0, "GEN GEN I1 I1 I1"), reveal(1, "GEN I2 I2 C2 C2"), act("concede", 2))
    state = match.state
    assert state.phase == "reveal" and state.revealed == {} and state.players_to_act() == [1, 0]
    assert state.clash == ("Every hand is in, but together they hold 3 General (the deck has 2): someone entered a "
                           "card wrongly. Every hand is cleared; check your cards and enter them again.")
    run(match, reveal(0, "GEN GEN I1 I1 I1"), reveal(1, "I2 I2 I2 C2 C2"))
    assert state.showdown is not None and state.clash is None


def test_r25_a_wrong_reveal_is_taken_back_and_corrected() -> None:
    match = table(2, button=0)
    to_reveal(match)
    run(match, reveal(0, "I1 I1 I1 I1 I2"))
    assert match.state.legal_actions(0) == [act("retract", 0)] and match.state.players_to_act() == [1]
    run(match, act("retract", 0))
    assert match.state.players_to_act() == [1, 0] and "my_reveal" not in match.state.view(0)
    run(match, reveal(1, "I1 I1 I1 I1 C2"), reveal(0, "I1 I2 I2 I3 I3"))
    pay_up(match)
    assert match.state.last_result["winners"] == [1]  # type: ignore[index]


def test_options_are_checked() -> None:
    with pytest.raises(Refusal) as err:
        GAME.check_options({"cards": "paper"})
    assert str(err.value) == ("The table option 'cards' is 'app' (the app deals every card) or 'table' "
                              "(you play with the printed cards), not 'paper'.")
    GAME.check_options({"cards": "table", "players": 6, "return_after": 14})


def test_app_cards_refuse_a_reveal_and_show_no_table_fields() -> None:
    match = Match(GAME, 1, {"players": 2})
    refused(match, reveal(1, "I1 I1 I1 I2 I2"),
            "The app deals this table's cards, so there is no hand to reveal: it shows them at the showdown.")
    assert "cards" not in match.state.view(None) and "revealed" not in match.state.view(None)["players"][0]


# -- what each phone sees ----------------------------------------------------------------------------------------
def test_view_hides_revealed_hands_until_everyone_has_revealed() -> None:
    match = table(3, button=0)
    to_reveal(match)
    run(match, reveal(0, "RK RK GR GR GEN", scout_down=True))
    for viewer in (None, 1, 2):
        view = match.state.view(viewer)
        text = json.dumps(view)
        assert "rockets" not in text and "grenadiers" not in text and "general" not in text
        assert "my_reveal" not in view and view["showdown"] is None
        assert [s["revealed"] for s in view["players"]] == [True, False, False]
        assert view["players_to_act"] == [1, 2]
    assert match.state.view(0)["my_reveal"] == {"cards": designs("RK RK GR GR GEN"), "scout_down": True}
    assert match.state.label(match.log[-1]) == "Reveal the hand"
    run(match, reveal(1, "I1 I1 I1 I2 I2"), reveal(2, "C2 C2 I3 A4 I4"))
    pay_up(match)
    shown = match.state.view(2)["last_result"]["showdown"]
    assert shown["ranking"][0]["name"] == "Bombs Away" and shown["ranking"][0]["seat"] == 0
    assert shown["hands"]["0"]["cards"] == ["rockets-1", "rockets-2", "grenadiers-1", "grenadiers-2", "general-1"]


def test_r26_the_app_counts_hands_and_says_when_reserves_return() -> None:
    match = table(2, button=0, return_after=7)
    seen = []
    for _ in range(8):
        seen.append((match.state.hand_number, match.state.view(None)["hands_until_return"],
                     match.state.view(None)["return_now"]))
        run(match, act("fold", match.state.current_player))
    assert seen[0] == (1, 7, False) and seen[6] == (7, 1, False) and seen[7] == (8, 7, True)
    assert match.state.shuffles == 1, "reshuffling is the table's business"


# -- Match: undo and the golden game --------------------------------------------------------------------------------
def test_undo_takes_back_a_reveal_and_a_settlement() -> None:
    match = table(2, button=0)
    to_reveal(match)
    before = snapshot(match)
    run(match, reveal(1, "C2 C2 I3 A4 GR"))
    match.undo()
    assert snapshot(match) == before
    run(match, reveal(1, "C2 C2 I3 A4 GR"))
    waiting = snapshot(match)
    run(match, reveal(0, "I1 I1 I1 I2 I2"), act("pay", 1))
    assert match.state.last_result["chips"] == [101, 99]  # type: ignore[index]
    match.undo()
    match.undo()
    assert snapshot(match) == waiting and match.state.phase == "reveal" and match.state.bets == [1, 1]


def policy_action(match: Match, rng: random.Random) -> Action:
    """A random table: bets from the legal list, and reveals of five cards really drawn from one deck."""
    state = match.state
    if state.phase != "reveal":
        return rarely_fold(state.legal_actions(), rng)
    return entered_hand(state, rng)


def play_golden(seed: int, chips: int) -> dict[str, Any]:
    options = {"players": 3, "cards": "table", "starting_chips": chips, "return_after": 7, "button": 2}
    match = Match(GAME, seed, options)
    rng = random.Random(seed)
    while not match.state.is_terminal and len(match.log) < 2000:
        match.apply(policy_action(match, rng))
    state = match.state
    return {"seed": seed, "options": options, "log": [a.to_json() for a in match.log], "winner": state.winner,
            "chips": state.chips, "hand_number": state.hand_number, "final_view": state.view(None)}


def test_golden_table_game_replays_to_its_recorded_end() -> None:
    """3 players, 40 chips, four betting rounds a hand (R4): 23 hands (reserves return twice, R26), Scout burned and paid, two knock-outs."""
    record = json.loads(GOLDEN_FILE.read_text())
    kinds = Counter(a["kind"] for a in record["log"])
    assert kinds["reveal"] > 10 and kinds["retract"] > 0 and kinds["fold"] > 0 and kinds["burn_scout"] + kinds["pay"] > 0
    match = Match(GAME, record["seed"], record["options"], [Action.from_json(a) for a in record["log"]])
    state = match.state
    assert state.is_terminal and state.winner == record["winner"]
    assert state.chips == record["chips"] and state.hand_number == record["hand_number"]
    assert state.view(None) == record["final_view"]
    assert record["hand_number"] == 23 and sum(state.out) == 2


@pytest.mark.parametrize("seed", range(6))
def test_random_table_games_conserve_chips_and_finish(seed: int) -> None:
    match = Match(GAME, seed, {"players": 2 + seed % 5, "cards": "table", "starting_chips": 8})
    rng = random.Random(seed)
    total = 8 * match.state.n
    while not match.state.is_terminal and len(match.log) < 3000:
        assert sum(match.state.chips) + sum(match.state.bets) == total
        match.apply(policy_action(match, rng))
    assert match.state.is_terminal and match.state.chips[match.state.winner] == total


if __name__ == "__main__":
    GOLDEN_FILE.write_text(json.dumps(play_golden(26, 40), indent=1) + "\n")
    print(f"wrote {GOLDEN_FILE}")
