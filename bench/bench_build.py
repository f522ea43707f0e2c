"""Time the whole home print set: every game as PDF on both paper sizes, plus SVG (target: under 5 s on 2 cores)."""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

from harness import describe

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.build import build_all

URL = "http://192.168.1.20:8501"



def cpu_seconds() -> float:
    """CPU time of this process and every finished descendant (workers, pdftoppm)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main(formats: list[str], profiles: list[str], label: str) -> None:
    """Build into a temporary folder; report wall time, CPU time and the machine's load (other work skews wall time)."""
    with tempfile.TemporaryDirectory() as tmp:
        start, cpu_start = time.perf_counter(), cpu_seconds()
        files = build_all(formats=formats, profiles=profiles, out=Path(tmp), url=URL, force=True)
        elapsed, cpu_used = time.perf_counter() - start, cpu_seconds() - cpu_start
    print(f"{label}: {len(files)} files in {elapsed:.2f} s wall, {cpu_used:.2f} s CPU ({describe()})")


if __name__ == "__main__":
    main(["pdf", "svg"], ["home-a4", "home-letter"], "print set (all games, PDF A4 + Letter, SVG)")
