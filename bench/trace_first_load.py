"""Where a first load's main-thread time goes, by script and by phase: Chromium's own trace of new phones.

Run: python bench/trace_first_load.py [--loads N] [--game GAME] [--before DIR] [--finished N] [--bare] [--only TEXT]

`bench_first_load.py` times a first visit and counts the phone's main-thread busy time. This says what that time
is: the same servers and pages (this checkout, `--before DIR`, with `--bare` the bare page under plain `streamlit
run`), each visit a new phone (a fresh browser context, nothing cached) traced from before its navigation to
200 ms after its content showed (CDP `Tracing`, the devtools.timeline categories and V8's sampling profiler in the
trace, so the renderer the navigation lands in is traced whichever process it is). Per page, p50 over the visits:
- the main thread's self time by kind of work (script, style, layout, paint, parse HTML, gc), by phase: to
  DOMContentLoaded (Streamlit's bundle), to the first message of the websocket (the app's boot), to ready (the
  page's elements arriving and drawn);
- per script file: compile and evaluate time (V8's compile, module evaluation), and JavaScript self time (the
  sampling profiler, a DOM call counted for the script that made it); the components' own code by function;
- style recalculations and layouts: how many, and their time, with the elements each restyled and laid out;
- the scripts and style sheets fetched, and when (which chunks the page's elements pulled).
Tracing slows the page itself: read the figures against the bare page traced alike.
"""

from __future__ import annotations

import contextlib
import re
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from harness import describe
from playwright.sync_api import Browser, sync_playwright

from bench_browser import PHONE, TIMEOUT_MS, launch, pct
from bench_first_load import TIMELINE, WATCH, arguments, serve_pages
from trace_tap import KINDS

CATEGORIES = ",".join(["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "v8", "toplevel",
                       "blink.user_timing", "loading", "disabled-by-default-v8.cpu_profiler"])
# V8's compile and evaluate of a script or module, by trace event name (their url in args.data.url or args.fileName)
COMPILE = {"v8.compile", "v8.compileModule", "V8.CompileCode", "v8.produceCache", "v8.produceModuleCache",
           "v8.parseOnBackground", "V8.ScriptCompiler"}
EVALUATE = {"EvaluateScript", "v8.evaluateModule", "v8.run"}
# trace_tap's kinds, and what a first load does that a tap does not: compile and run modules, tier up code
KIND = {**KINDS, **{name: "compile" for name in COMPILE}, "v8.evaluateModule": "script", "V8.HandleInterrupts": "script",
        "V8.BytecodeBudgetInterrupt": "script", "V8.BytecodeBudgetInterruptWithStackCheck": "script",
        "V8.DeoptimizeCode": "script", "v8.newInstance": "script", "LocalWindowProxy::CreateContext": "script",
        "HTMLDocumentParser::MaybeFetchQueuedPreloads": "parse HTML", "Receive mojo message": "loading"}


def short(url: str) -> str:
    """A script's name as the report gives it: Streamlit's chunks by file name, the components' blobs as one."""
    if url.startswith("blob:"):
        return "(components' code, blob:)"
    if not url:
        return "(no script: the browser's own work)"
    name = re.sub(r"\?.*$", "", url).rsplit("/", 1)[-1]
    return re.sub(r"\.[0-9a-f]{8,}\.", ".", name) or url[:50]


def renderer_main(events: list[dict[str, Any]], url: str) -> tuple[int, int]:
    """(pid, tid) of the main thread of the renderer the page's navigation committed in: the thread that compiled
    the page's own scripts (a headless browser's other renderers, its WebUI's, are busy too)."""
    origin = url.split("?")[0].rstrip("/")
    found = [(e["pid"], e["tid"]) for e in events
             if e.get("name") in COMPILE | EVALUATE and url_of(e.get("args", {})).startswith(origin)]
    if not found:
        raise RuntimeError(f"no renderer ran the scripts of {url} in the trace")
    return max(set(found), key=found.count)


def self_times(events: list[dict[str, Any]], pid: int, tid: int) -> list[tuple[float, float, str, dict[str, Any]]]:
    """Each complete event of the thread as (start µs, self µs, name, args), self = its time less its children's."""
    spans = []
    open_: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in sorted((e for e in events if e.get("pid") == pid and e.get("tid") == tid), key=lambda e: e["ts"]):
        if e["ph"] == "X":
            spans.append((e["ts"], e["ts"] + e.get("dur", 0), e["name"], e.get("args", {})))
        elif e["ph"] == "B":
            open_[e["name"]].append(e)
        elif e["ph"] == "E" and open_[e["name"]]:
            b = open_[e["name"]].pop()
            spans.append((b["ts"], e["ts"], e["name"], {**b.get("args", {}), **e.get("args", {})}))
    spans.sort(key=lambda s: (s[0], -s[1]))
    out: list[tuple[float, float, str, dict[str, Any]]] = []
    stack: list[list[Any]] = []  # [start, end, name, args, children's time]

    def close(s: list[Any]) -> None:
        out.append((s[0], max(0.0, (s[1] - s[0]) - s[4]), s[2], s[3]))
        if stack:
            stack[-1][4] += s[1] - s[0]

    for a, b, name, args in spans:
        while stack and stack[-1][1] <= a:
            close(stack.pop())
        stack.append([a, b, name, args, 0.0])
    while stack:
        close(stack.pop())
    return out


def url_of(args: dict[str, Any]) -> str:
    data = args.get("data") or {}
    return str(data.get("url") or args.get("fileName") or data.get("fileName") or args.get("url") or "")


def profile_self(events: list[dict[str, Any]], pid: int, lo: float, hi: float,
                 components: bool = False) -> dict[str, float]:
    """JavaScript self time (ms) by script file within [lo, hi] (trace µs), from the sampling profiler's chunks in the
    trace; a sample in a native function (a DOM call, the garbage collector) counts for the script that called it.
    With `components`, the components' own code's (`_muster/js/`, or a blob) by function instead."""
    frame: dict[int, dict[str, Any]] = {}
    parent: dict[int, int] = {}
    out: dict[str, float] = defaultdict(float)
    t = None
    for e in sorted((e for e in events if e.get("pid") == pid and e.get("name") in ("Profile", "ProfileChunk")),
                    key=lambda e: e["ts"]):
        data = e["args"].get("data", {})
        if e["name"] == "Profile":
            t = data.get("startTime", e["ts"])
            continue
        profile = data.get("cpuProfile", {})
        for node in profile.get("nodes", []):
            frame[node["id"]] = node["callFrame"]
            if "parent" in node:
                parent[node["id"]] = node["parent"]
        if t is None:
            continue
        for sample, delta in zip(profile.get("samples", []), data.get("timeDeltas", [])):
            t += delta
            if lo <= t <= hi:
                node = sample
                while not frame.get(node, {}).get("url") and node in parent:
                    node = parent[node]
                name = frame.get(sample, {}).get("functionName", "")
                url = frame.get(node, {}).get("url", "")
                if components:
                    if url.startswith("blob:") or "/_muster/" in url:
                        own = frame[node].get("functionName") or "(top)"
                        out[f"{short(url)}: {own}" + (f" > {name}" if node != sample and name else "")] += delta / 1000
                    continue
                label = short(url) if url else {"(garbage collector)": "(gc)", "(program)": "(program)",
                                                "(idle)": None, "(root)": None}.get(name, name or "?")
                if label:
                    out[label] += delta / 1000
    return dict(out)


def one_visit(browser: Browser, url: str, ready: str) -> dict[str, Any]:
    """One first visit by a new phone, traced: its phases, and the main thread's time by kind, script and phase."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(TIMELINE + f"({WATCH})({ready!r});")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    events: list[dict[str, Any]] = []
    done: list[bool] = []
    cdp.on("Tracing.dataCollected", lambda p: events.extend(p["value"]))
    cdp.on("Tracing.tracingComplete", lambda p: done.append(True))
    cdp.send("Tracing.start", {"categories": CATEGORIES, "transferMode": "ReportEvents"})
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    page.wait_for_function(ready, timeout=TIMEOUT_MS, polling=5)
    page.wait_for_timeout(200)
    fl = page.evaluate("() => ({...window.__fl, origin: performance.timeOrigin, dcl: "
                       "performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd})")
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(20)
    context.close()
    pid, tid = renderer_main(events, url)
    # the page's clock (ms since its navigation) on the trace's (µs): the navigation's start, as the trace saw it
    starts = [e["ts"] for e in events if e.get("name") == "navigationStart" and e.get("pid") == pid
              and (e["args"].get("data") or {}).get("documentLoaderURL", "").startswith(url.split("?")[0])]
    if not starts:
        raise RuntimeError(f"no navigation to {url} in the trace")
    nav = min(starts)
    at = {k: nav + fl[k] * 1000 for k in ("dcl", "firstMsg", "ready") if fl.get(k) is not None}
    end = at["ready"] + 200_000
    phases = [("to DOMContentLoaded", nav, at["dcl"]), ("to the first ws message", at["dcl"], at.get("firstMsg", at["dcl"])),
              ("to ready", at.get("firstMsg", at["dcl"]), at["ready"]), ("200 ms after", at["ready"], end)]
    found: dict[str, Any] = {"kind": defaultdict(float), "compile": defaultdict(float), "evaluate": defaultdict(float),
                             "phase": defaultdict(float), "other": defaultdict(float), "style": defaultdict(float), "fetched": {},
                             "ready": fl["ready"], "dcl": fl["dcl"], "firstMsg": fl.get("firstMsg", 0)}
    for start, self_us, name, args in self_times(events, pid, tid):
        if name in ("RunTask", "ThreadControllerImpl::RunTask") or not nav <= start <= end:
            continue
        ms = self_us / 1000
        kind = KIND.get(name, "gc" if name.startswith("V8.GC") else "other")
        phase = next(p for p, lo, hi in phases if start <= hi or p == "200 ms after")
        found["kind"][kind] += ms
        if kind == "other":
            found["other"][name] += ms
        found["phase"][f"{phase}: {kind}"] += ms
        if name in COMPILE:
            found["compile"][short(url_of(args))] += ms
        elif name in EVALUATE:
            found["evaluate"][short(url_of(args))] += ms
        if name in ("UpdateLayoutTree", "Layout"):
            found["style"][f"{phase}: {name} count"] += 1
            found["style"][f"{phase}: {name} ms"] += ms
            count = (args.get("elementCount") or (args.get("endData") or {}).get("elementCount")
                     or (args.get("beginData") or {}).get("dirtyObjects") or 0)
            found["style"][f"{phase}: {name} elements"] += count
    for e in events:
        if e.get("name") == "ResourceSendRequest":
            data = e["args"].get("data", {})
            u = data.get("url", "")
            if u.startswith("http://127.0.0.1") and (re.search(r"\.(m?js|css|woff2?|ttf|svg|png)(\?|$)", u) or "_muster" in u):
                found["fetched"][short(u)] = round((e["ts"] - nav) / 1000)
    found["js"] = profile_self(events, pid, nav, end)
    found["js by phase"] = {f"{phase}: {script}": ms for phase, lo, hi in phases
                            for script, ms in profile_self(events, pid, lo, hi).items()}
    found["components"] = profile_self(events, pid, nav, end, components=True)
    return found


def report(name: str, visits: list[dict[str, Any]]) -> None:
    print(f"\n## {name}: n={len(visits)}; ready p50 {pct([v['ready'] for v in visits], 0.5):,.0f} ms "
          f"(DOMContentLoaded {pct([v['dcl'] for v in visits], 0.5):,.0f}, first ws message "
          f"{pct([v['firstMsg'] for v in visits], 0.5):,.0f}) — tracing slows it")
    for part, label, floor in (("kind", "main thread self time by kind (ms, p50)", 0.5),
                               ("phase", "by phase and kind", 1.0), ("other", "of it, other work by trace event", 3.0),
                               ("js", "JavaScript self time by script", 1.0),
                               ("js by phase", "of it, by phase", 3.0),
                               ("components", "the components' own code, by function", 0.5),
                               ("compile", "compile by script", 0.5), ("evaluate", "evaluate by script", 0.5),
                               ("style", "style recalcs and layouts (count, ms, elements), by phase", 0.0)):
        keys = sorted({k for v in visits for k in v[part]})
        rows = [(k, pct([v[part].get(k, 0.0) for v in visits], 0.5)) for k in keys]
        rows = [r for r in rows if r[1] >= floor]
        total = sum(r[1] for r in rows) if part in ("kind", "js") else None
        print(f"  {label}" + (f": total {total:,.1f}" if total is not None else ""))
        for k, v in sorted(rows, key=lambda r: -r[1]) if part != "style" else rows:
            print(f"    {k:<64} {v:9.1f}")
    fetched = sorted({k: pct([v["fetched"][k] for v in visits if k in v["fetched"]], 0.5)
                      for v in visits for k in v["fetched"]}.items(), key=lambda kv: kv[1])
    print(f"  fetched ({len(fetched)} scripts, sheets, fonts; ms from navigation, p50):")
    for k, v in fetched:
        print(f"    {v:6,.0f}  {k}")


def main() -> None:
    parser = arguments(__doc__, 4)
    parser.add_argument("--only", help="only the pages whose name contains this (e.g. 'lobby')")
    args = parser.parse_args()
    print(describe(), flush=True)
    with contextlib.ExitStack() as stack:
        pw = stack.enter_context(sync_playwright())
        browser = launch(pw, Path(stack.enter_context(tempfile.TemporaryDirectory())), False)[0]
        pages = [p for p in serve_pages(stack, args) if not args.only or args.only in p[0]]
        for name, url, ready, _ in pages:  # each server's first page (not measured)
            one_visit(browser, url, ready)
        seen: dict[str, list[dict[str, Any]]] = {name: [] for name, *_ in pages}
        for n in range(args.loads):
            for name, url, ready, _ in pages[n % len(pages):] + pages[:n % len(pages)]:
                seen[name].append(one_visit(browser, url, ready))
            print(f"round {n + 1}/{args.loads}: {describe()}", flush=True)
    for name, visits in seen.items():
        report(name, visits)
    print(describe())


if __name__ == "__main__":
    main()
