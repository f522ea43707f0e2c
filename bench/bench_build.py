"""Time the whole home print set: every game as PDF on both paper sizes, plus SVG (target: under 5 s on 2 cores)."""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.build import build_all  # noqa: E402

URL = "http://192.168.1.20:8501"


def cpu() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines() if Path("/proc/cpuinfo").exists() else []:
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown CPU"


def main(formats: list[str], profiles: list[str], label: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        files = build_all(formats=formats, profiles=profiles, out=Path(tmp), url=URL, force=True)
        elapsed = time.perf_counter() - start
    print(f"{label}: {len(files)} files in {elapsed:.2f} s "
          f"({time.strftime('%Y-%m-%d')}, {os.cpu_count()} CPUs, {cpu()}, Python {platform.python_version()})")


if __name__ == "__main__":
    main(["pdf", "svg"], ["home-a4", "home-letter"], "print set (all games, PDF A4 + Letter, SVG)")
