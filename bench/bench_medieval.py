"""Reenforcements benchmark: complete wars per second on one core, through the public engine API.

Three figures: random placements (legal_actions + apply, the bulk-simulation case), the
same through `engine.core.Match` (per-step seeded chance, as the companion plays), and
best_placement against itself (the AI opponent's cost). Rates are given per CPU second (what
a shared, busy machine does not distort) and per wall-clock second. Run: python bench/bench_medieval.py
"""

from __future__ import annotations

import random
from collections.abc import Callable

from harness import best_of, describe

import cards
from engine.core import Match, random_policy
from engine.medieval import MedievalGame, best_placement, make_game


def random_wars(game: MedievalGame, seeds: range) -> int:
    """Play one war per seed with uniformly random placements; returns the battles fought."""
    battles = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state(rng, {})
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()), rng)
        battles += state.battle
    return battles


def match_wars(game: MedievalGame, seeds: range) -> int:
    battles = 0
    for seed in seeds:
        match = Match(game, seed)
        match.play_out(random_policy, random.Random(seed))
        battles += match.state.battle
    return battles


def policy_wars(game: MedievalGame, seeds: range) -> int:
    battles = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state(rng, {})
        while not state.is_terminal:
            state.apply(best_placement(state, state.players_to_act()[0]), rng)
        battles += state.battle
    return battles


def rate(run: Callable[[MedievalGame, range], int], game: MedievalGame, wars: int) -> tuple[float, float, float]:
    """Best of three runs: (wars per CPU second, wars per wall-clock second, battles per war)."""
    cpu, wall, battles = best_of(lambda: run(game, range(wars)))
    return wars / cpu, wars / wall, battles / wars


def main() -> None:
    game = make_game(cards.load_game("medieval"))
    print(describe())
    for label, run, wars in (("random placements, engine API", random_wars, 2000),
                             ("random placements, through Match", match_wars, 500),
                             ("best_placement both sides (AI)", policy_wars, 200)):
        cpu, wall, battles = rate(run, game, wars)
        print(f"{label:34s} {cpu:6.0f} wars/CPU-s {wall:6.0f} wars/s wall  "
              f"({battles:.1f} battles per war, {wars} wars)")


if __name__ == "__main__":
    main()
