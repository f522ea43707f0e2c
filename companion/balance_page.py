"""The Balance page (`?page=balance`): the latest `muster balance` report of each game, with Streamlit's own charts.

It reads the balance.json files under $MUSTER_BALANCE_DIR (default `output/balance`, where the README's
command writes them) and shows, per game, the newest: seat win rates with their intervals, the length
histogram and the per-card effects sorted by size, under the same findings and with the same charts as
balance.html.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from balance.findings import findings
from balance.html import card_rows
from companion import links

BALANCE_ENV = "MUSTER_BALANCE_DIR"


def reports_dir() -> Path:
    return Path(os.environ.get(BALANCE_ENV) or "output/balance")


def latest_reports(folder: Path) -> dict[str, dict[str, Any]]:
    """Game id -> its newest report under `folder` (a file that cannot be read as a report is passed over)."""
    found: dict[str, tuple[float, dict[str, Any]]] = {}
    for path in folder.glob("**/balance.json") if folder.is_dir() else []:
        try:
            report = json.loads(path.read_text(encoding="utf-8"))
            game, when = str(report["game"]), path.stat().st_mtime
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if game not in found or when > found[game][0]:
            found[game] = (when, report)
    return {game: report for game, (_, report) in sorted(found.items())}


def _intervals(rows: list[tuple[str, float, float, float, bool]], title: str, baseline: float) -> alt.LayerChart:
    frame = pd.DataFrame([{"name": n, "value": 100 * v, "low": 100 * lo, "high": 100 * hi,
                           "marked": "interval excludes none" if f else "no clear effect"} for n, v, lo, hi, f in rows])
    order = [r[0] for r in rows]
    y = alt.Y("name:N", sort=order, title=None)
    colour = alt.Color("marked:N", scale=alt.Scale(domain=["interval excludes none", "no clear effect"],
                                                   range=["#b3261e", "#1f2a44"]), legend=None)
    bars = alt.Chart(frame).mark_rule(strokeWidth=2).encode(x=alt.X("low:Q", title=title, scale=alt.Scale(zero=False)), x2="high:Q", y=y,
                                                                 color=colour)
    dots = alt.Chart(frame).mark_point(filled=True, size=40).encode(
        x="value:Q", y=y, color=colour, tooltip=["name", "value", "low", "high"])
    rule = alt.Chart(pd.DataFrame({"x": [100 * baseline]})).mark_rule(strokeDash=[4, 3], color="#8a94a6").encode(x="x:Q")
    chart: alt.LayerChart = bars + dots + rule
    return chart


BINS = 30
"""Bars in the length histogram at most (a game's lengths are mostly distinct numbers: one bar each tells nothing)."""


def _histogram(counts: list[list[int]]) -> alt.Chart:
    """Games per band of decisions, in at most BINS equal bands from the shortest game to the longest."""
    low, high = (counts[0][0], counts[-1][0]) if counts else (0, 0)
    width = max(1, -(-(high - low + 1) // BINS))
    bands: dict[int, int] = {}
    for value, games in counts:
        start = low + (value - low) // width * width
        bands[start] = bands.get(start, 0) + games
    frame = pd.DataFrame([{"from": b, "to": b + width, "games": n} for b, n in sorted(bands.items())])
    chart: alt.Chart = alt.Chart(frame, height=200).mark_bar(color="#1f2a44").encode(
        x=alt.X("from:Q", bin=alt.Bin(binned=True), title="decisions per game"), x2="to:Q",
        y=alt.Y("games:Q", title="games"), tooltip=["from", "to", "games"])
    return chart


def _tall(rows: list[Any]) -> int:
    """An interval chart's height in pixels: room for each row's label, and for the axis under a short chart."""
    return 100 + 32 * len(rows)


def _show(report: dict[str, Any]) -> None:
    st.caption(f"{report['games']:,} games, {', '.join(report['players'])}, seats rotated, seed {report['seed']}. "
               "Bars are 95% intervals; red: the interval excludes no effect.")
    with st.container(border=True):
        st.markdown("\n".join(f"- **{topic}.** {text}" for topic, text in findings(report)))
    st.header("Seat advantage")
    seats = [(f"seat {s['seat']}", s["rate"], s["low"], s["high"], s["flag"]) for s in report["seats"]]
    st.altair_chart(_intervals(seats, "wins, % of the games with a winner", 1 / len(seats)), width="stretch",
                    height=_tall(seats))
    st.write(f"A 1-point seat edge needs about {report['edge_games']:,} games to be seen.")
    st.header("Game length")
    st.altair_chart(_histogram(report["length"]["decisions"].get("counts", [])), width="stretch")
    d = report["length"]["decisions"]
    if d.get("n"):
        st.write(f"Median {d['p50']:,} decisions; 5–95%: {d['p5']:,}–{d['p95']:,} (n={d['n']:,}).")
    st.header("Cards")
    label, rows = card_rows(report)
    if rows:
        st.caption(label)
        st.altair_chart(_intervals(rows, "points", 0.0), width="stretch", height=_tall(rows))


def render() -> None:
    st.title("Balance")
    st.button("Back to the tables", on_click=links.go, kwargs={}, key="balance-back")
    reports = latest_reports(reports_dir())
    if not reports:
        st.info(f"No balance report yet in {reports_dir()}/. Make one with "
                f"`muster balance GAME --out {reports_dir()}/GAME`.")
        return
    tabs = st.tabs([r["name"] for r in reports.values()])
    for tab, report in zip(tabs, reports.values()):
        with tab:
            _show(report)
