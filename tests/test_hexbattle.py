"""Hexbattle rules on small hand-made positions: movement, sight, combat, turns and victory.

Test names cite the rulings in docs/rules/hexbattle.md (R1, R2…).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hexbattle_setup import BR, FR, GAME, battle, do, refusal, u

from engine.core import Refusal, act
from engine.hexbattle import close_combat, line_of_sight, ranged_fire
from engine.hexgrid import from_offset, hex_id, in_arc, neighbour, sight_line, to_offset

INF, INF2 = "french-infantry-1", "french-infantry-2"
LC, HC = "french-light-cavalry", "french-heavy-cavalry"
HA, LA, HVA = "french-horse-artillery", "french-light-artillery", "french-heavy-artillery"
E_INF, E_LC, E_HA, E_LA = "british-infantry-1", "british-light-cavalry", "british-horse-artillery", "british-light-artillery"


def reach(state, uid: str) -> set[tuple[str, int]]:
    return {(hex_id(h), f) for h, f in state.reachable(state.units[uid])}


# ----- hex maths -------------------------------------------------------------------------

def test_r1_offset_and_axial_agree_and_neighbours_follow_odd_q() -> None:
    for col in range(GAME.columns):
        for row in range(GAME.rows):
            assert to_offset(from_offset(col, row)) == (col, row)
    even, odd = from_offset(4, 4), from_offset(5, 4)
    assert [hex_id(neighbour(even, d)) for d in range(6)] == ["4,3", "5,3", "5,4", "4,5", "3,4", "3,3"]
    assert [hex_id(neighbour(odd, d)) for d in range(6)] == ["5,3", "6,4", "6,5", "5,5", "4,5", "4,4"]


def test_r15_front_arc_is_the_120_degree_cone() -> None:
    h = from_offset(5, 4)
    arc = sorted(hex_id(t) for t in GAME.board if in_arc(h, 0, t) and sum(
        abs(x) for x in (t[0] - h[0], t[1] - h[1], t[0] - h[0] + t[1] - h[1])) // 2 <= 2)
    assert arc == ["3,3", "4,3", "4,4", "5,2", "5,3", "6,3", "6,4", "7,3"]


# ----- line of sight ---------------------------------------------------------------------

def test_r12_line_of_sight_blockers() -> None:
    base = {LA: u("4,7"), E_INF: u("4,3", 3)}
    assert line_of_sight(battle(base), "4,7", "4,3").clear
    for terrain, blocked in [("woods", True), ("hills", True), ("pond", False), ("wheat", False), ("farm", False)]:
        sight = line_of_sight(battle(base, {"4,5": terrain}), "4,7", "4,3")
        assert sight.blocked is blocked, terrain
        assert sight.blocker == ("4,5" if blocked else None)
    assert line_of_sight(battle({**base, INF: u("4,5")}), "4,7", "4,3").blocker == "4,5"
    hidden = battle(base, fill=None, terrain={h: "open" for h in ["4,7", "4,3"]})
    assert line_of_sight(hidden, "4,7", "4,3").blocker == "4,6"


def test_r13_artillery_on_a_hill_sees_over_units_but_not_terrain() -> None:
    units = {LA: u("4,7"), INF: u("4,5"), E_INF: u("4,3", 3)}
    assert not line_of_sight(battle(units, {"4,7": "hills"}), "4,7", "4,3").blocked
    assert line_of_sight(battle(units, {"4,7": "hills", "4,4": "woods"}), "4,7", "4,3").blocker == "4,4"
    assert line_of_sight(battle(units, {"4,7": "hills", "4,4": "hills"}), "4,7", "4,3").blocker == "4,4"
    assert line_of_sight(battle(units), "4,7", "4,3").blocker == "4,5", "guns on flat ground do not see over units"
    infantry = {INF2: u("4,7"), INF: u("4,5"), E_INF: u("4,3", 3)}
    assert line_of_sight(battle(infantry, {"4,7": "hills"}), "4,7", "4,3").blocker == "4,5", "only guns see over"


def test_r12_split_hex_lines_list_each_blocking_hex_once() -> None:
    assert [tuple(hex_id(h) for h in s) for s in sight_line(from_offset(0, 1), from_offset(4, 1))] == \
        [("1,0", "1,1"), ("2,1",), ("3,0", "3,1")]
    units = {LA: u("0,1", 1), E_INF: u("4,1", 3)}
    assert line_of_sight(battle(units, {"1,1": "woods"}), "0,1", "4,1").contested == ("1,1",)
    both = battle({**units, E_LC: u("3,0")}, {"1,1": "woods", "1,0": "hills"})
    assert line_of_sight(both, "0,1", "4,1").contested == ("1,0", "1,1", "3,0")


def test_r12_split_hex_blocks_on_one_to_three() -> None:
    units = {LA: u("0,1", 1), E_INF: u("4,1", 3)}
    blocked = battle(units, {"1,1": "woods"}, dice=[3, 1, 1])
    do(blocked, "attack", unit=LA, target=E_INF, mode="fire")
    assert blocked.events[0]["blocked_by"] == "1,1" and blocked.units[E_INF].strength == 4
    clear = battle(units, {"1,1": "woods"}, dice=[4, 1, 1])
    do(clear, "attack", unit=LA, target=E_INF, mode="fire")
    assert clear.events[0]["sight_dice"] == {"1,1": 4} and clear.units[E_INF].strength == 2


# ----- movement --------------------------------------------------------------------------

def test_r8_column_line_square_movement_and_turn_costs() -> None:
    state = battle({INF: u("4,6", 0, formation="column")})
    moves = reach(state, INF)
    assert ("4,4", 0) in moves and ("4,5", 1) in moves and ("5,5", 1) in moves
    assert ("4,3", 0) not in moves and ("5,4", 1) not in moves, "one turn plus one step uses both points"
    line = battle({INF: u("4,6", 0, formation="line")})
    assert reach(line, INF) == {("4,5", 0), ("4,6", 1), ("4,6", 5)}
    square = battle({INF: u("4,6", 0, formation="square")})
    assert reach(square, INF) == set()
    assert refusal(square, act("move", FR, unit=INF, to="4,5", facing=0)) == \
        "Blue Infantry 1 cannot move in its present formation."


def test_r9_terrain_costs() -> None:
    mud = battle({LC: u("4,6")}, {"4,5": "mud", "4,4": "mud"})
    assert ("4,5", 0) in reach(mud, LC) and ("4,4", 0) not in reach(mud, LC)
    orchard = battle({INF: u("4,6")}, {"4,5": "orchards"})
    assert ("4,5", 0) in reach(orchard, INF) and all(h != "4,4" for h, _ in reach(orchard, INF))
    rough = battle({HA: u("4,6")}, {"4,5": "rough", "4,4": "rough"})
    assert ("4,5", 0) in reach(rough, HA) and ("4,4", 0) not in reach(rough, HA)


def test_r9_infantry_only_impassable_and_hidden_hexes_are_refused() -> None:
    state = battle({LC: u("4,6"), INF: u("6,6")}, {"4,5": "woods", "6,5": "pond", "5,5": "farm"})
    assert refusal(state, act("move", FR, unit=LC, to="4,5", facing=0)) == "Only infantry may enter Woods."
    assert refusal(state, act("move", FR, unit=INF, to="6,5", facing=0)) == "No unit may enter Pond."
    assert ("4,5", 0) not in reach(state, LC) and ("6,5", 0) not in reach(state, INF)
    assert ("5,5", 5) in reach(state, INF), "infantry may enter farms"
    hidden = battle({INF: u("4,8")}, fill=None)
    assert refusal(hidden, act("move", FR, unit=INF, to="4,7", facing=0)) == \
        "That hex is not revealed yet; draw terrain first."
    full = battle({INF: u("4,6"), INF2: u("4,5")})
    assert refusal(full, act("move", FR, unit=INF, to="4,5", facing=0)) == "That hex is occupied."


def test_r10_farm_takes_all_movement_and_leaving_forms_column() -> None:
    state = battle({INF: u("4,6", formation="column")}, {"4,5": "farm"})
    moves = reach(state, INF)
    assert ("4,5", 0) in moves and ("4,4", 0) not in moves
    garrison = battle({INF: u("4,5", formation="line")}, {"4,5": "farm"})
    do(garrison, "move", unit=INF, to="4,4", facing=0)
    assert garrison.units[INF].formation == "column"
    assert ("4,3", 0) not in reach(battle({INF: u("4,5")}, {"4,5": "farm"}), INF), "leaving ends the move"


def test_r11_artillery_reverses_and_cannot_pivot() -> None:
    state = battle({LA: u("4,6"), HVA: u("6,6")})
    assert ("4,7", 0) in reach(state, LA), "backs one hex keeping its facing"
    assert ("4,8", 0) in reach(state, LA)
    assert ("6,7", 0) in reach(state, HVA) and ("6,5", 0) in reach(state, HVA)
    assert refusal(state, act("pivot", FR, unit=LA, facing=2)) == \
        "Artillery cannot pivot; it turns one step when it fires."
    assert reach(battle({LC: u("4,6")}), LC) >= {("4,2", 0)} and ("4,7", 0) not in reach(battle({LC: u("4,6")}), LC)


def test_move_applies_and_is_logged() -> None:
    state = battle({INF: u("4,6"), E_INF: u("8,0", 3)})
    do(state, "move", unit=INF, to="4,4", facing=0)
    unit = state.units[INF]
    assert (hex_id(unit.hex), unit.facing) == ("4,4", 0) and state.actions_left == 5
    assert state.at[unit.hex] == INF and from_offset(4, 6) not in state.at
    assert state.events == [{"event": "move", "unit": INF, "from": "4,6", "to": "4,4", "facing": 0}]


# ----- turns -----------------------------------------------------------------------------

def test_r6_same_unit_never_twice_in_a_row() -> None:
    state = battle({INF: u("4,6"), INF2: u("6,6"), E_INF: u("8,0", 3)})
    do(state, "move", unit=INF, to="4,5", facing=0)
    assert refusal(state, act("pivot", FR, unit=INF, facing=2)) == \
        "Blue Infantry 1 acted last; use a different unit or action first."
    assert all(a.get("unit") != INF for a in state.legal_actions())
    do(state, "draw_bonus")
    do(state, "pivot", unit=INF, facing=2)
    assert state.units[INF].facing == 2


def test_r7_six_actions_then_end_turn() -> None:
    state = battle({INF: u("4,6"), INF2: u("6,6"), E_INF: u("4,0", 3)})
    for k in range(6):
        do(state, "pivot", unit=INF if k % 2 == 0 else INF2, facing=(k + 1) % 6)
    assert state.actions_left == 0
    assert refusal(state, act("pivot", FR, unit=INF2, facing=3)) == "You have no actions left this turn; end your turn."
    assert {a.kind for a in state.legal_actions()} == {"end_turn", "concede"}
    do(state, "end_turn")
    assert state.current_player == BR and state.actions_left == 6 and state.turn == 1
    assert refusal(state, act("end_turn", FR)) == "It is British Army's turn."
    do(state, "end_turn", BR)
    assert state.turn == 2 and state.current_player == FR


def test_r6_change_formation_and_repair_are_unit_actions() -> None:
    state = battle({INF: u("4,6", strength=2), LC: u("6,6", strength=3), E_INF: u("8,0", 3)})
    do(state, "formation", unit=INF, formation="square")
    assert state.units[INF].formation == "square"
    assert refusal(state, act("formation", FR, unit=LC, formation="line")) == "Only infantry change formation."
    assert refusal(state, act("repair", FR, unit=LC)) == "Blue Light Cavalry is at full strength."
    do(state, "draw_bonus")
    do(state, "repair", unit=INF)
    assert state.units[INF].strength == 3 and state.actions_left == 3


def test_draw_terrain_places_next_to_revealed_hexes() -> None:
    state = battle({INF: u("4,8"), E_INF: u("8,0", 3)}, fill=None)
    do(state, "draw_terrain")
    tile = state.pending_tile
    assert tile is not None and state.actions_left == 5
    assert {a.kind for a in state.legal_actions()} == {"place_tile", "concede"}
    assert len(state.legal_actions()) == GAME.columns * 2 + 1
    assert refusal(state, act("place_tile", FR, hex="4,4")) == "A tile must be placed next to a revealed hex."
    assert refusal(state, act("place_tile", FR, hex="4,8")) == "That hex is already revealed."
    assert refusal(state, act("end_turn", FR)).startswith("Place the drawn ")
    do(state, "place_tile", hex="4,7")
    assert state.terrain[from_offset(4, 7)] == tile and state.pending_tile is None


# ----- close combat ----------------------------------------------------------------------

def test_r18_r21_close_combat_pairs_highest_and_ties_cost_nobody() -> None:
    result = close_combat([6, 5, 2, 1], [4, 4, 3, 1], 1, 2)
    assert [(p.attacker, p.defender, p.loser) for p in result.pairs] == \
        [(7, 6, "defender"), (6, 6, ""), (3, 5, "attacker"), (2, 3, "attacker")]
    assert (result.attacker_losses, result.defender_losses) == (2, 1)
    extra = close_combat([6, 6, 6], [1], 5, 0)
    assert extra.attacker_unpaired == (11, 11) and extra.defender_losses == 1 and extra.attacker_losses == 0


def test_r17_charge_needs_the_front_hex() -> None:
    state = battle({LC: u("4,5", 1), E_INF: u("4,4", 3)})
    assert refusal(state, act("attack", FR, unit=LC, target=E_INF, mode="melee")) == \
        "A charge needs the enemy in the hex the unit faces; pivot first."
    assert refusal(state, act("attack", FR, unit=LC, target=E_INF, mode="fire")) == \
        "Light Cavalry has no ranged attack."


def test_r19_front_attack_line_against_column() -> None:
    state = battle({INF: u("4,5", 0, formation="line"), E_INF: u("4,4", 3, formation="column")},
                   dice=[6, 5, 2, 1, 4, 4, 3, 1])
    do(state, "attack", unit=INF, target=E_INF, mode="melee")
    event = state.events[0]
    assert event["modifiers"]["attacker_modifier"] == 1 and event["modifiers"]["defender_modifier"] == 2
    assert (state.units[INF].strength, state.units[E_INF].strength) == (2, 3)


def test_r20_facing_penalties_by_side_and_square_immunity() -> None:
    for facing, penalty in [(3, 0), (2, 1), (4, 1), (1, 2), (5, 2), (0, 3)]:
        state = battle({HC: u("4,5", 0), E_INF: u("4,4", facing, formation="column")})
        mods = state.melee_modifiers(state.units[HC], state.units[E_INF])
        assert mods["defender_facing_penalty"] == penalty and mods["defender_modifier"] == 2 - penalty
    square = battle({HC: u("4,5", 0), E_INF: u("4,4", 0, formation="square")})
    mods = square.melee_modifiers(square.units[HC], square.units[E_INF])
    assert mods["defender_facing_penalty"] == 0 and mods["defender_modifier"] == 6
    against_infantry = battle({INF: u("4,5", 0), E_INF: u("4,4", 0, formation="square")})
    assert against_infantry.melee_modifiers(against_infantry.units[INF],
                                            against_infantry.units[E_INF])["defender_modifier"] == -2
    assert refusal(against_infantry, act("formation", FR, unit=INF, formation="column")) == \
        "Blue Infantry 1 is already in Column."
    do(against_infantry, "formation", unit=INF, formation="square")
    assert against_infantry.melee_target(against_infantry.units[INF]) is None, "Square cannot charge"


def test_r19_hills_add_and_farm_replaces_formation_bonus() -> None:
    hill = battle({LC: u("4,5"), E_INF: u("4,4", 3, formation="column")}, {"4,4": "hills"})
    assert hill.melee_modifiers(hill.units[LC], hill.units[E_INF])["defender_modifier"] == 3
    farm = battle({LC: u("4,5"), E_INF: u("4,4", 3, formation="line")}, {"4,4": "farm"})
    assert farm.melee_modifiers(farm.units[LC], farm.units[E_INF])["defender_modifier"] == 3
    farm_square = battle({LC: u("4,5"), E_INF: u("4,4", 3, formation="square")}, {"4,4": "farm"})
    assert farm_square.melee_modifiers(farm_square.units[LC], farm_square.units[E_INF])["defender_modifier"] == 3


def test_r22_artillery_never_charges_and_fires_point_blank_double() -> None:
    state = battle({HVA: u("4,5"), E_INF: u("4,4", 3)}, dice=[1, 2])
    assert refusal(state, act("attack", FR, unit=HVA, target=E_INF, mode="melee")) == \
        "Heavy Artillery never fights in close combat; it fires."
    do(state, "attack", unit=HVA, target=E_INF, mode="fire")
    event = state.events[0]
    assert event["modifiers"]["point_blank"] and event["result"]["losses"] == 4
    assert state.units[E_INF].strength == 0 and not state.units[E_INF].destroyed


def test_woods_forbid_combat_both_ways() -> None:
    state = battle({INF: u("4,5"), E_INF: u("4,4", 3), INF2: u("6,6"), E_LA: u("6,4", 3)},
                   {"4,4": "woods", "6,6": "woods"})
    assert refusal(state, act("attack", FR, unit=INF, target=E_INF, mode="melee")) == \
        "Units in Woods cannot be attacked."
    assert refusal(state, act("attack", FR, unit=INF2, target=E_LA, mode="fire")) == "Units in Woods cannot attack."


def test_r23_losses_break_then_destroy() -> None:
    state = battle({INF: u("4,5", strength=1), E_LC: u("4,4", 3)}, current=BR, dice=[6, 6, 6, 1])
    do(state, "attack", BR, unit=E_LC, target=INF, mode="melee")
    assert state.units[INF].strength == 0 and state.units[INF].hex is not None
    assert refusal(state, act("attack", FR, unit=INF, target=E_LC, mode="melee")) == "It is British Army's turn."
    do(state, "end_turn", BR)
    assert refusal(state, act("attack", FR, unit=INF, target=E_LC, mode="melee")) == \
        "Blue Infantry 1 is broken and cannot attack."
    do(state, "end_turn")
    do(state, "attack", BR, unit=E_LC, target=INF, mode="melee")
    assert state.units[INF].destroyed and state.is_terminal and state.winner == BR
    assert state.result == "annihilation"


# ----- ranged fire -----------------------------------------------------------------------

def test_r14_line_fires_a_die_per_strength_and_hits_on_three() -> None:
    state = battle({INF: u("4,5", formation="line"), E_INF: u("4,3", 3)}, dice=[1, 3, 4, 6])
    do(state, "attack", unit=INF, target=E_INF, mode="fire")
    assert state.events[0]["result"]["hits"] == 2 and state.units[E_INF].strength == 2
    column = battle({INF: u("4,5", formation="column"), E_INF: u("4,3", 3)})
    assert column.fire_modifiers(column.units[INF], column.units[E_INF])["dice"] == 1
    out_of_range = battle({INF: u("4,6"), E_INF: u("4,3", 3)})
    assert refusal(out_of_range, act("attack", FR, unit=INF, target=E_INF, mode="fire")) == \
        "Red Infantry 1 is out of range (2 hexes)."


def test_r15_terrain_and_counter_battery_change_the_hit_number() -> None:
    def hit_max(units, terrain):
        state = battle(units, terrain)
        shooter, target = (state.units[k] for k in units)
        return state.fire_modifiers(shooter, target)["hit_max"]

    assert hit_max({INF: u("4,5"), E_INF: u("4,3", 3)}, {"4,3": "wheat"}) == 2
    assert hit_max({INF: u("4,5"), E_INF: u("4,3", 3)}, {"4,5": "wheat", "4,3": "wheat"}) == 2  # once a shot
    assert hit_max({INF: u("4,5"), E_INF: u("4,3", 3)}, {"4,5": "orchards"}) == 2
    assert hit_max({INF: u("4,5"), E_INF: u("4,3", 3)}, {"4,3": "farm"}) == 2
    assert hit_max({LA: u("4,7"), E_HA: u("4,2", 3)}, {}) == 2
    assert hit_max({LA: u("4,7"), E_INF: u("4,2", 3, formation="square")}, {}) == 3


def test_r16_artillery_turns_one_step_to_fire() -> None:
    state = battle({LA: u("4,6", 0), E_INF: u("6,5", 3), E_LC: u("4,8", 0)})
    assert refusal(state, act("attack", FR, unit=LA, target=E_LC, mode="fire")).startswith(
        "Red Light Cavalry is outside Blue Light Artillery's arc of fire")
    do(state, "attack", unit=LA, target=E_INF, mode="fire")
    assert state.units[LA].facing == 1


def test_r15_square_and_farm_infantry_fire_all_round_with_one_die() -> None:
    behind = {E_INF: u("4,7", 0)}
    square = battle({INF: u("4,6", 0, formation="square"), **behind})
    assert any(a.kind == "attack" for a in square.legal_actions())
    assert square.fire_modifiers(square.units[INF], square.units[E_INF])["dice"] == 1
    farm = battle({INF: u("4,6", 0, formation="line"), **behind}, {"4,6": "farm"})
    assert farm.fire_modifiers(farm.units[INF], farm.units[E_INF])["dice"] == 1
    line = battle({INF: u("4,6", 0, formation="line"), **behind})
    assert refusal(line, act("attack", FR, unit=INF, target=E_INF, mode="fire")).endswith("pivot first.")


def test_ranged_fire_function() -> None:
    result = ranged_fire([1, 2, 3, 4], 2, 2)
    assert (result.hits, result.losses) == (2, 4)


# ----- victory ---------------------------------------------------------------------------

def test_r25_infantry_on_the_enemy_row_wins_but_cavalry_does_not() -> None:
    cav = battle({LC: u("4,2"), E_INF: u("8,4", 3)})
    do(cav, "move", unit=LC, to="4,0", facing=0)
    assert not cav.is_terminal
    state = battle({INF: u("4,1"), E_INF: u("8,4", 3)})
    do(state, "move", unit=INF, to="4,0", facing=0)
    assert state.is_terminal and state.winner == FR and state.result == "breakthrough"
    assert state.legal_actions() == [] and refusal(state, act("end_turn", FR)) == "The battle is over."


def test_r26_concede_only_by_a_player_at_any_time() -> None:
    state = battle({INF: u("4,6"), E_INF: u("4,2", 3)})
    assert [a.kind for a in state.legal_actions(BR)] == ["concede"]
    assert refusal(state, act("concede", 2)) == "Only a player in this battle can concede; spectators cannot."
    assert refusal(state, act("concede", -1)) == "Only a player in this battle can concede; spectators cannot."
    do(state, "concede", BR)
    assert state.winner == FR and state.result == "concede"


def test_r28_turn_limit_is_a_draw_only_when_the_table_asks_for_it() -> None:
    units = {INF: u("4,6"), E_INF: u("4,2", 3)}
    state = GAME.new_state(random.Random(0), {"turn_limit": True, "scenario": {"fill": "open", "units": units}})
    assert state.view(None)["turn_limit"] == GAME.rules.turn_limit == 30
    state.turn = GAME.rules.turn_limit
    do(state, "end_turn")
    do(state, "end_turn", BR)
    assert state.is_terminal and state.winner is None and state.result == "turn_limit"
    endless = battle(units)
    assert endless.view(None)["turn_limit"] is None, "off by default: the seed's battles end only by victory"
    endless.turn = 500
    do(endless, "end_turn")
    do(endless, "end_turn", BR)
    assert not endless.is_terminal and endless.turn == 501
    with pytest.raises(Refusal, match="turn_limit is true or false"):
        GAME.new_state(random.Random(0), {"turn_limit": 30})


def test_view_hides_hands_and_guards() -> None:
    state = battle({INF: u("4,6"), E_INF: u("4,2", 3)}, hands=[["rally", "heroic-defence"], ["charge"]])
    do(state, "play_card", card=next(c for c in state.hands[FR] if c.startswith("heroic")), unit=INF)
    mine, theirs, spectator = state.view(FR), state.view(BR), state.view(None)
    assert mine["players"][FR]["hand"] and mine["players"][FR]["guards"][0]["effect"] == "heroic_defence"
    assert theirs["players"][FR]["hand"] is None and theirs["players"][FR]["guards"] is None
    assert theirs["players"][FR]["guard_count"] == 1 and theirs["players"][FR]["hand_size"] == 1
    assert theirs["events"][0]["card"] is None and spectator["events"][0]["card"] is None
    assert spectator["players"][BR]["hand"] is None and mine["players"][BR]["hand"] is None
    json.dumps(mine)


def test_labels_read_like_orders() -> None:
    state = battle({INF: u("4,6"), LA: u("6,7"), E_INF: u("4,4", 3)}, hands=[["rally"], []])
    assert state.label(act("move", FR, unit=INF, to="4,5", facing=1)) == "Move Blue Infantry 1 to 4,5 facing NE"
    assert state.label(act("attack", FR, unit=INF, target=E_INF, mode="fire")) == \
        "Blue Infantry 1: Fire at Red Infantry 1"
    assert state.label(act("attack", FR, unit=INF, target=E_INF, mode="melee")) == \
        "Blue Infantry 1: Charge Red Infantry 1"
    assert state.label(act("formation", FR, unit=INF, formation="line")) == "Blue Infantry 1: form Line"
    assert state.label(act("play_card", FR, card=state.hands[FR][0], unit=LA)) == \
        "Play Rally! on Blue Light Artillery"
    assert state.label(act("end_turn", FR)) == "End turn"


@settings(max_examples=200, deadline=None)
@given(att=st.lists(st.integers(1, 6), max_size=8), dfn=st.lists(st.integers(1, 6), max_size=8),
       a_mod=st.integers(-3, 6), d_mod=st.integers(-3, 9))
def test_r18_close_combat_losses_never_exceed_the_pairs(att, dfn, a_mod, d_mod) -> None:
    result = close_combat(att, dfn, a_mod, d_mod)
    assert len(result.pairs) == min(len(att), len(dfn))
    assert result.attacker_losses + result.defender_losses <= len(result.pairs)
    assert all(p.attacker >= q.attacker and p.defender >= q.defender
               for p, q in zip(result.pairs, result.pairs[1:]))
    swapped = close_combat(dfn, att, d_mod, a_mod)
    assert (swapped.attacker_losses, swapped.defender_losses) == (result.defender_losses, result.attacker_losses)


def test_r24_broken_units_move_and_recover_but_do_not_fight() -> None:
    state = battle({INF: u("4,6", strength=0), INF2: u("6,6"), E_INF: u("4,4", 3)})
    assert refusal(state, act("formation", FR, unit=INF, formation="line")) == \
        "Blue Infantry 1 is broken and cannot change formation."
    assert not any(a.kind == "attack" and a["unit"] == INF for a in state.legal_actions())
    do(state, "move", unit=INF, to="4,5", facing=1)
    do(state, "pivot", unit=INF2, facing=1)
    do(state, "repair", unit=INF)
    assert state.units[INF].strength == 1 and not state.view(None)["units"][0]["broken"]


def test_r20_modifiers_for_units_further_apart_use_the_nearest_direction() -> None:
    """The companion's combat roller may ask about any two units; the side is the nearest hex direction."""
    state = battle({HC: u("4,7", 0), E_INF: u("4,3", 0, formation="line")})
    mods = state.melee_modifiers(state.units[HC], state.units[E_INF])
    assert mods["attack_side"] == 3 and mods["defender_facing_penalty"] == 3
