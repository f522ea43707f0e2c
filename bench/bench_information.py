"""What a viewer's information set costs: `State.resample` and the question a move asks first.

Positions are taken from random games of every engine (history on, as the companion plays). For each,
every viewer's re-deal is timed (`resample`), and so is `Match.ahead_refusal` for the first few moves
of whoever is to act (each question is AHEAD_DEALS trial moves on re-deals). Each figure is the best
of three by process CPU time. Run: python bench/bench_information.py
"""

from __future__ import annotations

import copy
import random
from typing import Any

from harness import best_of, describe

import cards
from engine import make_game
from engine.core import AHEAD_DEALS, Match

GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("warfare", {}), ("waterloo", {"players": 3}), ("imperial", {"imperial_power": [7, 6], "gold": [2, 2]}),
    ("medieval", {}), ("hexbattle", {"quick_start": True}))
POSITIONS, QUESTIONS = 30, 5


def positions(game_id: str, options: dict[str, Any]) -> list[Match[Any]]:
    """POSITIONS positions, a few from each of several random games."""
    game = make_game(cards.load_game(game_id))
    out: list[Match[Any]] = []
    seed = 0
    while len(out) < POSITIONS:
        match = Match(game, seed, options)
        match.record()
        rng = random.Random(seed)
        while not match.state.is_terminal and len(out) < POSITIONS and len(match.log) < 60:
            if len(match.log) % 7 == 3:
                out.append(copy.copy(match))
            match.apply(rng.choice([a for a in match.state.legal_actions() if a.kind != "concede"]))
        seed += 1
    return out


def main() -> None:
    print(describe(), f"AHEAD_DEALS = {AHEAD_DEALS}")
    for game_id, options in GAMES:
        matches = positions(game_id, options)
        seats = range(matches[0].game.players(options))

        def redeal() -> int:
            n = 0
            for match in matches:
                for viewer in (None, *seats):
                    match.state.resample(viewer, random.Random(n))
                    n += 1
            return n

        def ask() -> int:
            n = 0
            for match in matches:
                for move in match.state.legal_actions()[:QUESTIONS]:
                    match.ahead_refusal(move.player, move)
                    n += 1
            return n

        cpu_redeal, _, redeals = best_of(redeal)
        cpu_ask, _, asked = best_of(ask)
        print(f"{game_id:10s} resample {cpu_redeal / redeals * 1e6:7.0f} µs   question {cpu_ask / asked * 1e3:6.2f} ms")


if __name__ == "__main__":
    main()
