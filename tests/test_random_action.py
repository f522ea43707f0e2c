"""`State.random_action`, the one public way to play at random (bots' playouts, balance's random player).

Every engine's draws exactly what listing its moves (`legal_actions`, conceding left out) and picking one
uniformly would, from the same random source, which it leaves in the same state: an engine that makes it fast
(warfare numbers its moves and builds only the one drawn) plays the same games for the same seed, and is never
a second copy of its rules that could drift from them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import cards
from engine import GAME_IDS, make_game
from engine.bots.duel import TABLE_OPTIONS
from engine.core import Action, State, playable

GAMES = {g: make_game(cards.load_game(g)) for g in GAME_IDS}
MOVES = 300  # per game, two games per engine: every step of a warfare turn comes up many times


def drawn(state: State, player: int | None, seed: int) -> tuple[Action | None, float]:
    """The engine's own draw, and the next number of the random source after it."""
    rng = random.Random(seed)
    return state.random_action(rng, player), rng.random()


def listed(state: State, player: int | None, seed: int) -> tuple[Action | None, float]:
    """The draw as the listing makes it: every playable move, one picked uniformly."""
    rng = random.Random(seed)
    legal = playable(state.legal_actions(player))
    return (legal[rng.randrange(len(legal))] if legal else None), rng.random()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_random_action_draws_what_listing_and_a_uniform_pick_draw(game_id: str) -> None:
    kinds: set[str] = set()
    for game_no in range(2):
        rng = random.Random(f"random-action:{game_no}")
        state: Any = GAMES[game_id].new_state(rng, TABLE_OPTIONS.get(game_id, {}))
        for _ in range(MOVES):
            if state.is_terminal:
                break
            to_act = state.players_to_act()
            for player in (None, *to_act, 1 - to_act[0] if len(to_act) == 1 else None):
                for seed in range(3):
                    assert drawn(state, player, seed) == listed(state, player, seed), (player, seed, state.view(None))
            kinds.update(a.kind for a in state.legal_actions())
            state.play(state.random_action(rng, to_act[0]), rng)
    if game_id == "warfare":  # every move a turn may offer came up, so each way of drawing was compared
        assert {"draw", "attack", "hold", "blunder", "allow", "units", "counter", "stand", "support", "morale",
                "take", "exchange", "discard"} <= kinds, kinds
