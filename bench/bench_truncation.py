"""Do truncated playouts scored by the position score beat full playouts, for the same CPU? (issue 31)

Hexbattle's and waterloo's random games run hundreds of moves, so their searches cut each playout after a few
moves (engine.bots.LEVELS' depth) and let engine.bots.scores judge the position. This bench plays a search
with cut playouts ("truncated": the level's iterations and depth) against the same search playing every
playout to the end ("full"), given as many iterations as fit in the same CPU time: the cost of one iteration
of each kind is measured first on positions of seeded random games, and the full search gets
iterations × (truncated cost / full cost), at least one. Seats rotate every game; the report gives wins,
draws (hexbattle's turn limit) and the mean material score (engine.bots.scores, not the result) each side
ends on, which tells a drawn game's leader. Run on a shared machine as

    nice -n 19 python bench/bench_truncation.py hexbattle --level easy --games 10
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from bench_bots import positions
from harness import describe

import cards
from engine import make_game
from engine.bots import LEVELS, Bot
from engine.bots.duel import MAX_MOVES, TABLE_OPTIONS, percentile, wilson
from engine.bots.scores import SCORES
from engine.core import Game, Match, State

FULL = 100_000
"""A playout depth no game reaches before its end (the turn limits end every game first)."""


def iteration_cost(bot: Bot, sample: list[tuple[State, int]]) -> float:
    """CPU seconds per iteration of `bot`'s search, over the sample positions."""
    started = time.process_time()
    for state, seat in sample:
        bot.choose(state, seat, random.Random(1))
    assert bot.budget is not None
    return (time.process_time() - started) / (len(sample) * bot.budget[0])


def play(game: Game[Any], bots: dict[str, Bot], games: int, seed: int) -> dict[str, Any]:
    names = list(bots)
    seats = len(names)
    out: dict[str, Any] = {n: {"wins": 0, "score": 0.0, "times": []} for n in names} | {"draws": 0}
    for k in range(games):
        order = [names[(s + k) % seats] for s in range(seats)]
        match = Match(game, f"truncation:{seed}:{k}", TABLE_OPTIONS.get(game.id, {}))
        while not match.state.is_terminal and len(match.log) < MAX_MOVES:
            seat = match.state.players_to_act()[0]
            started = time.process_time()
            action = bots[order[seat]].decide(match, seat)
            out[order[seat]]["times"].append(time.process_time() - started)
            match.apply(action)
        final = SCORES[game.id](match.state, seats)  # material, even when the game is over (a draw's leader)
        for s, name in enumerate(order):
            out[name]["score"] += final[s] / games
        winner = match.state.winner if match.state.is_terminal else None
        if winner is None:
            out["draws"] += 1
        else:
            out[order[winner]]["wins"] += 1
        print(f"game {k + 1}: {' vs '.join(order)} -> "
              f"{'draw' if winner is None else order[winner]} (scores {[round(x, 3) for x in final]})", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game_id", choices=("hexbattle", "waterloo"))
    parser.add_argument("--level", default="easy", choices=("easy", "normal", "hard"))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = make_game(cards.load_game(args.game_id))
    iterations, depth = LEVELS[args.game_id][args.level]
    sample = positions(game, 4)
    truncated = Bot(args.level, args.game_id, 2, seed="t", budget=(iterations, depth))
    probe = Bot(args.level, args.game_id, 2, seed="f", budget=(max(1, iterations // 10), FULL))
    cost_t, cost_f = iteration_cost(truncated, sample), iteration_cost(probe, sample)
    full = Bot(args.level, args.game_id, 2, seed="f", budget=(max(1, round(iterations * cost_t / cost_f)), FULL))
    print(describe())
    print(f"{args.game_id} {args.level}: truncated {iterations} x {depth} moves ({1000 * cost_t:.2f} ms an iteration), "
          f"full {full.budget[0]} x to the end ({1000 * cost_f:.2f} ms an iteration)", flush=True)
    out = play(game, {"truncated": truncated, "full": full}, args.games, args.seed)
    for name in ("truncated", "full"):
        row = out[name]
        p, low, high = wilson(row["wins"], args.games)
        print(f"{name:9s} wins {row['wins']:3d} of {args.games} ({p:.0%} [{low:.0%}, {high:.0%}]), draws {out['draws']}, "
              f"mean final material score {row['score']:.3f}, decision p50/p95 {1000 * percentile(row['times'], 50):.0f}/"
              f"{1000 * percentile(row['times'], 95):.0f} ms")


if __name__ == "__main__":
    main()
