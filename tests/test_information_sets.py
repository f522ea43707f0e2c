"""Each viewer's information set, decided in one place per game (`State.resample`; docs/design.md,
"Information and undo"): on random reachable positions of all five games, for every seat and the
spectator, every surface that viewer reads is the same on the real position and on positions re-dealt
from what it knows, and a re-deal depends on what the viewer knows only.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from functools import cache
from typing import Any

import pytest

import cards
from engine import GAME_IDS, make_game
from engine.core import Game, Match, State

SEEDS = (1, 2, 3)
POSITIONS = 12  # positions looked at per game and seed, spread over the first STEPS actions
STEPS = 120
REDEALS = 3


@cache
def game(game_id: str) -> Game[Any]:
    return make_game(cards.load_game(game_id))


def positions(game_id: str, seed: int) -> list[Match[Any]]:
    """Up to POSITIONS positions of one random game (history on, as a table plays), each a match of its own."""
    options: dict[str, Any] = {"quick_start": True} if game_id == "hexbattle" else {}
    match = Match(game(game_id), seed, options)
    match.history(None)
    rng = random.Random(seed)
    picked = set(rng.sample(range(STEPS), POSITIONS))
    out = []
    for step in range(STEPS):
        if match.state.is_terminal:
            break
        if step in picked:
            out.append(copy.copy(match))
        legal = [a for a in match.state.legal_actions() if a.kind != "concede"]
        match.apply(rng.choice(legal))
    return out


def viewers(match: Match[Any]) -> list[int | None]:
    return [None, *range(match.game.players(match.options))]


def everything(state: State, seats: list[int | None]) -> str:
    """A position as every viewer sees it: two positions alike here differ in nothing a viewer could read."""
    return json.dumps([state.view(v) for v in seats], sort_keys=True, default=str)


def surfaces(state: State, viewer: int | None) -> str:
    """What `viewer` reads of a position, state by state: its view, its status line, its moves and their labels."""
    moves = state.legal_actions(viewer) if viewer is not None else []
    return json.dumps({"view": state.view(viewer), "prompt": state.prompt(viewer),
                       "moves": [[str(a), state.label(a)] for a in moves]}, sort_keys=True, default=str)


CASES = [(g, s) for g in GAME_IDS for s in SEEDS]


@pytest.mark.parametrize(("game_id", "seed"), CASES)
def test_a_redeal_changes_nothing_the_viewer_reads(game_id: str, seed: int) -> None:
    for match in positions(game_id, seed):
        state = match.state
        for viewer in viewers(match):
            seen = surfaces(state, viewer)
            for k in range(REDEALS):
                again = state.resample(viewer, random.Random(k))
                assert surfaces(again, viewer) == seen, (game_id, seed, viewer, k, match.log[-1:])


@pytest.mark.parametrize(("game_id", "seed"), CASES)
def test_a_redeal_depends_on_what_the_viewer_knows_only(game_id: str, seed: int) -> None:
    """Dealt again with the same random source, the real position and any re-dealt one give the same position."""
    for match in positions(game_id, seed):
        state = match.state
        seats = viewers(match)
        for viewer in seats:
            for k in range(REDEALS):
                other = state.resample(viewer, random.Random(k))
                assert everything(other.resample(viewer, random.Random(99)), seats) == \
                       everything(state.resample(viewer, random.Random(99)), seats), (game_id, seed, viewer, k)


def test_imperial_keeps_what_was_shown_of_a_hand() -> None:
    """Reinforcements called back and a round's winning card are known to be in hand, and a type the side
    was seen to lack (R12) is never dealt to it again; the cards themselves are neither lost nor doubled."""
    from engine.imperial import ImperialState
    match = Match(game("imperial"), 5, {"imperial_power": [6, 6], "reinforcements": [2, 2]})
    rng = random.Random(5)
    while not match.state.is_terminal and len(match.log) < 80:
        state: ImperialState = match.state
        for viewer in (None, 0, 1):
            for k in range(REDEALS):
                again = state.resample(viewer, random.Random(k))
                assert Counter(again.cards()) == Counter(state.cards())
                for p in (0, 1):
                    down = [again.table[p]] if again.table[p] else []
                    held = Counter(again.cfg.kind[c] for c in down) + Counter(
                        {t: len(cs) for t, cs in again.hands[p].items()})
                    assert held >= Counter(state.known[p])
                    assert all(held[t] == state.known[p].count(t) for t in state.lacking[p])
        match.apply(rng.choice(match.state.legal_actions()))
