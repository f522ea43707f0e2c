"""A finished table's replay and game record: what they cost on a long table (a finished hexbattle game).

Run: python bench/bench_record.py [--game hexbattle] [--seed 3]

A table of `--game` (turn limits on) is played to its end by random moves through the table service, then:
1. `companion.replay.record` for a seat and for the spectator (the file a phone downloads), CPU best of three;
2. the finished table's page (the replay, AppTest, the page script only) at its last step, its middle step and
   its first, with the seat's link: the median of five runs of each, wall and CPU of this process.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from harness import best_of, describe, page_tables
from companion import context
from companion.replay import record
from companion.store import TableInfo
from companion.tables import Tables
from engine.core import playable

OPTIONS = {"hexbattle": {"turn_limit": True}, "warfare": {"turn_limit": True}}


def finished(service: Tables, game: str, seed: int) -> TableInfo:
    """A table of `game` played to its end by seeded random moves (the same table for the same seed)."""
    table = service.create(game, ["Ann", "Bob"], OPTIONS.get(game, {}), seed=f"bench-record-{seed}")
    rng = random.Random(seed)
    while True:
        state = service.snapshot(table).state
        if state.is_terminal:
            return service.store.table(table.id)
        seat = state.players_to_act()[0]
        service.act(table, seat, rng.choice(playable(state.legal_actions(seat))))


def page_times(service: Tables, table: TableInfo, step: int) -> tuple[float, float]:
    """Milliseconds (wall, CPU) of the finished table's page at `step`, the median of five runs."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(context.__file__).with_name("app.py")), default_timeout=120)
    at.query_params["table"] = table.code
    at.query_params["seat"] = table.seats[0].token
    at.session_state[f"replay-{table.code}-{table.id}-step"] = step
    walls, cpus = [], []
    for _ in range(5):
        wall, cpu = time.perf_counter(), time.process_time()
        at.run()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
        if at.exception or not any(f"Replay · move {step} of" in str(m.value) for m in at.markdown):
            raise RuntimeError(f"the page did not draw the replay's step {step}: {at.exception}")
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="hexbattle")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    print(describe())
    with tempfile.TemporaryDirectory() as folder:
        service = page_tables(Path(folder) / "record.sqlite3")
        table = finished(service, args.game, args.seed)
        entries = list(service.snapshot(table).entries)
        print(f"{args.game}, seed {args.seed}: {len(entries)} log entries")
        for viewer in (0, None):
            cpu, wall, rec = best_of(lambda: record(service, table, entries, viewer))
            print(f"record as {'the spectator' if viewer is None else 'seat 0'}: {cpu * 1000:8.0f} ms CPU "
                  f"{wall * 1000:8.0f} ms wall  ({len(rec.dumps()):,} bytes)")
        for label, step in (("last", len(entries)), ("middle", len(entries) // 2), ("first", 0)):
            wall, cpu = page_times(service, table, step)
            print(f"replay page at its {label} step ({step}): {wall:7.0f} ms wall {cpu:7.0f} ms CPU (median of 5)")


if __name__ == "__main__":
    main()
