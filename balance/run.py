"""Planning a balance run into shards, playing the missing ones (a local process pool or a Dask cluster)
and keeping each result in the run's folder as it arrives.

The shards are fixed by the run (game, data, players, seed, games) and never by the workers: a shard is a
block of SHARD_GAMES games of one variant, so any number of workers, or a Dask cluster, plays the same
shards and the merged figures are the same to the byte. Results live in
`DIR/shards/<key>/<variant>-<first game>.json`, where the key hashes everything that decides a shard's
games; a stopped run started again with the same arguments plays only the shards it has not got.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import socket
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from balance.observe import REMOVAL_TABLES
from balance.shard import Spec, run_shard
from balance.variants import Files, fingerprint, one_fewer

SHARD_GAMES = {"imperial": 100, "medieval": 100, "warfare": 20, "waterloo": 10, "hexbattle": 4}
"""Games per shard: about a tenth of a second of one core (hexbattle's about a second), so that the last shard to
finish, which one worker plays while the others wait, is a small part of a run: the issue's runs are 100 to 500
shards. A shard costs under a millisecond beyond its games (the data is loaded once per worker). The size is the
game's, not the run's, so a run of more games reuses the shards of a shorter one."""


DASK_PORT = 8786
"""The port `dask scheduler` listens on unless told otherwise."""


class ClusterError(Exception):
    """The Dask cluster cannot be used (Dask missing, the scheduler unreachable); the message says why."""


@dataclass(frozen=True)
class Run:
    """What decides a run's games."""

    game: str
    files: Files
    players: tuple[str, ...]
    seed: int
    games: int
    removal_games: int
    removals: tuple[str, ...]
    """The designs the removal test plays with one copy fewer (each a playable game)."""
    skipped: tuple[tuple[str, str], ...] = ()
    """(design, why) for designs whose one-copy-fewer data is no playable game (a game needs that copy)."""

    @cached_property  # read for every shard kept; the fingerprint hashes every data file
    def key(self) -> str:
        text = json.dumps([self.game, fingerprint(self.files), self.players, self.seed, self.removal_games,
                           SHARD_GAMES[self.game]])
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def specs(self) -> list[Spec]:
        """Every shard of the run: the base games, then each removal variant's first `removal_games`."""
        size = SHARD_GAMES[self.game]
        out = [self._spec("base", start, min(size, self.games - start)) for start in range(0, self.games, size)]
        for design in self.removals:
            out += [self._spec(design, start, min(size, self.removal_games - start))
                    for start in range(0, self.removal_games, size)]
        return out

    def _spec(self, variant: str, start: int, count: int) -> Spec:
        files = self.files if variant == "base" else one_fewer(self.files, REMOVAL_TABLES[self.game], variant)
        return Spec(self.game, files, self.players, self.seed, variant, start, count, self.removal_games)


def shard_dir(out: Path, run: Run) -> Path:
    return out / "shards" / run.key


def stored(out: Path, run: Run) -> dict[str, dict[str, Any]]:
    """The shard results already in the run's folder, by shard name."""
    folder = shard_dir(out, run)
    found: dict[str, dict[str, Any]] = {}
    for spec in run.specs():
        path = folder / f"{spec.name}.json"
        if path.is_file():
            try:
                found[spec.name] = json.loads(path.read_text(encoding="utf-8"))
            except ValueError:  # a file cut short by a stop mid-write is played again
                continue
    return found


def _keep(folder: Path, spec: Spec, result: dict[str, Any]) -> None:
    """Write a shard's result atomically (a stop mid-write leaves no half file under its name)."""
    tmp = folder / f".{spec.name}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(result, sort_keys=True), encoding="utf-8")
    tmp.replace(folder / f"{spec.name}.json")


def play_run(run: Run, out: Path, workers: int, scheduler: str | None = None,
             progress: Callable[[int, int], None] | None = None, limit: int | None = None) -> list[dict[str, Any]]:
    """Every shard's result, in plan order: those stored, and the missing ones played now.

    `limit` plays at most that many missing shards and stops (how tests stop a run part-way)."""
    specs = run.specs()
    have = stored(out, run)
    missing = [s for s in specs if s.name not in have]
    if limit is not None:
        missing = missing[:limit]
    done = len(specs) - len(missing)
    if progress is not None:
        progress(done, len(specs))
    results = _dask(missing, scheduler) if scheduler else _local(missing, workers)
    folder = shard_dir(out, run)
    for kept, (spec, result) in enumerate(results):
        if not kept:  # made with the first result: a cluster that cannot be reached leaves no folder behind
            folder.mkdir(parents=True, exist_ok=True)
        _keep(folder, spec, result)
        have[spec.name] = result
        done += 1
        if progress is not None:
            progress(done, len(specs))
    return [have[s.name] for s in specs if s.name in have]


def _local(specs: list[Spec], workers: int) -> Iterator[tuple[Spec, dict[str, Any]]]:
    if workers <= 1 or len(specs) <= 1:
        for spec in specs:
            yield spec, run_shard(spec)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(run_shard, spec): spec for spec in specs}
        for future in as_completed(futures):
            yield futures[future], future.result()


def _reachable(address: str) -> None:
    """Refuse at once an address where nothing listens (Dask's client would retry until its timeout)."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        port = parts.port or DASK_PORT
        socket.create_connection((parts.hostname or "", port), timeout=10).close()
    except (OSError, ValueError) as err:
        raise ClusterError(f"--scheduler: cannot reach a Dask scheduler at {address} ({err})") from None


def _dask(specs: list[Spec], address: str) -> Iterable[tuple[Spec, dict[str, Any]]]:
    try:  # through importlib: Dask is an optional extra and declares no types (its names are Any here)
        distributed = importlib.import_module("distributed")
    except ImportError:
        raise ClusterError("--scheduler needs Dask, which is not installed: pip install 'muster[cluster]'") from None
    _reachable(address)
    try:
        client = distributed.Client(address, timeout="20s")
    except (OSError, TimeoutError) as err:
        raise ClusterError(f"--scheduler: cannot reach a Dask scheduler at {address} ({err})") from None
    with client:
        if not specs:
            return
        futures = {client.submit(run_shard, spec, pure=False): spec for spec in specs}
        for future in distributed.as_completed(list(futures)):
            yield futures[future], future.result()
