"""The few sentences a designer reads first: what the report found, each with its interval and n.

balance.html opens with them and the companion's Balance page shows them above its charts, so both say the
same thing in the same words. Each finding is (topic, sentence); a sentence never gives a bare percentage.
"""

from __future__ import annotations

from typing import Any


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def interval(entry: dict[str, Any], key: str = "rate") -> str:
    """"52.0% (48.9–55.1%, n=1,000)": never a bare percentage."""
    if not entry.get("n"):
        return "—"
    return f"{pct(entry[key])} ({pct(entry['low'])}–{pct(entry['high'])}, n={entry['n']:,})"


def standing_out(report: dict[str, Any]) -> list[str]:
    """The cards whose deal or removal moves the win rate with an interval that excludes no effect."""
    return [c["name"] for c in report["cards"]
            if c["dealt"].get("flag") or c.get("removal", {}).get("win_rate", {}).get("flag")]


def findings(report: dict[str, Any]) -> list[tuple[str, str]]:
    """(topic, sentence) for seats, length, drama, cards and rules gaps, in that order."""
    out: list[tuple[str, str]] = []
    edged = [s for s in report["seats"] if s["flag"] and s["rate"] > 1 / len(report["seats"])]
    if edged:
        s = edged[0]
        out.append(("Seats", f"Seat {s['seat']} has an edge: it wins {interval(s)} of the games with a winner."))
    else:
        low = min(s["low"] for s in report["seats"])
        high = max(s["high"] for s in report["seats"])
        out.append(("Seats", f"No seat edge shows at {report['games']:,} games (every seat's interval lies within "
                             f"{pct(low)}–{pct(high)}); about {report['edge_games']:,} games would show a 1-point edge."))
    if report["draws"]["draws"]:
        out.append(("Draws", f"{interval(report['draws'])} of the games end with no winner."))
    d, rounds = report["length"]["decisions"], report["length"]["rounds"]
    if d.get("n"):
        out.append(("Length", f"A median game takes {d['p50']:,} decisions (5–95%: {d['p5']:,}–{d['p95']:,}) and "
                              f"{rounds['p50']:,} rounds."))
    lead, trailed = report["drama"]["lead_changes"], report["drama"]["winner_trailed_at_midpoint"]
    if lead.get("n"):
        comeback = f"; the winner was behind at the midpoint in {interval(trailed)}" if trailed["n"] else ""
        out.append(("Drama", f"The lead changes {lead['p50']:,} times in a median game{comeback}."))
    flagged = standing_out(report)
    if flagged:
        names = ", ".join(flagged[:6]) + (" and more" if len(flagged) > 6 else "")
        out.append(("Cards", f"{len(flagged)} of {len(report['cards'])} stand out in their deal or removal test "
                             f"(the interval excludes no effect): {names}."))
    else:
        out.append(("Cards", f"None of {len(report['cards'])} stands out at this many games."))
    counts = report["gaps"]["counts"]
    if counts:
        kinds = ", ".join(f"{kind} {n:,}" for kind, n in counts.items())
        out.append(("Rules gaps", f"{sum(counts.values()):,} games hit a rules gap ({kinds}); each is listed with "
                                  "the command that replays it."))
    else:
        out.append(("Rules gaps", "None: every game ended on the board."))
    return out
