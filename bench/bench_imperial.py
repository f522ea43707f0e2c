"""Imperial battles benchmark: complete random battles per second on one core, through the public API.

Two figures: random play straight on the state (legal_actions + apply with one random
source, the bulk-simulation case) and the same through `engine.core.Match` (per-step
seeded chance and an action log, as the companion plays). Battle inputs are drawn so
that sides are within a factor of two of each other, i.e. battles are actually fought
(an automatic victory would cost almost nothing). Run: python bench/bench_imperial.py
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any

from harness import best_of, describe

import cards
from engine.core import Match, random_policy
from engine.imperial import ImperialGame, make_game


def battle_options(rng: random.Random) -> dict[str, Any]:
    """Inputs for a fought battle: neither side has twice the other's Imperial Power."""
    ip0 = rng.randint(2, 14)
    return {"imperial_power": [ip0, rng.randint(ip0 // 2 + 1, 2 * ip0 - 1)],
            "gold": [rng.randint(0, 2), rng.randint(0, 2)],
            "reinforcements": [rng.randint(0, 3), rng.randint(0, 3)],
            "initiative": rng.sample([0, 1], 2), "game_round": rng.randint(1, 6)}


def state_battles(game: ImperialGame, seeds: range) -> int:
    """One battle per seed with uniformly random legal actions; returns the actions taken."""
    actions = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state(rng, battle_options(rng))
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()), rng)
            actions += 1
    return actions


def match_battles(game: ImperialGame, seeds: range) -> int:
    actions = 0
    for seed in seeds:
        rng = random.Random(seed)
        match = Match(game, seed, battle_options(rng))
        match.play_out(random_policy, rng)
        actions += len(match.log)
    return actions


def rate(run: Callable[[ImperialGame, range], int], game: ImperialGame,
         battles: int) -> tuple[float, float, float]:
    """Best of three: (battles per CPU second, battles per wall second, actions per battle).

    CPU time is the figure for "one core": on a shared machine wall time also counts the
    time other processes held the core."""
    cpu, wall, actions = best_of(lambda: run(game, range(battles)))
    return battles / cpu, battles / wall, actions / battles



def main() -> None:
    game = make_game(cards.load_game("imperial"))
    battles = int(os.environ.get("BENCH_BATTLES", "5000"))
    print(describe())
    for name, run in (("state (legal_actions + apply)", state_battles), ("Match (seeded chance, log)", match_battles)):
        cpu, wall, per_battle = rate(run, game, battles)
        print(f"{name:30s} {cpu:7,.0f} battles/CPU s  {wall:7,.0f} battles/wall s  ({per_battle:.1f} actions a battle)")


if __name__ == "__main__":
    main()
