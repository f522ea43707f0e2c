"""balance.html: the report for a designer, one self-contained file that opens offline (from a USB stick).

Charts are matplotlib's SVG, inlined: no script, no font or file from anywhere (text is SVG text in the
reader's own sans-serif). matplotlib was chosen over Altair (already installed with Streamlit) because
Altair needs vl-convert to inline its renderer or to export SVG: 88 MB installed against matplotlib's
44 MB with its dependencies (numpy is already there), and a page with no script at all has nothing to
fail offline (docs/performance.md has the measurement). Every figure shows its n and a 95% interval.
"""

from __future__ import annotations

import html
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from balance.findings import findings, interval, pct

INK, SOFT, FLAG, GRID = "#1f2a44", "#8a94a6", "#b3261e", "#e3e6eb"


def _odds(exact: str) -> str:
    """"32.3%" for common odds, "1 in 190,613" for rare ones (a percentage would round them to nothing)."""
    count, total = (int(x) for x in exact.split("/"))
    if count == 0:
        return "never"
    return pct(count / total) if count / total >= 0.001 else f"1 in {total / count:,.0f}"


def _effect(entry: dict[str, Any] | None, unit: str = "pts") -> str:
    """An effect and, smaller beneath it, its 95% interval and n; red (and marked) when the interval excludes 0."""
    if not entry or not entry.get("n") or entry.get("low") is None:
        return "—"
    scale = 100 if unit == "pts" else 1
    if "rate" in entry:  # a rate against its baseline: the interval of the rate, moved by the baseline
        low, high = entry["low"] - entry["rate"] + entry["effect"], entry["high"] - entry["rate"] + entry["effect"]
    else:
        low, high = entry["low"], entry["high"]
    text = (f"<span class=fx>{scale * entry['effect']:+.1f} {unit}</span>"
            f"<span class=ci>{scale * low:+.1f} to {scale * high:+.1f} · n={entry['n']:,}</span>")
    return f"<b class=flag title='interval excludes no effect'>{text}</b>" if entry.get("flag") else text


def _svg(fig: Any) -> str:
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


WIDTH = 5.6
"""Chart width in inches: on a 390-pixel phone the chart shrinks to about two thirds, its text still readable."""


def _figure(width: float, height: float) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "muster-balance", "font.family": "sans-serif",
                         "font.size": 10, "axes.edgecolor": SOFT, "axes.labelcolor": INK, "xtick.color": INK,
                         "ytick.color": INK, "axes.spines.top": False, "axes.spines.right": False})
    return plt.subplots(figsize=(width, height))


def _interval_chart(rows: list[tuple[str, float, float, float, bool]], baseline: float, xlabel: str,
                    percent: bool = True) -> str:
    """Points with 95% interval bars, one row each (label, value, low, high, flagged), a line at the baseline."""
    fig, ax = _figure(WIDTH, 0.3 * len(rows) + 0.9)
    scale = 100 if percent else 1
    # Every row's bar in one collection and every point in another (two artists, not two a row: a card chart has
    # dozens of rows, and drawing them one by one was most of a report's serial time).
    colours = [FLAG if flagged else INK for *_, flagged in rows]
    places = range(len(rows))
    ax.hlines(places, [scale * r[2] for r in rows], [scale * r[3] for r in rows], colors=colours, linewidth=2,
              capstyle="butt")
    ax.scatter([scale * r[1] for r in rows], places, c=colours, s=25, zorder=3)
    ax.axvline(scale * baseline, color=SOFT, linewidth=1, linestyle="--")
    ax.set_yticks(range(len(rows)), [r[0] for r in rows])
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", color=GRID, linewidth=0.6)
    return _svg(fig)


def seat_chart(report: dict[str, Any]) -> str:
    rows = [(f"seat {s['seat']}", s["rate"], s["low"], s["high"], s["flag"]) for s in report["seats"]]
    return _interval_chart(rows, 1 / len(report["seats"]), "wins, % of the games with a winner (95% interval)")


def length_chart(report: dict[str, Any]) -> str:
    counts = report["length"]["decisions"].get("counts", [])
    fig, ax = _figure(WIDTH, 2.4)
    # One filled outline weighted by the counts: the bars' shape, as one path rather than a patch per bar.
    ax.hist([v for v, _ in counts], bins=min(40, max(1, len(counts))), weights=[c for _, c in counts], color=INK,
            histtype="stepfilled")
    for q, style in (("p5", ":"), ("p50", "-"), ("p95", ":")):
        if q in report["length"]["decisions"]:
            ax.axvline(report["length"]["decisions"][q], color=FLAG, linewidth=1, linestyle=style)
    ax.set_xlabel("decisions per game (red: 5th, 50th and 95th percentile)")
    ax.set_ylabel("games")
    return _svg(fig)


CARD_CHARTS = {
    "removal": "Removal test: the win rate of the side that played it most, with the card minus without (points)",
    "dealt": "Dealt more of it at the start: win rate minus an even share (points)",
    "played": "Played more of it: win rate minus an even share (points; an association, not an effect)",
}
"""The per-card charts, by the figure they plot, with their captions."""


def card_rows(report: dict[str, Any], kind: str | None = None) -> tuple[str, list[tuple[str, float, float, float, bool]]]:
    """The per-card effect chart's rows (name, effect, low, high, flagged), sorted by size, and its caption:
    `kind` one of CARD_CHARTS; by default the first of them the run has figures for."""
    if kind is None:
        kind = next((k for k in CARD_CHARTS if card_rows(report, k)[1]), "removal")
    rows: list[tuple[str, float, float, float, bool]] = []
    for c in report["cards"]:
        if kind == "removal":
            entry = c.get("removal", {}).get("win_rate", {})
            if entry.get("low") is not None:
                rows.append((c["name"], entry["effect"], entry["low"], entry["high"], entry["flag"]))
        elif c[kind]["n"]:
            entry = c[kind]
            shift = entry["effect"] - entry["rate"]  # the rate's interval, moved by the baseline
            rows.append((c["name"], entry["effect"], entry["low"] + shift, entry["high"] + shift, entry["flag"]))
    return CARD_CHARTS[kind], sorted(rows, key=lambda r: (-r[1], r[0]))


def card_chart(report: dict[str, Any], kind: str) -> str:
    label, rows = card_rows(report, kind)
    if not rows:
        return ""
    chart = _interval_chart(rows, 0.0, "points, with the 95% interval")
    return f"<figure id=cards-{kind}><figcaption>{html.escape(label)}</figcaption>{chart}</figure>"


def combo_chart(report: dict[str, Any]) -> str:
    rows = [(c["name"], c["showdowns"]["rate"], c["showdowns"]["low"], c["showdowns"]["high"], False)
            for c in report["combos"] if c["showdowns"]["n"]]
    return _interval_chart(rows, 0.5, "showdown win rate when shown (95% interval)")


def _table(head: list[str], rows: list[list[str]], numeric: int = 1) -> str:
    """A table in a box that scrolls sideways on a narrow screen; columns from `numeric` on are figures,
    set right-aligned in even-width digits."""
    th = "".join(f"<th{' class=num' if i >= numeric else ''}>{h}</th>" for i, h in enumerate(head))
    body = "".join("<tr>" + "".join(f"<td{' class=num' if i >= numeric else ''}>{c}</td>" for i, c in enumerate(row))
                   + "</tr>" for row in rows)
    return f"<div class=scroll><table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table></div>"


def _card_table(report: dict[str, Any]) -> str:
    """One row per card; a column that has no figure for any card is left out."""
    def removal(c: dict[str, Any]) -> str:
        if "removal" not in c:
            return "—"
        return html.escape(c["removal"]["skipped"]) if "skipped" in c["removal"] else _effect(c["removal"]["win_rate"])

    columns: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("dealt more at the start", lambda c: _effect(c["dealt"])),
        ("played more", lambda c: _effect(c["played"])),
        ("removal: win rate with − without", removal),
        ("removal: decisions without − with",
         lambda c: _effect(c["removal"].get("decisions"), "moves") if "removal" in c else "—")]
    cells = [[get(c) for _, get in columns] for c in report["cards"]]
    keep = [i for i in range(len(columns)) if any(row[i] != "—" for row in cells)]
    return _table(["card", *(columns[i][0] for i in keep)],
                  [[html.escape(c["name"]), *(row[i] for i in keep)] for c, row in zip(report["cards"], cells)])


STYLE = """
:root{--ink:#1f2a44;--soft:#5b6477;--line:#e3e6eb;--wash:#f4f5f8;--flag:#b3261e}
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);max-width:60rem;
 margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.75rem;line-height:1.2;margin:.2rem 0} .kicker{color:var(--soft);font-size:.85rem;letter-spacing:.06em;
 text-transform:uppercase;margin:0} .sub{color:var(--soft);margin:.3rem 0 1.2rem}
h2{font-size:1.25rem;margin:2.4rem 0 .6rem;padding-bottom:.3rem;border-bottom:2px solid var(--line)}
.findings{background:var(--wash);border-radius:10px;padding:.4rem 1.2rem;margin:0}
.findings div{display:grid;grid-template-columns:8rem 1fr;gap:1rem;padding:.6rem 0;border-bottom:1px solid var(--line)}
.findings div:last-child{border-bottom:0} .findings dt{font-weight:600} .findings dd{margin:0}
.note,figcaption,.ci,footer{color:var(--soft)} .note{font-size:.95rem} figcaption{font-size:.9rem;margin-bottom:.3rem}
.scroll{overflow-x:auto;margin:.6rem 0} table{border-collapse:collapse;font-size:.92rem}
td,th{padding:.45rem .7rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{font-weight:600;font-size:.85rem;background:var(--wash)} .num{text-align:right;font-variant-numeric:tabular-nums}
td.num{white-space:nowrap} .fx{display:block} .ci{display:block;font-size:.8rem}
.flag,.flag .ci{color:var(--flag)} b.flag .fx::before{content:"● "}
figure{margin:1rem 0} figure svg{width:100%;max-width:36rem;height:auto}
details{margin:.6rem 0} summary{cursor:pointer;color:var(--soft)}
code{font-size:.85em;background:var(--wash);padding:.1em .35em;border-radius:4px;word-break:break-all}
footer{margin-top:3rem;font-size:.85rem;border-top:1px solid var(--line);padding-top:1rem}
@media (max-width:600px){.findings div{grid-template-columns:1fr;gap:.1rem} h1{font-size:1.45rem}}
"""


def render(report: dict[str, Any]) -> str:
    """The whole page: what was found first, then each section with its chart and its table."""
    e = html.escape
    summary = "".join(f"<div><dt>{e(topic)}</dt><dd>{e(text)}</dd></div>" for topic, text in findings(report))
    seats = _table(["seat", "wins, of the games with a winner"],
                   [[f"seat {s['seat']}", interval(s)] for s in report["seats"]]
                   + [["draws, of all games", interval(report["draws"])]])
    players = ""
    if len(report["by_player"]) > 1:
        players = _table(["player", "win rate"], [[e(name), interval(v)] for name, v in report["by_player"].items()])
    length = _table(["measure", "n", "mean", "5%", "25%", "median", "75%", "95%", "max"],
                    [[k, f"{v.get('n', 0):,}", f"{v['mean']:,.1f}" if v.get("n") else "—",
                      *(f"{v[q]:,}" if q in v else "—" for q in ("p5", "p25", "p50", "p75", "p95", "max"))]
                     for k, v in report["length"].items()])
    drama = report["drama"]
    lead = drama["lead_changes"]
    gaps = report["gaps"]
    gap_rows = [[e(g["kind"]), str(g["game"]), str(g["move"]), e(g["detail"]), f"<code>{e(g['replay'])}</code>"]
                for g in gaps["examples"]]
    gap_text = ("<p>None: every game ended on the board.</p>" if not gaps["counts"] else
                "<p>" + ", ".join(f"{e(k)}: {n:,} games" for k, n in gaps["counts"].items())
                + ". The first of each kind, with the command that plays it again move by move:</p>"
                + _table(["kind", "game", "move", "what happened", "replay"], gap_rows, numeric=5))
    combos = ""
    if "combos" in report:
        combos = ("<h2>Waterloo combos</h2><p class=note>Each combo's exact odds of being the best of a five-card "
                  "hand dealt from the deck, its share of the hands shown at showdowns, and how often it won there.</p>"
                  f"<figure id=combos>{combo_chart(report)}</figure>"
                  + _table(["combo", "odds of being dealt", "share of the hands shown", "showdown win rate"],
                           [[e(c["name"]), _odds(c["dealt_exact"]), interval(c["shown"]), interval(c["showdowns"])]
                            for c in report["combos"]]))
    intervals = sum(1 for c in report["cards"] for k in ("dealt", "played") if c[k]["n"]) + sum(
        1 for c in report["cards"] if c.get("removal", {}).get("win_rate", {}).get("low") is not None)
    charts = "".join(card_chart(report, kind) for kind in CARD_CHARTS if kind != "played")
    charts = charts or card_chart(report, "played") or "<p>No card was dealt, played or removed.</p>"
    mid = (f"The winner was behind at the midpoint in {interval(drama['winner_trailed_at_midpoint'])} of the games "
           "with a winner.") if drama["winner_trailed_at_midpoint"]["n"] else ""
    lead_text = (f"The lead (on the position score) changes hands {lead['mean']:.1f} times in a game on average, "
                 f"median {lead['p50']:,}, 5–95%: {lead['p5']:,}–{lead['p95']:,} (n={lead['n']:,}). "
                 if lead.get("n") else "")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{e(report['name'])}: balance report</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{STYLE}</style></head><body>
<p class=kicker>Balance report</p>
<h1>{e(report['name'])}</h1>
<p class=sub>{report['games']:,} games · {e(' v '.join(report['players']))} · seats rotated · seed {report['seed']}
{f" · {report['left_out']:,} left out (rules gaps)" if report['left_out'] else ""}</p>
<dl class=findings>{summary}</dl>
<h2>Seat advantage</h2><figure id=seats>{seat_chart(report)}</figure>{seats}{players}
<p class=note>Seeing a 1-point seat edge takes about {report['edge_games']:,} games (a 95% interval of ±1 point).</p>
<h2>Game length</h2><figure id=length>{length_chart(report)}</figure>{length}
<p class=note>Turns are runs of one seat's decisions; rounds are the game's own count (turns, battle rounds,
battles, hands).</p>
<h2>Drama</h2><p>{lead_text}{mid}</p>
<h2>Cards</h2>
<p class=note>Each effect is in points of win rate, with its 95% interval and n beneath; <b class=flag>● red</b>
marks one whose interval excludes no effect.</p>
<details><summary>How to read the card figures</summary><p class=note>Who is dealt a card at the start is decided by
the shuffle, so that effect is the card's. "Played more" is an association: a side that is ahead may simply play
more. The removal test replays the run's first seeds with one copy fewer of the card and follows the side that played
it most; that side's wins carry some of the same association, so read a card against the others (an unchanged card
shows the baseline). Of the {intervals:,} intervals here, about {intervals / 20:.0f} exclude no effect by chance alone
(1 in 20 at 95%): a red figure is a lead to test with more games, not a verdict.</p></details>
{charts}{_card_table(report)}
{combos}
<h2>Rules gaps</h2>{gap_text}
<footer>Made by <code>muster balance</code>. The card data's fingerprint is {report['data']}; the same seed, players and
data give this report again, byte for byte.</footer>
</body></html>
"""


def write_html(report: dict[str, Any], path: Path) -> None:
    path.write_text(render(report), encoding="utf-8")
