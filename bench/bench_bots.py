"""How strong each bot level is, per game: the win-rate tables of docs/bots.md.

Rows (first player against second, seats rotated every game, engine.bots.duel): each level against random
and against greedy, greedy against random, hard against normal, and the all-seeing ceiling against random.
Rows are played in rounds of --chunk games each (every row gets games early); each chunk appends one JSON line
(the duel's report, its CPU seconds and every decision time) to --out as soon as it is done, so a long run that
is stopped keeps what it measured. Run on a shared machine as
    nice -n 19 python bench/bench_bots.py --games 200 --out bench-bots.jsonl warfare imperial
and `--table FILE` prints the markdown tables of docs/bots.md from such a file.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from harness import describe

import cards
from engine import GAME_IDS, make_game
from engine.bots.duel import percentile, play_duel, wilson

ROWS = (("greedy", "random"), ("easy", "random"), ("normal", "random"), ("hard", "random"),
        ("easy", "greedy"), ("normal", "greedy"), ("hard", "greedy"), ("hard", "normal"), ("ceiling", "random"))


def measure(game_id: str, rows: list[tuple[str, str]], games: int, chunk: int, seed: int, out: Path) -> None:
    """Round after round, `chunk` more games of every row (each chunk its own seed), until each row has `games`:
    every row gets some games early, and a run that is stopped keeps every chunk it finished."""
    game = make_game(cards.load_game(game_id))
    for k in range(0, games, chunk):
        for first, second in rows:
            started = time.process_time()
            duel = play_duel(game, [first, second], min(chunk, games - k), seed * 100_000 + k)
            report = duel.to_json() | {"cpu_s": round(time.process_time() - started, 1), "when": describe(),
                                       "times_ms": {n: [round(1000 * t, 2) for t in duel.tallies[n].times]
                                                    for n in (first, second)}}
            with out.open("a", encoding="utf-8") as f:
                f.write(json.dumps(report) + "\n")
            a = report["players"][first]
            print(f"{game_id:9s} {first:>7s} vs {second:<7s} {a['wins']:>4}-{report['players'][second]['wins']:<4} "
                  f"draws {duel.draws:<4} p95 {a['decision_ms_p95']:.0f} ms  ({report['cpu_s']} s)", flush=True)


def table(path: Path) -> str:
    """The markdown rows of a results file, by game: a row's chunks added up, decision times pooled."""
    rows: dict[tuple[str, str, str], dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        report = json.loads(line)
        first, second = list(report["players"])
        row = rows.setdefault((report["game"], first, second), {"games": 0, "wins": 0, "draws": 0, "times": []})
        row["games"] += report["games"]
        row["wins"] += report["players"][first]["wins"]
        row["draws"] += report["draws"]
        row["times"] += report["times_ms"][first]
    lines = []
    for game_id in GAME_IDS:
        found = sorted(((k, r) for k, r in rows.items() if k[0] == game_id),
                       key=lambda kr: ROWS.index(kr[0][1:]) if kr[0][1:] in ROWS else len(ROWS))
        if not found:
            continue
        lines += [f"\n**{game_id}**\n", "| first | against | games | first's wins | draws | first's win rate [95%] | "
                  "first's decision p50 / p95 |", "| --- | --- | --- | --- | --- | --- | --- |"]
        for (_, first, second), r in found:
            p, low, high = wilson(r["wins"], r["games"])
            lines.append(f"| {first} | {second} | {r['games']} | {r['wins']} | {r['draws']} | "
                         f"{p:.1%} [{low:.1%}, {high:.1%}] | {percentile(r['times'], 50):.0f} / "
                         f"{percentile(r['times'], 95):.0f} ms |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("games_ids", nargs="*", metavar="GAME", help="games to measure (default: all)")
    parser.add_argument("--games", type=int, default=200, help="games per row")
    parser.add_argument("--chunk", type=int, default=10, help="games per row per round (even: seats balanced)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rows", help="comma-separated FIRST:SECOND pairs (default: every row)")
    parser.add_argument("--out", type=Path, default=Path("bench-bots.jsonl"))
    parser.add_argument("--table", type=Path, help="print the markdown tables of a results file and stop")
    args = parser.parse_args()
    if args.table:
        print(table(args.table))
        return
    rows = [tuple(r.split(":")) for r in args.rows.split(",")] if args.rows else list(ROWS)
    print(describe(), flush=True)
    for game_id in args.games_ids or GAME_IDS:
        measure(game_id, rows, args.games, args.chunk, args.seed, args.out)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
