"""`muster balance` throughput per game: games per second on one worker and on every core, random players.

Each run is a fresh folder (no stored shards), the base games only (`--removal-games 0`), as
`muster balance GAME --games N --workers K` plays them, report and HTML included. Wall time is what a
designer waits; CPU time (this process and its workers) is steadier on a shared machine, so both are
printed, with the machine's load. `--scale` shrinks every run (0.25: a quarter of the issue's aims).
Run: python bench/bench_balance.py [--scale 0.25]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from harness import describe

from balance.command import execute, plan

AIMS = {"imperial": (10_000, 60), "medieval": (10_000, 60), "warfare": (10_000, 60),
        "hexbattle": (2_000, 120), "waterloo": (2_000, 120)}
"""Game -> (games, seconds): the issue's aims on a 2-core machine with random players."""


def measure(game: str, games: int, workers: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process and its workers) for one fresh run."""
    run = plan(game, "random,random", games, 0, None, 0, None)
    with tempfile.TemporaryDirectory() as out:
        before, wall = os.times(), time.perf_counter()
        execute(run, Path(out), workers, None)
        wall, after = time.perf_counter() - wall, os.times()
    cpu = sum(after[:4]) - sum(before[:4])
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--games", nargs="*", default=list(AIMS))
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    print(describe())
    print(f"{'game':10s} {'games':>6s} {'1 worker g/s wall':>18s} {'g/s CPU':>8s} {f'{cores} workers g/s wall':>19s} "
          f"{'speed-up':>8s}  aim (time for the aim's games at {cores} workers)")
    for game in args.games:
        aim_games, aim_seconds = AIMS[game]
        games = max(1, int(aim_games * args.scale))
        one_wall, one_cpu = measure(game, games, 1)
        all_wall, _ = measure(game, games, cores)
        print(f"{game:10s} {games:6d} {games / one_wall:18.1f} {games / one_cpu:8.1f} {games / all_wall:19.1f} "
              f"{one_wall / all_wall:8.2f}  {aim_games} in {aim_seconds} s: {aim_games / (games / all_wall):.0f} s",
              flush=True)


if __name__ == "__main__":
    main()
