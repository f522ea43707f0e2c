"""What `muster check` runs beyond the schemas: the build and the games themselves, on the data as given.

A schema cannot see every way data breaks what reads it (a symbol the art lacks, a rule constant an
engine divides by, a player count an engine cannot seat). So `check` lays out every printable in
memory and sets up and plays every game for every allowed player count; whatever fails there is
reported against the game's files, and data that passes never crashes `build`, `app` or a game.
"""

from __future__ import annotations

import random
from typing import Any

from cards.load import GAME_FILE, GameData, _line_of, read_text
from cards.problems import DataError, Problem
from engine import Match, Refusal, make_game

TRIAL_SEEDS = (0, 1)
TRIAL_ACTIONS = 60
"""Random actions per seed and player count: enough to reach every phase's first decisions."""
MAX_LEGAL = 10_000
"""More choices than this in one position cannot be listed on a phone (warfare with 97 cards drawn: 691,200)."""


def trial(game: GameData) -> list[Problem]:
    """Every problem found by printing and playing `game` (its data already valid by schema)."""
    from generator.build import rehearse

    problems: list[Problem] = []
    try:
        rehearse(game)
    except DataError as err:
        problems.extend(err.problems)
    except Exception as err:  # noqa: BLE001 - any crash here is a data problem to report, not to raise
        problems.append(Problem(str(game.folder / GAME_FILE), f"printing this game fails: {_described(err)}"))
    return problems + play(game)


def play(game: GameData) -> list[Problem]:
    """Set up the game for every allowed player count, as the companion's lobby would, and play
    a few seeded random actions; each failure is a problem in the game's game.toml."""
    where = str(game.folder / GAME_FILE)
    text = read_text(game.folder / GAME_FILE)
    try:
        engine = make_game(game)
    except Exception as err:  # noqa: BLE001
        return [Problem(where, f"the engine cannot start with this data: {_described(err)}")]
    for players in range(game.min_players, game.max_players + 1):
        options = {} if game.min_players == game.max_players else {"players": players}
        for seed in TRIAL_SEEDS:
            problem = _play_one(engine, options, seed, players, where, text)
            if problem is not None:
                return [problem]
    return []


def _play_one(engine: object, options: dict[str, int], seed: int, players: int, where: str,
              text: str) -> Problem | None:
    steps = 0
    try:
        match: Match[Any] = Match(engine, seed, options)  # type: ignore[arg-type]
    except Refusal as err:
        key = "min_players" if "players" not in options else "max_players"  # a range asks the engine for a count
        return Problem(where, f"the engine cannot set up a table of {players} players ({err}); the player counts "
                              "must be ones the engine plays", _line_of(text, key), key)
    except Exception as err:  # noqa: BLE001
        return Problem(where, f"setting up a table of {players} players fails: {_described(err)}")
    rng = random.Random(seed)
    try:
        for steps in range(TRIAL_ACTIONS):
            state = match.state
            if state.is_terminal:
                break
            legal = state.legal_actions()
            if not legal:
                return Problem(where, f"with {players} players the game has no legal move after {steps} random actions")
            if len(legal) > MAX_LEGAL:
                return Problem(where, f"with {players} players a position offers {len(legal):,} moves after {steps} "
                                      f"random actions; at most {MAX_LEGAL:,} can be offered (lower the hand or draw sizes)")
            action = rng.choice(legal)
            state.label(action)
            for seat in [*range(players), None]:
                state.view(seat)
            match.apply(action)
    except Exception as err:  # noqa: BLE001
        return Problem(where, f"a game of {players} players fails after {steps} random actions (seed {seed}): "
                              f"{_described(err)}")
    return None


def _described(err: BaseException) -> str:
    return f"{type(err).__name__}: {str(err)[:300]}"
