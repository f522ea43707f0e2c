"""Where a tap's time goes: the tapping phone's clock and the server's, side by side, tap by tap.

Run: python bench/bench_tap_timeline.py [--game GAME] [--taps N] [--bare] [--trace]

Two phones at one table, each in a browser on a CPU of its own (as `bench_browser.py`), against a server
that logs its script runs and the messages it sends (`bench/timeline_server.py`). Each tap is made by the first
phone, by turns, that has a move, as `bench_browser.py` plays: a seat that moves twice running is timed too
(taken by strict turns, 8 of waterloo's 30 taps were skipped, and the figures read 3-4 ms faster than
`bench_browser.py`'s). For each tap, on one clock (the machine's):
- click -> sent: the page sends the tap (Streamlit's handling of the click in the page: a widget's event, or
  a components-v2 element's trigger);
- sent -> run: the tapping phone's script run starts on the server (the first run to start after the tap
  was sent: another phone's 1.5 s poll could start in between, rarely);
- run: that run's wall time, and its CPU time (and the CPU time of the other phone's run, told of the move);
- run end -> last sent: the server's last websocket message of that run leaves;
- last sent -> received: the page receives the last message it got before showing the move (when the page's
  own work lets it handle it);
- received -> shown: the page shows the new log head (`span.muster-head`), or, for a tap that only picks (a
  panel's move builder), draws its table part anew;
and with `--trace`, what the tapping page's main thread did between the click and "shown" (Chromium's
timeline: tasks, JavaScript, compositing, painting, styles and layout). p50 / p95 of each. `--bare`
plays the bare Streamlit page (`bench/bare_app.py`) instead, the floor the figures are read against.
"""

from __future__ import annotations

import argparse
import collections
import os
import tempfile
from pathlib import Path
from typing import Any

from bench_browser import (HEAD_CLOCK, PHONE, ROOT, TAPPED, checkout_command, drawn_after, free_port, head, launch,
                           pct, picked_at, server, settle, setup, shown_at, tap_bare, tap_move)
from harness import describe
from playwright.sync_api import Page, sync_playwright

# When the page sent and received each websocket message (ms since the epoch).
SOCKET_CLOCK = """(() => {
  const Socket = window.WebSocket; window.__socket = [];
  const now = () => performance.timeOrigin + performance.now();
  class Timed extends Socket {
    constructor(...args) { super(...args); this.addEventListener("message", () => window.__socket.push(["received", now()])); }
    send(data) { window.__socket.push(["sent", now()]); return super.send(data); }
  }
  window.WebSocket = Timed;
})();"""
TRACED = ("RunTask", "FunctionCall", "Commit", "Paint", "PrePaint", "UpdateLayoutTree", "Layout")


def server_log(path: Path) -> list[tuple[str, float, str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        kind, at, session, *rest = line.split()
        rows.append((kind, float(at), session, rest[0] if rest else ""))
    return rows


def steps(clicked: float, shown: float, socket: list[list[Any]], log: list[tuple[str, float, str, str]]) -> dict[str, float]:
    """The tap's steps in ms (see the module docstring), or {} when one could not be told."""
    sent = [t / 1000 for kind, t in socket if kind == "sent" and t / 1000 >= clicked]
    received = [t / 1000 for kind, t in socket if kind == "received" and t / 1000 <= shown + 0.001]
    if not sent or not received:
        return {}
    start = next(((at, session) for kind, at, session, _ in log if kind == "run-start" and at >= sent[0] - 0.002), None)
    if start is None:
        return {}
    end = next(((at, float(cpu)) for kind, at, session, cpu in log
                if kind == "run-end" and session == start[1] and at >= start[0]), None)
    out = [at for kind, at, session, _ in log if kind == "sent" and session == start[1] and start[0] <= at <= shown + 0.001]
    if end is None or not out:
        return {}
    other = next((session for kind, at, session, _ in log if kind == "run-start" and session != start[1] and at >= start[0]),
                 None)  # the other phone's run, told of the move (a poll's run could come first, rarely)
    told = next((float(cpu) for kind, at, session, cpu in log if kind == "run-end" and session == other and at >= start[0]),
                None)
    ms = 1000
    return {"click -> sent": (sent[0] - clicked) * ms, "sent -> run": (start[0] - sent[0]) * ms,
            "run (wall)": (end[0] - start[0]) * ms, "run (CPU)": end[1],
            "run end -> last sent": (out[-1] - end[0]) * ms, "last sent -> received": (received[-1] - out[-1]) * ms,
            "received -> shown": (shown - received[-1]) * ms, "click -> shown": (shown - clicked) * ms,
            **({} if told is None else {"other phone's run (CPU)": told})}


def main_thread(events: list[dict[str, Any]], span_ms: float) -> dict[str, float]:
    """Chromium timeline events of the main thread between the click and `span_ms` later, summed by name."""
    clicks = [e for e in events if e.get("name") == "EventDispatch" and e.get("args", {}).get("data", {}).get("type") == "click"]
    if not clicks:
        return {}
    start, tid = clicks[-1]["ts"], clicks[-1]["tid"]
    totals: dict[str, float] = collections.Counter()
    for e in events:
        if e.get("ph") == "X" and e.get("tid") == tid and start <= e["ts"] <= start + span_ms * 1000 and e.get("name") in TRACED:
            totals[f"page: {e['name']}"] += e.get("dur", 0) / 1000
    return dict(totals)


def traced_tap(page: Page, before: int, bare: bool, trace: bool) -> tuple[float | None, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    if not trace:
        return (tap_bare if bare else tap_move)(page, before), events
    cdp = page.context.new_cdp_session(page)
    done: list[int] = []
    cdp.on("Tracing.dataCollected", lambda e: events.extend(e["value"]))
    cdp.on("Tracing.tracingComplete", lambda e: done.append(1))
    cdp.send("Tracing.start", {"categories": "devtools.timeline,disabled-by-default-devtools.timeline",
                               "transferMode": "ReportEvents"})
    clicked = (tap_bare if bare else tap_move)(page, before)
    while clicked is not None and head(page) <= before and drawn_after(page, clicked) is None:
        page.wait_for_timeout(10)
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(20)
    cdp.detach()
    return clicked, events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="medieval")
    parser.add_argument("--taps", type=int, default=30)
    parser.add_argument("--bare", action="store_true", help="the bare Streamlit page instead of Muster")
    parser.add_argument("--trace", action="store_true", help="also trace the tapping page's main thread")
    parser.add_argument("--rows", action="store_true", help="also print each tap's steps, slowest tap last")
    args = parser.parse_args()
    print(describe(), flush=True)
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        browsers = launch(pw, Path(tmp), False)
        port = free_port()
        log_path = Path(tmp) / "server.log"
        env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{ROOT / 'bench'}", MUSTER_TIMELINE_LOG=str(log_path))
        if args.bare:
            command = checkout_command(ROOT, port, ROOT / "bench" / "bare_app.py")
            urls = [f"http://127.0.0.1:{port}/"] * 2
        else:
            table = setup(ROOT, tmp, args.game)
            env.update(MUSTER_DATA_DIR=tmp, MUSTER_URL=f"http://127.0.0.1:{port}")
            command = checkout_command(ROOT, port)
            urls = [f"http://127.0.0.1:{port}/?table={table['code']}&seat={token}" for token in table["tokens"]]
        at = command.index("-m")
        command[at:at + 2] = [str(ROOT / "bench" / "timeline_server.py")]
        with server(command, env, port, ROOT):
            phones = []
            for n, url in enumerate(urls):
                page = browsers[n % len(browsers)].new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
                page.add_init_script(SOCKET_CLOCK)
                page.goto(url)
                page.locator("span.muster-head").first.wait_for(state="attached", timeout=90_000)
                page.evaluate(HEAD_CLOCK)
                phones.append(page)
            settle(*phones)
            rows: list[dict[str, float]] = []
            names: list[str] = []  # what each timed tap was
            for n in range(args.taps):
                before = max(head(p) for p in phones)
                clicked, events = None, []
                for mover in phones[n % 2:] + phones[:n % 2]:  # as bench_browser.py plays: the first with a move
                    mover.evaluate("() => window.__socket.splice(0)")
                    clicked, events = traced_tap(mover, before, args.bare, args.trace)
                    if clicked is not None:
                        break
                if clicked is None:
                    mover.wait_for_timeout(300)
                    continue
                while 0 <= head(mover) <= before and drawn_after(mover, clicked) is None:  # a move, or a pick redrawn
                    mover.wait_for_timeout(10)
                if head(mover) < 0:  # the game is over (its replay has no log head): the taps end here
                    print(f"the game ended after {n + 1} taps", flush=True)
                    break
                picked = picked_at(mover, before, clicked)
                shown = shown_at(mover, before + 1) if picked is None else picked
                settle(*phones)
                row = steps(clicked, shown, mover.evaluate("() => window.__socket"), server_log(log_path))
                if row and events:
                    row.update(main_thread(events, row["click -> shown"]))
                if row:
                    rows.append(row)
                    names.append("bare" if args.bare else TAPPED[-1])
    print(f"{len(rows)} taps timed of {args.taps} ({'bare page' if args.bare else args.game}); p50 / p95 in ms:")
    for key in dict.fromkeys(k for row in rows for k in row):
        values = [row[key] for row in rows if key in row]
        print(f"  {key:<26} {pct(values, 0.5):7.1f} / {pct(values, 0.95):7.1f}")
    if args.rows:
        keys = list(dict.fromkeys(k for row in rows for k in row))
        print(" | ".join([*keys, "tapped"]))
        for row, name in sorted(zip(rows, names, strict=True), key=lambda r: r[0]["click -> shown"]):
            print(" | ".join([*(f"{row[k]:.1f}" if k in row else "-" for k in keys), name]))
    print(describe())


if __name__ == "__main__":
    main()
