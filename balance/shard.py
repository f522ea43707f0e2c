"""A shard: a block of consecutive games of one variant of the data, played and counted in one task.

A shard's result is counts only (integers keyed by strings), so shards merge by adding and the merged
figures do not depend on which worker played which shard or in what order. It is plain JSON, written
to the run's folder as it arrives, so a stopped run resumes with the shards it has not got. The games
the removal test pairs (the first `paired` of a run) also keep one line each: winner, length, and who
played each design most.
"""

from __future__ import annotations

import gc
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from balance.observe import Observer, observer
from balance.play import Record, play
from balance.variants import Files, load
from engine import make_game
from engine.core import Game

COUNTED_GAPS = ("turn limit",)
"""Gaps after which the game still counts (the rules decided it); the others leave it out of the figures."""


@dataclass(frozen=True)
class Spec:
    """Everything a worker needs to play a shard, with no path or object of the machine that planned it."""

    game: str
    files: Files
    players: tuple[str, ...]
    seed: int
    variant: str  # "base", or the design one copy of which this data lacks
    start: int
    count: int
    paired: int

    @property
    def name(self) -> str:
        return f"{self.variant}-{self.start:07d}-{self.count}"  # a run of more games plays its last block again


def design_map(data: Any) -> dict[str, str]:
    """Card ids a move may name (physical ids and design ids) -> design id."""
    out = {row.id: row.id for rows in data.tables.values() for row in rows}
    out.update({cid: card.design.id for cid, card in data.card_index.items()})
    return out


@lru_cache(maxsize=8)
def prepared(game_id: str, files: Files) -> tuple[Game[Any], Observer, dict[str, str]]:
    """The game of this data, its observer and its design map, made from one load once per worker process: a
    game's rules hold nothing a game changes, only tables filled as it plays (hexbattle's actions by unit, hex and
    facing), which every later shard then finds made (with shards of a few games, making them again was a few
    percent of a hexbattle worker's time)."""
    data = load(game_id, files)
    game = make_game(data)
    return game, observer(game), design_map(data)


def run_shard(spec: Spec) -> dict[str, Any]:
    """Play the shard's games and count them (runs on a worker: a process of the pool, or a Dask worker).

    What the process holds before the shard (modules, the game and the tables it has filled) is frozen out of the
    cyclic garbage collector's passes while the shard plays, and handed back to it after: those passes walked it
    again and again, a few percent of a hexbattle worker's time. Nothing is kept from collection: objects freed
    meanwhile are freed as ever, and a cycle among the frozen ones waits only until the shard is done."""
    gc.freeze()
    try:
        return _play_shard(spec)
    finally:
        gc.unfreeze()


def _play_shard(spec: Spec) -> dict[str, Any]:
    game, obs, design_of = prepared(spec.game, spec.files)
    seats = len(spec.players)
    out: dict[str, Any] = {"variant": spec.variant, "start": spec.start, "count": spec.count, "games": 0,
                           "wins_by_seat": [0] * seats, "draws": 0, "wins_by_player": {},
                           "hist": {"decisions": Counter(), "turns": Counter(), "rounds": Counter(),
                                    "lead_changes": Counter()},
                           "trailed": [0, 0], "dealt": {}, "played": {}, "showdowns": {}, "gaps": [], "pairs": []}
    for k in range(spec.start, spec.start + spec.count):
        names = [spec.players[(s + k) % seats] for s in range(seats)]
        record = play(game, obs, names, spec.seed, k, design_of)
        if record.gap is not None:
            out["gaps"].append([record.gap.kind, k, record.gap.move, record.gap.detail])
            if record.gap.kind not in COUNTED_GAPS:
                continue
        _count(out, record, names)
        if k < spec.paired:
            out["pairs"].append([k, -1 if record.winner is None else record.winner, record.decisions,
                                 dict(sorted(record.played.items()))])
    out["hist"] = {name: {str(v): c for v, c in sorted(h.items())} for name, h in out["hist"].items()}
    return out


def _count(out: dict[str, Any], record: Record, names: list[str]) -> None:
    out["games"] += 1
    for name in names:
        out["wins_by_player"].setdefault(name, [0, 0])[1] += 1
    if record.winner is None:
        out["draws"] += 1
    else:
        out["wins_by_seat"][record.winner] += 1
        out["wins_by_player"][names[record.winner]][0] += 1
        out["trailed"][1] += 1
        out["trailed"][0] += bool(record.trailed)
    hist = out["hist"]
    hist["decisions"][record.decisions] += 1
    hist["turns"][record.turns] += 1
    hist["rounds"][record.rounds] += 1
    hist["lead_changes"][record.lead_changes] += 1
    for key, sides in (("dealt", record.dealt), ("played", record.played)):
        for design, seat in sides.items():
            tally = out[key].setdefault(design, [0, 0])
            tally[0] += 1
            tally[1] += seat == record.winner
    for combos, winners in record.showdowns:
        for seat, combo in combos.items():
            tally = out["showdowns"].setdefault(combo, [0, 0])
            tally[0] += 1
            tally[1] += seat in winners
