"""The reliability table of docs/reliability.md: the fuzz suite's mutations and bad actions, many times over.

Runs the same generators as tests/test_fuzz_data.py and tests/test_fuzz_actions.py, seeded, and
counts per class what happened. A *failure* is anything a user must never meet: a traceback, a
problem without its file, a copy `muster check` accepted that then crashed in play, or a refused
action that changed the state.

    .venv/bin/python bench/reliability.py [data runs per class] [action games per game]
"""

from __future__ import annotations

import random
import sys
import tempfile
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fuzz_actions import Tally, play_with_bad_actions  # noqa: E402
from fuzz_data import GAMES, MUTATIONS, copy_game, play_accepted, run_check  # noqa: E402
from harness import describe  # noqa: E402

from engine import GAME_IDS  # noqa: E402


def data_row(name: str, runs: int) -> tuple[int, int, int, int]:
    """(tried, refused with exit 2, accepted and played, failed) for one class of data mistake."""
    rng = random.Random(f"reliability:{name}")
    refused = accepted = failed = 0
    for _ in range(runs):
        game, seed = rng.choice(GAMES), rng.randrange(2**32)
        with tempfile.TemporaryDirectory() as tmp:
            folder = copy_game(Path(tmp), game)
            game_id = MUTATIONS[name](folder, random.Random(seed))
            try:
                status, err = run_check(folder.parent)
                lines = err.splitlines()[1:]
                if status == 2 and all(line.startswith(f"  {folder.parent}") for line in lines):
                    refused += 1
                elif status == 0:
                    play_accepted(folder.parent, game_id)
                    accepted += 1
                else:
                    failed += 1
                    print(f"FAILED {name} {game} {seed}: exit {status}\n{err}", file=sys.stderr)
            except BaseException:  # noqa: BLE001 - counting what a user would see as a crash
                failed += 1
                print(f"FAILED {name} {game} {seed}:\n{traceback.format_exc()}", file=sys.stderr)
    return runs, refused, accepted, failed


def action_row(game: str, games: int) -> tuple[int, Tally, int]:
    """(games played, bad actions tally, failed games) for one engine."""
    tally, failed = Tally(), 0
    for seed in range(games):
        try:
            play_with_bad_actions(game, 1000 + seed, steps=200, tally=tally)
        except BaseException:  # noqa: BLE001
            failed += 1
            print(f"FAILED {game} seed {1000 + seed}:\n{traceback.format_exc()}", file=sys.stderr)
    return games, tally, failed


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    print(describe())
    print("\n| data mistake | copies tried | refused (exit 2, located) | accepted, then built and played | failed |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name in MUTATIONS:
        tried, refused, accepted, failed = data_row(name, runs)
        print(f"| {name} | {tried} | {refused} | {accepted} | {failed} |", flush=True)
    print("\n| game | games | bad actions tried | refused, state unchanged | happened to be legal | failed |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for game in GAME_IDS:
        played, tally, failed = action_row(game, games)
        print(f"| {game} | {played} | {tally.tried} | {tally.refused} | {tally.legal} | {failed} |", flush=True)


if __name__ == "__main__":
    main()
