"""Random playouts per CPU second, per game, through the engine's public API (what a bot's search runs).

Each game starts from a fresh deal and plays uniformly random legal moves (never hexbattle's concede)
through `legal_actions` and `apply`, with the options a duel plays with (engine.bots.duel.TABLE_OPTIONS),
until it ends or `--cap` moves (hexbattle's random games seldom end: its figure is moves per second).
Best of three by CPU time. Run: nice -n 19 python bench/bench_playouts.py
"""

from __future__ import annotations

import argparse
import random

from harness import best_of, describe

import cards
from engine import GAME_IDS, make_game
from engine.bots.duel import TABLE_OPTIONS
from engine.bots.search import playout


def games(game_id: str, count: int, cap: int) -> int:
    """`count` random games (each cut at `cap` moves); the moves made."""
    game = make_game(cards.load_game(game_id))
    moves = 0
    for seed in range(count):
        rng = random.Random(seed)
        state = game.new_state(rng, TABLE_OPTIONS.get(game_id, {}))
        moves += playout(state, rng, cap)
    return moves


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cap", type=int, default=3000)
    parser.add_argument("--seconds", type=float, default=2.0, help="about how long each game's run takes")
    args = parser.parse_args()
    print(describe())
    for game_id in GAME_IDS:
        count = 4
        while True:  # grow the run until it takes long enough to time
            cpu, _, moves = best_of(lambda: games(game_id, count, args.cap), repeats=1)
            if cpu >= args.seconds / 3 or count > 100_000:
                break
            count *= 4
        cpu, _, moves = best_of(lambda: games(game_id, count, args.cap))
        print(f"{game_id:10s} {count / cpu:9.1f} games/s CPU  {moves / cpu:8.0f} moves/s  "
              f"({moves / count:.0f} moves a game, {count} games)")


if __name__ == "__main__":
    main()
