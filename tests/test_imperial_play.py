"""Imperial battles played at random: invariants at every step, determinism, undo, hidden information."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cards import load_game
from engine.core import Match, Refusal, random_policy
from engine.imperial import OVER, ImperialGame, ImperialState, make_game

GAME: ImperialGame = make_game(load_game("imperial"))
ALL_CARDS = sorted(GAME.cfg.supply)


def random_options(rng: random.Random) -> dict[str, Any]:
    """Battle inputs that usually lead to a fight (a twice-as-strong side would win at once)."""
    ip0 = rng.randint(1, 14)
    ip1 = rng.randint(ip0 // 2 + 1, 2 * ip0 - 1) if rng.random() < 0.9 else rng.randint(0, 30)
    return {"imperial_power": [ip0, ip1], "gold": [rng.randint(0, 3), rng.randint(0, 3)],
            "reinforcements": [rng.randint(0, 4), rng.randint(0, 4)],
            "initiative": rng.sample([0, 1], 2), "game_round": rng.randint(1, 6)}


def check_invariants(state: ImperialState) -> None:
    """Every card in exactly one place, nothing negative, the view hides what it must."""
    assert sorted(state.cards()) == ALL_CARDS
    kind = GAME.cfg.kind
    for pile in (state.supply, *state.hands, *state.discards):
        assert all(kind[card] == t for t, cards in pile.items() for card in cards), "each card sits under its type"
    for values in (state.gold, state.reserves, state.marker, state.calls_left, state.bought):
        assert min(values) >= 0
    assert bool(state.players_to_act()) != state.is_terminal
    assert bool(state.legal_actions()) != state.is_terminal
    for p in state.players_to_act():
        assert state.legal_actions(p), "a side asked to act always has a legal action"
    if state.is_terminal:
        assert state.phase == OVER and state.result in ("automatic", "rout", "inconclusive")
        assert (state.winner is None) == (state.result == "inconclusive")
    views = {viewer: state.view(viewer) for viewer in (0, 1, None)}
    json.dumps(views[None])
    for viewer, other in ((0, 1), (1, 0), (None, 0), (None, 1)):
        side = views[viewer]["sides"][other]
        assert side["hand"] is None and side["choice"] is None
    for p in (0, 1):
        own = views[p]["sides"][p]
        assert sum(own["hand"].values()) == own["hand_count"] == sum(map(len, state.hands[p].values()))


def test_r18_invariants_over_thousands_of_random_battles_that_all_end() -> None:
    rng = random.Random(2026)
    results: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for seed in range(2000):
        match = Match(GAME, seed, random_options(rng))
        check_invariants(match.state)
        while not match.state.is_terminal:
            action = rng.choice(match.state.legal_actions())
            match.apply(action)
            kinds[action.kind] += 1
            check_invariants(match.state)
            assert len(match.log) < 500, "R18: every battle ends"
        results[match.state.result] += 1
    assert set(results) == {"automatic", "rout", "inconclusive"}
    assert set(kinds) == {"exchange", "pass", "buy", "play", "discard_infantry", "name_type", "reinforce"}


def test_same_seed_same_battle_and_replay_reproduces_it() -> None:
    for seed in range(40):
        options = random_options(random.Random(seed))
        first = Match(GAME, seed, options)
        first.play_out(random_policy, random.Random(seed))
        second = Match(GAME, seed, options)
        second.play_out(random_policy, random.Random(seed))
        assert first.log == second.log
        assert first.state.view(None) == second.state.view(None)
        replay = Match(GAME, seed, options, list(first.log))
        assert replay.state.view(0) == first.state.view(0) and replay.state.view(1) == first.state.view(1)
        assert replay.state.cards() == first.state.cards()


def test_undo_back_to_the_start_at_every_step() -> None:
    rng = random.Random(5)
    for seed in range(30):
        match = Match(GAME, seed, random_options(rng))
        seen = [(match.state.view(0), match.state.view(1), match.state.cards())]
        while not match.state.is_terminal:
            match.apply(rng.choice(match.state.legal_actions()))
            seen.append((match.state.view(0), match.state.view(1), match.state.cards()))
        for expected in reversed(seen[:-1]):
            match.undo()
            assert (match.state.view(0), match.state.view(1), match.state.cards()) == expected
        assert match.log == []


def test_refused_actions_leave_the_state_unchanged() -> None:
    """Every action legal for the other side, or for an earlier position, is either legal or refused cleanly."""
    rng = random.Random(9)
    for seed in range(200):
        match = Match(GAME, seed, random_options(rng))
        earlier = []
        while not match.state.is_terminal:
            state = match.state
            legal = state.legal_actions()
            for probe in earlier[-6:] + legal[:3]:
                if probe in legal:
                    continue
                before = state.view(0), state.view(1), state.cards()
                try:
                    state.verify(probe)
                except Refusal as refusal:
                    assert str(refusal) and (state.view(0), state.view(1), state.cards()) == before
            earlier.extend(legal)
            match.apply(rng.choice(legal))


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.sampled_from(["imperial_power", "gold", "reinforcements", "initiative", "game_round"]),
                       st.one_of(st.integers(-3, 30), st.lists(st.integers(-2, 30), max_size=3),
                                 st.lists(st.one_of(st.integers(0, 2), st.text(max_size=1), st.booleans()), max_size=3),
                                 st.text(max_size=3))))
def test_any_options_are_either_refused_or_start_a_battle(options: dict[str, Any]) -> None:
    try:
        GAME.check_options(options)
    except Refusal as refusal:
        assert str(refusal).endswith(")."), "each option refusal shows the bad value"
        return
    state = GAME.new_state(random.Random(0), options)
    check_invariants(state)
