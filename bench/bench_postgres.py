"""Several servers on one database: append latency at 100 concurrent tables, and how soon the other server sees it.

Run: python bench/bench_postgres.py [--tables 100] [--threads 10] [--appends 60] [--backend postgres sqlite-full sqlite-normal]

Two server processes (each with its own store and table service, as two `muster app`
processes have) share one database. Each appends to its half of the tables from `--threads`
phone threads, and watches the other half the way phones do (polling `signature` every
20 ms). Reported: append latency p50/p95 (the whole `Tables.act`: verify against the
newest log, insert, commit), appends per second, the server processes' CPU time per append
(the watcher's polling included; steadier than wall-clock time on a shared machine), and the lag from an action's timestamp to
the other server's poll seeing it. PostgreSQL runs durably (fsync on, synchronous_commit on)
on a server this script starts with initdb/pg_ctl; SQLite runs in WAL mode with
`synchronous=FULL` (Muster's default) and `NORMAL` (what it used to be), so the table shows
what power-cut safety costs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from harness import describe, pct

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from companion_game import TallyGame  # noqa: E402
from postgres_server import PostgresServer  # noqa: E402

from companion.store import open_store  # noqa: E402
from companion.tables import Tables  # noqa: E402

SERVER = textwrap.dedent("""
    import json, sys, threading, time
    sys.path.insert(0, "tests")
    import companion.store_sqlite
    from companion_game import TallyGame
    from companion.store import open_store
    from companion.tables import Tables
    from engine.core import Action

    target, mine, theirs, seat, threads, appends, sync = sys.argv[1:8]
    companion.store_sqlite.SYNCHRONOUS = sync
    mine, theirs = json.loads(mine), json.loads(theirs)
    seat, threads, appends = int(seat), int(threads), int(appends)
    service = Tables(open_store(target), {"tally": TallyGame()})
    tables = {t: service.store.table(t) for t in mine}
    latencies, seen, stop = [], [], threading.Event()

    def phone(share):
        for i in range(appends):
            table = tables[share[i % len(share)]]
            start = time.perf_counter()
            total = sum(service.snapshot(table).state.counts)
            service.act(table, seat, Action("add", seat, {"n": total + 1}))
            latencies.append(time.perf_counter() - start)

    def watch():
        last = {t: service.store.signature(t)[0] for t in theirs}
        while not stop.is_set():
            for t in theirs:
                seq = service.store.signature(t)[0]
                if seq != last[t]:
                    seen.append((t, seq, time.time()))
                    last[t] = seq
            time.sleep(0.02)

    print("ready", flush=True)
    sys.stdin.readline()
    watcher = threading.Thread(target=watch)
    watcher.start()
    started, cpu = time.perf_counter(), time.process_time()
    phones = [threading.Thread(target=phone, args=(mine[i::threads],)) for i in range(threads)]
    for p in phones:
        p.start()
    for p in phones:
        p.join()
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    time.sleep(1.0)  # let the other server's last commits arrive
    stop.set()
    watcher.join()
    print(json.dumps({"latencies": latencies, "seen": seen, "elapsed": elapsed, "cpu": cpu}), flush=True)
""")


def run(target: str, sync: str, tables: int, threads: int, appends: int) -> dict[str, float]:
    service = Tables(open_store(target), {"tally": TallyGame()})
    ids = [service.create("tally", ["A", "B"], {"players": 2}).id for _ in range(tables)]
    halves = [ids[: tables // 2], ids[tables // 2:]]
    servers = [subprocess.Popen([sys.executable, "-c", SERVER, target, json.dumps(halves[i]), json.dumps(halves[1 - i]),
                                 str(i), str(threads), str(appends), sync],
                                cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE) for i in range(2)]
    for s in servers:
        assert s.stdout is not None and s.stdout.readline().strip() == "ready"
    for s in servers:
        assert s.stdin is not None
        s.stdin.write("go\n")
        s.stdin.flush()
    results = [json.loads(s.communicate(timeout=1800)[0].splitlines()[-1]) for s in servers]
    latencies = [x * 1000 for r in results for x in r["latencies"]]
    at = {(t, e.seq): e.at for t in ids for e in service.store.log(t)}
    lags = [(seen - at[(t, seq)]) * 1000 for r in results for t, seq, seen in r["seen"]]
    service.store.close()
    total = sum(len(r["latencies"]) for r in results)
    return {"appends": total, "p50": pct(latencies, 0.5), "p95": pct(latencies, 0.95),
            "rate": total / max(r["elapsed"] for r in results),
            "lag_p50": pct(lags, 0.5), "lag_p95": pct(lags, 0.95), "lag_n": len(lags),
            "lag_mean": statistics.fmean(lags), "cpu": sum(r["cpu"] for r in results) / total * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--threads", type=int, default=10, help="phone threads per server")
    parser.add_argument("--appends", type=int, default=60, help="appends per phone thread")
    parser.add_argument("--backend", nargs="+", default=["postgres", "sqlite-full", "sqlite-normal"])
    args = parser.parse_args()
    print(describe())
    print("| Backend | Appends | p50 | p95 | Appends/s | Server CPU per append | Other server sees it: p50 | p95 |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for backend in args.backend:
        with tempfile.TemporaryDirectory() as folder:
            server = None
            if backend == "postgres":
                server = PostgresServer().start(durable=True)
                target, sync = server.new_database(), "FULL"
            else:
                target, sync = str(Path(folder) / "muster.sqlite3"), backend.split("-")[1].upper()
            try:
                r = run(target, sync, args.tables, args.threads, args.appends)
            finally:
                if server is not None:
                    server.stop()
        print(f"| {backend} | {r['appends']:.0f} | {r['p50']:.1f} ms | {r['p95']:.1f} ms | {r['rate']:.0f} | "
              f"{r['cpu']:.1f} ms | "
              f"{r['lag_p50']:.0f} ms | {r['lag_p95']:.0f} ms |", flush=True)


if __name__ == "__main__":
    main()
