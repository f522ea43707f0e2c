"""Where a tap's time goes in the browser: Chromium's own trace of the tapping phone, bare page and Muster.

Run: python bench/trace_tap.py [--taps N] [--game GAME] [--before DIR]

`bench_browser.py` times a tap from the click to the new log head on the page. This splits that span on the
phone that tapped, with hooks set before the page's own scripts (the page's WebSocket wrapped) and a trace
of the renderer (CDP `Tracing`, the devtools.timeline categories, and V8's CPU profiler for JavaScript's self
time by script):
- click -> websocket send: the click handler (for Muster: surface.js's tap guard and the component trigger);
- send -> the last websocket message before the head showed: the server (its run) and the network;
- that message -> the head on the page (MutationObserver): Streamlit's delta handling and React's render;
- the head -> the frame after it (the next animation frame, then a task after it: painted);
- click -> the last DOM change of the tap (the look of the tap guard's marks, up to 400 ms after);
and, over the span from the send to the frame painted, the renderer's main thread busy time by kind (script,
style, layout, paint) and JavaScript's self time by script (Streamlit's bundle, the components' code).
Tracing slows the page itself; read the figures against the bare page traced alike, and the spans
with `--no-trace` (the hooks only). The taps take turns,
one on the bare page, one on each checkout, so a swing of a shared machine's load falls on all alike.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench_browser import (MOVE_BUTTONS, PHONE, ROOT, checkout_command, free_port, head, launch, pct, server, settle,
                           setup, shipped_command, tap_bare, tap_move)
from harness import describe
from playwright.sync_api import Browser, CDPSession, Page, sync_playwright

# Set before the page's scripts: every websocket frame sent and received, when (ms since the epoch); each log
# head's first showing and the frame after it; the last change of the page's DOM.
HOOKS = """(() => {
  const now = () => performance.timeOrigin + performance.now();
  const t = window.__t = {sent: [], recv: [], heads: {}, painted: {}, changed: 0, tapped: 0};
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...a) {
      super(...a);
      this.addEventListener("message", (e) => t.recv.push([now(), e.data.size || e.data.byteLength || e.data.length || 0]));
    }
    send(d) { t.sent.push(now()); return super.send(d); }
  };
  const note = () => {
    t.changed = now();
    const marks = document.querySelectorAll("span.muster-head");
    if (!marks.length) return;
    const h = marks[marks.length - 1].dataset.head;
    if (h in t.heads) return;
    t.heads[h] = t.changed;
    requestAnimationFrame(() => {
      const c = new MessageChannel();
      c.port1.onmessage = () => { t.painted[h] = now(); };
      c.port2.postMessage(0);
    });
  };
  document.addEventListener("DOMContentLoaded", () => {
    new MutationObserver(note).observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  });
  document.addEventListener("click", () => { t.tapped = window.__tapped = now(); }, true);
})()"""

CATEGORIES = ",".join(["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "toplevel",
                       "disabled-by-default-devtools.timeline.frame", "blink.user_timing"])
KINDS = {  # trace event name -> kind of work (self time; anything else on the main thread is "other")
    "FunctionCall": "script", "EvaluateScript": "script", "v8.compile": "script", "V8.Execute": "script",
    "RunMicrotasks": "script", "TimerFire": "script", "FireAnimationFrame": "script", "EventDispatch": "script",
    "v8.callFunction": "script", "v8.run": "script", "ParseHTML": "parse HTML", "ParseAuthorStyleSheet": "style",
    "UpdateLayoutTree": "style", "RecalculateStyles": "style", "Layout": "layout", "UpdateLayerTree": "paint",
    "Paint": "paint", "PrePaint": "paint", "Layerize": "paint", "Commit": "paint", "CompositeLayers": "paint",
    "MinorGC": "gc", "MajorGC": "gc", "BlinkGC.AtomicPhase": "gc", "V8.GC_SCAVENGER": "gc",
    "HitTest": "layout", "IntersectionObserverController::computeIntersections": "layout",
    "ScheduleStyleRecalculation": "style", "InvalidateLayout": "layout",
}


def open_phone(browser: Browser, url: str) -> Page:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(HOOKS)
    page = context.new_page()
    page.goto(url)
    page.locator("span.muster-head").first.wait_for(state="attached", timeout=90_000)
    return page


class Traced:
    """One phone's CDP session: a trace and a CPU profile around one tap."""

    def __init__(self, page: Page, on: bool) -> None:
        self.page, self.on = page, on
        self.cdp: CDPSession = page.context.new_cdp_session(page)
        self.events: list[dict[str, Any]] = []
        self.done = False
        self.cdp.on("Tracing.dataCollected", lambda p: self.events.extend(p["value"]))
        self.cdp.on("Tracing.tracingComplete", lambda p: setattr(self, "done", True))
        self.cdp.send("Profiler.enable")
        self.cdp.send("Profiler.setSamplingInterval", {"interval": 100})

    def start(self) -> None:
        if not self.on:
            return
        self.events, self.done = [], False
        self.cdp.send("Tracing.start", {"categories": CATEGORIES, "transferMode": "ReportEvents"})
        self.cdp.send("Profiler.start")

    def stop(self) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        if not self.on:
            return [], {}
        profile = self.cdp.send("Profiler.stop")["profile"]
        self.cdp.send("Tracing.end")
        while not self.done:
            self.page.wait_for_timeout(20)
        return self.events, profile


def main_thread(events: list[dict[str, Any]]) -> tuple[int, int]:
    """(pid, tid) of the renderer's main thread."""
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain":
            return e["pid"], e["tid"]
    raise RuntimeError("no renderer main thread in the trace")


def busy(events: list[dict[str, Any]], lo: float, hi: float) -> dict[str, float]:
    """The main thread's self time (ms) by kind of work within [lo, hi] (trace µs)."""
    pid, tid = main_thread(events)
    spans = []  # (start, end, name)
    open_: dict[str, list[float]] = defaultdict(list)
    for e in sorted((e for e in events if e.get("pid") == pid and e.get("tid") == tid), key=lambda e: e["ts"]):
        if e["ph"] == "X":
            spans.append((e["ts"], e["ts"] + e.get("dur", 0), e["name"]))
        elif e["ph"] == "B":
            open_[e["name"]].append(e["ts"])
        elif e["ph"] == "E" and open_[e["name"]]:
            spans.append((open_[e["name"]].pop(), e["ts"], e["name"]))
    spans.sort(key=lambda s: (s[0], -s[1]))
    out: dict[str, float] = defaultdict(float)
    stack: list[list[Any]] = []  # [start, end, name, child time]

    def close(s: list[Any]) -> None:
        a, b = max(s[0], lo), min(s[1], hi)
        if b > a and s[2] != "RunTask" and s[2] != "ThreadControllerImpl::RunTask":
            share = (b - a) / (s[1] - s[0]) if s[1] > s[0] else 0
            out[KINDS.get(s[2], "other")] += max(0.0, (s[1] - s[0]) - s[3]) * share / 1000
        if stack:
            stack[-1][3] += s[1] - s[0]

    for a, b, name in spans:
        while stack and stack[-1][1] <= a:
            close(stack.pop())
        stack.append([a, b, name, 0.0])
    while stack:
        close(stack.pop())
    return dict(out)


def script_self(profile: dict[str, Any], lo: float, hi: float, components: bool = False) -> dict[str, float]:
    """JavaScript self time (ms) by script within [lo, hi] (µs, the profile's clock, the trace's); with
    `components`, the components' code's by function (a native call under it counted as its own)."""
    # a sample in a native function (a DOM call) counts for the script that called it
    parent = {c: n["id"] for n in profile["nodes"] for c in n.get("children", [])}
    frame = {n["id"]: n["callFrame"] for n in profile["nodes"]}

    def caller(node: int) -> int:
        """The node itself if it runs a script's code, else its nearest caller that does (or the root)."""
        while not frame[node].get("url") and node in parent:
            node = parent[node]
        return node

    url: dict[int, str] = {}
    for node in frame:
        at = caller(node)
        where_ = str(frame[at].get("url", "")) or frame[at]["functionName"] or "(program)"
        if not components:
            url[node] = where(where_)
        elif ours(where_):  # the components' code
            name, native = frame[at]["functionName"] or "(top)", frame[node]["functionName"]
            url[node] = f"{name} > {native}" if at != node else name
    out: dict[str, float] = defaultdict(float)
    t = profile["startTime"]
    for sample, delta in zip(profile["samples"], profile["timeDeltas"]):
        t += delta
        if lo <= t <= hi and sample in url:
            out[url[sample]] += delta / 1000
    return dict(out)


def ours(url: str) -> bool:
    """Whether a script is the components' code: a blob (Streamlit runs the code an element carries from one),
    or the file it imports where the server serves it (`companion.components.Frontend`)."""
    return url.startswith("blob:") or "/_muster/js/" in url


def where(url: str) -> str:
    if ours(url):
        return "the components' code (surface.js, sight.js, listen.js)"
    if url.startswith("pptr:") or "__playwright" in url or url.startswith("<anonymous") :
        return "the bench's own looks (Playwright)"
    if "/static/js/" in url:
        return "Streamlit's bundle"
    return {"(garbage collector)": "gc", "(root)": "(idle, or the browser outside script)"}.get(url, url[:40] or "?")


def clock_offset(events: list[dict[str, Any]], tapped_ms: float) -> float:
    """page ms since the epoch minus trace µs/1000, from the click as the trace and the page saw it."""
    clicks = [e["ts"] for e in events if e.get("name") == "EventDispatch"
              and e.get("args", {}).get("data", {}).get("type") == "click"]
    if not clicks:
        raise RuntimeError("no click in the trace")
    return tapped_ms - clicks[-1] / 1000


def one_tap(phones: list[Page], traced: dict[int, Traced], bare: bool, n: int) -> dict[str, Any] | None:
    before = max(head(p) for p in phones)
    order = phones[n % 2:] + phones[:n % 2]
    mover = order[0] if bare else next((p for p in order if p.locator(MOVE_BUTTONS).count()), None)
    if mover is None:
        return None
    t = traced[id(mover)]
    mover.evaluate("() => { window.__t.sent = []; window.__t.recv = []; }")
    t.start()
    start = (tap_bare if bare else tap_move)(mover, before)
    if start is None:
        t.stop()
        return None
    deadline = time.time() + 20
    while head(mover) < before + 1 or not mover.evaluate(f"() => {before + 1} in window.__t.painted"):
        if time.time() > deadline:
            raise TimeoutError("the tap never showed")
        mover.wait_for_timeout(20)
    mover.wait_for_timeout(400)  # the rest of the tap's redraw (the surface after the head, the look after it)
    events, profile = t.stop()
    got = mover.evaluate("() => window.__t")
    h = str(before + 1)
    tapped = got["tapped"]
    sends = [s for s in got["sent"] if s >= tapped - 1]
    sent = sends[0] if sends else tapped
    shown = got["heads"][h]
    recv = [r for r, _ in got["recv"] if sent <= r <= shown]
    last = recv[-1] if recv else sent
    painted = got["painted"][h]
    split = {"click -> ws send": sent - tapped, "ws send -> last frame before head": last - sent,
             "last frame -> head in DOM": shown - last, "head in DOM -> painted": painted - shown,
             "click -> painted": painted - tapped, "click -> last DOM change": got["changed"] - tapped,
             "frames received": float(len(recv)), "KB received": sum(b for r, b in got["recv"]
                                                                     if sent <= r <= shown) / 1000}
    settle(*phones)
    if not t.on:
        return {"split": split, "main": {}, "js": {}, "main (click -> send)": {}, "components' functions": {}}
    offset = clock_offset(events, tapped)
    lo, hi = (sent - offset) * 1000, (painted - offset) * 1000
    return {"split": split, "main": busy(events, lo, hi), "js": script_self(profile, lo, hi),
            "components' functions": script_self(profile, lo, hi, components=True),
            "main (click -> send)": busy(events, (tapped - offset) * 1000, lo)}


def report(name: str, taps: list[dict[str, Any]]) -> None:
    print(f"\n{name}: n={len(taps)}  (p50 / p95 ms)")
    for part in ("split", "main (click -> send)", "main", "js", "components' functions"):
        keys = sorted({k for t in taps for k in t[part]})
        label = {"main": "main thread busy, ws send -> painted", "js": "JS self time, ws send -> painted",
                 "split": "span"}.get(part, part)
        print(f"  {label}:")
        for k in keys:
            v = [t[part].get(k, 0.0) for t in taps]
            print(f"    {k:<36} {pct(v, 0.5):7.1f} / {pct(v, 0.95):7.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=20)
    parser.add_argument("--game", default="waterloo")
    parser.add_argument("--no-trace", action="store_true", help="the hooks only: the spans without tracing's cost")
    parser.add_argument("--before", type=Path, help="another checkout of Muster, traced in the same run")
    args = parser.parse_args()
    print(describe(), flush=True)
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        browsers = launch(pw, Path(tmp), False)
        players = []
        port = free_port()
        stack.enter_context(server(shipped_command(port), dict(os.environ, PYTHONPATH=str(ROOT)), port, ROOT))
        players.append(("bare", [open_phone(browsers[i % len(browsers)], f"http://127.0.0.1:{port}/") for i in range(2)]))
        for name, checkout in ([("Muster, before", args.before.resolve())] if args.before else []) + [("Muster", ROOT)]:
            data = stack.enter_context(tempfile.TemporaryDirectory())
            table = setup(checkout, data, args.game)
            port = free_port()
            env = dict(os.environ, PYTHONPATH=str(checkout), MUSTER_DATA_DIR=data, MUSTER_URL=f"http://127.0.0.1:{port}")
            stack.enter_context(server(checkout_command(checkout, port), env, port, checkout))
            players.append((name, [open_phone(browsers[i % len(browsers)],
                                              f"http://127.0.0.1:{port}/?table={table['code']}&seat={token}")
                                   for i, token in enumerate(table["tokens"])]))
        traced = {id(p): Traced(p, not args.no_trace) for _, phones in players for p in phones}
        for _, phones in players:
            settle(*phones)
        taps: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in players}
        for n in range(args.taps * 2):
            if all(len(v) >= args.taps for v in taps.values()):
                break
            for name, phones in players:
                if len(taps[name]) < args.taps:
                    got = one_tap(phones, traced, name == "bare", n)
                    if got:
                        taps[name].append(got)
    for name, made in taps.items():
        report(name, made)
    print(describe())


if __name__ == "__main__":
    main()
