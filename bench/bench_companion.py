"""Companion speed: server-side time per interaction, and six phones appending to one table at once.

Run: python bench/bench_companion.py [--actions N] [--game GAME]

1. A scripted session on a real engine (default warfare): each interaction is what the
   server does for one tap — append the action under the write lock, then redraw the
   table page. Measured twice: the table service alone (act + snapshot + view + legal
   moves), and the whole page script through Streamlit's AppTest (no browser or network).
2. Six concurrent sessions (threads, each with its own service and SQLite connections, as
   separate server processes would be) append 1,000 actions in all to one table; every
   action must land exactly once, numbered 1…1000.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from harness import describe, page_tables, pct

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from companion_game import TallyGame  # noqa: E402

from companion import context  # noqa: E402
from companion.store import open_store  # noqa: E402
from companion.tables import Tables  # noqa: E402
from engine.core import Refusal  # noqa: E402


def service_session(game: str, actions: int, folder: Path) -> list[float]:
    """Milliseconds per interaction at the table-service level, over a seeded random playout."""
    service = Tables(open_store(folder / "service.sqlite3"))
    names = ["Ann", "Bob"]
    table = service.create(game, names, {})
    rng = random.Random(7)
    times = []
    for _ in range(actions):
        snap = service.snapshot(table)
        if snap.state.is_terminal:
            break
        seat = snap.state.players_to_act()[0]
        legal = snap.state.legal_actions(seat)
        action = rng.choice([a for a in legal if a.kind != "concede"] or legal)  # keep the session going
        start = time.perf_counter()
        service.act(table, seat, action)
        after = service.snapshot(table)
        after.state.view(seat)
        after.state.legal_actions(after.state.players_to_act()[0] if after.state.players_to_act() else None)
        times.append((time.perf_counter() - start) * 1000)
    return times


def page_session(game: str, actions: int, folder: Path) -> list[float]:
    """Milliseconds per tap for the whole table page script (AppTest), seat by seat."""
    from streamlit.testing.v1 import AppTest

    service = page_tables(folder / "pages.sqlite3")
    table = service.create(game, ["Ann", "Bob"], {})
    app = str(Path(context.__file__).with_name("app.py"))
    pages = {}
    for seat in table.seats:
        at = AppTest.from_file(app, default_timeout=60)
        at.query_params["table"] = table.code
        at.query_params["seat"] = seat.token
        pages[seat.seat] = at.run()
    times = []
    for _ in range(actions):
        state = service.snapshot(table).state
        if state.is_terminal or not state.players_to_act():
            break
        seat = state.players_to_act()[0]
        at = pages[seat].run()
        buttons = [b for b in at.button if b.key and (b.key.startswith("move-") or b.key.startswith("do-"))]
        if not buttons:
            break
        start = time.perf_counter()
        buttons[0].click().run()
        times.append((time.perf_counter() - start) * 1000)
        if at.exception:
            raise RuntimeError(at.exception)
    return times


def concurrent(total: int, sessions: int, folder: Path) -> tuple[float, int, bool]:
    """Seconds for `sessions` threads to append `total` actions; (seconds, stale retries, log exact)."""
    path = folder / "concurrent.sqlite3"
    setup = Tables(open_store(path), {"tally": TallyGame()})
    table = setup.create("tally", [f"P{i}" for i in range(sessions)], {"players": sessions})
    share = [total // sessions + (1 if i < total % sessions else 0) for i in range(sessions)]
    retries = [0] * sessions
    landed: list[list[int]] = [[] for _ in range(sessions)]

    def phone(seat: int) -> None:
        service = Tables(open_store(path), {"tally": TallyGame()})
        while len(landed[seat]) < share[seat]:
            action = service.snapshot(table).state.legal_actions(seat)[0]
            try:
                landed[seat].append(service.act(table, seat, action).head[0])
            except Refusal:
                retries[seat] += 1

    start = time.perf_counter()
    threads = [threading.Thread(target=phone, args=(s,)) for s in range(sessions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - start
    seqs = [e.seq for e in setup.store.log(table.id)]
    exact = seqs == list(range(1, total + 1)) and sorted(s for x in landed for s in x) == seqs
    return seconds, sum(retries), exact


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="warfare")
    parser.add_argument("--actions", type=int, default=200, help="interactions in the scripted session")
    parser.add_argument("--page-actions", type=int, default=60, help="interactions through the page script")
    parser.add_argument("--concurrent", type=int, default=1000)
    args = parser.parse_args()
    print(describe())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for label, times in (("service", service_session(args.game, args.actions, folder)),
                             ("page", page_session(args.game, args.page_actions, folder))):
            print(f"{args.game} {label:<7} n={len(times):4d}  p50 {statistics.median(times):7.2f} ms  "
                  f"p95 {pct(times, 0.95):7.2f} ms  max {max(times):7.2f} ms")
        seconds, retries, exact = concurrent(args.concurrent, 6, folder)
        print(f"6 sessions, {args.concurrent} actions at one table: {seconds:.2f} s "
              f"({args.concurrent / seconds:.0f} actions/s), {retries} stale retries, "
              f"{'none lost or duplicated' if exact else 'LOST OR DUPLICATED ACTIONS'}")
        if not exact:
            sys.exit(1)


if __name__ == "__main__":
    main()
