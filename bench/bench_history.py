"""What the per-viewer history costs: random games of every engine played three ways, from the same seeds.

- "state": `legal_actions` + `State.apply` with the step's chance, no `Match` (the engine alone);
- "match": through `engine.core.Match` with nobody asking for history (bulk playouts, the
  default): the history must cost nothing here;
- "match + history": the same games with history recorded from the first action, as the
  companion does once a page has asked for it (narration, per-viewer lines, chance watching).

Each figure is the best of three by process CPU time. Run: python bench/bench_history.py
"""

from __future__ import annotations

import random
from typing import Any

from harness import best_of, describe

import cards
from engine import make_game
from engine.core import Game, Match, chance

GAMES: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("warfare", {}, 60), ("waterloo", {"players": 3}, 20), ("imperial", {}, 300),
    ("medieval", {}, 60), ("hexbattle", {"quick_start": True}, 4))
CAP = 3000


def play(game: Game, options: dict[str, Any], seeds: range, how: str) -> int:
    """Random games (no conceding) in one of the three ways; returns the number of actions."""
    actions = 0
    for seed in seeds:
        rng = random.Random(seed)
        match = Match(game, seed, options)
        if how == "match + history":
            match.record()
        state = match.state
        n = 0
        while not state.is_terminal and n < CAP:
            action = rng.choice([a for a in state.legal_actions() if a.kind != "concede"])
            n += 1
            if how == "state":
                state.apply(action, chance(seed, n))
            else:
                match.apply(action)
        actions += n
    return actions


def main() -> None:
    print(describe())
    for game_id, options, games in GAMES:
        game = make_game(cards.load_game(game_id))
        seeds = range(games)
        cpu: dict[str, float] = {}
        for how in ("state", "match", "match + history"):
            cpu[how], _, actions = best_of(lambda h=how: play(game, options, seeds, h))  # type: ignore[misc]
        print(f"{game_id:10s} {actions / games:6.0f} actions/game  " + "  ".join(
            f"{how}: {games / cpu[how]:8.1f} games/s CPU" for how in cpu)
            + f"  (match {cpu['match'] / cpu['state'] - 1:+.1%}, history {cpu['match + history'] / cpu['state'] - 1:+.1%})")


if __name__ == "__main__":
    main()
