"""Waterloo R30: a player who concedes leaves and the others play on, until one holds every chip left."""

from __future__ import annotations

import random

import pytest
from waterloo_helpers import rarely_fold

import cards
from engine.core import LEAVE, Match, Refusal, act
from engine.waterloo import make_game

GAME = make_game(cards.load_game("waterloo"))


def test_r30_a_player_leaves_out_of_turn_and_the_hand_goes_on() -> None:
    match = Match(GAME, "leave", {"players": 3, "starting_chips": 20, "button": 0})
    state = match.state
    first = state.current_player
    leaver = next(p for p in range(3) if p != first)
    before = list(state.bets)
    match.apply(act(LEAVE, leaver))
    assert state.left[leaver] and state.out[leaver] and state.chips[leaver] == 0
    assert state.bets == before, "the ante already bet stays in the pot"
    assert state.hands[leaver] == [] and state.reserves[leaver] == {}
    assert state.current_player == first and not state.is_terminal
    assert state.card_count() == 64 and len(state.card_places()) == 64
    assert state.view(None)["players"][leaver]["left"] is True
    lines = [line.text for line in match.history(first)]
    assert f"{{p{leaver}}} conceded and left the game; the others play on" in lines
    assert match.undo_refusal(leaver) == "Leaving the game cannot be taken back."
    with pytest.raises(Refusal, match="You have left this game."):
        match.apply(act(LEAVE, leaver))
    assert all(a.kind != LEAVE for a in state.legal_actions()), "leaving is never offered as a move"


def test_r30_the_last_player_left_holds_every_chip_and_wins() -> None:
    match = Match(GAME, "leave", {"players": 3, "starting_chips": 20, "button": 0})
    match.apply(act(LEAVE, 1))
    match.apply(act(LEAVE, 0))
    state = match.state
    assert state.is_terminal and state.winner == 2
    assert state.chips == [0, 0, sum(state.chips)] and sum(state.bets) == 0


@pytest.mark.parametrize("seed", range(8))
def test_r30_leaving_at_any_moment_keeps_cards_and_the_game_ends_with_one_player(seed: int) -> None:
    """Random games where, at random moments, a random player still in leaves: every card stays in one place,
    the game always ends, and its winner is the one player left with chips."""
    players = 3 + seed % 4
    match = Match(GAME, seed, {"players": players, "starting_chips": 10})
    rng = random.Random(seed)
    while not match.state.is_terminal and len(match.log) < 600:
        state = match.state
        still = [p for p in range(players) if not state.out[p]]
        if rng.random() < 0.04 and len(still) > 1:
            match.apply(act(LEAVE, rng.choice(still)))
        else:
            match.apply(rarely_fold(state.legal_actions(), rng))
        assert match.state.card_count() == 64 and len(match.state.card_places()) == 64
        assert all(match.state.chips[p] == 0 for p in range(players) if match.state.left[p])
    state = match.state
    assert state.is_terminal, "the game ends"
    assert state.winner is not None and not state.left[state.winner]
    assert [p for p in range(players) if not state.out[p]] == [state.winner]


def test_every_game_for_more_than_two_lets_a_player_leave_and_the_others_play_on(tmp_path) -> None:
    """Issue 30: which of the five seeds seat more than two? Waterloo only (2-6; warfare, hexbattle, imperial and
    medieval are two-sided). Every such game must let a conceding player drop out (`LEAVE`), so the store never
    ends a table of three for everyone; at a table of three a concede plays on and every seat gets a result."""
    from companion.store import open_store
    from companion.tables import Tables, catalogue
    from engine.core import LEAVE

    many = {gid: e for gid, e in catalogue().items() if e.data is not None and e.data.max_players > 2}
    assert sorted(many) == ["waterloo"]
    service = Tables(open_store(tmp_path / "m.sqlite3"))
    for gid, entry in many.items():
        table = service.create(gid, ["Ann", "Bob", "Cy"], {"players": 3}, seed="three")
        assert LEAVE in service.snapshot(table).state.ARGS and service.plays_on(table)
        service.concede(table, 0)
        assert service.store.table(table.id).playing, "Bob and Cy play on"
        service.concede(service.store.table(table.id), 2)
        ended = service.store.table(table.id)
        assert not ended.playing and ended.winner == 1
        assert sorted((r.name, r.wins, r.losses) for r in service.store.records()) == [
            ("Ann", 0, 1), ("Bob", 1, 0), ("Cy", 0, 1)], "every player gets a result"
