"""The few statistics of the balance report, each with its n and a 95% interval.

Rates use Wilson's score interval (engine.bots.duel.wilson: sound near 0 and 1 and for small n). A
paired difference (the removal test: the same seeds with and without a card) uses the mean of the
per-seed differences and its normal interval, which needs no assumption about how the two games of a
seed are related. Every float is rounded to 4 places so the report is the same text on every machine.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from engine.bots.duel import wilson

Z = 1.96
EDGE = 0.01
"""The seat edge a designer wants to see: one percentage point."""
PERCENTILES = (5, 25, 50, 75, 95)


def r(x: float) -> float:
    return round(x, 4)


def rate(wins: int, n: int, baseline: float | None = None, counted: str = "wins") -> dict[str, Any]:
    """A rate (`counted` of n: wins by default) with its Wilson interval; with a baseline, also the effect
    (rate - baseline) and whether the interval excludes it (`flag`)."""
    p, low, high = wilson(wins, n, Z)
    out: dict[str, Any] = {"n": n, counted: wins, "rate": r(p), "low": r(low), "high": r(high)}
    if baseline is not None:
        out["effect"] = r(p - baseline)
        out["flag"] = n > 0 and (low > baseline or high < baseline)
    return out


def paired(diffs: Sequence[float]) -> dict[str, Any]:
    """The mean of paired differences with its 95% normal interval; `flag` when it excludes zero."""
    n = len(diffs)
    if n < 2:
        return {"n": n, "effect": r(diffs[0]) if n else 0.0, "low": None, "high": None, "flag": False}
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = Z * math.sqrt(var / n)
    return {"n": n, "effect": r(mean), "low": r(mean - half), "high": r(mean + half),
            "flag": mean - half > 0 or mean + half < 0}


def edge_games(p: float) -> int:
    """Games needed for a 95% interval of +-1 point around a win rate near p (at least p = 0.5's spread when
    p is unknown): n = z^2 p (1 - p) / 0.01^2."""
    p = min(max(p, 0.0), 1.0)
    return math.ceil(Z * Z * max(p * (1 - p), 1e-9) / (EDGE * EDGE))


def histogram_summary(hist: Mapping[str, int]) -> dict[str, Any]:
    """Mean, percentiles (nearest rank), min, max and the histogram itself, from counts per value."""
    pairs = sorted((int(v), c) for v, c in hist.items())
    n = sum(c for _, c in pairs)
    if n == 0:
        return {"n": 0}
    out: dict[str, Any] = {"n": n, "mean": r(sum(v * c for v, c in pairs) / n), "min": pairs[0][0],
                           "max": pairs[-1][0]}
    for q in PERCENTILES:
        rank, seen = max(1, math.ceil(q / 100 * n)), 0
        for v, c in pairs:
            seen += c
            if seen >= rank:
                out[f"p{q}"] = v
                break
    out["counts"] = [[v, c] for v, c in pairs]
    return out
