"""Fuzzed `cards/`: every mutated copy ends in exit 0 or 2 with no traceback, every problem names its
file, and every copy `muster check` accepts lays out every piece (check's own rehearsal) and plays.

Seeded and bounded (a few examples per class of mistake, derandomized); bench/reliability.py runs
the same mutations many more times for docs/reliability.md.
"""

from __future__ import annotations

import random

import pytest
from fuzz_data import GAMES, MUTATIONS, copy_game, play_accepted, run_check
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


@pytest.mark.parametrize("mutation", list(MUTATIONS))
@settings(max_examples=3, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1))
def test_mutated_cards_are_refused_with_their_place_or_build_and_play(
        tmp_path_factory: pytest.TempPathFactory, mutation: str, game: str, seed: int) -> None:
    folder = copy_game(tmp_path_factory.mktemp("fuzz"), game)
    game_id = MUTATIONS[mutation](folder, random.Random(seed))
    status, err = run_check(folder.parent)
    assert status in (0, 2), err
    if status == 2:
        lines = err.splitlines()
        assert lines[0].startswith("muster: ") and "Traceback" not in err
        for line in lines[1:]:
            assert line.startswith((f"  {folder.parent}/", f"  {folder.parent}:")), f"a problem without its file: {line}"
    else:
        play_accepted(folder.parent, game_id)
