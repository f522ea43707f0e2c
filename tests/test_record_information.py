"""A downloaded game record is a function of its viewer's information set (`companion.replay`), as every
surface is (tests/test_information_sets.py): two finished tables that went otherwise only in what a viewer
could not see give that viewer the same record, byte for byte.

The twin tables share the seed and every move but one: a face-down pick (imperial, medieval) or a hand entered
from printed cards (waterloo, R25) of seat 0 that nobody else saw before the table ended. The record's first
format (the seed and the log) failed this: the twins' logs differ in that move, so the files did too, and
anyone holding one could read the pick or the folded hand off it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from waterloo_helpers import entered_hand, rarely_fold

from companion.replay import load, record
from companion.store import open_store
from companion.tables import Tables
from engine.core import LEAVE, Action, Match, State

SEED = "record-seed-5f1c"
"""The tables' seed: no record may hold it."""


def hidden_picks(state: State, rng: random.Random) -> list[Action]:
    """Seat 0's face-down picks, while seat 1 has still to make its own (imperial, medieval)."""
    if 1 not in state.players_to_act():
        return []
    return [a for a in state.legal_actions(0) if a.kind in ("play", "place")][:2]


def entered_hands(state: State, rng: random.Random) -> list[Action]:
    """Two hands seat 0 could enter from printed cards, before any other seat entered its own (waterloo, R25)."""
    if getattr(state, "phase", "") != "reveal" or state.revealed or 0 not in state.players_to_act():
        return []
    hands: dict[str, Action] = {}
    while len(hands) < 2:
        hand = entered_hand(state, rng)
        if hand.kind == "reveal" and hand.player == 0:
            hands[str(hand)] = hand
    return list(hands.values())


CASES: dict[str, tuple[str, dict[str, Any], int, Callable[[State, random.Random], list[Action]]]] = {
    "imperial": ("imperial", {"imperial_power": [3, 3], "gold": [2, 1], "reinforcements": [1, 1]}, 0, hidden_picks),
    "medieval": ("medieval", {}, 28, hidden_picks),
    "waterloo-printed": ("waterloo", {"players": 3, "cards": "table", "starting_chips": 6}, 0, entered_hands),
}
"""Each case: the game, its options, how many moves to play first, and seat 0's moves the others cannot tell apart."""


def prefix(service: Tables, case: str) -> tuple[list[Action], list[Action]]:
    """The moves of a random game up to the first position (after the case's first moves) where seat 0 has two
    moves the others cannot tell apart, and those two moves."""
    game_id, options, skip, twins = CASES[case]
    match = Match(service.game(game_id), SEED, options)
    rng = random.Random(1)
    while not match.state.is_terminal:
        state = match.state
        picks = twins(state, rng) if len(match.log) >= skip else []
        if len(picks) == 2:
            return list(match.log), picks
        if getattr(state, "phase", "") == "reveal" and getattr(state, "table", False) is True:
            match.apply(entered_hand(state, rng))
        else:
            match.apply(rarely_fold([a for a in state.legal_actions() if a.kind != LEAVE], rng))
    raise AssertionError(f"{case}: no position with two hidden moves for seat 0")


def finished(service: Tables, case: str, moves: list[Action]) -> Any:
    """A table of the case played through `moves`, then ended with every seat but the last conceding, seat 0 first."""
    game_id, options, _, _ = CASES[case]
    names = ["Ann", "Bob", "Cleo"][:service.game(game_id).players(options)]
    table = service.create(game_id, names, options, seed=SEED)
    for move in moves:
        service.act(table, move.player, move)
    for seat in range(len(names) - 1):
        table = service.store.table(table.id)
        if table.playing:
            service.concede(table, seat)
    table = service.store.table(table.id)
    assert not table.playing
    return table


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_record_is_the_same_file_whatever_its_viewer_could_not_see(case: str, tmp_path: Path) -> None:
    service = Tables(open_store(tmp_path / "muster.sqlite3"))
    before, picks = prefix(service, case)
    twins = [finished(service, case, before + [pick]) for pick in picks]
    logs = [[e.action for e in service.snapshot(t).entries] for t in twins]
    assert logs[0] != logs[1], "the twins' logs differ in seat 0's hidden move: a record holding the log differs"
    for viewer in [None, *range(1, len(twins[0].seats))]:
        files = [record(service, t, list(service.snapshot(t).entries), viewer).dumps() for t in twins]
        assert files[0] == files[1], (case, viewer)
        assert SEED not in files[0]
        assert load(service, files[0].encode()) == record(service, twins[0], list(service.snapshot(twins[0]).entries),
                                                          viewer)
    mine = [record(service, t, list(service.snapshot(t).entries), 0).dumps() for t in twins]
    assert mine[0] != mine[1], "seat 0 saw its own move: its records differ"
