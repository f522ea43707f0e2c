"""Each game's moves are listed once, as `engine.kinds.Kind` values: every move offered in play is one of its
game's kinds, reads in words of its own (never the `str(action)` fallback), and the declared arguments are
exactly the kinds' (issue 28)."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest

import cards
from engine import GAME_IDS, make_game
from engine.core import Match

OPTIONS: dict[str, dict[str, Any]] = {"hexbattle": {"quick_start": True, "turn_limit": True},
                                      "imperial": {"imperial_power": [4, 4], "gold": [2, 1], "reinforcements": [1, 1]},
                                      "waterloo": {"players": 3}}
STEPS = 60


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_offered_move_is_a_kind_with_its_own_words(game_id: str) -> None:
    kinds = importlib.import_module(f"engine.{game_id}").KINDS
    match = Match(make_game(cards.load_game(game_id)), 7, OPTIONS.get(game_id, {}))
    assert type(match.state).ARGS == {name: kind.args for name, kind in kinds.items()}
    rng, offered = random.Random(7), set()
    while not match.state.is_terminal and len(match.log) < STEPS:
        state = match.state
        acting = state.players_to_act()
        legal = [a for p in acting for a in state.legal_actions(p)]
        for action in legal:
            assert action.kind in kinds, action
            assert state.label(action) != str(action), f"{action} has no words of its own"
            assert all(line.text for line in state.narrate(action))
            offered.add(action.kind)
        match.apply(rng.choice(legal))
    assert offered, "the game offered moves"
