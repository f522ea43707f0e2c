"""Napoleonic Warfare over many seeded random games: invariants, determinism, undo and golden replays.

Run `python tests/test_warfare_random.py --write` to re-record the golden games after a deliberate
rules change (then review the diff of tests/golden/warfare_*.json).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards import load_game
from engine.bots.search import playout
from engine.core import Action, Match, random_policy
from engine.warfare import OVER, WarfareState, make_game

GAME = make_game(load_game("warfare"))
RULES = GAME.rules
GOLDEN = Path(__file__).parent / "golden"
# Random programs may never finish a game; they ask for the turn and action limits (R17).
LIMITS = {"turn_limit": True}
GOLDEN_SEEDS = {"warfare_random_7.json": ("random", 7), "warfare_random_2024.json": ("random", 2024),
                "warfare_aggressive_11.json": ("aggressive", 11)}


def check_invariants(state: WarfareState) -> None:
    """Every card in exactly one place; nothing negative; the table is empty outside an attack."""
    piles = state.hands[0] + state.hands[1] + state.deck + state.discard + state.units + state.support
    assert len(piles) == len(set(piles)) == len(GAME.cards)
    assert all(0 <= t <= RULES.starting_troops for t in state.troops)
    assert state.actions <= RULES.action_limit and state.turn <= RULES.turn_limit
    if state.step in ("deploy", "blunder", "units", "exchange", "discard", "over"):
        assert not state.units and not state.support
    if state.is_terminal:
        assert state.legal_actions() == [] and state.players_to_act() == []
        if state.end_reason == "troops":
            assert state.troops[1 - state.winner] == 0  # type: ignore[index]
    else:
        assert state.players_to_act() == [state.current_player]
        assert state.legal_actions()


def play_stepwise(seed: int) -> WarfareState:
    """A random game through the public API, checking invariants after every action."""
    rng = random.Random(seed)
    state = GAME.new_state(rng, LIMITS)
    check_invariants(state)
    while not state.is_terminal:
        legal = state.legal_actions()
        action = rng.choice(legal)
        assert state.can(action)
        state.apply(action, rng)
        check_invariants(state)
    return state


def test_invariants_over_many_random_games() -> None:
    ends = set()
    for seed in range(60):
        ends.add(play_stepwise(seed).end_reason)
    assert "troops" in ends


def test_every_random_game_ends_within_the_limits() -> None:
    """Several hundred random games through `play` (the bots' playouts), the invariants checked every few moves."""
    winners = {0: 0, 1: 0, None: 0}
    for seed in range(1000, 1400):
        rng = random.Random(seed)
        state = GAME.new_state(rng, LIMITS)
        while not state.is_terminal:
            playout(state, rng, 25)
            check_invariants(state)
        winners[state.winner] += 1
    assert winners[0] > 120 and winners[1] > 120


def test_low_limits_end_games_anywhere_without_losing_cards() -> None:
    """With tiny turn and action limits, games stop in every step (mid-attack too) and keep every card."""
    import dataclasses
    data = load_game("warfare")
    game = make_game(dataclasses.replace(data, rules=data.rules.model_copy(update={"turn_limit": 9, "action_limit": 40})))
    reasons = set()
    for seed in range(300):
        rng = random.Random(seed)
        state = game.new_state(rng, LIMITS)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()), rng)
        piles = state.hands[0] + state.hands[1] + state.deck + state.discard + state.units + state.support
        assert len(piles) == len(set(piles)) == len(GAME.cards) and not state.units and not state.support
        reasons.add(state.end_reason)
    assert reasons == {"turn limit", "action limit"}


def api_game(game: Any, seed: int, checked: bool) -> tuple[WarfareState, float]:
    """A random game through `legal_actions` and `apply` (checked) or `play`; the next number its rng would give."""
    rng = random.Random(seed)
    state = game.new_state(rng, LIMITS)
    while not state.is_terminal:
        action = rng.choice(state.legal_actions())
        if checked:
            state.apply(action, rng)
        else:
            state.play(action, rng)
    return state, rng.random()


@pytest.mark.parametrize("limits", [{}, {"turn_limit": 9, "action_limit": 40}])
def test_play_carries_out_a_listed_move_as_apply_does(limits: dict[str, int]) -> None:
    """`play` skips the check of a move `legal_actions` listed: the same games as `apply`, under tiny limits too."""
    import dataclasses
    data = load_game("warfare")
    game = make_game(dataclasses.replace(data, rules=data.rules.model_copy(update=limits))) if limits else GAME
    for seed in range(100, 130):
        checked, after = api_game(game, seed, True)
        played, after_played = api_game(game, seed, False)
        assert played.snapshot() == checked.snapshot() and played.last == checked.last and after_played == after, seed


def test_listed_actions_are_ordinary_actions() -> None:
    """legal_actions hands out actions built once per game (Deploy) or without the dataclass __init__; they
    must still be plain Actions, equal to ones built anew."""
    rng = random.Random(4)
    state = GAME.new_state(rng, LIMITS)
    seen = set()
    while not state.is_terminal:
        legal = state.legal_actions()
        for action in legal:
            twin = Action(action.kind, action.player, dict(action.args))
            assert type(action) is Action and action == twin and repr(action) == repr(twin) and str(action) == str(twin)
            assert Action.from_json(action.to_json()) == action and state.can(action)
        seen.update(a.kind for a in legal)
        state.apply(rng.choice(legal), rng)
    assert {"draw", "attack", "units", "support", "exchange"} <= seen


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_same_seed_same_game(seed: int) -> None:
    def run() -> tuple[list[Action], dict[str, Any]]:
        match = Match(GAME, seed, LIMITS)
        match.play_out(random_policy, random.Random(seed), max_actions=300)
        return match.log, match.state.snapshot()

    assert run() == run()


def test_clone_is_independent() -> None:
    rng = random.Random(3)
    state = GAME.new_state(rng, LIMITS)
    copy = state.clone()
    before = copy.snapshot()
    playout(state, rng, 10_000)
    assert copy.snapshot() == before and copy.legal_actions()


@pytest.mark.parametrize(("policy_name", "seed", "cap"), [("random", 1, 150), ("random", 2, 150),
                                                         ("aggressive", 11, None)])
def test_undo_to_the_start_retraces_every_state(policy_name: str, seed: int, cap: int | None) -> None:
    """Undo after every step of a game (the aggressive one complete) gives back each earlier state."""
    policy = aggressive_policy if policy_name == "aggressive" else random_policy
    match = Match(GAME, seed, LIMITS)
    rng = random.Random(seed)
    snapshots = [match.state.snapshot()]
    while not match.state.is_terminal and (cap is None or len(match.log) < cap):
        match.apply(policy(match.state, match.state.legal_actions(), rng))
        snapshots.append(match.state.snapshot())
    assert cap is not None or match.state.is_terminal
    snapshots.pop()
    while match.log:
        match.undo()
        assert match.state.snapshot() == snapshots.pop()
    assert not snapshots


def aggressive_policy(state: Any, legal: list[Action], rng: random.Random) -> Action:
    """Attack whenever possible with the most cards; defend with every card allowed."""
    by_kind: dict[str, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    for kind in ("attack", "blunder", "counter", "morale"):
        if kind in by_kind:
            return rng.choice(by_kind[kind])
    for kind in ("units", "support"):
        if kind in by_kind:
            return max(by_kind[kind], key=lambda a: len(a.args["cards"]))
    return rng.choice(legal)


def final_summary(state: WarfareState) -> dict[str, Any]:
    snap = state.snapshot()
    keys = ("turn", "active", "step", "troops", "hand_counts", "deck_count", "winner", "end_reason", "hands", "discard")
    return {k: snap[k] for k in keys}


def record(policy_name: str, seed: int) -> dict[str, Any]:
    policy = aggressive_policy if policy_name == "aggressive" else random_policy
    match = Match(GAME, seed, LIMITS)
    match.play_out(policy, random.Random(seed))
    return {"game": "warfare", "seed": seed, "options": LIMITS, "policy": policy_name,
            "log": [a.to_json() for a in match.log], "final": final_summary(match.state)}


@pytest.mark.parametrize("name", sorted(GOLDEN_SEEDS))
def test_golden_game_replays_to_its_recorded_end(name: str) -> None:
    golden = json.loads((GOLDEN / name).read_text())
    match = Match(GAME, golden["seed"], golden["options"], [Action.from_json(a) for a in golden["log"]])
    assert match.state.step == OVER
    assert final_summary(match.state) == golden["final"]


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        GOLDEN.mkdir(exist_ok=True)
        for file_name, (policy_name, golden_seed) in GOLDEN_SEEDS.items():
            (GOLDEN / file_name).write_text(json.dumps(record(policy_name, golden_seed), indent=0) + "\n")
