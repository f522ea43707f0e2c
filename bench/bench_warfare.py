"""Napoleonic Warfare benchmark: complete random games per second on one core.

Three figures: uniformly random play through the public API as the bots' playouts make it
(`legal_actions` + `play`, which does not check a listed move again), the same with `apply`, and the same through `engine.core.Match` (per-step seeded chance,
as the companion plays). Each is the best of three runs, timed by wall clock and by the
process's CPU time (the second is steadier on a shared machine). Run: python bench/bench_warfare.py
"""

from __future__ import annotations

import random
from collections.abc import Callable

from harness import best_of, describe

import cards
from engine.core import Match, random_policy
from engine.warfare import WarfareGame, make_game


def play_games(game: WarfareGame, seeds: range) -> int:
    """One random game per seed through `legal_actions` + `play` (the bots' playouts); the decisions made."""
    actions = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state(rng, {"turn_limit": True})
        while not state.is_terminal:
            state.play(rng.choice(state.legal_actions()), rng)
        actions += state.actions
    return actions


def api_games(game: WarfareGame, seeds: range) -> int:
    actions = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state(rng, {"turn_limit": True})
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()), rng)
        actions += state.actions
    return actions


def match_games(game: WarfareGame, seeds: range) -> int:
    actions = 0
    for seed in seeds:
        match = Match(game, seed, {"turn_limit": True})
        match.play_out(random_policy, random.Random(seed))
        actions += len(match.log)
    return actions


def rate(run: Callable[[WarfareGame, range], int], game: WarfareGame, games: int) -> tuple[float, float, float]:
    """Best of three: (games per wall second, games per CPU second, decisions per game)."""
    cpu, wall, actions = best_of(lambda: run(game, range(games)))
    return games / wall, games / cpu, actions / games


def main() -> None:
    game = make_game(cards.load_game("warfare"))
    print(describe())
    for label, run, games in (("random games, through play", play_games, 300),
                              ("random games, engine API", api_games, 300),
                              ("random games, through Match", match_games, 100)):
        wall, per_cpu, actions = rate(run, game, games)
        print(f"{label:30s} {wall:7.0f} games/s wall  {per_cpu:7.0f} games/s CPU  "
              f"({actions:.0f} decisions per game, {games} games)")


if __name__ == "__main__":
    main()
