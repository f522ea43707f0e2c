"""One line saying when and where a benchmark ran, so figures in docs/performance.md can be compared."""

from __future__ import annotations

import os
import platform
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from companion.tables import Tables

T = TypeVar("T")


def cpu_model() -> str:
    info = Path("/proc/cpuinfo")
    if info.exists():
        for line in info.read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine() or "unknown CPU"


def pct(values: list[float], q: float) -> float:
    """The `q` quantile of `values` (the nearest rank, 0.5 the median, 0.95 the p95), nan for none: one rule for
    every bench's p50 / p95."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else float("nan")


def ratio_interval(a: list[float], b: list[float], q: float, draws: int = 2000, seed: int = 1) -> tuple[float, float]:
    """A 95 % interval of `pct(a, q) / pct(b, q)` (the bootstrap: both samples drawn again with replacement,
    `draws` times): a p95 over 30 taps is the second slowest, and swings from run to run; this says how far."""
    rng = random.Random(seed)
    ratios = sorted(pct(rng.choices(a, k=len(a)), q) / pct(rng.choices(b, k=len(b)), q) for _ in range(draws))
    return ratios[int(0.025 * draws)], ratios[int(0.975 * draws) - 1]


def describe() -> str:
    """Date, CPU, core count, Python and load: a loaded machine lowers wall-clock figures most."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {cpu_model()}; nproc {os.cpu_count()}; "
            f"Python {platform.python_version()}; load average {load:.2f}")


def best_of(run: Callable[[], T], repeats: int = 3) -> tuple[float, float, T]:
    """(best CPU seconds, best wall seconds, last result): CPU time is steadier on a shared machine."""
    cpu = wall = float("inf")
    result: T
    for _ in range(repeats):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        result = run()
        cpu = min(cpu, time.process_time() - start_cpu)
        wall = min(wall, time.perf_counter() - start_wall)
    return cpu, wall, result


def page_tables(path: Path) -> Tables:
    """The tables of a store made at `path`, which the companion's pages in this process then use: a bench that
    drives a page through AppTest reads and counts this service's work."""
    from companion import context
    from companion.store import open_store
    from companion.tables import Tables

    service = Tables(open_store(path))
    context.tables = lambda: service
    return service
