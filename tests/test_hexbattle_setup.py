"""Hand-made Hexbattle positions shared by the hexbattle tests, plus tests of setup and deployment."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cards import load_game
from engine.core import Action, Refusal, act
from engine.hexbattle import HexbattleState, make_game

GAME = make_game(load_game("hexbattle"))
FR, BR = 0, 1


def battle(units: dict[str, dict[str, Any]], terrain: dict[str, str] | None = None, fill: str = "open",
           hands: list[list[str]] | None = None, dice: list[int] | None = None, current: int = 0) -> HexbattleState:
    """A battle in progress on a revealed map: units by id -> {hex, facing, strength, formation}."""
    options: dict[str, Any] = {"scenario": {"fill": fill, "terrain": terrain or {}, "units": units,
                                            "hands": hands or [[], []], "current_player": current}}
    if dice:
        options["dice"] = dice
    return GAME.new_state(random.Random(0), options)


def u(hex_: str, facing: int = 0, **more: Any) -> dict[str, Any]:
    return {"hex": hex_, "facing": facing, **more}


def refusal(state: HexbattleState, action: Action) -> str:
    with pytest.raises(Refusal) as info:
        state.verify(action)
    return str(info.value)


def do(state: HexbattleState, kind: str, player: int = FR, seed: int = 1, **args: Any) -> HexbattleState:
    state.apply(act(kind, player, **args), random.Random(seed))
    return state


def test_new_battle_starts_with_deployment_on_open_home_rows() -> None:
    state = GAME.new_state(random.Random(3), {})
    view = state.view(None)
    assert view["phase"] == "deploy" and view["current_player"] == FR
    assert len(view["map"]["terrain"]) == 2 * GAME.columns
    assert set(view["map"]["terrain"].values()) == {"open"}
    rows = {int(h.split(",")[1]) for h in view["map"]["terrain"]}
    assert rows == {0, GAME.rows - 1}
    assert len(state.legal_actions()) == 8 * GAME.columns + 2  # 8 units x 11 hexes, quick start, concede


def test_deployment_alternates_and_refuses_wrong_rows() -> None:
    state = GAME.new_state(random.Random(3), {})
    assert refusal(state, act("deploy", FR, unit="french-infantry-1", hex="3,0")) == \
        "Units deploy on your own starting row."
    do(state, "deploy", unit="french-infantry-1", hex="3,8")
    assert state.current_player == BR
    assert refusal(state, act("deploy", BR, unit="french-infantry-2", hex="3,0")) == \
        "Blue Infantry 2 is not yours."
    do(state, "deploy", BR, unit="british-infantry-1", hex="3,0")
    assert refusal(state, act("deploy", FR, unit="french-infantry-2", hex="3,8")) == "That hex is occupied."
    assert refusal(state, act("move", FR, unit="french-infantry-1", to="3,7", facing=0)) == \
        "Deploy your units first."


def test_quick_start_action_places_only_the_actors_units() -> None:
    state = GAME.new_state(random.Random(3), {})
    do(state, "quick_start")
    assert all(state.units[uid].hex is not None for uid, _ in GAME.roster[FR])
    assert all(state.units[uid].hex is None for uid, _ in GAME.roster[BR])
    for _ in range(8):
        assert state.phase == "deploy" and state.current_player == BR
        state.apply(state.legal_actions()[0], random.Random(0))
    assert state.phase == "battle" and state.current_player == FR and state.actions_left == 6


def test_quick_start_option_deploys_both_armies_facing_the_enemy() -> None:
    state = GAME.new_state(random.Random(5), {"quick_start": True})
    assert state.phase == "battle"
    for unit in state.units.values():
        assert unit.hex is not None
        assert unit.facing == (0 if unit.player == FR else 3)
        assert state.terrain[unit.hex] == "open"


def test_bad_options_are_refused() -> None:
    with pytest.raises(Refusal, match="Unknown table option 'speed'"):
        GAME.check_options({"speed": 2})
    with pytest.raises(Refusal, match="Scripted dice must be a list of numbers from 1 to 6"):
        GAME.check_options({"dice": [7]})
    with pytest.raises(Refusal, match="Seat names must be a list of two names"):
        GAME.check_options({"names": ["solo"]})
    with pytest.raises(Refusal, match="Unit french-infantry-1 is placed off the map"):
        GAME.check_options({"scenario": {"units": {"french-infantry-1": {"hex": "40,2"}}}})
    with pytest.raises(Refusal, match="The scenario's hands hold more 'artillery-barrage' cards than the deck has"):
        GAME.check_options({"scenario": {"hands": [["artillery-barrage"], ["artillery-barrage"]]}})
    with pytest.raises(Refusal, match="Unit french-light-cavalry cannot stand on hex 2,2"):
        GAME.check_options({"scenario": {"fill": "open", "terrain": {"2,2": "woods"},
                                         "units": {"french-light-cavalry": {"hex": "2,2"}}}})
    with pytest.raises(Refusal, match="Unit french-infantry-1 cannot stand on hex 2,2"):
        GAME.check_options({"scenario": {"units": {"french-infantry-1": {"hex": "2,2"}}}})
    with pytest.raises(Refusal, match="Unit french-infantry-1 has strength 0 to 4"):
        GAME.check_options({"scenario": {"fill": "open", "units": {"french-infantry-1": {"hex": "2,2", "strength": 5}}}})
    with pytest.raises(Refusal, match="Two units are placed on hex 2,2"):
        GAME.check_options({"scenario": {"fill": "open", "units": {"french-infantry-1": {"hex": "2,2"},
                                                                   "british-infantry-1": {"hex": "2,2"}}}})
