"""Hexbattle rulings read back against the seed's own words (issue 11), each on a hand-made position
with scripted dice. Test names cite the rulings in docs/rules/hexbattle.md."""

from __future__ import annotations

from test_hexbattle_cards import play
from test_hexbattle_setup import BR, FR, battle, do, refusal, u

from engine.core import act
from engine.hexgrid import hex_id

INF, INF2 = "french-infantry-1", "french-infantry-2"
LC, LA, HA, HVA = "french-light-cavalry", "french-light-artillery", "french-horse-artillery", "french-heavy-artillery"
E_INF, E_LC, E_LA = "british-infantry-1", "british-light-cavalry", "british-light-artillery"


def reach(state, uid: str) -> set[tuple[str, int]]:
    return {(hex_id(h), f) for h, f in state.reachable(state.units[uid])}


def test_r25_a_unit_pushed_by_rout_onto_the_enemy_row_does_not_win() -> None:
    """The seed's breakthrough is a player who *moves* infantry onto the row; a Rout! push is the enemy's doing."""
    state = battle({LC: u("4,6", 3), INF: u("0,8"), E_INF: u("4,7", 3), E_LC: u("10,0", 3)},
                   hands=[["rout"], []], dice=[6, 6, 6, 1, 1, 1, 1])
    play(state, "rout")
    do(state, "attack", unit=LC, target=E_INF, mode="melee")
    assert [e for e in state.events if e["event"] == "rout"] == [{"event": "rout", "unit": E_INF, "to": "4,8"}]
    assert not state.is_terminal and state.result is None
    do(state, "end_turn")
    assert not state.is_terminal, "standing on the row wins nothing by itself"
    do(state, "move", BR, unit=E_INF, to="5,8", facing=2)
    assert state.is_terminal and state.winner == BR and state.result == "breakthrough", \
        "its own Move onto a hex of the row does"


def test_r25_breakthrough_is_decided_before_reserve_fire_answers_the_move() -> None:
    """"Reaching that row ... triggers an immediate victory": the guard that would shoot the unit never fires."""
    state = battle({INF: u("4,1", strength=1), INF2: u("0,8"), E_LA: u("4,3", 0)},
                   hands=[[], ["reserve-fire"]], dice=[1, 1], current=BR)
    play(state, "reserve-fire", BR, unit=E_LA)
    do(state, "end_turn", BR)
    do(state, "move", unit=INF, to="4,0", facing=0)
    assert state.is_terminal and state.winner == FR and state.result == "breakthrough"
    assert [e["event"] for e in state.events] == ["move", "game_over"]
    assert state.units[INF].strength == 1 and state.dice == [1, 1], "no shot was fired"


def test_r8_heavy_artillery_moves_one_hex_a_turn() -> None:
    """"Extremely slow (1 hex/turn)": its one movement point lasts the whole turn, over all its Moves."""
    state = battle({HVA: u("6,6"), INF: u("2,6"), E_INF: u("10,0", 3)})
    do(state, "move", unit=HVA, to="6,5", facing=0)
    do(state, "move", unit=INF, to="2,5", facing=0)
    assert reach(state, HVA) == set()
    assert not [a for a in state.legal_actions() if a.kind == "move" and a["unit"] == HVA]
    assert refusal(state, act("move", FR, unit=HVA, to="6,4", facing=0)) == \
        "Blue Heavy Artillery has used its movement for this turn."
    do(state, "end_turn")
    do(state, "end_turn", BR)
    assert reach(state, HVA) == {("6,4", 0), ("6,6", 0)}, "a new turn, one more hex (ahead or backing up)"


def test_r8_forced_march_gives_heavy_artillery_two_hexes_that_turn() -> None:
    state = battle({HVA: u("6,6"), INF: u("2,6"), E_INF: u("10,0", 3)}, hands=[["forced-march"], []])
    do(state, "move", unit=HVA, to="6,5", facing=0)
    do(state, "move", unit=INF, to="2,5", facing=0)
    play(state, "forced-march", unit=HVA)
    assert reach(state, HVA) == {("6,4", 0), ("6,6", 0)}, "twice its range this turn, one hex of it used"


def test_r11_artillery_turns_only_to_step_on_and_never_in_place() -> None:
    """"Cannot free-pivot": a gun's Move turns only where the next step needs it, and ends on another hex."""
    state = battle({LA: u("4,6"), HA: u("8,6"), E_INF: u("10,0", 3)})
    moves = reach(state, LA)
    assert not [m for m in moves if m[0] == "4,6"], "no turning on the spot"
    assert ("4,5", 0) in moves and ("4,7", 0) in moves, "ahead, or backing up keeping its facing"
    assert ("5,5", 1) in moves, "turn one step, then step that way: 2 points"
    assert ("4,5", 1) not in moves and ("4,7", 1) not in moves, "no turn after its last step"
    assert not [m for m in reach(state, HA) if m[0] == "8,6"], "out and back is not a way to turn in place"
    assert refusal(state, act("move", FR, unit=LA, to="4,6", facing=1)) == \
        "Blue Light Artillery cannot reach 4,6 facing NE with 2 movement points."
    cavalry = battle({LC: u("4,6"), E_INF: u("10,0", 3)})
    assert ("4,6", 1) in reach(cavalry, LC) and ("4,5", 1) in reach(cavalry, LC), "others turn as they please"


def test_r15_wheat_on_the_line_of_fire_costs_one_once_a_shot() -> None:
    """"Firing through/from it": Wheat anywhere on the line, ends included, takes 1 off the hit number once."""
    def hit_max(terrain: dict[str, str], shooter: str = INF, at: str = "4,5") -> int:
        state = battle({shooter: u(at, formation="line"), E_INF: u("4,3", 3)}, terrain)
        return state.fire_modifiers(state.units[shooter], state.units[E_INF])["hit_max"]

    assert hit_max({}) == 3
    assert hit_max({"4,4": "wheat"}) == 2, "through"
    assert hit_max({"4,5": "wheat"}) == 2 and hit_max({"4,3": "wheat"}) == 2, "from, into"
    assert hit_max({"4,5": "wheat", "4,4": "wheat", "4,3": "wheat"}) == 2, "once, however many Wheat hexes"
    assert hit_max({"4,5": "orchards", "4,4": "wheat"}) == 1, "Orchards add their own -1"
    assert hit_max({"4,6": "wheat", "4,5": "wheat", "4,4": "wheat"}, LA, "4,7") == 2
    assert hit_max({"4,4": "wheat", "4,5": "farm"}, LA, "4,7") == 2, "the gun's line crosses Wheat; no farm unit"
    shot = battle({INF: u("4,5"), E_INF: u("4,3", 3)}, {"4,4": "wheat"}, dice=[3])
    do(shot, "attack", unit=INF, target=E_INF, mode="fire")
    assert shot.events[0]["result"]["hits"] == 0 and shot.units[E_INF].strength == 4
    ambush = battle({INF: u("4,5"), E_INF: u("4,3", 3)}, {"4,4": "wheat"}, hands=[["ambush"], []])
    play(ambush, "ambush")
    assert ambush.fire_modifiers(ambush.units[INF], ambush.units[E_INF], ambush=True)["hit_max"] == 3


def test_r23_a_gun_is_broken_by_one_hit_and_destroyed_by_two() -> None:
    """The seed's tip: "Artillery has only 2 strength — one hit breaks it, two destroys it"."""
    state = battle({INF: u("4,5", formation="line"), INF2: u("0,8"), E_LA: u("4,3", 3), E_INF: u("10,0", 3)},
                   dice=[1, 6, 6, 6, 6, 6, 6, 2, 1, 6, 6, 6])
    do(state, "attack", unit=INF, target=E_LA, mode="fire")
    gun = state.units[E_LA]
    assert gun.strength == 1 and not gun.destroyed
    assert [e for e in state.events if e["event"] == "broken"] == [{"event": "broken", "unit": E_LA}]
    assert next(x for x in state.view(None)["units"] if x["id"] == E_LA)["broken"]
    do(state, "end_turn")
    assert refusal(state, act("attack", BR, unit=E_LA, target=INF, mode="fire")) == \
        "Red Light Artillery is broken and cannot attack."
    do(state, "repair", BR, unit=E_LA)
    assert gun.strength == 2 and not state.is_broken(gun), "repair un-breaks it"
    do(state, "end_turn", BR)
    do(state, "attack", unit=INF, target=E_LA, mode="fire")
    assert gun.strength == 1 and state.is_broken(gun)
    do(state, "move", unit=INF2, to="0,7", facing=0)
    do(state, "attack", unit=INF, target=E_LA, mode="fire")
    assert gun.destroyed, "the second hit destroys it"


def test_r22_one_point_blank_hit_destroys_a_fresh_gun() -> None:
    state = battle({LA: u("4,5"), E_LA: u("4,4", 3), E_INF: u("10,0", 3)}, dice=[1, 6])
    do(state, "attack", unit=LA, target=E_LA, mode="fire")
    assert state.events[0]["result"]["losses"] == 2 and state.units[E_LA].destroyed


def test_r15_artillery_hits_a_square_on_1_to_3_like_any_target() -> None:
    """"Each roll of 1–3 scores a hit"; the one exception named is counter-battery ("only on a roll of 1 or 2").
    "Square is highly vulnerable to artillery" is advice and gives no number."""
    state = battle({LA: u("4,7"), E_INF: u("4,3", 3, formation="square"), E_LA: u("6,3", 3)}, dice=[4, 3])
    square, gun = state.units[E_INF], state.units[E_LA]
    assert state.fire_modifiers(state.units[LA], square)["hit_max"] == 3
    assert state.fire_modifiers(state.units[LA], gun)["hit_max"] == 2, "counter-battery: 1 or 2"
    do(state, "attack", unit=LA, target=E_INF, mode="fire")
    assert state.events[0]["result"]["dice"] == (4, 3) and state.events[0]["result"]["hits"] == 1
    assert square.strength == 3


def test_r16_a_gun_fires_only_within_one_facing_step_and_turns_to_face_its_target() -> None:
    """"Fires in a forward arc of 3 directions: straight ahead plus one step to each side (±1 facing step). The
    gun automatically pivots to face the target when it fires ... Cannot swing more than one step per attack"."""
    def fired(target_hex: str) -> int:
        state = battle({LA: u("4,6", 0), E_INF: u(target_hex, 3)}, dice=[6, 6])
        do(state, "attack", unit=LA, target=E_INF, mode="fire")
        return state.units[LA].facing

    assert fired("4,3") == 0, "straight ahead: no turn"
    assert fired("6,5") == 1 and fired("2,5") == 5, "one step to each side: the gun turns to face it"
    assert fired("5,4") == 0, "midway between ahead and one step aside: it turns only when it must"
    two_steps = battle({LA: u("4,6", 0), E_INF: u("6,7", 3)})
    assert refusal(two_steps, act("attack", FR, unit=LA, target=E_INF, mode="fire")) == \
        "Red Infantry 1 is outside Blue Light Artillery's arc of fire; a gun turns only one step as it fires."
    assert not [a for a in two_steps.legal_actions() if a.kind == "attack"], "two steps aside is out of its arc"
