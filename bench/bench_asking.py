"""What asking "are you sure?" about a page's move buttons costs: the engine's questions at new positions.

Run: python bench/bench_asking.py [--game waterloo] [--positions 200] [--before DIR]

A table of `--game` (waterloo, three players, by default; any of the five) is played by seeded random moves (never
conceding: `playable`); at each of `--positions` positions each seat to act asks `Tables.consequence` about every
move it has, as its page does for each button it draws at a new position (each question tries the move on re-dealt
positions, `Match.ahead_refusal`). A page draws buttons for some moves only (hexbattle's units move by taps on the
board, asked when tapped), so games with many moves ask more here than a page does. Printed: CPU ms per position
and seat, p50 / p95, and a digest of every answer, which must not differ between two versions of the code.
`--before DIR` runs the same positions with the code of DIR (another worktree) too, alternately in fresh processes,
so both share the machine's load.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROUNDS = 2  # each version's runs, alternated
GAMES = {"waterloo": {"players": 3}, "warfare": {}, "imperial": {}, "medieval": {}, "hexbattle": {"quick_start": True}}
"""Each game's table options: waterloo at three seats, hexbattle's Quick Start battle."""


def measure(game_id: str, positions: int) -> dict[str, object]:
    """CPU ms per position and asking seat (all the seat's questions there), questions per position and seat, and
    a digest of the answers."""
    from companion.store import open_store
    from companion.tables import Tables
    from engine.core import playable
    from harness import pct

    with tempfile.TemporaryDirectory() as tmp:
        service = Tables(open_store(Path(tmp) / "ask.sqlite3"))
        options = GAMES[game_id]
        seats = [f"Seat {k + 1}" for k in range(service.game(game_id).players(options))]
        rng = random.Random(1)
        ms: list[float] = []
        answers: list[list[str | None]] = []
        table = service.create(game_id, seats, options, seed="ask-0")
        while len(ms) < positions:
            snap = service.snapshot(table)
            if snap.state.is_terminal:
                table = service.create(game_id, seats, options, seed=f"ask-{len(ms)}")
                continue
            acting = snap.state.players_to_act()
            for seat in acting:
                legal = snap.state.legal_actions(seat)
                start = time.process_time()
                answers.append([service.consequence(table, seat, a, snap) for a in legal])
                ms.append((time.process_time() - start) * 1000)
            service.act(table, acting[0], rng.choice(playable(snap.state.legal_actions(acting[0]))))
    asked = sum(map(len, answers)) / len(answers)
    return {"n": len(ms), "p50": pct(ms, 0.5), "p95": pct(ms, 0.95), "mean": sum(ms) / len(ms),
            "asked": asked, "digest": hashlib.sha1(json.dumps(answers).encode()).hexdigest()[:12]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=sorted(GAMES), default="waterloo")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--before", help="another worktree whose code is measured alternately with this one")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a child: print one run's JSON
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.game, args.positions)))
        return
    from harness import describe
    print(f"{describe()}; {args.game}")
    here = str(Path(__file__).resolve().parent.parent)
    versions = [("before", args.before), ("after", here)] if args.before else [("this", here)]
    for _ in range(ROUNDS):
        for name, root in versions:
            env = dict(os.environ, PYTHONPATH=str(root))
            out = subprocess.run([sys.executable, str(Path(here) / "bench" / "bench_asking.py"), "--one", "--game",
                                  args.game, "--positions", str(args.positions)], env=env, cwd=root, check=True,
                                 capture_output=True, text=True).stdout
            r = json.loads(out)
            print(f"{name:6} n {r['n']}  CPU ms per position p50 {r['p50']:.2f}  p95 {r['p95']:.2f}  "
                  f"mean {r['mean']:.2f}  answers {r['digest']}")
    print(f"questions per position and seat: {r['asked']:.1f}")


if __name__ == "__main__":
    main()
