"""Players against each other for many games, seats rotated: what `muster duel` and bench/bench_bots.py run.

Game k seats player (s + k) mod P at seat s, so every player sits every seat equally often when the number
of games is a multiple of the number of players. Each game's match seed and each bot's seed come from the
duel's seed and the game's number, so the same seed gives the same games, move for move (only the
decision times differ). Decision time is CPU time (a shared machine's wall clock measures its neighbours).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.bots import make_bot
from engine.core import Game, Match, Refusal

MAX_MOVES = 20_000
"""A game still going after this many moves is stopped and counted a draw (none has come near it)."""

TABLE_OPTIONS: dict[str, dict[str, Any]] = {"warfare": {"turn_limit": True}, "hexbattle": {"turn_limit": True}}
"""Options a duel plays with: warfare and hexbattle with their turn limits (their R17, R28), so every game ends."""


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float, float]:
    """The win rate and its 95% Wilson score interval (sound near 0 and 1, unlike p ± 1.96·se)."""
    if games == 0:
        return 0.0, 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile by the nearest rank (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


@dataclass
class Tally:
    """One player's games: wins, seats played, and the CPU seconds of each decision."""

    wins: int = 0
    seats: dict[int, int] = field(default_factory=dict)
    times: list[float] = field(default_factory=list)


@dataclass
class Duel:
    """A finished duel: per player its tally, and the games with no winner."""

    game: str
    games: int
    seed: int
    players: list[str]
    tallies: dict[str, Tally]
    draws: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "games": self.games, "seed": self.seed, "draws": self.draws,
                "players": {name: {"win_rate": [round(x, 4) for x in wilson(t.wins, self.games)],
                                   "wins": t.wins,
                                   "decision_ms_p50": round(1000 * percentile(t.times, 50), 2),
                                   "decision_ms_p95": round(1000 * percentile(t.times, 95), 2)}
                            for name, t in self.tallies.items()}}


def check_players(game: Game[Any], players: Sequence[str]) -> dict[str, Any]:
    """The table options for these players, or a Refusal naming what is wrong with the list."""
    if len(set(players)) != len(players):
        twice = next(p for p in players if players.count(p) > 1)
        raise Refusal(f"{twice!r} is named twice; name each player once (a level against itself tells nothing "
                      "the seat rotation does not).")
    for name in players:
        make_bot(name, game.id)  # refuses an unknown name
    options = dict(TABLE_OPTIONS.get(game.id, {}))
    if game.id == "waterloo":
        options["players"] = len(players)
    try:
        game.check_options(options)
    except Refusal as err:
        raise Refusal(f"{len(players)} players: {err}") from None
    seats = game.players(options)
    if seats != len(players):
        raise Refusal(f"{game.id} is a game for {seats} players, so name {seats}, not {len(players)}.")
    return options


def play_duel(game: Game[Any], players: Sequence[str], games: int, seed: int,
              progress: Callable[[int], None] | None = None, first: int = 0) -> Duel:
    """Play `games` games between `players` (names), seats rotated; `progress(k)` after the k-th.

    The games are numbers `first` to `first + games - 1` of the duel with this seed: a long duel played in
    blocks (bench/bench_bots.py's shards) plays exactly the games it would have played in one go."""
    options = check_players(game, players)
    seats = len(players)
    duel = Duel(game.id, games, seed, list(players), {name: Tally() for name in players})
    for k in range(first, first + games):
        names = [players[(s + k) % seats] for s in range(seats)]
        bots = [make_bot(name, game.id, seats, seed=f"{seed}:{k}:{s}") for s, name in enumerate(names)]
        for s, name in enumerate(names):
            duel.tallies[name].seats[s] = duel.tallies[name].seats.get(s, 0) + 1
        winner = play_game(game, f"duel:{seed}:{k}", options, bots,
                           {s: duel.tallies[name].times for s, name in enumerate(names)})
        if winner is None:
            duel.draws += 1
        else:
            duel.tallies[names[winner]].wins += 1
        if progress is not None:
            progress(k - first + 1)
    return duel


def play_game(game: Game[Any], seed: str, options: Mapping[str, Any], bots: Sequence[Any],
              times: Mapping[int, list[float]]) -> int | None:
    """One game between `bots` (one per seat); each decision's CPU time goes to its seat's list; the winner."""
    match = Match(game, seed, options)
    state = match.state
    while not state.is_terminal and len(match.log) < MAX_MOVES:
        seat = state.players_to_act()[0]
        started = time.process_time()
        action = bots[seat].decide(match, seat)
        times[seat].append(time.process_time() - started)
        state = match.apply(action)
    return state.winner if state.is_terminal else None
