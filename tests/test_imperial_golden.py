"""Golden Imperial battles: recorded action logs replayed through `Match`, with their expected ends.

Each tests/golden/imperial_*.json holds a seed, the battle options, the action log and what the
battle must look like after replaying it (the spectator's view and each side's own view).
A change to the rules that alters any of them shows up here as a diff to be explained.
Regenerate deliberately with `python tests/test_imperial_golden.py` (it searches seeds for a
battle that shows each feature, so the files stay readable examples of the rules).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cards import load_game
from engine.core import Action, Match
from engine.imperial import ImperialGame, make_game

GOLDEN = Path(__file__).parent / "golden"
GAME: ImperialGame = make_game(load_game("imperial"))


def _has(kind: str) -> Callable[[Match], bool]:
    return lambda m: any(a.kind == kind for a in m.log)


CASES: dict[str, tuple[str, dict[str, Any], Callable[[Match], bool]]] = {
    "rifling": ("Advanced Rifling in game round 4 (the rifling_rounds_of option), with a named type the Pikemen "
                "side lacked (R11, R12)",
                {"imperial_power": [8, 7], "gold": [1, 0], "reinforcements": [2, 2], "initiative": [1, 0],
                 "game_round": 4, "rifling_rounds_of": "game"},
                lambda m: _has("name_type")(m) and _lacked(m)),
    "rifling_battle": ("Advanced Rifling in battle round 4 or 5, the seed's reading (R11, R12)",
                       {"imperial_power": [9, 9], "gold": [0, 0], "reinforcements": [1, 1], "initiative": [0, 1],
                        "game_round": 1},
                       _has("name_type")),
    "cavalry": ("Cavalry beat Musketeers and the loser chose its two infantry (R13, R14)",
                {"imperial_power": [10, 9], "gold": [0, 2], "reinforcements": [1, 3], "initiative": [0, 1],
                 "game_round": 2},
                _has("discard_infantry")),
    "reinforcements": ("Exchange, Gold and a call for reinforcements before a rout (R5, R6, R15)",
                       {"imperial_power": [6, 9], "gold": [2, 1], "reinforcements": [3, 2], "initiative": [0, 1],
                        "game_round": 1},
                       lambda m: all(_has(k)(m) for k in ("exchange", "buy", "reinforce"))),
    "call_after_card": ("A call for reinforcements after the opponent's card was down gives that card back (R20)",
                        {"imperial_power": [8, 8], "gold": [0, 0], "reinforcements": [2, 2], "initiative": [0, 1],
                         "game_round": 1},
                        lambda m: _card_given_back(m)),  # defined below
    "inconclusive": ("Both sides run out in the same round (R17)",
                     {"imperial_power": [5, 5], "gold": [0, 0], "reinforcements": [1, 1], "initiative": [1, 0],
                      "game_round": 5},
                     lambda m: m.state.result == "inconclusive" and len(m.log) >= 8),
}


def _lacked(match: Match) -> bool:
    """Whether some round of the battle had a Rifling name that the Pikemen side lacked."""
    replay = Match(GAME, match.seed, match.options)
    for action in match.log:
        replay.apply(action)
        if replay.state.round and replay.state.round["lacked"]:
            return True
    return False


def _card_given_back(match: Match) -> bool:
    """Whether some call for reinforcements came while the opponent's card was face down (R20)."""
    replay = Match(GAME, match.seed, match.options)
    for action in match.log:
        if action.kind == "reinforce" and replay.state.table[1 - action.player] is not None:
            return True
        replay.apply(action)
    return False


def expected(match: Match) -> dict[str, Any]:
    state = match.state
    return {"result": state.result, "winner": state.winner, "spectator": state.view(None),
            "sides": [state.view(0), state.view(1)]}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_battle_replays_to_its_recorded_end(name: str) -> None:
    record = json.loads((GOLDEN / f"imperial_{name}.json").read_text(encoding="utf-8"))
    match = Match(GAME, record["seed"], record["options"], [Action.from_json(a) for a in record["log"]])
    assert match.state.is_terminal
    assert expected(match) == record["expected"]
    assert CASES[name][2](match), f"the recorded battle still shows what it is kept for: {CASES[name][0]}"


def regenerate() -> None:
    """Find, for each case, the first seed whose random battle shows the feature, and write it out."""
    for name, (about, options, wanted) in CASES.items():
        for seed in range(10_000):
            match = Match(GAME, seed, options)
            match.play_out(lambda _s, legal, rng: rng.choice(legal), random.Random(seed))
            if wanted(match):
                break
        else:
            raise SystemExit(f"no seed shows {name}")
        record = {"about": about, "seed": seed, "options": options,
                  "log": [a.to_json() for a in match.log], "expected": expected(match)}
        (GOLDEN / f"imperial_{name}.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        print(f"imperial_{name}.json: seed {seed}, {len(match.log)} actions, {match.state.result}")


if __name__ == "__main__":
    regenerate()
