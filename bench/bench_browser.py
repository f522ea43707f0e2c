"""What players wait for, measured in a real browser: two phones at one table against a real server.

Run: python bench/bench_browser.py [--taps N] [--game GAME] [--finished N]

Headless Chromium (Playwright, /usr/bin/chromium) at 390x844 drives two phones. In the same run
the same phone script is played against a bare Streamlit page (`bench/bare_app.py`: one button
appending to a shared list, with the table page's polling), which is the floor Streamlit sets.
Figures (p50 / p95):
- tap -> own screen updated, and tap -> the other phone shows it;
- table page and lobby, first load (a new browser context each time);
- server CPU per tap (user+system time of the server process, including the other phone's redraw);
- server CPU per second of an open, idle table page;
- the lobby's server CPU with few and with many finished tables.
Every page marks the log head it drew in `<span class="muster-head" data-head=N>`; a phone has
"shown" a tap when that number reaches the tap's. The load average is printed with the figures: a
busy machine is reported as busy.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from harness import describe

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

from companion.server import streamlit_command  # noqa: E402
from companion.store import DB_NAME, open_store  # noqa: E402
from companion.tables import Tables  # noqa: E402

PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 20_000
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else float("nan")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU of one process, from /proc (the server is one process: Streamlit's)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


@contextmanager
def server(command: list[str], env: dict[str, str], port: int) -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
    marks = page.locator("span.muster-head")
    if not marks.count():
        return -1
    return int(marks.last.get_attribute("data-head") or -1)


def open_phone(browser: Browser, url: str) -> tuple[Page, float]:
    """A new phone (fresh context, empty cache) and how long the page took to show its first content."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url)
    page.locator("span.muster-head").first.wait_for(state="attached", timeout=TIMEOUT_MS)
    return page, time.perf_counter() - start


def settle(*pages: Page) -> None:
    for page in pages:
        page.wait_for_timeout(300)


class Run:
    """One server's figures, gathered by the same phone script."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.own: list[float] = []
        self.other: list[float] = []
        self.cpu_tap: list[float] = []
        self.first_load: list[float] = []
        self.idle_cpu_per_s = float("nan")

    def line(self) -> str:
        def ms(values: list[float]) -> str:
            return f"{pct(values, 0.5) * 1000:6.0f} / {pct(values, 0.95) * 1000:6.0f}"
        return (f"{self.name:<10} own {ms(self.own)} ms | other {ms(self.other)} ms | first load {ms(self.first_load)} ms"
                f" | CPU/tap {ms(self.cpu_tap)} ms | idle {self.idle_cpu_per_s * 1000:5.1f} ms CPU/s")


def play(run: Run, pid: int, phones: list[Page], taps: int, tap: Callable[[Page], bool]) -> None:
    """`taps` taps, each on the first phone (by turns) that has a move; times its own update and the other's."""
    for n in range(taps):
        before = max(head(p) for p in phones)
        order = phones[n % 2:] + phones[:n % 2]
        mover = next((p for p in order if tap(p)), None)
        if mover is None:
            for p in phones:  # nobody had a move yet: let the pages catch up
                p.wait_for_timeout(200)
            continue
        start, cpu0 = time.perf_counter(), cpu_seconds(pid)
        other = next(p for p in phones if p is not mover)
        seen: dict[int, float] = {}
        while len(seen) < 2:
            for i, page in enumerate((mover, other)):
                if i not in seen and head(page) >= before + 1:
                    seen[i] = time.perf_counter() - start
            if time.perf_counter() - start > 20:
                raise TimeoutError(f"a phone never showed log head {before + 1}")
            mover.wait_for_timeout(10)
        run.own.append(seen[0])
        run.other.append(seen[1])
        settle(mover, other)
        run.cpu_tap.append(cpu_seconds(pid) - cpu0)


def idle(run: Run, pid: int, seconds: float) -> None:
    cpu0 = cpu_seconds(pid)
    time.sleep(seconds)
    run.idle_cpu_per_s = (cpu_seconds(pid) - cpu0) / seconds


def tap_bare(page: Page) -> bool:
    page.get_by_role("button", name="Add").click()
    return True


def tap_move(page: Page) -> bool:
    """Click the first move this phone is offered, confirming it when the page asks (a move that
    cannot be taken back opens a "Yes, do it" dialog); the confirmation is part of the tap."""
    buttons = page.locator(".st-key-moves .stButton button")
    if not buttons.count():
        return False
    buttons.first.click()
    confirm = page.get_by_role("button", name="Yes, do it")
    try:
        confirm.wait_for(timeout=1500)
    except PlaywrightTimeout:
        return True
    confirm.click()
    return True


def bench_bare(browser: Browser, args: argparse.Namespace, env: dict[str, str]) -> Run:
    run = Run("bare")
    port = free_port()
    command = streamlit_command(port)
    command[command.index(str(ROOT / "companion" / "app.py"))] = str(ROOT / "bench" / "bare_app.py")
    with server(command, env, port) as proc:
        url = f"http://127.0.0.1:{port}/"
        phones = []
        for _ in range(2):
            page, took = open_phone(browser, url)
            phones.append(page)
            run.first_load.append(took)
        for _ in range(args.loads - 2):
            page, took = open_phone(browser, url)
            run.first_load.append(took)
            page.context.close()
        settle(*phones)
        play(run, proc.pid, phones, args.taps, tap_bare)
        idle(run, proc.pid, args.idle)
    return run


def bench_muster(browser: Browser, args: argparse.Namespace, env: dict[str, str]) -> tuple[Run, dict[str, Any]]:
    run = Run("muster")
    lobby: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(env, MUSTER_DATA_DIR=tmp)
        store = open_store(Path(tmp) / DB_NAME)
        service = Tables(store)
        table = service.create(args.game, ["Ann", "Bob"], {})
        port = free_port()
        env["MUSTER_URL"] = f"http://127.0.0.1:{port}"
        with server(streamlit_command(port), env, port) as proc:
            base = f"http://127.0.0.1:{port}/"
            urls = [f"{base}?table={table.code}&seat={s.token}" for s in table.seats]
            phones = []
            for url in urls:
                page, took = open_phone(browser, url)
                phones.append(page)
                run.first_load.append(took)
            for _ in range(args.loads - 2):
                page, took = open_phone(browser, f"{base}?table={table.code}")
                run.first_load.append(took)
                page.context.close()
            settle(*phones)
            play(run, proc.pid, phones, args.taps, tap_move)
            idle(run, proc.pid, args.idle)
            for page in phones:
                page.context.close()
            lobby["few"] = lobby_loads(browser, base, proc.pid, args.loads)
            for _ in range(args.finished):
                done = store.create_table(args.game, ["Cy", "Di"], {})
                store.concede(done.id, 0)
            lobby["many"] = lobby_loads(browser, base, proc.pid, args.loads)
        store.close()
    return run, lobby


def lobby_loads(browser: Browser, base: str, pid: int, loads: int) -> tuple[list[float], list[float]]:
    """(first-load seconds, server CPU seconds) of the lobby, each in a fresh context."""
    walls, cpus = [], []
    for _ in range(loads):
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        page = context.new_page()
        cpu0, start = cpu_seconds(pid), time.perf_counter()
        page.goto(base)
        page.get_by_text("Tables in progress").wait_for(timeout=TIMEOUT_MS)
        walls.append(time.perf_counter() - start)
        page.wait_for_timeout(300)
        cpus.append(cpu_seconds(pid) - cpu0)
        context.close()
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=30)
    parser.add_argument("--loads", type=int, default=6, help="first loads measured per page")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle table page measured")
    parser.add_argument("--finished", type=int, default=500, help="finished tables added for the lobby scale figure")
    parser.add_argument("--game", default="warfare")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    print(describe())
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                     args=["--no-sandbox", "--disable-background-networking", "--disable-gpu"])
        bare = bench_bare(browser, args, env)
        muster, lobby = bench_muster(browser, args, env)
        browser.close()
    print(bare.line())
    print(muster.line())
    own_ratio = pct(muster.own, 0.95) / pct(bare.own, 0.95)
    print(f"own-screen p95 ratio muster/bare: {own_ratio:.2f} (aim <= 1.5); other phones p95: "
          f"{pct(muster.other, 0.95) * 1000:.0f} ms (aim <= 700)")
    for key, label in (("few", "lobby, no finished tables"), ("many", f"lobby, {args.finished} finished tables")):
        walls, cpus = lobby[key]
        print(f"{label:<32} first load {pct(walls, 0.5) * 1000:6.0f} / {pct(walls, 0.95) * 1000:6.0f} ms | "
              f"server CPU {pct(cpus, 0.5) * 1000:6.1f} / {pct(cpus, 0.95) * 1000:6.1f} ms")
    print(describe())


if __name__ == "__main__":
    main()
