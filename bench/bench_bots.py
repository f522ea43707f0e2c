"""How strong each bot level is, per game: the win-rate tables of docs/bots.md, resumable up to 2,000 games a row.

Rows (first player against second, seats rotated every game, engine.bots.duel): each level against random
and against greedy, greedy against random, hard against normal, and the all-seeing ceiling against random.
Waterloo is also played by three and four (MORE_SEATS: a row names one player per seat, its first against
the rest, whose fair share of wins is one in three or four). A row's games are cut into shards of about
SHARD_GAMES, a multiple of the row's seats (so each shard plays every player in every seat equally);
shard k plays games k·size … of the row's one duel (`play_duel(first=…)`), so a row played in shards, in any
order, by any number of workers, is the same games as one long duel. Each finished shard is one JSON file,

    DIR/<bots>/<game>/<first>-<second>[-<third>…]/s<seed>-<first game>-<games>.json

(the duel's report, its CPU seconds and every decision time), written when it is done; a run started again
with the same arguments plays only the shards that are missing. `<bots>` hashes the bots' source
(engine/bots/*.py), so games of a changed bot never mix with the old ones. Shards are played round by round
(every row's first shard, then every row's second, …), so a run stopped early has some games in every row.

    nice -n 19 python bench/bench_bots.py --games 100 warfare imperial      # a short look, one core
    nice -n 19 python bench/bench_bots.py --games 24 --rows hard:greedy:random waterloo   # three at a table
    python bench/bench_bots.py --games 2000 --workers 8                       # the full table, a quiet machine
    python bench/bench_bots.py --table                                        # the tables of docs/bots.md
    nice -n 19 python bench/bench_bots.py --timing 30                         # decision times per level

`--timing N` times one decision of each level on N positions of each game (seeded random games, a few to a
hundred moves in), in CPU seconds: the p50 / p95 of docs/performance.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from harness import describe

import cards
from engine import GAME_IDS, make_game
from engine.bots import make_bot
from engine.bots.duel import TABLE_OPTIONS, percentile, play_duel, wilson
from engine.core import Game, Match, State

ROWS = (("greedy", "random"), ("easy", "random"), ("normal", "random"), ("hard", "random"),
        ("easy", "greedy"), ("normal", "greedy"), ("hard", "greedy"), ("hard", "normal"), ("ceiling", "random"))

SHARD_GAMES = {"imperial": 20, "medieval": 10, "warfare": 10, "waterloo": 4, "hexbattle": 2}
"""Games per shard of two players: a shard of hard is about a minute of one core (fixed per game, so shard names
stay valid); a row of more seats takes the nearest lower multiple of its seats (`shard_size`)."""

Row = tuple[str, ...]
"""The players of a row, one per seat: the first is the one the row measures."""

MORE_SEATS: dict[str, list[Row]] = {"waterloo": [
    ("easy", "greedy", "random"), ("normal", "greedy", "random"), ("hard", "greedy", "random"),
    ("hard", "normal", "greedy", "random")]}
"""Rows of more than two players, where a game seats more (its first player against the others). Seats rotate
in turn, so each player sits every seat equally often, always in the same order round the table."""


def shard_size(game_id: str, seats: int) -> int:
    """Games per shard of a row of `seats` players: SHARD_GAMES[game_id] down to a multiple of `seats`."""
    return max(seats, SHARD_GAMES[game_id] // seats * seats)

BOTS = Path(__file__).resolve().parent.parent / "engine" / "bots"


def bots_key() -> str:
    """A short hash of the bots' source: results are kept per version of the bots."""
    digest = hashlib.sha256()
    for path in sorted(BOTS.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:10]


@dataclass(frozen=True)
class Shard:
    game: str
    players: Row
    seed: int
    start: int
    count: int

    @property
    def first(self) -> str:
        return self.players[0]

    def path(self, root: Path) -> Path:
        return root / self.game / "-".join(self.players) / f"s{self.seed}-{self.start:06d}-{self.count}.json"


def plan(game_ids: Iterable[str], rows: list[Row], games: int, seed: int) -> list[Shard]:
    """Every shard of the run, round by round: each row's first shard, then each row's second, …; a game plays
    the rows of two among `rows`, and the longer ones where it seats more (MORE_SEATS); a row plays `games` rounded
    up to a multiple of its seats."""
    out = []
    for game_id in game_ids:
        fits = [row for row in rows if len(row) == 2 or game_id in MORE_SEATS]
        ends = {row: -(-games // len(row)) * len(row) for row in fits}  # up to a multiple of the seats
        starts = {row: range(0, ends[row], shard_size(game_id, len(row))) for row in fits}
        for rank in range(max(map(len, starts.values()), default=0)):
            for row in fits:
                if rank < len(starts[row]):
                    start = starts[row][rank]
                    out.append(Shard(game_id, row, seed, start, min(shard_size(game_id, len(row)), ends[row] - start)))
    return out


@cache
def _game(game_id: str) -> Game[Any]:
    return make_game(cards.load_game(game_id))


def play(shard: Shard) -> dict[str, Any]:
    """One shard's games (runs in a worker): the duel's report, CPU seconds, every decision time."""
    started = time.process_time()
    duel = play_duel(_game(shard.game), list(shard.players), shard.count, shard.seed, first=shard.start)
    return duel.to_json() | {"start": shard.start, "cpu_s": round(time.process_time() - started, 1),
                             "when": describe(),
                             "times_ms": {n: [round(1000 * t, 2) for t in duel.tallies[n].times]
                                          for n in shard.players}}


def _save(path: Path, report: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(".part")
    part.write_text(json.dumps(report) + "\n", encoding="utf-8")
    part.replace(path)  # a shard is there whole or not at all


def _results(todo: list[Shard], workers: int) -> Iterator[tuple[Shard, dict[str, Any]]]:
    if workers <= 1:
        for shard in todo:
            yield shard, play(shard)
        return
    with ProcessPoolExecutor(workers) as pool:  # in plan order, so rows fill round by round
        yield from zip(todo, pool.map(play, todo))


def run(root: Path, shards: list[Shard], workers: int) -> None:
    todo = [s for s in shards if not s.path(root).exists()]
    print(f"{describe()}; {len(shards) - len(todo)} of {len(shards)} shards already in {root}", flush=True)
    for shard, report in _results(todo, workers):
        _save(shard.path(root), report)
        wins = "-".join(str(report["players"][n]["wins"]) for n in shard.players)
        print(f"{shard.game:9s} {shard.first:>7s} vs {' and '.join(shard.players[1:]):<7s} games {shard.start}-"
              f"{shard.start + shard.count - 1}: {wins} draws {report['draws']} "
              f"p95 {report['players'][shard.first]['decision_ms_p95']:.0f} ms ({report['cpu_s']} s)", flush=True)


def table(root: Path, seed: int) -> str:
    """The markdown tables of docs/bots.md from the shards in `root`: per row, its shards added up."""
    lines = []
    for game_id in GAME_IDS:
        found = []
        for row in list(ROWS) + MORE_SEATS.get(game_id, []):
            shards: dict[int, dict[str, Any]] = {}  # by first game: a run of more games replays a short last shard
            for path in (root / game_id / "-".join(row)).glob(f"s{seed}-*.json"):
                report = json.loads(path.read_text(encoding="utf-8"))
                if report["games"] > shards.get(report["start"], {"games": 0})["games"]:
                    shards[report["start"]] = report
            reports = [shards[start] for start in sorted(shards)]
            if reports:
                found.append((row, reports))
        if not found:
            continue
        lines += [f"\n**{game_id}**\n", "| first | against | games | first's wins | draws | first's win rate [95%] | "
                  "first's decision p50 / p95 | CPU a game |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
        for row, reports in found:
            first, against = row[0], " and ".join(row[1:])
            games = sum(r["games"] for r in reports)
            wins = sum(r["players"][first]["wins"] for r in reports)
            draws = sum(r["draws"] for r in reports)
            times = [t for r in reports for t in r["times_ms"][first]]
            p, low, high = wilson(wins, games)
            lines.append(f"| {first} | {against} | {games} | {wins} | {draws} | {p:.1%} [{low:.1%}, {high:.1%}] | "
                         f"{percentile(times, 50):.0f} / {percentile(times, 95):.0f} ms | "
                         f"{sum(r['cpu_s'] for r in reports) / games:.1f} s |")
    return "\n".join(lines)


def positions(game: Game[Any], count: int, seed: int = 5) -> list[tuple[State, int]]:
    """`count` positions of seeded random games, 2 to 100 moves in, each with the seat to move."""
    rng = random.Random(seed)
    out: list[tuple[State, int]] = []
    k = 0
    while len(out) < count:
        match = Match(game, f"positions:{seed}:{k}", TABLE_OPTIONS.get(game.id, {}))
        k += 1
        for _ in range(rng.randrange(2, 100)):
            if match.state.is_terminal:
                break
            match.apply(rng.choice([a for a in match.state.legal_actions() if a.kind != "concede"]))
        if not match.state.is_terminal:
            out.append((match.state, match.state.players_to_act()[0]))
    return out


def timing(game_ids: Iterable[str], count: int, levels: Iterable[str] = ("easy", "normal", "hard")) -> str:
    """A markdown table of decision CPU time p50 / p95 per game and level, on `count` positions of each game."""
    lines = ["| game | " + " | ".join(f"{level} p50 / p95" for level in levels) + " |",
             "| --- |" + " --- |" * len(tuple(levels))]
    for game_id in game_ids:
        game = _game(game_id)
        sample = positions(game, count)
        cells = []
        for level in levels:
            times = []
            for k, (state, seat) in enumerate(sample):
                bot = make_bot(level, game_id, game.players(TABLE_OPTIONS.get(game_id, {})))
                started = time.process_time()
                bot.choose(state, seat, random.Random(k))
                times.append(1000 * (time.process_time() - started))
            cells.append(f"{percentile(times, 50):.0f} / {percentile(times, 95):.0f} ms")
            print(f"{game_id} {level}: {cells[-1]}", flush=True)
        lines.append(f"| {game_id} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game_ids", nargs="*", metavar="GAME", help="games to measure (default: all)")
    parser.add_argument("--games", type=int, default=200, help="games per row (2,000 for docs/bots.md's aim)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rows", help="comma-separated FIRST:SECOND pairs (default: every row)")
    parser.add_argument("--dir", type=Path, default=Path("bench-bots"), help="where the shards are kept")
    parser.add_argument("--key", default=None, help="the bots' version to read or extend (default: this source's)")
    parser.add_argument("--workers", type=int, default=1, help="processes (one per free core)")
    parser.add_argument("--table", action="store_true", help="print the markdown tables and stop")
    parser.add_argument("--timing", type=int, metavar="N", help="time each level's decision on N positions a game")
    args = parser.parse_args()
    if args.timing:
        print(describe())
        print(timing(args.game_ids or GAME_IDS, args.timing))
        return
    root = args.dir / (args.key or bots_key())
    if args.table:
        print(f"bots {root.name}, seed {args.seed}")
        print(table(root, args.seed))
        return
    rows = [tuple(r.split(":")) for r in args.rows.split(",")] if args.rows else list(ROWS) + [
        row for more in MORE_SEATS.values() for row in more]
    for game_id in args.game_ids:
        if game_id not in GAME_IDS:
            parser.error(f"there is no game called {game_id!r} (games: {', '.join(GAME_IDS)})")
    workers = min(args.workers, os.cpu_count() or 1)
    run(root, plan(args.game_ids or GAME_IDS, rows, args.games, args.seed), workers)


if __name__ == "__main__":
    main()
