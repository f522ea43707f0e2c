"""A locked SQLite store under load: how soon a tap is told, that the server's own taps never are, and that no
acknowledged tap is lost (issue 29).

Run: python bench/bench_store_lock.py [--threads 8] [--seconds 6] [--lock 3]

`--threads` phone threads tap (`Store.append`, each on its own table, as fast as the store takes them) on one
store with Muster's default busy timeout (`store_sqlite.BUSY_TIMEOUT`). The run has three phases of
`--seconds`, `--lock`, `--seconds`: load alone (any refusal here would be the server's own taps taking each
other for another program's lock), then another process holding the write lock (`BEGIN IMMEDIATE` in an
sqlite3 connection, as a backup tool or a shell might), then load alone again. Taps are counted by the phase they started in. Reported: taps acknowledged
and refused per phase, how long a refused tap waited for its answer (p50, max), and acknowledged taps missing
from the file afterwards (read back by a fresh connection).
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import describe  # noqa: E402

from companion.store import StoreUnavailable  # noqa: E402
from companion.store_sqlite import BUSY_TIMEOUT, SQLiteStore  # noqa: E402

PHASES = {"alone": "load alone", "locking": "in flight as the lock is taken",
          "locked": "started while locked", "after": "started after the lock is freed"}
HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()
conn.execute("ROLLBACK")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--lock", type=float, default=3.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "muster.sqlite3"
        store = SQLiteStore(path)
        tables = [store.create_table("race", [f"A{i}", f"B{i}"], {}).id for i in range(args.threads)]
        phase = ["alone"]
        acked: dict[int, list[int]] = {t: [] for t in tables}
        refused: dict[str, list[float]] = {p: [] for p in PHASES}
        stored: dict[str, int] = {p: 0 for p in PHASES}
        done = threading.Event()
        count = threading.Lock()

        def phone(table: int) -> None:
            while not done.is_set():
                now, start = phase[0], time.perf_counter()
                try:
                    entry = store.append(table, 0, {"kind": "roll", "player": 0, "args": {}})
                except StoreUnavailable:
                    with count:
                        refused[now].append(time.perf_counter() - start)
                    time.sleep(0.1)  # a phone's next tap is not instant
                    continue
                acked[table].append(entry.seq)
                with count:
                    stored[now] += 1

        threads = [threading.Thread(target=phone, args=(t,)) for t in tables]
        for thread in threads:
            thread.start()
        time.sleep(args.seconds)
        phase[0] = "locking"  # taps in flight as the other program takes the lock
        holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        assert holder.stdout is not None and holder.stdin is not None
        assert holder.stdout.readline().strip() == "locked"
        phase[0] = "locked"
        time.sleep(args.lock)
        phase[0] = "after"  # taps started from here began with the lock released
        holder.stdin.close()
        holder.wait(timeout=30)
        time.sleep(args.seconds)
        done.set()
        for thread in threads:
            thread.join()
        store.close()
        check = sqlite3.connect(path)
        missing = sum(1 for t, seqs in acked.items() for seq in seqs
                      if check.execute("SELECT 1 FROM actions WHERE table_id=? AND seq=?", (t, seq)).fetchone() is None)
        check.close()
    print(describe())
    print(f"{args.threads} phone threads, busy timeout {BUSY_TIMEOUT:g} s, phases {args.seconds:g} s / "
          f"{args.lock:g} s locked / {args.seconds:g} s")
    print("| phase | taps acknowledged | taps refused | refused tap answered after, p50 | max |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, waits in refused.items():
        p50 = f"{statistics.median(waits):.2f} s" if waits else "—"
        worst = f"{max(waits):.2f} s" if waits else "—"
        print(f"| {PHASES[name]} | {stored[name]} | {len(waits)} | {p50} | {worst} |")
    print(f"acknowledged taps missing from the file: {missing} of {sum(map(len, acked.values()))}")


if __name__ == "__main__":
    main()
