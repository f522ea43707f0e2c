"""Reenforcements (medieval) over whole wars: invariants, undo, golden replays and the policy's strength."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards import load_game
from engine.core import Action, Match
from engine.medieval import (
    MedievalState,
    ai_policy,
    best_placement,
    expected_outcomes,
    make_game,
)

DATA = load_game("medieval")
GAME = make_game(DATA)
DECK = DATA.rules.deck_size
GOLDEN = Path(__file__).parent / "golden"


def check_invariants(state: MedievalState) -> None:
    """Every card in exactly one place, nothing negative, and a decision pending unless the war is over."""
    for p in (0, 1):
        places = (state.decks[p] + state.survivors[p] + state.graveyard[p] + state.hands[p] + state.beside[p]
                  + [card for col in state.table for card, _ in col[p]])
        assert sorted(places) == list(range(DECK)), f"player {p}'s cards are not each in one place"
        assert state.cards_left(p) + len(state.graveyard[p]) == DECK
        pending = state.pending[p]
        if pending is not None:
            assert sorted(c for c in pending if c is not None) == sorted(state.hands[p])
    for side in state.totals():
        assert all(t is None or t >= DATA.rules.min_total for t in side)
    assert 0 <= state.battle <= DATA.rules.max_battles
    if state.over:
        assert state.players_to_act() == [] and state.legal_actions() == []
        alive = [bool(state.decks[p] or state.survivors[p]) for p in (0, 1)]
        assert state.winner is None or (alive[state.winner] and not alive[1 - state.winner])
    else:
        assert state.players_to_act() and state.legal_actions()
        assert all(state.hands[p] for p in state.players_to_act())


def random_war(seed: int, check: bool = True) -> MedievalState:
    rng = random.Random(seed)
    state = GAME.new_state(rng, {})
    actions = 0
    while not state.is_terminal:
        if check:
            check_invariants(state)
        state.apply(rng.choice(state.legal_actions()), rng)
        actions += 1
    if check:
        check_invariants(state)
    return state


def test_r12_thousands_of_random_wars_keep_every_card_and_end() -> None:
    battles = []
    for seed in range(2000):
        state = random_war(seed)
        assert state.over and state.end_reason
        assert "battle limit" not in state.end_reason  # R12: every battle buries a card
        battles.append(state.battle)
    assert max(battles) <= 2 * DECK


def test_views_are_json_and_hide_what_they_should() -> None:
    for seed in range(100):
        rng = random.Random(seed)
        state = GAME.new_state(rng, {})
        while not state.is_terminal:
            for viewer in (0, 1, None):
                view = state.view(viewer)
                json.dumps(view)
                for p in (0, 1):
                    seen = view["players"][p]
                    if viewer != p:
                        assert isinstance(seen["hand"], int) and seen["placement"] is None
            state.apply(rng.choice(state.legal_actions()), rng)


def test_same_seed_same_war_through_match() -> None:
    def war(seed: int) -> tuple[list[Action], dict[str, Any]]:
        match = Match(GAME, seed)
        match.play_out(ai_policy, random.Random(seed))
        return match.log, match.state.view(None)

    assert war(42) == war(42)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_undo_walks_back_to_the_start(seed: int) -> None:
    rng = random.Random(seed)
    match = Match(GAME, seed)
    views = [[match.state.view(p) for p in (0, 1, None)]]
    while not match.state.is_terminal:
        match.apply(rng.choice(match.state.legal_actions()))
        views.append([match.state.view(p) for p in (0, 1, None)])
    while match.log:
        views.pop()
        match.undo()
        assert [match.state.view(p) for p in (0, 1, None)] == views[-1]
    assert len(views) == 1


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("medieval_*.json")), ids=lambda p: p.stem)
def test_golden_wars_replay_exactly(path: Path) -> None:
    golden = json.loads(path.read_text(encoding="utf-8"))
    log = [Action.from_json(a) for a in golden["log"]]
    match = Match(GAME, golden["seed"], golden["options"], log)
    assert match.state.view(None) == golden["final"]
    assert match.state.winner == golden["winner"]


def test_golden_files_exist() -> None:
    assert len(list(GOLDEN.glob("medieval_*.json"))) >= 2


def test_policy_beats_random_placement() -> None:
    """Over 300 wars, alternating seats, the policy wins clearly more than half (about 73% when measured)."""
    wins = 0
    games = 300
    for seed in range(games):
        smart = seed % 2
        rng = random.Random(seed)
        state = GAME.new_state(rng, {})
        while not state.is_terminal:
            for p in state.players_to_act():
                action = best_placement(state, p) if p == smart else rng.choice(state.legal_actions(p))
                state.apply(action, rng)
        wins += state.winner == smart
    assert wins / games >= 0.6


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9), battles=st.integers(min_value=0, max_value=20))
def test_policy_advice_is_legal_and_best(seed: int, battles: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_state(rng, {})
    for _ in range(battles):
        if state.is_terminal:
            return
        for p in state.players_to_act():
            state.apply(rng.choice(state.legal_actions(p)), rng)
    if state.is_terminal:
        return
    for p in state.players_to_act():
        outcomes = expected_outcomes(state, p)
        legal = state.legal_actions(p)
        assert sorted(map(str, (o.action for o in outcomes))) == sorted(map(str, legal))
        assert all(0.0 <= o.expected_columns <= DATA.rules.columns for o in outcomes)
        assert best_placement(state, p) == outcomes[0].action
        assert outcomes[0].expected_cards == max(o.expected_cards for o in outcomes)
        assert all(-DECK * 2 <= o.expected_cards <= DECK * 2 for o in outcomes)


def test_r3_battles_fought_without_a_decision_are_all_reported() -> None:
    """In the stacked endgame, battle 3 needs no placement: the last action reports battles 2 and 3."""
    golden = json.loads((GOLDEN / "medieval_stacked_endgame.json").read_text(encoding="utf-8"))
    match = Match(GAME, golden["seed"], golden["options"], [Action.from_json(a) for a in golden["log"]])
    assert [b["battle"] for b in match.state.view(None)["battles"]] == [2, 3]
    assert match.state.view(None)["battles"][1]["columns"][1]["outcome"] == "deadlock"
    match.undo()  # back to battle 2 with one placement committed: battle 1's report is still shown
    assert [b["battle"] for b in match.state.view(None)["battles"]] == [1]
