"""Hexbattle's playouts and explicit clone: `play` (a listed move, not checked again) plays the same battles as
`apply`, and a clone plays on like a deep copy."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from test_hexbattle_random import aggressive, skirmish_options
from test_hexbattle_setup import GAME

from engine.hexbattle import HexbattleState
from engine.hexgrid import disc, distance, in_arc


def fingerprint(state: HexbattleState) -> str:
    """Everything either player and a spectator can see, and the hidden piles, as one string."""
    views = [state.view(p) for p in (None, 0, 1)]
    hidden = [state.tile_deck, state.bonus_deck, state.dice, sorted(state.at.items()), sorted(state.terrain.items())]
    return json.dumps([views, hidden], sort_keys=True, default=str)


def by_api(state: HexbattleState, rng: random.Random, concede: bool, max_moves: int | None = None,
           checked: bool = True) -> int:
    """Uniform random play through legal_actions and `apply` (checked) or `play` (not checked again)."""
    moves = 0
    carry_out = state.apply if checked else state.play
    while not state.is_terminal and moves != max_moves:
        legal = state.legal_actions()
        carry_out(rng.choice(legal if concede else [a for a in legal if a.kind != "concede"]), rng)
        moves += 1
    return moves


@pytest.mark.parametrize("block", range(4))
def test_play_plays_the_same_complete_battles_as_apply(block: int) -> None:
    """Whole battles without conceding (about 400 decisions each), from quick start and from deployment."""
    for seed in range(block * 10, block * 10 + 10):
        options: dict[str, Any] = {"quick_start": True, "turn_limit": True} if seed % 2 else {"turn_limit": True}
        slow_rng, fast_rng = random.Random(seed), random.Random(seed)
        slow, fast = GAME.new_state(slow_rng, options), GAME.new_state(fast_rng, options)
        assert by_api(fast, fast_rng, concede=False, checked=False) == by_api(slow, slow_rng, concede=False)
        assert fast.is_terminal and fast.result != "concede"
        assert fingerprint(fast) == fingerprint(slow), seed
        assert fast_rng.getstate() == slow_rng.getstate(), seed


def test_play_with_conceding_and_a_move_limit_matches_apply() -> None:
    """Conceding allowed, and stopping after a given number of moves."""
    for seed in range(60):
        options: dict[str, Any] = {"quick_start": True, "turn_limit": True} if seed % 3 else {"turn_limit": True}
        slow_rng, fast_rng = random.Random(seed), random.Random(seed)
        slow, fast = GAME.new_state(slow_rng, options), GAME.new_state(fast_rng, options)
        limit = None if seed % 2 else 37
        assert by_api(fast, fast_rng, True, limit, checked=False) == by_api(slow, slow_rng, True, limit)
        assert fingerprint(fast) == fingerprint(slow), seed
        assert fast_rng.getstate() == slow_rng.getstate(), seed


def test_play_matches_apply_on_random_skirmishes() -> None:
    """Scenario positions with combat, broken units and cards in hand, 60 decisions at most."""
    for seed in range(150):
        slow_rng, fast_rng = random.Random(seed), random.Random(seed)
        slow = GAME.new_state(slow_rng, skirmish_options(seed))
        fast = GAME.new_state(fast_rng, skirmish_options(seed))
        assert by_api(fast, fast_rng, False, 60, checked=False) == by_api(slow, slow_rng, False, 60)
        assert fingerprint(fast) == fingerprint(slow), seed
        assert fast_rng.getstate() == slow_rng.getstate(), seed


@pytest.mark.parametrize("seed", range(6))
def test_clone_is_independent_and_plays_on_like_a_deep_copy(seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_state(rng, skirmish_options(seed) if seed % 2 else {"quick_start": True})
    for _ in range(30 + 20 * seed):
        if state.is_terminal:
            break
        state.apply(aggressive(state, state.legal_actions(), rng), rng)
    before = fingerprint(state)
    clone, deep = state.clone(), copy.deepcopy(state)
    assert clone.game is state.game
    assert fingerprint(clone) == before
    clone_rng, deep_rng = random.Random(seed + 100), random.Random(seed + 100)
    for _ in range(200):
        if clone.is_terminal:
            break
        legal = clone.legal_actions()
        assert legal == deep.legal_actions()
        action = aggressive(clone, legal, clone_rng)
        assert action == aggressive(deep, legal, deep_rng)
        clone.apply(action, clone_rng)
        deep.apply(action, deep_rng)
        assert fingerprint(clone) == fingerprint(deep)
    assert fingerprint(state) == before, "playing on the clone left the original untouched"


@pytest.mark.parametrize("seed", range(3))
def test_cached_actions_match_a_fresh_state_after_every_action(seed: int) -> None:
    """Move, attack and per-unit caches forget exactly enough: a clone with empty caches lists the same actions."""
    rng = random.Random(seed)
    state = GAME.new_state(rng, skirmish_options(seed) if seed else {"quick_start": True})
    for _ in range(300):
        if state.is_terminal:
            break
        fresh = state.clone()
        fresh._reach_cache.clear()
        fresh._attack_cache.clear()
        fresh._segments.clear()
        legal = state.legal_actions()
        assert legal == fresh.legal_actions()
        state.apply(aggressive(state, legal, rng), rng)


def test_zones_and_fire_zones_agree_with_distance_and_arcs() -> None:
    """The precomputed hex sets behind fire targets and attack caching are exactly what the hex maths says."""
    for reach in range(5):
        assert sorted(disc(reach)) == sorted((dq, dr) for dq in range(-9, 10) for dr in range(-9, 10)
                                             if distance((0, 0), (dq, dr)) <= reach)
    for h in sorted(GAME.board)[::7]:
        for reach in (1, 2, 4, 8):
            assert GAME.zone(h, reach) == {x for x in GAME.board if distance(h, x) <= reach}
            for facing in range(6):
                assert GAME.fire_zone(h, facing, reach) == {
                    x for x in GAME.board if distance(h, x) <= reach and in_arc(h, facing, x)}
