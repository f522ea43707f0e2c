"""Napoleonic Warfare, worked by hand: one test per rule, citing the rulings in docs/rules/warfare.md."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cards import load_game
from engine.core import Action, Match, Refusal, act
from engine.warfare import (
    BLUNDER,
    COUNTER,
    DEPLOY,
    DISCARD,
    EXCHANGE,
    MORALE,
    OVER,
    SUPPORT,
    UNITS,
    WarfareGame,
    WarfareState,
    can_counter,
    can_support,
    can_units,
    casualties,
    halve,
    make_game,
    verify_counter,
    verify_support,
    verify_units,
    with_morale,
)

GAME = make_game(load_game("warfare"))
RULES = GAME.rules
ROWS = {c.id: c.design for c in GAME.cards}


def position(hand0: list[str], hand1: list[str], deck_top: list[str] | None = None,
             discard: list[str] | None = None, active: int = 0, troops: tuple[int, int] = (100, 100),
             deck_rest: bool = True, limits: bool = False) -> WarfareState:
    """A Deploy-phase position with chosen hands; `deck_top[0]` is drawn first; other cards fill the deck."""
    placed = hand0 + hand1 + (deck_top or []) + (discard or [])
    assert len(set(placed)) == len(placed)
    rest = [cid for cid in GAME.ids if cid not in placed] if deck_rest else []
    ix = GAME.index
    deck = [ix[c] for c in rest] + [ix[c] for c in reversed(deck_top or [])]
    state = WarfareState(GAME, deck, [[ix[c] for c in hand0], [ix[c] for c in hand1]], limits=limits)
    state.discard = [ix[c] for c in discard or []]
    state.active = active
    state.turn = 1
    state.troops = list(troops)
    return state


def do(state: WarfareState, kind: str, player: int, seed: int = 0, **args: Any) -> WarfareState:
    state.apply(act(kind, player, **args), random.Random(seed))
    return state


def refusal(state: WarfareState, kind: str, player: int, **args: Any) -> str:
    before = state.snapshot()
    with pytest.raises(Refusal) as info:
        state.apply(act(kind, player, **args), random.Random(0))
    assert state.snapshot() == before, "a refused action must leave the state unchanged"
    return str(info.value)


def hand(state: WarfareState, player: int) -> list[str]:
    return state.view(player)["hand"]


def attack_with(state: WarfareState, units: list[str], attacker: int = 0) -> WarfareState:
    """Declare, let the defender pass on Blunder, and play the units."""
    do(state, "attack", attacker)
    if state.step == BLUNDER:
        do(state, "allow", 1 - attacker)
    return do(state, "units", attacker, cards=units)


# ---------------------------------------------------------------- setup (R1, R2)

def test_r1_r2_setup_deals_seven_and_the_first_player_draws_three() -> None:
    state = GAME.new_state(random.Random(5), {"first_player": 1})
    view = state.view(None)
    assert view["troops"] == [100, 100]
    assert view["hand_counts"] == [7, 10]
    assert view["deck_count"] == 97 - 17
    assert (state.active, state.step, state.turn) == (1, DEPLOY, 1)


def test_r1_coin_flip_comes_from_the_seed() -> None:
    firsts = {GAME.new_state(random.Random(seed), {}).active for seed in range(20)}
    assert firsts == {0, 1}
    assert Match(GAME, "flip").state.active == Match(GAME, "flip").state.active


def test_r1_options_are_checked() -> None:
    with pytest.raises(Refusal, match=r"^Napoleonic Warfare has no option colour \(options: first_player, turn_limit\)\.$"):
        GAME.check_options({"colour": "red"})
    with pytest.raises(Refusal, match=r"^first_player must be 0 or 1 \(or left out for a coin flip\)\.$"):
        GAME.check_options({"first_player": 2})
    with pytest.raises(Refusal, match=r"^turn_limit is true or false \(not 200\)\.$"):
        GAME.check_options({"turn_limit": 200})


def test_r17_without_the_option_a_game_has_no_turn_or_action_limit() -> None:
    state = GAME.new_state(random.Random(1), {})
    assert state.turn_limit is None and state.action_limit is None
    state.turn, state.actions = RULES.turn_limit + 50, RULES.action_limit + 50
    first = state.active
    do(state, "hold", first)
    do(state, "exchange", first, cards=[])
    assert not state.is_terminal and state.active == 1 - first, "the seed's only end is troops at zero"
    limited = GAME.new_state(random.Random(1), {"turn_limit": True})
    assert (limited.turn_limit, limited.action_limit) == (200, 6000)


# ---------------------------------------------------------------- deploy (R3, R4, R5)

def test_r4_leader_or_action_card_draws_its_force() -> None:
    state = position(["captain", "cover-retreat", "grenadiers"], ["rally"], deck_top=["sappers", "probe", "limber", "screen"])
    do(state, "draw", 0, card="captain")
    assert hand(state, 0) == ["cover-retreat", "grenadiers", "sappers", "probe", "limber"]
    do(state, "draw", 0, card="cover-retreat")
    assert hand(state, 0)[-1] == "screen"
    assert state.view(None)["discard"] == ["captain", "cover-retreat"]
    assert refusal(state, "draw", 0, card="grenadiers") == (
        "Grenadiers (Infantry Unit) cannot be discarded to draw cards: only Leader Strategy or Action Strategy cards can.")


def test_r3_empty_deck_reshuffles_the_discard_pile() -> None:
    state = position(["captain"], ["rally"], discard=["sappers", "probe"], deck_rest=False)
    do(state, "draw", 0, card="captain")
    # the deck was empty: the discard pile (with the Captain) became the deck and three were drawn
    assert sorted(hand(state, 0)) == ["captain", "probe", "sappers"]
    assert state.view(None)["deck_count"] == 0 and state.view(None)["discard"] == []


def test_r3_draw_stops_short_when_deck_and_discard_are_empty() -> None:
    state = position(["captain", "grenadiers"], ["rally"], deck_rest=False)
    state.deck.clear()
    do(state, "draw", 0, card="captain")
    assert hand(state, 0) == ["grenadiers", "captain"]
    assert state.last == {"event": "draw", "player": 0, "card": "captain", "drawn": 1}


def test_r5_scout_shows_the_opponents_hand_to_the_scout_only_until_the_turn_ends() -> None:
    state = position(["scouts", "grenadiers"], ["rally", "broken"])
    assert "opponent_hand" not in state.view(0)
    do(state, "scout", 0, card="scouts")
    assert state.view(0)["opponent_hand"] == ["rally", "broken"]
    assert "opponent_hand" not in state.view(1)
    assert "opponent_hand" not in state.view(None) and "hand" not in state.view(None)
    do(state, "hold", 0)
    do(state, "exchange", 0, cards=[])
    assert state.active == 1 and "opponent_hand" not in state.view(0)
    assert refusal(position(["sappers"], ["rally"]), "scout", 0, card="sappers") == (
        "Sappers (Infantry Unit) cannot be discarded to look at your opponent's hand: "
        "only Light Infantry Unit or Cavalry Unit cards can.")


def test_r4_artillery_and_tactics_make_the_opponent_discard_at_random() -> None:
    state = position(["mortars", "charge", "rally"], ["broken", "redoubt"])
    do(state, "harass", 0, card="mortars", seed=3)
    do(state, "harass", 0, card="charge", seed=4)
    assert state.view(None)["hand_counts"] == [1, 0]
    assert sorted(state.view(None)["discard"]) == ["broken", "charge", "mortars", "redoubt"]
    assert state.last is not None and state.last["event"] == "harass"
    assert refusal(state, "harass", 0, card="rally") == (
        "Rally (Morale Strategy) cannot make your opponent discard: only Artillery Unit, Infantry Tactic, "
        "Light Infantry Tactic, Cavalry Tactic or Artillery Tactic cards can.")


def test_r4_harass_needs_an_opponent_with_cards() -> None:
    state = position(["mortars"], [])
    assert refusal(state, "harass", 0, card="mortars") == "Your opponent has no cards left to discard."
    assert all(a.kind != "harass" for a in state.legal_actions())


# ---------------------------------------------------------------- attack (R6, R7, R8, R9, R10)

def test_r6_attack_needs_a_unit_card() -> None:
    state = position(["rally", "charge"], ["broken"])
    assert refusal(state, "attack", 0) == "You have no Unit card to attack with."
    assert [a.kind for a in state.legal_actions()] == ["harass", "hold"]


def test_r6_enemy_blunder_calls_off_the_attack_and_the_attacker_may_still_maneuver() -> None:
    state = position(["grenadiers", "rally"], ["broken", "sappers"])
    do(state, "attack", 0)
    assert (state.step, state.current_player) == (BLUNDER, 1)
    assert refusal(state, "blunder", 1, card="sappers") == (
        "Sappers (Infantry Unit) cannot call off an attack: only Enemy Blunder cards can.")
    do(state, "blunder", 1, card="broken")
    assert state.step == EXCHANGE and state.current_player == 0
    assert hand(state, 0) == ["grenadiers", "rally"]


def test_r6_no_blunder_step_against_an_empty_hand() -> None:
    state = position(["grenadiers"], [])
    do(state, "attack", 0)
    assert state.step == UNITS


def test_r7_units_must_share_one_type() -> None:
    state = position(["grenadiers", "hussars", "charge"], ["rally"])
    do(state, "attack", 0)
    do(state, "allow", 1)
    assert refusal(state, "units", 0, cards=["grenadiers", "hussars"]) == (
        "All the units in one attack must be of one type; you chose Infantry Unit and Cavalry Unit.")
    assert refusal(state, "units", 0, cards=["charge"]) == (
        "Charge! (Cavalry Tactic) cannot attack: attacks are made with Unit cards only.")
    assert refusal(state, "units", 0, cards=[]) == "Play at least one Unit card to attack."
    assert refusal(state, "units", 0, cards=["grenadiers", "grenadiers"]) == "You chose the same card twice."
    assert refusal(state, "units", 0, cards=["old-guard"]) == "Old Guard is not in your hand."
    assert refusal(state, "units", 0, cards=["nope"]) == "There is no card 'nope' in this game."
    assert sorted(a.args["cards"] for a in state.legal_actions()) == [["grenadiers"], ["hussars"]]


def test_r8_counters_follow_the_table_one_unit_per_counter_card() -> None:
    state = position(["hussars", "lancers", "reiter", "charge"], ["grenadiers", "sappers", "riflemen", "redoubt"])
    attack_with(state, ["hussars", "lancers", "reiter"])
    assert (state.step, state.current_player) == (COUNTER, 1)
    assert refusal(state, "counter", 1, card="riflemen", target="lancers") == (
        "Riflemen (Light Infantry Unit) can only remove Artillery Unit cards, not Lancers (Cavalry Unit).")
    do(state, "counter", 1, card="grenadiers", target="lancers")
    do(state, "counter", 1, card="redoubt", target="hussars")  # Terrain removes any unit
    assert state.view(None)["attack"]["units"] == ["reiter"]
    assert state.step == COUNTER  # the defender may keep countering while units remain
    do(state, "stand", 1)
    assert state.step == SUPPORT


def test_r8_a_card_that_is_no_counter_is_refused() -> None:
    state = position(["hussars"], ["rally", "sappers"])
    attack_with(state, ["hussars"])
    assert refusal(state, "counter", 1, card="rally", target="hussars") == (
        "Rally (Morale Strategy) cannot counter an attack; counters are Infantry Unit, Light Infantry Unit, "
        "Artillery Unit, Cavalry Unit or Terrain Strategy cards.")


def test_r9_countering_every_unit_repulses_the_attack_without_casualties() -> None:
    state = position(["hussars", "charge", "captain"], ["grenadiers", "sappers"])
    attack_with(state, ["hussars"])
    do(state, "counter", 1, card="grenadiers", target="hussars")
    assert state.troops == [100, 100]
    assert state.last is not None and state.last["repulsed"] is True
    # the attacker did attack, so there is no Maneuver exchange: the turn passes
    assert (state.active, state.step) == (1, DEPLOY)
    assert hand(state, 0) == ["charge", "captain"]


def test_r9_countered_units_count_for_nothing() -> None:
    state = position(["uhlans", "lancers", "cuirassier"], ["grenadiers", "sappers"], active=0)
    attack_with(state, ["uhlans", "lancers", "cuirassier"])
    do(state, "counter", 1, card="grenadiers", target="uhlans")
    do(state, "stand", 1)
    assert state.step == MORALE  # attacker's hand is empty, so no support step
    do(state, "take", 1)
    assert state.troops == [100, 94]  # lancers 3 + cuirassier 3; the countered Uhlans add nothing


def test_r10_support_matching_tactics_and_one_strategy_of_each_type() -> None:
    state = position(["hussars", "charge", "overrun", "volley-fire", "rally", "high-morale", "captain", "redoubt"],
                     ["musicians"])
    attack_with(state, ["hussars"])
    do(state, "stand", 1)
    assert refusal(state, "support", 0, cards=["volley-fire"]) == (
        "Volley Fire (Infantry Tactic) cannot back an attack of Cavalry Units: only Cavalry Tactic and Strategy cards can.")
    assert refusal(state, "support", 0, cards=["rally", "high-morale"]) == (
        "Only 1 Morale Strategy card may back one attack; you chose Rally and High Morale.")
    do(state, "support", 0, cards=["charge", "overrun", "rally", "captain", "redoubt"])
    assert state.step == MORALE
    pending = state.view(None)["attack"]["casualties"]
    # hussars 2 + charge 2 + overrun 3 + rally 1 + captain 3 + redoubt 3 = 14; six cards, one beyond five: +2
    assert pending == {"forces": 14, "cards": 6, "extra_cards": 1, "bonus": 2, "total": 16,
                       "halved": False, "inflicted": 16}
    do(state, "take", 1)
    assert state.troops == [100, 84]


def test_r10_support_choices_are_listed_exactly() -> None:
    state = position(["hussars", "charge", "rally", "high-morale"], ["musicians"])
    attack_with(state, ["hussars"])
    do(state, "stand", 1)
    choices = sorted(sorted(a.args["cards"]) for a in state.legal_actions())
    assert choices == [[], ["charge"], ["charge", "high-morale"], ["charge", "rally"], ["high-morale"], ["rally"]]


# ---------------------------------------------------------------- casualties (R11, R12, R13)

def test_r11_casualty_arithmetic_bonus_beyond_the_fifth_card() -> None:
    seven = [ROWS[c] for c in ("grenadiers", "old-guard", "musketeers", "sappers", "square-formation",
                               "volley-fire", "captain")]
    result = casualties(seven, RULES)
    assert (result.forces, result.cards, result.extra_cards, result.bonus, result.total) == (17, 7, 2, 4, 21)
    assert casualties([ROWS["sappers"]] * 5, RULES).bonus == 0
    assert casualties([], RULES).total == 0


def test_r12_morale_halves_rounding_down() -> None:
    result = with_morale(casualties([ROWS["grenadiers"], ROWS["musketeers"], ROWS["sappers"], ROWS["fusiliers"]], RULES), RULES)
    assert (result.total, result.halved, result.inflicted) == (7, True, 3)
    assert halve(7, RULES.model_copy(update={"morale_rounding": "up"})) == 4


def test_r12_defender_spends_one_morale_card() -> None:
    state = position(["grenadiers", "musketeers", "sappers", "fusiliers"], ["rally", "discipline"])
    attack_with(state, ["grenadiers", "musketeers", "sappers", "fusiliers"])
    do(state, "stand", 1)  # no counters
    assert state.step == MORALE and state.current_player == 1
    assert refusal(state, "morale", 1, card="grenadiers") == "Grenadiers is not in your hand."
    assert refusal(state, "morale", 1, card="old-guard") == "Old Guard is not in your hand."
    do(state, "morale", 1, card="rally")
    assert state.troops == [100, 97]  # 7 halved, rounded down: 3
    assert state.last is not None and state.last["casualties"]["inflicted"] == 3
    assert hand(state, 1)[0] == "discipline" and len(hand(state, 1)) == 1 + RULES.draw_per_turn


def test_r13_troops_stop_at_zero_and_the_attacker_wins() -> None:
    state = position(["grenadiers", "old-guard"], [], troops=(100, 4))
    attack_with(state, ["grenadiers", "old-guard"])
    assert state.is_terminal and state.winner == 0 and state.troops == [100, 0]
    assert state.end_reason == "troops" and state.legal_actions() == []
    assert refusal(state, "hold", 1) == "The game is over."
    assert state.view(None)["attack"]["units"] == []


# ---------------------------------------------------------------- maneuver (R15, R16)

def test_r15_exchange_up_to_two_after_holding() -> None:
    state = position(["grenadiers", "rally", "probe"], ["broken"], deck_top=["limber", "screen"])
    do(state, "hold", 0)
    assert state.step == EXCHANGE
    assert refusal(state, "exchange", 0, cards=["grenadiers", "rally", "probe"]) == "You may exchange at most 2 cards."
    assert len(state.legal_actions()) == 1 + 3 + 3
    do(state, "exchange", 0, cards=["grenadiers", "rally"])
    assert hand(state, 0) == ["probe", "limber", "screen"]
    assert state.active == 1


def test_r15_no_exchange_after_attacking() -> None:
    state = position(["grenadiers", "rally"], ["broken"])
    attack_with(state, ["grenadiers"])
    do(state, "stand", 1)   # counters
    do(state, "support", 0, cards=[])
    do(state, "take", 1)   # morale
    assert state.troops == [100, 97] and (state.active, state.step) == (1, DEPLOY)


def test_r16_hand_limit_discards_one_at_a_time() -> None:
    big = ["grenadiers", "musketeers", "old-guard", "young-guard", "sappers", "gendarmes", "grognards",
           "fusiliers", "highlanders", "troopers", "riflemen", "partisans"]
    state = position(big, ["broken"])
    do(state, "hold", 0)
    do(state, "exchange", 0, cards=[])
    assert state.step == DISCARD and state.current_player == 0
    assert len(state.legal_actions()) == 12
    do(state, "discard", 0, card="sappers")
    assert state.step == DISCARD
    do(state, "discard", 0, card="gendarmes")
    assert state.active == 1 and len(hand(state, 0)) == 10


# ---------------------------------------------------------------- limits (R17) and turn order (R14)

def test_r17_turn_limit_decides_on_troops() -> None:
    state = position(["grenadiers"], ["broken"], troops=(40, 55), limits=True)
    state.turn = RULES.turn_limit
    do(state, "hold", 0)
    do(state, "exchange", 0, cards=[])
    assert state.is_terminal and state.winner == 1 and state.end_reason == "turn limit"


def test_r17_equal_troops_at_the_limit_is_a_draw() -> None:
    state = position(["grenadiers"], ["broken"], troops=(60, 60), limits=True)
    state.turn = RULES.turn_limit
    do(state, "hold", 0)
    do(state, "exchange", 0, cards=[])
    assert state.is_terminal and state.winner is None


def test_r17_action_limit_is_a_backstop() -> None:
    state = position(["captain", "grenadiers"], ["broken"], troops=(70, 60), limits=True)
    state.actions = RULES.action_limit - 1
    do(state, "draw", 0, card="captain")
    assert state.is_terminal and state.winner == 0 and state.end_reason == "action limit"


def test_r14_turn_order_and_wrong_player_or_step_refusals() -> None:
    state = position(["grenadiers"], ["broken"])
    assert refusal(state, "hold", 1) == "It is not your turn to act: the other player is deciding (the Deploy phase)."
    assert refusal(state, "units", 0, cards=["grenadiers"]) == (
        "You cannot choose attacking units now: this is the Deploy phase "
        "(you may discard a card to draw or scout or harass or attack or hold back).")
    assert refusal(state, "fire", 0) == "There is no move called 'fire' in Napoleonic Warfare."
    do(state, "attack", 0)
    assert state.players_to_act() == [1]
    assert refusal(state, "units", 0, cards=["grenadiers"]) == (
        "It is not your turn to act: the other player is deciding (the defender's chance to play an Enemy Blunder).")


def test_r14_next_turn_starts_with_the_draw() -> None:
    state = position(["grenadiers"], ["broken"], deck_top=["sappers"])
    do(state, "hold", 0)
    do(state, "exchange", 0, cards=[])
    assert state.turn == 2 and state.active == 1 and len(hand(state, 1)) == 1 + RULES.draw_per_turn


# ---------------------------------------------------------------- helpers for the companion

def test_verify_helpers_take_card_rows() -> None:
    verify_units([ROWS["hussars"], ROWS["lancers"]], RULES)
    verify_support("CU", [ROWS["charge"], ROWS["broken"]], RULES)
    verify_counter(ROWS["redoubt"], ROWS["howitzers"], RULES)
    with pytest.raises(Refusal):
        verify_counter(ROWS["grenadiers"], ROWS["howitzers"], RULES)
    assert can_units([ROWS["hussars"]], RULES) and not can_units([ROWS["hussars"], ROWS["sappers"]], RULES)
    assert can_support("IU", [ROWS["bayonets"], ROWS["rally"]], RULES)
    assert not can_support("IU", [ROWS["canister"]], RULES)
    assert can_counter(ROWS["riflemen"], ROWS["mortars"], RULES) and not can_counter(ROWS["riflemen"], ROWS["hussars"], RULES)


def test_labels_read_like_buttons() -> None:
    state = position(["captain", "grenadiers"], ["broken"])
    labels = {a.kind: state.label(a) for a in state.legal_actions()}
    assert labels == {"draw": "Discard Captain (LS 3) to draw 3 cards", "attack": "Attack",
                      "hold": "Do not attack this turn"}
    assert state.label(Action("units", 0, {"cards": ["grenadiers"]})) == "Attack with Grenadiers (IU 3)"
    # labels name the decision without needing the step it was made in, so history lines read right later
    assert [state.label(Action(k, 1, {})) for k in ("allow", "stand", "take", "yield")] == [
        "No Enemy Blunder: let the attack go ahead", "No more counters", "Take the casualties",
        "Take the attack: no more replies to it"]


def test_views_are_json_ready_and_hide_hands() -> None:
    import json
    state = GAME.new_state(random.Random(1), {})
    spectator = state.view(None)
    assert "hand" not in spectator and "opponent_hand" not in spectator
    assert json.loads(json.dumps(state.view(0))) == state.view(0)
    assert isinstance(GAME, WarfareGame) and state.step == DEPLOY and OVER == "over"


def test_r12_a_designer_may_allow_two_morale_cards() -> None:
    """morale_per_attack is data: with 2, the defender may halve twice (21 -> 10 -> 5)."""
    import dataclasses
    data = load_game("warfare")
    game = make_game(dataclasses.replace(data, rules=data.rules.model_copy(update={"morale_per_attack": 2})))
    ix = game.index
    units = ["grenadiers", "old-guard", "musketeers", "sappers"]
    state = WarfareState(game, [], [[ix[c] for c in units + ["square-formation", "volley-fire", "captain"]],
                                    [ix["rally"], ix["discipline"], ix["lost-orders"]]])
    state.deck = [ix[c] for c in game.ids if c not in units + ["square-formation", "volley-fire", "captain",
                                                                "rally", "discipline", "lost-orders"]]
    attack_with(state, units)
    do(state, "stand", 1)
    do(state, "support", 0, cards=["square-formation", "volley-fire", "captain"])
    do(state, "morale", 1, card="rally")
    assert state.step == MORALE and state.view(None)["attack"]["casualties"]["inflicted"] == 10
    do(state, "morale", 1, card="discipline")
    assert state.troops == [100, 95]


def test_r18_random_discards_are_public() -> None:
    state = position(["mortars", "grenadiers"], ["broken", "redoubt"])
    do(state, "harass", 0, card="mortars", seed=1)
    spectator = state.view(None)
    lost = state.last["lost"] if state.last else None
    assert spectator["discard"] == ["mortars", lost] and lost in ("broken", "redoubt")
    assert spectator["last"] == {"event": "harass", "player": 0, "card": "mortars", "lost": lost}
    assert spectator["hand_counts"] == [1, 1] and "deck" not in spectator


def test_engine_package_finds_this_engine() -> None:
    import engine
    assert isinstance(engine.make_game(load_game("warfare")), WarfareGame)


def test_r17_action_limit_in_mid_attack_returns_the_table_to_the_discard_pile() -> None:
    state = position(["hussars", "lancers"], ["broken"], limits=True)
    do(state, "attack", 0)
    do(state, "allow", 1)
    state.actions = RULES.action_limit - 1
    do(state, "units", 0, cards=["hussars", "lancers"])
    assert state.is_terminal and state.winner is None and state.end_reason == "action limit"
    assert state.view(None)["discard"][-2:] == ["hussars", "lancers"]
    assert len(state.deck) + len(state.discard) + len(state.hands[0]) + len(state.hands[1]) == 97


# ---------------------------------------------------------------- the defender's one tap (R20)

def replies(state: WarfareState) -> list[str]:
    """The defender's choices that name no card: what the step offers whatever the hand holds."""
    return [a.kind for a in state.legal_actions() if not a.args]


def test_r20_take_the_attack_passes_blunder_counters_and_morale_in_one_tap() -> None:
    state = position(["hussars", "charge"], ["grenadiers", "rally", "broken"])
    do(state, "attack", 0)
    assert (state.step, state.current_player, replies(state)) == (BLUNDER, 1, ["allow", "yield"])
    do(state, "yield", 1)
    assert (state.step, state.current_player) == (UNITS, 0)
    do(state, "units", 0, cards=["hussars"])
    assert (state.step, state.current_player) == (SUPPORT, 0)  # Grenadiers could counter, but no step asks
    do(state, "support", 0, cards=["charge"])
    assert state.troops == [100, 96]  # hussars 2 + charge 2, and no Morale step although Bob holds Rally
    assert (state.active, state.step) == (1, DEPLOY)
    assert hand(state, 1)[:3] == ["grenadiers", "rally", "broken"]


def test_r20_take_the_attack_after_a_counter_skips_the_morale_step() -> None:
    state = position(["hussars", "lancers"], ["grenadiers", "rally"])
    attack_with(state, ["hussars", "lancers"])
    do(state, "counter", 1, card="grenadiers", target="hussars")
    assert (state.step, replies(state)) == (COUNTER, ["stand", "yield"])
    do(state, "yield", 1)
    assert state.step != MORALE and state.troops == [100, 97]  # lancers 3; Rally stays in hand
    assert "rally" in hand(state, 1)


def test_r20_the_offer_and_the_steps_do_not_depend_on_the_defenders_hand() -> None:
    """A hand full of replies and a hand with none: the same pauses, offers and public views when it takes the attack."""
    seen = []
    for defender in (["grenadiers", "rally", "broken"], ["captain", "volley-fire", "encirclement"]):
        state = position(["hussars", "charge"], defender, deck_top=["old-guard", "bayonets", "limber"])
        trail = []
        do(state, "attack", 0)
        trail.append((state.step, state.current_player, replies(state), state.view(0), state.view(None)))
        narrated = state.narrate(Action("yield", 1, {}))
        do(state, "yield", 1)
        trail.append((state.step, state.current_player, state.view(0), state.view(None), narrated))
        do(state, "units", 0, cards=["hussars"])
        trail.append((state.step, state.current_player, state.view(0), state.view(None)))
        do(state, "support", 0, cards=[])
        trail.append((state.step, state.current_player, state.view(0)["troops"]))
        seen.append(trail)
    assert seen[0] == seen[1]
    assert seen[0][1][4][0].text == "{p1} took the attack: no Enemy Blunder, no counters, no Morale"


def test_r20_take_the_attack_can_be_taken_back_until_the_attacker_acts() -> None:
    match = Match(GAME, "r20", {"first_player": 0})
    match.apply(act("attack", 0))
    before = match.state.snapshot()
    match.apply(act("yield", 1))
    assert match.undo_refusal(1) is None and match.undo_refusal(0) is not None
    match.undo()
    assert match.state.snapshot() == before and match.state.step == BLUNDER


def test_r7_r10_the_builder_enables_exactly_the_cards_the_engine_accepts() -> None:
    state = position(["hussars", "lancers", "grenadiers", "charge", "volley-fire", "rally", "high-morale"], ["musicians"])
    do(state, "attack", 0)
    do(state, "yield", 1)
    assert state.picks([]) == [("hussars", None), ("lancers", None), ("grenadiers", None), ("charge", "not a Unit"),
                               ("volley-fire", "not a Unit"), ("rally", "not a Unit"), ("high-morale", "not a Unit")]
    assert dict(state.picks(["hussars"]))["grenadiers"] == "one unit type per attack"
    assert dict(state.picks(["hussars"]))["lancers"] is None and dict(state.picks(["hussars"]))["hussars"] is None
    do(state, "units", 0, cards=["hussars", "lancers"])
    assert state.picks(["rally"]) == [("grenadiers", "cannot back Cavalry Units"), ("charge", None),
                                      ("volley-fire", "cannot back Cavalry Units"), ("rally", None),
                                      ("high-morale", "1 Morale Strategy per attack")]
    assert position(["hussars"], []).picks([]) == []  # Deploy picks no set of cards
