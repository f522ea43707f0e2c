"""The balance report: the shards of a run merged (by adding counts, in plan order) into balance.json.

What a designer reads, each figure with its n and a 95% interval:
- seats: each seat's share of the games with a winner (seats rotate between players, so a seat's edge is
  the game's, not a player's), the draws, and the games a 1-point edge needs to be seen;
- length: decisions, turns (runs of one seat's decisions) and the game's own rounds, with percentiles;
- drama: lead changes per game on the position score, and how often the winner was behind at midpoint;
- cards: per design, the win rate of the side dealt more of it at the start (a randomised comparison:
  the deal decides who gets it), of the side that played it more (an association: the side that plays
  more cards may be winning anyway), and the removal test (the same seeds with one copy fewer: the change
  in the win rate of the side that played it most, and in length); flagged only when the interval
  excludes no effect;
- waterloo: each combo's showdown win rate beside its exact odds of being the best of a dealt hand;
- gaps: games that ended on a limit, got stuck, had no legal move or crashed, with game and move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from math import comb
from typing import Any

from balance import stats
from balance.run import Run
from balance.variants import fingerprint, load, read_files
from cards.load import CARDS_ROOT

GAP_EXAMPLES = 20
"""Examples kept per kind of gap (the counts cover them all)."""


def merge(results: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Variant -> its shards' counts added up (pairs and gaps concatenated in game order)."""
    merged: dict[str, dict[str, Any]] = {}
    for shard in results:
        into = merged.setdefault(shard["variant"], _empty(len(shard["wins_by_seat"])))
        into["games"] += shard["games"]
        into["draws"] += shard["draws"]
        into["wins_by_seat"] = [a + b for a, b in zip(into["wins_by_seat"], shard["wins_by_seat"])]
        for key in ("wins_by_player", "dealt", "played", "showdowns"):
            for name, (a, b) in shard[key].items():
                tally = into[key].setdefault(name, [0, 0])
                tally[0] += a
                tally[1] += b
        for name, hist in shard["hist"].items():
            into["hist"][name].update({v: c for v, c in hist.items()})
        into["trailed"] = [a + b for a, b in zip(into["trailed"], shard["trailed"])]
        into["gaps"] += shard["gaps"]
        into["pairs"] += shard["pairs"]
    return merged


def _empty(seats: int) -> dict[str, Any]:
    return {"games": 0, "draws": 0, "wins_by_seat": [0] * seats, "wins_by_player": {}, "dealt": {}, "played": {},
            "showdowns": {}, "hist": {k: Counter() for k in ("decisions", "turns", "rounds", "lead_changes")},
            "trailed": [0, 0], "gaps": [], "pairs": []}


def build(run: Run, results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The report (JSON-ready, deterministic) of a run whose shards are all in `results`."""
    merged = merge(results)
    base = merged.get("base", _empty(len(run.players)))
    data = load(run.game, run.files)
    seats = len(run.players)
    games = base["games"]
    even = 1 / seats
    decided = games - base["draws"]  # a seat's edge is its share of the games someone won
    seat_rates = [stats.rate(w, decided, even) | {"seat": s + 1} for s, w in enumerate(base["wins_by_seat"])]
    first = base["wins_by_seat"][0] / decided if decided else even
    report: dict[str, Any] = {
        "game": run.game, "name": data.name, "players": list(run.players), "seed": run.seed,
        "data": fingerprint(run.files), "games_requested": run.games, "games": games,
        "left_out": run.games - games,
        "seats": seat_rates,
        "draws": stats.rate(base["draws"], games, counted="draws"),
        "edge_games": stats.edge_games(first),
        "by_player": {name: stats.rate(w, n, even) for name, (w, n) in sorted(base["wins_by_player"].items())},
        "length": {k: stats.histogram_summary(base["hist"][k]) for k in ("decisions", "turns", "rounds")},
        "drama": {"lead_changes": stats.histogram_summary(base["hist"]["lead_changes"]),
                  "winner_trailed_at_midpoint": stats.rate(base["trailed"][0], base["trailed"][1], counted="trailed")},
        "cards": _cards(run, data, base, merged, even),
        "gaps": _gaps(base["gaps"], run),
    }
    if run.game == "waterloo":
        report["combos"] = _combos(data, base["showdowns"])
    return report


def _cards(run: Run, data: Any, base: dict[str, Any], merged: dict[str, dict[str, Any]],
           even: float) -> list[dict[str, Any]]:
    """One entry per design that was dealt, played or removed, in the data's order."""
    names = {row.id: (table, row.name) for table, rows in data.tables.items() for row in rows
             if hasattr(row, "copies")}
    skipped = dict(run.skipped)
    wanted = [d for d in names if d in base["dealt"] or d in base["played"] or d in run.removals or d in skipped]
    paired = {k: (winner, length, played) for k, winner, length, played in base["pairs"]}
    out = []
    for design in wanted:
        table, name = names[design]
        entry: dict[str, Any] = {"design": design, "name": name, "table": table}
        for key in ("dealt", "played"):
            n, wins = base[key].get(design, (0, 0))
            entry[key] = stats.rate(wins, n, even)
        if design in run.removals:
            entry["removal"] = _removal(design, paired, merged.get(design))
        elif design in skipped:
            entry["removal"] = {"skipped": f"one copy fewer is not a playable game: {skipped[design]}"}
        out.append(entry)
    return out


def _removal(design: str, base: dict[int, tuple[int, int, dict[str, int]]],
             variant: dict[str, Any] | None) -> dict[str, Any]:
    """The removal test of one design: per paired seed, the side that played it most in the real game, won or
    not there and with one copy fewer; and each game's length with and without it."""
    without = {k: (winner, length) for k, winner, length, _ in (variant or {}).get("pairs", [])}
    wins: list[float] = []
    lengths: list[float] = []
    for k in sorted(set(base) & set(without)):
        winner, length, played = base[k]
        lengths.append(without[k][1] - length)
        side = played.get(design)
        if side is not None:
            wins.append(float(winner == side) - float(without[k][0] == side))
    return {"win_rate": stats.paired(wins), "decisions": stats.paired(lengths)}


def _gaps(gaps: list[list[Any]], run: Run) -> dict[str, Any]:
    counts = Counter(kind for kind, *_ in gaps)
    edited = " --cards DIR" if run.files != read_files(run.game, CARDS_ROOT) else ""
    examples: list[dict[str, Any]] = []
    for kind in sorted(counts):
        for _, k, move, detail in [g for g in gaps if g[0] == kind][:GAP_EXAMPLES]:
            examples.append({"kind": kind, "game": k, "move": move, "detail": detail,
                             "replay": f"muster balance {run.game} --seed {run.seed} --players "
                                       f"{','.join(run.players)}{edited} --replay {k}"})
    return {"counts": dict(sorted(counts.items())), "examples": examples}


def _combos(data: Any, showdowns: dict[str, list[int]]) -> list[dict[str, Any]]:
    """Each combo's exact odds of being the best of a dealt hand (engine.waterloo_odds), its share of the hands
    shown at showdowns and how often it won there."""
    from engine.waterloo_odds import combo_counts

    counts = combo_counts(data)
    total = comb(len(data.deck()), data.rules.hand_size)
    names = {c.id: c.name for c in data.rules.combos}
    hands = sum(n for n, _ in showdowns.values())
    out = []
    for combo, count in counts.items():
        shown, won = showdowns.get(combo, [0, 0])
        out.append({"combo": combo, "name": names[combo], "dealt_odds": stats.r(count / total),
                    "dealt_exact": f"{count}/{total}", "shown": stats.rate(shown, hands, counted="hands"),
                    "showdowns": stats.rate(won, shown)})
    return out
