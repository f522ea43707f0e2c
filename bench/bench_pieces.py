"""Rebuild after renaming one warfare card: how many files are rewritten and how long it takes; and the full build.

Run from a checkout (PYTHONPATH picks which one: measure before and after a change the same way).
"""

from __future__ import annotations

import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from harness import describe

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cards.load import CARDS_ROOT
from generator.build import build_all

URL = "http://192.168.1.20:8501"


def cpu_seconds() -> float:
    """CPU time of this process and every finished descendant (workers, pdftoppm)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(**kwargs: object) -> tuple[dict[Path, int], float, float]:
    start, cpu = time.perf_counter(), cpu_seconds()
    files = build_all(url=URL, **kwargs)  # type: ignore[arg-type]
    return {f: f.stat().st_mtime_ns for f in files}, time.perf_counter() - start, cpu_seconds() - cpu


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root, out = Path(tmp) / "cards", Path(tmp) / "out"
        shutil.copytree(CARDS_ROOT / "warfare", root / "warfare")
        first, wall, cpu = timed(games=["warfare"], out=out, cards_root=root)
        print(f"warfare, every profile and format: {len(first)} files in {wall:.1f} s wall, {cpu:.1f} s CPU")
        csv = root / "warfare" / "cards.csv"
        csv.write_text(csv.read_text(encoding="utf-8").replace("Grenadiers", "Fusilier Guards"), encoding="utf-8")
        again, wall, cpu = timed(games=["warfare"], out=out, cards_root=root)
        rewritten = [f for f in again if first.get(f) != again[f]]
        print(f"after renaming Grenadiers: {len(rewritten)} of {len(again)} files rewritten "
              f"in {wall:.1f} s wall, {cpu:.1f} s CPU")
        full, wall, cpu = timed(out=Path(tmp) / "full", force=True)
        print(f"full build (all games, every profile, pdf+svg+png): {len(full)} files in {wall:.1f} s wall, "
              f"{cpu:.1f} s CPU")
    print(describe())


if __name__ == "__main__":
    main()
