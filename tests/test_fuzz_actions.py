"""Every game refuses malformed and out-of-turn actions, interleaved with random legal play, and
a refused action leaves the state exactly as it was (compared pickled, hidden parts included)."""

from __future__ import annotations

import pytest
from fuzz_actions import Tally, play_with_bad_actions
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import GAME_IDS


@pytest.mark.parametrize("game", GAME_IDS)
@settings(max_examples=4, derandomize=True, deadline=None, database=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_bad_actions_are_refused_and_change_nothing(game: str, seed: int) -> None:
    tally = Tally()
    play_with_bad_actions(game, seed, steps=60, tally=tally)
    assert tally.tried > 0
    assert tally.refused >= tally.tried * 0.8, f"{game}: only {tally.refused} of {tally.tried} damaged actions refused"


def test_the_issue_crash_sites_are_refusals() -> None:
    """warfare's argument-less moves with a card, hexbattle's formation as a list (issue 12)."""
    from cards import load_game
    from engine import Match, Refusal, act, make_game

    warfare = Match(make_game(load_game("warfare")), 3, {"first_player": 0})
    with pytest.raises(Refusal, match=r"^'hold' takes no 'card' \(it takes nothing\)\.$"):
        warfare.apply(act("hold", 0, card="grenadiers"))
    hexbattle = Match(make_game(load_game("hexbattle")), 3, {"quick_start": True})
    unit = next(a for a in hexbattle.state.legal_actions() if a.kind == "formation")
    with pytest.raises(Refusal, match=r"^'formation' of 'formation' must be a name, not \['line'\]\.$"):
        hexbattle.apply(act("formation", unit.player, unit=unit["unit"], formation=["line"]))
