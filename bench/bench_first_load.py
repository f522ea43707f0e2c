"""Where a first load's time goes: a timeline of each first visit, in a real browser, before and after a change.

Run: python bench/bench_first_load.py [--loads N] [--game GAME] [--before DIR] [--finished N] [--bare] [--seat]
       [--wifi MBIT]

First loads only (`bench/bench_browser.py` measures them too, with the taps; this one says where they go). Every
server is up at once, this checkout and `--before DIR` (another checkout, e.g. a detached worktree of the commit
before), each with one table of GAME and `--finished` finished tables, and with `--bare` the bare page under plain
`streamlit run`; the loads are dealt out in rounds that take the servers in turn, so a shared machine's load falls
on all of them alike. Each load is a new phone (a fresh browser context: nothing cached) opening the table page as a spectator
(until its log head `span.muster-head` is on the page), with `--seat` also at a seat's link (each visit takes the
seat over, as a seat's new phone does), or the lobby (until "Tables in progress" and its buttons are), in headless
Chromium at 390x844, on one CPU of its own (`taskset`, as bench_browser's phones). On this machine the phone and
the server share the loopback, where bytes cost nothing; `--wifi MBIT` puts a link of that many megabits a second
between each phone and this checkout's server and `--before`'s (`Wifi`), as a phone on a table's Wi-Fi has.

Each visit's timeline, from the navigation's start, on the page's own clock (milliseconds, p50 over the visits):
the HTML's last byte; DOMContentLoaded; the scripts and styles fetched (how many, bytes sent over the wire and
bytes they unpack to) and when the last arrived; the websocket's creation and opening; the first message the
server sent on it and the last before the page was ready (the first script run: what the server did between
is the page's run); the first contentful paint; ready. The phone's main thread's busy time (Chromium's counters) and
the server's own CPU per visit (from /proc) too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from harness import describe

from bench_browser import (PHONE, ROOT, TIMEOUT_MS, checkout_command, cpu_seconds, free_port, launch, pct, server,
                           setup, shipped_command)

# What each visit records about itself, from its first script on (performance.now(): ms since the navigation).
TIMELINE = """
window.__fl = {msgs: 0, sent: 0};
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    const fl = window.__fl;
    fl.wsNew ??= performance.now();
    this.addEventListener('open', () => { fl.wsOpen ??= performance.now(); });
    this.addEventListener('message', (event) => {
      fl.msgs += 1; fl.firstMsg ??= performance.now();
      if (fl.ready === undefined) { fl.lastMsg = performance.now(); fl.bytes = (fl.bytes || 0) + (event.data.size || event.data.byteLength || event.data.length || 0); }
    });
  }
  send(data) { window.__fl.sent += 1; window.__fl.firstSend ??= performance.now(); return super.send(data); }
};
"""
# Ready: the table page's log head; the lobby's "Tables in progress" heading and its buttons (Streamlit draws the
# headings at once and a grey skeleton for each widget until every widget's script has come and run, 0.2-0.5 s
# later: a lobby is usable when its buttons are there); the bare page's button.
TABLE_READY = "!!document.querySelector('span.muster-head')"
LOBBY_READY = ("[...document.querySelectorAll('h2')].some(h => h.textContent.includes('Tables in progress'))"
               " && !!document.querySelector('.st-key-to-lookup button')")
BARE_READY = "!!document.querySelector('.st-key-add button')"
WATCH = """ready => { new MutationObserver((_, seen) => { if (eval(ready)) { seen.disconnect();
  window.__fl.ready ??= performance.now(); } }).observe(document, {childList: true, subtree: true}); }"""
GATHER = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource').filter(r => ['script', 'link', 'css', 'other', 'fetch'].includes(r.initiatorType));
  const paint = Object.fromEntries(performance.getEntriesByType('paint').map(p => [p.name, p.startTime]));
  return {html: nav.responseEnd, htmlBytes: nav.transferSize, dcl: nav.domContentLoadedEventEnd,
          files: res.length, wire: res.reduce((s, r) => s + r.transferSize, 0),
          unpacked: res.reduce((s, r) => s + r.decodedBodySize, 0),
          lastFile: Math.max(0, ...res.map(r => r.responseEnd)), fcp: paint['first-contentful-paint'], ...window.__fl};
}"""
STEPS = [("html", "HTML's last byte"), ("dcl", "DOMContentLoaded"), ("lastFile", "last script/style arrived"),
         ("wsNew", "websocket made"), ("wsOpen", "websocket open"), ("firstSend", "page asks for its run"),
         ("firstMsg", "first message from the server"), ("lastMsg", "last message before ready"),
         ("fcp", "first contentful paint"), ("ready", "ready (the content is on the page)")]
# The page's main thread, from Chromium's own counters (ms, up to 200 ms after ready): all its tasks, and of them
# scripts, style and layout. Under load a task's wall time grows too, but less than the load's wait does.
BUSY = {"TaskDuration": "phone's main thread busy", "ScriptDuration": "of it, scripts",
        "RecalcStyleDuration": "of it, styles", "LayoutDuration": "of it, layout"}
COUNTS = [*BUSY.items(), ("files", "files fetched"), ("wire", "bytes over the wire"), ("unpacked", "bytes unpacked"),
          ("msgs", "websocket messages"), ("bytes", "websocket bytes before ready"), ("cpu", "server CPU, ms")]


class Wifi:
    """A phone's Wi-Fi between it and the server: a TCP proxy on its own thread whose replies share `mbit` Mbit/s
    (one link for every connection, as a phone's radio is; the requests pass as they come). Chromium's own
    throttling (DevTools' network conditions) stalled Streamlit's page at its first script in this Chromium."""

    def __init__(self, port: int, mbit: float) -> None:
        self.target, self.rate, self.free_at = port, mbit * 1e6 / 8, 0.0
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        started = threading.Event()

        async def serve() -> None:
            await asyncio.start_server(self.connect, "127.0.0.1", self.port)
            started.set()

        threading.Thread(target=lambda: (self.loop.run_until_complete(serve()), self.loop.run_forever()),
                         daemon=True).start()
        started.wait()

    async def connect(self, phone_in: Any, phone_out: Any) -> None:
        server_in, server_out = await asyncio.open_connection("127.0.0.1", self.target)

        async def pipe(source: Any, sink: Any, paced: bool) -> None:
            try:
                while chunk := await source.read(16_384):
                    if paced:
                        now = self.loop.time()
                        self.free_at = max(now, self.free_at) + len(chunk) / self.rate
                        await asyncio.sleep(self.free_at - now)
                    sink.write(chunk)
                    await sink.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                sink.close()

        await asyncio.gather(pipe(phone_in, server_out, False), pipe(server_in, phone_out, True))


def visit(browser: Any, url: str, ready: str, pid: int) -> dict[str, float]:
    """One first visit by a new phone: its timeline (ms) and the server's CPU meanwhile."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(TIMELINE + f"({WATCH})({ready!r});")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    cpu0 = cpu_seconds(pid)
    start = time.perf_counter()
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    page.wait_for_function(ready, timeout=TIMEOUT_MS, polling=5)
    wall = (time.perf_counter() - start) * 1000
    page.wait_for_timeout(200)
    found: dict[str, float] = page.evaluate(GATHER)
    found["cpu"] = (cpu_seconds(pid) - cpu0) * 1000
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    found.update({name: metrics.get(name, 0) * 1000 for name in BUSY})
    found["wall"] = wall
    context.close()
    return found


def serve_pages(stack: contextlib.ExitStack, args: argparse.Namespace) -> list[tuple[str, str, str, int]]:
    """Every server up at once (with `args.bare` the bare page under plain `streamlit run`, `args.before`'s checkout,
    this one), each Muster server with one table of `args.game` and `args.finished` finished tables: the pages to
    visit as (name, url, ready selector, server pid)."""
    pages: list[tuple[str, str, str, int]] = []
    if args.bare:
        port = free_port()
        proc = stack.enter_context(server(shipped_command(port), dict(os.environ, PYTHONPATH=str(ROOT)), port, ROOT))
        pages.append(("bare page, plain `streamlit run`", f"http://127.0.0.1:{port}/", BARE_READY, proc.pid))
    checkouts = ([("before", args.before.resolve())] if args.before else []) + [("after" if args.before else "this", ROOT)]
    for name, checkout in checkouts:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        table = setup(checkout, tmp, args.game)
        if args.finished:
            setup(checkout, tmp, args.game, args.finished)
        port = free_port()
        env = dict(os.environ, PYTHONPATH=str(checkout), MUSTER_DATA_DIR=tmp, MUSTER_URL=f"http://127.0.0.1:{port}")
        proc = stack.enter_context(server(checkout_command(checkout, port), env, port, checkout))
        base = f"http://127.0.0.1:{Wifi(port, args.wifi).port if getattr(args, 'wifi', None) else port}/"
        pages.append((f"table page, {name}", f"{base}?table={table['code']}", TABLE_READY, proc.pid))
        if getattr(args, "seat", False):
            pages.append((f"seat page, {name}", f"{base}?table={table['code']}&seat={table['tokens'][0]}", TABLE_READY,
                          proc.pid))
        pages.append((f"lobby, {name}", base, LOBBY_READY, proc.pid))
    return pages


def arguments(doc: str, loads: int) -> argparse.ArgumentParser:
    """The options every first-load bench takes: which pages, of which servers, how many visits."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--loads", type=int, default=loads, help="first visits per page and server")
    parser.add_argument("--game", default="waterloo")
    parser.add_argument("--before", type=Path, help="another checkout of Muster, measured in the same rounds")
    parser.add_argument("--finished", type=int, default=30, help="finished tables the lobby lists below")
    parser.add_argument("--bare", action="store_true", help="also the bare page under plain `streamlit run`")
    parser.add_argument("--seat", action="store_true", help="also the table page at a seat (its link: the seat's phone)")
    return parser


def main() -> None:
    parser = arguments(__doc__, 6)
    parser.add_argument("--wifi", type=float, metavar="MBIT", help="each phone on a network of MBIT Mbit/s down")
    args = parser.parse_args()
    print(describe() + (f"; each phone on {args.wifi:g} Mbit/s" if args.wifi else ""),
          flush=True)
    with contextlib.ExitStack() as stack:
        from playwright.sync_api import sync_playwright

        pw = stack.enter_context(sync_playwright())
        browser = launch(pw, Path(stack.enter_context(tempfile.TemporaryDirectory())), False)[0]
        pages = serve_pages(stack, args)
        for name, url, ready, pid in pages:  # each server's first page (not measured), as bench_browser's warm-up
            visit(browser, url, ready, pid)
        seen: dict[str, list[dict[str, float]]] = {name: [] for name, *_ in pages}
        for n in range(args.loads):
            order = pages[n % len(pages):] + pages[:n % len(pages)]
            for name, url, ready, pid in order:
                seen[name].append(visit(browser, url, ready, pid))
            print(f"round {n + 1}/{args.loads}: {describe()}", flush=True)
    names = list(seen)
    print("\n| p50 over the visits (ms from navigation) | " + " | ".join(names) + " |")
    print("| --- |" + " --- |" * len(names))
    median = (lambda rows, key: pct([r[key] for r in rows if r.get(key) is not None], 0.5))
    for key, label in STEPS + COUNTS:
        print(f"| {label} | " + " | ".join(f"{median(seen[n], key):,.0f}" for n in names) + " |")
    print("| first load, wall (p50 / p95) | "
          + " | ".join(f"{median(seen[n], 'wall'):,.0f} / {pct([r['wall'] for r in seen[n]], 0.95):,.0f}" for n in names)
          + " |")
    print(describe())


if __name__ == "__main__":
    main()
