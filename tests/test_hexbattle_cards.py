"""Hexbattle bonus cards: each of the 21 effects, You Get Nothing, hand limit and guard expiry."""

from __future__ import annotations

from test_hexbattle_setup import BR, FR, GAME, battle, do, refusal, u

from engine.core import act
from engine.hexbattle import HexbattleState

INF, INF2 = "french-infantry-1", "french-infantry-2"
LC, LA, HVA = "french-light-cavalry", "french-light-artillery", "french-heavy-artillery"
E_INF, E_INF2, E_LC, E_LA = "british-infantry-1", "british-infantry-2", "british-light-cavalry", "british-light-artillery"
FOE = {E_INF: u("8,0", 3)}


def card(state: HexbattleState, design: str, player: int = FR) -> str:
    return next(c for c in state.hands[player] if GAME.cards[c].design.id == design)


def play(state: HexbattleState, design: str, player: int = FR, **args) -> HexbattleState:
    return do(state, "play_card", player, card=card(state, design, player), **args)


def test_swift_march_makes_one_move_free() -> None:
    state = battle({INF: u("4,6"), INF2: u("6,6"), **FOE}, hands=[["swift-march"], []])
    play(state, "swift-march")
    assert state.actions_left == 6
    do(state, "move", unit=INF, to="4,5", facing=0)
    assert state.actions_left == 6
    do(state, "move", unit=INF2, to="6,5", facing=0)
    assert state.actions_left == 5


def test_charge_adds_dice_to_cavalry_attacks() -> None:
    state = battle({LC: u("4,5"), E_INF: u("4,4", 3)}, hands=[["charge"], []])
    play(state, "charge")
    assert state.melee_modifiers(state.units[LC], state.units[E_INF])["attacker_dice"] == 5


def test_volley_fire_doubles_the_next_artillery_attack_only() -> None:
    state = battle({LA: u("4,7"), HVA: u("6,7"), E_INF: u("4,3", 3), E_INF2: u("6,3", 3)},
                   hands=[["volley-fire"], []], dice=[6] * 8)
    play(state, "volley-fire")
    assert state.fire_modifiers(state.units[LA], state.units[E_INF])["dice"] == 4
    do(state, "attack", unit=LA, target=E_INF, mode="fire")
    assert state.fire_modifiers(state.units[HVA], state.units[E_INF2])["dice"] == 2


def test_a_combat_records_the_offensive_cards_that_changed_it() -> None:
    """Charge! lasts the turn, Volley Fire is spent by the artillery shot, Cannon Blast waits for its own gun."""
    state = battle({LC: u("4,5"), LA: u("6,7"), HVA: u("2,7"), E_INF: u("4,4", 3), E_INF2: u("6,3", 3)},
                   hands=[["charge", "volley-fire", "cannon-blast"], []], dice=[6] * 5 + [1] * 4 + [6] * 4)
    charge, volley, cannon = card(state, "charge"), card(state, "volley-fire"), card(state, "cannon-blast")
    play(state, "charge")
    play(state, "volley-fire")
    play(state, "cannon-blast", unit=HVA)
    do(state, "attack", unit=LC, target=E_INF, mode="melee")
    melee = state.events[0]
    assert (melee["event"], melee["cards"], melee["modifiers"]["attacker_dice"]) == ("melee", [charge], 5)
    do(state, "attack", unit=LA, target=E_INF2, mode="fire")
    fire = state.events[0]
    assert (fire["event"], fire["cards"], fire["modifiers"]["dice"]) == ("fire", [volley], 4)
    assert state.effects.roll_cards == {charge: None, cannon: HVA}


def test_forced_march_doubles_one_units_next_move() -> None:
    state = battle({LC: u("4,8"), **FOE}, hands=[["forced-march"], []])
    play(state, "forced-march", unit=LC)
    assert state.movement_points(state.units[LC]) == 8
    do(state, "move", unit=LC, to="4,1", facing=0)
    assert state.movement_points(state.units[LC]) == 4


def test_rally_restores_one_and_needs_a_damaged_unit() -> None:
    state = battle({INF: u("4,6", strength=1), INF2: u("6,6"), **FOE}, hands=[["rally"], []])
    assert refusal(state, act("play_card", FR, card=card(state, "rally"), unit=INF2)) == \
        "Rally! needs one of your damaged units."
    play(state, "rally", unit=INF)
    assert state.units[INF].strength == 2 and state.actions_left == 6 and not state.hands[FR]


def test_ambush_ignores_terrain_for_one_attack() -> None:
    state = battle({LC: u("4,5"), E_INF: u("4,4", 3, formation="column")}, {"4,4": "hills"}, hands=[["ambush"], []])
    play(state, "ambush")
    assert state.effects.ambush
    assert state.melee_modifiers(state.units[LC], state.units[E_INF], ambush=True)["defender_modifier"] == 2
    state.dice = [1, 1, 1, 6, 6, 6, 6]
    do(state, "attack", unit=LC, target=E_INF, mode="melee")
    assert state.events[0]["modifiers"]["defender_terrain_bonus"] == 0 and not state.effects.ambush


def test_entrench_guard_adds_a_defence_die_once() -> None:
    state = battle({INF: u("4,5", 0), E_LC: u("4,4", 3)}, hands=[["entrench"], []], dice=[1] * 3 + [6] * 5)
    play(state, "entrench", unit=INF)
    do(state, "end_turn")
    do(state, "attack", BR, unit=E_LC, target=INF, mode="melee")
    event = next(e for e in state.events if e["event"] == "melee")
    assert len(event["result"]["defender_dice"]) == 5 and not state.guards


def test_fog_of_war_costs_the_opponent_an_action() -> None:
    state = battle({INF: u("4,6"), **FOE}, hands=[["fog-of-war"], []])
    play(state, "fog-of-war")
    do(state, "end_turn")
    assert state.actions_left == 5
    do(state, "end_turn", BR)
    assert state.actions_left == 6


def test_flanking_move_and_inspired_command_stop_at_seven() -> None:
    state = battle({INF: u("4,6"), **FOE}, hands=[["flanking-move", "inspired-command"], []])
    play(state, "flanking-move")
    assert state.actions_left == 7
    assert refusal(state, act("play_card", FR, card=card(state, "inspired-command"))) == \
        "A turn cannot have more than 7 actions."


def test_artillery_barrage_fires_each_gun_once_for_free() -> None:
    state = battle({LA: u("4,7"), HVA: u("6,7"), E_INF: u("4,3", 3), E_INF2: u("6,3", 3)},
                   hands=[["artillery-barrage"], []], dice=[6] * 12)
    play(state, "artillery-barrage")
    do(state, "attack", unit=LA, target=E_INF, mode="fire")
    do(state, "attack", unit=HVA, target=E_INF2, mode="fire")
    assert state.actions_left == 6
    do(state, "attack", unit=LA, target=E_INF, mode="fire")
    assert state.actions_left == 5


def test_regroup_changes_formation_for_free() -> None:
    state = battle({INF: u("4,6"), **FOE}, hands=[["regroup"], []])
    assert refusal(state, act("play_card", FR, card=card(state, "regroup"), unit=INF)) == \
        "Regroup needs one of your infantry units (not broken) and a new formation."
    play(state, "regroup", unit=INF, formation="square")
    assert state.units[INF].formation == "square" and state.actions_left == 6


def test_supply_run_repairs_two_units() -> None:
    state = battle({INF: u("4,6", strength=2), LA: u("6,6", strength=1), **FOE}, hands=[["supply-run"], []])
    assert refusal(state, act("play_card", FR, card=card(state, "supply-run"), units=[INF, INF2])) == \
        "Supply Run needs up to 2 of your damaged units."
    play(state, "supply-run", units=[LA, INF])
    assert (state.units[INF].strength, state.units[LA].strength) == (3, 2)


def test_bold_advance_adds_movement_to_moving_infantry() -> None:
    state = battle({INF: u("4,6"), INF2: u("6,6", formation="square"), **FOE}, hands=[["bold-advance"], []])
    play(state, "bold-advance")
    assert state.movement_points(state.units[INF]) == 4 and state.movement_points(state.units[INF2]) == 0


def test_reserve_fire_shoots_the_first_enemy_that_moves_into_reach() -> None:
    state = battle({LA: u("4,7"), E_INF: u("8,1", 3), E_INF2: u("4,1", 3)}, hands=[["reserve-fire"], []],
                   dice=[1, 1])
    play(state, "reserve-fire", unit=LA)
    do(state, "end_turn")
    do(state, "move", BR, unit=E_INF, to="9,1", facing=2)
    assert state.guards, "9,1 is out of the gun's range"
    do(state, "move", BR, unit=E_INF2, to="4,2", facing=3)
    fire = next(e for e in state.events if e["event"] == "fire")
    assert fire["reserve_fire"] and fire["defender"] == E_INF2 and state.units[E_INF2].strength == 2
    assert not state.guards


def test_engineers_draws_and_places_two_tiles() -> None:
    state = battle({INF: u("4,8"), **FOE}, fill=None, hands=[["engineers"], []])
    play(state, "engineers")
    do(state, "draw_terrain")
    do(state, "place_tile", hex="4,7")
    assert state.pending_tile is not None
    do(state, "place_tile", hex="4,6")
    assert state.pending_tile is None and state.actions_left == 5 and len(state.terrain) == 2 * 11 + 2


def test_skirmisher_screen_cancels_one_ranged_attack() -> None:
    state = battle({LC: u("0,8"), INF: u("4,5"), E_INF: u("4,3", 3, formation="line")},
                   hands=[["skirmisher-screen"], []], dice=[1, 1, 1, 1, 1, 1, 1, 1])
    play(state, "skirmisher-screen")
    do(state, "end_turn")
    do(state, "attack", BR, unit=E_INF, target=INF, mode="fire")
    assert state.units[INF].strength == 4 and any(e.get("screened") for e in state.events)
    do(state, "draw_bonus", BR)
    do(state, "attack", BR, unit=E_INF, target=INF, mode="fire")
    assert state.units[INF].strength == 0


def test_heroic_defence_ignores_the_first_loss() -> None:
    state = battle({INF: u("4,5"), E_INF: u("4,3", 3, formation="line")}, hands=[["heroic-defence"], []],
                   dice=[1, 1, 6, 6])
    play(state, "heroic-defence", unit=INF)
    do(state, "end_turn")
    do(state, "attack", BR, unit=E_INF, target=INF, mode="fire")
    assert state.units[INF].strength == 3


def test_double_time_moves_then_attacks_in_one_action() -> None:
    state = battle({INF: u("4,6"), E_INF: u("4,3", 3)}, hands=[["double-time"], []], dice=[6])
    play(state, "double-time", unit=INF)
    do(state, "move", unit=INF, to="4,4", facing=0)
    assert state.double_time_ready == INF
    do(state, "attack", unit=INF, target=E_INF, mode="fire")
    assert state.actions_left == 5 and state.double_time_ready is None


def test_cannon_blast_adds_two_dice() -> None:
    state = battle({LA: u("4,7"), E_INF: u("4,3", 3)}, hands=[["cannon-blast"], []])
    play(state, "cannon-blast", unit=LA)
    assert state.fire_modifiers(state.units[LA], state.units[E_INF])["dice"] == 4


def test_rout_drives_a_beaten_defender_back() -> None:
    state = battle({LC: u("4,5"), E_INF: u("4,4", 3)}, hands=[["rout"], []], dice=[6, 6, 6, 1, 1, 1, 1])
    play(state, "rout")
    do(state, "attack", unit=LC, target=E_INF, mode="melee")
    assert state.units[E_INF].strength == 1
    assert [e for e in state.events if e["event"] == "rout"] == [{"event": "rout", "unit": E_INF, "to": "4,3"}]


def test_you_get_nothing_is_discarded_and_draws_cannot_follow_draws() -> None:
    state = battle({INF: u("4,6"), **FOE})
    nothing = next(c for c in state.bonus_deck if c.startswith("you-get-nothing"))
    state.bonus_deck.remove(nothing)
    state.bonus_deck.append(nothing)
    do(state, "draw_bonus")
    assert state.hands[FR] == [] and state.discard == [nothing] and state.actions_left == 5
    assert refusal(state, act("draw_bonus", FR)) == \
        "You cannot draw two bonus cards in a row; take another action first."


def test_hand_limit_is_four() -> None:
    state = battle({INF: u("4,6"), **FOE}, hands=[["rally", "charge", "rout", "ambush"], []])
    assert refusal(state, act("draw_bonus", FR)) == \
        "You already hold 4 bonus cards; play or discard one first."
    do(state, "discard_card", card=card(state, "charge"))
    assert len(state.hands[FR]) == 3 and state.actions_left == 6
    assert refusal(state, act("play_card", FR, card="charge")) == "You do not hold that card."


def test_offensive_effects_end_with_the_turn_and_guards_after_the_opponents_turn() -> None:
    state = battle({INF: u("4,6"), **FOE}, hands=[["swift-march", "heroic-defence"], []])
    play(state, "swift-march")
    play(state, "heroic-defence", unit=INF)
    do(state, "end_turn")
    assert state.effects.free_moves == 0 and len(state.guards) == 1
    do(state, "end_turn", BR)
    assert state.guards == [] and any(c.startswith("heroic-defence") for c in state.discard)


def test_r32_a_guard_answers_a_guards_free_shot() -> None:
    state = battle({LA: u("4,7"), E_INF2: u("4,1", 3)}, hands=[["reserve-fire"], ["heroic-defence"]], dice=[1, 6])
    play(state, "reserve-fire", unit=LA)
    do(state, "end_turn")
    play(state, "heroic-defence", BR, unit=E_INF2)
    do(state, "move", BR, unit=E_INF2, to="4,2", facing=3)
    effects = [e.get("effect") for e in state.events if e["event"] == "guard"]
    assert effects == ["reserve_fire", "heroic_defence"] and state.units[E_INF2].strength == 4


def test_a_move_near_a_hidden_guard_is_asked_about_the_same_whichever_card_it_is() -> None:
    """Asking first ("it cannot be taken back") is worked out on what the mover knows (`State.resample`): Blue
    knows French has one face-down guard, not which card or on which unit, so Blue's question for each move is
    the same whether the card is a Reserve Fire that would fire or a Heroic Defence that cannot; made, the
    shot is fired and the move stands."""
    from engine.core import Match

    def guarded(card: str) -> Match:
        options = {"scenario": {"fill": "open", "terrain": {}, "units": {LA: u("4,7"), E_INF: u("8,1", 3),
                                                                         E_INF2: u("4,1", 3)},
                                "hands": [[card], []], "current_player": FR}, "dice": [1, 1]}
        match = Match(GAME, 1, options)
        match.apply(next(a for a in match.state.legal_actions(FR) if a.kind == "play_card" and a["unit"] == LA))
        match.apply(act("end_turn", FR))
        return match

    fire, defence = guarded("reserve-fire"), guarded("heroic-defence")
    into_reach, out_of_reach = act("move", BR, unit=E_INF2, to="4,2", facing=3), act("move", BR, unit=E_INF, to="9,1",
                                                                                     facing=2)
    for move in (into_reach, out_of_reach):
        assert fire.ahead_refusal(BR, move) == defence.ahead_refusal(BR, move)
    # Blue knows a guard lies face down: a move some guard could answer says so, as a possibility.
    assert fire.ahead_refusal(BR, into_reach) == ("This move might not be possible to take back: it may reveal a "
                                                  "face-down guard card.")
    assert fire.ahead_refusal(BR, out_of_reach) is None
    assert len(fire.state.guards) == 1  # the question left the guard where it lies
    fire.apply(into_reach)
    assert not fire.state.guards and fire.undo_refusal(BR) == ("That move cannot be taken back: it revealed a "
                                                               "face-down guard card.")
    # French's own move is asked about as French knows it.
    assert fire.ahead_refusal(FR, act("end_turn", FR)) is None
