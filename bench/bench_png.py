"""Time the print-shop PNGs: one image per card of every game for every shop profile (target: under 30 s)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_build import main

from cards.layout import SingleProfile, load_profiles

if __name__ == "__main__":
    shops = [n for n, p in load_profiles().profiles.items() if isinstance(p, SingleProfile)]
    main(["png"], shops, f"shop PNGs ({', '.join(shops)})")
