"""Random legal play interleaved with malformed and out-of-turn actions, for every game.

Shared by tests/test_fuzz_actions.py (seeded, bounded) and bench/reliability.py (counted into
docs/reliability.md). A bad action must be a `Refusal` that leaves the state byte-for-byte as it
was; any other exception propagates to the caller.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass
from typing import Any

from cards.load import load_game
from engine import Action, Match, Refusal, make_game

JUNK: list[Any] = [None, 0, -1, 1, 7, 10**12, 2.5, float("nan"), True, "", "x", "3,5", "99,99", "line",
                   [], ["line"], [None], [[1]], {}, {"card": 1}, "é" * 50]
KINDS = ["hold", "attack", "raise", "place", "play", "move", "formation", "concede", "end_turn", "reveal",
         "", "__class__", "undo"]


@dataclass
class Tally:
    """Bad actions tried, and how many of them the engine refused (the rest happened to be legal)."""

    tried: int = 0
    refused: int = 0
    legal: int = 0


def snapshot(state: object) -> bytes:
    """The whole position, hidden parts included, as bytes; the shared rules object (`game`) is left out."""
    # `__getstate__`, not `vars`: hexbattle's compiled state has no `__dict__` (engine.native)
    return pickle.dumps({k: v for k, v in state.__getstate__().items() if k != "game"})  # type: ignore[attr-defined]


def malformed(action: Action, rng: random.Random, players: int) -> Action:
    """A damaged copy of a legal action: an extra, missing or mistyped argument, another kind or seat."""
    args = dict(action.args)
    how = rng.randrange(6)
    if how == 0:
        args[rng.choice(["card", "cards", "unit", "amount", "type", "hex", "zzz"])] = rng.choice(JUNK)
    elif how == 1 and args:
        del args[rng.choice(sorted(args))]
    elif how == 2 and args:
        args[rng.choice(sorted(args))] = rng.choice(JUNK)
    elif how == 3:
        return Action(rng.choice(KINDS), action.player, args)
    elif how == 4:
        return Action(action.kind, rng.choice([p for p in range(-1, players + 2) if p != action.player]), args)
    else:
        return Action(action.kind, rng.choice([None, "0", 1.0, -5]), args)  # type: ignore[arg-type]
    return Action(action.kind, action.player, args)


def play_with_bad_actions(game_id: str, seed: int, steps: int, tally: Tally) -> None:
    """Play `steps` random legal actions, trying three malformed or out-of-turn ones before each."""
    data = load_game(game_id)
    rng = random.Random(seed)
    players = rng.randint(data.min_players, data.max_players)
    options = {} if data.min_players == data.max_players else {"players": players}
    match = Match(make_game(data), seed, options)
    for _ in range(steps):
        state = match.state
        if state.is_terminal:
            return
        legal = state.legal_actions()
        for _ in range(3):
            bad = malformed(rng.choice(legal), rng, players)
            before = snapshot(match.state)
            tally.tried += 1
            try:
                match.apply(bad)
            except Refusal:
                tally.refused += 1
                assert snapshot(match.state) == before, f"{game_id}: refused {bad} changed the state"
            else:
                tally.legal += 1
                legal = match.state.legal_actions()
                if match.state.is_terminal:
                    return
        # Conceding would end most random games at once; play on so later phases meet bad actions too.
        match.apply(rng.choice([a for a in legal if a.kind != "concede"] or legal))
