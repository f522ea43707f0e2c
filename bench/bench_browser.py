"""What players wait for, measured in a real browser: two phones at one table against a real server.

Run: python bench/bench_browser.py [--taps N] [--game GAME] [--before DIR] [--bare-elements N] [--markdown FILE]
       [--shared-cpus] [--postgres] [--interleave ROUNDS [--bare-component]]

`--before DIR` runs the same phone script, in the same run, against another checkout of Muster
(e.g. `git archive <commit> | tar -x -C DIR`), so a change is measured before and after on the
same machine at the same moment. `--bare-elements N` adds the bare page redrawing N more elements per
tap (half markdown lines, half buttons: about what a table part redraws), to tell Streamlit's cost
per element from Muster's own. `--markdown FILE` writes the figures as the table
docs/performance.md shows. `--interleave ROUNDS` measures taps only, with every server up at once (the bare
page under plain `streamlit run`, the `--before` checkout, this one) and the taps dealt out in ROUNDS rounds
that take the servers in turn, so a swing of a shared machine's load falls on all of them alike; then the open
pages' idle server CPU, `--idle` seconds a server, in as many rounds taken in turn; each p95 ratio with its 95 %
interval (bootstrap: a p95 over 30 taps is the second slowest). `--bare-component` adds the bare page with its
button and mark drawn by a components-v2 element in a fragment, as Muster's table part is (`BARE_COMPONENT=1`):
the floor of Streamlit's public component API, apart from what Muster's own run and redraw cost.

Headless Chromium (Playwright, /usr/bin/chromium) at 390x844 drives two phones, each in a browser pinned to a
CPU of its own (as each phone is its own device; `--shared-cpus`: one browser on every CPU, as before). In the same run
the same phone script is played against a bare Streamlit page (`bench/bare_app.py`: one button
appending to a shared list, with the table page's polling), which is the floor Streamlit sets.
Figures (p50 / p95):
- tap -> own screen updated, and tap -> the other phone shows it;
- table page and lobby, first load (a new browser context each time), and the table page again by a
  phone that opened it before (a new tab in the same context: Streamlit's scripts are cached); the bare
  page runs on the companion's own server start (`companion.launch`, as `muster app` does), and its first
  loads are also measured under plain `streamlit run` (Streamlit's server as it ships);
- server CPU per tap (user+system time of the server process, including the other phone's redraw);
- server CPU per second of an open, idle table page;
- the lobby's first load and server CPU with 30 and with 500 finished tables;
- move committed -> the other phone shows it, timed by the browser itself (below). `--postgres`
  measures instead two servers on one PostgreSQL (started here, durable: fsync and synchronous
  commits on), one phone on each, so every move crosses servers: commit and NOTIFY, the other
  server's listener wakes its page, the redraw reaches the phone.
Every page marks the log head it drew in `<span class="muster-head" data-head=N>`; a phone has
"shown" a tap when that number reaches the tap's. Each page records (a MutationObserver) when each log
head first appeared, and when it last received a click, on the machine's clock. A tap is timed from the
click that makes the move (the move button, or "Yes, do it" for a move the page asks about first), as
the page received it, to that moment on each phone; for
"committed -> other phone", that moment is compared with the entry's `at` (the server's clock as it
wrote the entry, just before its commit). So the bench's own looking at the pages (plain CSS queries,
the same for the bare page and Muster) is in no figure. A tap that only picks (a card in a panel's own move
builder, such as medieval's card and then its column) changes no log head: it is timed to the moment its phone
drew the table part anew (a surface block added), and counted among the "picks"; the other phone has nothing
to show for it.
The load average is printed with the figures: a busy machine is reported as busy.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from harness import describe, pct, ratio_interval

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

from companion.store import DB_NAME, Store, open_store  # noqa: E402
from companion.tables import Tables  # noqa: E402

PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 90_000  # a first load on a busy machine, before the games were loaded at server start, took over 20 s
LOST_S = 10.0  # a tap that neither shows nor asks to be confirmed within this long is counted as lost
LOST: list[float] = []  # when each lost tap was given up on (reported with the figures)
MISSES = [0]  # taps in a row that came to nothing: the next tap tries the next button
LOBBY_FINISHED = (30, 500)  # the lobby's figures at these numbers of finished tables
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU of one process, from /proc (the server is one process: Streamlit's)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


@contextmanager
def server(command: list[str], env: dict[str, str], port: int, cwd: Path) -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        else:
            raise RuntimeError(f"the server on port {port} did not start")
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def head(page: Page) -> int:
    """The log head the page shows (its last `span.muster-head`), or -1. Read by the page's own DOM query: the
    bench looks every 10 ms while a tap is timed, and a Playwright locator's look (two round trips, its own query
    engine run in the page through every shadow root) took 3-4 ms against this one's 1.1-1.3 (100 looks at a
    waterloo and a hexbattle table, 2026-11-27)."""
    return int(page.evaluate(HEAD_NOW))


HEAD_NOW = """() => { const marks = document.querySelectorAll("span.muster-head");
  return marks.length ? Number(marks[marks.length - 1].dataset.head) : -1; }"""


# In each page: when each log head first showed, and when it was last tapped, in ms since the epoch (the
# machine's clock, as the server's).
HEAD_CLOCK = """() => {
  window.__heads = window.__heads || {};
  const now = """ + HEAD_NOW + """;
  const note = () => {
    const head = now();
    if (head >= 0 && !(head in window.__heads)) window.__heads[head] = performance.timeOrigin + performance.now();
  };
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true, attributes: true});
  note();
  // When the table part was drawn anew: a surface block added (a tap that only picks, in a panel's move builder,
  // redraws it without a new log head). A question asked on the phone itself (.mp-ask) is not a redraw.
  window.__drawn = window.__drawn || [];
  new MutationObserver((records) => {
    if (records.some((r) => [...r.addedNodes].some((n) => n.nodeType === 1 && n.matches(".sf-block, .sf-group"))))
      window.__drawn.push(performance.timeOrigin + performance.now());
  }).observe(document.body, {subtree: true, childList: true});
  // When the phone was tapped: the click as the page received it, once the bench's click had found its button.
  document.addEventListener("click", () => { window.__tapped = performance.timeOrigin + performance.now(); }, true);
}"""


def tapped_at(page: Page) -> float:
    """When (s since the epoch) the page last received a click."""
    return float(page.evaluate("() => window.__tapped")) / 1000


def open_phone(browser: Browser, url: str) -> tuple[Page, float]:
    """A new phone (fresh context, empty cache) and how long the page took to show its first content."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page, took = open_page(context.new_page(), url)
    page.evaluate(HEAD_CLOCK)
    return page, took


def open_page(page: Page, url: str, ready: str = "span.muster-head") -> tuple[Page, float]:
    """Open `url` in `page`; how long until `ready` (a CSS selector, or text=…) is on the page."""
    start = time.perf_counter()
    page.goto(url)
    page.locator(ready).first.wait_for(state="attached", timeout=TIMEOUT_MS)
    return page, time.perf_counter() - start


def first_loads(browser: Browser, url: str, loads: int, run: Run, ready: str = "span.muster-head") -> list[float]:
    """`loads` first visits of `url`, each by a new phone (fresh context: nothing cached), and after each a
    return visit by the same phone in a new tab (its browser cache and compiled scripts kept, as a phone that
    opened the companion before has them); the first visits' times are returned, the return visits' kept."""
    took = []
    for _ in range(loads):
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        took.append(open_page(context.new_page(), url, ready)[1])
        run.return_load.append(open_page(context.new_page(), url, ready)[1])
        context.close()
    return took


def drawn_after(page: Page, start: float) -> float | None:
    """When (s since the epoch) the page first drew its table part anew at or after `start`, or None."""
    at = page.evaluate("s => (window.__drawn || []).find((t) => t >= s) ?? null", start * 1000)
    return None if at is None else float(at) / 1000


def picked_at(page: Page, before: int, start: float) -> float | None:
    """When a tap made at `start` that made no move (a pick) was drawn: the page still at log head `before`, its
    table part drawn anew since; None for a move, a game's end, or nothing drawn yet."""
    drawn = drawn_after(page, start)
    return drawn if drawn is not None and 0 <= head(page) <= before else None


def shown_at(page: Page, head: int) -> float:
    """When (s since the epoch) the page first showed a log head of at least `head`."""
    return float(page.evaluate("n => Math.min(...Object.entries(window.__heads).filter(([h]) => +h >= n)"
                               ".map(([, t]) => t)) / 1000", head))


def committed(store: Store, table_id: int) -> Callable[[int], float]:
    """When the entry at log head `n` was written (the server's clock, just before its commit)."""
    return lambda n: store.log(table_id, n - 1)[0].at


def settle(*pages: Page) -> None:
    """Let each page finish its run (a tap on a button that is being redrawn can come to nothing)."""
    for page in pages:
        page.wait_for_timeout(300)
        page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')"
                               " || !document.querySelector('[data-testid=stStatusWidget]').innerText.includes('Running')",
                               timeout=TIMEOUT_MS)


class Run:
    """One server's figures, gathered by the same phone script."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.own: list[float] = []
        self.other: list[float] = []
        self.cpu_tap: list[float] = []
        self.first_load: list[float] = []
        self.return_load: list[float] = []  # the same page again, by a phone that opened it before
        self.shipped_load: list[float] = []  # the bare page's first loads under plain `streamlit run`
        self.lag: list[float] = []  # move committed -> the other phone shows it (the browser's own clock)
        self.idle_cpu_per_s = float("nan")
        self.idle_rounds: list[float] = []  # with --interleave: the idle server CPU per page of each round
        self.lobby: dict[int, tuple[list[float], list[float]]] = {}  # finished tables -> (first loads, server CPU)
        self.lost = 0  # taps that came to nothing and were made again
        self.picks = 0  # taps timed that redrew the tapping phone without a move (a panel's move builder)
        self.games = 0  # games played to their end (the tap that ended each is not timed)

    def line(self) -> str:
        return (f"{self.name:<15} own {pair(self.own)}{f' ({self.picks} picks)' if self.picks else ''}"
                f"{f' ({self.games} games ended)' if self.games else ''} | other {pair(self.other)}"
                f" | first load {pair(self.first_load)}"
                f" | return visit {pair(self.return_load)}"
                f" | CPU/tap {pair(self.cpu_tap)} | idle {self.idle_cpu_per_s * 1000:5.1f} ms CPU/s per page"
                + (f" | committed -> other phone {pair(self.lag)} (n={len(self.lag)})" if self.lag else "")
                + (f" | first load under plain `streamlit run` {pair(self.shipped_load)}" if self.shipped_load else ""))


Written = Callable[[int], float]  # a table's log head -> when its entry was written (the server's clock)
Renew = Callable[[], tuple[list[str], Written | None]]  # a new table: its seats' links (and its `Written`)


def play(run: Run, pid: int, phones: list[Page], taps: int, tap: Callable[[Page, int], float | None],
         written: Written | None = None, renew: Renew | None = None) -> None:
    """`taps` taps, each on the first phone (by turns) that has a move; times its own update and the other's,
    and with `written` (log head -> when its entry was written) the lag from the commit to the other phone.
    A tap that ends the game is not timed (its phones open the table's replay, a page of its own): with `renew`
    the phones go on at a new table, else the run stops there.

    A tap is timed from its click (the machine's clock) to the moment each page first held the new log
    head, as the page itself noted it (`HEAD_CLOCK`); the bench only looks, every 10 ms and with a plain
    CSS query, to know when both have it, so its looking neither adds to nor slows what it times."""
    for n in range(taps):
        before = max(head(p) for p in phones)
        order = phones[n % 2:] + phones[:n % 2]
        start: float | None = None
        mover = None
        for page in order:
            start = tap(page, before)
            if start is not None:
                mover = page
                break
        run.lost = len(LOST)
        if mover is None or start is None:
            for p in phones:  # nobody had a move yet: let the pages catch up
                p.wait_for_timeout(200)
            continue
        cpu0 = cpu_seconds(pid)
        other = next(p for p in phones if p is not mover)
        picked = picked_at(mover, before, start)
        if picked is not None:  # a pick: only this phone changes
            run.own.append(picked - start)
            run.picks += 1
            settle(mover, other)
            run.cpu_tap.append(cpu_seconds(pid) - cpu0)
            continue
        while min(head(mover), head(other)) < before + 1 and head(mover) >= 0:
            if time.time() - start > 20:
                raise TimeoutError(f"a phone never showed log head {before + 1}")
            mover.wait_for_timeout(10)
        if head(mover) < 0:  # the game is over: the page is its replay, without a log head's mark
            run.games += 1
            if renew is None:
                return
            urls, written = renew()
            for page, url in zip(phones, urls, strict=True):
                open_page(page, url)
                page.evaluate(HEAD_CLOCK)
            settle(*phones)
            continue
        run.own.append(shown_at(mover, before + 1) - start)
        run.other.append(shown_at(other, before + 1) - start)
        if written is not None:
            run.lag.append(shown_at(other, before + 1) - written(before + 1))
        settle(mover, other)
        run.cpu_tap.append(cpu_seconds(pid) - cpu0)


def idle(run: Run, pid: int, seconds: float, pages: int) -> None:
    cpu0 = cpu_seconds(pid)
    time.sleep(seconds)
    run.idle_cpu_per_s = (cpu_seconds(pid) - cpu0) / seconds / pages


# "Yes, do it" (a plain CSS query: cheap to ask): asked under the move's button in its pad, or, in a checkout
# from before that (`--before`), in the page's dialog.
CONFIRM_YES = ".mp-ask .mp-btn[data-id$='-yes'], [class*='st-key-confirm-yes-'] button"
# A seat's move buttons: a move pad's (a card that cannot join is no tap), or, in a checkout from before
# the pads (`--before`), Streamlit's own buttons; those in view only (imperial's call for reinforcements
# waits in a folded box), which Playwright's `:visible` tells before the click, outside the timed span.
# On the hexbattle board, the hexes where a unit may deploy and those where a drawn tile may be laid (a tap there
# is a move), and the turn's buttons under the board (Draw terrain, Draw bonus card, End turn). Medieval's "On to
# battle N" under a battle's result (a tap that redraws the table for the next placement: timed as a pick).
MOVE_BUTTONS = (".st-key-moves .mp-btn:not([disabled]):visible, .st-key-medieval-result .mp-btn:visible, "
                ".st-key-moves .stButton button:not([disabled]):visible, .hb-mark.hb-deploy, .hb-mark.hb-place, "
                ".st-key-hx-controls .mp-btn:not([disabled]):visible")


# What each tap of `tap_move` was (a button's words, else a board mark's kind), for a bench's rows.
TAPPED: list[str] = []
TAP_NAME = "e => e.textContent.trim().slice(0, 24) || e.getAttribute('class')"


def tap_bare(page: Page, before: int) -> float:
    page.locator(".st-key-add button").click()
    return tapped_at(page)


def tap_move(page: Page, before: int) -> float | None:
    """Click the first move this phone is offered; when the phone asks first ("Yes, do it", a move that
    cannot be taken back), confirm it. The time returned (the machine's clock) is when the page received
    the click that makes the move: Playwright first waits for a button to stop moving (a dialog's opening
    animation), which no player's tap waits for. Only plain CSS queries look at the page meanwhile: a
    query by role and name makes the browser work out every button's name and lay the page out, on the
    page being timed."""
    buttons = page.locator(MOVE_BUTTONS)
    count = buttons.count()
    if not count:
        return None
    button = buttons.nth(MISSES[0] % count)  # after a tap that came to nothing, the next button
    TAPPED.append(button.evaluate(TAP_NAME))  # before the click: outside the timed span
    button.click()
    start = tapped_at(page)
    confirm = page.locator(CONFIRM_YES)
    while time.time() - start < LOST_S:
        if head(page) > before or drawn_after(page, start) is not None:  # a move, or a pick redrawn
            MISSES[0] = 0
            return start
        if page.evaluate("s => document.querySelector(s) !== null", CONFIRM_YES):  # the page's own query, as `head`
            confirm.first.click()
            TAPPED[-1] += " -> yes"
            MISSES[0] = 0
            return tapped_at(page)
        page.wait_for_timeout(10)
    # The click came to nothing: it landed on a button being redrawn (a control that appeared under the finger
    # takes no tap).
    MISSES[0] += 1
    LOST.append(time.time())
    page.screenshot(path=str(Path(tempfile.gettempdir()) / f"bench-lost-tap-{len(LOST)}.png"))
    return None


def checkout_command(checkout: Path, port: int, app: Path | None = None) -> list[str]:
    """The server command of a checkout of Muster (its own `streamlit_command`), optionally for another script."""
    code = f"import json; from companion.server import streamlit_command; print(json.dumps(streamlit_command({port})))"
    found = subprocess.run([sys.executable, "-c", code], cwd=checkout, env=dict(os.environ, PYTHONPATH=str(checkout)),
                           capture_output=True, text=True, check=True)
    command: list[str] = json.loads(found.stdout.strip().splitlines()[-1])
    if app is not None:
        command[command.index(str(checkout / "companion" / "app.py"))] = str(app)
    return command


def bench_bare(browsers: list[Browser], args: argparse.Namespace, elements: int = 0) -> Run:
    """The bare page; with `elements`, that many more (markdown lines and buttons, half each) redrawn per tap."""
    run = Run(f"bare + {elements} elements" if elements else "bare")
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT), BARE_ELEMENTS=str(elements))
    with server(checkout_command(ROOT, port, ROOT / "bench" / "bare_app.py"), env, port, ROOT) as proc:
        url = f"http://127.0.0.1:{port}/"
        phones = []
        for phone in range(2):
            page, took = open_phone(browsers[phone % len(browsers)], url)
            phones.append(page)
            run.first_load.append(took)
        run.first_load += first_loads(browsers[0], url, args.loads - 2, run)
        settle(*phones)
        play(run, proc.pid, phones, args.taps, tap_bare)
        idle(run, proc.pid, args.idle, len(phones))
    if not elements:
        port = free_port()
        with server(shipped_command(port), env, port, ROOT):
            url = f"http://127.0.0.1:{port}/"
            warm = browsers[0].new_context(viewport=PHONE)
            open_page(warm.new_page(), url)  # its first run imports the page
            warm.close()
            run.shipped_load = first_loads(browsers[0], url, args.loads, Run("shipped"))
    return run


def shipped_command(port: int) -> list[str]:
    """The bare page under plain `streamlit run`, with the companion's server flags but none of its own start-up
    (`companion.launch`): Streamlit's server as it ships, Nagle's algorithm left on."""
    command = checkout_command(ROOT, port, ROOT / "bench" / "bare_app.py")
    at = command.index("companion.launch")
    return [*command[:at], "streamlit", *command[at + 1:]]


SETUP = """
import json, sys
from pathlib import Path
from companion.store import DB_NAME, open_store
from companion.tables import Tables
folder, game, finished = sys.argv[1], sys.argv[2], int(sys.argv[3])
store = open_store(Path(folder) / DB_NAME)
if finished:
    for _ in range(finished):
        store.concede(store.create_table(game, ["Cy", "Di"], {}).id, 0)
    print("{}")
else:
    table = Tables(store).create(game, ["Ann", "Bob"], {})
    print(json.dumps({"id": table.id, "code": table.code, "tokens": [s.token for s in table.seats]}))
store.close()
"""


def setup(checkout: Path, folder: str, game: str, finished: int = 0) -> dict[str, Any]:
    """With the checkout's own code (its store's schema may differ): a new table of `game`, or `finished`
    tables that are over."""
    done = subprocess.run([sys.executable, "-c", SETUP, folder, game, str(finished)], cwd=checkout, check=True,
                          env=dict(os.environ, PYTHONPATH=str(checkout)), capture_output=True, text=True)
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def seat_links(base: str, table: dict[str, Any]) -> list[str]:
    """Each seat's link to a table `setup` made, on the server at `base` (ending in /)."""
    return [f"{base}?table={table['code']}&seat={token}" for token in table["tokens"]]


def renewer(checkout: Path, folder: str, game: str, base: str, store: Store | None = None) -> Renew:
    """A new table of `game` in the checkout's store each time a game ends (`play`), with its `Written` when the
    store can be read."""
    def renew() -> tuple[list[str], Written | None]:
        table = setup(checkout, folder, game)
        return seat_links(base, table), (committed(store, table["id"]) if store else None)
    return renew


def bench_muster(browsers: list[Browser], args: argparse.Namespace, name: str, checkout: Path) -> Run:
    run = Run(name)
    with tempfile.TemporaryDirectory() as tmp:
        table = setup(checkout, tmp, args.game)
        port = free_port()
        env = dict(os.environ, PYTHONPATH=str(checkout), MUSTER_DATA_DIR=tmp, MUSTER_URL=f"http://127.0.0.1:{port}")
        with server(checkout_command(checkout, port), env, port, checkout) as proc:
            base = f"http://127.0.0.1:{port}/"
            urls = seat_links(base, table)
            phones = []
            for phone, url in enumerate(urls):
                page, took = open_phone(browsers[phone % len(browsers)], url)
                phones.append(page)
                run.first_load.append(took)
            run.first_load += first_loads(browsers[0], f"{base}?table={table['code']}", args.loads - 2, run)
            settle(*phones)
            # The commit times are read with this checkout's store; another checkout's may differ.
            store = open_store(Path(tmp) / DB_NAME) if checkout == ROOT else None
            play(run, proc.pid, phones, args.taps, tap_move, committed(store, table["id"]) if store else None,
                 renewer(checkout, tmp, args.game, base, store))
            if store:
                store.close()
            idle(run, proc.pid, args.idle, len(phones))
            for page in phones:
                page.context.close()
            finished = 0
            for count in LOBBY_FINISHED:
                setup(checkout, tmp, args.game, count - finished)
                finished = count
                run.lobby[count] = lobby_loads(browsers[0], base, proc.pid, args.loads)
    return run


def bench_two_servers(browsers: list[Browser], args: argparse.Namespace) -> Run:
    """Two servers on one durable PostgreSQL, Ann's phone on one and Bob's on the other: every move is
    made through one server and shown by the other. Server CPU is server A's alone."""
    sys.path.insert(0, str(ROOT / "tests"))
    from postgres_server import PostgresServer

    run = Run("PostgreSQL, 2 servers")
    database = PostgresServer().start(durable=True)
    try:
        url = database.new_database()
        store = open_store(url)
        table = Tables(store).create(args.game, ["Ann", "Bob"], {})
        ports = [free_port(), free_port()]
        envs = [dict(os.environ, PYTHONPATH=str(ROOT), MUSTER_DATABASE_URL=url, MUSTER_URL=f"http://127.0.0.1:{p}")
                for p in ports]
        with server(checkout_command(ROOT, ports[0]), envs[0], ports[0], ROOT) as a, \
                server(checkout_command(ROOT, ports[1]), envs[1], ports[1], ROOT):
            phones = []
            for phone, (port, seat) in enumerate(zip(ports, table.seats)):
                page, took = open_phone(browsers[phone % len(browsers)],
                                        f"http://127.0.0.1:{port}/?table={table.code}&seat={seat.token}")
                phones.append(page)
                run.first_load.append(took)
            settle(*phones)
            play(run, a.pid, phones, args.taps, tap_move, committed(store, table.id))
            for page in phones:
                page.context.close()
        store.close()
    finally:
        database.stop()
    return run


CHROMIUM = "/usr/bin/chromium"
BROWSER_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu"]


def launch(pw: Any, tmp: Path, shared: bool) -> list[Browser]:
    """The phones' browsers. Each phone at a real table is a device of its own, so by default each phone gets a
    browser pinned to a CPU of its own (`taskset`): one phone's redraw then does not slow the other's, which on a
    shared CPU would be charged to Muster alone (its other phone redraws at once, the bare page's only at its
    poll). The server runs on every CPU. With `shared`, or one CPU, or no taskset: one browser for both."""
    cpus = sorted(os.sched_getaffinity(0))
    if shared or len(cpus) < 2 or not shutil.which("taskset"):
        return [pw.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)]
    browsers = []
    for phone, cpu in enumerate(cpus[:2]):
        wrapper = tmp / f"chromium-cpu{cpu}"
        wrapper.write_text(f'#!/bin/sh\nexec taskset -c {cpu} {CHROMIUM} "$@"\n')
        wrapper.chmod(0o755)
        browsers.append(pw.chromium.launch(executable_path=str(wrapper), args=BROWSER_ARGS))
    return browsers


def lobby_loads(browser: Browser, base: str, pid: int, loads: int) -> tuple[list[float], list[float]]:
    """(first-load seconds, server CPU seconds) of the lobby, each in a fresh context."""
    walls, cpus = [], []
    for _ in range(loads):
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        cpu0 = cpu_seconds(pid)
        page, took = open_page(context.new_page(), base, "text=Tables in progress")
        walls.append(took)
        page.wait_for_timeout(300)
        cpus.append(cpu_seconds(pid) - cpu0)
        context.close()
    return walls, cpus


def ms(values: list[float], q: float) -> str:
    return f"{pct(values, q) * 1000:,.0f}"


def pair(values: list[float]) -> str:
    return f"{ms(values, 0.5)} / {ms(values, 0.95)} ms"


def markdown(bare: Run, runs: list[Run], taps: int, loads: int, load: tuple[str, str]) -> str:
    """The figures as docs/performance.md shows them: one column per server, p50 / p95."""
    cols = [bare, *runs]
    rows = [f"Measured {load[0]} to {load[1]} (load average at start and end); {taps} taps, {loads} first loads per page.",
            "",
            "| measure (p50 / p95) | " + " | ".join(r.name for r in cols) + " |",
            "| --- |" + " --- |" * len(cols)]

    def row(label: str, cell: Callable[[Run], str]) -> None:
        rows.append(f"| {label} | " + " | ".join(cell(r) for r in cols) + " |")

    row("tap → own screen", lambda r: pair(r.own))
    row("own screen p95 ÷ bare p95 (aim ≤ 1.5)",
        lambda r: f"{pct(r.own, 0.95) / pct(bare.own, 0.95):.2f}×" if r is not bare else "1.00×")
    row("tap → other phone (aim p95 ≤ 700 ms)", lambda r: pair(r.other))
    row("first load, table page (aim < 1 s)", lambda r: pair(r.first_load))
    row("table page again, a phone that opened it before", lambda r: pair(r.return_load))
    row("first load, the bare page under plain `streamlit run` (Nagle's algorithm on)",
        lambda r: pair(r.shipped_load) if r.shipped_load else "—")
    for count in LOBBY_FINISHED:
        row(f"first load, lobby, {count} finished tables (aim < 1 s)",
            lambda r, c=count: pair(r.lobby[c][0]) if c in r.lobby else "—")
    for count in LOBBY_FINISHED:
        row(f"lobby server CPU, {count} finished tables (aim: flat)",
            lambda r, c=count: pair(r.lobby[c][1]) if c in r.lobby else "—")
    row("move committed → other phone (browser's clock)", lambda r: pair(r.lag) if r.lag else "—")
    row("server CPU per tap (both phones redrawn)", lambda r: pair(r.cpu_tap))
    row("idle table page, server CPU per page (aim < 10 ms/s)", lambda r: f"{r.idle_cpu_per_s * 1000:.1f} ms/s")
    return "\n".join(rows)


def bench_interleaved(browsers: list[Browser], args: argparse.Namespace) -> list[Run]:
    """Taps only, the servers up together, the taps dealt out in rounds that take them in turn (`--interleave`):
    the bare page under plain `streamlit run` (as Streamlit ships), then `--before` if given, then this checkout.
    Each round's load average is printed."""
    with contextlib.ExitStack() as stack:
        players: list[tuple[Run, subprocess.Popen[bytes], list[Page], Callable[[Page, int], float | None], Renew | None]]
        players = []  # (run, server process, its two phones, how a phone taps, a new table when a game ends)
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        port = free_port()
        proc = stack.enter_context(server(shipped_command(port), env, port, ROOT))
        players.append((Run("bare"), proc, [open_phone(browsers[i % len(browsers)], f"http://127.0.0.1:{port}/")[0]
                                            for i in range(2)], tap_bare, None))
        if args.bare_component:  # the same page, its button and mark a components-v2 element in a fragment
            port = free_port()
            proc = stack.enter_context(server(shipped_command(port), dict(env, BARE_COMPONENT="1"), port, ROOT))
            players.append((Run("bare component"), proc,
                            [open_phone(browsers[i % len(browsers)], f"http://127.0.0.1:{port}/")[0] for i in range(2)],
                            tap_bare, None))
        checkouts = ([("Muster, before", args.before.resolve())] if args.before else []) + [("Muster", ROOT)]
        for name, checkout in checkouts:
            tmp = stack.enter_context(tempfile.TemporaryDirectory())
            table = setup(checkout, tmp, args.game)
            port = free_port()
            env = dict(os.environ, PYTHONPATH=str(checkout), MUSTER_DATA_DIR=tmp, MUSTER_URL=f"http://127.0.0.1:{port}")
            proc = stack.enter_context(server(checkout_command(checkout, port), env, port, checkout))
            base = f"http://127.0.0.1:{port}/"
            players.append((Run(name), proc, [open_phone(browsers[i % len(browsers)], url)[0]
                                              for i, url in enumerate(seat_links(base, table))], tap_move,
                            renewer(checkout, tmp, args.game, base)))
        for _, _, phones, _, _ in players:
            settle(*phones)
        for n in range(args.interleave):
            share = args.taps // args.interleave + (n < args.taps % args.interleave)
            order = players[n % len(players):] + players[:n % len(players)]
            for run, proc, phones, tap, renew in order:
                play(run, proc.pid, phones, share, tap, renew=renew)
                settle(*phones)
            print(f"round {n + 1}/{args.interleave}: {describe()}", flush=True)
        for n in range(args.interleave):  # the open pages left idle, the servers taken in turn as the taps were
            order = players[n % len(players):] + players[:n % len(players)]
            for run, proc, phones, _, _ in order:
                idle(run, proc.pid, args.idle, len(phones))
                run.idle_rounds.append(run.idle_cpu_per_s)
        return [run for run, _, _, _, _ in players]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=30)
    parser.add_argument("--loads", type=int, default=6, help="first loads measured per page")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle table page measured")
    parser.add_argument("--game", default="warfare")
    parser.add_argument("--before", type=Path, help="another checkout of Muster to measure in the same run")
    parser.add_argument("--bare-elements", type=int, default=0,
                        help="also measure the bare page redrawing this many more elements per tap (a table part's)")
    parser.add_argument("--bare-component", action="store_true",
                        help="with --interleave: also the bare page with its button and mark a components-v2 element "
                             "in a fragment (the floor Streamlit's public component API sets)")
    parser.add_argument("--markdown", type=Path, help="also write the figures as a Markdown table to this file")
    parser.add_argument("--shared-cpus", action="store_true",
                        help="run both phones in one browser on every CPU (by default each phone's browser has a CPU "
                             "of its own, as each phone is its own device)")
    parser.add_argument("--interleave", type=int, metavar="ROUNDS",
                        help="instead: taps only, every server up at once, the taps dealt out in ROUNDS rounds")
    parser.add_argument("--postgres", action="store_true",
                        help="instead: two servers on one PostgreSQL, a phone on each (needs initdb and pg_ctl)")
    args = parser.parse_args()
    start = describe()
    print(start, flush=True)
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        browsers = launch(pw, Path(tmp), args.shared_cpus)
        print(f"phones' browsers: {'one, on every CPU' if len(browsers) == 1 else 'one per phone, each on a CPU of its own'}",
              flush=True)
        if args.postgres:
            print(bench_two_servers(browsers, args).line())
            print(describe())
            return
        if args.interleave:
            played = bench_interleaved(browsers, args)
            for run in played:
                low, high = ratio_interval(run.own, played[0].own, 0.95)
                print(f"{run.name:<15} own {pair(run.own)} (p95 {pct(run.own, 0.95) / pct(played[0].own, 0.95):.2f}x "
                      f"the bare page's, 95 % interval {low:.2f}-{high:.2f}; n={len(run.own)}"
                      f"{f' ({run.picks} picks)' if run.picks else ''}{f', {run.games} games ended' if run.games else ''}, slowest "
                      f"{', '.join(ms([t], 0) for t in sorted(run.own)[-4:])})"
                      f" | other {pair(run.other)} | CPU/tap {pair(run.cpu_tap)} | idle CPU per page, each round "
                      f"{', '.join(f'{v * 1000:.1f}' for v in run.idle_rounds)} ms/s")
            print(describe())
            return
        bare = bench_bare(browsers, args)
        print(bare.line(), flush=True)
        runs = [bench_bare(browsers, args, args.bare_elements)] if args.bare_elements else []
        if args.before:
            runs.append(bench_muster(browsers, args, "Muster, before", args.before.resolve()))
        runs.append(bench_muster(browsers, args, "Muster" if not args.before else "Muster, after", ROOT))
    end = describe()
    for run in runs:
        print(run.line())
    for run in runs:
        print(f"{run.name}: own-screen p95 ratio to bare {pct(run.own, 0.95) / pct(bare.own, 0.95):.2f} (aim <= 1.5); "
              f"other phones p95 {pct(run.other, 0.95) * 1000:.0f} ms (aim <= 700)")
        for count, (walls, cpus) in run.lobby.items():
            print(f"  lobby, {count:>3} finished tables: first load {pair(walls)} | server CPU {pair(cpus)}")
    lost = ", ".join(f"{r.name} {r.lost - (runs[i - 1].lost if i else 0)}" for i, r in enumerate(runs))
    print(f"taps lost (clicked, but neither shown nor asked about within {LOST_S:.0f} s; made again): {lost}")
    table = markdown(bare, runs, args.taps, args.loads, (start, end))
    print()
    print(table)
    if args.markdown:
        args.markdown.write_text(table + "\n", encoding="utf-8")
    print(end)


if __name__ == "__main__":
    main()
