"""What one draw of a table page asks for, per game: the store's reads and the engine's costlier calls, counted.

Run: python bench/bench_draw_calls.py [GAME ...] [--waterloo-players 3]

A table of each game is played by seeded random moves to a position where its seat to act has a panel of moves
to draw (medieval: the first placement; waterloo: a drawing turn before the draw; the others a few moves in),
the seat is held by this phone, and the page (AppTest, the page script only) is run five times. Each named call
is wrapped to count it, so a call made twice in one draw (the same work done twice) shows as 2.0 per draw.
Counts do not depend on the machine; the milliseconds beside them do, and include the wrapper's.
"""

from __future__ import annotations

import argparse
import collections
import functools
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import describe, page_tables
import companion.panels.medieval as medieval_panel
from companion import context
from companion.tables import Snapshot, Tables
from engine import GAME_IDS
from engine.core import Match, playable

COUNTS: collections.Counter[str] = collections.Counter()
SECONDS: collections.Counter[str] = collections.Counter()
DRAWS = 5
MOVES = {"hexbattle": 40, "warfare": 30, "waterloo": 300, "medieval": 0, "imperial": 3}


def counted(owner: Any, name: str, label: str) -> None:
    """Wrap `owner.name` so that each call is counted and timed under `label` (once per owner and name)."""
    real = getattr(owner, name)
    if hasattr(real, "__wrapped__"):
        return

    @functools.wraps(real)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        COUNTS[label] += 1
        start = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            SECONDS[label] += time.perf_counter() - start
    setattr(owner, name, wrapped)


def ready(service: Tables, game: str, options: dict[str, Any]) -> tuple[Any, int]:
    """A table of `game` at a position where its seat to act draws its moves, and that seat."""
    names = ["Ann", "Bob", "Cy"][:service.game(game).players(options)]
    table = service.create(game, names, options, seed="draw-calls")
    rng = random.Random(2)
    for _ in range(MOVES[game]):
        state = service.snapshot(table).state
        if state.is_terminal or (game == "waterloo" and state.phase == "draw" and state.view(None).get("drawn") is None):
            break
        seat = state.players_to_act()[0]
        service.act(table, seat, rng.choice(playable(state.legal_actions(seat))))
    seat = service.snapshot(table).state.players_to_act()[0]
    service.hold(table, table.seats[seat], "bench-phone")
    return service.store.table(table.id), seat


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", nargs="*", default=list(GAME_IDS))
    parser.add_argument("--waterloo-players", type=int, default=2)
    args = parser.parse_args()
    from streamlit.testing.v1 import AppTest

    print(describe())
    with tempfile.TemporaryDirectory() as folder:
        service = page_tables(Path(folder) / "draw.sqlite3")
        store = type(service.store)
        for name in ("head", "signature", "table", "table_by_code", "log"):
            counted(store, name, f"store.{name}")
        for name in ("snapshot", "consequence"):
            counted(Tables, name, f"Tables.{name}")
        counted(Snapshot, "history", "Snapshot.history")
        counted(Match, "_history", "Match._history (a replay recording the history)")
        counted(medieval_panel, "expected_outcomes", "medieval expected_outcomes")
        for game in args.games:
            options = {"hexbattle": {"turn_limit": True}, "warfare": {"turn_limit": True},
                       "waterloo": {"players": args.waterloo_players}}.get(game, {})
            kind = type(service.game(game).new_state(random.Random(0), options))
            for cls in (c for c in kind.__mro__ if c.__module__.startswith("engine.") and c.__module__ != "engine.core"):
                for name in ("view", "legal_actions", "resample"):
                    if name in cls.__dict__:
                        counted(cls, name, f"{kind.__name__}.{name}")
            table, seat = ready(service, game, options)
            page = AppTest.from_file(str(Path(context.__file__).with_name("app.py")), default_timeout=60)
            page.query_params["table"] = table.code
            page.query_params["seat"] = table.seats[seat].token
            page.session_state["device"] = {"device": "bench-phone"}
            page.run()
            COUNTS.clear()
            SECONDS.clear()
            for _ in range(DRAWS):
                page.run()
            if page.exception:
                raise RuntimeError(page.exception)
            print(f"{game} ({len(table.seats)} seats, seat {seat} to act):")
            for label, calls in sorted(COUNTS.items()):
                print(f"  {label:48s} {calls / DRAWS:5.1f} per draw  {SECONDS[label] / DRAWS * 1000:7.2f} ms")


if __name__ == "__main__":
    main()
