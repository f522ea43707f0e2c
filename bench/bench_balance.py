"""`muster balance` throughput per game: games per second on one worker and on every core, random players.

Each run is a fresh folder (no stored shards), the base games only (`--removal-games 0`), as
`muster balance GAME --games N --workers K` plays them, report and HTML included. Wall time is what a
designer waits; CPU time (this process and its workers) is steadier on a shared machine, so both are
printed, with the machine's load. The ratio of CPU per game at K workers to 1 worker says whether a second
worker adds work (1.00: none). The parent's own CPU (planning, handing out shards, merging, the report and its
charts) is a serial part a second worker cannot share, so the projections count it whole and hand the run's
shards to the K workers as the pool does (in order, each to the first worker free), every game costing the
workers' CPU per game: the speed-up from 1 to K workers on K free cores is the 1-worker run's CPU over that, and
the aim's projection is that time scaled to the aim's games. (Games of one game differ in length, so a shard's
real cost varies around this; the tail it leaves is at most about one shard.) `--scale` shrinks every run (0.25: a
quarter of the issue's aims).
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


def makespan(shards: list[int], per_game: float, workers: int) -> float:
    """When the last of `workers` finishes, shards of these many games handed out in order to the first one free."""
    free = [0.0] * workers
    for games in shards:
        first = free.index(min(free))
        free[first] += games * per_game
    return max(free)


def measure(game: str, games: int, workers: int) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds of this process and its workers, CPU seconds of this process alone) for one
    fresh run."""
    run = plan(game, "random,random", games, 0, None, 0, None)
    with tempfile.TemporaryDirectory() as out:
        before, wall = os.times(), time.perf_counter()
        execute(run, Path(out), workers, None)
        wall, after = time.perf_counter() - wall, os.times()
    cpu = sum(after[:4]) - sum(before[:4])
    return wall, cpu, sum(after[:2]) - sum(before[:2])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--games", nargs="*", default=list(AIMS))
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    print(describe())
    print(f"{'game':10s} {'games':>6s} {'1 worker: g/s wall':>18s} {'g/s CPU':>8s} {f'{cores} workers: g/s wall':>20s} "
          f"{'g/s CPU':>8s} {'CPU/game ratio':>14s} {'speed-up':>8s}  aim: projected on {cores} free cores")
    for game in args.games:
        aim_games, aim_seconds = AIMS[game]
        games = max(1, int(aim_games * args.scale))
        measure(game, 2, 1)  # imports (matplotlib) and the data's first load, kept out of the figures
        one_wall, one_cpu, _ = measure(game, games, 1)
        all_wall, all_cpu, parent = measure(game, games, cores)
        # On free cores a run takes its parent's CPU time and the last worker's share of the shards: the projection
        # a loaded machine allows (the parent's part, the report and its charts, grows more slowly than the games).
        shards = [spec.count for spec in plan(game, "random,random", games, 0, None, 0, None).specs()]
        critical = parent + makespan(shards, (all_cpu - parent) / games, cores)
        projected = critical * aim_games / games
        print(f"{game:10s} {games:6d} {games / one_wall:18.1f} {games / one_cpu:8.1f} {games / all_wall:20.1f} "
              f"{games / all_cpu:8.1f} {all_cpu / one_cpu:14.2f} {one_cpu / critical:8.2f}  {aim_games} in "
              f"{projected:.0f} s (aim {aim_seconds} s)", flush=True)

if __name__ == "__main__":
    main()
