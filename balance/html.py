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
from pathlib import Path
from typing import Any

INK, SOFT, FLAG, GRID = "#1f2a44", "#8a94a6", "#b3261e", "#e3e6eb"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _interval(entry: dict[str, Any], key: str = "rate") -> str:
    """"52.0% (48.9-55.1%, n=1000)": never a bare percentage."""
    if not entry.get("n"):
        return "—"
    return f"{_pct(entry[key])} ({_pct(entry['low'])}–{_pct(entry['high'])}, n={entry['n']})"


def _odds(exact: str) -> str:
    """"32.3%" for common odds, "1 in 190,613" for rare ones (a percentage would round them to nothing)."""
    count, total = (int(x) for x in exact.split("/"))
    if count == 0:
        return "never"
    return _pct(count / total) if count / total >= 0.001 else f"1 in {total / count:,.0f}"


def _effect(entry: dict[str, Any] | None, unit: str = "pts") -> str:
    if not entry or not entry.get("n") or entry.get("low") is None:
        return "—"
    scale = 100 if unit == "pts" else 1
    if "rate" in entry:  # a rate against its baseline: the interval of the rate, moved by the baseline
        low, high = entry["low"] - entry["rate"] + entry["effect"], entry["high"] - entry["rate"] + entry["effect"]
    else:
        low, high = entry["low"], entry["high"]
    text = f"{scale * entry['effect']:+.1f} {unit} ({scale * low:+.1f} to {scale * high:+.1f}, n={entry['n']})"
    return f"<b class=flag>{text}</b>" if entry.get("flag") else text


def _svg(fig: Any) -> str:
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _figure(width: float, height: float) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "muster-balance", "font.family": "sans-serif",
                         "font.size": 9, "axes.edgecolor": SOFT, "axes.labelcolor": INK, "xtick.color": INK,
                         "ytick.color": INK, "axes.spines.top": False, "axes.spines.right": False})
    return plt.subplots(figsize=(width, height))


def _interval_chart(rows: list[tuple[str, float, float, float, bool]], baseline: float, xlabel: str,
                    percent: bool = True) -> str:
    """Points with 95% interval bars, one row each (label, value, low, high, flagged), a line at the baseline."""
    fig, ax = _figure(6.4, 0.32 * len(rows) + 0.9)
    scale = 100 if percent else 1
    for i, (_, value, low, high, flagged) in enumerate(rows):
        colour = FLAG if flagged else INK
        ax.plot([scale * low, scale * high], [i, i], color=colour, linewidth=2, solid_capstyle="butt")
        ax.plot([scale * value], [i], "o", color=colour, markersize=5)
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
    fig, ax = _figure(6.4, 2.6)
    values = [v for v, c in counts for _ in range(c)]
    ax.hist(values, bins=min(40, max(1, len(counts))), color=INK)
    for q, style in (("p5", ":"), ("p50", "-"), ("p95", ":")):
        if q in report["length"]["decisions"]:
            ax.axvline(report["length"]["decisions"][q], color=FLAG, linewidth=1, linestyle=style)
    ax.set_xlabel("decisions per game (red: 5th, 50th and 95th percentile)")
    ax.set_ylabel("games")
    return _svg(fig)


def card_rows(report: dict[str, Any], kind: str | None = None) -> tuple[str, list[tuple[str, float, float, float, bool]]]:
    """The per-card effect chart's rows, sorted by size: `kind` "removal" (the removal test's change in win
    rate) or "dealt" (the win rate of the side dealt more of the card, against an even share); by default the
    removal test where the run has one."""
    removal = [c for c in report["cards"] if c.get("removal", {}).get("win_rate", {}).get("low") is not None]
    if kind == "removal" or kind is None and removal:
        rows = [(c["name"], c["removal"]["win_rate"]["effect"], c["removal"]["win_rate"]["low"],
                 c["removal"]["win_rate"]["high"], c["removal"]["win_rate"]["flag"]) for c in removal]
        label = "removal test: win rate with the card minus without, points (95% interval)"
    else:
        rows = [(c["name"], c["dealt"]["effect"], c["dealt"]["effect"] - c["dealt"]["rate"] + c["dealt"]["low"],
                 c["dealt"]["effect"] - c["dealt"]["rate"] + c["dealt"]["high"], c["dealt"]["flag"])
                for c in report["cards"] if c["dealt"]["n"]]
        label = "dealt more of it at the start: win rate minus an even share, points (95% interval)"
    return label, sorted(rows, key=lambda r: (-r[1], r[0]))


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


def _table(head: list[str], rows: list[list[str]]) -> str:
    th = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


STYLE = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2a44;max-width:980px;margin:2em auto;padding:0 1em}
h1{font-size:1.6em;margin-bottom:.2em} h2{margin-top:1.8em;border-bottom:1px solid #e3e6eb;padding-bottom:.2em}
.note{color:#5b6477} table{border-collapse:collapse;margin:.6em 0;font-size:.92em}
td,th{padding:.25em .7em;border-bottom:1px solid #e3e6eb;text-align:left;vertical-align:top}
th{background:#f4f5f8} .flag{color:#b3261e} figure{margin:.8em 0} figcaption{font-size:.9em;color:#5b6477} figure svg{max-width:100%;height:auto}
code{background:#f4f5f8;padding:0 .3em}
"""


def render(report: dict[str, Any]) -> str:
    """The whole page."""
    e = html.escape
    seats = _table(["seat", "wins among games with a winner (95% interval, n)"],
                   [[str(s["seat"]), _interval(s)] for s in report["seats"]]
                   + [["draws (of all games)", _interval(report["draws"])]])
    players = ""
    if len(report["by_player"]) > 1:
        players = _table(["player", "win rate (95% interval, n)"],
                         [[e(name), _interval(v)] for name, v in report["by_player"].items()])
    length = _table(["measure", "n", "mean", "5%", "25%", "median", "75%", "95%", "max"],
                    [[k, str(v.get("n", 0)), f"{v['mean']:.1f}" if v.get("n") else "—",
                      *(str(v.get(q, "—")) for q in ("p5", "p25", "p50", "p75", "p95", "max"))]
                     for k, v in report["length"].items()])
    drama = report["drama"]
    lead = drama["lead_changes"]
    cards = _table(["card", "dealt more at the start: win rate − even", "played more: win rate − even",
                    "removal test: win rate with − without", "removal: decisions without − with"],
                   [[e(c["name"]), _effect(c["dealt"]), _effect(c["played"]),
                     c["removal"].get("skipped", "") or _effect(c["removal"]["win_rate"]) if "removal" in c else "—",
                     _effect(c["removal"].get("decisions"), "moves") if "removal" in c else "—"]
                    for c in report["cards"]])
    gaps = report["gaps"]
    gap_rows = [[e(g["kind"]), str(g["game"]), str(g["move"]), e(g["detail"]), f"<code>{e(g['replay'])}</code>"]
                for g in gaps["examples"]]
    gap_text = ("<p>None: every game ended on the board.</p>" if not gaps["counts"] else
                "<p>" + ", ".join(f"{e(k)}: {n} games" for k, n in gaps["counts"].items()) + "</p>"
                + _table(["kind", "game", "move", "what", "replay"], gap_rows))
    combos = ""
    if "combos" in report:
        combos = ("<h2>Waterloo combos</h2><p class=note>Each combo's exact odds of being the best of a five-card "
                  "hand dealt from the deck, its share of the hands shown at showdowns, and how often it won there.</p>"
                  f"<figure id=combos>{combo_chart(report)}</figure>"
                  + _table(["combo", "odds of being dealt", "share of the hands shown (95% interval, n)",
                            "showdown win rate (95% interval, n)"],
                           [[e(c["name"]), _odds(c["dealt_exact"]), _interval(c["shown"]), _interval(c["showdowns"])]
                            for c in report["combos"]]))
    intervals = sum(1 for c in report["cards"] for k in ("dealt", "played") if c[k]["n"]) + sum(
        1 for c in report["cards"] if c.get("removal", {}).get("win_rate", {}).get("low") is not None)
    lead_mean = f"{lead['mean']:.1f}" if lead.get("n") else "—"
    charts = card_chart(report, "removal") + card_chart(report, "dealt") or "<p>No card was dealt or removed.</p>"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{e(report['name'])}: balance report</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{STYLE}</style></head><body>
<h1>{e(report['name'])}: balance report</h1>
<p class=note>{report['games']:,} games between {e(', '.join(report['players']))}, seats rotated, seed {report['seed']},
data {report['data']}. {report['left_out']} of {report['games_requested']:,} games left out (rules gaps below).
Every figure has its 95% interval and n; an effect is <b class=flag>red</b> only when its interval excludes none.</p>
<h2>Seat advantage</h2><figure id=seats>{seat_chart(report)}</figure>{seats}{players}
<p>Seeing a 1-point seat edge takes about <b>{report['edge_games']:,}</b> games (a 95% interval of ±1 point).</p>
<h2>Game length</h2><figure id=length>{length_chart(report)}</figure>{length}
<p class=note>Turns are runs of one seat's decisions; rounds are the game's own count (turns, battle rounds,
battles, hands).</p>
<h2>Drama</h2>
<p>Lead changes per game (position score): mean {lead_mean}, median {lead.get('p50', '—')},
5–95%: {lead.get('p5', '—')}–{lead.get('p95', '—')} (n={lead.get('n', 0)}).<br>
The winner was behind at the midpoint in {_interval(drama['winner_trailed_at_midpoint'])} of games with a winner.</p>
<h2>Cards</h2><p class=note>Who is dealt a card at the start is decided by the shuffle, so that effect is the card's;
"played more" is an association (a side ahead may simply play more). The removal test replays the run's first seeds
with one copy fewer of the card and follows the side that played it most: that side's share of wins with the card
carries some of the same association, so read a card against the others (an unchanged card shows the baseline). Of the {intervals} intervals below, about {intervals / 20:.0f} exclude no effect by
chance alone (1 in 20 at 95%): a red figure is a lead to test with more games, not a verdict.</p>
{charts}{cards}
{combos}
<h2>Rules gaps</h2>{gap_text}
</body></html>
"""


def write_html(report: dict[str, Any], path: Path) -> None:
    path.write_text(render(report), encoding="utf-8")
