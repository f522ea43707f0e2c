"""Hexbattle benchmark: legal actions in a mid-game position, line of sight between every pair
of units, and complete random battles per second.

The mid-game position is reached by seeking-battle random play (seed 7, 200+ actions, map
half revealed). Random battles use uniform choices among the legal actions except conceding,
through the engine API, through `engine.core.Match` (per-step seeded chance, as the
companion plays) and through `State.play` (a listed move carried out without checking it again: the
bots' playouts; the same battles as the API loop, from the same seeds). The last rows are battles as `muster
balance` plays them (deployment, no turn limit, to the end: thousands of decisions each), a uniform pick from the
listing without conceding against the engine's `random_action` (the same battles). Each figure is the best of three runs, by wall
clock and by process CPU time (steadier on a shared machine). Run: python bench/bench_hexbattle.py
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import partial
from itertools import combinations

from harness import best_of, describe

import cards
from engine.core import Action, Match
from engine.hexbattle import HexbattleGame, HexbattleState, make_game


def no_concede(state: HexbattleState, legal: list[Action], rng: random.Random) -> Action:
    return rng.choice([a for a in legal if a.kind != "concede"])


def seek_battle(state: HexbattleState, legal: list[Action], rng: random.Random) -> Action:
    """Attack when possible, reveal ground often, otherwise march towards the enemy's row."""
    attacks = [a for a in legal if a.kind in ("attack", "place_tile")]
    if attacks:
        return rng.choice(attacks)
    draws = [a for a in legal if a.kind == "draw_terrain"]
    if draws and rng.random() < 0.3:
        return draws[0]
    moves = [a for a in legal if a.kind == "move"]
    if moves and rng.random() < 0.8:
        goal = state.game.goal_row[state.current]
        return min(moves, key=lambda a: (abs(int(a["to"].split(",")[1]) - goal), rng.random()))
    return no_concede(state, legal, rng)


def mid_game(game: HexbattleGame) -> HexbattleState:
    match = Match(game, 7, {"quick_start": True, "turn_limit": True})
    rng = random.Random(7)
    while len(match.log) < 200 or match.state.actions_left < 4 or match.state.pending_tile:
        match.apply(seek_battle(match.state, match.state.legal_actions(), rng))
    return match.state


def per_call_ms(call: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            call()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best * 1000


def api_games(game: HexbattleGame, seeds: range) -> int:
    actions = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state(rng, {"quick_start": True, "turn_limit": True})
        while not state.is_terminal:
            state.apply(no_concede(state, state.legal_actions(), rng), rng)
            actions += 1
    return actions


def play_games(game: HexbattleGame, seeds: range) -> int:
    """The battles of `api_games`, choice for choice, through `play` (a listed move is not checked again)."""
    actions = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state(rng, {"quick_start": True, "turn_limit": True})
        while not state.is_terminal:
            state.play(no_concede(state, state.legal_actions(), rng), rng)
            actions += 1
    return actions


def balance_battles(game: HexbattleGame, seeds: range, listed: bool) -> int:
    """Battles as `muster balance` plays them, carried out by `play`: each move a uniform pick from `legal_actions`
    without concede (`listed`), or the engine's `random_action` (which counts instead of listing: the same moves)."""
    actions = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state(rng, {})
        while not state.is_terminal:
            if listed:
                legal = [a for a in state.legal_actions() if a.kind != "concede"]
                state.play(legal[rng.randrange(len(legal))], rng)
            else:
                state.play(state.random_action(rng), rng)
            actions += 1
    return actions


def match_games(game: HexbattleGame, seeds: range) -> int:
    actions = 0
    for seed in seeds:
        match = Match(game, seed, {"quick_start": True, "turn_limit": True})
        match.play_out(no_concede, random.Random(seed))
        actions += len(match.log)
    return actions


def rate(run: Callable[[HexbattleGame, range], int], game: HexbattleGame, games: int) -> tuple[float, float, float]:
    """Best of three: (games per wall second, games per CPU second, decisions per game)."""
    cpu, wall, actions = best_of(lambda: run(game, range(games)))
    return games / wall, games / cpu, actions / games


def main() -> None:
    game = make_game(cards.load_game("hexbattle"))
    print(describe())
    state = mid_game(game)
    legal = state.legal_actions()

    def cold() -> object:
        state._reach_cache.clear()  # every unit's paths, attacks and share of the list worked out afresh
        state._attack_cache.clear()
        state._segments.clear()
        return state.legal_actions()

    print(f"{'legal actions, mid-game':30s} {per_call_ms(cold, 200):7.3f} ms cold, "
          f"{per_call_ms(state.legal_actions, 200):.3f} ms warm "
          f"({len(legal)} actions, {len(state.terrain)} of {len(game.board)} hexes revealed)")
    hexes = [u.hex for u in state.units.values() if u.on_board]
    pairs = list(combinations(hexes, 2))
    print(f"{'sight between every unit pair':30s} {per_call_ms(lambda: [state.sight(a, b) for a, b in pairs], 50):7.3f} ms "
          f"({len(pairs)} pairs)")
    for label, run, games in (("random battles, engine API", api_games, 10),
                              ("random battles, through Match", match_games, 10),
                              ("random battles, through play", play_games, 10),
                              ("balance's battles, listed", partial(balance_battles, listed=True), 4),
                              ("balance's battles, random_action", partial(balance_battles, listed=False), 4)):
        wall, per_cpu, actions = rate(run, game, games)
        print(f"{label:30s} {wall:7.1f} games/s wall  {per_cpu:7.1f} games/s CPU  "
              f"({actions:.0f} decisions per game, {games} games)")


if __name__ == "__main__":
    main()
