"""`muster balance`: check the arguments, play the run, write balance.json and balance.html, say the gist.

Argument mistakes raise `BalanceUsage` with the words to show; companion/cli.py turns them into its usual
message and exit status.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from balance.observe import REMOVAL_TABLES, observer
from balance.play import POLICIES, options_for, play
from balance.run import Run, play_run
from balance.shard import design_map
from balance.variants import load, one_fewer, problem_of, read_files, removable
from cards import load_game
from engine import GAME_IDS, make_game
from engine.bots import make_bot
from engine.core import Refusal

DEFAULT_REMOVAL_GAMES = 200
"""Games per design in the removal test unless --removal-games says otherwise (at most --games)."""


class BalanceUsage(Exception):
    """A bad argument; the message says what to change."""


def plan(game_id: str, players: str, games: int, seed: int, cards: Path | None,
         removal_games: int | None, remove: str | None) -> Run:
    """The run the arguments ask for, or BalanceUsage naming the argument that is wrong."""
    if game_id not in GAME_IDS:
        raise BalanceUsage(f"there is no game called '{game_id}' (games: {', '.join(GAME_IDS)})")
    if games < 1:
        raise BalanceUsage(f"--games must be 1 or more, not {games}")
    load_game(game_id, cards)  # a designer's mistake is named in their own files (DataError)
    files = read_files(game_id, cards)
    data = load(game_id, files)
    game = make_game(data)
    names = tuple(p.strip() for p in players.split(","))
    try:
        for name in names:
            if name not in POLICIES:
                make_bot(name, game_id)
        options = options_for(game, len(names))
        game.check_options(options)
    except Refusal as err:
        raise BalanceUsage(f"--players: {err}") from None
    if game.players(options) != len(names):
        raise BalanceUsage(f"--players: {game_id} is a game for {game.players(options)} players, so name "
                           f"{game.players(options)}, not {len(names)}")
    table = REMOVAL_TABLES[game_id]
    designs = removable(data, table)
    if remove is not None:
        chosen = tuple(d.strip() for d in remove.split(",") if d.strip())
        unknown = [d for d in chosen if d not in designs]
        if unknown:
            raise BalanceUsage(f"--remove: {game_id}'s {table} table has no design '{unknown[0]}' with a copy to "
                               f"take out (designs: {', '.join(designs)})")
        designs = list(chosen)
    count = min(games, DEFAULT_REMOVAL_GAMES if removal_games is None else removal_games)
    if count < 0:
        raise BalanceUsage(f"--removal-games must be 0 or more, not {removal_games}")
    if not count:
        return Run(game_id, files, names, seed, games, 0, ())
    problems = {d: problem_of(game_id, one_fewer(files, table, d)) for d in designs}
    return Run(game_id, files, names, seed, games, count, tuple(d for d in designs if problems[d] is None),
               tuple((d, p) for d, p in problems.items() if p is not None))


def execute(run: Run, out: Path, workers: int, scheduler: str | None,
            progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play what is missing, merge, and write DIR/balance.json and DIR/balance.html; the report."""
    from balance.html import write_html
    from balance.report import build

    results = play_run(run, out, workers, scheduler, progress)
    report = build(run, results)
    (out / "balance.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    write_html(report, out / "balance.html")
    return report


def summary(report: dict[str, Any]) -> list[str]:
    """The few lines printed after a run."""
    lines = [f"{report['name']}: {report['games']} games ({', '.join(report['players'])}, seats rotated, "
             f"seed {report['seed']})"]
    for seat in report["seats"]:
        lines.append(f"  seat {seat['seat']} wins {seat['rate']:.1%} of decided games (95%: {seat['low']:.1%}-{seat['high']:.1%}, "
                     f"n={seat['n']}){'  <- edge' if seat['flag'] else ''}")
    if len(report["by_player"]) > 1:
        for name, p in report["by_player"].items():
            lines.append(f"  {name} wins {p['rate']:.1%} (95%: {p['low']:.1%}-{p['high']:.1%}, n={p['n']})")
    d = report["draws"]
    lines.append(f"  draws {d['rate']:.1%} (95%: {d['low']:.1%}-{d['high']:.1%}); a 1-point seat edge needs "
                 f"about {report['edge_games']:,} games")
    length = report["length"]["decisions"]
    if length.get("n"):
        leads = report["drama"]["lead_changes"]
        lines.append(f"  length: median {length['p50']} decisions (5-95%: {length['p5']}-{length['p95']}); "
                     f"lead changes per game: median {leads['p50']} (5-95%: {leads['p5']}-{leads['p95']}, "
                     f"n={leads['n']})")
    flagged = [c["name"] for c in report["cards"]
               if c["dealt"].get("flag") or c.get("removal", {}).get("win_rate", {}).get("flag")]
    lines.append(f"  cards whose deal or removal moves the win rate (interval excludes none): {len(flagged)} of "
                 f"{len(report['cards'])}{': ' + ', '.join(flagged[:8]) if flagged else ''}"
                 f"{' …' if len(flagged) > 8 else ''}")
    gaps = report["gaps"]["counts"]
    if gaps:
        lines.append("  rules gaps: " + ", ".join(f"{kind} {n}" for kind, n in gaps.items()))
    return lines


def replay(run: Run, k: int, say: Callable[[str], None]) -> None:
    """Play game k of the run again, saying every move, and how it ended (a gap names its move)."""
    data = load(run.game, run.files)
    game = make_game(data)
    seats = len(run.players)
    names = [run.players[(s + k) % seats] for s in range(seats)]
    record = play(game, observer(game), names, run.seed, k, design_map(data),
                  trace=lambda move, action: say(f"{move:5d}  seat {action.player + 1} ({names[action.player]}): "
                                                 f"{action}"))
    if record.gap is not None:
        say(f"game {k}: {record.gap.kind} at move {record.gap.move}: {record.gap.detail}")
    won = "no winner" if record.winner is None else f"seat {record.winner + 1} won"
    say(f"game {k}: {won} after {record.decisions} moves")
